// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The addresses a piece of arm64 kernel code forms from its own place:
 * ADRP puts a 4 KiB page of the image in a register, and the ADD or the
 * load/store with an unsigned offset after it completes the address of
 * a variable (the kernel's "adrp x0, sym; add x0, x0, :lo12:sym" and
 * "adrp x0, sym; ldr x0, [x0, :lo12:sym]").  A kernel built without
 * CONFIG_KALLSYMS_ALL names its functions only, and a function that
 * reads init_task, tk_core or kprobe_table tells where they are.  The
 * registers are followed in a straight line, not along branches: every
 * answer is a candidate that the caller checks against the data.
 */
#include <stdbool.h>
#include <string.h>

#include "arm64.h"

struct reg_state {
	uint64_t val[32];
	bool known[32];
};

/* ADRP Xd, label: the page of pc plus immhi:immlo pages (ARM ARM C6.2.11) */
static bool adrp(uint32_t insn, uint64_t pc, unsigned int *rd, uint64_t *page)
{
	int64_t imm;

	if ((insn & 0x9f000000u) != 0x90000000u)
		return false;
	imm = (int64_t)((((insn >> 5) & 0x7ffffu) << 2) | ((insn >> 29) & 3u));
	/* sign-extend the 21 bits, times 4096 */
	imm = (int64_t)((uint64_t)imm << 43) >> 31;
	*rd = insn & 31u;
	*page = (pc & ~0xfffull) + (uint64_t)imm;
	return true;
}

/* ADD Xd, Xn, #imm{, LSL #12} (64-bit, no flags) */
static bool add_imm(uint32_t insn, unsigned int *rd, unsigned int *rn,
		    uint64_t *imm)
{
	if ((insn & 0xff800000u) != 0x91000000u)
		return false;
	*rd = insn & 31u;
	*rn = (insn >> 5) & 31u;
	*imm = (uint64_t)((insn >> 10) & 0xfffu) << ((insn >> 22) & 1u ? 12 : 0);
	return true;
}

/*
 * LDR/STR (immediate, unsigned offset) of any size, integer registers:
 * size:2 111 0 01 opc:2 imm12 Rn Rt; the offset is scaled by the size.
 */
static bool ldst_imm(uint32_t insn, unsigned int *rt, unsigned int *rn,
		     uint64_t *off, struct ks_code_ref *ref)
{
	unsigned int size = insn >> 30;

	if ((insn & 0x3f000000u) != 0x39000000u)
		return false;
	*rt = insn & 31u;
	*rn = (insn >> 5) & 31u;
	*off = (uint64_t)((insn >> 10) & 0xfffu) << size;
	ref->size = 1u << size;
	ref->store = ((insn >> 22) & 3u) == 0;
	return true;
}

static void emit(struct ks_code_ref ref, struct ks_code_ref *refs, size_t max,
		 size_t *nr)
{
	for (size_t i = 0; i < *nr && i < max; i++)
		if (refs[i].addr == ref.addr && refs[i].size == ref.size &&
		    refs[i].store == ref.store)
			return;
	if (*nr < max)
		refs[*nr] = ref;
	(*nr)++;
}

size_t ks_arm64_code_refs(const void *code, size_t len, uint64_t pc,
			  struct ks_code_ref *refs, size_t max)
{
	const unsigned char *p = code;
	struct reg_state r;
	size_t nr = 0;

	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i + 4 <= len; i += 4, pc += 4) {
		uint32_t insn = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
				(uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		struct ks_code_ref ref = { 0, 0, false };
		unsigned int rd, rn;
		uint64_t v;

		if (adrp(insn, pc, &rd, &v)) {
			r.val[rd] = v;
			r.known[rd] = true;
		} else if (add_imm(insn, &rd, &rn, &v)) {
			if (rn == 31 || !r.known[rn]) {
				r.known[rd] = false;	/* sp-relative or unknown */
				continue;
			}
			v += r.val[rn];
			ref.addr = v;
			emit(ref, refs, max, &nr);
			r.val[rd] = v;
			r.known[rd] = rd != 31;
		} else if (ldst_imm(insn, &rd, &rn, &v, &ref)) {
			ref.addr = r.val[rn] + v;
			if (rn != 31 && r.known[rn])
				emit(ref, refs, max, &nr);
			if (!ref.store)
				r.known[rd] = false;
		}
	}
	return nr;
}
