// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The static binary that goes into vmcore guests is built without
 * libkdumpfile (-DKS_NO_KDUMP): the target is absent, and the driver
 * (kdump_run.c) says so instead of running.
 */
#ifdef KS_NO_KDUMP
#include <errno.h>

#include "target_kdump.h"

bool ks_kdump_available(void)
{
	return false;
}

int ks_kdump_open(const struct ks_kdump_args *a, struct ks_kdump **kd_ret,
		  struct ks_target *t_ret)
{
	(void)a;
	(void)kd_ret;
	(void)t_ret;
	return -ENOSYS;
}

void ks_kdump_close(struct ks_kdump *kd)
{
	(void)kd;
}

void ks_kdump_lines_config(struct ks_kdump *kd, struct ks_lines_config *cfg,
			   char *release, size_t len)
{
	(void)kd;
	(void)cfg;
	(void)release;
	(void)len;
}
#endif
