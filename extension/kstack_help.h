/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_KSTACK_HELP_H
#define KS_KSTACK_HELP_H

/*
 * crash's "help kstack": its synopsis and options from the core's option
 * table (shared/core/option_table.c), around this file's prose.  Made once,
 * when the extension is loaded; NULL when memory ran out.
 */
char **ks_crash_help(void);
void ks_crash_help_free(void);

#endif /* KS_KSTACK_HELP_H */
