// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -h: the synopsis and one line per option with its default and
 * range, as oled kstack's argparse help gives its defaults.  Both come
 * from the option table (shared/core/option_table.c and the live tool's
 * rows, live/options/live_options.c), so the help cannot promise an
 * option or a range the parser does not have.
 */
#include <stdio.h>

#include "help.h"
#include "live_options.h"
#include "options.h"

void ks_help_print(FILE *out)
{
	ks_options_usage(out, KS_CTX_LIVE, &ks_live_opt_table);
	ks_options_help(out, KS_CTX_LIVE, &ks_live_opt_table);
	/* report and diff list their own options (-h): rows of their modes */
	fputs("\nsubcommand:\n"
	      "  report DIR         what DIR's logs say: stuck tasks, timeline "
	      "(report -h)\n"
	      "  diff A B           what changed between two captures or a dump "
	      "(diff -h)\n", out);
	fputs("\nexit status: 0 printed, 1 nothing matched or a PID is missing, "
	      "2 usage,\n3 not permitted (needs root), 4 other failure.  "
	      "See kstack(8).\n", out);
}
