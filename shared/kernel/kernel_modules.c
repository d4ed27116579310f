// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module list, as kernel/module/main.c keeps it (Linux 6.1 and 6.4+):
 * list_add_rcu(&mod->list, &modules) for every module, formed or not.
 */
#include <errno.h>
#include <string.h>

#include "kernel_modules.h"
#include "list_walk.h"

#define MAX_MODULES		65536	/* a list longer than this is corrupt */
#define MODULE_STATE_UNFORMED	3
#define MOD_TEXT		0
#define MOD_INIT_TEXT		4

void ks_module_layout_init(const struct ks_target *t, struct ks_module_layout *l)
{
	const struct ks_field_spec s[] = {
		KS_OPTIONAL(&l->list, "module", "list"),
		KS_OPTIONAL(&l->name, "module", "name"),
		KS_OPTIONAL(&l->state, "module", "state"),
		KS_OPTIONAL(&l->core, "module", "core_layout"),
		KS_OPTIONAL(&l->init, "module", "init_layout"),
		KS_OPTIONAL(&l->l_base, "module_layout", "base"),
		KS_OPTIONAL(&l->l_size, "module_layout", "size"),
		KS_OPTIONAL(&l->l_text, "module_layout", "text_size"),
		KS_OPTIONAL(&l->mem_arr, "module", "mem"),
		KS_OPTIONAL(&l->m_base, "module_memory", "base"),
		KS_OPTIONAL(&l->m_size, "module_memory", "size"),
		KS_OPTIONAL(&l->arch, "module", "arch"),
		KS_OPTIONAL(&l->num_orcs, "mod_arch_specific", "num_orcs"),
		KS_OPTIONAL(&l->orc_ip, "mod_arch_specific", "orc_unwind_ip"),
		KS_OPTIONAL(&l->orc, "mod_arch_specific", "orc_unwind"),
		KS_OPTIONAL(&l->kallsyms, "module", "kallsyms"),
		KS_OPTIONAL(&l->ks_symtab, "mod_kallsyms", "symtab"),
		KS_OPTIONAL(&l->ks_num, "mod_kallsyms", "num_symtab"),
		KS_OPTIONAL(&l->ks_strtab, "mod_kallsyms", "strtab"),
	};

	ks_field_table_resolve(t, s, sizeof(s) / sizeof(s[0]));
	/* 6.4 replaced core_layout and init_layout with mem[]. */
	l->mem = ks_field_ok(&l->mem_arr);
	l->mem_esize = t->ops->type_size(t->ctx, "module_memory");
}

bool ks_module_layout_ranges(const struct ks_module_layout *l)
{
	if (l->mem)
		return l->mem_esize > 0 && ks_field_ok(&l->m_base) &&
		       ks_field_ok(&l->m_size);
	return ks_field_ok(&l->core) && ks_field_ok(&l->init) &&
	       ks_field_ok(&l->l_base) && ks_field_ok(&l->l_size) &&
	       ks_field_ok(&l->l_text);
}

/* A struct module_layout or module_memory: base and size. */
static int read_range(const struct ks_target *t, uint64_t at,
		      const struct ks_field *base, const struct ks_field *size,
		      struct ks_range *r)
{
	uint64_t b, s;
	int ret = ks_field_read(t, at, base, 8, &b);

	if (!ret)
		ret = ks_field_read(t, at, size, 4, &s);
	if (ret)
		return ret;
	*r = (struct ks_range){ b, b + s };
	return 0;
}

/* 6.1: core_layout and init_layout, each {base, size, text_size}. */
static void ranges_layout(const struct ks_target *t,
			  const struct ks_module_layout *l, struct ks_module *m)
{
	const struct ks_field *where[2] = { &l->core, &l->init };
	uint64_t text;
	int ret = 0;

	for (int i = 0; !ret && i < 2; i++) {
		uint64_t at = m->addr + (uint64_t)where[i]->off;

		ret = ks_field_ok(where[i]) ? 0 : -ENOENT;
		if (!ret)
			ret = read_range(t, at, &l->l_base, &l->l_size,
					 &m->all[i]);
		if (!ret)
			ret = ks_field_read(t, at, &l->l_text, 4, &text);
		m->text[i] = (struct ks_range){ m->all[i].start,
						m->all[i].start + text };
	}
	m->nr_all = 2;
	m->text_err = m->ranges_err = ret;
}

/*
 * 6.4+: mem[MOD_TEXT] and mem[MOD_INIT_TEXT] first, which are all a
 * name lookup needs, then the other five for within_module().
 */
