// SPDX-License-Identifier: GPL-2.0-or-later
#include "format.h"

int ks_format_sample(FILE *out, const struct ks_sample *s,
		     const struct ks_options *opts)
{
	struct ks_groups g;
	int ret = ks_group_build(s, &g);

	if (ret)
		return ret;
	switch (opts->format) {
	case KS_FMT_SUMMARY:
		ret = ks_format_summary(out, s, &g);
		break;
	case KS_FMT_JSON:
		ret = ks_format_json(out, s, &g);
		break;
	case KS_FMT_FOLDED:
		ret = ks_format_folded(out, s, &g);
		break;
	default:
		ret = opts->verbose ? ks_format_text_verbose(out, s, &g) :
				      ks_format_text(out, s, &g);
		break;
	}
	ks_group_release(&g);
	return ret;
}
