/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the libFuzzer harnesses of tests/fuzz share: the input as a C
 * string, its lines, and fixed-size fields read off its front.  Each
 * harness is one fuzz_NAME.c with LLVMFuzzerTestOneInput(); it frees all
 * it made (LeakSanitizer runs) and aborts only where kstack broke a rule.
 */
#ifndef KS_FUZZ_H
#define KS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input as a NUL-terminated string (cut at its first NUL); never NULL. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * The next line of *text (up to '\n', which is replaced by a NUL), or
 * NULL at the end; *text moves past it.
 */
static inline char *fuzz_line(char **text)
{
	char *line = *text, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*text = nl + 1;
	} else {
		*text = line + strlen(line);
	}
	return line;
}

/* Fields off the front of the input, little-endian; zeros past its end. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint64_t fuzz_take(struct fuzz_in *in, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes; i++)
		if (i < in->n)
			v |= (uint64_t)in->p[i] << (8 * i);
	bytes = bytes < in->n ? bytes : in->n;
	in->p += bytes;
	in->n -= bytes;
	return v;
}

static FILE *fuzz_null_file;

static inline void fuzz_null_close(void)
{
	fclose(fuzz_null_file);
}

/* Where the harnesses write what they format: formatting is exercised too. */
static inline FILE *fuzz_null(void)
{
	if (fuzz_null_file)
		return fuzz_null_file;
	fuzz_null_file = fopen("/dev/null", "w");
	if (!fuzz_null_file || atexit(fuzz_null_close))
		abort();
	return fuzz_null_file;
}

/* A rule of kstack broken: libFuzzer keeps the input that did it. */
#define fuzz_assert(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: fuzz_assert(%s) failed\n", \
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

#endif /* KS_FUZZ_H */
