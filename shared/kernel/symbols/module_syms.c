// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module symbols from each struct module's kallsyms copy (Linux 6.1:
 * kernel/module/kallsyms.c, kernel/module/main.c __module_address()).
 *
 * After a module is loaded its mod->kallsyms points at the core copy of
 * the symbol table (only the symbols is_core_symbol() kept) with its own
 * string table; the init copy is gone once init finishes.  The kernel
 * names an address by scanning that table linearly, and so do we, on a
 * copy read once: a stack has few module frames.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "kernel_modules.h"
#include "kernel_string.h"
#include "module_syms.h"

#define MAX_MODULE_SYMS		(1u << 20)
#define KSYM_NAME_LEN		512
#define ELF64_SYM_SIZE		24

/* The parts of Elf64_Sym the lookup uses. */
struct msym {
	uint64_t value;
	uint32_t name;		/* offset in the module's name pool */
	bool undef;		/* st_shndx == SHN_UNDEF */
};

struct mod {
	char name[KS_MODULE_NAME_LEN];
	/* core and init: all of it (within_module) and its text */
	uint64_t base[2], size[2], text_size[2];
	/* 6.4+: each of mem[] (within_module()), for data addresses */
	struct ks_range mem[KS_MODULE_RANGES];
	int nr_mem;
	struct msym *syms;
	uint32_t nr_syms;
	char *pool;
	size_t pool_len;
};

struct ks_module_syms {
	struct mod *mods;
	size_t nr_mods, cap;
	size_t skipped;
	char error[256];	/* how the list ended early, or "" */
	char unread[512];	/* "NAME at 0xADDR (why), ...": the skipped */
};

/*
 * The members it cannot do without, beyond the list: a kernel without
 * them has no module symbols to offer (-ENOENT).
 */
static int need_layout(const struct ks_module_layout *l)
{
	if (!ks_field_ok(&l->list) || !ks_field_ok(&l->name) ||
	    !ks_field_ok(&l->state) || !ks_field_ok(&l->kallsyms) ||
	    !ks_field_ok(&l->ks_symtab) || !ks_field_ok(&l->ks_num) ||
	    !ks_field_ok(&l->ks_strtab) || !ks_module_layout_ranges(l))
		return -ENOENT;
	return 0;
}

/*
 * Core and init: the text, and all of the module as within_module()
 * sees it.  6.4+ keeps each part in its own allocation, so "all of it"
 * is only approximated by the text, and the lookup needs no more:
 * kallsyms names text addresses.
 */
static void mod_ranges(const struct ks_module_layout *l,
		       const struct ks_module *km, struct mod *m)
{
	for (int i = 0; i < 2; i++) {
		const struct ks_range *all = l->mem ? &km->text[i] : &km->all[i];

		m->base[i] = km->text[i].start;
		m->text_size[i] = km->text[i].end - km->text[i].start;
		m->size[i] = all->end - all->start;
	}
	if (!l->mem || km->ranges_err)
		return;
	for (int i = 0; i < km->nr_all && i < KS_MODULE_RANGES; i++)
		m->mem[m->nr_mem++] = km->all[i];
}

static int pool_add(struct mod *m, const char *s, size_t *pool_cap,
		    uint32_t *off_ret)
{
	size_t len = strlen(s) + 1;
	char *p = ks_grow_min(m->pool, pool_cap, m->pool_len + len, 1, 4096);

	if (!p)
		return -ENOMEM;
	m->pool = p;
	memcpy(m->pool + m->pool_len, s, len);
	*off_ret = (uint32_t)m->pool_len;
	m->pool_len += len;
	return 0;
}

/* A Elf64_Sym read from memory: st_name u32, info, other, shndx u16, value. */
static void decode_sym(const uint8_t *raw, uint32_t *name, uint16_t *shndx,
		       uint64_t *value)
{
	memcpy(name, raw, 4);
	memcpy(shndx, raw + 6, 2);
	memcpy(value, raw + 8, 8);
}

static int read_symbols(const struct ks_target *t, const struct ks_module *km,
			struct mod *m)
{
	uint64_t strtab = km->strtab;
	uint8_t *raw = NULL;
	size_t pool_cap = 0;
	uint32_t num = km->num_symtab, i;
	char name[KSYM_NAME_LEN];
	int ret;

