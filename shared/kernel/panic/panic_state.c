// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The panic and the taint, as kernel/panic.c keeps them: panic_cpu
 * (atomic_t, PANIC_CPU_INVALID -1 until panic() or nmi_panic() claims
 * it), tainted_mask and its letters in taint_flags[] (print_tainted()),
 * and each module's own bits in module->taints (module_flags_taint()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_modules.h"
#include "kernel_string.h"
#include "panic_state.h"

static long member(const struct ks_target *t, const char *type, const char *m)
{
	return t->ops->member_offset(t->ctx, type, m);
}

/* A variable by its symbol; what went wrong said in a user's words. */
static int read_var(const struct ks_target *t, const char *name, void *buf,
		    size_t len, const struct ks_reporter *rep)
{
	uint64_t addr;
	int ret = t->ops->symbol(t->ctx, name, &addr);

	if (ret) {
		ks_say(rep, KS_WARN, "the dump names no symbol %s (its "
		       "kallsyms may list text only: give its vmlinux)",
		       name);
		return ret;
	}
	ret = ks_read(t, addr, buf, len);
	if (ret)
		ks_say(rep, KS_WARN, "cannot read %s at 0x%llx: %s", name,
		       (unsigned long long)addr, strerror(-ret));
	return ret;
}

/* cpu_rq(cpu)->curr: per_cpu_ptr(&runqueues, cpu), as task_last_ran.c. */
static int panic_task(const struct ks_target *t, struct ks_panic_state *ps)
{
	long curr = member(t, "rq", "curr");
	long pid = member(t, "task_struct", "pid");
	long comm = member(t, "task_struct", "comm");
	uint64_t rq, pcpu, off;
	int32_t p = 0;
	int ret;

	if (curr < 0 || pid < 0 || comm < 0)
		return -ENOENT;
	ret = t->ops->symbol(t->ctx, "runqueues", &rq);
	if (!ret)
		ret = t->ops->symbol(t->ctx, "__per_cpu_offset", &pcpu);
	if (!ret)
		ret = ks_read_u64(t, pcpu + 8 * (uint64_t)ps->panic_cpu, &off);
	if (!ret)
		ret = ks_read_u64(t, rq + off + (uint64_t)curr, &ps->task);
	if (!ret)
		ret = ks_read(t, ps->task + (uint64_t)pid, &p, sizeof(p));
	if (!ret)
		ret = ks_read(t, ps->task + (uint64_t)comm, ps->comm,
			      sizeof(ps->comm) - 1);
	ps->pid = p;
	return ret;
}

static void read_cpu(const struct ks_target *t, struct ks_panic_state *ps,
		     const struct ks_reporter *rep)
{
	int32_t cpu;

	ps->cpu_err = read_var(t, "panic_cpu", &cpu, sizeof(cpu), rep);
	if (ps->cpu_err) {
		ps->panic_cpu = -1;
		return;
	}
	ps->panic_cpu = cpu;
	ps->task_err = -ENOENT;
	if (cpu < 0)
		return;
	ps->task_err = panic_task(t, ps);
	if (ps->task_err)
		ks_say(rep, KS_WARN, "cannot read the task on CPU %d: %s",
		       cpu, strerror(-ps->task_err));
}

/* The members of struct taint_flag: desc (6.10+) and module may be absent. */
struct flag_layout {
	long size, c_true, c_false, module, desc;
};

static int flag_layout(const struct ks_target *t, struct flag_layout *fl)
{
	fl->size = t->ops->type_size(t->ctx, "taint_flag");
	fl->c_true = member(t, "taint_flag", "c_true");
	fl->c_false = member(t, "taint_flag", "c_false");
	fl->module = member(t, "taint_flag", "module");
	fl->desc = member(t, "taint_flag", "desc");
	if (fl->size <= 0 || fl->c_true < 0 || fl->c_false < 0)
		return -ENOENT;
	return 0;
}

/* One entry; -EINVAL past the table's end (no letter there). */
static int read_flag(const struct ks_target *t, const struct flag_layout *fl,
		     uint64_t at, struct ks_taint_flag *f)
{
	unsigned char e[64];
	uint64_t desc;

	if (fl->size > (long)sizeof(e) || ks_read(t, at, e, (size_t)fl->size))
		return -EFAULT;
	f->c_true = (char)e[fl->c_true];
	f->c_false = (char)e[fl->c_false];
	if (f->c_true < 'A' || f->c_true > 'Z')
		return -EINVAL;
	f->module = fl->module < 0 || e[fl->module];
	if (fl->desc >= 0 && fl->desc + 8 <= fl->size) {
		memcpy(&desc, e + fl->desc, sizeof(desc));
		if (ks_read_kstring(t, desc, f->desc, sizeof(f->desc)) == -EFAULT)
			f->desc[0] = '\0';
	}
	return 0;
}

