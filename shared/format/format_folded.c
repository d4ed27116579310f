// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --folded: Brendan Gregg's flame-graph input, "comm;outer;...;inner N".
 * One line per (stack, comm) pair, counting tasks.  Frames keep only the
 * function name: offsets would split one function into many boxes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

void ks_folded_frames(FILE *out, const char *stack)
{
	const char *end = stack + strlen(stack);

	while (end > stack) {
		const char *line_end = end;
		const char *line, *name;
		size_t len;

		if (line_end[-1] == '\n')
			line_end--;
		line = line_end;
		while (line > stack && line[-1] != '\n')
			line--;
		end = line;
		name = line;
		if (line_end - line >= 6 && !strncmp(line, "[<0>] ", 6))
			name += 6;
		len = strcspn(name, "+ \n");
		if (name + len > line_end)
			len = (size_t)(line_end - name);
		if (len)
			fprintf(out, ";%.*s", (int)len, name);
	}
}

void ks_folded_comm(FILE *out, const char *comm)
{
	for (; *comm; comm++)
		fputc(*comm == ';' || (unsigned char)*comm <= ' ' ? '_' : *comm,
		      out);
}

int ks_format_folded(FILE *out, const struct ks_sample *s,
		     const struct ks_groups *g, const struct ks_format_opts *opts)
{
	bool *done = malloc(s->nr_tasks ? s->nr_tasks : 1);

	(void)opts;
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_groups; i++) {
		const struct ks_group *grp = &g->groups[i];

		memset(done, 0, s->nr_tasks ? s->nr_tasks : 1);
		for (size_t j = 0; j < grp->nr_members; j++) {
			const struct ks_task *t = &s->tasks[grp->members[j]];
			size_t count = 0;

			if (done[grp->members[j]])
				continue;
			for (size_t k = j; k < grp->nr_members; k++) {
				size_t m = grp->members[k];

				if (!done[m] && !strcmp(s->tasks[m].comm, t->comm)) {
					done[m] = true;
					count++;
				}
			}
			ks_folded_comm(out, t->comm);
			ks_folded_frames(out, grp->stack);
			fprintf(out, " %zu\n", count);
		}
	}
	free(done);
	return ferror(out) ? -EIO : 0;
}
