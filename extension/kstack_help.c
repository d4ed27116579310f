// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crash's "help kstack".  crash prints help_data[0] and [1] as the name,
 * [2] after "kstack " as the synopsis, and every later line as it is
 * (through its printf: a "%s" is the prompt's program name).  The
 * synopsis and the option lines are the option table's, so that the
 * help names every option crash's kstack takes and no other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstack_help.h"
#include "options.h"

static const char *const head[] = {
	"  Prints what the live tool kstack(8) would have printed on this kernel",
	"  at the moment of the dump: the tasks, grouped by identical kernel",
	"  stack, in oled kstack's text.  The header shows the crash time",
	"  (timekeeper.xtime_sec) in crash's time zone and the dumped kernel's",
	"  nodename.  Tasks and stacks are read by kstack itself (init_task.tasks,",
	"  each thread group, and an ORC unwinder), so it works where crash's own",
	"  task table and bt do not.",
};

static const char *const tail[] = {
	" ",
	"  -l reads crash's vmlinux and the modules' debug files of the dump's",
	"  release under /usr/lib/debug (or $KSTACK_DEBUG_DIR): the same lines",
	"  and inline chains as kstack -l, from DWARF with libdw; crash's own",
	"  line lookup has no inline chain.  -v prints, after the output, why a",
	"  stack is empty or short, the version, the dump's release and counts.",
	" ",
	"  A task that was on a CPU when the dump was taken is unwound from the",
	"  registers the dump saved for that CPU (empty when it was in user",
	"  mode); the live tool prints an empty stack for such a task.  Tasks",
	"  or lists that cannot be read are reported and the walk goes on.",
	" ",
	"  --log prints the dump's kernel log from its printk ring buffer",
	"  (Linux 5.10+) as dmesg and crash's log print it, the same bytes as",
	"  kstack --vmcore VMCORE --log; records still being written, lost",
	"  ranges and unreadable pages are said once, with their counts.",
	"  On 5.10 to 5.14 the lines left in the per-CPU buffers nmi_print_seq",
	"  and safe_print_seq follow, as crash's log prints them",
	"  (\"[nmi_print_seq] text\").",
	"  --cpus is bt -a in the kernel's own words: a block per CPU headed",
	"  \"CPU: N PID: P Comm: NAME\" (an idle CPU: PID 0, swapper/N), its",
	"  registers, and its trace across its NMI, exception, IRQ and task",
	"  stacks (<NMI> ... </NMI>, <IRQ> ... </IRQ>, <TASK> ... </TASK>), the",
	"  registers saved at each crossing, \"? \" on frames the unwinder did not",
	"  reach; the same bytes as kstack --vmcore VMCORE --cpus.  A CPU",
	"  caught inside __schedule(), still on the stack of the task it leaves",
	"  while rq->curr names the next, shows the task it is on and a line",
	"  \"Switching: to PID P Comm: NAME (rq->curr already)\".",
	"  triage prints why the kernel died or hung, on one page: the machine,",
	"  the panic and the report before it, the taint, the memory, the tasks",
	"  in D with their waits and the root blocker, every CPU, the hooks and",
	"  the log (--json: one document, docs/triage-json.md); the same bytes",
	"  as kstack triage --vmcore VMCORE, which also writes --html FILE and",
	"  the support bundle -o DIR (this command does not).",
	" ",
	"  A dump crash itself cannot open (crash 8.0.2 reads kernels up to 6.10;",
	"  6.11 and later need crash 8.0.6) never reaches this command: read it",
	"  with the standalone reader, which needs no vmlinux on Linux 6.0+:",
	"    kstack --vmcore VMCORE -a -H",
	"\nEXAMPLE",
	"  Show every task of the dump, threads included:\n",
	"    %s> kstack -a -H",
	"    zzz <Sun Nov 22 05:27:24 UTC 2026 - kstack-vm",
	" ",
	"    PID:     1   State:  S   Start Time: 2026/11/22 05:27:17   Cmd: /bin/busybox sh /init",
	"    PID:   116   State:  S   Start Time: 2026/11/22 05:27:20   Cmd: sh -c sleep 1000000",
	"    Stack:",
	"    [<0>] do_wait+0x114/0x320",
	"    [<0>] kernel_wait4+0xb4/0x160",
	"    [<0>] __do_sys_wait4+0xa2/0xb0",
	"    [<0>] do_syscall_64+0x5d/0x90",
	"    [<0>] entry_SYSCALL_64_after_hwframe+0x6e/0xd8",
	"    ...",
	"\n  Show the tasks in uninterruptible sleep as a summary:\n",
	"    %s> kstack -D -c",
	"\n  Show the end of the dump's kernel log (crash's log stops at 6.10):\n",
	"    %s> kstack --log | tail",
	"\n  Say why the kernel died, on one page, into a file for the case:\n",
	"    %s> kstack triage > /tmp/triage.txt",
};

#define NR(a)	(sizeof(a) / sizeof((a)[0]))

static char *synopsis, *options;
static char **lines;

/*
 * The lines of s into out, cut at their newlines; an empty line becomes
 * " ", as crash wants.  With out NULL, only counted.
 */
static size_t split(char *s, char **out)
{
	size_t n = 0;

	for (;;) {
		char *nl = strchr(s, '\n');

		if (out) {
			if (nl)
				*nl = '\0';
			out[n] = *s ? s : " ";
		}
		n++;
		if (!nl)
			return n;
		s = nl + 1;
	}
}

static char *text_of(void (*fn)(FILE *, enum ks_context,
				const struct ks_opt_table *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	/* the live tool's rows are none of crash's: the core's alone */
	fn(f, KS_CTX_CRASH, NULL);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	/* crash adds the newline after the synopsis */
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

char **ks_crash_help(void)
{
	size_t n = 0, nr_opts;

	synopsis = text_of(ks_options_usage);
	options = text_of(ks_options_help);
	if (!synopsis || !options)
		goto fail;
	/* the options start with a blank line: their first title's */
	nr_opts = split(options, NULL);
	lines = calloc(3 + NR(head) + nr_opts + NR(tail) + 1, sizeof(*lines));
	if (!lines)
		goto fail;
	lines[n++] = "kstack";
	lines[n++] = "kernel stacks of tasks, grouped by identical stack";
	lines[n++] = synopsis;
	for (size_t i = 0; i < NR(head); i++)
		lines[n++] = (char *)head[i];
	n += split(options, lines + n);
	for (size_t i = 0; i < NR(tail); i++)
		lines[n++] = (char *)tail[i];
	lines[n] = NULL;
	return lines;
fail:
	ks_crash_help_free();
	return NULL;
}

void ks_crash_help_free(void)
{
	free(lines);
	free(synopsis);
	free(options);
	lines = NULL;
	synopsis = NULL;
	options = NULL;
}
