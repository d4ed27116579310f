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

/*
 * The lines after the synopsis, as printed.  "@c" at the end of a line
 * is numeric option c's default and range, "@c:TEXT" with what 0 means.
 */
static const char *const lines[] = {
	"",
	"selection (at least one; OR-ed):",
	"  -a                 all tasks",
	"  -D                 uninterruptible sleep (D): waiting for I/O or a lock",
	"  -R                 running or runnable (R)",
	"  -S                 sleeping (S)",
	"  -Z                 zombies (Z)",
	"  -I                 idle kernel threads (I)",
	"  -T                 stopped or traced (T, t)",
	"  -p PID[,PID...]    these processes, in the order given",
	"  -H                 every thread of each process, not only the main one",
	"  --cgroup PATH      only tasks in this cgroup v2 path or below it",
	"",
	"output (default: oled kstack's text on stdout):",
	"  -c                 summary: one paragraph per stack, most common first",
	"  --json             JSON Lines, one object per sample",
	"  --folded           flame-graph input (comm;frames COUNT)",
	"  -o FILE            write the sample to FILE, atomically",
	"  --follow-symlink   with -o: write where a symbolic link points",
	"  --proc-root DIR    read this /proc-like tree (default /proc)",
	"  -v, --verbose      more detail; DEBUG log lines with -b",
	"",
	"background mode:",
	"  -b                 sample in the background into DIR/kstack_HOSTNAME.out",
	"  --foreground       -b without forking, for a service manager",
	"  -t MINUTES         how long to run@t:one sample",
	"  -i SECONDS         between samples, >= 10 with -b@i",
	"  -d DIR             log directory (default /var/oled/kstack)",
	"  -m MB              rotate above MB megabytes@m:never",
	"  -n FILES           rotated logs kept@n:never rotate",
	"  -x PERCENT         no start, no writes at this disk use@x",
	"  report DIR         what DIR's logs say: stuck tasks, timeline (report -h)",
	"",
	"hooks and dumps:",
	"  -K                 kprobes, as debugfs kprobes/list prints them",
	"  -F                 ftrace-patched functions (tracefs enabled_functions)",
	"  --touched          with -F: every function ever patched (Linux 6.4+)",
	"  --vmcore VMCORE    read a kernel dump instead of /proc",
	"  --vmlinux VMLINUX  its debug vmlinux (optional with a kallsyms dump)",
	"",
	"source lines and snooping:",
	"  -l, --lines        file:line of every frame, inlined functions too",
	"  --decode [FILE]    add file:line to stack text (logs, oopses, bt)",
	"  --snoop FUNC       the kernel stack of every call of FUNC, live",
	"",
	"other:",
	"  -h, --help         this help",
	"  --version          print the version",
};

/* "@t:one sample" as " (default 30, 0-525600; 0: one sample)" */
static void num_info(FILE *out, const char *at)
{
	long min, max, def;

	if (ks_options_num_info(at[1], &min, &max, &def))
		return;
	fprintf(out, " (default %ld, %ld-%ld", def, min, max);
	if (at[2] == ':')
		fprintf(out, "; 0: %s", at + 3);
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
		const char *at = strchr(lines[i], '@');

		if (!at) {
			fprintf(out, "%s\n", lines[i]);
			continue;
		}
		fwrite(lines[i], 1, (size_t)(at - lines[i]), out);
		num_info(out, at);
		fputc('\n', out);
	}
	fputs("\nexit status: 0 printed, 1 nothing matched or a PID is missing, "
	      "2 usage,\n3 not permitted (needs root), 4 other failure.  "
	      "See kstack(8).\n", out);
}
