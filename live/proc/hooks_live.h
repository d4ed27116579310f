/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_HOOKS_LIVE_H
#define KS_HOOKS_LIVE_H

#include "live_options.h"
#include "options.h"

/* Runs -K/-F for the live tool; returns the process exit status. */
int ks_hooks_live(const struct ks_options *opts,
		  const struct ks_test_knobs *knobs);

#endif /* KS_HOOKS_LIVE_H */
