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

#include "orc.h"

/* __unwind_start() from thread.sp or from registers, unwind_next_frame() */
extern const struct ks_x86_unwinder ks_fp_unwinder;

#endif /* KS_FP_UNWIND_H */
