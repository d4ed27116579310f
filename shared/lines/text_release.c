// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel release a text names, for --decode: an oops or a hung-task
 * report carries it on the line dump_stack_print_info() and
 * print_tainted() write ("CPU: 0 PID: 1 Comm: sh Not tainted
 * 6.1.0-56-cloud-amd64 #1 Debian ...", "Tainted: G  O  6.12.9 #1"), and a
 * whole dmesg on the banner's ("Linux version 6.1.0-56-cloud-amd64
 * (debian-kernel@...").  The debug vmlinux of that release decodes the
 * text; the running kernel's may be another.
 */
#include <stdbool.h>
#include <string.h>

#include "text_release.h"

/* The characters of a release as uname -r prints it. */
static bool release_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || strchr("._+-~", c);
}

/* [from, to) as the release into out, if it looks like one. */
static bool take(const char *from, const char *to, char *out, size_t cap)
{
	size_t n = (size_t)(to - from), i;

	if (!n || n >= cap || from[0] < '0' || from[0] > '9')
		return false;
	for (i = 0; i < n; i++)
		if (!release_char(from[i]))
			return false;
	if (!memchr(from, '.', n))
		return false;
	memcpy(out, from, n);
	out[n] = '\0';
	return true;
}

/* Where word first occurs in line's len bytes, or NULL. */
static const char *find(const char *line, size_t len, const char *word)
{
	size_t w = strlen(word), i;

	for (i = 0; i + w <= len; i++)
		if (!memcmp(line + i, word, w))
			return line + i;
	return NULL;
}

/* "Linux version REL (" */
static bool banner_release(const char *line, size_t len, char *out, size_t cap)
{
	const char *p = find(line, len, "Linux version "), *end = line + len, *q;

	if (!p)
		return false;
	p += strlen("Linux version ");
	for (q = p; q < end && *q != ' '; q++)
		;
	return q < end && take(p, q, out, cap);
}

/* "[Nn]ot tainted REL #N" or "Tainted: FLAGS REL #N": the word before " #" */
static bool taint_release(const char *line, size_t len, char *out, size_t cap)
{
	const char *t = find(line, len, "ot tainted ");
	const char *end = line + len, *hash, *p;

	if (!t)
		t = find(line, len, "Tainted: ");
	if (!t)
		return false;
	hash = find(t, (size_t)(end - t), " #");
	if (!hash)
		return false;
	for (p = hash; p > t && p[-1] != ' '; p--)
		;
	return take(p, hash, out, cap);
}

bool ks_text_release(const char *line, size_t len, char *out, size_t cap)
{
	return taint_release(line, len, out, cap) ||
	       banner_release(line, len, out, cap);
}
