// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One walk of the printk ring for the triage.  A report begins with the
 * line the kernel heads it with (report_heads[]) and ends at its "---[
 * end trace" or where its call trace gives way to anything but
 * "Modules linked in:"; of it are kept the lines that say what happened,
 * not the registers, the code bytes or the frames, which --cpus shows
 * better.  The report kept is the last one before "Kernel panic - not
 * syncing", or the log's last one when nothing panicked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fnv1a.h"
#include "log_digest.h"
#include "printk_safe.h"

static const char *const report_heads[] = {
	"------------[ cut here ]",
	"BUG: ",			/* also "BUG: soft lockup" on old kernels */
	"Oops: ",
	"kernel BUG at ",
	"Kernel BUG at ",
	"general protection fault",
	"Unable to handle kernel",	/* arm64 */
	"Internal error: ",		/* arm64's die() */
	"WARNING: CPU: ",
	"INFO: task ",			/* the hung-task detector */
	"watchdog: BUG: soft lockup",
	"watchdog: Watchdog detected hard LOCKUP",
	"rcu: INFO: ",
	"INFO: rcu_",
	"Out of memory",
	"Memory cgroup out of memory",
	"Uhhuh. NMI",
};

static bool starts(const struct ks_log_record *r, const char *prefix)
{
	size_t n = strlen(prefix);

	return r->text_len >= n && !memcmp(r->text, prefix, n);
}

static bool is_head(const struct ks_log_record *r)
{
	for (size_t i = 0; i < sizeof(report_heads) / sizeof(report_heads[0]); i++)
		if (starts(r, report_heads[i]))
			return true;
	/* "bash invoked oom-killer: gfp_mask=..." */
	return memmem(r->text, r->text_len, " invoked oom-killer: ", 21) != NULL;
}

