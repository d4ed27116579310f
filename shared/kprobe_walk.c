// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobes from kernel memory: the walk show_kprobe_addr() does over
 * kprobe_table (Linux 6.1 kernel/kprobes.c), giving the records that
 * report_probe() prints, plus what only memory tells: handlers, nmissed
 * and the bytes really written at each probed address.
 *
 * Every kernel struct offset comes from the target's type information; a
 * looping or unreadable list is reported on err and the walk goes on with
 * the next bucket.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "member_table.h"

/* KPROBE_HASH_BITS is 6 in every kernel that has kprobe_table. */
#define KPROBE_TABLE_SIZE	64
/* More probes in one bucket than this is a corrupted (looping) list. */
#define KPROBE_BUCKET_MAX	4096
#define AGGR_LIST_MAX		4096

struct kp_layout {
	uint64_t table, aggr_pre, kret_pre;
	long head_size, head_first, node_next, lh_next;
	long kp_size, kp_hlist, kp_list, kp_nmissed, kp_addr, kp_pre, kp_post;
	long kp_opcode, kp_flags, kp_flags_size;
	long kret_kp, kret_handler, kret_entry;	/* -1: no kretprobe type */
};

static int layout_init(const struct ks_target *t, struct kp_layout *l,
		       FILE *err)
{
	const struct ks_target_ops *o = t->ops;
	void *c = t->ctx;
	const struct ks_member_spec m[] = {
		{ &l->head_first, "hlist_head", "first", false },
		{ &l->node_next, "hlist_node", "next", false },
		{ &l->lh_next, "list_head", "next", false },
		{ &l->kp_hlist, "kprobe", "hlist", false },
		{ &l->kp_list, "kprobe", "list", false },
		{ &l->kp_nmissed, "kprobe", "nmissed", false },
		{ &l->kp_addr, "kprobe", "addr", false },
		{ &l->kp_pre, "kprobe", "pre_handler", false },
		{ &l->kp_post, "kprobe", "post_handler", false },
		{ &l->kp_opcode, "kprobe", "opcode", false },
		{ &l->kp_flags, "kprobe", "flags", false },
	};

	if (o->symbol(c, "kprobe_table", &l->table)) {
		fprintf(err, "kstack: no kprobe_table: this kernel has no kprobes\n");
		return -ENOENT;
	}
	if (o->symbol(c, "aggr_pre_handler", &l->aggr_pre))
		l->aggr_pre = 0;
	if (o->symbol(c, "pre_handler_kretprobe", &l->kret_pre))
		l->kret_pre = 0;
	if (ks_member_table_resolve(t, m, sizeof(m) / sizeof(m[0]), err))
		return -ENOENT;
	l->head_size = o->type_size(c, "hlist_head");
	l->kp_size = o->type_size(c, "kprobe");
	l->kp_flags_size = o->member_size(c, "kprobe", "flags");
	if (l->head_size <= 0 || l->kp_size <= 0 || l->kp_flags_size <= 0 ||
	    l->kp_flags_size > 8) {
		fprintf(err, "kstack: no size for struct kprobe or hlist_head\n");
		return -ENOENT;
	}
	l->kret_kp = o->member_offset(c, "kretprobe", "kp");
	l->kret_handler = o->member_offset(c, "kretprobe", "handler");
	l->kret_entry = o->member_offset(c, "kretprobe", "entry_handler");
	return 0;
}

static uint64_t get_u64(const uint8_t *buf, long off)
{
	uint64_t v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

static uint64_t get_uint(const uint8_t *buf, long off, long size)
{
	uint64_t v = 0;

	/* x86_64 is little-endian: the low bytes come first. */
	memcpy(&v, buf + off, (size_t)size);
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
	static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

	if (ks_read(t, r->addr, r->bytes, sizeof(r->bytes))) {
		r->code = KS_CODE_UNKNOWN;
		return;
	}
	if (r->bytes[0] == 0xcc)
		r->code = KS_CODE_INT3;
	else if (r->bytes[0] == 0xe9)
		r->code = KS_CODE_JMP;
	else if (r->bytes[0] == 0xe8)
		r->code = KS_CODE_CALL;
	else if (!memcmp(r->bytes, nop5, sizeof(nop5)))
		r->code = KS_CODE_FTRACE_NOP;
	else
		r->code = KS_CODE_OTHER;

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
			r->code_in_place = r->code != KS_CODE_INT3 &&
					   r->code != KS_CODE_JMP;
	} else if (own_flags & KS_KPROBE_FL_FTRACE) {
		r->code_in_place = r->code == KS_CODE_CALL;
	} else if (own_flags & KS_KPROBE_FL_OPTIMIZED) {
		r->code_in_place = r->code == KS_CODE_JMP;
	} else {
		r->code_in_place = r->code == KS_CODE_INT3;
	}
}

