// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --vmcore, the driver: the inputs checked, the output opened, the target
 * opened (target_kdump.c, which hands over a struct ks_target and reports
 * its trouble here), then the same shared task walker the crash extension
 * runs (shared/kernel/kernel_sample.h) and the live tool's own writers, so the two
 * print the same sample for the same dump.  Nothing here knows
 * libkdumpfile.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_text.h"
#include "cpus_walk.h"
#include "format_cpus.h"
#include "format_panic.h"
#include "hooks.h"
#include "kdump_run.h"
#include "kernel_sample.h"
#include "lines.h"
#include "lines_host.h"
#include "log_print.h"
#include "live_sample.h"
#include "output_file.h"
#include "regular_file.h"
#include "sample_report.h"
#include "target_kdump.h"
#include "triage.h"
#include "triage_bundle.h"
#include "version.h"

enum input_kind {
	INPUT_OTHER,		/* for libkdumpfile or the ELF reader to judge */
	INPUT_DUMP,		/* an ELF core file, a kdump-compressed dump */
	INPUT_KERNEL,		/* an ELF executable: a vmlinux */
};

static const char *const kind_names[] = {
	[INPUT_DUMP] = "a dump",
	[INPUT_KERNEL] = "a kernel image (ELF executable)",
};

/* What the first bytes say the file is. */
static enum input_kind input_kind(const unsigned char *h, size_t len)
{
	unsigned int type;

	if (len >= 8 && (!memcmp(h, "KDUMP   ", 8) || !memcmp(h, "DISKDUMP", 8)))
		return INPUT_DUMP;
	if (len < 18 || memcmp(h, ELFMAG, SELFMAG))
		return INPUT_OTHER;
	/* e_type is at 16 in both classes, in the file's byte order */
	type = h[EI_DATA] == ELFDATA2MSB ? (unsigned int)h[16] << 8 | h[17]
					 : (unsigned int)h[17] << 8 | h[16];
	if (type == ET_CORE)
		return INPUT_DUMP;
	if (type == ET_EXEC || type == ET_DYN)
		return INPUT_KERNEL;
	return INPUT_OTHER;
}

/*
 * Opens an input without blocking (a FIFO would wait for a writer
 * forever), insists on a regular file and reads its first bytes.
 * Returns 0, or -1 after saying why.
 */
static int peek_input(const char *opt, const char *path, enum input_kind *kind)
{
	unsigned char h[64];
	struct stat sb;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		ks_live_say("cannot open %s %s: %s", opt, path,
			    strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb)) {
		ks_live_say("%s %s: %s", opt, path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		ks_live_say("%s %s is %s: a regular file is needed",
			    opt, path, ks_file_kind(sb.st_mode));
		close(fd);
		return -1;
	}
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	*kind = input_kind(h, n > 0 ? (size_t)n : 0);
	return 0;
}

int ks_kdump_check_inputs(const char *vmcore, const char *vmlinux)
{
	enum input_kind dump, kernel;

	kernel = INPUT_OTHER;
	if (peek_input("--vmcore", vmcore, &dump) ||
	    (vmlinux && peek_input("--vmlinux", vmlinux, &kernel)))
		return KS_EXIT_ERROR;
	if (dump == INPUT_KERNEL && kernel == INPUT_DUMP) {
		ks_live_say("--vmcore and --vmlinux look swapped: %s is %s, "
			    "%s is %s", vmcore, kind_names[dump], vmlinux,
			    kind_names[kernel]);
		return KS_EXIT_USAGE;
	}
	if (dump == INPUT_KERNEL) {
		ks_live_say("--vmcore %s is %s, not a dump",
			    vmcore, kind_names[dump]);
		return KS_EXIT_ERROR;
	}
	if (kernel == INPUT_DUMP) {
		ks_live_say("--vmlinux %s is %s, not a vmlinux",
			    vmlinux, kind_names[kernel]);
		return KS_EXIT_ERROR;
	}
	return 0;
}

