// SPDX-License-Identifier: GPL-2.0-or-later
/* The ELF64 core header the dump tests write (elf_core_header.h). */
#include <string.h>

#include "elf_core_header.h"

void ks_test_core_header(Elf64_Ehdr *eh, uint16_t phnum, uint8_t elf_class)
{
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = elf_class;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = phnum;
	eh->e_ehsize = sizeof(*eh);
}
