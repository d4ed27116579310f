/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * <sys/io.h> for vmcore-helper cross-built for an arm64 guest, which has no
 * I/O ports (glibc's aarch64 headers lack this file): QEMU's pvpanic-pci
 * device (PCI 1b36:0011) stands for the ISA pvpanic at 0x505.  ioperm()
 * enables the device and maps its BAR 0 through sysfs, outb() writes the
 * byte there, so the helper pauses the VM the same way on both guests.
 */
#ifndef KSTACK_GUEST_ARM64_SYS_IO_H
#define KSTACK_GUEST_ARM64_SYS_IO_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PVPANIC_PCI_DIR "/sys/bus/pci/devices"

static volatile unsigned char *pvpanic_bar;

static int pvpanic_attr_is(const char *dev, const char *attr, const char *want)
{
	char path[512], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), PVPANIC_PCI_DIR "/%s/%s", dev, attr);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strncmp(buf, want, strlen(want)) == 0;
}

/* BAR 0's start: the first line of the device's "resource" file. */
static int pvpanic_bar_start(const char *dev, unsigned long long *start)
{
	char path[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), PVPANIC_PCI_DIR "/%s/resource", dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llx", start);
	fclose(f);
	return n == 1 ? 0 : -1;
}

static int pvpanic_map(const char *dev)
{
	unsigned long long start;
	long page = sysconf(_SC_PAGESIZE);
	char path[512];
	void *map;
	int fd;

	/* Without a driver the device decodes no memory until enabled. */
	snprintf(path, sizeof(path), PVPANIC_PCI_DIR "/%s/enable", dev);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			perror(path);
		close(fd);
	}
	if (pvpanic_bar_start(dev, &start) != 0)
		return -1;
	snprintf(path, sizeof(path), PVPANIC_PCI_DIR "/%s/resource0", dev);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		return -1;
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	/* sysfs maps the page that holds the BAR's start. */
	pvpanic_bar = (volatile unsigned char *)map + (start & (page - 1));
	return 0;
}

static inline int ioperm(unsigned long from, unsigned long num, int turn_on)
{
	struct dirent *e;
	DIR *d;
	int rc = -1;

	(void)from;
	(void)num;
	(void)turn_on;
	d = opendir(PVPANIC_PCI_DIR);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    !pvpanic_attr_is(e->d_name, "vendor", "0x1b36") ||
		    !pvpanic_attr_is(e->d_name, "device", "0x0011"))
			continue;
		rc = pvpanic_map(e->d_name);
		break;
	}
	closedir(d);
	if (rc != 0 && errno == 0)
		errno = ENODEV;
	return rc;
}

static inline void outb(unsigned char value, unsigned short port)
{
	(void)port;
	if (pvpanic_bar)
		*pvpanic_bar = value;
}

#endif
