// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -h: one line per option with its default and range, as oled
 * kstack's argparse help gives its defaults.  The numbers come from the
 * parser's own table (ks_options_num_info), so the help cannot promise
 * a range the parser does not accept.
 */
#include <stdio.h>
#include <string.h>

#include "help.h"
#include "options.h"

struct help_line {
	const char *opt;	/* "-t MINUTES", or NULL for a heading */
	const char *what;
	int num;		/* numeric option: default and range follow */
	const char *zero;	/* what 0 means, or NULL */
};

static const struct help_line lines[] = {
	{ NULL, "selection (at least one; OR-ed):", 0, NULL },
	{ "-a", "all tasks", 0, NULL },
	{ "-D", "uninterruptible sleep (D): waiting for I/O or a lock", 0, NULL },
	{ "-R", "running or runnable (R)", 0, NULL },
	{ "-S", "sleeping (S)", 0, NULL },
	{ "-Z", "zombies (Z)", 0, NULL },
	{ "-I", "idle kernel threads (I)", 0, NULL },
	{ "-T", "stopped or traced (T, t)", 0, NULL },
	{ "-p PID[,PID...]", "these processes, in the order given", 0, NULL },
	{ "-H", "every thread of each process, not only the main one", 0, NULL },
	{ "--cgroup PATH", "only tasks in this cgroup v2 path or below it", 0, NULL },
	{ NULL, "output (default: oled kstack's text on stdout):", 0, NULL },
	{ "-c", "summary: one paragraph per stack, most common first", 0, NULL },
	{ "--json", "JSON Lines, one object per sample", 0, NULL },
	{ "--folded", "flame-graph input (comm;frames COUNT)", 0, NULL },
	{ "-o FILE", "write the sample to FILE, atomically", 0, NULL },
	{ "--follow-symlink", "with -o: write where a symbolic link points", 0, NULL },
	{ "--proc-root DIR", "read this /proc-like tree (default /proc)", 0, NULL },
	{ "-v, --verbose", "more detail; DEBUG log lines with -b", 0, NULL },
	{ NULL, "background mode:", 0, NULL },
	{ "-b", "sample in the background into DIR/kstack_HOSTNAME.out", 0, NULL },
	{ "--foreground", "-b without forking, for a service manager", 0, NULL },
	{ "-t MINUTES", "how long to run", 't', "one sample" },
	{ "-i SECONDS", "between samples, >= 10 with -b", 'i', NULL },
	{ "-d DIR", "log directory (default /var/oled/kstack)", 0, NULL },
	{ "-m MB", "rotate above MB megabytes", 'm', "never" },
	{ "-n FILES", "rotated logs kept", 'n', "never rotate" },
	{ "-x PERCENT", "no start, no writes at this disk use", 'x', NULL },
	{ NULL, "hooks and dumps:", 0, NULL },
	{ "-K", "kprobes, as debugfs kprobes/list prints them", 0, NULL },
	{ "-F", "ftrace-patched functions (tracefs enabled_functions)", 0, NULL },
	{ "--touched", "with -F: every function ever patched (Linux 6.4+)", 0, NULL },
	{ "--vmcore VMCORE", "read a kernel dump instead of /proc", 0, NULL },
	{ "--vmlinux VMLINUX", "its debug vmlinux (optional with a kallsyms dump)", 0, NULL },
	{ NULL, "source lines and snooping:", 0, NULL },
	{ "-l, --lines", "file:line of every frame, inlined functions too", 0, NULL },
	{ "--decode [FILE]", "add file:line to stack text (logs, oopses, bt)", 0, NULL },
	{ "--snoop FUNC", "the kernel stack of every call of FUNC, live", 0, NULL },
	{ NULL, "other:", 0, NULL },
	{ "-h, --help", "this help", 0, NULL },
	{ "--version", "print the version", 0, NULL },
};

/* " (default 30, 0-525600; 0: one sample)" */
static void num_info(FILE *out, const struct help_line *l)
{
	long min, max, def;

	if (ks_options_num_info(l->num, &min, &max, &def))
		return;
	fprintf(out, " (default %ld, %ld-%ld", def, min, max);
	if (l->zero)
		fprintf(out, "; 0: %s", l->zero);
	fputc(')', out);
}

/* The synopsis lines of the usage, without its one-line summaries. */
static void synopsis(FILE *out)
{
	const char *p = ks_options_usage(KS_CTX_LIVE);

	while (*p && (!strncmp(p, "usage:", 6) || *p == ' ')) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		fwrite(p, 1, len, out);
		p += len;
	}
}

void ks_help_print(FILE *out)
{
	synopsis(out);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const struct help_line *l = &lines[i];

		if (!l->opt) {
			fprintf(out, "\n%s\n", l->what);
			continue;
		}
		fprintf(out, "  %-18s %s", l->opt, l->what);
		if (l->num)
			num_info(out, l);
		fputc('\n', out);
	}
	fputs("\nexit status: 0 printed, 1 nothing matched or a PID is missing, "
	      "2 usage,\n3 not permitted (needs root), 4 other failure.  "
	      "See kstack(8).\n", out);
}
