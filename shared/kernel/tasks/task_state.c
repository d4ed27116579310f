// SPDX-License-Identifier: GPL-2.0-or-later
/* The state letter of /proc/PID/stat, from a task's __state and exit_state. */
#include <stdint.h>

#include "kernel_tasks.h"

/* include/linux/sched.h, 6.1 */
#define TASK_REPORT		0x7fu
#define TASK_REPORT_IDLE	0x80u
#define TASK_IDLE		0x402u
#define TASK_RTLOCK_WAIT	0x1000u
#define TASK_FROZEN		0x8000u
#define TASK_UNINTERRUPTIBLE	0x2u

/* fls(): the 1-based index of the highest bit set, 0 for none. */
static unsigned int fls32(uint32_t v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* fs/proc/array.c get_task_state() -> __task_state_index() */
char ks_task_state_letter(const struct ks_kernel_layout *l, uint64_t state,
			  uint64_t exit_state)
{
	uint32_t tsk = (uint32_t)state;
	uint32_t idx = (tsk | (uint32_t)exit_state) & TASK_REPORT;
	unsigned int i;

	if ((tsk & TASK_IDLE) == TASK_IDLE)
		idx = TASK_REPORT_IDLE;
	/* An rtlock or freezer sleeper looks like a plain D sleeper. */
	if (tsk & (TASK_RTLOCK_WAIT | TASK_FROZEN))
		idx = TASK_UNINTERRUPTIBLE;
	i = fls32(idx);
	return i < l->nr_states ? l->state_letters[i] : '?';
}
