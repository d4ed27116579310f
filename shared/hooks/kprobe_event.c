// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace event a kprobe serves, named as kprobe_events names it
 * (kernel/trace/trace_kprobe.c, trace_kprobe_show()): a probe made
 * through tracefs is the struct kprobe inside a struct trace_kprobe
 * (tk->rp.kp), its handler the trace's dispatcher (kprobe_dispatcher,
 * or kretprobe_dispatcher for a return probe), and its name the event's
 * call name under its class's system ("p:kprobes/kstack_open").  Any
 * other probe is a module's or the kernel's own, named by its handlers.
 *
 * Every offset comes from the target's types; a kernel without them, or
 * a probe whose strings cannot be read, leaves the event unknown.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hooks_walk.h"
#include "kernel_string.h"

struct ev_layout {
	long kp;		/* of the struct kprobe in a trace_kprobe */
	long maxactive;		/* kretprobe.maxactive in a trace_kprobe */
	long tp_event;		/* trace_kprobe.tp.event */
	long name;		/* trace_probe_event.call.name */
	long system;		/* trace_probe_event.class.system */
};

static long off(const struct ks_target *t, const char *type, const char *m)
{
	return t->ops->member_offset(t->ctx, type, m);
}

/* Each offset as the sum of its steps; -1 if any step is unknown. */
static int ev_layout(const struct ks_target *t, struct ev_layout *l)
{
	long rp = off(t, "trace_kprobe", "rp"), kp = off(t, "kretprobe", "kp");
	long max = off(t, "kretprobe", "maxactive");
	long tp = off(t, "trace_kprobe", "tp"), ev = off(t, "trace_probe", "event");
	long call = off(t, "trace_probe_event", "call");
	long name = off(t, "trace_event_call", "name");
	long class = off(t, "trace_probe_event", "class");
	long sys = off(t, "trace_event_class", "system");

	if (rp < 0 || kp < 0 || tp < 0 || ev < 0 || call < 0 || name < 0 ||
	    class < 0 || sys < 0)
		return -1;
	l->kp = rp + kp;
	l->maxactive = max < 0 ? -1 : rp + max;
	l->tp_event = tp + ev;
	l->name = call + name;
	l->system = class + sys;
	return 0;
}

/* The struct trace_kprobe around probe r, or 0 if r is no trace probe. */
static uint64_t trace_kprobe_of(const struct ks_target *t,
				const struct ks_kprobe *r, long kp_off)
{
	uint64_t disp;

	if (r->type == 'r') {
		if (t->ops->symbol(t->ctx, "kretprobe_dispatcher", &disp) ||
		    r->ret_handler != disp)
			return 0;
	} else if (t->ops->symbol(t->ctx, "kprobe_dispatcher", &disp) ||
		   r->pre_handler != disp) {
		return 0;
	}
	return r->kaddr - (uint64_t)kp_off;
}

void ks_kprobe_event(const struct ks_target *t, struct ks_kprobe *r)
{
	char name[KS_KPROBE_EVENT_PART], sys[KS_KPROBE_EVENT_PART], max[16] = "";
	uint64_t tk, ev, name_p, sys_p;
	struct ev_layout l;
	int32_t maxactive;

	r->event[0] = '\0';
	if (!r->detailed || ev_layout(t, &l))
		return;
	tk = trace_kprobe_of(t, r, l.kp);
	if (!tk || ks_read_u64(t, tk + (uint64_t)l.tp_event, &ev) || !ev ||
	    ks_read_u64(t, ev + (uint64_t)l.name, &name_p) ||
	    ks_read_u64(t, ev + (uint64_t)l.system, &sys_p) ||
	    ks_read_kstring(t, name_p, name, sizeof(name)) ||
	    ks_read_kstring(t, sys_p, sys, sizeof(sys)))
		return;
	/* trace_kprobe_show(): "r%d" only for a return probe's maxactive */
	if (r->type == 'r' && l.maxactive >= 0 &&
	    !ks_read(t, tk + (uint64_t)l.maxactive, &maxactive, 4) && maxactive > 0)
		snprintf(max, sizeof(max), "%" PRId32, maxactive);
	snprintf(r->event, sizeof(r->event), "%c%s:%s/%s",
		 r->type == 'r' ? 'r' : 'p', max, sys, name);
}
