// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Variables that kallsyms does not name, found in the dump and checked
 * (data_finder.h says how each one is).  Every search ends in exactly
 * one candidate that passed its checks, or in a reason said once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_finder.h"

#define PAGE		4096u
/* how far past init_uts_ns the data may reach: .data and .bss are a few MiB */
#define DATA_AFTER	(64ull << 20)
#define DATA_MAX	(512ull << 20)
/* the code of one function read: the references are near its start */
#define CODE_MAX	1024u
#define REFS_MAX	64u
/* KPROBE_HASH_BITS is 6 in every kernel that has kprobe_table */
#define KPROBE_TABLE_SIZE	64

static const char swapper0[] = "swapper/0";

/* name's own search: its address, or -ENOENT once not_found() said why */
typedef int (*find_fn)(struct ks_data_finder *d, const char *name,
		       uint64_t *addr_ret);

/* What a search could not find, and why, said once: -ENOENT. */
#define not_found(d, name, ...) \
	ks_say_why((d)->rep, KS_WARN, -ENOENT, (name), ": not in the " \
		   "dump's kallsyms, and not found", __VA_ARGS__)

static long off(const struct ks_data_finder *d, const char *type,
		const char *member)
{
	return d->t.ops->member_offset(d->t.ctx, type, member);
}

static int sym(const struct ks_data_finder *d, const char *name, uint64_t *a)
{
	return d->t.ops->symbol(d->t.ctx, name, a);
}

/* A variable by the target's finders, else by this one's own search. */
static int var(struct ks_data_finder *d, const char *name, uint64_t *a)
{
	return sym(d, name, a) && ks_data_finder_symbol(d, name, a) ? -ENOENT : 0;
}

static int rd64(const struct ks_data_finder *d, uint64_t addr, uint64_t *v)
{
	return ks_read(&d->t, addr, v, sizeof(*v));
}

static int rd32(const struct ks_data_finder *d, uint64_t addr, uint32_t *v)
{
	return ks_read(&d->t, addr, v, sizeof(*v));
}

/* ---- init_uts_ns: VMCOREINFO names it (kernel/crash_core.c) ---- */

static int find_uts(struct ks_data_finder *d, const char *name,
		    uint64_t *addr_ret)
{
	char buf[32];
	char *end;

	if (!d->t.ops->vmcoreinfo ||
	    d->t.ops->vmcoreinfo(d->t.ctx, "SYMBOL(init_uts_ns)", buf,
				  sizeof(buf)))
		return not_found(d, name, "the dump has no VMCOREINFO "
				 "SYMBOL(init_uts_ns)");
	*addr_ret = strtoull(buf, &end, 16);
	if (end == buf || *end || !*addr_ret)
		return not_found(d, name, "VMCOREINFO's SYMBOL(init_uts_ns)=%s "
				 "is no address", buf);
	return 0;
}

/* ---- init_task: the one task_struct of init/init_task.c ---- */

struct task_offs {
	long comm, pid, tgid, real_parent, group_leader, tasks, stack;
};

static int task_offs(const struct ks_data_finder *d, struct task_offs *o)
{
	o->comm = off(d, "task_struct", "comm");
	o->pid = off(d, "task_struct", "pid");
	o->tgid = off(d, "task_struct", "tgid");
	o->real_parent = off(d, "task_struct", "real_parent");
	o->group_leader = off(d, "task_struct", "group_leader");
	o->tasks = off(d, "task_struct", "tasks");
	o->stack = off(d, "task_struct", "stack");
	return o->comm < 0 || o->pid < 0 || o->tgid < 0 || o->real_parent < 0 ||
	       o->group_leader < 0 || o->tasks < 0 || o->stack < 0 ?
	       -ENOENT : 0;
}

/* A list_head at h that its neighbours both point back to. */
static bool list_linked(const struct ks_data_finder *d, uint64_t h)
{
	uint64_t next, prev, back;

	return !rd64(d, h, &next) && !rd64(d, h + 8, &prev) &&
	       !rd64(d, next + 8, &back) && back == h &&
	       !rd64(d, prev, &back) && back == h;
}

/*
 * INIT_TASK: pid and tgid 0, itself its real_parent and group_leader,
 * on the tasks list, with a stack (init_stack).  A swapper/0 that is a
 * copy (a string, a stale struct) fails one of them.
 */
