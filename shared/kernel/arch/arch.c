// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The architectures kstack reads, found by the names their sources give
 * them: libkdumpfile's arch.name, crash's MACHINE_TYPE, an ELF e_machine.
 */
#include <string.h>

#include "arch.h"

static const struct ks_arch *const arches[] = {
	&ks_arch_x86_64,
	&ks_arch_arm64,
};

#define NR_ARCHES	(sizeof(arches) / sizeof(arches[0]))

const struct ks_arch *ks_arch_find(const char *name)
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

const struct ks_arch *ks_arch_of_machine(unsigned int e_machine)
{
	for (size_t i = 0; i < NR_ARCHES; i++)
		if (arches[i]->elf_machine == e_machine)
			return arches[i];
	return NULL;
}
