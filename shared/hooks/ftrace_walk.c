// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace from kernel memory: the ftrace_ops on ftrace_ops_list with their
 * filter and notrace hashes, and the enabled dyn_ftrace records that
 * /sys/kernel/tracing/enabled_functions lists (Linux 6.1
 * kernel/trace/ftrace.c: t_func_next() skips records without
 * FTRACE_FL_ENABLED, t_show() prints them; ftrace_find_tramp_ops_any/next()
 * pick the ops whose trampoline a record calls; x86's
 * arch_ftrace_trampoline_func() names the function a trampoline calls).
 * Nothing here prints: problems go to the walker's reporter, and the
 * records to the caller (hooks_writer.c prints them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "hooks_walk.h"
#include "kernel_string.h"
#include "list_walk.h"
#include "symbolize.h"

/*
 * dyn_ftrace.flags.  These are enum constants, not type layout, so the
 * target's type information cannot give them; they are include/linux/
 * ftrace.h of Linux 6.1, and of 6.4+ where stated.  The flag bits 31..23
 * stayed put; 6.3 added CALL_OPS (22) and CALL_OPS_EN (21), 6.4 TOUCHED
 * (20) and MODIFIED (19), each time shrinking the reference count below
 * them (FTRACE_REF_MAX_SHIFT 23, then 21, then 19) and adding a column to
 * enabled_functions.  6.4 is told by type information (struct module got
 * its mem[] then); 6.3, which nothing in the types marks, reads as 6.1.
 */
#define DYN_FL_ENABLED		(1ul << 31)
#define DYN_FL_REGS		(1ul << 30)
#define DYN_FL_REGS_EN		(1ul << 29)
#define DYN_FL_TRAMP		(1ul << 28)
#define DYN_FL_TRAMP_EN		(1ul << 27)
#define DYN_FL_IPMODIFY		(1ul << 26)
#define DYN_FL_DISABLED		(1ul << 25)
#define DYN_FL_DIRECT		(1ul << 24)
#define DYN_FL_DIRECT_EN	(1ul << 23)
#define DYN_FL_CALL_OPS		(1ul << 22)	/* 6.3+ */
#define DYN_FL_CALL_OPS_EN	(1ul << 21)	/* 6.3+ */
#define DYN_FL_TOUCHED		(1ul << 20)	/* 6.4+ */
#define DYN_FL_MODIFIED		(1ul << 19)	/* 6.4+ */
#define DYN_REF_SHIFT_6_1	23
#define DYN_REF_SHIFT_6_4	19

/* ftrace_ops.flags bits (FTRACE_OPS_FL_*, 6.1). */
#define OPS_FL_SAVE_REGS	(1ul << 2)
#define OPS_FL_ALLOC_TRAMP	(1ul << 11)

/* print_rec(): a record further than this into its symbol is invalid. */
#define FTRACE_MCOUNT_MAX_OFFSET	4	/* ENDBR_INSN_SIZE with IBT */

#define OPS_MAX		1024
#define HASH_BITS_MAX	20
#define PAGES_MAX	100000
#define CALL_INSN_SIZE	5
#define PAGE_SIZE_X86	4096ull
#define PAGE_ORDER_MAX	10		/* MAX_ORDER: no bigger page allocation */

/* The members every ftrace walk needs, and the ones it can do without. */
static int layout_members(const struct ks_ftrace_walker *w,
			  struct ks_ftrace_layout *l)
{
	struct ks_field mem;
	const struct ks_field_spec m[] = {
		KS_NEED(&l->ops_func, "ftrace_ops", "func"),
		KS_NEED(&l->ops_next, "ftrace_ops", "next"),
		KS_NEED(&l->ops_flags, "ftrace_ops", "flags"),
		KS_NEED(&l->ops_private, "ftrace_ops", "private"),
		KS_OPTIONAL(&l->ops_saved_func, "ftrace_ops", "saved_func"),
		KS_NEED(&l->ops_func_hash, "ftrace_ops", "func_hash"),
		KS_OPTIONAL(&l->ops_tramp, "ftrace_ops", "trampoline"),
		KS_OPTIONAL(&l->ops_tramp_size, "ftrace_ops", "trampoline_size"),
		KS_NEED(&l->oh_notrace, "ftrace_ops_hash", "notrace_hash"),
		KS_NEED(&l->oh_filter, "ftrace_ops_hash", "filter_hash"),
		KS_NEED(&l->h_size_bits, "ftrace_hash", "size_bits"),
		KS_NEED(&l->h_buckets, "ftrace_hash", "buckets"),
		KS_NEED(&l->h_count, "ftrace_hash", "count"),
		KS_NEED(&l->e_hlist, "ftrace_func_entry", "hlist"),
		KS_NEED(&l->e_ip, "ftrace_func_entry", "ip"),
		KS_OPTIONAL(&l->e_direct, "ftrace_func_entry", "direct"),
		KS_NEED(&l->head_first, "hlist_head", "first"),
		KS_NEED(&l->node_next, "hlist_node", "next"),
		KS_NEED(&l->pg_next, "ftrace_page", "next"),
		KS_NEED(&l->pg_records, "ftrace_page", "records"),
		KS_NEED(&l->pg_index, "ftrace_page", "index"),
		KS_OPTIONAL(&l->pg_order, "ftrace_page", "order"),
		KS_NEED(&l->rec_ip, "dyn_ftrace", "ip"),
		KS_NEED(&l->rec_flags, "dyn_ftrace", "flags"),
		KS_OPTIONAL(&mem, "module", "mem"),
	};
	int ret = ks_field_table_report(w->t, m, sizeof(m) / sizeof(m[0]),
					w->rep);

	l->layout_6_4 = ks_field_ok(&mem);
	/* an int order: read as one (page_room()) */
	if (l->pg_order.size != 4)
		l->pg_order.off = -1;
	return ret;
}

/* The symbols the records' " ->" part needs: without them it is empty. */
static void layout_symbols(const struct ks_target *t,
			   struct ks_ftrace_layout *l)
{
	const struct ks_target_ops *o = t->ops;
	void *c = t->ctx;

	if (o->symbol(c, "ftrace_pages_start", &l->pages_start))
		l->pages_start = 0;
	if (o->symbol(c, "direct_functions", &l->direct_functions))
		l->direct_functions = 0;
	if (o->symbol(c, "ftrace_call", &l->ftrace_call) ||
	    o->symbol(c, "ftrace_caller", &l->ftrace_caller))
		l->ftrace_call = l->ftrace_caller = 0;
	if (o->symbol(c, "ftrace_regs_call", &l->ftrace_regs_call) ||
	    o->symbol(c, "ftrace_regs_caller", &l->ftrace_regs_caller))
		l->ftrace_regs_call = l->ftrace_regs_caller = 0;
}

/* The members, sizes and symbols every ftrace walk needs. */
static int layout_init(const struct ks_ftrace_walker *w,
		       struct ks_ftrace_layout *l)
{
	const struct ks_target_ops *o = w->t->ops;
	void *c = w->t->ctx;

	if (o->symbol(c, "ftrace_ops_list", &l->ops_list) ||
	    o->symbol(c, "ftrace_list_end", &l->list_end)) {
		ks_say(w->rep, KS_WARN, "no ftrace_ops_list: this kernel "
			  "has no function tracer");
		return -ENOENT;
	}
	if (layout_members(w, l))
		return -ENOENT;
	l->head_size = o->type_size(c, "hlist_head");
	if (l->head_size <= 0 || l->pg_index.size <= 0 || l->pg_index.size > 8) {
		ks_say(w->rep, KS_WARN,
		       "no size for hlist_head or ftrace_page.index");
		return -ENOENT;
	}
	l->rec_size = o->type_size(c, "dyn_ftrace");
	if (l->rec_size <= 0 || l->rec_flags.size <= 0 ||
	    l->rec_flags.size > 8) {
		ks_say(w->rep, KS_WARN, "no size for struct dyn_ftrace");
		return -ENOENT;
	}
	layout_symbols(w->t, l);
	return 0;
}

int ks_ftrace_walker_init(struct ks_ftrace_walker *w,
			  const struct ks_target *t,
			  const struct ks_reporter *rep)
{
	memset(w, 0, sizeof(*w));
	w->t = t;
	w->rep = rep;
	return layout_init(w, &w->l);
}

static int cmp_u64(const void *a, const void *b);

/* Eight bytes at member f of base, 0 when the kernel has no such member. */
static int read_field(const struct ks_target *t, uint64_t base,
		      const struct ks_field *f, uint64_t *v)
{
	*v = 0;
	if (!ks_field_ok(f))
		return 0;
	return ks_read_u64(t, base + (uint64_t)f->off, v);
}

/*
 * The ips of one ftrace_hash.  Buckets are walked in order; each bucket
 * is bounded by the hash's own count, so a looping bucket stops.
 */
static int read_hash(const struct ks_target *t, const struct ks_ftrace_layout *l,
		     uint64_t hash, uint64_t **ips_ret, size_t *n_ret,
		     uint64_t **directs_ret)
{
	uint64_t bits, buckets, count, b, *ips = NULL, *directs = NULL;
	size_t n = 0;

	*ips_ret = NULL;
	*n_ret = 0;
	if (directs_ret)
		*directs_ret = NULL;
	if (!hash)
		return 0;
	if (read_field(t, hash, &l->h_size_bits, &bits) ||
	    read_field(t, hash, &l->h_buckets, &buckets) ||
	    read_field(t, hash, &l->h_count, &count))
		return -EFAULT;
	/* ftrace_hash_empty(): no entries means "every function" (filter). */
	if (!count)
		return 0;
	if (bits > HASH_BITS_MAX || count > (1u << 24))
		return -EINVAL;
	ips = calloc(count, sizeof(*ips));
	if (directs_ret)
		directs = calloc(count, sizeof(*directs));
	if (!ips || (directs_ret && !directs)) {
		free(ips);
		free(directs);
		return -ENOMEM;
	}
	for (b = 0; b < (1ull << bits) && n < count; b++) {
		uint64_t node;
		size_t steps = 0;

		if (ks_read_u64(t, buckets + b * (uint64_t)l->head_size +
					   (uint64_t)l->head_first.off, &node))
			goto fault;
		while (node && n < count && steps++ <= count) {
			uint64_t e = node - l->e_hlist.off;

			if (read_field(t, e, &l->e_ip, &ips[n]))
				goto fault;
			if (directs && read_field(t, e, &l->e_direct, &directs[n]))
				goto fault;
			n++;
			if (ks_read_u64(t, node + l->node_next.off, &node))
				goto fault;
		}
	}
	*ips_ret = ips;
	*n_ret = n;
	if (directs_ret)
		*directs_ret = directs;
	return 0;
fault:
	free(ips);
	free(directs);
	return -EFAULT;
}

/* One ftrace_ops at op: its fields, hashes and next; false if unreadable. */
static bool read_ops(const struct ks_target *t, const struct ks_ftrace_layout *l,
		     uint64_t op, struct ks_ftrace_ops *o, uint64_t *next)
{
	uint64_t func_hash;

	o->kaddr = op;
	if (read_field(t, op, &l->ops_func, &o->func) ||
	    read_field(t, op, &l->ops_next, next) ||
	    read_field(t, op, &l->ops_flags, &o->flags) ||
	    read_field(t, op, &l->ops_private, &o->private_data) ||
	    read_field(t, op, &l->ops_saved_func, &o->saved_func) ||
	    read_field(t, op, &l->ops_tramp, &o->trampoline) ||
	    read_field(t, op, &l->ops_tramp_size, &o->trampoline_size) ||
	    read_field(t, op, &l->ops_func_hash, &func_hash))
		return false;
	if (func_hash &&
	    (read_field(t, func_hash, &l->oh_filter, &o->filter_hash) ||
	     read_field(t, func_hash, &l->oh_notrace, &o->notrace_hash)))
		o->error = "cannot read its ftrace_ops_hash";
	if (read_hash(t, l, o->filter_hash, &o->filter, &o->nr_filter, NULL))
		o->filter_err = true;
	if (read_hash(t, l, o->notrace_hash, &o->notrace, &o->nr_notrace,
		      NULL))
		o->notrace_err = true;
	if (o->nr_filter)
		qsort(o->filter, o->nr_filter, sizeof(uint64_t), cmp_u64);
	if (o->nr_notrace)
		qsort(o->notrace, o->nr_notrace, sizeof(uint64_t), cmp_u64);
	return true;
}

static bool ops_seen(const struct ks_ftrace_ops_list *l, uint64_t op)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].kaddr == op)
			return true;
	return false;
}

