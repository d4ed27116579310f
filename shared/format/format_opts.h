/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the writers of a sample (and of -K/-F) are told: the format and
 * what shapes it.  The option parser fills it inside struct ks_options;
 * the writers see this part alone.
 */
#ifndef KS_FORMAT_OPTS_H
#define KS_FORMAT_OPTS_H

#include <stdbool.h>

enum ks_format {
	KS_FMT_TEXT,		/* oled kstack's text, the default */
	KS_FMT_SUMMARY,		/* -c */
	KS_FMT_JSON,		/* --json: one JSON object per sample */
	KS_FMT_FOLDED,		/* --folded: flame-graph input */
};

struct ks_format_opts {
	enum ks_format format;
	bool summary_all;	/* -c --all: every task of a group */
	bool waits;		/* --waits: the "== waits" section */
	/*
	 * -D -c: each group's time in D where the sample knows it, its
	 * oldest and youngest time since last ran and its longest time
	 * blocked (struct ks_task's blocked_ns); -c without -D stays oled's.
	 */
	bool stuck_time;
	/*
	 * -v: the text's task_struct, CPU and note, -K/-F's detail.  The
	 * background logs write with it false: there -v means DEBUG log
	 * lines and the samples stay oled's text.
	 */
	bool verbose;
};

#endif /* KS_FORMAT_OPTS_H */
