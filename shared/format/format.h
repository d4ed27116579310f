/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writers for one sample.  Each prints a whole sample to a stdio stream;
 * the caller decides whether that is stdout, crash's fp or a log file.
 */
#ifndef KS_FORMAT_H
#define KS_FORMAT_H

#include <stdio.h>

#include "group.h"
#include "format_opts.h"
#include "task.h"

/*
 * The writers, one per format, each reading the options that shape it:
 * the text -v (task_struct, CPU and note of each task; not in background
 * logs, which keep oled's text), the summary --all (every task of a
 * group, not three examples).
 */
int ks_format_text(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g, const struct ks_format_opts *opts);
int ks_format_summary(FILE *out, const struct ks_sample *s,
		      const struct ks_groups *g, const struct ks_format_opts *opts);
int ks_format_json(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g, const struct ks_format_opts *opts);
int ks_format_folded(FILE *out, const struct ks_sample *s,
		     const struct ks_groups *g, const struct ks_format_opts *opts);

/*
 * The task of grp gone longest without running (youngest: the least
 * long), and the one blocked longest by the hung-task detector's
 * record; NULL where no task of it has the time (-D -c, the triage).
 */
const struct ks_task *ks_group_oldest(const struct ks_sample *s,
				      const struct ks_group *grp, bool youngest);
const struct ks_task *ks_group_blocked_longest(const struct ks_sample *s,
					       const struct ks_group *grp);
/*
 * The states of grp's tasks, each once, in -c's order (the kernel's
 * task_state_array, then anything else), into states[]: their number.
 * A group has one signature per state (docs/signature.md).
 */
size_t ks_group_states(const struct ks_sample *s, const struct ks_group *grp,
		       char states[128]);
/*
 * How a group's signatures are written: the label for one and for more,
 * what encloses each signature, and how a state letter is written (the
 * page escapes it).
 */
struct ks_sig_style {
	const char *one, *many, *open, *close;
	void (*state)(FILE *out, char state);
};
/* Its signatures, one per state (-c's "Signatures: S 1a2b..., D ...") */
void ks_format_signatures(FILE *out, const struct ks_sample *s,
			  const struct ks_group *grp,
			  const struct ks_sig_style *st);
/*
 * -c's paragraphs without its header, the group whose task has gone
 * longest without running first, each with its oldest and youngest
 * time since last ran and its longest time blocked (the triage's tasks
 * in D).
 */
int ks_format_summary_by_age(FILE *out, const struct ks_sample *s,
			     const struct ks_groups *g);
/*
 * --waits after the text or -c: the "== waits" section, chains and
 * deadlocks of the tasks' waits_for (format_waits.c).
 */
int ks_format_waits(FILE *out, const struct ks_sample *s);
struct ks_wait_chains;
/*
 * The chains and deadlocks of s's waits, as --waits prints them (the
 * triage's page draws them).  0 or -ENOMEM; release c either way.
 */
int ks_wait_chains_of(const struct ks_sample *s, struct ks_wait_chains *c);
/*
 * The chains of s's waits as that section prints them, and next[] of
 * each task (wait_chains.h; s->nr_tasks of them): 0 or -ENOMEM.
 */
int ks_sample_wait_chains(const struct ks_sample *s, size_t *next,
			  struct ks_wait_chains *c);

/* Groups s and writes it in the format opts asks for; -errno on failure. */
int ks_format_sample(FILE *out, const struct ks_sample *s,
		     const struct ks_format_opts *opts);

/* A JSON string of s; invalid UTF-8 becomes U+FFFD. */
void ks_json_str(FILE *out, const char *s);
/* The same of len bytes, NULs included (\u0000). */
void ks_json_str_n(FILE *out, const char *s, size_t len);
/* The frames of stack as a JSON array, without the "[<0>] " of each line. */
void ks_json_frames(FILE *out, const char *stack);
/* The frames of stack outermost first, as ";name" each (flame graphs). */
void ks_folded_frames(FILE *out, const char *stack);
/* comm with the characters the folded format reserves replaced. */
void ks_folded_comm(FILE *out, const char *comm);

/* "zzz <Sat Sep 30 16:57:18 GMT 2023 - host" in local time, no newline */
int ks_format_header(char *buf, size_t len, time_t when, const char *host);

#endif /* KS_FORMAT_H */
