/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_TEXT_RELEASE_H
#define KS_TEXT_RELEASE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The kernel release line (len bytes, no newline) names, into out (cap
 * bytes, NUL-terminated): an oops's or a hung task's "Not tainted REL #N"
 * or "Tainted: FLAGS REL #N", or the banner's "Linux version REL (".
 * false when the line names none.
 */
bool ks_text_release(const char *line, size_t len, char *out, size_t cap);

#endif /* KS_TEXT_RELEASE_H */
