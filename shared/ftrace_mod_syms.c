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

#define KSYM_NAME_LEN	512
#define MODULE_NAME_LEN	56
/* save_ftrace_mod_rec() keeps one entry per traced function of a module */
#define MAX_MAPS	65536
#define MAX_FUNCS	(1u << 20)

struct fmod_walk {
	const struct ks_target *t;
	struct ks_sym_ranges *rs;
	long map_list, map_mod, map_funcs;
	long fn_list, fn_name, fn_ip, fn_size, fn_size_len;
	long mod_name;
	char module[MODULE_NAME_LEN];
	int broken;		/* the first break inside a map's funcs */
};

static int add_func(uint64_t node, void *arg)
{
	struct fmod_walk *w = arg;
	uint64_t fn = node - (uint64_t)w->fn_list, name_ptr, ip, size = 0;
	char name[KSYM_NAME_LEN];

	if (ks_read_u64(w->t, fn + (uint64_t)w->fn_name, &name_ptr) ||
	    ks_read_u64(w->t, fn + (uint64_t)w->fn_ip, &ip) ||
	    ks_read(w->t, fn + (uint64_t)w->fn_size, &size, (size_t)w->fn_size_len))
		return -EFAULT;
	if (ks_read_kstring(w->t, name_ptr, name, sizeof(name)) && !name[0])
		return -EFAULT;
	return ks_sym_ranges_add(w->rs, ip, size, name, w->module);
}

static int add_map(uint64_t node, void *arg)
{
	struct fmod_walk *w = arg;
	uint64_t map = node - (uint64_t)w->map_list, mod;
	int ret;

	if (ks_read_u64(w->t, map + (uint64_t)w->map_mod, &mod))
		return -EFAULT;
	if (!mod || ks_read_kstring(w->t, mod + (uint64_t)w->mod_name, w->module,
				    sizeof(w->module)))
		strcpy(w->module, "?");
	ret = ks_list_walk(w->t, map + (uint64_t)w->map_funcs, MAX_FUNCS,
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
	long size_len;

	w->map_list = t->ops->member_offset(t->ctx, "ftrace_mod_map", "list");
	w->map_mod = t->ops->member_offset(t->ctx, "ftrace_mod_map", "mod");
	w->map_funcs = t->ops->member_offset(t->ctx, "ftrace_mod_map", "funcs");
	w->fn_list = t->ops->member_offset(t->ctx, "ftrace_mod_func", "list");
	w->fn_name = t->ops->member_offset(t->ctx, "ftrace_mod_func", "name");
	w->fn_ip = t->ops->member_offset(t->ctx, "ftrace_mod_func", "ip");
	w->fn_size = t->ops->member_offset(t->ctx, "ftrace_mod_func", "size");
	w->mod_name = t->ops->member_offset(t->ctx, "module", "name");
	size_len = t->ops->member_size(t->ctx, "ftrace_mod_func", "size");
	/* unsigned int in 6.1 and 6.12; the size decides, not the version */
	w->fn_size_len = size_len == 8 ? 8 : 4;
	if (w->map_list < 0 || w->map_mod < 0 || w->map_funcs < 0 ||
	    w->fn_list < 0 || w->fn_name < 0 || w->fn_ip < 0 ||
	    w->fn_size < 0 || w->mod_name < 0)
		return -ENOENT;
	return 0;
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
