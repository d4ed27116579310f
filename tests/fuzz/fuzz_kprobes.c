// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/hooks/hooks_format.c on debugfs kprobes/list, line by line as
 * live/proc/hooks_live.c reads it: each line parsed, printed back, kept when
 * the two agree, then the summary of what was kept.
 */
#include "fuzz.h"
#include "hooks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size), *rest = text, *line;
	char buf[KS_HOOK_TEXT_LEN + 128];
	struct ks_kprobe_list l = { 0 };
	struct ks_kprobe p;
	FILE *out = fuzz_null();

	while ((line = fuzz_line(&rest))) {
		int len;

		if (ks_kprobe_parse(line, &p))
			continue;
		fuzz_assert(memchr(p.sym, '\0', sizeof(p.sym)));
		fuzz_assert(memchr(p.module, '\0', sizeof(p.module)));
		len = ks_kprobe_format(&p, buf, sizeof(buf));
		fuzz_assert(len >= 0);
		if (len < (int)sizeof(buf) && !strcmp(buf, line)) {
			struct ks_kprobe *r = ks_kprobe_list_add(&l);

			if (r)
				*r = p;
		}
		fprintf(out, "%s\n", buf);
	}
	ks_kprobe_summary(out, &l);
	ks_kprobe_list_free(&l);
	free(text);
	return 0;
}
