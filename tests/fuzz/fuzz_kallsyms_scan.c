// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/image/kallsyms_scan.c on a fake kernel image: the input is
 * a header, then the bytes mapped at _stext:
 *
 *   u32 end        init_uts_ns (where the scan ends), from _stext
 *   u32 swapper    swapper_pg_dir, from _stext
 *
 * with the last page padded with zeros.  VMCOREINFO gives those two and
 * _stext.  Whatever the scan finds must have been checked: _stext and
 * both symbols where VMCOREINFO puts them.
 */
#include <errno.h>

#include "fake_target.h"
#include "fuzz.h"
#include "kallsyms_scan.h"

#define STEXT		0xffffffff81000000ull
#define PAGE		4096u

struct vmci {
	uint64_t uts, swapper;
};

static int line(void *arg, const char *key, char *buf, size_t len)
{
	const struct vmci *v = arg;
	uint64_t val;

	if (!strcmp(key, "SYMBOL(_stext)"))
		val = STEXT;
	else if (!strcmp(key, "SYMBOL(init_uts_ns)"))
		val = v->uts;
	else if (!strcmp(key, "SYMBOL(swapper_pg_dir)"))
		val = v->swapper;
	else
		return -ENOENT;
	snprintf(buf, len, "%llx", (unsigned long long)val);
	return 0;
}

static void ignore(void *arg, enum ks_say_level level, const char *msg)
{
	(void)arg;
	(void)level;
	(void)msg;
}

/* the messages are formatted, then dropped */
static const struct ks_reporter quiet = { .say = ignore };

/* What was found agrees with VMCOREINFO, where it names the symbol. */
static void check(const struct ks_kallsyms_mem *ks, const struct vmci *v)
{
	uint64_t a;

	fuzz_assert(!ks_kallsyms_mem_addr(ks, "_stext", &a) && a == STEXT);
	if (!ks_kallsyms_mem_addr(ks, "init_uts_ns", &a))
		fuzz_assert(a == v->uts);
	if (!ks_kallsyms_mem_addr(ks, "swapper_pg_dir", &a))
		fuzz_assert(a == v->swapper);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct ks_fake *f = ks_fake_create();
	struct ks_kallsyms_mem *ks = NULL;
	struct ks_kallsyms_scan sc;
	struct ks_target t;
	struct vmci v;
	struct ks_vmcoreinfo vi = { .line = line, .arg = &v };
	uint64_t end;

	if (!f)
		abort();
	end = fuzz_take(&in, 4);
	v.swapper = STEXT + fuzz_take(&in, 4);
	/*
	 * Past the input the scan reads nothing, page by page, up to 256 MiB
	 * when init_uts_ns is not above _stext: keep it short.
	 */
	if (!end || end > in.n + PAGE)
		end = in.n + PAGE;
	if (v.swapper <= STEXT + end)
		v.swapper = STEXT + end + PAGE;
	v.uts = STEXT + end;
	/* whole pages, as a dump has them: the last one padded with zeros */
	if (in.n && (ks_fake_add_memory(f, STEXT, NULL, in.n + (-in.n & (PAGE - 1))) ||
		     ks_fake_write(f, STEXT, in.p, in.n)))
		abort();
	ks_fake_target(f, &t);
	if (!ks_kallsyms_scan(&t, &vi, &quiet, &ks, &sc)) {
		check(ks, &v);
		ks_kallsyms_mem_free(ks);
	}
	ks_fake_destroy(f);
	return 0;
}
