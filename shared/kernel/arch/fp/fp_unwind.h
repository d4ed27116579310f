/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86_64 frame-pointer unwinder (arch/x86/kernel/unwind_frame.c, Linux
 * 6.1), for kernels built with CONFIG_UNWINDER_FRAME_POINTER: they have no
 * ORC tables.  It fills the ORC port's struct ks_unwind_state, so that
 * ks_unwind_done(), ks_unwind_get_return_address(),
 * ks_unwind_at_user_regs() and ks_unwind_release() serve both walks; orc
 * is a struct made by ks_orc_load_text() (text ranges, no tables) and
 * prepared by ks_orc_prepare_walk().
 */
#ifndef KS_FP_UNWIND_H
#define KS_FP_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "orc.h"
#include "target.h"

/* __unwind_start() for a task that is not running: from thread.sp. */
void ks_fp_unwind_start_blocked(struct ks_unwind_state *s, const struct ks_target *t,
				const struct ks_orc *orc, uint64_t task,
				struct ks_range stack, uint64_t thread_sp);
/* __unwind_start() from registers (KS_PT_* order). */
void ks_fp_unwind_start_regs(struct ks_unwind_state *s, const struct ks_target *t,
			     const struct ks_orc *orc, uint64_t task,
			     struct ks_range stack, const uint64_t regs[KS_PT_WORDS]);
/* unwind_next_frame() */
bool ks_fp_unwind_next_frame(struct ks_unwind_state *s);

#endif /* KS_FP_UNWIND_H */
