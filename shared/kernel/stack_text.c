// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of /proc/PID/stack as the unwinders hand it their return
 * addresses: proc_pid_stack() (fs/proc/base.c), stack_trace_save_tsk()
 * and stack_trace_consume_entry_nosched() (kernel/stacktrace.c),
 * in_sched_functions() (kernel/sched/core.c), Linux 6.1 to 6.12.
 */
#include <errno.h>
#include <string.h>

#include "grow.h"
#include "stack_text.h"
#include "symbolize.h"

static bool in_range(const struct ks_range *r, uint64_t addr)
{
	return addr >= r->start && addr < r->end;
}

/* in_sched_functions(): in_lock_functions() or the scheduler's text. */
static bool in_sched_functions(const struct ks_stack_text *w, uint64_t addr)
{
	return in_range(&w->lock_text, addr) || in_range(&w->sched_text, addr);
}

static int text_append(struct ks_stack_text *w, const char *s, size_t n)
{
	char *text = ks_grow_min(w->text, &w->cap, w->used + n + 1, 1, 1024);

	if (!text)
		return -ENOMEM;
	w->text = text;
	memcpy(w->text + w->used, s, n);
	w->used += n;
	w->text[w->used] = '\0';
	return 0;
}

int ks_stack_text_begin(struct ks_stack_text *w)
{
	return text_append(w, "", 0);
}

/* proc_pid_stack(): seq_printf(m, "[<0>] %pB\n", entry) */
static int print_frame(struct ks_stack_text *w, uint64_t addr)
{
	char sym[KS_SYM_PB_LEN];
	int ret;

	ret = ks_sym_format_pB(w->t, addr, sym, sizeof(sym));
	if (ret < 0)
		return ret;
	ret = text_append(w, "[<0>] ", 6);
	if (!ret)
		ret = text_append(w, sym, strnlen(sym, sizeof(sym)));
	if (!ret)
		ret = text_append(w, "\n", 1);
	return ret;
}

bool ks_stack_text_consume(struct ks_stack_text *w, uint64_t addr)
{
	if (in_sched_functions(w, addr))
		return true;
	if (w->len >= KS_STACK_MAX_FRAMES)
		return false;
	w->err = print_frame(w, addr);
	if (w->err)
		return false;
	w->len++;
	return w->len < KS_STACK_MAX_FRAMES;
}

static uint64_t sym_or_zero(const struct ks_target *t, const char *name)
{
	uint64_t addr;

	return t->ops->symbol(t->ctx, name, &addr) ? 0 : addr;
}

static struct ks_range sym_range(const struct ks_target *t, const char *start,
				 const char *end)
{
	struct ks_range r = { sym_or_zero(t, start), sym_or_zero(t, end) };

	if (!r.start || r.end < r.start)
		r.start = r.end = 0;
	return r;
}

void ks_stack_text_ranges(const struct ks_target *t, struct ks_range *sched,
			  struct ks_range *lock)
{
	*sched = sym_range(t, "__sched_text_start", "__sched_text_end");
	*lock = sym_range(t, "__lock_text_start", "__lock_text_end");
}
