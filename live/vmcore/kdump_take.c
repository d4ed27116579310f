// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A dump's tasks as a sample for kstack diff: the inputs checked and the
 * target opened as kdump_run.c does, then the shared walk with -a -H, the
 * selection kstack's tests capture a guest with.
 */
#include <string.h>

#include "kdump_run.h"
#include "kdump_take.h"
#include "kernel_sample.h"
#include "live_say.h"
#include "target_kdump.h"

/* Why the tasks cannot be walked, in --vmcore's words; said once. */
static void say_no_walk(void *arg, enum ks_say_level level, const char *text)
{
	bool *said = arg;

	(void)level;
	*said = true;
	ks_live_say("cannot walk the dump's tasks: %s", text);
}

static int walk(const struct ks_target *t, struct ks_sample *s)
{
	const struct ks_selection sel = { .all = true, .threads = true };
	const struct ks_walk_opts walk = { &sel, false, false };
	const struct ks_sample_say say = { &ks_live_reporter, true };
	struct ks_kernel_status st;
	struct ks_kernel *k;
	bool said = false;
	const struct ks_reporter no_walk = { .say = say_no_walk, .arg = &said };
	int ret;

	ret = ks_kernel_open(t, &k, &no_walk);
	if (ret) {
		if (!said)
			ks_say(&no_walk, KS_WARN, "%s", strerror(-ret));
		return -1;
	}
	ret = ks_kernel_sample(k, &walk, s, &st, &say);
	if (!ret)
		ks_kernel_status_say(false, s, &st, &say);
	ks_kernel_close(k);
	return ret ? -1 : 0;
}

int ks_kdump_take(const char *vmcore, const char *vmlinux,
		  bool scan_kallsyms, struct ks_sample *s)
{
	struct ks_kdump_args args = {
		.vmcore = vmcore,
		.vmlinux = vmlinux,
		.scan_kallsyms = scan_kallsyms,
		.rep = &ks_live_reporter,
	};
	struct ks_kdump *kd;
	struct ks_target t;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!ks_kdump_available()) {
		ks_live_say("this build has no --vmcore mode (built without libkdumpfile)");
		return -1;
	}
	if (ks_kdump_check_inputs(vmcore, vmlinux))
		return -1;
	if (ks_kdump_open(&args, &kd, &t))
		return -1;
	ret = walk(&t, s);
	ks_kdump_close(kd);
	return ret;
}
