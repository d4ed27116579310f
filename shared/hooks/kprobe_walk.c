// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobes from kernel memory: the walk show_kprobe_addr() does over
 * kprobe_table (Linux 6.1 kernel/kprobes.c), giving the records that
 * report_probe() prints, plus what only memory tells: handlers, nmissed
 * and the bytes really written at each probed address.
 *
 * Every kernel struct offset comes from the target's type information; a
 * looping or unreadable list goes to the caller's reporter and the walk
 * goes on with the next bucket.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "hooks_walk.h"

/* KPROBE_HASH_BITS is 6 in every kernel that has kprobe_table. */
#define KPROBE_TABLE_SIZE	64
/* More probes in one bucket than this is a corrupted (looping) list. */
#define KPROBE_BUCKET_MAX	4096
#define AGGR_LIST_MAX		4096

struct kp_layout {
	uint64_t table, aggr_pre, kret_pre;
	long head_size, kp_size;
	struct ks_field head_first, node_next, lh_next;
	struct ks_field kp_hlist, kp_list, kp_nmissed, kp_addr, kp_pre, kp_post;
	struct ks_field kp_opcode, kp_flags;
	struct ks_field kret_kp, kret_handler, kret_entry; /* optional */
};

/* One walk of kprobe_table. */
struct kp_walk {
	const struct ks_target *t;
	struct kp_layout l;
	const struct ks_reporter *rep;
	int armed;		/* ks_kprobes_enabled() */
	uint8_t *pbuf, *kbuf;	/* a struct kprobe and an aggregated one */
	uint64_t *seen;		/* the nodes of the bucket so far */
	struct ks_kprobe_list *out;
};

static int layout_init(struct kp_walk *w)
{
	const struct ks_target *t = w->t;
	struct kp_layout *l = &w->l;
	const struct ks_target_ops *o = t->ops;
	void *c = t->ctx;
	const struct ks_field_spec m[] = {
		KS_NEED(&l->head_first, "hlist_head", "first"),
		KS_NEED(&l->node_next, "hlist_node", "next"),
		KS_NEED(&l->lh_next, "list_head", "next"),
		KS_NEED(&l->kp_hlist, "kprobe", "hlist"),
		KS_NEED(&l->kp_list, "kprobe", "list"),
		KS_NEED(&l->kp_nmissed, "kprobe", "nmissed"),
		KS_NEED(&l->kp_addr, "kprobe", "addr"),
		KS_NEED(&l->kp_pre, "kprobe", "pre_handler"),
		KS_NEED(&l->kp_post, "kprobe", "post_handler"),
		KS_NEED(&l->kp_opcode, "kprobe", "opcode"),
		KS_NEED(&l->kp_flags, "kprobe", "flags"),
		KS_OPTIONAL(&l->kret_kp, "kretprobe", "kp"),
		KS_OPTIONAL(&l->kret_handler, "kretprobe", "handler"),
		KS_OPTIONAL(&l->kret_entry, "kretprobe", "entry_handler"),
	};

	if (o->symbol(c, "kprobe_table", &l->table)) {
		ks_say(w->rep, KS_WARN,
		       "no kprobe_table: this kernel has no kprobes");
		return -ENOENT;
	}
	if (o->symbol(c, "aggr_pre_handler", &l->aggr_pre))
		l->aggr_pre = 0;
	if (o->symbol(c, "pre_handler_kretprobe", &l->kret_pre))
		l->kret_pre = 0;
	if (ks_field_table_report(t, m, sizeof(m) / sizeof(m[0]), w->rep))
		return -ENOENT;
	l->head_size = o->type_size(c, "hlist_head");
	l->kp_size = o->type_size(c, "kprobe");
	if (l->head_size <= 0 || l->kp_size <= 0 || l->kp_flags.size <= 0 ||
	    l->kp_flags.size > 8) {
		ks_say(w->rep, KS_WARN,
		       "no size for struct kprobe or hlist_head");
		return -ENOENT;
	}
	return 0;
}

