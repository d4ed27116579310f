// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A port of crash's __dump_printk_safe_seq_buf() (kernel.c): for each
 * buffer, for each possible CPU, struct printk_safe_seq_buf's len bytes
 * of text at __per_cpu_offset[cpu] from the buffer's symbol.  Whether
 * the kernel has the buffers is the symbols' presence; where their
 * members lie is the kernel's types.  A buffer of a CPU that cannot be
 * read is said and skipped, where crash's FAULT_ON_ERROR ends the command.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "member_table.h"
#include "printk_safe.h"

/* crash's order: the NMI's buffer, then the one of printk_safe_enter() */
static const char *const buffer_names[] = { "nmi_print_seq", "safe_print_seq" };
#define NR_BUFFERS	(sizeof(buffer_names) / sizeof(buffer_names[0]))

#define SOH		'\001'	/* KERN_SOH */
/* SAFE_LOG_BUF_LEN is 1 << CONFIG_PRINTK_SAFE_LOG_BUF_SHIFT, at most 21 */
#define BUF_MAX		(1L << 21)
#define CPUS_MAX	8192u

static int emit(const char *buf, size_t start, size_t end, char header,
		bool headed, const struct ks_log_record *tmpl,
		ks_log_record_fn *fn, void *arg)
{
	struct ks_log_record rec = *tmpl;

	rec.text = buf + start;
	rec.text_len = end - start;
	rec.headed = headed;
	rec.header = header;
	rec.level = header >= '0' && header <= '7' ? (uint8_t)(header - '0') :
		    KS_LOG_SAFE_DEFAULT_LEVEL;
	rec.flags = header == 'c' ? KS_LOG_CONT : 0;
	return fn(arg, &rec);
}

int ks_printk_safe_split(const char *buf, size_t len,
			 const struct ks_log_record *tmpl,
			 ks_log_record_fn *fn, void *arg)
{
	size_t start = 0;
	bool open = false, headed = false;
	char header = '\0';
	int ret;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] == SOH) {
			/* crash starts a new line unless at a line's start */
			if (open) {
				ret = emit(buf, start, i, header, headed, tmpl,
					   fn, arg);
				if (ret)
					return ret;
			}
			open = headed = true;
			header = i + 1 < len ? buf[i + 1] : '\0';
			i++;	/* the level byte, whatever it is */
			start = i < len ? i + 1 : len;
			continue;
		}
		if (!open) {
			open = true;
			headed = false;
			header = '\0';
			start = i;
		}
		if (buf[i] != '\n')
			continue;
		open = false;
		ret = emit(buf, start, i, header, headed, tmpl, fn, arg);
		if (ret)
			return ret;
	}
	return open ? emit(buf, start, len, header, headed, tmpl, fn, arg) : 0;
}

/* What the walk reads, looked up once. */
struct safe_walk {
	const struct ks_target *t;
	const struct ks_reporter *rep;
	ks_log_record_fn *fn;
	void *arg;
	struct ks_field len, lost, buffer;
	uint64_t per_cpu_offset, possible;	/* possible: 0 without the mask */
	unsigned int nr_cpu_ids;
	char *text;
};

static int types(struct safe_walk *w)
{
	const struct ks_target *t = w->t;

	/* len and message_lost are atomic_t: their counter is at offset 0 */
	w->len = ks_field_find(t, "printk_safe_seq_buf", "len");
	w->lost = ks_field_find(t, "printk_safe_seq_buf", "message_lost");
	w->buffer = ks_field_find(t, "printk_safe_seq_buf", "buffer");
	if (!ks_field_ok(&w->len) || !ks_field_ok(&w->lost) ||
	    !ks_field_ok(&w->buffer) || w->buffer.size <= 0 ||
	    w->buffer.size > BUF_MAX) {
		ks_say(w->rep, KS_WARN, "the log: the lines left in "
		       "nmi_print_seq and safe_print_seq cannot be read: no "
		       "valid struct printk_safe_seq_buf in the kernel's types");
		return -ENOENT;
	}
	return 0;
}

