/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_BACKGROUND_H
#define KS_BACKGROUND_H

#include "live_options.h"
#include "options.h"

/* Runs background mode for the live tool; returns the process exit status. */
int ks_background_run(const struct ks_options *opts,
		      const struct ks_live_options *live);

#endif /* KS_BACKGROUND_H */
