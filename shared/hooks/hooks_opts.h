/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What -K/-F's runner is asked: which report, filled by the option parser. */
#ifndef KS_HOOKS_OPTS_H
#define KS_HOOKS_OPTS_H

#include <stdbool.h>

struct ks_hooks_opts {
	bool kprobes;		/* -K */
	bool ftrace;		/* -F */
	bool touched;		/* -F --touched: touched_functions (6.4+) */
};

#endif /* KS_HOOKS_OPTS_H */
