// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "member_table.h"

struct ks_field ks_field_find(const struct ks_target *t, const char *type,
			      const char *member)
{
	struct ks_field f = { -1, -1 };
	long off = t->ops->member_offset(t->ctx, type, member);

	if (off < 0)
		return f;
	f.off = off;
	f.size = t->ops->member_size(t->ctx, type, member);
	return f;
}

int ks_field_read(const struct ks_target *t, uint64_t base,
		  const struct ks_field *f, size_t dflt, uint64_t *val_ret)
{
	size_t size = f->size > 0 ? (size_t)f->size : dflt;
	uint64_t val = 0;
	int ret;

	if (!ks_field_ok(f))
		return -ENOENT;
	if (size > sizeof(val))
		return -EINVAL;
	/* x86_64 is little-endian: the low bytes come first. */
	ret = ks_read(t, base + (uint64_t)f->off, &val, size);
	if (ret)
		return ret;
	*val_ret = val;
	return 0;
}

/* The row's member, under its older name when the new one is absent. */
static struct ks_field spec_find(const struct ks_target *t,
				 const struct ks_field_spec *s)
{
	struct ks_field f = ks_field_find(t, s->type, s->member);

	if (ks_field_ok(&f) || !s->alt)
		return f;
	return ks_field_find(t, s->type, s->alt);
}

/* Whether f has one of the sizes s allows (any, when it lists none). */
static bool size_allowed(const struct ks_field_spec *s, const struct ks_field *f)
{
	if (!s->sizes[0])
		return true;
	for (size_t i = 0; i < sizeof(s->sizes) / sizeof(s->sizes[0]) &&
			   s->sizes[i]; i++)
		if (f->size == s->sizes[i])
			return true;
	return false;
}

int ks_field_table_report(const struct ks_target *t,
			  const struct ks_field_spec *specs, size_t nr,
			  const struct ks_reporter *rep)
{
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct ks_field_spec *s = &specs[i];

		*s->dst = spec_find(t, s);
		if (!s->file || ret)
			continue;
		if (!ks_field_ok(s->dst)) {
			ks_say(rep, KS_WARN,
			       "no member %s.%s in this kernel's types",
			       s->type, s->member);
			ret = -ENOENT;
		} else if (!size_allowed(s, s->dst)) {
			ks_say(rep, KS_WARN, "%s.%s has an unexpected size %ld",
			       s->type, s->member, s->dst->size);
			ret = -ENOENT;
		}
	}
	return ret;
}

int ks_field_table_resolve(const struct ks_target *t,
			   const struct ks_field_spec *specs, size_t nr)
{
	return ks_field_table_report(t, specs, nr, NULL);
}
