// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dump opener of --vmcore (live/vmcore/target_kdump.c, with its header
 * check live/vmcore/dump_header.c, then libkdumpfile) on a file that is
 * the input: the first 64 KiB of a dump with its notes (seeds: the basic
 * vmcore's, and a small ELF core of make-seeds.py).  The memory the
 * program headers describe lies past the file's end, so the open ends at
 * the truncation or the kallsyms tables; a signal on the way (in
 * libkdumpfile too) is a finding.  An open that fails must say why.
 */
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

#include "fuzz.h"
#include "target_kdump.h"

/*
 * libkdumpfile mallocs and frees tens of MiB per open (its page and file
 * caches); ASan's poisoning of that and its quarantine took 40 ms an
 * open.  The harness keeps every other check (bounds of stack and
 * globals, UBSan, SEGV, leaks), and runs 10 times faster.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "poison_heap=0:quarantine_size_mb=0";
}

/*
 * libkdumpfile 0.5.1 leaks a few hundred bytes in its address
 * translation setup for some forged dumps (under kdump_set_string_attr()
 * of the OS type): its own leak, not kstack's, which stays checked.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\nleak:libaddrxlat.so\n";
}

/* Pages of libkdumpfile's cache: its default 1024 (4 MiB) costs 50 ms an open. */
#define FUZZ_CACHE_PAGES	8

/*
 * The opener's kdump_new(), with a small page cache: the same code reads
 * the same bytes, 50 times faster.
 */
kdump_ctx_t *kdump_new(void)
{
	static kdump_ctx_t *(*real)(void);
	kdump_ctx_t *ctx;

	if (!real)
		real = (kdump_ctx_t *(*)(void))dlsym(RTLD_NEXT, "kdump_new");
	if (!real)
		abort();
	ctx = real();
	if (ctx && kdump_set_number_attr(ctx, "cache.size",
					 FUZZ_CACHE_PAGES) != KDUMP_OK)
		abort();
	return ctx;
}

static void count(void *arg, enum ks_say_level level, const char *msg)
{
	(void)msg;
	(void)level;
	++*(int *)arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int said = 0, fd = memfd_create("fuzz-dump", MFD_CLOEXEC);
	struct ks_kdump_args a = {
		.vmcore = path,
		.verbose = true,
		.rep = &(const struct ks_reporter){ count, &said, 0 },
	};
	struct ks_kdump *kd = NULL;
	struct ks_target t;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (ks_kdump_open(&a, &kd, &t))
		fuzz_assert(said > 0);
	else
		ks_kdump_close(kd);
	close(fd);
	return 0;
}