	if (km->kallsyms_err)
		return km->kallsyms_err;
	if (num > MAX_MODULE_SYMS)
		return -EINVAL;
	raw = malloc((size_t)num * ELF64_SYM_SIZE + 1);
	m->syms = calloc(num + 1, sizeof(*m->syms));
	if (!raw || !m->syms) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ks_read(t, km->symtab, raw, (size_t)num * ELF64_SYM_SIZE);
	for (i = 0; !ret && i < num; i++) {
		struct msym *s = &m->syms[m->nr_syms];
		uint32_t st_name;
		uint16_t shndx;

		decode_sym(raw + (size_t)i * ELF64_SYM_SIZE, &st_name, &shndx,
			   &s->value);
		s->undef = !shndx;
		name[0] = '\0';
		if (st_name && ks_read_kstring(t, strtab + st_name, name, sizeof(name)))
			name[0] = '\0';
		ret = pool_add(m, name, &pool_cap, &s->name);
		m->nr_syms++;
	}
out:
	free(raw);
	return ret;
}

static void mod_release(struct mod *m)
{
	free(m->syms);
	free(m->pool);
}

static int read_module(const struct ks_target *t,
		       const struct ks_module_layout *l,
		       const struct ks_module *km, struct mod *m)
{
	int ret = km->head_err ? km->head_err : km->text_err;

	memset(m, 0, sizeof(*m));
	if (ret)
		return ret;
	memcpy(m->name, km->name, sizeof(m->name));
	mod_ranges(l, km, m);
	ret = read_symbols(t, km, m);
	if (ret)
		mod_release(m);
	return ret;
}

static int add_module(struct ks_module_syms *ms, const struct mod *m)
{
	struct mod *p = ks_grow(ms->mods, &ms->cap, ms->nr_mods + 1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	ms->mods = p;
	ms->mods[ms->nr_mods++] = *m;
	return 0;
}

struct walk_ctx {
	const struct ks_target *t;
	const struct ks_module_layout *l;
	struct ks_module_syms *ms;
};

/* One skipped module named for ks_module_syms_unread(); cut when full. */
static void keep_unread(struct ks_module_syms *ms, const struct ks_module *km,
			int err)
{
	size_t used = strlen(ms->unread);

	if (used + 1 >= sizeof(ms->unread))
		return;
	snprintf(ms->unread + used, sizeof(ms->unread) - used,
		 "%s%s at 0x%llx (%s)", used ? ", " : "",
		 km->head_err || !km->name[0] ? "?" : km->name,
		 (unsigned long long)km->addr, strerror(-err));
}

/* A module that cannot be read is skipped, counted and named. */
static int module_node(void *arg, const struct ks_module *km)
{
	struct walk_ctx *c = arg;
	struct mod m;
	int ret;

	ret = read_module(c->t, c->l, km, &m);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		c->ms->skipped++;
		keep_unread(c->ms, km, ret);
		return 0;
	}
	ret = add_module(c->ms, &m);
	if (ret)
		mod_release(&m);
	return ret;
}

/*
 * The `modules` list, through the walk every kernel list takes: a loop
 * or a broken link ends it, and what was read so far still names text.
 */
/* How the module list ended early, kept for ks_module_syms_report(). */
static void keep_error(void *arg, enum ks_say_level level, const char *text)
{
	struct ks_module_syms *ms = arg;

	(void)level;
	snprintf(ms->error, sizeof(ms->error), "%s", text);
}

static int walk_modules(const struct ks_target *t,
			const struct ks_module_layout *l,
			struct ks_module_syms *ms)
{
	struct walk_ctx c = { t, l, ms };
	const struct ks_reporter keep = { .say = keep_error, .arg = ms };
	int ret;

	ms->error[0] = '\0';
	ret = ks_modules_walk(t, l, module_node, &c, &keep);
	if (!ret && ms->error[0])
		ms->skipped++;
	return ret;
}

