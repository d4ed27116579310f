// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .BTF found in memory by its header (include/uapi/linux/btf.h's struct
 * btf_header), as the kernel's btf_parse_hdr() checks it: a kernel
 * without CONFIG_KALLSYMS_ALL names no __start_BTF, but keeps the blob
 * that /sys/kernel/btf/vmlinux serves in its read-only data.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "btf_scan.h"

#define BTF_MAGIC	0xeB9F
#define BTF_HDR_LEN	24
#define SCAN_CHUNK	(1u << 20)

struct btf_hdr {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
};

/*
 * pahole writes the types right after the header and the strings right
 * after the types; the string section begins with the empty string.
 */
static bool plausible(const struct btf_hdr *h, const uint8_t *first_str,
		      uint64_t left, size_t max)
{
	uint64_t size = (uint64_t)BTF_HDR_LEN + h->str_off + h->str_len;

	return h->magic == BTF_MAGIC && h->version == 1 && !h->flags &&
	       h->hdr_len == BTF_HDR_LEN && !h->type_off && h->type_len &&
	       h->str_off == h->type_len && h->str_len && size <= left &&
	       size <= max && (!first_str || !*first_str);
}

/* The byte at addr, when it is in buf's window, else NULL. */
static const uint8_t *in_window(const uint8_t *buf, uint64_t base, size_t n,
				uint64_t addr)
{
	return addr >= base && addr - base < n ? buf + (addr - base) : NULL;
}

int ks_btf_scan(const struct ks_target *t, uint64_t start, uint64_t end,
		size_t max, int (*try)(void *arg, uint64_t addr, size_t size),
		void *arg)
{
	uint8_t *buf = malloc(SCAN_CHUNK);
	uint64_t base = (start + 3) & ~3ull;
	int ret = -ENOENT;

	if (!buf)
		return -ENOMEM;
	while (ret == -ENOENT && base + BTF_HDR_LEN <= end) {
		size_t n = end - base < SCAN_CHUNK ? (size_t)(end - base) : SCAN_CHUNK;

		if (ks_read(t, base, buf, n)) {
			ret = -EFAULT;
			break;
		}
		for (size_t off = 0; ret == -ENOENT && off + BTF_HDR_LEN <= n;
		     off += 4) {
			struct btf_hdr h;
			uint64_t addr = base + off;

			memcpy(&h, buf + off, sizeof(h));
			if (!plausible(&h, in_window(buf, base, n, addr +
					BTF_HDR_LEN + h.str_off), end - addr, max))
				continue;
			if (!try(arg, addr, BTF_HDR_LEN + (size_t)h.str_off + h.str_len))
				ret = 0;
		}
		/* the next window starts where a header could still begin */
		base += n > BTF_HDR_LEN ? (n - BTF_HDR_LEN + 4) & ~3ull : n;
	}
	free(buf);
	return ret;
}
