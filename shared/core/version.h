/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The version comes from the VERSION file at the top, through the
 * Makefile (-DKS_VERSION), so the binaries, the crash extension and
 * debian/changelog cannot disagree about it.
 */
#ifndef KS_VERSION_H
#define KS_VERSION_H

#ifndef KS_VERSION
#error "KS_VERSION is defined by the Makefile from the VERSION file"
#endif

/*
 * The layout of --json.  Raised when a field changes meaning or goes
 * away; fields may be added without a change.
 */
#define KS_JSON_SCHEMA	1

#endif /* KS_VERSION_H */
