/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_TARGET_KDUMP_H
#define KS_TARGET_KDUMP_H

#include "options.h"

/* Runs --vmcore for the live tool; returns the process exit status. */
int ks_kdump_run(const struct ks_options *opts);

#endif /* KS_TARGET_KDUMP_H */