static void ranges_mem(const struct ks_target *t,
		       const struct ks_module_layout *l, struct ks_module *m)
{
	static const int order[KS_MODULE_RANGES] = {
		MOD_TEXT, MOD_INIT_TEXT, 1, 2, 3, 5, 6
	};
	int ret = l->mem_esize > 0 ? 0 : -ENOENT;

	m->text_err = ret;
	for (int i = 0; !ret && i < KS_MODULE_RANGES; i++) {
		uint64_t at = m->addr + (uint64_t)l->mem_arr.off +
			      (uint64_t)l->mem_esize * (uint64_t)order[i];

		ret = read_range(t, at, &l->m_base, &l->m_size,
				 &m->all[order[i]]);
		if (i < 2)
			m->text_err = ret;
	}
	m->text[0] = m->all[MOD_TEXT];
	m->text[1] = m->all[MOD_INIT_TEXT];
	m->nr_all = KS_MODULE_RANGES;
	m->ranges_err = ret;
}

/* mod->arch: the ORC tables unwind_module_init() sorted. */
static void orc_pointers(const struct ks_target *t,
			 const struct ks_module_layout *l, struct ks_module *m)
{
	uint64_t arch = m->addr + (uint64_t)l->arch.off;
	int ret = ks_field_ok(&l->arch) ? 0 : -ENOENT;

	if (!ret)
		ret = ks_field_read(t, arch, &l->num_orcs, 4, &m->num_orcs);
	if (!ret)
		ret = ks_field_read(t, arch, &l->orc_ip, 8, &m->orc_unwind_ip);
	if (!ret)
		ret = ks_field_read(t, arch, &l->orc, 8, &m->orc_unwind);
	m->orc_err = ret;
}

/* *mod->kallsyms: the core copy of the symbol table (kernel/module/kallsyms.c). */
static void kallsyms_pointers(const struct ks_target *t,
			      const struct ks_module_layout *l,
			      struct ks_module *m)
{
	uint64_t ks, num = 0;
	int ret = ks_field_ok(&l->kallsyms) ? 0 : -ENOENT;

	if (!ret)
		ret = ks_field_read(t, m->addr, &l->kallsyms, 8, &ks);
	if (!ret)
		ret = ks_field_read(t, ks, &l->ks_symtab, 8, &m->symtab);
	if (!ret)
		ret = ks_field_read(t, ks, &l->ks_num, 4, &num);
	if (!ret)
		ret = ks_field_read(t, ks, &l->ks_strtab, 8, &m->strtab);
	m->num_symtab = (uint32_t)num;
	m->kallsyms_err = ret;
}

/* The state and name; -EAGAIN for a module still being loaded. */
static int read_head(const struct ks_target *t, const struct ks_module_layout *l,
		     struct ks_module *m)
{
	uint64_t state;
	int ret = ks_field_read(t, m->addr, &l->state, 4, &state);

	if (!ret && state == MODULE_STATE_UNFORMED)
		return -EAGAIN;
	if (!ret)
		ret = ks_field_ok(&l->name) ? 0 : -ENOENT;
	if (!ret)
		ret = ks_read(t, m->addr + (uint64_t)l->name.off, m->name,
			      sizeof(m->name));
	m->name[sizeof(m->name) - 1] = '\0';
	return ret;
}

struct walk {
	const struct ks_target *t;
	const struct ks_module_layout *l;
	ks_module_fn fn;
	void *arg;
};

static int module_node(void *arg, uint64_t node)
{
	struct walk *w = arg;
	struct ks_module m;

	memset(&m, 0, sizeof(m));
	m.addr = node - (uint64_t)w->l->list.off;
	m.head_err = read_head(w->t, w->l, &m);
	if (m.head_err == -EAGAIN)
		return 0;
	if (m.head_err)
		return w->fn(w->arg, &m);
	if (w->l->mem)
		ranges_mem(w->t, w->l, &m);
	else
		ranges_layout(w->t, w->l, &m);
	orc_pointers(w->t, w->l, &m);
	kallsyms_pointers(w->t, w->l, &m);
	return w->fn(w->arg, &m);
}

int ks_modules_walk(const struct ks_target *t, const struct ks_module_layout *l,
		    ks_module_fn fn, void *arg, const struct ks_reporter *rep)
{
	struct walk w = { t, l, fn, arg };
	struct ks_list_state lw = { .t = t, .max = MAX_MODULES };
	uint64_t head;
	int ret;

	if (!ks_field_ok(&l->list))
		return -ENOENT;
	if (t->ops->symbol(t->ctx, "modules", &head))
		return -ENOENT;
	ret = ks_list_for_each(&lw, head, module_node, &w);
	if (ret || lw.stop == KS_LIST_END)
		return ret;
	ks_list_stop_say(rep, &lw, "the module list (modules)");
	return 0;
}
