// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace_mod_address_lookup(): the maps in list order, in each the first
 * function whose [ip, ip + size) holds the address; the module name is
 * mod_map->mod->name.  Both lists are read once into ranges in that
 * order, so the first range that matches is the kernel's answer.
 */
#include <errno.h>
#include <string.h>

#include "ftrace_mod_syms.h"
#include "kernel_list.h"
#include "kernel_string.h"
#include "member_table.h"

#define KSYM_NAME_LEN	512
#define MODULE_NAME_LEN	56
/* save_ftrace_mod_rec() keeps one entry per traced function of a module */
#define MAX_MAPS	65536
#define MAX_FUNCS	(1u << 20)

struct fmod_walk {
	const struct ks_target *t;
	struct ks_sym_ranges *rs;
	struct ks_field map_list, map_mod, map_funcs;
	struct ks_field fn_list, fn_name, fn_ip, fn_size;
	long fn_size_len;
	struct ks_field mod_name;
	char module[MODULE_NAME_LEN];
	int broken;		/* the first break inside a map's funcs */
};

static int add_func(uint64_t node, void *arg)
{
	struct fmod_walk *w = arg;
	uint64_t fn = node - (uint64_t)w->fn_list.off, name_ptr, ip, size = 0;
	char name[KSYM_NAME_LEN];

	if (ks_read_u64(w->t, fn + (uint64_t)w->fn_name.off, &name_ptr) ||
	    ks_read_u64(w->t, fn + (uint64_t)w->fn_ip.off, &ip) ||
	    ks_read(w->t, fn + (uint64_t)w->fn_size.off, &size, (size_t)w->fn_size_len))
		return -EFAULT;
	if (ks_read_kstring(w->t, name_ptr, name, sizeof(name)) && !name[0])
		return -EFAULT;
	return ks_sym_ranges_add(w->rs, ip, size, name, w->module);
}

static int add_map(uint64_t node, void *arg)
{
	struct fmod_walk *w = arg;
	uint64_t map = node - (uint64_t)w->map_list.off, mod;
	int ret;

	if (ks_read_u64(w->t, map + (uint64_t)w->map_mod.off, &mod))
		return -EFAULT;
	if (!mod || ks_read_kstring(w->t, mod + (uint64_t)w->mod_name.off, w->module,
				    sizeof(w->module)))
		strcpy(w->module, "?");
	ret = ks_list_walk(w->t, map + (uint64_t)w->map_funcs.off, MAX_FUNCS,
			   add_func, w);
	if (ret == -ENOMEM)
		return ret;
	/* One map's broken list costs its own functions, not the others'. */
	if (ret && !w->broken)
		w->broken = ret;
	return 0;
}

static int read_layout(const struct ks_target *t, struct fmod_walk *w)
{
	const struct ks_field_spec s[] = {
		KS_NEED(&w->map_list, "ftrace_mod_map", "list"),
		KS_NEED(&w->map_mod, "ftrace_mod_map", "mod"),
		KS_NEED(&w->map_funcs, "ftrace_mod_map", "funcs"),
		KS_NEED(&w->fn_list, "ftrace_mod_func", "list"),
		KS_NEED(&w->fn_name, "ftrace_mod_func", "name"),
		KS_NEED(&w->fn_ip, "ftrace_mod_func", "ip"),
		KS_NEED(&w->fn_size, "ftrace_mod_func", "size"),
		KS_NEED(&w->mod_name, "module", "name"),
	};
	int ret = ks_field_table_resolve(t, s, sizeof(s) / sizeof(s[0]));

	/* unsigned int in 6.1 and 6.12; the size decides, not the version */
	w->fn_size_len = w->fn_size.size == 8 ? 8 : 4;
	return ret;
}

int ks_ftrace_mod_syms_read(const struct ks_target *t, struct ks_sym_ranges *rs)
{
	struct fmod_walk w = { .t = t, .rs = rs };
	uint64_t head;
	int ret;

	if (t->ops->symbol(t->ctx, "ftrace_mod_maps", &head) || read_layout(t, &w))
		return -ENOENT;
	ret = ks_list_walk(t, head, MAX_MAPS, add_map, &w);
	return ret ? ret : w.broken;
}
