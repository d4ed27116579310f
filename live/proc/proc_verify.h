/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test knob KSTACK_TEST_VERIFY_CACHE: background mode reads each task
 * a second time in full right after its cached read, and the two
 * records must be equal unless the task changed in between.
 */
#ifndef KS_PROC_VERIFY_H
#define KS_PROC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "task.h"

/*
 * Whether the two records of one task differ in what a sample prints;
 * the first field that differs, with both values, into buf.
 */
bool ks_proc_task_differs(const struct ks_task *a, const struct ks_task *b,
			  char *buf, size_t len);

#endif /* KS_PROC_VERIFY_H */