/*
 * taint_flags[TAINT_FLAGS_COUNT]: its length is the symbol's size where
 * the symbols say it, and ends in any case at the first entry without a
 * capital letter (what follows the table in .rodata).
 */
static int read_flags(const struct ks_target *t, struct ks_panic_state *ps)
{
	struct flag_layout fl;
	struct ks_sym sym;
	uint64_t addr;
	long n = KS_TAINT_MAX;
	int ret = flag_layout(t, &fl);

	if (!ret)
		ret = t->ops->symbol(t->ctx, "taint_flags", &addr);
	if (ret)
		return ret;
	ps->have_desc = fl.desc >= 0;
	if (!t->ops->lookup(t->ctx, addr, &sym) && sym.addr == addr &&
	    sym.size && (long)(sym.size / (uint64_t)fl.size) < n)
		n = (long)(sym.size / (uint64_t)fl.size);
	for (long i = 0; i < n; i++) {
		ret = read_flag(t, &fl, addr + (uint64_t)(i * fl.size),
				&ps->flags[i]);
		if (ret == -EINVAL)
			break;
		if (ret)
			return ret;
		ps->nr_flags = (int)i + 1;
	}
	return ps->nr_flags ? 0 : -ENOENT;
}

/* Appends name to a flag's list of modules. */
static int add_module(struct ks_taint_flag *f, const char *name)
{
	size_t old = f->modules ? strlen(f->modules) : 0;
	char *m = realloc(f->modules, old + strlen(name) + 2);

	if (!m)
		return -ENOMEM;
	if (old)
		m[old++] = ' ';
	strcpy(m + old, name);
	f->modules = m;
	return 0;
}

struct taints_walk {
	const struct ks_target *t;
	struct ks_panic_state *ps;
	long taints;
};

static int module_taints(void *arg, const struct ks_module *m)
{
	struct taints_walk *w = arg;
	uint64_t bits;
	int ret = 0;

	if (m->head_err ||
	    ks_read_u64(w->t, m->addr + (uint64_t)w->taints, &bits))
		return 0;
	for (int i = 0; !ret && i < KS_TAINT_MAX; i++)
		if (bits & (1ull << i))
			ret = add_module(&w->ps->flags[i], m->name);
	return ret;
}

/* The module list's trouble, named as such, through the caller's reporter. */
struct list_said {
	const struct ks_reporter *rep;
};

static void say_list(void *arg, enum ks_say_level level, const char *text)
{
	const struct list_said *said = arg;

	ks_say(said->rep, level, "the module list: %s", text);
}

static int read_modules(const struct ks_target *t, struct ks_panic_state *ps,
			const struct ks_reporter *rep)
{
	struct taints_walk w = { t, ps, member(t, "module", "taints") };
	struct list_said said = { rep };
	const struct ks_reporter list_rep = { .say = say_list, .arg = &said };
	struct ks_module_layout l;

	if (w.taints < 0)
		return -ENOENT;
	ks_module_layout_init(t, &l);
	return ks_modules_walk(t, &l, module_taints, &w, &list_rep);
}

int ks_panic_state_read(const struct ks_target *t, struct ks_panic_state *ps,
			const struct ks_reporter *rep)
{
	uint64_t mask = 0;
	int ret;

	memset(ps, 0, sizeof(*ps));
	read_cpu(t, ps, rep);
	ps->taint_err = read_var(t, "tainted_mask", &mask, sizeof(mask),
				 rep);
	ps->tainted_mask = mask;
	ret = read_flags(t, ps);
	if (ret && !ps->taint_err)
		ks_say(rep, KS_WARN, "cannot read the kernel's taint_flags[]: %s",
		       strerror(-ret));
	ps->modules_err = read_modules(t, ps, rep);
	if (ps->modules_err == -ENOMEM)
		return -ENOMEM;
	if (ps->modules_err && ps->modules_err != -ENOENT)
		ks_say(rep, KS_WARN, "cannot walk the modules' taints: %s",
		       strerror(-ps->modules_err));
	return 0;
}

void ks_panic_state_release(struct ks_panic_state *ps)
{
	for (int i = 0; i < KS_TAINT_MAX; i++) {
		free(ps->flags[i].modules);
		ps->flags[i].modules = NULL;
	}
}