/* -K / -F: the same report the crash command prints for the image. */
static int hooks(const struct ks_target *t, const struct ks_options *opts)
{
	int ret = ks_hooks_report(t, &opts->hooks, &opts->out, stdout,
				  &ks_live_reporter);

	if (fflush(stdout) && !ret)
		ret = -errno;
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

/* --log: the dump's kernel log, as crash and dmesg print it. */
static int log_view(const struct ks_target *t, const struct ks_options *opts)
{
	int ret = ks_log_print(t, stdout, opts->out.format == KS_FMT_JSON,
			       &ks_live_reporter);

	if (fflush(stdout) && !ret)
		ret = -errno;
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

/* --panic: the panic's CPU and task, the taint and its modules. */
static int panic_view(const struct ks_target *t, const struct ks_options *opts)
{
	int ret = ks_panic_report(t, opts->out.format == KS_FMT_JSON, stdout,
				  &ks_live_reporter);

	if (fflush(stdout) && !ret)
		ret = -errno;
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

/* Where kstack triage --vmcore writes: stdout, --html FILE or -o DIR. */
struct triage_to {
	bool html;
	struct ks_bundle bundle;	/* -o DIR: its dirfd >= 0 */
};

/*
 * kstack triage --vmcore: every part of the dump that can be read; k is
 * NULL where the tasks cannot be walked (the triage says so in its
 * sections).  --html's page replaces FILE only when it is whole.
 */
static int triage(const struct ks_target *t, struct ks_kernel *k,
		  const struct ks_options *opts, struct ks_output *out,
		  struct triage_to *to)
{
	enum ks_triage_form form = opts->out.format == KS_FMT_JSON ?
				   KS_TRIAGE_JSON : KS_TRIAGE_TEXT;
	int ret;

	if (to->bundle.dirfd >= 0)
		return ks_bundle_write(&to->bundle, t, k);
	ret = ks_triage_report(t, k, to->html ? KS_TRIAGE_HTML : form, out->f,
			       &ks_live_reporter);
	if (to->html)
		return ks_output_commit(out, ret);
	if (fflush(stdout) && !ret)
		ret = -errno;
	if (ret == -EIO || ret == -EPIPE)
		ks_live_say("writing the output failed: %s", strerror(-ret));
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

/* Why the tasks cannot be walked, in --vmcore's words; said once. */
static void say_no_walk(void *arg, enum ks_say_level level, const char *text)
{
	bool *said = arg;

	(void)level;
	*said = true;
	ks_live_say("cannot walk the dump's tasks: %s", text);
}

/* --cpus: every CPU's block on stdout; the exit status. */
static int cpus(struct ks_kernel *k, const struct ks_options *opts)
{
	struct ks_cpus cs;
	int ret = ks_cpus_walk(k, &cs, &ks_live_reporter);

	if (!ret)
		ret = ks_format_cpus(stdout, &cs, opts->out.format == KS_FMT_JSON);
	ks_cpus_release(&cs);
	if (fflush(stdout) && !ret)
		ret = -errno;
	if (ret == -EIO || ret == -EPIPE)
		ks_live_say("writing the output failed: %s", strerror(-ret));
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

/*
 * Walks the tasks of t and writes the sample to out (opened before the
 * dump, so a refused -o FILE costs no walk), or with -K / -F prints the
 * hooks report; returns the exit status.  lines: -l's lookup, or NULL.
 */
static int sample(const struct ks_target *t, const struct ks_options *opts,
		  struct ks_output *out, struct ks_lines *lines,
		  struct triage_to *to)
{
	/* per-task trouble only with -v: the status says how much */
	const struct ks_sample_say say = { &ks_live_reporter, true };
	const struct ks_walk_opts walk = { &opts->sel, opts->out.waits,
					   opts->out.verbose };
	struct ks_kernel_status st;
	struct ks_sample s = { 0 };
	struct ks_kernel *k;
	bool said = false;
	const struct ks_reporter no_walk = { .say = say_no_walk, .arg = &said };
	size_t missing;
	int ret, status;

	if (opts->mode == KS_IN_VHOOKS)
		return hooks(t, opts);
	if (opts->mode == KS_IN_VLOG)
		return log_view(t, opts);
	if (opts->mode == KS_IN_VPANIC)
		return panic_view(t, opts);
	ret = ks_kernel_open(t, &k, &no_walk);
	if (ret && !said)
		ks_say(&no_walk, KS_WARN, "%s", strerror(-ret));
	if (ret)
		k = NULL;
	if (opts->mode == KS_IN_VTRIAGE) {
		status = triage(t, ret ? NULL : k, opts, out, to);
		goto out;
	}
	if (ret)
		return KS_EXIT_ERROR;
	if (opts->mode == KS_IN_VCPUS) {
		status = cpus(k, opts);
		goto out;
	}
	if (ks_kernel_sample(k, &walk, &s, &st, &say)) {
		status = KS_EXIT_ERROR;
		goto out;
	}
	ks_kernel_status_say(opts->out.verbose, &s, &st, &say);
	missing = ks_report_missing(&opts->sel, &s, " in the dump", &ks_live_reporter);
	if (ks_report_no_match(&s, missing, &ks_live_reporter)) {
		status = KS_EXIT_NONE;
		goto out;
	}
	if (lines && ks_decode_stacks(&s, lines))
		ks_live_say("out of memory adding lines");
	status = ks_output_write(out, &s, &opts->out);
	if (status == KS_EXIT_OK && missing)
		status = KS_EXIT_NONE;
out:
	ks_sample_release(&s);
	ks_kernel_close(k);
	return status;
}

/* -l: the lines of the dump's kernel. */
static struct ks_lines *dump_lines(struct ks_kdump *kd, const char *vmlinux)
{
	struct ks_lines_config cfg;
	struct ks_lines *lines;
	char release[256];

	ks_lines_host_config(&cfg, vmlinux, false, release, sizeof(release));
	ks_kdump_lines_config(kd, &cfg, release, sizeof(release));
	lines = ks_lines_open(&cfg);
	if (!lines)
		ks_live_say("out of memory: no lines");
	return lines;
}

/*
 * Where the output goes, opened before the dump so that a refused one
 * costs no walk: -o FILE, or triage's --html FILE or -o DIR.
 */
static int open_output(struct ks_output *out, struct triage_to *to,
		       const struct ks_options *opts,
		       const struct ks_live_options *live)
{
	if (opts->mode != KS_IN_VTRIAGE)
		return ks_output_open(out, live);
	if (live->output) {
		/* out stays stdout, unused: the bundle's files are its own */
		ks_output_open_path(out, NULL, false);
		return ks_bundle_open(&to->bundle, live->output);
	}
	return ks_output_open_path(out, live->html, false);
}

int ks_kdump_run(const struct ks_options *opts,
		 const struct ks_live_options *live)
{
	struct ks_kdump_args args = {
		.vmcore = live->vmcore,
		.vmlinux = opts->vmlinux,
		.verbose = opts->out.verbose,
		.scan_kallsyms = live->knobs.kallsyms_scan != NULL,
		.rep = &ks_live_reporter,
	};
	struct ks_lines *lines = NULL;
	struct triage_to to = { .html = live->html != NULL, .bundle.dirfd = -1 };
	struct ks_output out = { .dirfd = -1 };
	struct ks_kdump *kd;
	struct ks_target t;
	int status;

	if (!ks_kdump_available()) {
		ks_live_say("this build has no --vmcore mode (built without libkdumpfile)");
		return KS_EXIT_ERROR;
	}
	status = ks_kdump_check_inputs(live->vmcore, opts->vmlinux);
	if (status)
		return status;
	status = open_output(&out, &to, opts, live);
	if (status)
		goto out;
	if (ks_kdump_open(&args, &kd, &t)) {
		status = KS_EXIT_ERROR;
		goto out;
	}
	if (opts->lines)
		lines = dump_lines(kd, opts->vmlinux);
	status = sample(&t, opts, &out, lines, &to);
	if (lines)
		ks_lines_report(lines, &ks_live_reporter);
	ks_lines_close(lines);
	ks_kdump_close(kd);
out:
	ks_output_close(&out);
	ks_bundle_close(&to.bundle);
	return status;
}
