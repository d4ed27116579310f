// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel handle of kernel_tasks.h: its architecture, layout and
 * unwinder tables (ORC on x86_64) and the
 * few values of the whole image (time, host, release).  The walk of its
 * tasks is task_walk.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "task_walk.h"

void ks_copy_kstr(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t n = strnlen(src, srclen < len ? srclen : len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int ks_kernel_when_host(struct ks_kernel *k, time_t *when_ret, char *host,
			size_t hostlen)
{
	const struct ks_kernel_layout *l = &k->l;
	int64_t sec;
	char node[256];
	size_t n = (size_t)l->nodename_size < sizeof(node) ?
			   (size_t)l->nodename_size : sizeof(node);

	if (ks_read(k->t, l->nodename, node, n))
		return -EFAULT;
	/* the clock is one more page a cut dump may lack: the time is "?" */
	if (ks_read(k->t, l->timekeeper + (uint64_t)l->tk_xtime_sec.off, &sec, 8))
		*when_ret = KS_WHEN_UNKNOWN;
	else
		*when_ret = (time_t)sec;
	ks_copy_kstr(host, hostlen, node, n);
	return 0;
}

int ks_kernel_release(struct ks_kernel *k, char *buf, size_t len)
{
	const struct ks_kernel_layout *l = &k->l;
	char rel[256];
	size_t n = (size_t)l->release_size < sizeof(rel) ?
			   (size_t)l->release_size : sizeof(rel);

	if (!l->release)
		return -ENOENT;
	if (ks_read(k->t, l->release, rel, n))
		return -EFAULT;
	ks_copy_kstr(buf, len, rel, n);
	return 0;
}

int ks_kernel_open(const struct ks_target *t, struct ks_kernel **k_ret,
		   const struct ks_reporter *rep)
{
	struct ks_kernel *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	k->t = t;
	/* chosen where the target was made (ks_arch_resolve()) */
	k->arch = t->arch;
	if (!k->arch) {
		ret = ks_arch_resolve(NULL, 0, &k->arch, rep);
		goto fail;
	}
	ret = ks_layout_init(t, k->arch, &k->l, rep);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	k->tbuf = malloc((size_t)k->l.task_size);
	if (!k->tbuf)
		goto fail;
	/* Without an unwinder the tasks are still worth listing; each stack says why. */
	k->unw_err = k->arch->unwinder->open(t, &k->unw);
	if (k->unw_err)
		k->unw = NULL;
	*k_ret = k;
	return 0;
fail:
	ks_kernel_close(k);
	return ret;
}

void ks_kernel_close(struct ks_kernel *k)
{
	if (!k)
		return;
	if (k->unw)
		k->arch->unwinder->close(k->unw);
	free(k->tbuf);
	free(k);
}

const struct ks_kernel_layout *ks_kernel_layout(const struct ks_kernel *k)
{
	return &k->l;
}
