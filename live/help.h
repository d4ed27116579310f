/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_HELP_H
#define KS_HELP_H

#include <stdio.h>

/* kstack -h: the usage, then one line per option with default and range. */
void ks_help_print(FILE *out);

#endif /* KS_HELP_H */