static bool is_init_task(const struct ks_data_finder *d,
			 const struct task_offs *o, uint64_t a)
{
	uint64_t parent, leader, stack;
	uint32_t pid, tgid;

	return !(a & 7) &&
	       !rd32(d, a + (uint64_t)o->pid, &pid) && pid == 0 &&
	       !rd32(d, a + (uint64_t)o->tgid, &tgid) && tgid == 0 &&
	       !rd64(d, a + (uint64_t)o->real_parent, &parent) && parent == a &&
	       !rd64(d, a + (uint64_t)o->group_leader, &leader) && leader == a &&
	       !rd64(d, a + (uint64_t)o->stack, &stack) && stack &&
	       list_linked(d, a + (uint64_t)o->tasks);
}

struct scan {
	uint64_t found, lo, hi;
	unsigned int nr, seen;
};

/* Each "swapper/0" NUL in n bytes of buf (the data at addr) tried. */
static void scan_buf(const struct ks_data_finder *d, const struct task_offs *o,
		     const unsigned char *buf, size_t n, uint64_t addr,
		     struct scan *s)
{
	const unsigned char *p = buf, *end = buf + n;

	while ((p = memmem(p, (size_t)(end - p), swapper0, sizeof(swapper0)))) {
		uint64_t a = addr + (uint64_t)(p - buf) - (uint64_t)o->comm;

		s->seen++;
		if (is_init_task(d, o, a)) {
			if (!s->nr || s->found != a)
				s->nr++;
			s->found = a;
		}
		p++;
	}
}

/*
 * The image's data, page by page: a page that cannot be read (the freed
 * init sections are unmapped) is passed over.  Each page is searched
 * with the tail of the one before, for a comm across the boundary.
 */
static void scan_data(const struct ks_data_finder *d, const struct task_offs *o,
		      struct scan *s)
{
	const size_t keep = sizeof(swapper0) - 1;
	unsigned char buf[PAGE + sizeof(swapper0)];
	bool have = false;

	for (uint64_t a = s->lo & ~(uint64_t)(PAGE - 1); a < s->hi; a += PAGE) {
		if (ks_read(&d->t, a, buf + keep, PAGE)) {
			have = false;
			continue;
		}
		if (have)
			scan_buf(d, o, buf, PAGE + keep, a - keep, s);
		else
			scan_buf(d, o, buf + keep, PAGE, a, s);
		memmove(buf, buf + PAGE, keep);
		have = true;
	}
}

static int find_init_task(struct ks_data_finder *d, const char *name,
			  uint64_t *addr_ret)
{
	struct task_offs o;
	struct scan s = { 0 };
	uint64_t uts;

	if (task_offs(d, &o))
		return not_found(d, name, "no task_struct layout (BTF) to "
				 "check it by");
	if (sym(d, "_einittext", &s.lo) || var(d, "init_uts_ns", &uts) ||
	    uts <= s.lo || uts - s.lo > DATA_MAX)
		return not_found(d, name, "no _einittext and init_uts_ns to "
				 "bound the kernel's data by");
	s.hi = uts + DATA_AFTER;
	scan_data(d, &o, &s);
	if (s.nr == 1) {
		*addr_ret = s.found;
		return 0;
	}
	return not_found(d, name, "%u of the %u \"swapper/0\" in the kernel's "
			 "data from _einittext (%#llx) to %#llx are a "
			 "task_struct with pid 0 that is its own parent and "
			 "leader on a linked tasks list; one must be", s.nr,
			 s.seen, (unsigned long long)s.lo,
			 (unsigned long long)s.hi);
}

/* ---- variables read by a function, checked one by one ---- */

/* ref's address, if it holds what is looked for: the answer in addr_ret */
typedef bool (*check_fn)(struct ks_data_finder *d,
			 const struct ks_code_ref *ref, uint64_t *addr_ret);

/* The addresses fn's code forms; 0 when there are none to try. */
static size_t code_refs(struct ks_data_finder *d, const char *fn,
			struct ks_code_ref *refs, size_t max)
{
	unsigned char code[CODE_MAX];
	struct ks_sym s;
	uint64_t a;
	size_t n, len;

	if (!d->arch || !d->arch->code_refs || sym(d, fn, &a) ||
	    d->t.ops->lookup(d->t.ctx, a, &s) || s.addr != a)
		return 0;
	len = s.size && s.size < CODE_MAX ? (size_t)s.size : CODE_MAX;
	if (ks_read(&d->t, a, code, len))
		return 0;
	n = d->arch->code_refs(code, len, a, refs, max);
	return n < max ? n : max;
}

