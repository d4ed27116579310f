// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long a task in D has been blocked at least, by the hung-task
 * detector's own record.  check_hung_task() (kernel/hung_task.c), run by
 * khungtaskd every check interval over the tasks in D, sets
 * last_switch_count to nvcsw + nivcsw and last_switch_time to jiffies
 * whenever the count moved since its last look.  So where the count is
 * still the one it recorded (and not 0: a task never switched out is not
 * looked at), the task has not been switched out since jiffies was
 * last_switch_time: it went to sleep before that look, at most one check
 * interval before.  Where the count moved, or khungtaskd has not looked
 * since the task last ran, the record says nothing of this sleep.
 *
 * The record is in jiffies: the time is jiffies_64 at the dump minus
 * last_switch_time, over HZ (kernel_layout.c finds both).
 */
#include "task_walk.h"

#define NSEC_PER_SEC	1000000000ull

static bool blocked_known(const struct ks_kernel_layout *l)
{
	return ks_field_ok(&l->last_switch_count) &&
	       ks_field_ok(&l->last_switch_time) && l->jiffies_64 && l->hz;
}

/* jiffies_64 at the dump, read the first time a task needs it: 0 or -1 */
static int jiffies_now(struct ks_walk *w, uint64_t *now)
{
	if (!w->jiffies_state) {
		w->jiffies_state = -1;
		if (!ks_read(w->k->t, w->k->l.jiffies_64, &w->jiffies, 8))
			w->jiffies_state = 1;
	}
	*now = w->jiffies;
	return w->jiffies_state > 0 ? 0 : -1;
}

/* delta jiffies in nanoseconds, without overflowing the product */
static uint64_t jiffies_ns(uint64_t delta, uint64_t hz)
{
	return delta / hz * NSEC_PER_SEC + delta % hz * NSEC_PER_SEC / hz;
}

void ks_task_blocked(struct ks_walk *w, const uint8_t *tb, struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint64_t count, since, now, mask;

	if (t->state != 'D' || !t->has_switches || !blocked_known(l))
		return;
	count = ks_field_get(tb, &l->last_switch_count);
	since = ks_field_get(tb, &l->last_switch_time);
	if (!count || count != t->nvcsw + t->nivcsw || jiffies_now(w, &now))
		return;
	/* an unsigned long of 4 bytes wraps as time_after() expects */
	mask = l->last_switch_time.size == 4 ? 0xffffffffull : ~0ull;
	t->has_blocked = true;
	t->blocked_ns = jiffies_ns((now - since) & mask, l->hz);
}