/* for_each_possible_cpu() below nr_cpu_ids; crash reads 0 to kt->cpus */
static int cpus(struct safe_walk *w)
{
	const struct ks_target *t = w->t;
	uint64_t nr;

	if (t->ops->symbol(t->ctx, "__cpu_possible_mask", &w->possible))
		w->possible = 0;
	if (t->ops->symbol(t->ctx, "__per_cpu_offset", &w->per_cpu_offset) ||
	    t->ops->symbol(t->ctx, "nr_cpu_ids", &nr) ||
	    ks_read(t, nr, &w->nr_cpu_ids, sizeof(w->nr_cpu_ids)) ||
	    !w->nr_cpu_ids || w->nr_cpu_ids > CPUS_MAX) {
		ks_say(w->rep, KS_WARN, "the log: the lines left in "
		       "nmi_print_seq and safe_print_seq cannot be read: no "
		       "readable __per_cpu_offset and nr_cpu_ids");
		return -ENOENT;
	}
	return 0;
}

/* cpumask_test_cpu(cpu, cpu_possible_mask) */
static bool possible(const struct safe_walk *w, unsigned int cpu)
{
	uint64_t word;

	if (!w->possible)
		return true;
	if (ks_read_u64(w->t, w->possible + 8 * (cpu / 64), &word))
		return true;	/* the buffer's own read says what is missing */
	return word >> (cpu % 64) & 1;
}

/* len bytes of the text of the buffer at base, split into lines. */
static int text(struct safe_walk *w, const char *name, unsigned int cpu,
		uint64_t base, int32_t len, int32_t lost)
{
	struct ks_log_record tmpl = { .buffer = name, .cpu = cpu,
				      .message_lost = lost,
				      .subsystem = "", .device = "" };
	size_t n = (size_t)len < (size_t)w->buffer.size ? (size_t)len :
		   (size_t)w->buffer.size;

	if (ks_read(w->t, base + (uint64_t)w->buffer.off, w->text, n)) {
		ks_say(w->rep, KS_WARN, "the log: CPU %u's %s text at %#llx "
		       "is not in the image, left out", cpu, name,
		       (unsigned long long)(base + (uint64_t)w->buffer.off));
		return 0;
	}
	return ks_printk_safe_split(w->text, n, &tmpl, w->fn, w->arg);
}

/* per_cpu_ptr(&name, cpu)'s len and message_lost, then its text. */
static int one_cpu(struct safe_walk *w, const char *name, uint64_t sym,
		   unsigned int cpu)
{
	uint64_t off, base;
	int32_t len = 0, lost = 0;

	if (ks_read_u64(w->t, w->per_cpu_offset + 8 * (uint64_t)cpu, &off)) {
		ks_say(w->rep, KS_WARN, "the log: CPU %u's per-CPU offset is "
		       "not in the image: its %s left out", cpu, name);
		return 0;
	}
	base = sym + off;
	if (ks_read(w->t, base + (uint64_t)w->len.off, &len, 4) ||
	    ks_read(w->t, base + (uint64_t)w->lost.off, &lost, 4)) {
		ks_say(w->rep, KS_WARN, "the log: CPU %u's %s at %#llx is not "
		       "in the image, left out", cpu, name,
		       (unsigned long long)base);
		return 0;
	}
	/* printk_safe_flush()'s report_message_lost() had not run yet */
	if (lost > 0)
		ks_say(w->rep, KS_WARN, "the log: CPU %u's %s lost %d "
		       "message(s), its buffer full", cpu, name, lost);
	return len > 0 ? text(w, name, cpu, base, len, lost) : 0;
}

static int one_buffer(struct safe_walk *w, const char *name, uint64_t sym)
{
	int ret;

	for (unsigned int cpu = 0; cpu < w->nr_cpu_ids; cpu++) {
		if (!possible(w, cpu))
			continue;
		ret = one_cpu(w, name, sym, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

int ks_printk_safe_walk(const struct ks_target *t, ks_log_record_fn *fn,
			void *arg, const struct ks_reporter *rep)
{
	struct safe_walk w = { .t = t, .rep = rep, .fn = fn, .arg = arg };
	uint64_t sym[NR_BUFFERS];
	bool have[NR_BUFFERS], any = false;
	int ret = 0;

	for (size_t i = 0; i < NR_BUFFERS; i++) {
		have[i] = t->ops->symbol &&
			  !t->ops->symbol(t->ctx, buffer_names[i], &sym[i]);
		any |= have[i];
	}
	if (!any || types(&w) || cpus(&w))
		return 0;	/* 5.15 and later: the ring has every line */
	w.text = malloc((size_t)w.buffer.size);
	if (!w.text) {
		ks_say(rep, KS_WARN, "the log: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t i = 0; i < NR_BUFFERS && !ret; i++)
		if (have[i])
			ret = one_buffer(&w, buffer_names[i], sym[i]);
	free(w.text);
	return ret;
}
