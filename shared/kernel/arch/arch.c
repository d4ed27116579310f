// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The architectures kstack reads, found by the names their sources give
 * them: libkdumpfile's arch.name, crash's MACHINE_TYPE, an ELF e_machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"

static const struct ks_arch *const arches[] = {
	&ks_arch_x86_64,
	&ks_arch_arm64,
};

#define NR_ARCHES	(sizeof(arches) / sizeof(arches[0]))

static const struct ks_arch *ks_arch_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < NR_ARCHES; i++) {
		const struct ks_arch *a = arches[i];

		if (!strcmp(a->name, name))
			return a;
		for (size_t j = 0; a->aliases && a->aliases[j]; j++)
			if (!strcmp(a->aliases[j], name))
				return a;
	}
	return NULL;
}

static const struct ks_arch *ks_arch_of_machine(unsigned int e_machine)
{
	for (size_t i = 0; i < NR_ARCHES; i++)
		if (arches[i]->elf_machine == e_machine)
			return arches[i];
	return NULL;
}

int ks_arch_resolve(const char *name, unsigned int e_machine,
		    const struct ks_arch **arch_ret,
		    const struct ks_reporter *rep)
{
	const struct ks_arch *a = name ? ks_arch_find(name) :
				  e_machine ? ks_arch_of_machine(e_machine) : NULL;

	*arch_ret = a;
	if (a)
		return 0;
	if (name)
		ks_say(rep, KS_WARN, "the image is of architecture %s: kstack "
		       "reads x86_64 and arm64", name);
	else
		ks_say(rep, KS_WARN, "the image does not say which architecture "
		       "it is of: kstack reads x86_64 and arm64");
	return -EPROTONOSUPPORT;
}

char *ks_arch_unwind_missing(const struct ks_arch *a, int err)
{
	const char *why = a->unwinder->missing(err);
	char *text;

	if (!why)
		why = err < 0 ? strerror(-err) : "it cannot be set up";
	if (asprintf(&text, "%s: %s", a->unwinder->lack, why) < 0)
		return NULL;
	return text;
}

int ks_arch_named_regs(const struct ks_arch *a, ks_reg_fn get, void *arg,
		       struct ks_regs *regs_ret)
{
	struct ks_regs r;

	memset(&r, 0, sizeof(r));
	for (const struct ks_reg_name *n = a->reg_names; n->name; n++) {
		int ret = get(arg, n->name, (uint64_t *)((char *)&r + n->off));

		if (ret)
			return ret;
	}
	*regs_ret = r;
	return 0;
}
