// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host's half of file:line: where the debug files are, which kernel
 * runs, and the build ids it shows in /sys, so that a debug vmlinux or
 * module of another build of the same release is not believed.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lines_host.h"

/* The GNU build id in a buffer of ELF notes, as /sys exposes them. */
static int note_build_id(const uint8_t *p, size_t len, uint8_t *id,
			 size_t cap, size_t *id_len)
{
	while (len >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, p, sizeof(nh));
		name = (nh.n_namesz + 3) & ~3u;
		desc = (nh.n_descsz + 3) & ~3u;
		if (name > len - sizeof(nh) || desc > len - sizeof(nh) - name)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + sizeof(nh), "GNU", 4) && nh.n_descsz <= cap) {
			memcpy(id, p + sizeof(nh) + name, nh.n_descsz);
			*id_len = nh.n_descsz;
			return 0;
		}
		p += sizeof(nh) + name + desc;
		len -= sizeof(nh) + name + desc;
	}
	return -ENOENT;
}

/* ks_build_id_fn of the running kernel: /sys/kernel/notes, a module's notes */
static int running_build_id(void *arg, const char *module, uint8_t *id,
			    size_t cap, size_t *len)
{
	char path[PATH_MAX];
	uint8_t buf[4096];
	ssize_t n;
	int fd;

	(void)arg;
	if (module)
		snprintf(path, sizeof(path),
			 "/sys/module/%s/notes/.note.gnu.build-id", module);
	else
		snprintf(path, sizeof(path), "/sys/kernel/notes");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -ENOENT;
	return note_build_id(buf, (size_t)n, id, cap, len);
}

void ks_lines_host_config(struct ks_lines_config *cfg, const char *vmlinux,
			  bool running, char *release, size_t len)
{
	struct utsname u;

	memset(cfg, 0, sizeof(*cfg));
	cfg->vmlinux = vmlinux;
	cfg->debug_dir = getenv("KSTACK_DEBUG_DIR");
	/* with --vmlinux, its own release: it may not be the running kernel */
	if (!vmlinux && !uname(&u)) {
		snprintf(release, len, "%s", u.release);
		cfg->release = release;
	}
	if (running)
		cfg->build_id = running_build_id;
}
