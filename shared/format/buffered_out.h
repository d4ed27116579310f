/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_BUFFERED_OUT_H
#define KS_BUFFERED_OUT_H

#include <stdio.h>

/*
 * A fully buffered stream in front of dst.  crash's fp is unbuffered, so
 * a sample written to it straight costs a write(2) for every fputc and
 * fprintf: 531,000 of them for 10,000 threads.  Through this stream dst
 * sees one fwrite per BUFSIZ bytes.  When no stream can be made (no
 * memory), it returns dst itself: the output is the same, only slower.
 */

FILE *ks_buffered_open(FILE *dst);
/*
 * Flushes what is buffered into dst, then dst itself, and frees the
 * stream (out may be dst, from a failed open).  Returns 0, or a negative errno when any write into dst failed.
 */
int ks_buffered_close(FILE *out, FILE *dst);

#endif /* KS_BUFFERED_OUT_H */
