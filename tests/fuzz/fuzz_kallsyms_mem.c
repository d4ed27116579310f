// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/image/kallsyms_mem.c on kallsyms tables in a fake kernel's memory
 * (tests/support/fake_target.c).  The input is a header, then the bytes
 * mapped at TABLES:
 *
 *   u8  flags      bit 0: absolute kallsyms_addresses, else 32-bit
 *                  offsets from kallsyms_relative_base
 *   u64 stext      _stext as VMCOREINFO gives it
 *   u32 names, num_syms, token_table, token_index, offsets (or
 *       addresses), relative_base: where each table starts, from TABLES
 *
 * Then every symbol is walked from _stext by lookup, each name looked up
 * again by name, and a few addresses below _stext are looked up.
 */
#include "fake_target.h"
#include "fuzz.h"
#include "kallsyms_mem.h"

#define TABLES		0xffffffff82800000ull
#define MAX_STEPS	256
/*
 * kallsyms_num_syms is trusted up to 4 Mi symbols, 64 MiB of records
 * allocated before the first name is read; counts past what a few
 * kilobytes of names can hold only cost time here.
 */
#define MAX_NUM		4096

/* A symbol found holds the address, and is found again by its name. */
static bool lookup(const struct ks_kallsyms_mem *ks, uint64_t addr,
		   struct ks_sym *s)
{
	uint64_t a;

	if (ks_kallsyms_mem_lookup(ks, addr, s))
		return false;
	fuzz_assert(s->addr <= addr && addr - s->addr < s->size);
	fuzz_assert(!ks_kallsyms_mem_addr(ks, s->name, &a));
	return true;
}

static void walk(const struct ks_kallsyms_mem *ks, uint64_t stext)
{
	static const uint64_t low[] = { 0, 1, 0x1000, 0xffffffff80000000ull };
	uint64_t addr = stext, a;
	struct ks_sym s;

	ks_kallsyms_mem_count(ks);
	for (int i = 0; i < MAX_STEPS && lookup(ks, addr, &s); i++)
		addr = s.addr + s.size;
	lookup(ks, stext - 1, &s);
	for (size_t i = 0; i < sizeof(low) / sizeof(low[0]); i++)
		lookup(ks, low[i], &s);
	ks_kallsyms_mem_addr(ks, "_stext", &a);
	ks_kallsyms_mem_addr(ks, "", &a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct ks_kallsyms_mem_addrs a = { 0 };
	struct ks_kallsyms_mem *ks = NULL;
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	bool absolute;

	if (!f)
		abort();
	absolute = fuzz_take(&in, 1) & 1;
	a.stext = fuzz_take(&in, 8);
	a.names = TABLES + fuzz_take(&in, 4);
	a.num_syms = TABLES + fuzz_take(&in, 4);
	a.token_table = TABLES + fuzz_take(&in, 4);
	a.token_index = TABLES + fuzz_take(&in, 4);
	if (absolute) {
		a.addresses = TABLES + fuzz_take(&in, 4);
		fuzz_take(&in, 4);
	} else {
		a.offsets = TABLES + fuzz_take(&in, 4);
		a.relative_base = TABLES + fuzz_take(&in, 4);
	}
	if (ks_fake_add_memory(f, TABLES, in.p, in.n))
		abort();
	if (a.num_syms - TABLES + 4 <= in.n) {
		uint32_t num;

		memcpy(&num, in.p + (a.num_syms - TABLES), 4);
		if (num > MAX_NUM)
			goto out;
	}
	ks_fake_target(f, &t);
	if (!ks_kallsyms_mem_load(&t, &a, &ks)) {
		walk(ks, a.stext);
		ks_kallsyms_mem_free(ks);
	}
out:
	ks_fake_destroy(f);
	return 0;
}