int ks_ftrace_ops_walk(const struct ks_ftrace_walker *w,
		       struct ks_ftrace_ops_list *out)
{
	uint64_t op, next;

	if (ks_read_u64(w->t, w->l.ops_list, &op)) {
		ks_say(w->rep, KS_WARN, "cannot read ftrace_ops_list");
		return -EFAULT;
	}
	/* do_for_each_ftrace_op(): until NULL or &ftrace_list_end */
	for (; op && op != w->l.list_end; op = next) {
		struct ks_ftrace_ops *o;

		if (ops_seen(out, op) || out->n >= OPS_MAX) {
			out->error = "ftrace_ops_list loops";
			ks_say(w->rep, KS_WARN, "ftrace_ops_list loops "
				  "at 0x%" PRIx64 ", stopped", op);
			break;
		}
		o = ks_ftrace_ops_list_add(out);
		if (!o)
			return -ENOMEM;
		if (!read_ops(w->t, &w->l, op, o, &next)) {
			o->error = "cannot read the struct ftrace_ops";
			out->error = "an ftrace_ops could not be read";
			ks_say(w->rep, KS_WARN, "cannot read ftrace_ops "
				  "at 0x%" PRIx64 ", list stopped", op);
			break;
		}
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ips sorted by ks_ftrace_ops_walk(): every record asks every ops. */
static bool ips_contain(const uint64_t *ips, size_t n, uint64_t ip)
{
	return n && bsearch(&ip, ips, n, sizeof(*ips), cmp_u64);
}

/* hash_contains_ip(): in the filter (or no filter) and not in notrace. */
static bool ops_traces(const struct ks_ftrace_ops *o, uint64_t ip)
{
	return (!o->nr_filter || ips_contain(o->filter, o->nr_filter, ip)) &&
	       (!o->nr_notrace || !ips_contain(o->notrace, o->nr_notrace, ip));
}

/*
 * The architecture's arch_ftrace_trampoline_func(), x86's unless the
 * target names another architecture: the weak default names nothing.
 */
static bool has_tramp_func(const struct ks_target *t)
{
	return !t->arch || t->arch->ftrace_tramp_func;
}

/* The target of the call instruction at site, as %pS text ("" if unread). */
static void call_target(const struct ks_target *t, uint64_t site, char *buf,
			size_t len)
{
	uint8_t insn[CALL_INSN_SIZE];
	int32_t rel;

	buf[0] = '\0';
	if (!has_tramp_func(t) || ks_read(t, site, insn, sizeof(insn)))
		return;
	/* the kernel decodes it as a call without checking the opcode */
	memcpy(&rel, insn + 1, sizeof(rel));
	ks_sym_format_pS(t, site + CALL_INSN_SIZE + (int64_t)rel, buf, len);
}

/*
 * What the records share, computed once: the ops' trampoline texts (the
 * same for every record an ops traces) and the static caller's two
 * targets.  With the function tracer on every function, tens of
 * thousands of records print the same trampoline.
 */
struct text_cache {
	struct ks_ftrace_tramp **tramp;	/* per ops, NULL until used */
	size_t nr_ops;
	char static_target[2][KS_HOOK_TEXT_LEN];
	bool static_done[2];
};

static void text_cache_free(struct text_cache *c)
{
	size_t i;

	for (i = 0; c->tramp && i < c->nr_ops; i++)
		free(c->tramp[i]);
	free(c->tramp);
}

/* x86 static_tramp_func(NULL, rec): the call in ftrace_(regs_)caller. */
static const char *static_target(const struct ks_target *t,
				 const struct ks_ftrace_layout *l,
				 struct text_cache *c, uint64_t flags)
{
	bool regs = flags & DYN_FL_REGS_EN;
	uint64_t site = regs ? l->ftrace_regs_call : l->ftrace_call;
	char *buf = c->static_target[regs];

	if (!c->static_done[regs]) {
		buf[0] = '\0';
		if (site)
			call_target(t, site, buf, KS_HOOK_TEXT_LEN);
		c->static_done[regs] = true;
	}
	return buf;
}

/* x86 arch_ftrace_trampoline_func(ops, rec) */
static void tramp_target(const struct ks_target *t, const struct ks_ftrace_layout *l,
			 const struct ks_ftrace_ops *o, char *buf, size_t len)
{
	uint64_t off;

	buf[0] = '\0';
	/* static_tramp_func() with a trampoline that was not allocated */
	if (!(o->flags & OPS_FL_ALLOC_TRAMP))
		return;
	if (o->flags & OPS_FL_SAVE_REGS) {
		if (!l->ftrace_regs_call)
			return;
		off = l->ftrace_regs_call - l->ftrace_regs_caller;
	} else {
		if (!l->ftrace_call)
			return;
		off = l->ftrace_call - l->ftrace_caller;
	}
	call_target(t, o->trampoline + off, buf, len);
}

/* add_trampoline_func(): the texts of ops i, or NULL without memory. */
static const struct ks_ftrace_tramp *
tramp_text(const struct ks_target *t, const struct ks_ftrace_layout *l,
	   const struct ks_ftrace_ops_list *ops, struct text_cache *c,
	   size_t i)
{
	const struct ks_ftrace_ops *o = &ops->v[i];
	struct ks_ftrace_tramp *tr;

	if (!c->tramp) {
		c->tramp = calloc(ops->n, sizeof(*c->tramp));
		if (!c->tramp)
			return NULL;
		c->nr_ops = ops->n;
	}
	if (c->tramp[i])
		return c->tramp[i];
	tr = malloc(sizeof(*tr));
	if (!tr)
		return NULL;
	ks_sym_format_pS(t, o->trampoline, tr->tramp, sizeof(tr->tramp));
	ks_sym_format_pS(t, o->func, tr->func, sizeof(tr->func));
	tramp_target(t, l, o, tr->target, sizeof(tr->target));
	c->tramp[i] = tr;
	return tr;
}

/* direct_functions, sorted by ip for ftrace_find_rec_direct(). */
struct direct_call {
	uint64_t ip, target;
	size_t order;		/* in the hash's walk: the last one wins */
};

static int cmp_direct(const void *a, const void *b)
{
	const struct direct_call *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The target of the last entry for ip with one, as a walk of them all. */
static uint64_t direct_target(const struct direct_call *d, size_t n,
			      uint64_t ip)
{
	size_t lo = 0, hi = n;
	uint64_t target = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && d[lo].ip == ip; lo++)
		if (d[lo].target)
			target = d[lo].target;
	return target;
}

/* The trampolines of a TRAMP_EN record; -ENOMEM when a text cannot be kept. */
static int fill_tramps(const struct ks_target *t, const struct ks_ftrace_layout *l,
		       const struct ks_ftrace_ops_list *ops,
		       struct text_cache *c, struct ks_ftrace_rec *r)
{
	size_t i;

	for (i = 0; i < ops->n; i++) {
		const struct ks_ftrace_ops *o = &ops->v[i];
		const struct ks_ftrace_tramp *text;

		if (!o->trampoline || !ops_traces(o, r->ip))
			continue;
		if (r->nr_tramps >= KS_FTRACE_MAX_TRAMPS)
			break;
		text = tramp_text(t, l, ops, c, i);
		if (!text)
			return -ENOMEM;
		r->tramps[r->nr_tramps++] = *text;
	}
	r->tramp_error = !r->nr_tramps;
	return 0;
}

/*
 * ftrace_find_unique_ops(): the one ops whose hashes take the record's
 * ip, "%pS (%pS)" of it and its func; an error when none or several do.
 */
static void fill_call_ops(const struct ks_target *t,
			  const struct ks_ftrace_ops_list *ops,
			  struct ks_ftrace_rec *r)
{
	const struct ks_ftrace_ops *found = NULL;

	for (size_t i = 0; i < ops->n; i++) {
		if (!ops_traces(&ops->v[i], r->ip))
			continue;
		if (found) {
			found = NULL;
			break;
		}
		found = &ops->v[i];
	}
	r->call_ops_error = !found;
	if (!found)
		return;
	ks_sym_format_pS(t, found->kaddr, r->call_ops_text.tramp,
			 sizeof(r->call_ops_text.tramp));
	ks_sym_format_pS(t, found->func, r->call_ops_text.func,
			 sizeof(r->call_ops_text.func));
}

/* The record's name, or false when print_rec() would call it invalid. */
static bool rec_name(const struct ks_target *t, uint64_t ip,
		     struct ks_ftrace_rec *r)
{
	struct ks_sym sym;

	if (t->ops->lookup(t->ctx, ip, &sym) || !sym.name || ip < sym.addr ||
	    (sym.size && ip - sym.addr >= sym.size)) {
		r->invalid = true;
		snprintf(r->func, sizeof(r->func), "__ftrace_invalid_address___0");
		return false;
	}
	if (sym.module)
		snprintf(r->module, sizeof(r->module), "%s", sym.module);
	if (ip - sym.addr > FTRACE_MCOUNT_MAX_OFFSET) {
		r->invalid = true;
		snprintf(r->func, sizeof(r->func),
			 "__ftrace_invalid_address___%ld",
			 (long)(ip - sym.addr));
		return false;
	}
	snprintf(r->func, sizeof(r->func), "%s", sym.name);
	return true;
}

static int fill_rec(const struct ks_target *t, const struct ks_ftrace_layout *l,
		    const struct ks_ftrace_ops_list *ops, struct text_cache *c,
		    uint64_t ip, uint64_t flags, const struct direct_call *d,
		    size_t nd, struct ks_ftrace_rec *r)
{
	ks_ftrace_rec_clear(r);
	r->ip = ip;
	if (!rec_name(t, ip, r))
		return 0;
	r->refcount = (long)(flags & ((1ul << (l->layout_6_4 ? DYN_REF_SHIFT_6_4 :
					       DYN_REF_SHIFT_6_1)) - 1));
	if (l->layout_6_4) {
		r->columns = 5;
		r->call_ops = flags & DYN_FL_CALL_OPS;
		r->modified = flags & DYN_FL_MODIFIED;
	}
	r->regs = flags & DYN_FL_REGS;
	r->ipmodify = flags & DYN_FL_IPMODIFY;
	r->direct = flags & DYN_FL_DIRECT;
	r->tramp_en = flags & DYN_FL_TRAMP_EN;
	r->call_ops_en = l->layout_6_4 && (flags & DYN_FL_CALL_OPS_EN);
	if (r->tramp_en) {
		if (fill_tramps(t, l, ops, c, r))
			return -ENOMEM;
	} else if (r->call_ops_en) {
		fill_call_ops(t, ops, r);
	} else {
		snprintf(r->target, sizeof(r->target), "%s",
			 static_target(t, l, c, flags));
	}
	/* ftrace_find_rec_direct(): the entry in direct_functions */
	if (r->direct) {
		r->direct_addr = direct_target(d, nd, ip);
		if (r->direct_addr)
			ks_sym_format_pS(t, r->direct_addr, r->direct_to,
					 sizeof(r->direct_to));
	}
	return 0;
}

/* The ftrace_page list and the bounds the kernel's own counts give it. */
struct page_walk {
	const struct ks_ftrace_walker *w;
	const struct ks_target *t;
	const struct ks_ftrace_layout *l;
	const struct ks_ftrace_ops_list *ops;
	ks_ftrace_rec_fn fn;
	void *arg;
	struct direct_call *direct;
	size_t nd;
	struct text_cache cache;
	struct ks_ftrace_rec *rec;	/* the one record handed to fn */
	int fn_ret;			/* fn's, when it stopped the walk */
	uint8_t *buf;
	size_t max_records, nr_records;
	uint64_t show;		/* the flag a record needs to be listed */
};

/* A complaint about the page walk, to the walker's reporter. */
#define say(pw, ...) ks_say((pw)->w->rep, KS_WARN, __VA_ARGS__)

/* A kernel counter (unsigned long) that may be absent: 0 then. */
static uint64_t kernel_count(const struct ks_target *t, const char *name)
{
	uint64_t addr, v;

	if (t->ops->symbol(t->ctx, name, &addr) || ks_read_u64(t, addr, &v))
		return 0;
	return v;
}

/* ftrace_page.index, an int: sign-extended from its size (little-endian). */
static int page_index(struct page_walk *pw, uint64_t pg, long *index)
{
	uint64_t raw = 0;
	long size = pw->l->pg_index.size;

	if (ks_read(pw->t, pg + pw->l->pg_index.off, &raw, (size_t)size))
		return -EFAULT;
	if (size < 8 && raw >> (8 * size - 1) & 1)
		raw |= ~0ull << (8 * size);
	*index = (long)raw;
	return 0;
}

/* The largest index a page of this order holds (ftrace_allocate_records). */
static long page_room(struct page_walk *pw, uint64_t pg)
{
	int32_t order;

	if (!ks_field_ok(&pw->l->pg_order) ||
	    ks_read(pw->t, pg + pw->l->pg_order.off, &order, sizeof(order)) ||
	    order < 0 || order > PAGE_ORDER_MAX)
		return 1 << 20;
	return (long)((PAGE_SIZE_X86 << order) / (uint64_t)pw->l->rec_size);
}

/* One struct ftrace_page: its enabled records. */
static int page_node(void *arg, uint64_t pg)
{
	struct page_walk *pw = arg;
	const struct ks_ftrace_layout *l = pw->l;
	uint64_t records;
	long i, index;

	if (read_field(pw->t, pg, &l->pg_records, &records) ||
	    page_index(pw, pg, &index)) {
		say(pw, "cannot read ftrace_page 0x%" PRIx64 ", skipped", pg);
		return 0;
	}
	if (index < 0 || index > page_room(pw, pg)) {
		say(pw, "ftrace_page 0x%" PRIx64 " has a bad index %ld, skipped",
		    pg, index);
		return 0;
	}
	if (pw->nr_records + (size_t)index > pw->max_records) {
		say(pw, "the ftrace_page list holds more records than "
		    "ftrace_number_of_pages has room for (%zu); stopped at 0x%"
		    PRIx64, pw->max_records, pg);
		return -E2BIG;
	}
	pw->nr_records += (size_t)index;
	free(pw->buf);
	pw->buf = malloc((size_t)index * l->rec_size + 1);
	if (!pw->buf)
		return -ENOMEM;
	if (index && ks_read(pw->t, records, pw->buf, (size_t)index * l->rec_size)) {
		say(pw, "cannot read the %ld records of ftrace_page 0x%" PRIx64,
		    index, pg);
		return 0;
	}
	for (i = 0; i < index; i++) {
		const uint8_t *rec = pw->buf + i * l->rec_size;
		uint64_t ip = 0, flags = 0;
		int ret;

		memcpy(&ip, rec + l->rec_ip.off, sizeof(ip));
		memcpy(&flags, rec + l->rec_flags.off, (size_t)l->rec_flags.size);
		if (!(flags & pw->show))
			continue;
		if (fill_rec(pw->t, l, pw->ops, &pw->cache, ip, flags,
			     pw->direct, pw->nd, pw->rec))
			return -ENOMEM;
		ret = pw->fn(pw->arg, pw->rec);
		if (ret) {
			pw->fn_ret = ret;
			return -ECANCELED;
		}
	}
	return 0;
}

/*
 * The list from ftrace_pages_start, through the walk every kernel list
 * takes (a page seen before ends it), bounded by the kernel's own
 * counts when it has them: ftrace_number_of_groups pages (one struct
 * ftrace_page each) holding at most ftrace_number_of_pages pages of
 * records.
 */
static int walk_pages(struct page_walk *pw, uint64_t first)
{
	uint64_t groups = kernel_count(pw->t, "ftrace_number_of_groups");
	uint64_t pages = kernel_count(pw->t, "ftrace_number_of_pages");
	struct ks_list_state w = { .t = pw->t, .max = PAGES_MAX };
	int ret;

	if (groups && groups < PAGES_MAX)
		w.max = (size_t)groups;
	pw->max_records = (size_t)1 << 24;
	if (pages && pages < pw->max_records / PAGE_SIZE_X86)
		pw->max_records = (size_t)(pages * PAGE_SIZE_X86 /
					   (uint64_t)pw->l->rec_size);
	ret = ks_chain_for_each(&w, first, pw->l->pg_next.off, page_node, pw);
	if (ret == -ECANCELED)
		return pw->fn_ret;
	if (ret == -E2BIG)
		return 0;
	if (ret || w.stop == KS_LIST_END)
		return ret;
	if (w.stop == KS_LIST_LONG)
		say(pw, "the ftrace_page list (ftrace_pages_start) has more "
		    "pages than ftrace_number_of_groups (%zu); the rest of it "
		    "is not read", w.max);
	else
		ks_list_stop_say(pw->w->rep, &w,
				 "the ftrace_page list (ftrace_pages_start)");
	return 0;
}

/* direct_functions (ip -> target), sorted for direct_target(). */
static int read_direct(const struct ks_target *t, const struct ks_ftrace_layout *l,
		       struct page_walk *pw)
{
	uint64_t dhash, *ips = NULL, *targets = NULL;
	size_t n = 0, i;

	if (!l->direct_functions || ks_read_u64(t, l->direct_functions, &dhash))
		return 0;
	if (read_hash(t, l, dhash, &ips, &n, &targets))
		return -EFAULT;
	if (n) {
		pw->direct = calloc(n, sizeof(*pw->direct));
		if (!pw->direct) {
			free(ips);
			free(targets);
			return -ENOMEM;
		}
	}
	for (i = 0; i < n; i++)
		pw->direct[i] = (struct direct_call){ ips[i], targets[i], i };
	if (n)
		qsort(pw->direct, n, sizeof(*pw->direct), cmp_direct);
	pw->nd = n;
	free(ips);
	free(targets);
	return 0;
}

/* Why this walk cannot start: 0, or the error (reported). */
static int walk_each_check(const struct ks_ftrace_walker *w, bool touched)
{
	if (touched && !w->l.layout_6_4) {
		ks_say(w->rep, KS_WARN, "this kernel keeps no "
			  "FTRACE_FL_TOUCHED (touched_functions came with "
			  "Linux 6.4)");
		return -EOPNOTSUPP;
	}
	if (!w->l.pages_start) {
		ks_say(w->rep, KS_WARN,
		       "no ftrace_pages_start: no dynamic ftrace");
		return -ENOENT;
	}
	return 0;
}

/* t_func_next() of the enabled_functions or touched_functions iterator. */
int ks_ftrace_walk_each(const struct ks_ftrace_walker *w,
			const struct ks_ftrace_ops_list *ops, bool touched,
			ks_ftrace_rec_fn fn, void *arg)
{
	struct page_walk pw = { .w = w, .t = w->t, .l = &w->l, .ops = ops,
				.fn = fn, .arg = arg };
	uint64_t pg;
	int ret;

	pw.show = touched ? DYN_FL_TOUCHED : DYN_FL_ENABLED;
	ret = walk_each_check(w, touched);
	if (ret)
		return ret;
	pw.rec = calloc(1, sizeof(*pw.rec));
	if (!pw.rec)
		return -ENOMEM;
	ret = read_direct(w->t, &w->l, &pw);
	if (ret == -ENOMEM)
		goto out;
	if (ret)
		say(&pw, "cannot read direct_functions");
	if (ks_read_u64(w->t, w->l.pages_start, &pg)) {
		say(&pw, "cannot read ftrace_pages_start");
		ret = -EFAULT;
	} else {
		ret = walk_pages(&pw, pg);
	}
out:
	text_cache_free(&pw.cache);
	free(pw.rec);
	free(pw.buf);
	free(pw.direct);
	return ret;
}

int ks_ftrace_current_tracer(const struct ks_target *t, char *buf, size_t len)
{
	struct ks_field cur, name;
	const struct ks_field_spec m[] = {
		KS_OPTIONAL(&cur, "trace_array", "current_trace"),
		KS_OPTIONAL(&name, "tracer", "name"),
	};
	uint64_t gt, tracer, str;
	int ret;

	/* optional: the caller just shows no tracer without them */
	ks_field_table_resolve(t, m, sizeof(m) / sizeof(m[0]));
	if (!ks_field_ok(&cur) || !ks_field_ok(&name) ||
	    t->ops->symbol(t->ctx, "global_trace", &gt))
		return -ENOENT;
	if (ks_read_u64(t, gt + (uint64_t)cur.off, &tracer) || !tracer ||
	    ks_read_u64(t, tracer + (uint64_t)name.off, &str) || !str)
		return -EFAULT;
	ret = ks_read_kstring(t, str, buf, len);
	/* a name longer than buf is shown cut, as it always was */
	return ret == -E2BIG ? 0 : ret;
}
