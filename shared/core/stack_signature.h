/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stack's signature: one short name for one stack, the same across
 * hosts, across builds of one release, and between the live /proc and a
 * dump, so that one hang in 300 dumps is one problem.  The rule is fixed:
 * docs/signature.md states it, and tests/unit/test_stack_signature.c pins
 * it.  Changing it breaks every saved signature: do not.
 */
#ifndef KS_STACK_SIGNATURE_H
#define KS_STACK_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

/* 12 lowercase hex digits and the NUL */
#define KS_SIGNATURE_LEN	13

/*
 * The signature of a task in state (one letter) whose stack is stack
 * ("[<0>] sym+0x1/0x2 [mod]\n" lines, as struct ks_task keeps it).
 */
void ks_stack_signature(char state, const char *stack,
			char sig_ret[KS_SIGNATURE_LEN]);

/*
 * The stack's innermost function into buf ("do_wait" of "[<0>]
 * do_wait+0x53/0x120"), "" for an empty stack: the name metrics and
 * reports show beside a signature.
 */
void ks_stack_top_frame(const char *stack, char *buf, size_t len);

#endif /* KS_STACK_SIGNATURE_H */
