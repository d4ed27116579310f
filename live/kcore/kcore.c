// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fs/proc/kcore.c writes one PT_NOTE (prstatus, prpsinfo, task_struct and,
 * since 4.19, the VMCOREINFO note) and one PT_LOAD per range of kernel
 * virtual memory: the direct map, vmalloc and modules, the kernel text.
 * Reading a range is a pread() at the segment's file offset; the kernel
 * fills what it cannot read with zeros, so a read is only refused outside
 * every segment.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_core.h"
#include "kcore.h"

#define MAX_PHDRS	4096
#define MAX_NOTES	(1u << 20)

struct seg {
	uint64_t vaddr, size, offset;
};

struct ks_kcore {
	int fd;
	struct seg *segs;
	size_t nr_segs;
	char *vmcoreinfo;	/* the note's text, NUL-terminated */
	unsigned int machine;	/* e_machine: the running kernel's arch */
};

static size_t align4(size_t v)
{
	return (v + 3) & ~(size_t)3;
}

/* The VMCOREINFO note among the notes of one PT_NOTE segment. */
static int read_notes(struct ks_kcore *kc, const Elf64_Phdr *ph)
{
	char *buf;
	size_t pos = 0;
	int ret;

	if (!ph->p_filesz || ph->p_filesz > MAX_NOTES)
		return 0;
	buf = malloc(ph->p_filesz);
	if (!buf)
		return -ENOMEM;
	ret = ks_elf_core_read_at(kc->fd, ph->p_offset, buf, ph->p_filesz);
	while (!ret && pos + sizeof(Elf64_Nhdr) <= ph->p_filesz) {
		Elf64_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, buf + pos, sizeof(nh));
		name = pos + sizeof(nh);
		desc = name + align4(nh.n_namesz);
		if (desc > ph->p_filesz || nh.n_descsz > ph->p_filesz - desc)
			break;
		if (nh.n_namesz == sizeof("VMCOREINFO") &&
		    !memcmp(buf + name, "VMCOREINFO", sizeof("VMCOREINFO")) &&
		    !kc->vmcoreinfo) {
			kc->vmcoreinfo = strndup(buf + desc, nh.n_descsz);
			if (!kc->vmcoreinfo)
				ret = -ENOMEM;
		}
		pos = desc + align4(nh.n_descsz);
	}
	free(buf);
	return ret;
}

static int read_headers(struct ks_kcore *kc)
{
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	size_t nr;
	int ret;

	ret = ks_elf_core_phdrs(kc->fd, &eh, &ph, &nr);
	if (ret)
		return ret;
	if (!nr || nr > MAX_PHDRS) {
		free(ph);
		return -ENOEXEC;
	}
	kc->machine = eh.e_machine;
	kc->segs = calloc(nr, sizeof(*kc->segs));
	if (!kc->segs) {
		free(ph);
		return -ENOMEM;
	}
	for (size_t i = 0; !ret && i < nr; i++) {
		if (ph[i].p_type == PT_NOTE) {
			ret = read_notes(kc, &ph[i]);
		} else if (ph[i].p_type == PT_LOAD && ph[i].p_filesz) {
			kc->segs[kc->nr_segs++] = (struct seg){ ph[i].p_vaddr,
				ph[i].p_filesz, ph[i].p_offset };
		}
	}
	free(ph);
	return ret;
}

int ks_kcore_open(const char *path, struct ks_kcore **kc_ret)
{
	struct ks_kcore *kc = calloc(1, sizeof(*kc));
	int ret;

	if (!kc)
		return -ENOMEM;
	kc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (kc->fd < 0) {
		ret = -errno;
		free(kc);
		return ret;
	}
	ret = read_headers(kc);
	if (ret) {
		ks_kcore_close(kc);
		return ret;
	}
	*kc_ret = kc;
	return 0;
}

void ks_kcore_close(struct ks_kcore *kc)
{
	if (!kc)
		return;
	if (kc->fd >= 0)
		close(kc->fd);
	free(kc->segs);
	free(kc->vmcoreinfo);
	free(kc);
}

int ks_kcore_read(const struct ks_kcore *kc, uint64_t kaddr, void *buf,
		  size_t len)
{
	char *p = buf;

	while (len) {
		const struct seg *s = NULL;
		size_t n;

		for (size_t i = 0; i < kc->nr_segs && !s; i++)
			if (kaddr - kc->segs[i].vaddr < kc->segs[i].size)
				s = &kc->segs[i];
		if (!s)
			return -EFAULT;
		n = s->size - (kaddr - s->vaddr);
		if (n > len)
			n = len;
		if (ks_elf_core_read_at(kc->fd, s->offset + (kaddr - s->vaddr), p, n))
			return -EFAULT;
		p += n;
		kaddr += n;
		len -= n;
	}
	return 0;
}

const char *ks_kcore_vmcoreinfo(const struct ks_kcore *kc, const char *key)
{
	size_t klen = strlen(key);
	const char *p = kc->vmcoreinfo;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return p + klen + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int ks_kcore_vmcoreinfo_line(void *kc, const char *key, char *buf, size_t len)
{
	const char *v = ks_kcore_vmcoreinfo(kc, key);

	if (!v)
		return -ENOENT;
	snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
	return 0;
}

unsigned int ks_kcore_machine(const struct ks_kcore *kc)
{
	return kc->machine;
}