/*
 * The one address among the references of the functions fns that
 * check() accepts (and turns into the answer).
 */
static int find_read_by(struct ks_data_finder *d, const char *name,
			const char *const *fns, check_fn check,
			uint64_t *addr_ret)
{
	struct ks_code_ref refs[REFS_MAX];
	uint64_t a = 0, got;
	unsigned int nr = 0;
	size_t n = 0;

	if (!d->arch || !d->arch->code_refs)
		return not_found(d, name, "this architecture's code is not "
				 "read for it");
	for (const char *const *f = fns; *f && !n; f++) {
		n = code_refs(d, *f, refs, REFS_MAX);
		for (size_t i = 0; i < n; i++) {
			if (!check(d, &refs[i], &got) || (nr && got == a))
				continue;
			a = got;
			nr++;
		}
		if (nr == 1) {
			*addr_ret = a;
			return 0;
		}
		if (n)
			return not_found(d, name, "%u of the %zu addresses "
					 "%s() reads pass the checks; one "
					 "must", nr, n, *f);
	}
	return not_found(d, name, "no function that reads it (%s()%s) in "
			 "kallsyms", fns[0], fns[1] ? ", ..." : "");
}

/* tk_core.timekeeper.xtime_sec: the clocks of a timekeeper there. */
static bool check_tk(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t cand = ref->addr;
	long xtime = off(d, "timekeeper", "xtime_sec");
	long mono = off(d, "timekeeper", "tkr_mono");
	long raw = off(d, "timekeeper", "tkr_raw");
	long clock = off(d, "tk_read_base", "clock");
	long seq = d->t.ops->type_size(d->t.ctx, "seqcount_raw_spinlock");
	uint64_t tk, c1, c2, sec;

	if (seq <= 0)
		seq = d->t.ops->type_size(d->t.ctx, "seqcount");
	if (xtime < 0 || mono < 0 || raw < 0 || clock < 0 || seq <= 0 ||
	    cand < (uint64_t)xtime)
		return false;
	tk = cand - (uint64_t)xtime;
	if (rd64(d, cand, &sec) || !sec ||
	    rd64(d, tk + (uint64_t)(mono + clock), &c1) ||
	    rd64(d, tk + (uint64_t)(raw + clock), &c2) ||
	    !c1 || c1 != c2 || !d->arch || !ks_arch_kernel_addr(d->arch, c1))
		return false;
	/* kernel_layout.c's timekeeper(): at sizeof(seq) rounded up to 8 */
	*ret = tk - (((uint64_t)seq + 7) & ~7ull);
	return true;
}

/* cpu_rq(0) = __per_cpu_offset[0] + &runqueues: cpu 0, init_task idle */
static bool rq_of_cpu0(struct ks_data_finder *d, uint64_t pcpu, uint64_t rq)
{
	long cpu = off(d, "rq", "cpu"), idle = off(d, "rq", "idle");
	uint64_t o0, init, idle_task;
	uint32_t c;

	return cpu >= 0 && idle >= 0 && !var(d, "init_task", &init) &&
	       !rd64(d, pcpu, &o0) && o0 &&
	       !rd32(d, o0 + rq + (uint64_t)cpu, &c) && c == 0 &&
	       !rd64(d, o0 + rq + (uint64_t)idle, &idle_task) &&
	       idle_task == init;
}

/* Each reference as &runqueues, against each other one as the offsets. */
static bool check_rq(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t cand = ref->addr;
	struct ks_code_ref refs[REFS_MAX];
	static const char *const fns[] = { "idle_cpu", "nr_iowait_cpu",
					   "available_idle_cpu", NULL };
	unsigned int nr = 0;
	uint64_t pcpu = 0;

	for (const char *const *f = fns; *f; f++) {
		size_t n = code_refs(d, *f, refs, REFS_MAX);

		for (size_t i = 0; i < n; i++)
			if (refs[i].addr != cand &&
			    rq_of_cpu0(d, refs[i].addr, cand)) {
				nr += !nr || pcpu != refs[i].addr;
				pcpu = refs[i].addr;
			}
		if (n)
			break;
	}
	if (nr != 1)
		return false;
	d->per_cpu_offset = pcpu;
	*ret = cand;
	return true;
}

