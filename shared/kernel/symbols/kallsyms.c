// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order of kallsyms_lookup_buildid(), decided here once for every
 * target.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_syms.h"
#include "ftrace_mod_syms.h"
#include "kallsyms.h"
#include "module_syms.h"
#include "sym_ranges.h"

struct ks_kallsyms {
	struct ks_module_syms *mods;
	struct ks_sym_ranges bpf, fmod;
	int mods_err, bpf_err, fmod_err;
};

int ks_kallsyms_load(const struct ks_target *t, struct ks_kallsyms **k_ret)
{
	struct ks_kallsyms *k = calloc(1, sizeof(*k));

	if (!k)
		return -ENOMEM;
	k->mods_err = ks_module_syms_load(t, &k->mods);
	if (k->mods_err)
		k->mods = NULL;
	k->bpf_err = ks_bpf_syms_read(t, &k->bpf);
	k->fmod_err = ks_ftrace_mod_syms_read(t, &k->fmod);
	if (k->mods_err == -ENOMEM || k->bpf_err == -ENOMEM ||
	    k->fmod_err == -ENOMEM) {
		ks_kallsyms_free(k);
		return -ENOMEM;
	}
	*k_ret = k;
	return 0;
}

void ks_kallsyms_free(struct ks_kallsyms *k)
{
	if (!k)
		return;
	ks_module_syms_free(k->mods);
	ks_sym_ranges_release(&k->bpf);
	ks_sym_ranges_release(&k->fmod);
	free(k);
}

int ks_kallsyms_lookup(const struct ks_kallsyms *k, uint64_t addr,
		       struct ks_sym *sym_ret)
{
	if (!k)
		return -ENOENT;
	/* module_address_lookup() */
	if (k->mods && !ks_module_syms_lookup(k->mods, addr, sym_ret))
		return 0;
	/* bpf_address_lookup(): no module name */
	if (!ks_sym_ranges_find(&k->bpf, addr, sym_ret))
		return 0;
	/* ftrace_mod_address_lookup() */
	return ks_sym_ranges_find(&k->fmod, addr, sym_ret);
}

void ks_kallsyms_stats(const struct ks_kallsyms *k, struct ks_kallsyms_stats *s)
{
	s->modules = k->mods ? ks_module_syms_count(k->mods) : 0;
	s->modules_skipped = k->mods ? ks_module_syms_skipped(k->mods) : 0;
	s->bpf = k->bpf.nr;
	s->ftrace_mod = k->fmod.nr;
	s->modules_err = k->mods_err;
	s->bpf_err = k->bpf_err;
	s->ftrace_mod_err = k->fmod_err;
}

void ks_kallsyms_report(const struct ks_kallsyms *k,
			const struct ks_reporter *rep)
{
	const char *stop = k && k->mods ? ks_module_syms_error(k->mods) : NULL;
	const char *unread = k && k->mods ? ks_module_syms_unread(k->mods) : NULL;

	if (!k)
		return;
	if (k->mods_err)
		ks_say(rep, KS_WARN, "module symbols: %s", strerror(-k->mods_err));
	if (stop)
		ks_say(rep, KS_WARN, "module symbols: %s", stop);
	if (unread)
		ks_say(rep, KS_WARN, "module symbols: cannot read %s: their "
		       "frames print as addresses", unread);
	if (k->bpf_err)
		ks_say(rep, KS_WARN, "BPF symbols: %s", strerror(-k->bpf_err));
	if (k->fmod_err)
		ks_say(rep, KS_WARN, "ftrace_mod_maps: %s", strerror(-k->fmod_err));
}
