// SPDX-License-Identifier: GPL-2.0-or-later
/* The records of --cpus (cpu_record.h): lines added, notes kept, freed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_record.h"
#include "grow.h"

int ks_cpu_add_line(struct ks_cpu *c, enum ks_cpu_line_kind kind, bool unsure,
		    uint64_t addr, const char *text,
		    const struct ks_cpu_saved *regs)
{
	struct ks_cpu_line *l;

	l = ks_grow_min(c->lines, &c->cap_lines, c->nr_lines + 1,
			sizeof(*l), 32);
	if (!l)
		return -ENOMEM;
	c->lines = l;
	l = &c->lines[c->nr_lines];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->unsure = unsure;
	l->addr = addr;
	if (regs)
		l->regs = *regs;
	if (text) {
		l->text = strdup(text);
		if (!l->text)
			return -ENOMEM;
	}
	c->nr_lines++;
	return 0;
}

int ks_cpu_set_note(struct ks_cpu *c, const char *note)
{
	if (c->note || !note)
		return 0;
	c->note = strdup(note);
	return c->note ? 0 : -ENOMEM;
}

int ks_cpu_add_note(struct ks_cpu *c, const char *more)
{
	char *n;

	if (!c->note)
		return ks_cpu_set_note(c, more);
	if (asprintf(&n, "%s; %s", c->note, more) < 0)
		return -ENOMEM;
	free(c->note);
	c->note = n;
	return 0;
}

void ks_cpus_release(struct ks_cpus *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		struct ks_cpu *c = &cs->cpu[i];

		for (size_t j = 0; j < c->nr_lines; j++)
			free(c->lines[j].text);
		free(c->lines);
		free(c->ip_text);
		free(c->lr_text);
		free(c->note);
	}
	free(cs->cpu);
	memset(cs, 0, sizeof(*cs));
}