static const char *const rq_readers[] = { "idle_cpu", "nr_iowait_cpu",
					  "available_idle_cpu", NULL };

static int find_runqueues(struct ks_data_finder *d, const char *name,
			  uint64_t *addr_ret)
{
	return find_read_by(d, name, rq_readers, check_rq, addr_ret);
}

/* __per_cpu_offset: the other half of runqueues' pair. */
static int find_pcpu(struct ks_data_finder *d, const char *name,
		     uint64_t *addr_ret)
{
	uint64_t rq;

	if (ks_data_finder_symbol(d, "runqueues", &rq) || !d->per_cpu_offset)
		return not_found(d, name, "it is found with runqueues, which "
				 "was not");
	*addr_ret = d->per_cpu_offset;
	return 0;
}

/* LIST_HEAD(modules): linked both ways, each module's name a string. */
static bool check_modules(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t h = ref->addr;
	long list = off(d, "module", "list"), name = off(d, "module", "name");
	long size = d->t.ops->member_size(d->t.ctx, "module", "name");
	uint64_t p = h;
	char buf[64];

	if (list < 0 || name < 0 || size <= 0 || size > (long)sizeof(buf) ||
	    !list_linked(d, h))
		return false;
	for (unsigned int i = 0; i < 65536; i++) {
		if (rd64(d, p, &p))
			return false;
		if (p == h) {
			*ret = h;
			return true;
		}
		if (!list_linked(d, p) ||
		    ks_read(&d->t, p - (uint64_t)list + (uint64_t)name, buf,
			    (size_t)size) ||
		    !buf[0] || !memchr(buf, 0, (size_t)size))
			return false;
	}
	return false;
}

static int find_modules(struct ks_data_finder *d, const char *name,
			uint64_t *addr_ret)
{
	static const char *const fns[] = { "module_kallsyms_lookup_name",
					   "m_start", "lookup_module_symbol_name",
					   NULL };

	return find_read_by(d, name, fns, check_modules, addr_ret);
}

/* kprobe_table[64]: each head empty or its first node pointing back. */
static bool check_kprobes(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t t = ref->addr;
	long pprev = off(d, "hlist_node", "pprev");
	uint64_t first, back;

	if (pprev < 0)
		return false;
	for (uint64_t i = 0; i < KPROBE_TABLE_SIZE; i++) {
		if (rd64(d, t + 8 * i, &first))
			return false;
		if (first && (rd64(d, first + (uint64_t)pprev, &back) ||
			      back != t + 8 * i))
			return false;
	}
	*ret = t;
	return true;
}

static int find_kprobes(struct ks_data_finder *d, const char *name,
			uint64_t *addr_ret)
{
	static const char *const fns[] = { "get_kprobe", NULL };

	return find_read_by(d, name, fns, check_kprobes, addr_ret);
}

/* kprobes_all_disarmed: the byte read_enabled_file_bool() loads, in data */
static bool check_disarmed(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t a = ref->addr;
	uint64_t einittext;
	uint8_t v;

	/* one byte loaded; the strings it prints are .rodata, before init */
	if (ref->size != 1 || ref->store ||
	    sym(d, "_einittext", &einittext) || a < einittext ||
	    ks_read(&d->t, a, &v, 1) || v > 1)
		return false;
	*ret = a;
	return true;
}

static int find_disarmed(struct ks_data_finder *d, const char *name,
			 uint64_t *addr_ret)
{
	static const char *const fns[] = { "read_enabled_file_bool", NULL };

	return find_read_by(d, name, fns, check_disarmed, addr_ret);
}

/*
 * ftrace_ops_list: from what it points to, each ftrace_ops' next leads
 * to ftrace_list_end, the ops whose func is ftrace_stub and whose next
 * is NULL (kernel/trace/ftrace.c); the function reads both.
 */
static bool ops_list_end(struct ks_data_finder *d, uint64_t list,
			 uint64_t *end_ret)
{
	long next = off(d, "ftrace_ops", "next"), func = off(d, "ftrace_ops", "func");
	uint64_t p, stub, f, n;

	if (next < 0 || func < 0 || sym(d, "ftrace_stub", &stub) ||
	    rd64(d, list, &p))
		return false;
	for (unsigned int i = 0; i < 4096 && p; i++) {
		if (rd64(d, p + (uint64_t)func, &f) ||
		    rd64(d, p + (uint64_t)next, &n))
			return false;
		if (f == stub && !n) {
			*end_ret = p;
			return true;
		}
		p = n;
	}
	return false;
}

