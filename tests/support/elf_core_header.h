/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The header of an ELF64 core file as the dump tests write one: the
 * little-endian x86-64 ET_CORE header that kexec and QEMU write, its
 * program headers right after it.
 */
#ifndef KS_TEST_ELF_CORE_HEADER_H
#define KS_TEST_ELF_CORE_HEADER_H

#include <elf.h>
#include <stdint.h>

/* elf_class: ELFCLASS64, or another to see it refused */
void ks_test_core_header(Elf64_Ehdr *eh, uint16_t phnum, uint8_t elf_class);

#endif /* KS_TEST_ELF_CORE_HEADER_H */
