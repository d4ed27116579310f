// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "member_table.h"

int ks_member_table_resolve(const struct ks_target *t,
			    const struct ks_member_spec *specs, size_t nr,
			    FILE *err)
{
	for (size_t i = 0; i < nr; i++) {
		const struct ks_member_spec *m = &specs[i];

		*m->dst = t->ops->member_offset(t->ctx, m->type, m->member);
		if (*m->dst >= 0)
			continue;
		*m->dst = -1;
		if (m->optional)
			continue;
		fprintf(err, "kstack: no member %s.%s in the kernel's types\n",
			m->type, m->member);
		return -ENOENT;
	}
	return 0;
}
