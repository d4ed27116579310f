// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/lines/decode_text.c on any text (kstack --decode's input): frames in each of
 * the forms it knows found and decoded with shared/lines/lines.c against a
 * stand-in kernel with DWARF (tests/fixtures/decode/src, built by make
 * into decode-vmlinux beside this harness, its module under
 * decode-debug; KSTACK_FUZZ_VMLINUX names another).  Without it, frames
 * are still found and left as they are.  No line of the input is lost,
 * and as --decode reads them, lines are bytes: NULs included, no byte is.
 */
#include <libgen.h>
#include <limits.h>
#include <unistd.h>

#include "decode_text.h"
#include "text_release.h"
#include "fuzz.h"

#define RELEASE	"9.9.9-kstack-test"

static char vmlinux[PATH_MAX] = "/nonexistent/vmlinux";
static char debug_dir[PATH_MAX + 16];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env = getenv("KSTACK_FUZZ_VMLINUX");
	char self[PATH_MAX], debug[PATH_MAX + 16];
	char *dir;

	(void)argc;
	snprintf(self, sizeof(self), "%s", (*argv)[0]);
	dir = dirname(self);
	if (env && *env) {
		snprintf(vmlinux, sizeof(vmlinux), "%s", env);
	} else {
		snprintf(debug, sizeof(debug), "%s/decode-vmlinux", dir);
		if (!access(debug, R_OK))
			snprintf(vmlinux, sizeof(vmlinux), "%s", debug);
	}
	/* modules are looked for here only, never in the host's /usr/lib/debug */
	snprintf(debug_dir, sizeof(debug_dir), "%s/decode-debug", dir);
	return 0;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* --decode's way: every line judged, then each written, NULs and all. */
static void decode_bytes(struct ks_lines *l, const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *end = text + size, *p, *nl;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int pass;

	fuzz_assert(out);
	for (pass = 0; pass < 2; pass++)
		for (p = text; p < end; p = nl + 1) {
			nl = memchr(p, '\n', (size_t)(end - p));
			nl = nl ? nl : end;
			if (pass)
				ks_decode_line(l, p, (size_t)(nl - p), out);
			else
				ks_decode_judge_line(l, p, (size_t)(nl - p));
		}
	fuzz_assert(!fclose(out));
	fuzz_assert(len >= size);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_lines_config cfg = {
		.vmlinux = vmlinux, .release = RELEASE, .debug_dir = debug_dir,
	};
	char *text = fuzz_str(data, size), *out, rel[256];
	struct ks_lines *l = ks_lines_open(&cfg);
	size_t n = count_lines(text) + (*text && text[strlen(text) - 1] != '\n');

	fuzz_assert(l);
	out = ks_decode_text(l, text);
	fuzz_assert(out);
	fuzz_assert(count_lines(out) >= n);
	decode_bytes(l, data, size);
	/* --decode's first pass over every line: the release it names */
	ks_text_release((const char *)data, size, rel, sizeof(rel));
	ks_lines_report(l, NULL);
	free(out);
	ks_lines_close(l);
	free(text);
	return 0;
}