static bool check_ops_list(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t a = ref->addr;
	uint64_t end;

	if (!ops_list_end(d, a, &end))
		return false;
	*ret = a;
	return true;
}

static int find_ops_list(struct ks_data_finder *d, const char *name,
			 uint64_t *addr_ret)
{
	static const char *const fns[] = { "arch_ftrace_ops_list_func",
					   "ftrace_ops_list_func", NULL };

	return find_read_by(d, name, fns, check_ops_list, addr_ret);
}

static int find_list_end(struct ks_data_finder *d, const char *name,
			 uint64_t *addr_ret)
{
	uint64_t list;

	if (ks_data_finder_symbol(d, "ftrace_ops_list", &list) ||
	    !ops_list_end(d, list, addr_ret))
		return not_found(d, name, "it is found at the end of "
				 "ftrace_ops_list, which was not");
	return 0;
}

/*
 * ftrace_pages_start: a chain of ftrace_page, each with its records
 * (dyn_ftrace), the first page's first one at vmlinux text (the core
 * kernel's call sites are recorded first, ftrace_init()).
 */
static bool check_pages(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t a = ref->addr;
	long next = off(d, "ftrace_page", "next");
	long recs = off(d, "ftrace_page", "records");
	long ip = off(d, "dyn_ftrace", "ip");
	uint64_t pg, r, addr, stext;
	struct ks_sym s;

	if (next < 0 || recs < 0 || ip < 0 || sym(d, "_stext", &stext) ||
	    rd64(d, a, &pg) || !pg || !d->arch ||
	    !ks_arch_kernel_addr(d->arch, pg) ||
	    rd64(d, pg + (uint64_t)recs, &r) || !r ||
	    rd64(d, r + (uint64_t)ip, &addr) || addr < stext ||
	    d->t.ops->lookup(d->t.ctx, addr, &s) || s.module)
		return false;
	for (unsigned int i = 0; i < 1u << 16; i++) {
		if (rd64(d, pg + (uint64_t)next, &pg))
			return false;
		if (!pg) {
			*ret = a;
			return true;
		}
		if (rd64(d, pg + (uint64_t)recs, &r) || !r)
			return false;
	}
	return false;
}

static int find_pages(struct ks_data_finder *d, const char *name,
		      uint64_t *addr_ret)
{
	static const char *const fns[] = { "ftrace_location_range", NULL };

	return find_read_by(d, name, fns, check_pages, addr_ret);
}

/* global_trace: on the trace arrays' list, its current tracer named */
static bool check_trace(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	const uint64_t a = ref->addr;
	long list = off(d, "trace_array", "list");
	long cur = off(d, "trace_array", "current_trace");
	long name = off(d, "tracer", "name");
	uint64_t tr, str;
	char buf[32];

	if (list < 0 || cur < 0 || name < 0 || !list_linked(d, a + (uint64_t)list) ||
	    rd64(d, a + (uint64_t)cur, &tr) || !tr ||
	    rd64(d, tr + (uint64_t)name, &str) ||
	    ks_read(&d->t, str, buf, sizeof(buf)) || !buf[0] ||
	    !memchr(buf, 0, sizeof(buf)))
		return false;
	*ret = a;
	return true;
}

/*
 * ftrace_init_global_array_ops() points global_trace.ops at global_ops,
 * the ftrace_ops of the function tracer: named by lookup once found.
 */
static void global_ops(struct ks_data_finder *d, uint64_t trace)
{
	long ops = off(d, "trace_array", "ops");
	uint64_t a;

	if (ops < 0 || rd64(d, trace + (uint64_t)ops, &a) || !a)
		return;
	for (unsigned int i = 0; i < d->nr; i++)
		if (!strcmp(d->found[i].name, "global_ops")) {
			d->found[i].asked = true;
			d->found[i].ret = 0;
			d->found[i].addr = a;
		}
}

static int find_trace(struct ks_data_finder *d, const char *name,
		      uint64_t *addr_ret)
{
	static const char *const fns[] = { "tracing_is_on", "tracing_on", NULL };
	int ret = find_read_by(d, name, fns, check_trace, addr_ret);

	if (!ret)
		global_ops(d, *addr_ret);
	return ret;
}

