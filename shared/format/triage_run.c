// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage's runner: each part read by the walker of its own view,
 * its first complaint kept as the reason its section prints, then the
 * writer.  Nothing here reads kernel memory itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpus_walk.h"
#include "format.h"
#include "hooks_walk.h"
#include "kernel_sample.h"
#include "panic_message.h"
#include "triage.h"

void ks_triage_keep_first(void *arg, enum ks_say_level level, const char *text)
{
	char *why = arg;

	(void)level;
	if (!*why)
		snprintf(why, KS_TRIAGE_WHY, "%s", text);
}

static void read_panic(struct ks_triage *tr)
{
	const struct ks_reporter rep = KS_TRIAGE_CATCH(tr->ps_why);
	const struct ks_panic_state *ps = &tr->ps;

	tr->ps_err = ks_panic_state_read(tr->t, &tr->ps, &rep);
	/* as --panic: the message only of a CPU that panicked */
	tr->has_message = !tr->ps_err && !ps->cpu_err && ps->panic_cpu >= 0 &&
		!ks_panic_message(tr->t, tr->message, sizeof(tr->message), NULL);
}

/* The tasks in D, with what each waits for, as -D --waits reads them. */
static void read_stuck(struct ks_triage *tr, struct ks_kernel *k)
{
	const struct ks_reporter rep = KS_TRIAGE_CATCH(tr->stuck_why);
	struct ks_selection sel = { .states = KS_ST_BIT('D') };
	const struct ks_walk_opts walk = { &sel, true, false };
	const struct ks_sample_say say = { &rep, true };
	struct ks_kernel_status st;

	if (!k) {
		tr->stuck_err = -ENOENT;
		return;
	}
	tr->stuck_err = ks_kernel_sample(k, &walk, &tr->stuck, &st, &say);
	if (!tr->stuck_err)
		tr->stuck_err = ks_group_build(&tr->stuck, &tr->stuck_groups);
}

/* The owner of the root's lock, a task outside the tasks in D. */
static int read_root_owner(struct ks_triage *tr, struct ks_kernel *k)
{
	struct ks_selection sel = { .pids = &tr->root_pid, .nr_pids = 1 };
	const struct ks_walk_opts walk = { &sel, false, false };
	const struct ks_sample_say say = { NULL, true };
	struct ks_kernel_status st;

	return ks_kernel_sample(k, &walk, &tr->root_owner, &st, &say);
}

/*
 * The root blocker: the end of the longest chain of the waits printed
 * (format_waits.c), read on its own where it is no task in D.
 */
static int read_root(struct ks_triage *tr, struct ks_kernel *k)
{
	const struct ks_sample *s = &tr->stuck;
	size_t n = s->nr_tasks ? s->nr_tasks : 1;
	size_t *next = malloc(n * sizeof(*next));
	bool *outside = calloc(n, sizeof(*outside));
	int ret = -ENOMEM;

	if (!next || !outside)
		goto out;
	ret = ks_sample_wait_chains(s, next, &tr->stuck_chains);
	for (size_t i = 0; !ret && i < s->nr_tasks; i++)
		outside[i] = next[i] == KS_WAIT_END && s->tasks[i].has_wait &&
			     !s->tasks[i].wait.readers && s->tasks[i].wait.owner_pid;
	if (!ret)
		ret = ks_wait_root_find(&tr->stuck_chains, next, outside,
					s->nr_tasks, &tr->root);
	if (ret || !tr->root.beyond)
		goto out;
	tr->root_pid = s->tasks[tr->root.task].wait.owner_pid;
	if (read_root_owner(tr, k) == -ENOMEM)
		ret = -ENOMEM;
out:
	free(next);
	free(outside);
	return ret;
}

static void read_parts(struct ks_triage *tr, struct ks_kernel *k)
{
	const struct ks_reporter mach = KS_TRIAGE_CATCH(tr->machine_why);
	const struct ks_reporter cpus = KS_TRIAGE_CATCH(tr->cpus_why);
	const struct ks_reporter kp = KS_TRIAGE_CATCH(tr->kprobes_why);
	const struct ks_reporter log = KS_TRIAGE_CATCH(tr->log_why);
	const struct ks_reporter mem = KS_TRIAGE_CATCH(tr->mem_why);
	const struct ks_reporter slab = KS_TRIAGE_CATCH(tr->slab_why);
	uint64_t tk = k ? ks_kernel_layout(k)->timekeeper : 0;

	ks_machine_read(tr->t, tk, &tr->machine, &mach);
	read_panic(tr);
	ks_memory_read(tr->t, &tr->mem, &mem, &slab);
	tr->cpus_err = k ? ks_cpus_walk(k, &tr->cpus, &cpus) : -ENOENT;
	read_stuck(tr, k);
	if (!tr->stuck_err && read_root(tr, k))
		tr->stuck_err = -ENOMEM;
	tr->kprobes_err = ks_kprobe_walk(tr->t, &tr->kprobes, &kp);
	tr->log_err = ks_log_digest_read(tr->t, &tr->log, &log);
}

void ks_triage_release(struct ks_triage *tr)
{
	ks_machine_release(&tr->machine);
	ks_panic_state_release(&tr->ps);
	ks_cpus_release(&tr->cpus);
	ks_group_release(&tr->stuck_groups);
	ks_sample_release(&tr->stuck);
	ks_wait_chains_release(&tr->stuck_chains);
	ks_sample_release(&tr->root_owner);
	ks_kprobe_list_free(&tr->kprobes);
	ks_log_digest_release(&tr->log);
}

int ks_triage_read(const struct ks_target *t, struct ks_kernel *k,
		   struct ks_triage *tr, const struct ks_reporter *rep)
{
	memset(tr, 0, sizeof(*tr));
	tr->t = t;
	read_parts(tr, k);
	if (tr->ps_err == -ENOMEM || tr->stuck_err == -ENOMEM ||
	    tr->log_err == -ENOMEM || tr->cpus_err == -ENOMEM) {
		ks_say(rep, KS_WARN, "out of memory");
		ks_triage_release(tr);
		return -ENOMEM;
	}
	return 0;
}

int ks_triage_write(FILE *out, const struct ks_triage *tr,
		    enum ks_triage_form form)
{
	int ret;

	if (form == KS_TRIAGE_JSON)
		ret = ks_triage_json(out, tr);
	else if (form == KS_TRIAGE_HTML)
		ret = ks_triage_html(out, tr);
	else
		ret = ks_triage_text(out, tr);
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}

int ks_triage_report(const struct ks_target *t, struct ks_kernel *k,
		     enum ks_triage_form form, FILE *out,
		     const struct ks_reporter *rep)
{
	struct ks_triage tr;
	int ret = ks_triage_read(t, k, &tr, rep);

	if (ret)
		return ret;
	ret = ks_triage_write(out, &tr, form);
	ks_triage_release(&tr);
	return ret;
}