int ks_module_syms_load(const struct ks_target *t, struct ks_module_syms **ms_ret)
{
	struct ks_module_syms *ms;
	struct ks_module_layout l;
	int ret;

	ks_module_layout_init(t, &l);
	ret = need_layout(&l);
	if (ret)
		return ret;
	ms = calloc(1, sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	ret = walk_modules(t, &l, ms);
	if (ret) {
		ks_module_syms_free(ms);
		return ret;
	}
	*ms_ret = ms;
	return 0;
}

void ks_module_syms_free(struct ks_module_syms *ms)
{
	size_t i;

	if (!ms)
		return;
	for (i = 0; i < ms->nr_mods; i++)
		mod_release(&ms->mods[i]);
	free(ms->mods);
	free(ms);
}

size_t ks_module_syms_count(const struct ks_module_syms *ms)
{
	return ms->nr_mods;
}

size_t ks_module_syms_skipped(const struct ks_module_syms *ms)
{
	return ms->skipped;
}

const char *ks_module_syms_error(const struct ks_module_syms *ms)
{
	return ms->error[0] ? ms->error : NULL;
}

const char *ks_module_syms_unread(const struct ks_module_syms *ms)
{
	return ms->unread[0] ? ms->unread : NULL;
}

/* is_mapping_symbol() of 6.1: ARM/MIPS mapping symbols and local labels. */
static bool is_mapping_symbol(const char *s)
{
	if (s[0] == '.' && s[1] == 'L')
		return true;
	return s[0] == '$' && s[1] && strchr("axtd", s[1]) &&
	       (s[2] == '\0' || s[2] == '.');
}

static bool within(const struct mod *m, int which, uint64_t addr)
{
	return m->base[which] && addr - m->base[which] < m->size[which];
}

/*
 * find_kallsyms_symbol()'s search among m's symbols in [lo, hi): the one
 * at or below addr (past bestval, which the kernel starts at symbol 0's
 * value), sized to the next one or to nextval.
 */
static int best_symbol(const struct mod *m, uint64_t addr, uint64_t lo,
		       uint64_t hi, uint64_t bestval, uint64_t nextval,
		       struct ks_sym *sym_ret)
{
	uint32_t i, best = 0;

	/* ELF starts real symbols at 1. */
	for (i = 1; i < m->nr_syms; i++) {
		const struct msym *s = &m->syms[i];
		const char *name = m->pool + s->name;

		if (s->undef || !*name || is_mapping_symbol(name) ||
		    s->value < lo || s->value >= hi)
			continue;
		if (s->value <= addr && s->value > bestval) {
			best = i;
			bestval = s->value;
		}
		if (s->value > addr && s->value < nextval)
			nextval = s->value;
	}
	if (!best)
		return -ENOENT;
	sym_ret->name = m->pool + m->syms[best].name;
	sym_ret->addr = bestval;
	sym_ret->size = nextval - bestval;
	sym_ret->module = m->name;
	return 0;
}

/*
 * An address in a 6.4+ module's data (a lock in its .data, --waits'
 * "where"), outside the text ks_module_syms_lookup() knows: the symbol
 * at or below it in the same mem[] part, sized to the next symbol or the
 * part's end, as within_module() finds the module.
 */
static int data_lookup(const struct ks_module_syms *ms, uint64_t addr,
		       struct ks_sym *sym_ret)
{
	for (size_t k = 0; k < ms->nr_mods; k++) {
		const struct mod *m = &ms->mods[k];

		for (int r = 0; r < m->nr_mem; r++) {
			const struct ks_range *p = &m->mem[r];

			if (addr >= p->start && addr < p->end)
				return best_symbol(m, addr, p->start, p->end,
						   0, p->end, sym_ret);
		}
	}
	return -ENOENT;
}

int ks_module_syms_lookup(const struct ks_module_syms *ms, uint64_t addr,
			  struct ks_sym *sym_ret)
{
	size_t k;

	for (k = 0; k < ms->nr_mods; k++) {
		const struct mod *m = &ms->mods[k];
		int which = within(m, 1, addr) ? 1 : 0;
		uint64_t nextval;

		if (!within(m, 0, addr) && !within(m, 1, addr))
			continue;
		/*
		 * At worst, the next value is the end of the module's text, as
		 * find_kallsyms_symbol() has it.  For an address past the text
		 * (module data, which /proc stacks never show) the kernel's
		 * size would wrap below zero; the end of the module is used.
		 */
		nextval = m->base[which] + m->text_size[which];
		if (addr >= nextval)
			nextval = m->base[which] + m->size[which];
		return best_symbol(m, addr, 0, UINT64_MAX,
				   m->nr_syms ? m->syms[0].value : 0, nextval,
				   sym_ret);
	}
	return data_lookup(ms, addr, sym_ret);
}