/* "RSP: 0018:ffffa... EFLAGS: 00000246", "x29: ffff8000... x28: ..." */
static bool is_registers(const struct ks_log_record *r)
{
	const char *colon = memchr(r->text, ':', r->text_len < 7 ? r->text_len : 7);

	if (!colon || colon == r->text)
		return false;
	for (const char *p = r->text; p < colon; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", *p))
			return false;
	for (const char *p = colon; p < r->text + r->text_len; p++)
		if (!strchr("0123456789abcdefx :()_ABCDEFGHIJKLMNOPQRSTUVWXYZkln\n", *p))
			return false;
	return true;
}

/* A line of a report's body: a frame, a register, code bytes. */
static bool is_body(const struct ks_log_record *r)
{
	return !r->text_len || r->text[0] == ' ' || r->text[0] == '\t' ||
	       starts(r, "? ") || starts(r, "Code: ") ||
	       starts(r, "Call Trace:") || starts(r, "Call trace:") ||
	       starts(r, "---[ end trace") || is_registers(r);
}

/* a copy of r that owns its text */
static int copy_record(struct ks_log_record *dst, const struct ks_log_record *r)
{
	char *text = malloc(r->text_len ? r->text_len : 1);

	if (!text)
		return -ENOMEM;
	memcpy(text, r->text, r->text_len);
	*dst = *r;
	dst->text = text;
	dst->subsystem = "";
	dst->device = "";
	return 0;
}

static void free_record(struct ks_log_record *r)
{
	free((char *)r->text);
	r->text = NULL;
}

struct walk {
	struct ks_log_digest *d;
	struct ks_log_record cur[KS_LOG_WHY];	/* the report being read */
	size_t nr_cur;
	bool open, in_trace, frozen;
};

static void drop_cur(struct walk *w)
{
	for (size_t i = 0; i < w->nr_cur; i++)
		free_record(&w->cur[i]);
	w->nr_cur = 0;
}

/* The report read so far is the one that explains what followed. */
static void keep_cur(struct walk *w)
{
	struct ks_log_digest *d = w->d;

	memcpy(d->why, w->cur, w->nr_cur * sizeof(w->cur[0]));
	d->nr_why = w->nr_cur;
	w->nr_cur = 0;
	w->frozen = true;
}

static int add_cur(struct walk *w, const struct ks_log_record *r)
{
	if (w->nr_cur == KS_LOG_WHY || is_body(r))
		return 0;
	if (starts(r, "------------[ cut here ]") || starts(r, "Hardware name: "))
		return 0;
	return copy_record(&w->cur[w->nr_cur++], r) ? (w->nr_cur--, -ENOMEM) : 0;
}

/* Whether a report open goes on with r; closes it where it ends. */
static bool report_goes_on(struct walk *w, const struct ks_log_record *r)
{
	if (starts(r, "---[ end trace")) {
		w->open = false;
		return false;
	}
	if (starts(r, "Call Trace:") || starts(r, "Call trace:"))
		w->in_trace = true;
	if (!w->in_trace || is_body(r))
		return true;
	w->in_trace = false;
	if (starts(r, "Modules linked in:"))
		return true;
	w->open = false;
	return false;
}

static int explain(struct walk *w, const struct ks_log_record *r)
{
	if (w->frozen)
		return 0;
	if (starts(r, "Kernel panic - not syncing")) {
		w->d->panicked = true;
		keep_cur(w);
		return 0;
	}
	if (w->open && report_goes_on(w, r))
		return add_cur(w, r);
	if (w->open || !is_head(r))
		return 0;
	drop_cur(w);
	w->open = true;
	w->in_trace = false;
	return add_cur(w, r);
}

static int fold(struct ks_log_digest *d, const struct ks_log_record *r)
{
	uint64_t h = ks_fnv1a(KS_FNV1A_INIT, r->text, r->text_len);
	struct ks_log_folded *f;

	d->nr_warn_records++;
	for (size_t i = 0; i < d->nr_warn; i++) {
		f = &d->warn[i];
		if (f->hash == h && f->rec.text_len == r->text_len &&
		    !memcmp(f->rec.text, r->text, r->text_len)) {
			f->count++;
			return 0;
		}
	}
	if (d->nr_warn == KS_LOG_FOLDED) {
		d->warn_left_out++;
		return 0;
	}
	if (d->nr_warn == d->cap_warn) {
		size_t cap = d->cap_warn ? 2 * d->cap_warn : 16;

		f = realloc(d->warn, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		d->warn = f;
		d->cap_warn = cap;
	}
	f = &d->warn[d->nr_warn];
	if (copy_record(&f->rec, r))
		return -ENOMEM;
	f->hash = h;
	f->count = 1;
	d->nr_warn++;
	return 0;
}

static int last(struct ks_log_digest *d, const struct ks_log_record *r)
{
	size_t at = (d->first_last + d->nr_last) % KS_LOG_LAST;

	if (d->nr_last == KS_LOG_LAST) {
		at = d->first_last;
		free_record(&d->last[at]);
		d->first_last = (d->first_last + 1) % KS_LOG_LAST;
	} else {
		d->nr_last++;
	}
	if (!copy_record(&d->last[at], r))
		return 0;
	/* the slot is empty: keep the ring whole */
	d->last[at].text = NULL;
	d->last[at].text_len = 0;
	return -ENOMEM;
}

/*
 * The last victim: oom_kill_process() prints its "oom-kill:" summary
 * (dump_oom_summary()) before its "Killed process" line, so the last
 * line of either is the whole kill's best line, or the summary of a
 * kill the dump cut short.
 */
static int oom_victim(struct ks_log_digest *d, const struct ks_log_record *r)
{
	if (!starts(r, "oom-kill:") &&
	    !memmem(r->text, r->text_len, ": Killed process ", 17))
		return 0;
	if (d->has_oom)
		free_record(&d->oom);
	d->has_oom = !copy_record(&d->oom, r);
	return d->has_oom ? 0 : -ENOMEM;
}

static int one_record(void *arg, const struct ks_log_record *r)
{
	struct walk *w = arg;
	struct ks_log_digest *d = w->d;
	int ret;

	d->nr_records++;
	ret = last(d, r);
	if (!ret && r->level <= KS_LOG_WARN_LEVEL && !is_body(r))
		ret = fold(d, r);
	if (!ret)
		ret = explain(w, r);
	if (!ret)
		ret = oom_victim(d, r);
	return ret;
}

int ks_log_digest_feed(struct ks_log_digest *d, ks_log_source_fn *source,
		       void *src)
{
	struct walk w = { .d = d };
	int ret;

	memset(d, 0, sizeof(*d));
	ret = source(src, one_record, &w, &d->trouble);
	if (!w.frozen)
		keep_cur(&w);
	drop_cur(&w);
	return ret > 0 ? -EIO : ret;
}

struct ring {
	const struct ks_target *t;
	const struct ks_reporter *rep;
};

static int ring_source(void *src, ks_log_record_fn *fn, void *arg,
		       struct ks_log_trouble *trouble)
{
	const struct ring *r = src;
	int ret = ks_printk_ring_walk(r->t, fn, arg, trouble, r->rep);

	/* a dying NMI's last words, left in printk_safe's buffers */
	return ret ? ret : ks_printk_safe_walk(r->t, fn, arg, r->rep);
}

int ks_log_digest_read(const struct ks_target *t, struct ks_log_digest *d,
		       const struct ks_reporter *rep)
{
	struct ring r = { t, rep };

	return ks_log_digest_feed(d, ring_source, &r);
}

void ks_log_digest_release(struct ks_log_digest *d)
{
	for (size_t i = 0; i < d->nr_why; i++)
		free_record(&d->why[i]);
	for (size_t i = 0; i < d->nr_warn; i++)
		free_record(&d->warn[i].rec);
	for (size_t i = 0; i < d->nr_last; i++)
		free_record(&d->last[i]);
	if (d->has_oom)
		free_record(&d->oom);
	free(d->warn);
	memset(d, 0, sizeof(*d));
}

const struct ks_log_record *ks_log_digest_last(const struct ks_log_digest *d,
					       size_t i)
{
	return &d->last[(d->first_last + i) % KS_LOG_LAST];
}
