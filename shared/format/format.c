// SPDX-License-Identifier: GPL-2.0-or-later
#include "format.h"

/*
 * One row per format, indexed by opts->format: a new format is its
 * format_*.c file and its row here (and the option that selects it).
 */
static int (*const writers[])(FILE *out, const struct ks_sample *s,
			      const struct ks_groups *g,
			      const struct ks_format_opts *opts) = {
	[KS_FMT_TEXT] = ks_format_text,
	[KS_FMT_SUMMARY] = ks_format_summary,
	[KS_FMT_JSON] = ks_format_json,
	[KS_FMT_FOLDED] = ks_format_folded,
};

int ks_format_sample(FILE *out, const struct ks_sample *s,
		     const struct ks_format_opts *opts)
{
	size_t f = (size_t)opts->format;
	struct ks_groups g;
	int ret = ks_group_build(s, &g);

	if (ret)
		return ret;
	/* an unknown format is the text, as the default of a switch was */
	if (f >= sizeof(writers) / sizeof(writers[0]) || !writers[f])
		f = KS_FMT_TEXT;
	ret = writers[f](out, s, &g, opts);
	ks_group_release(&g);
	if (!ret && opts->waits &&
	    (f == KS_FMT_TEXT || f == KS_FMT_SUMMARY))
		ret = ks_format_waits(out, s);
	return ret;
}