/* report_probe(pi, p, sym, offset, modname, pp) as a record. */
static int report(const struct ks_target *t, const struct kp_layout *l,
		  uint64_t kaddr, const uint8_t *kbuf, uint64_t aggr_kaddr,
		  unsigned int aggr_flags, const struct ks_sym *sym, bool has_sym,
		  int armed, struct ks_kprobe_list *out)
{
	struct ks_kprobe *r = ks_kprobe_list_add(out);
	unsigned int flags;

	if (!r)
		return -ENOMEM;
	r->addr = get_u64(kbuf, l->kp_addr);
	r->pre_handler = get_u64(kbuf, l->kp_pre);
	r->post_handler = get_u64(kbuf, l->kp_post);
	r->nmissed = get_u64(kbuf, l->kp_nmissed);
	r->opcode = kbuf[l->kp_opcode];
	flags = (unsigned int)get_uint(kbuf, l->kp_flags, l->kp_flags_size);
	r->type = l->kret_pre && r->pre_handler == l->kret_pre ? 'r' : 'k';
	r->has_sym = has_sym;
	if (has_sym) {
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

	if (r->type == 'r' && l->kret_kp >= 0 && l->kret_handler >= 0 &&
	    l->kret_entry >= 0) {
		uint64_t kret = kaddr - (uint64_t)l->kret_kp;

		if (ks_read_u64(t, kret + l->kret_handler, &r->ret_handler) ||
		    ks_read_u64(t, kret + l->kret_entry, &r->entry_handler))
			r->error = "cannot read the struct kretprobe";
	}
	classify_code(t, r,
		      aggr_kaddr ? aggr_flags | (flags & KS_KPROBE_FL_GONE) : flags,
		      armed);
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
static int walk_aggr(const struct ks_target *t, const struct kp_layout *l,
		     uint64_t ap, const uint8_t *abuf, const struct ks_sym *sym,
		     bool has_sym, int armed, uint8_t *kbuf,
		     struct ks_kprobe_list *out, FILE *err)
{
	unsigned int aflags = (unsigned int)get_uint(abuf, l->kp_flags,
						     l->kp_flags_size);
	uint64_t head = ap + l->kp_list, next;
	size_t n = 0;
	int ret;

	next = get_u64(abuf, l->kp_list + l->lh_next);
	while (next != head) {
		uint64_t kp = next - l->kp_list;

		if (++n > AGGR_LIST_MAX) {
			fprintf(err, "kstack: kprobe 0x%" PRIx64
				": aggregated list does not end, stopped\n", ap);
			return 0;
		}
		if (ks_read(t, kp, kbuf, l->kp_size)) {
			fprintf(err, "kstack: kprobe 0x%" PRIx64
				": cannot read aggregated probe 0x%" PRIx64 "\n",
				ap, kp);
			return 0;
		}
		ret = report(t, l, kp, kbuf, ap, aflags, sym, has_sym, armed,
			     out);
		if (ret)
			return ret;
		next = get_u64(kbuf, l->kp_list + l->lh_next);
	}
	return 0;
}

int ks_kprobe_walk(const struct ks_target *t, struct ks_kprobe_list *out,
		   FILE *err)
{
	struct kp_layout l;
	uint8_t *pbuf = NULL, *kbuf = NULL;
	uint64_t *seen = NULL;
	int armed, ret, i;

	ret = layout_init(t, &l, err);
	if (ret)
		return ret;
	armed = ks_kprobes_enabled(t);
	pbuf = malloc(l.kp_size);
	kbuf = malloc(l.kp_size);
	seen = malloc(KPROBE_BUCKET_MAX * sizeof(*seen));
	if (!pbuf || !kbuf || !seen) {
		ret = -ENOMEM;
		goto out;
	}

	for (i = 0; i < KPROBE_TABLE_SIZE; i++) {
		uint64_t head = l.table + (uint64_t)i * l.head_size, node;
		size_t n = 0;

		if (ks_read_u64(t, head + l.head_first, &node)) {
			fprintf(err, "kstack: cannot read kprobe_table[%d]\n", i);
			continue;
		}
		while (node) {
			uint64_t p = node - l.kp_hlist, addr;
			char name[KS_HOOK_NAME_LEN], mod[KS_HOOK_MOD_LEN];
			struct ks_sym sym;
			bool has_sym;

			if (n >= KPROBE_BUCKET_MAX || seen_before(seen, n, node)) {
				fprintf(err, "kstack: kprobe_table[%d] loops at 0x%"
					PRIx64 ", stopped\n", i, node);
				break;
			}
			seen[n++] = node;
			if (ks_read(t, p, pbuf, l.kp_size)) {
				fprintf(err, "kstack: kprobe_table[%d]: cannot read "
					"struct kprobe at 0x%" PRIx64 "\n", i, p);
				break;
			}
			/* kallsyms_lookup(p->addr): the address itself */
			addr = get_u64(pbuf, l.kp_addr);
			has_sym = !t->ops->lookup(t->ctx, addr, &sym) &&
				  sym.name && addr >= sym.addr &&
				  (!sym.size || addr - sym.addr < sym.size);
			/* the target's strings live only until its next lookup */
			if (has_sym) {
				snprintf(name, sizeof(name), "%s", sym.name);
				snprintf(mod, sizeof(mod), "%s",
					 sym.module ? sym.module : "");
				sym.name = name;
				sym.module = mod[0] ? mod : NULL;
			}
			if (l.aggr_pre && get_u64(pbuf, l.kp_pre) == l.aggr_pre)
				ret = walk_aggr(t, &l, p, pbuf, &sym, has_sym,
						armed, kbuf, out, err);
			else
				ret = report(t, &l, p, pbuf, 0, 0, &sym,
					     has_sym, armed, out);
			if (ret)
				goto out;
			node = get_u64(pbuf, l.kp_hlist + l.node_next);
		}
	}
	ret = 0;
out:
	free(pbuf);
	free(kbuf);
	free(seen);
	return ret;
}

/* Handler owners: "module: handler, handler; module: ...". */
struct owner {
	char module[KS_HOOK_MOD_LEN];
	char names[1024];
};

static void owner_add(struct owner *o, size_t *n, size_t max,
		      const struct ks_target *t, uint64_t addr)
{
	char text[KS_HOOK_TEXT_LEN], mod[KS_HOOK_MOD_LEN];
	size_t i, len;

	if (!addr)
		return;
	ks_sym_format_pS(t, addr, text, sizeof(text));
	ks_pS_module(text, mod, sizeof(mod));
	if (!mod[0])
		snprintf(mod, sizeof(mod), "vmlinux");
	len = strcspn(text, "+ ");
	text[len] = '\0';
	for (i = 0; i < *n; i++)
		if (!strcmp(o[i].module, mod))
			break;
	if (i == *n) {
		if (*n >= max)
			return;
		snprintf(o[i].module, sizeof(o[i].module), "%s", mod);
		o[i].names[0] = '\0';
		(*n)++;
	}
	/* each name once per module */
	{
		const char *s = o[i].names;
		size_t tl = strlen(text);

		while ((s = strstr(s, text))) {
			if ((s == o[i].names || s[-1] == ' ') &&
			    (s[tl] == ',' || s[tl] == '\0'))
				return;
			s += tl;
		}
	}
	len = strlen(o[i].names);
	snprintf(o[i].names + len, sizeof(o[i].names) - len, "%s%s",
		 len ? ", " : "", text);
}

static void owners_print(FILE *out, const char *what, struct owner *o,
			 size_t n)
{
	size_t i;

	fprintf(out, "%s: ", what);
	if (!n)
		fputs("none", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s (%s)", i ? "; " : "", o[i].module,
			o[i].names);
	fputc('\n', out);
}

void ks_kprobe_owners(FILE *out, const struct ks_target *t,
		      const struct ks_kprobe_list *l)
{
	struct owner o[32];
	size_t n = 0, i;

	for (i = 0; i < l->n; i++) {
		const struct ks_kprobe *p = &l->v[i];

		/* a kretprobe's pre_handler is the kernel's own trampoline */
		if (p->type != 'r')
			owner_add(o, &n, 32, t, p->pre_handler);
		owner_add(o, &n, 32, t, p->post_handler);
		owner_add(o, &n, 32, t, p->ret_handler);
		owner_add(o, &n, 32, t, p->entry_handler);
	}
	owners_print(out, "handler owners", o, n);
}

/*
 * The ops' handlers, then the direct-call targets (direct calls bypass
 * the ops' func: their targets own those hooks), given as addresses or as
 * the records that hold them.
 */
static void ftrace_owners(FILE *out, const struct ks_target *t,
			  const struct ks_ftrace_ops_list *l,
			  const uint64_t *direct, size_t nr_direct,
			  const struct ks_ftrace_list *recs)
{
	struct owner o[32];
	size_t n = 0, i;

	for (i = 0; i < l->n; i++)
		owner_add(o, &n, 32, t, l->v[i].func);
	for (i = 0; i < nr_direct; i++)
		owner_add(o, &n, 32, t, direct[i]);
	for (i = 0; recs && i < recs->n; i++)
		owner_add(o, &n, 32, t, recs->v[i].direct_addr);
	fprintf(out, "%zu ftrace_ops on ftrace_ops_list\n", l->n);
	owners_print(out, "handler owners", o, n);
}

void ks_ftrace_ops_owners_direct(FILE *out, const struct ks_target *t,
				 const struct ks_ftrace_ops_list *l,
				 const uint64_t *direct, size_t nr_direct)
{
	ftrace_owners(out, t, l, direct, nr_direct, NULL);
}

void ks_ftrace_ops_owners(FILE *out, const struct ks_target *t,
			  const struct ks_ftrace_ops_list *l,
			  const struct ks_ftrace_list *recs)
{
	ftrace_owners(out, t, l, NULL, 0, recs);
}

