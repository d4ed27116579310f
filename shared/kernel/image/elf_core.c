// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF64 core file headers (elf_core.h).  The file is all it reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_core.h"

/*
 * More program headers than this is no dump's: makedumpfile writes one
 * per run of dumpable pages, a few hundred thousand on a large machine.
 */
#define MAX_PHDRS	(4u << 20)

int ks_elf_core_read_at(int fd, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ENOEXEC;	/* a header past the end */
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

enum ks_elf_core_bad ks_elf_core_check(const Elf64_Ehdr *eh)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return KS_ELF_CORE_BAD_MAGIC;
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return KS_ELF_CORE_BAD_CLASS;
	if (eh->e_type != ET_CORE)
		return KS_ELF_CORE_BAD_TYPE;
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return KS_ELF_CORE_BAD_PHENTSIZE;
	return KS_ELF_CORE_GOOD;
}

int ks_elf_core_read_phdrs(int fd, const Elf64_Ehdr *eh, uint64_t first,
			   size_t nr, Elf64_Phdr *ph)
{
	return ks_elf_core_read_at(fd, eh->e_phoff + first * sizeof(*ph), ph,
				   nr * sizeof(*ph));
}

int ks_elf_core_shdr(int fd, const Elf64_Ehdr *eh, uint64_t i, Elf64_Shdr *sh)
{
	if (eh->e_shentsize != sizeof(*sh))
		return -ENOEXEC;
	return ks_elf_core_read_at(fd, eh->e_shoff + i * sizeof(*sh), sh,
				   sizeof(*sh));
}

/* e_phnum, or for PN_XNUM the count section 0's sh_info holds. */
static int phnum(int fd, const Elf64_Ehdr *eh, size_t *nr_ret)
{
	Elf64_Shdr sh0;
	int ret;

	if (eh->e_phnum != PN_XNUM) {
		*nr_ret = eh->e_phnum;
		return 0;
	}
	if (!eh->e_shoff)
		return -ENOEXEC;
	ret = ks_elf_core_shdr(fd, eh, 0, &sh0);
	if (ret)
		return ret;
	*nr_ret = sh0.sh_info;
	return 0;
}

int ks_elf_core_phdrs(int fd, Elf64_Ehdr *eh_ret, Elf64_Phdr **phdrs_ret,
		      size_t *nr_ret)
{
	Elf64_Phdr *ph;
	Elf64_Ehdr eh;
	struct stat sb;
	size_t nr;
	int ret;

	*phdrs_ret = NULL;
	*nr_ret = 0;
	ret = ks_elf_core_read_at(fd, 0, &eh, sizeof(eh));
	if (ret)
		return ret;
	if (ks_elf_core_check(&eh) != KS_ELF_CORE_GOOD)
		return -ENOEXEC;
	ret = phnum(fd, &eh, &nr);
	if (ret)
		return ret;
	if (eh_ret)
		*eh_ret = eh;
	if (nr > MAX_PHDRS)
		return -ENOEXEC;
	if (!nr)
		return 0;
	/* headers the file cannot hold are refused before they are allocated */
	if (fstat(fd, &sb))
		return -errno;
	if (S_ISREG(sb.st_mode) &&
	    (eh.e_phoff > (uint64_t)sb.st_size ||
	     nr * sizeof(*ph) > (uint64_t)sb.st_size - eh.e_phoff))
		return -ENOEXEC;
	ph = malloc(nr * sizeof(*ph));
	if (!ph)
		return -ENOMEM;
	ret = ks_elf_core_read_phdrs(fd, &eh, 0, nr, ph);
	if (ret) {
		free(ph);
		return ret;
	}
	*phdrs_ret = ph;
	*nr_ret = nr;
	return 0;
}
