// SPDX-License-Identifier: GPL-2.0-or-later
#include "report_read.h"

int ks_rp_read_all(struct ks_rp_parser *p, struct ks_report_lines *l)
{
	const char *line;
	int ret = 0;

	while (!ret && (line = ks_report_lines_next(l)))
		ret = ks_rp_line(p, line);
	/* a sample cut by the end of a damaged archive is not whole either */
	if (!ret)
		ret = ks_rp_end(p, l->torn || *l->cut);
	return ret;
}

void ks_rp_read_notes(const struct ks_reporter *rep, const char *name,
		      const struct ks_report_lines *l,
		      const struct ks_rp_parser *p)
{
	if (l->nr_long)
		ks_say(rep, KS_WARN, "%s: %lu line(s) longer than a log line "
		       "can be, read cut", name, l->nr_long);
	if (l->nr_nul)
		ks_say(rep, KS_WARN, "%s: %lu line(s) hold NUL bytes, read as "
		       "'?'", name, l->nr_nul);
	if (p->nr_bad)
		ks_say(rep, KS_WARN, "%s: %lu line(s) not of a kstack or oled "
		       "log, skipped", name, p->nr_bad);
	if (p->nr_bad_pid)
		ks_say(rep, KS_WARN, "%s: %lu task(s) with a PID out of range "
		       "(1 to 4194304), counted but not named", name,
		       p->nr_bad_pid);
}