static uint64_t get_u64(const uint8_t *buf, long off)
{
	uint64_t v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

/* The unsigned member f, of its own size, of the struct in buf. */
static uint64_t get_uint(const uint8_t *buf, const struct ks_field *f)
{
	uint64_t v = 0;

	/* x86_64 is little-endian: the low bytes come first. */
	memcpy(&v, buf + f->off, (size_t)f->size);
	return v;
}

int ks_kprobes_enabled(const struct ks_target *t)
{
	uint64_t a;
	uint8_t v;

	/* debugfs kprobes/enabled prints !kprobes_all_disarmed */
	if (t->ops->symbol(t->ctx, "kprobes_all_disarmed", &a))
		return -ENOENT;
	if (ks_read(t, a, &v, 1))
		return -EFAULT;
	return !v;
}

static void classify_code(const struct ks_target *t, struct ks_kprobe *r,
			  unsigned int own_flags, int armed)
{
	/* the instructions are the architecture's (arch.h's probe_code) */
	const struct ks_arch *a = t->arch;
	enum ks_kprobe_code breakpoint;

	r->code = KS_CODE_UNKNOWN;
	if (!a)
		return;
	r->code_len = (uint8_t)a->probe_len;
	if (ks_read(t, r->addr, r->bytes, sizeof(r->bytes)))
		return;
	breakpoint = (enum ks_kprobe_code)a->probe_breakpoint;
	r->code = (enum ks_kprobe_code)a->probe_code(r->bytes);

	/*
	 * What should be there: the arming state is the aggregator's (the
	 * probe, when alone).  A gone probe's code is gone with its module,
	 * and a disarmed or disabled probe on an ftrace site may still share
	 * the call with other ftrace users: nothing to expect then.
	 */
	if (armed < 0 || (own_flags & KS_KPROBE_FL_GONE))
		return;
	r->code_checked = true;
	if (!armed || (own_flags & KS_KPROBE_FL_DISABLED)) {
		if (own_flags & KS_KPROBE_FL_FTRACE)
			r->code_checked = false;
		else
			r->code_in_place = r->code != breakpoint &&
					   r->code != KS_CODE_JMP;
	} else if (own_flags & KS_KPROBE_FL_FTRACE) {
		r->code_in_place = r->code == KS_CODE_CALL;
	} else if (own_flags & KS_KPROBE_FL_OPTIMIZED) {
		r->code_in_place = r->code == KS_CODE_JMP;
	} else {
		r->code_in_place = r->code == breakpoint;
	}
}

/* A kretprobe's own handlers, from the struct kretprobe around it. */
static void read_kretprobe(const struct ks_target *t, const struct kp_layout *l,
			   struct ks_kprobe *r)
{
	uint64_t kret = r->kaddr - (uint64_t)l->kret_kp.off;

	if (r->type != 'r' || !ks_field_ok(&l->kret_kp) ||
	    !ks_field_ok(&l->kret_handler) || !ks_field_ok(&l->kret_entry))
		return;
	if (ks_read_u64(t, kret + l->kret_handler.off, &r->ret_handler) ||
	    ks_read_u64(t, kret + l->kret_entry.off, &r->entry_handler))
		r->error = "cannot read the struct kretprobe";
}

/* report_probe(pi, p, sym, offset, modname, pp) as a record. */
static int add_probe(struct kp_walk *w, uint64_t kaddr, const uint8_t *kbuf,
		     uint64_t aggr_kaddr, unsigned int aggr_flags,
		     const struct ks_sym *sym)
{
	const struct kp_layout *l = &w->l;
	struct ks_kprobe *r = ks_kprobe_list_add(w->out);
	unsigned int flags;

	if (!r)
		return -ENOMEM;
	r->addr = get_u64(kbuf, l->kp_addr.off);
	r->pre_handler = get_u64(kbuf, l->kp_pre.off);
	r->post_handler = get_u64(kbuf, l->kp_post.off);
	r->nmissed = get_u64(kbuf, l->kp_nmissed.off);
	/* kprobe_opcode_t: u8 on x86, u32 on arm64 */
	if (l->kp_opcode.size > 0 && l->kp_opcode.size <= 4) {
		r->opcode = (uint32_t)get_uint(kbuf, &l->kp_opcode);
		r->opcode_size = (uint8_t)l->kp_opcode.size;
	} else {
		r->opcode = kbuf[l->kp_opcode.off];
		r->opcode_size = 1;
	}
	flags = (unsigned int)get_uint(kbuf, &l->kp_flags);
	r->type = l->kret_pre && r->pre_handler == l->kret_pre ? 'r' : 'k';
	r->has_sym = sym != NULL;
	if (sym) {
		snprintf(r->sym, sizeof(r->sym), "%s", sym->name);
		r->offset = r->addr - sym->addr;
		snprintf(r->module, sizeof(r->module), "%s",
			 sym->module ? sym->module : "");
	}
	r->flags = flags & (KS_KPROBE_FL_GONE | KS_KPROBE_FL_DISABLED);
	/* if (!pp) pp = p: the tags of a lone probe are its own */
	r->aggr_flags = (aggr_kaddr ? aggr_flags : flags) &
			(KS_KPROBE_FL_OPTIMIZED | KS_KPROBE_FL_FTRACE);
	r->detailed = true;
	r->kaddr = kaddr;
	r->aggr_kaddr = aggr_kaddr;
	read_kretprobe(w->t, l, r);
	ks_kprobe_event(w->t, r);
	classify_code(w->t, r,
		      aggr_kaddr ? aggr_flags | (flags & KS_KPROBE_FL_GONE) : flags,
		      w->armed);
	return 0;
}

static bool seen_before(const uint64_t *seen, size_t n, uint64_t a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (seen[i] == a)
			return true;
	return false;
}

/* The real probes on an aggregator's list (kprobe_aggrprobe()). */
static int walk_aggr(struct kp_walk *w, uint64_t ap, const struct ks_sym *sym)
{
	const struct kp_layout *l = &w->l;
	unsigned int aflags = (unsigned int)get_uint(w->pbuf, &l->kp_flags);
	uint64_t head = ap + l->kp_list.off, next;
	size_t n = 0;
	int ret;

	next = get_u64(w->pbuf, l->kp_list.off + l->lh_next.off);
	while (next != head) {
		uint64_t kp = next - l->kp_list.off;

		if (++n > AGGR_LIST_MAX) {
			ks_say(w->rep, KS_WARN, "kprobe 0x%" PRIx64
				  ": aggregated list does not end, stopped",
				  ap);
			return 0;
		}
		if (ks_read(w->t, kp, w->kbuf, l->kp_size)) {
			ks_say(w->rep, KS_WARN, "kprobe 0x%" PRIx64
				  ": cannot read aggregated probe 0x%" PRIx64,
				  ap, kp);
			return 0;
		}
		ret = add_probe(w, kp, w->kbuf, ap, aflags, sym);
		if (ret)
			return ret;
		next = get_u64(w->kbuf, l->kp_list.off + l->lh_next.off);
	}
	return 0;
}

/*
 * kallsyms_lookup(p->addr): the symbol of the address itself, copied into
 * name and mod (the target's strings live only until its next lookup);
 * NULL when kallsyms knows none.
 */
static const struct ks_sym *probe_sym(const struct ks_target *t,
				      uint64_t addr, struct ks_sym *sym,
				      char *name, char *mod)
{
	if (t->ops->lookup(t->ctx, addr, sym) || !sym->name ||
	    addr < sym->addr || (sym->size && addr - sym->addr >= sym->size))
		return NULL;
	snprintf(name, KS_HOOK_NAME_LEN, "%s", sym->name);
	snprintf(mod, KS_HOOK_MOD_LEN, "%s", sym->module ? sym->module : "");
	sym->name = name;
	sym->module = mod[0] ? mod : NULL;
	return sym;
}

/* One probe on a bucket: itself, or the probes its aggregator holds. */
static int walk_probe(struct kp_walk *w, uint64_t p)
{
	const struct kp_layout *l = &w->l;
	char name[KS_HOOK_NAME_LEN], mod[KS_HOOK_MOD_LEN];
	const struct ks_sym *has;
	struct ks_sym sym;

	has = probe_sym(w->t, get_u64(w->pbuf, l->kp_addr.off), &sym, name, mod);
	if (l->aggr_pre && get_u64(w->pbuf, l->kp_pre.off) == l->aggr_pre)
		return walk_aggr(w, p, has);
	return add_probe(w, p, w->pbuf, 0, 0, has);
}

/* kprobe_table[i]: a looping or unreadable chain is reported and left. */
static int walk_bucket(struct kp_walk *w, int i)
{
	const struct kp_layout *l = &w->l;
	uint64_t head = l->table + (uint64_t)i * l->head_size, node;
	size_t n = 0;
	int ret;

	if (ks_read_u64(w->t, head + l->head_first.off, &node)) {
		ks_say(w->rep, KS_WARN, "cannot read kprobe_table[%d]", i);
		return 0;
	}
	while (node) {
		uint64_t p = node - l->kp_hlist.off;

		if (n >= KPROBE_BUCKET_MAX || seen_before(w->seen, n, node)) {
			ks_say(w->rep, KS_WARN, "kprobe_table[%d] loops "
				  "at 0x%" PRIx64 ", stopped", i, node);
			return 0;
		}
		w->seen[n++] = node;
		if (ks_read(w->t, p, w->pbuf, l->kp_size)) {
			ks_say(w->rep, KS_WARN, "kprobe_table[%d]: "
				  "cannot read struct kprobe at 0x%" PRIx64,
				  i, p);
			return 0;
		}
		ret = walk_probe(w, p);
		if (ret)
			return ret;
		node = get_u64(w->pbuf, l->kp_hlist.off + l->node_next.off);
	}
	return 0;
}

int ks_kprobe_walk(const struct ks_target *t, struct ks_kprobe_list *out,
		   const struct ks_reporter *rep)
{
	struct kp_walk w = { .t = t, .rep = rep, .out = out };
	int ret, i;

	ret = layout_init(&w);
	if (ret)
		return ret;
	w.armed = ks_kprobes_enabled(t);
	w.pbuf = malloc(w.l.kp_size);
	w.kbuf = malloc(w.l.kp_size);
	w.seen = malloc(KPROBE_BUCKET_MAX * sizeof(*w.seen));
	ret = w.pbuf && w.kbuf && w.seen ? 0 : -ENOMEM;
	for (i = 0; !ret && i < KPROBE_TABLE_SIZE; i++)
		ret = walk_bucket(&w, i);
	free(w.pbuf);
	free(w.kbuf);
	free(w.seen);
	return ret;
}