/* cgrp_dfl_visible: the one byte cgroup_get_tree() stores, a bool in data */
static bool check_visible(struct ks_data_finder *d,
			const struct ks_code_ref *ref, uint64_t *ret)
{
	uint64_t einittext;
	uint8_t v;

	if (!ref->store || ref->size != 1 || sym(d, "_einittext", &einittext) ||
	    ref->addr < einittext || ks_read(&d->t, ref->addr, &v, 1) || v > 1)
		return false;
	*ret = ref->addr;
	return true;
}

static int find_visible(struct ks_data_finder *d, const char *name,
			uint64_t *addr_ret)
{
	static const char *const fns[] = { "cgroup_get_tree", NULL };

	return find_read_by(d, name, fns, check_visible, addr_ret);
}

/*
 * A list head linked both ways whose every node (at member list of
 * struct type) holds lo <= hi in its two members: ftrace_mod_maps'
 * start_addr and end_addr, bpf_kallsyms' start and end.
 */
static bool range_list(struct ks_data_finder *d, uint64_t h, const char *type,
		       const char *list_member, const char *lo_member,
		       const char *hi_member)
{
	long list = off(d, type, list_member), lo = off(d, type, lo_member);
	long hi = off(d, type, hi_member);
	uint64_t p = h, a, b;

	if (list < 0 || lo < 0 || hi < 0 || !list_linked(d, h))
		return false;
	for (unsigned int i = 0; i < 1u << 20; i++) {
		if (rd64(d, p, &p))
			return false;
		if (p == h)
			return true;
		if (!list_linked(d, p) ||
		    rd64(d, p - (uint64_t)list + (uint64_t)lo, &a) ||
		    rd64(d, p - (uint64_t)list + (uint64_t)hi, &b) || a > b)
			return false;
	}
	return false;
}

static bool check_mod_maps(struct ks_data_finder *d,
			   const struct ks_code_ref *ref, uint64_t *ret)
{
	if (!range_list(d, ref->addr, "ftrace_mod_map", "list", "start_addr",
			"end_addr"))
		return false;
	*ret = ref->addr;
	return true;
}

static int find_mod_maps(struct ks_data_finder *d, const char *name,
			 uint64_t *addr_ret)
{
	static const char *const fns[] = { "ftrace_mod_address_lookup", NULL };

	return find_read_by(d, name, fns, check_mod_maps, addr_ret);
}

static bool check_bpf(struct ks_data_finder *d,
		      const struct ks_code_ref *ref, uint64_t *ret)
{
	if (!range_list(d, ref->addr, "bpf_ksym", "lnode", "start", "end"))
		return false;
	*ret = ref->addr;
	return true;
}

static int find_bpf(struct ks_data_finder *d, const char *name,
		    uint64_t *addr_ret)
{
	static const char *const fns[] = { "bpf_get_kallsym", NULL };

	return find_read_by(d, name, fns, check_bpf, addr_ret);
}

/* found with global_trace only: its own search finds nothing */
static int find_none(struct ks_data_finder *d, const char *name,
		     uint64_t *addr_ret)
{
	(void)addr_ret;
	return not_found(d, name, "it is named only once global_trace is found");
}

static int find_tk(struct ks_data_finder *d, const char *name,
		   uint64_t *addr_ret)
{
	static const char *const fns[] = { "ktime_get_real_seconds", NULL };

	return find_read_by(d, name, fns, check_tk, addr_ret);
}

/* jiffies_64: what jiffies_read() loads, from INITIAL_JIFFIES on */
static bool check_jiffies(struct ks_data_finder *d,
			  const struct ks_code_ref *ref, uint64_t *ret)
{
	/* INITIAL_JIFFIES is 2^32 - 300 HZ, HZ at most 1000 */
	const uint64_t lo = (1ull << 32) - 300 * 1000, hi = 1ull << 45;
	uint64_t v;

	if ((ref->size && ref->size != 8) || ref->store || ref->addr % 8 ||
	    rd64(d, ref->addr, &v) || v < lo || v >= hi)
		return false;
	*ret = ref->addr;
	return true;
}

static int find_jiffies(struct ks_data_finder *d, const char *name,
			uint64_t *addr_ret)
{
	static const char *const fns[] = { "jiffies_read", NULL };

	return find_read_by(d, name, fns, check_jiffies, addr_ret);
}

