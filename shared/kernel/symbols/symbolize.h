/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel addresses printed the way the kernel's printk formats print them
 * (%pB for stack frames, %pS for handlers and trampolines).
 */
#ifndef KS_SYMBOLIZE_H
#define KS_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

/* Longest %pB text: KSYM_SYMBOL_LEN of Linux 6.1, less the build id. */
#define KS_SYM_PB_LEN	640

/*
 * %pB (lib/vsprintf.c symbol_string -> sprint_backtrace -> __sprint_symbol
 * with symbol_offset -1): the symbol is looked up at addr - 1, so that a
 * return address just past a call to a noreturn function at the end of
 * a function still names the caller, but the offset printed is that of
 * addr itself: "name+0xOFF/0xSIZE", then " [module]" for module text.
 * An address no symbol covers prints "0x" and lowercase hex.
 *
 * Writes at most len bytes including the NUL, like snprintf, and returns
 * the length the whole text has (so a return >= len means it was cut),
 * or -EINVAL for a NULL buf with a nonzero len.
 */
int ks_sym_format_pB(const struct ks_target *t, uint64_t addr, char *buf,
		     size_t len);

/*
 * %pS (sprint_symbol()): the same text for addr itself, with no -1, as
 * the kernel prints handlers and trampolines.  An address past the
 * symbol's size is in no symbol and prints "0x" and lowercase hex.
 */
int ks_sym_format_pS(const struct ks_target *t, uint64_t addr, char *buf,
		     size_t len);

/* The module named in a %pS text ("... [mod]"), or "" for vmlinux. */
void ks_pS_module(const char *text, char *mod, size_t len);

#endif /* KS_SYMBOLIZE_H */
