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
#include <stdlib.h>
#include <string.h>

#include "kernel_string.h"
#include "list_walk.h"
#include "module_syms.h"

#define MODULE_NAME_LEN		56	/* 64 - sizeof(unsigned long) */
#define MODULE_STATE_UNFORMED	3
#define MAX_MODULES		65536	/* a list longer than this is corrupt */
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
	char name[MODULE_NAME_LEN];
	/* core and init: all of it (within_module) and its text */
	uint64_t base[2], size[2], text_size[2];
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
};

/* Offsets of the members used, found once. */
struct layout {
	long list, name, state, kallsyms;
	long ks_symtab, ks_num, ks_strtab;
	bool mem;			/* 6.4+: mem[] */
	long core, init;		/* 6.1: core_layout, init_layout */
	long l_base, l_size, l_text;	/* in struct module_layout */
	long mem_off, mem_esize;	/* 6.4: mem[], sizeof(module_memory) */
	long m_base, m_size;		/* in struct module_memory */
};

static long moff(const struct ks_target *t, const char *type, const char *member)
{
	return t->ops->member_offset(t->ctx, type, member);
}

static int read_layout(const struct ks_target *t, struct layout *l)
{
	l->list = moff(t, "module", "list");
	l->name = moff(t, "module", "name");
	l->state = moff(t, "module", "state");
	l->kallsyms = moff(t, "module", "kallsyms");
	l->ks_symtab = moff(t, "mod_kallsyms", "symtab");
	l->ks_num = moff(t, "mod_kallsyms", "num_symtab");
	l->ks_strtab = moff(t, "mod_kallsyms", "strtab");
	if (l->list < 0 || l->name < 0 || l->state < 0 || l->kallsyms < 0 ||
	    l->ks_symtab < 0 || l->ks_num < 0 || l->ks_strtab < 0)
		return -ENOENT;

	l->core = moff(t, "module", "core_layout");
	if (l->core >= 0) {
		l->mem = false;
		l->init = moff(t, "module", "init_layout");
		l->l_base = moff(t, "module_layout", "base");
		l->l_size = moff(t, "module_layout", "size");
		l->l_text = moff(t, "module_layout", "text_size");
		if (l->init < 0 || l->l_base < 0 || l->l_size < 0 || l->l_text < 0)
			return -ENOENT;
		return 0;
	}
	l->mem = true;
	l->mem_off = moff(t, "module", "mem");
	l->mem_esize = t->ops->type_size(t->ctx, "module_memory");
	l->m_base = moff(t, "module_memory", "base");
	l->m_size = moff(t, "module_memory", "size");
	if (l->mem_off < 0 || l->mem_esize <= 0 || l->m_base < 0 || l->m_size < 0)
		return -ENOENT;
	return 0;
}

static int read_u64(const struct ks_target *t, uint64_t addr, uint64_t *v)
{
	return t->ops->read(t->ctx, addr, v, sizeof(*v));
}

static int read_u32(const struct ks_target *t, uint64_t addr, uint32_t *v)
{
	return t->ops->read(t->ctx, addr, v, sizeof(*v));
}

/* 6.1: module_layout {base, size, text_size, ...} for core and init. */
static int read_ranges_layout(const struct ks_target *t, const struct layout *l,
			      uint64_t mod, struct mod *m)
{
	long where[2] = { l->core, l->init };
	uint32_t size, text;
	int i, ret;

	for (i = 0; i < 2; i++) {
		uint64_t a = mod + (uint64_t)where[i];

		ret = read_u64(t, a + (uint64_t)l->l_base, &m->base[i]);
		if (!ret)
			ret = read_u32(t, a + (uint64_t)l->l_size, &size);
		if (!ret)
			ret = read_u32(t, a + (uint64_t)l->l_text, &text);
		if (ret)
			return ret;
		m->size[i] = size;
		m->text_size[i] = text;
	}
	return 0;
}

/*
 * 6.4+: mem[MOD_TEXT .. MOD_INIT_RODATA].  within_module_core() covers
 * the first four, within_module_init() the last three; each is its own
 * allocation, so "all of it" is only approximated by the text and the
 * lookup needs no more: kallsyms names text addresses.
 */
static int read_ranges_mem(const struct ks_target *t, const struct layout *l,
			   uint64_t mod, struct mod *m)
{
	static const int text_type[2] = { 0, 4 };	/* MOD_TEXT, MOD_INIT_TEXT */
	uint32_t size;
	int i, ret;

	for (i = 0; i < 2; i++) {
		uint64_t a = mod + (uint64_t)l->mem_off +
			     (uint64_t)(text_type[i] * l->mem_esize);

		ret = read_u64(t, a + (uint64_t)l->m_base, &m->base[i]);
		if (!ret)
			ret = read_u32(t, a + (uint64_t)l->m_size, &size);
		if (ret)
			return ret;
		m->size[i] = size;
		m->text_size[i] = size;
	}
	return 0;
}