/*
 * clocksource_jiffies: of what register_refined_jiffies() copies from
 * and into, the clocksource named "jiffies" that jiffies_read() reads.
 */
static bool check_cs_jiffies(struct ks_data_finder *d,
			     const struct ks_code_ref *ref, uint64_t *ret)
{
	long name = off(d, "clocksource", "name"), read = off(d, "clocksource", "read");
	uint64_t fn, at, str;
	char buf[8];

	if (name < 0 || read < 0 || sym(d, "jiffies_read", &fn) ||
	    rd64(d, ref->addr + (uint64_t)read, &at) || at != fn ||
	    rd64(d, ref->addr + (uint64_t)name, &str) ||
	    ks_read(&d->t, str, buf, sizeof(buf)) || memcmp(buf, "jiffies", 8))
		return false;
	*ret = ref->addr;
	return true;
}

static int find_cs_jiffies(struct ks_data_finder *d, const char *name,
			   uint64_t *addr_ret)
{
	static const char *const fns[] = { "register_refined_jiffies", NULL };

	return find_read_by(d, name, fns, check_cs_jiffies, addr_ret);
}

static const struct {
	const char *name;
	find_fn find;
} finds[] = {
	{ "init_uts_ns", find_uts },
	{ "init_task", find_init_task },
	{ "tk_core", find_tk },
	{ "runqueues", find_runqueues },
	{ "__per_cpu_offset", find_pcpu },
	{ "modules", find_modules },
	{ "kprobe_table", find_kprobes },
	{ "kprobes_all_disarmed", find_disarmed },
	{ "ftrace_ops_list", find_ops_list },
	{ "ftrace_list_end", find_list_end },
	{ "ftrace_pages_start", find_pages },
	{ "global_trace", find_trace },
	{ "global_ops", find_none },
	{ "cgrp_dfl_visible", find_visible },
	{ "ftrace_mod_maps", find_mod_maps },
	{ "bpf_kallsyms", find_bpf },
	{ "jiffies_64", find_jiffies },
	{ "clocksource_jiffies", find_cs_jiffies },
};

void ks_data_finder_init(struct ks_data_finder *d, const struct ks_target *t,
			 const struct ks_reporter *rep)
{
	memset(d, 0, sizeof(*d));
	d->t = *t;
	d->arch = t->arch;
	d->rep = rep;
	for (size_t i = 0; i < sizeof(finds) / sizeof(finds[0]); i++)
		d->found[i].name = finds[i].name;
	d->nr = sizeof(finds) / sizeof(finds[0]);
}

int ks_data_finder_symbol(struct ks_data_finder *d, const char *name,
			  uint64_t *addr_ret)
{
	for (unsigned int i = 0; i < d->nr; i++) {
		if (strcmp(d->found[i].name, name))
			continue;
		if (d->found[i].asked) {
			*addr_ret = d->found[i].addr;
			return d->found[i].ret ? -ENOENT : 0;
		}
			/* a search that needs itself finds nothing */
		d->found[i].asked = true;
		d->found[i].ret = -ENOENT;
		d->found[i].ret = finds[i].find(d, name, &d->found[i].addr);
		*addr_ret = d->found[i].addr;
		return d->found[i].ret ? -ENOENT : 0;
	}
	return -ENOENT;
}

unsigned int ks_data_finder_count(const struct ks_data_finder *d)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < d->nr; i++)
		n += d->found[i].asked && !d->found[i].ret;
	return n;
}

int ks_data_finder_lookup(const struct ks_data_finder *d, uint64_t addr,
			  struct ks_sym *sym_ret)
{
	for (unsigned int i = 0; i < d->nr; i++)
		if (d->found[i].asked && !d->found[i].ret &&
		    d->found[i].addr == addr) {
			*sym_ret = (struct ks_sym){ .name = d->found[i].name,
						    .addr = addr };
			return 0;
		}
	return -ENOENT;
}

static int data_symbol(void *src, const char *name, uint64_t *addr_ret)
{
	return ks_data_finder_symbol(src, name, addr_ret);
}

static int data_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	return ks_data_finder_lookup(src, addr, sym_ret);
}

struct ks_sym_finder ks_finder_data(struct ks_data_finder *d)
{
	return (struct ks_sym_finder){ .rank = KS_FIND_FALLBACK,
				       .symbol = data_symbol,
				       .lookup = data_lookup, .src = d };
}
