/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record both halves agree on.  The live tool fills it from /proc, the
 * crash extension and --vmcore compute it from kernel memory; everything
 * after that (grouping, formats, rotation) sees only these records.  The
 * selection is the source's: it knows where a task's state, PID and
 * cgroup are (select.h's rules).
 */
#ifndef KS_TASK_H
#define KS_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define KS_COMM_LEN	64
#define KS_HOST_LEN	256
#define KS_RELEASE_LEN	65	/* struct new_utsname's fields */
/* A start time that could not be computed: "?" in text, null in JSON. */
#define KS_START_UNKNOWN	INT64_MIN
/* A sample time that could not be read: "?" in the header, null in JSON. */
#define KS_WHEN_UNKNOWN		((time_t)INT64_MIN)

struct ks_task {
	int32_t pid;		/* the thread id for a thread */
	int32_t tgid;
	char state;		/* one letter, as field 3 of /proc/PID/stat */
	bool running;		/* on a CPU while read: its stack is not stable */
	/*
	 * What a crash user follows up with (struct task_struct ADDR, set
	 * PID, bt -c CPU): the task_struct's address, 0 where unknown (the
	 * live /proc has none), and the CPU it runs or last ran on.
	 */
	uint64_t task_addr;
	bool has_cpu;
	int32_t cpu;
	int64_t start_time;	/* seconds since the epoch, or KS_START_UNKNOWN */
	char comm[KS_COMM_LEN];
	char *cmd;		/* what "Cmd:" prints; owned, never NULL once added */
	char *stack;		/* "[<0>] sym+0x1/0x2\n" lines; owned, "" if none */
	char *note;		/* why the stack is missing, or NULL */
	bool note_said;		/* the walk reported note as it found it */
	/*
	 * The note names memory the image lacks (a dump cut short): the
	 * stack, the command line or the name; such a note prints without
	 * -v.  A stack cut so groups apart from the same text whole.
	 */
	bool missing;
	bool stack_missing;
	/*
	 * Context switches, voluntary and not (status's *_ctxt_switches,
	 * task_struct.nvcsw/nivcsw): counts that did not move between two
	 * looks at a task mean it did not run in between.
	 */
	bool has_switches;
	uint64_t nvcsw, nivcsw;
	/*
	 * Nanoseconds since the task last ran, as crash's ps -m counts them
	 * (its CPU's runqueue clock minus sched_info.last_arrival); a dump
	 * only: the live /proc has no such clock.
	 */
	bool has_last_ran;
	uint64_t last_ran_ns;
	/*
	 * Nanoseconds the task has been blocked at least, by the hung-task
	 * detector's own record (task_struct.last_switch_time, in jiffies,
	 * CONFIG_DETECT_HUNG_TASK): when khungtaskd last saw its context
	 * switch count move (check_hung_task()).  A task in D whose count
	 * has not moved since, of a dump only.
	 */
	bool has_blocked;
	uint64_t blocked_ns;
	/*
	 * --waits, a dump only: the lock it waits for, as the kernel linked
	 * it (shared/kernel/waits/).
	 */
	bool has_wait;
	struct ks_task_wait {
		const char *kind;	/* static: "mutex", "rwsem", ... */
		uint64_t addr;		/* the lock */
		uint64_t owner;		/* its owner's task_struct, 0: none */
		bool last_holder;	/* owner: a semaphore's last_holder */
		bool ownerless;		/* a queue: the kernel records none */
		int32_t owner_pid;	/* 0: the owner is no task of the dump */
		bool readers;		/* an rwsem held by nr_readers readers */
		uint64_t nr_readers;
		char where[64];		/* the symbol it lies in, or "" */
	} wait;
};

/* One sample: every selected task at one moment on one host. */
struct ks_sample {
	time_t when;
	char host[KS_HOST_LEN];
	char kernel[KS_RELEASE_LEN];	/* uname -r of the sampled kernel, or "" */
	/*
	 * --waits: a line under "== waits" on how they were read, or NULL;
	 * waits_unread: they could not be, so no chain means nothing.
	 */
	const char *waits_note;
	bool waits_unread;
	struct ks_task *tasks;
	size_t nr_tasks;
	size_t cap;
};

void ks_sample_init(struct ks_sample *s, time_t when, const char *host);
/* Takes ownership of t->cmd, t->stack and t->note.  -ENOMEM on failure. */
int ks_sample_add(struct ks_sample *s, struct ks_task *t);
void ks_sample_release(struct ks_sample *s);

/*
 * Cmd text from raw /proc/PID/cmdline bytes: NULs become spaces, trailing
 * NULs are dropped, other bytes are kept as they are (not UTF-8 checked).
 * An empty command line gives comm.  Returns a malloc'ed string or NULL.
 */
char *ks_cmd_from_cmdline(const char *buf, size_t len, const char *comm);

#endif /* KS_TASK_H */
