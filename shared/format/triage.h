/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack triage of a kernel image: why it died or hung, on one page.
 * The runner (triage_run.c) reads every part through the walkers that
 * exist for their own views (the machine, --panic, --cpus, the tasks in
 * D with --waits, -K and -F, --log) and the memory's (memory_state.h)
 * into struct ks_triage; the writers (triage_text.c, triage_json.c,
 * triage_html.c) print it and read no memory but the
 * ftrace records, which are written as they are walked, as -F does.
 * What a part could not read is said once, in its section, so that
 * --vmcore and crash print the same bytes.
 */
#ifndef KS_TRIAGE_H
#define KS_TRIAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "cpu_record.h"
#include "group.h"
#include "hooks_records.h"
#include "log_digest.h"
#include "machine_state.h"
#include "memory_state.h"
#include "panic_state.h"
#include "report.h"
#include "target.h"
#include "task.h"
#include "wait_chains.h"
#include "wait_root.h"

struct ks_kernel;

#define KS_TRIAGE_WHY	200	/* a part's reason, as its walker said it */

/*
 * A reporter that keeps the first line said in why (KS_TRIAGE_WHY
 * bytes): a part's reason, printed once in its section, by the dump's
 * runner and the live one alike.
 */
void ks_triage_keep_first(void *arg, enum ks_say_level level, const char *text);
#define KS_TRIAGE_CATCH(buf) \
	((const struct ks_reporter){ .say = ks_triage_keep_first, .arg = (buf) })

/*
 * The hooks where no memory is walked (the running system: -K's and
 * -F's files in debugfs and tracefs): write() prints the kprobes part of
 * the section, or with ftrace its ftrace part, as text lines or as the
 * JSON array.
 */
struct ks_triage_hooks {
	void (*write)(void *arg, FILE *out, bool ftrace, bool json);
	void *arg;
};

struct ks_triage {
	const struct ks_target *t;
	struct ks_machine machine;
	char machine_why[KS_TRIAGE_WHY];
	struct ks_panic_state ps;
	int ps_err;
	char ps_why[KS_TRIAGE_WHY];
	char message[512];
	bool has_message;
	struct ks_memory mem;
	char mem_why[KS_TRIAGE_WHY];
	char slab_why[KS_TRIAGE_WHY];
	struct ks_cpus cpus;
	int cpus_err;
	char cpus_why[KS_TRIAGE_WHY];
	struct ks_sample stuck;		/* the tasks in D, with their waits */
	struct ks_groups stuck_groups;
	int stuck_err;
	char stuck_why[KS_TRIAGE_WHY];
	/*
	 * The root blocker of their waits (wait_root.h), over the chains
	 * --waits prints; a root outside the tasks in D (a holder asleep in
	 * S, one running) is read on its own into root_owner, found there
	 * or not (root_pid: its PID).
	 */
	struct ks_wait_chains stuck_chains;
	struct ks_wait_root root;
	int32_t root_pid;
	struct ks_sample root_owner;
	struct ks_kprobe_list kprobes;
	int kprobes_err;
	char kprobes_why[KS_TRIAGE_WHY];
	struct ks_log_digest log;
	int log_err;
	char log_why[KS_TRIAGE_WHY];
	/* the running system (live/triage/): its words where a dump's differ */
	bool live;
	const struct ks_triage_hooks *hooks;	/* NULL: walked in t */
};

/* The triage's forms: its text, --json's document, --html's page. */
enum ks_triage_form {
	KS_TRIAGE_TEXT,
	KS_TRIAGE_JSON,
	KS_TRIAGE_HTML,
};

/*
 * The triage of t to out in one form.  k: the task walk's kernel, or
 * NULL where it could not be opened (the machine's uptime, the CPUs and
 * the tasks then say so).  Returns 0, or -ENOMEM, -EIO when out failed.
 */
int ks_triage_report(const struct ks_target *t, struct ks_kernel *k,
		     enum ks_triage_form form, FILE *out,
		     const struct ks_reporter *rep);

/*
 * The same in two steps, for a caller that writes more than one form
 * of one reading (-o DIR's bundle): every part read into tr (0, or
 * -ENOMEM after its line through rep, tr released), then written, each
 * form the same bytes as ks_triage_report()'s; ks_triage_release() ends.
 */
int ks_triage_read(const struct ks_target *t, struct ks_kernel *k,
		   struct ks_triage *tr, const struct ks_reporter *rep);
int ks_triage_write(FILE *out, const struct ks_triage *tr,
		    enum ks_triage_form form);
void ks_triage_release(struct ks_triage *tr);

/* The writers, over what ks_triage_read() read. */
int ks_triage_text(FILE *out, const struct ks_triage *tr);
int ks_triage_json(FILE *out, const struct ks_triage *tr);
int ks_triage_html(FILE *out, const struct ks_triage *tr);

/* The memory section's lines, without its heading: the text's and the page's. */
void ks_triage_memory_text(FILE *out, const struct ks_triage *tr);

/* The -F part of both: the records as -F writes them, walked now. */
int ks_triage_ftrace(FILE *out, const struct ks_target *t, bool json);

#endif /* KS_TRIAGE_H */
