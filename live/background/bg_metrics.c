// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metrics of -b --prometheus.  A task counts as in D since the first
 * sample that found it in D, as long as every sample since did (the same
 * PID and start time): the sampler cannot see further back.  Stacks are
 * named by their signature (docs/signature.md), so that one hang has one
 * label on every host of a fleet.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bg_metrics.h"
#include "grow.h"
#include "stack_signature.h"

#define TOP_SIGNATURES	10

/* The state letters /proc/PID/stat gives, each a series even when 0. */
static const char states[] = "RSDTtZXIP";

struct sig_count {
	char sig[KS_SIGNATURE_LEN];
	char top[96];		/* the innermost frame's function */
	unsigned long n;
};

void ks_metrics_init(struct ks_metrics *m, const char *path)
{
	memset(m, 0, sizeof(*m));
	m->path = path;
}

void ks_metrics_release(struct ks_metrics *m)
{
	free(m->d);
	m->d = NULL;
	m->nr_d = m->cap_d = 0;
}

/* by PID, then start time: the list is searched once per task in D */
static int by_task(const void *a, const void *b)
{
	const struct ks_metrics_d *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->start_time > y->start_time) - (x->start_time < y->start_time);
}

static const struct ks_metrics_d *d_find(const struct ks_metrics *m,
					 const struct ks_task *t)
{
	struct ks_metrics_d key = { t->pid, t->start_time, 0 };

	return m->nr_d ? bsearch(&key, m->d, m->nr_d, sizeof(key), by_task) : NULL;
}

/* The tasks in D now, each since when; the longest, in seconds. */
static int d_update(struct ks_metrics *m, const struct ks_sample *s,
		    int64_t now_ns, double *longest)
{
	struct ks_metrics_d *next = NULL;
	size_t nr = 0, cap = 0;

	*longest = 0;
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const struct ks_task *t = &s->tasks[i];
		const struct ks_metrics_d *old;
		struct ks_metrics_d *grown;

		if (t->state != 'D')
			continue;
		grown = ks_grow(next, &cap, nr + 1, sizeof(*next));
		if (!grown) {
			free(next);
			return -ENOMEM;
		}
		next = grown;
		old = d_find(m, t);
		next[nr] = (struct ks_metrics_d){ t->pid, t->start_time,
						  old ? old->since_ns : now_ns };
		if ((double)(now_ns - next[nr].since_ns) / 1e9 > *longest)
			*longest = (double)(now_ns - next[nr].since_ns) / 1e9;
		nr++;
	}
	if (nr)
		qsort(next, nr, sizeof(*next), by_task);
	free(m->d);
	m->d = next;
	m->nr_d = nr;
	m->cap_d = cap;
	return 0;
}

static int by_sig(const void *a, const void *b)
{
	return strcmp(((const struct sig_count *)a)->sig,
		      ((const struct sig_count *)b)->sig);
}

/*
 * The signatures of the tasks in D with their counts, in *v: one entry
 * per task, sorted, then runs folded, so that 20,000 tasks in D cost a
 * sort, not 20,000 searches.
 */
static int count_sigs(const struct ks_sample *s, struct sig_count **v,
		      size_t *nr_ret)
{
	size_t nr = 0, out = 0;
	struct sig_count *c;

	for (size_t i = 0; i < s->nr_tasks; i++)
		nr += s->tasks[i].state == 'D';
	*v = NULL;
	*nr_ret = 0;
	if (!nr)
		return 0;
	c = calloc(nr, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0, j = 0; i < s->nr_tasks; i++) {
		const struct ks_task *t = &s->tasks[i];

		if (t->state != 'D')
			continue;
		ks_stack_signature(t->state, t->stack, c[j].sig);
		ks_stack_top_frame(t->stack, c[j].top, sizeof(c[j].top));
		c[j++].n = 1;
	}
	qsort(c, nr, sizeof(*c), by_sig);
	for (size_t i = 1; i < nr; i++) {
		if (!strcmp(c[i].sig, c[out].sig))
			c[out].n++;
		else
			c[++out] = c[i];
	}
	*v = c;
	*nr_ret = out + 1;
	return 0;
}

/* most tasks first; one order for equal counts, so the file is stable */
static int by_count(const void *a, const void *b)
{
	const struct sig_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->sig, y->sig);
}

/* A label value: backslash, quote and newline escaped, as the format asks. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void write_states(FILE *f, const struct ks_sample *s)
{
	fputs("# HELP kstack_tasks Tasks in the last sample, by state letter.\n"
	      "# TYPE kstack_tasks gauge\n", f);
	for (const char *st = states; *st; st++) {
		unsigned long n = 0;

		for (size_t i = 0; i < s->nr_tasks; i++)
			n += s->tasks[i].state == *st;
		fprintf(f, "kstack_tasks{state=\"%c\"} %lu\n", *st, n);
	}
}

static int write_d(FILE *f, const struct ks_sample *s, double longest)
{
	struct sig_count *v;
	size_t nr;
	int ret = count_sigs(s, &v, &nr);

	if (ret)
		return ret;
	if (nr)
		qsort(v, nr, sizeof(*v), by_count);
	fprintf(f, "# HELP kstack_d_longest_seconds The longest a task has stayed in D, over consecutive samples.\n"
		"# TYPE kstack_d_longest_seconds gauge\n"
		"kstack_d_longest_seconds %.3f\n"
		"# HELP kstack_d_signatures Distinct stack signatures among the tasks in D.\n"
		"# TYPE kstack_d_signatures gauge\n"
		"kstack_d_signatures %zu\n"
		"# HELP kstack_d_tasks Tasks in D with this stack signature (the 10 largest).\n"
		"# TYPE kstack_d_tasks gauge\n", longest, nr);
	for (size_t i = 0; i < nr && i < TOP_SIGNATURES; i++) {
		fprintf(f, "kstack_d_tasks{signature=\"%s\",top=\"", v[i].sig);
		label(f, v[i].top);
		fprintf(f, "\"} %lu\n", v[i].n);
	}
	free(v);
	return 0;
}

static void write_counts(FILE *f, const struct ks_metrics_counts *c)
{
	fprintf(f, "# HELP kstack_samples_total Samples due since the sampler started, by what became of them.\n"
		"# TYPE kstack_samples_total counter\n"
		"kstack_samples_total{result=\"written\"} %lu\n"
		"kstack_samples_total{result=\"skipped\"} %lu\n"
		"kstack_samples_total{result=\"lost\"} %lu\n",
		c->written, c->skipped, c->lost);
}

/* FILE.tmp.PID beside FILE, then renamed over it: readers never see half. */
int ks_metrics_write(struct ks_metrics *m, const struct ks_sample *s,
		     const struct ks_metrics_counts *c, int64_t now_ns)
{
	char tmp[4096];
	double longest = 0;
	FILE *f;
	int fd, ret = 0;

	if (s && d_update(m, s, now_ns, &longest))
		return -ENOMEM;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", m->path,
			     (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	/* node_exporter reads it as its own user: not the sampler's 0600 */
	if (fchmod(fd, 0644)) {
		ret = -errno;
		close(fd);
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out;
	}
	if (s) {
		write_states(f, s);
		ret = write_d(f, s, longest);
	}
	write_counts(f, c);
	if (fflush(f) || ferror(f))
		ret = ret ? ret : -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, m->path))
		ret = -errno;
out:
	if (ret)
		unlink(tmp);
	return ret;
}
