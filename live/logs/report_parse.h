/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Samples read back from every log -b writes, one at a time: oled
 * kstack's text (shared/format/format_text.c), -c's summary
 * (report_summary.c), --json's sample a line (report_json.c) and
 * --folded's lines (report_folded.c, samples without a time).  The parser
 * keeps only the sample being read, its arrays reused from one sample to
 * the next and freed after a wide one.
 */
#ifndef KS_REPORT_PARSE_H
#define KS_REPORT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define KS_RP_CMD_MAX	64
/* a sample's arrays beyond this are freed once it is counted */
#define KS_RP_KEEP_BYTES	(64 * 1024)

struct ks_rp_task {
	int pid;			/* 0: not named (-c, --folded) */
	unsigned long weight;		/* the tasks it stands for, 1 but in -c/--folded */
	char state;
	char start[24];			/* "2023/09/30 16:36:49" */
	char cmd[KS_RP_CMD_MAX];	/* Cmd, cut */
	size_t group;
	/* --json's nvcsw and nivcsw, when it has both (kstack diff's) */
	bool has_nvcsw, has_nivcsw;
	uint64_t nvcsw, nivcsw;
};

struct ks_rp_group {
	char *stack;		/* the frames, each line ending in '\n' */
	size_t len, cap;
	uint64_t hash;
};

struct ks_rp_sample {
	time_t time;
	char host[64];
	struct ks_rp_task *tasks;
	size_t nr_tasks, cap_tasks;
	struct ks_rp_group *groups;
	size_t nr_groups, cap_groups;
	size_t total;		/* tasks: the weights' sum */
	size_t nr_d;		/* tasks in D */
	bool untimed;		/* --folded: no time, no sample boundary */
};

typedef int (*ks_rp_sample_fn)(const struct ks_rp_sample *s, void *ctx);

struct ks_rp_parser {
	struct ks_rp_sample s;
	bool in_sample;
	bool in_stack;		/* after "Stack:", before its blank line */
	bool group_open;	/* PID lines seen for the current group */
	bool summary;		/* a -c sample */
	unsigned long nr_bad;	/* lines that fit nowhere */
	unsigned long nr_bad_pid;	/* tasks whose PID cannot be one */
	int *pids;		/* the sample's PIDs, open-addressed, 0 empty */
	size_t nr_pid_slots;
	ks_rp_sample_fn fn;
	void *ctx;
};

/*
 * Whether a log's PID can be a task's: 1 to PID_MAX_LIMIT (4 Mi on
 * 64-bit), which pid_max cannot exceed.
 */
static inline bool ks_rp_pid_valid(long long pid)
{
	return pid > 0 && pid <= 4 * 1024 * 1024;
}

void ks_rp_init(struct ks_rp_parser *p, ks_rp_sample_fn fn, void *ctx);
/* One line without its newline; the callback's error, or 0. */
int ks_rp_line(struct ks_rp_parser *p, const char *line);
/* The end of a file: the last sample is handed over unless torn. */
int ks_rp_end(struct ks_rp_parser *p, bool torn);
void ks_rp_release(struct ks_rp_parser *p);

/* For the readers of each format: building the sample. */
int ks_rp_group_new(struct ks_rp_parser *p);
int ks_rp_group_frame(struct ks_rp_parser *p, const char *frame, size_t n);
void ks_rp_group_close(struct ks_rp_parser *p);
/* A task of the open group (a new one after its stack); 0 or -ENOMEM. */
int ks_rp_task_add(struct ks_rp_parser *p, const struct ks_rp_task *t);
/* The sample handed over (or dropped) and forgotten: the callback's error */
int ks_rp_flush(struct ks_rp_parser *p, bool hand_over);
/* Each format's lines: 0, -EINVAL for a line it does not take, -ENOMEM. */
int ks_rp_summary_line(struct ks_rp_parser *p, const char *line);
int ks_rp_json_line(struct ks_rp_parser *p, const char *line);
int ks_rp_folded_line(struct ks_rp_parser *p, const char *line);
/* FNV-1a of a stack's text: its identity across samples */
uint64_t ks_rp_hash(const char *s, size_t len);
/* "zzz <Sat Sep 30 16:57:18 GMT 2023 - host": 0, or -EINVAL */
int ks_rp_header_time(const char *line, time_t *t, char *host, size_t hlen);

#endif /* KS_REPORT_PARSE_H */