static int pool_add(struct mod *m, const char *s, size_t *pool_cap,
		    uint32_t *off_ret)
{
	size_t len = strlen(s) + 1;

	if (m->pool_len + len > *pool_cap) {
		size_t cap = *pool_cap ? *pool_cap * 2 : 4096;
		char *p;

		while (cap < m->pool_len + len)
			cap *= 2;
		p = realloc(m->pool, cap);
		if (!p)
			return -ENOMEM;
		m->pool = p;
		*pool_cap = cap;
	}
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

static int read_symbols(const struct ks_target *t, const struct layout *l,
			uint64_t mod, struct mod *m)
{
	uint64_t kallsyms, symtab, strtab;
	uint8_t *raw = NULL;
	size_t pool_cap = 0;
	uint32_t num, i;
	char name[KSYM_NAME_LEN];
	int ret;

	ret = read_u64(t, mod + (uint64_t)l->kallsyms, &kallsyms);
	if (!ret)
		ret = read_u64(t, kallsyms + (uint64_t)l->ks_symtab, &symtab);
	if (!ret)
		ret = read_u32(t, kallsyms + (uint64_t)l->ks_num, &num);
	if (!ret)
		ret = read_u64(t, kallsyms + (uint64_t)l->ks_strtab, &strtab);
	if (ret)
		return ret;
	if (num > MAX_MODULE_SYMS)
		return -EINVAL;
	raw = malloc((size_t)num * ELF64_SYM_SIZE + 1);
	m->syms = calloc(num + 1, sizeof(*m->syms));
	if (!raw || !m->syms) {
		ret = -ENOMEM;
		goto out;
	}
	ret = t->ops->read(t->ctx, symtab, raw, (size_t)num * ELF64_SYM_SIZE);
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

static int read_module(const struct ks_target *t, const struct layout *l,
		       uint64_t mod, struct mod *m)
{
	uint32_t state;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = read_u32(t, mod + (uint64_t)l->state, &state);
	if (ret)
		return ret;
	if (state == MODULE_STATE_UNFORMED)
		return -EAGAIN;
	ret = t->ops->read(t->ctx, mod + (uint64_t)l->name, m->name,
			   sizeof(m->name));
	if (ret)
		return ret;
	m->name[sizeof(m->name) - 1] = '\0';
	ret = l->mem ? read_ranges_mem(t, l, mod, m)
		     : read_ranges_layout(t, l, mod, m);
	if (!ret)
		ret = read_symbols(t, l, mod, m);
	if (ret)
		mod_release(m);
	return ret;
}

static int add_module(struct ks_module_syms *ms, const struct mod *m)
{
	if (ms->nr_mods == ms->cap) {
		size_t cap = ms->cap ? ms->cap * 2 : 16;
		struct mod *p = realloc(ms->mods, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ms->mods = p;
		ms->cap = cap;
	}
	ms->mods[ms->nr_mods++] = *m;
	return 0;
}

struct walk_ctx {
	const struct ks_target *t;
	const struct layout *l;
	struct ks_module_syms *ms;
};

static int module_node(void *arg, uint64_t pos)
{
	struct walk_ctx *c = arg;
	struct mod m;
	int ret;

	ret = read_module(c->t, c->l, pos - (uint64_t)c->l->list, &m);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		if (ret != -EAGAIN)
			c->ms->skipped++;
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
static int walk_modules(const struct ks_target *t, const struct layout *l,
			struct ks_module_syms *ms)
{
	struct walk_ctx c = { t, l, ms };
	struct ks_list_state w = { .t = t, .max = MAX_MODULES };
	uint64_t head;
	int ret;

	ret = t->ops->symbol(t->ctx, "modules", &head);
	if (ret)
		return ret;
	ret = ks_list_for_each(&w, head, module_node, &c);
	if (ret || w.stop == KS_LIST_END)
		return ret;
	ms->skipped++;
	ks_list_stop_text(&w, "the module list (modules)", ms->error,
			  sizeof(ms->error));
	return 0;
}

int ks_module_syms_load(const struct ks_target *t, struct ks_module_syms **ms_ret)
{
	struct ks_module_syms *ms;
	struct layout l = { 0 };
	int ret;

	ret = read_layout(t, &l);
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

int ks_module_syms_lookup(const struct ks_module_syms *ms, uint64_t addr,
			  struct ks_sym *sym_ret)
{
	size_t k;

	for (k = 0; k < ms->nr_mods; k++) {
		const struct mod *m = &ms->mods[k];
		int which = within(m, 1, addr) ? 1 : 0;
		uint64_t nextval, bestval;
		uint32_t i, best = 0;

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
		bestval = m->nr_syms ? m->syms[0].value : 0;
		/* ELF starts real symbols at 1. */
		for (i = 1; i < m->nr_syms; i++) {
			const struct msym *s = &m->syms[i];
			const char *name = m->pool + s->name;

			if (s->undef || !*name || is_mapping_symbol(name))
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
	return -ENOENT;
}
