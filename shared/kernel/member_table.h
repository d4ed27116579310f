/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Member offsets, looked up once per target into a table and read from
 * there on every access: no walk asks for a member by name per node or
 * per frame.  Every table is a list of specs; one that must be there
 * names itself and the line that asks for it when the kernel lacks it.
 */
#ifndef KS_MEMBER_TABLE_H
#define KS_MEMBER_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"
#include "target.h"

/* One member: offset and size in bytes, offset -1 when absent. */
struct ks_field {
	long off;
	long size;
};

static inline bool ks_field_ok(const struct ks_field *f)
{
	return f->off >= 0;
}

/* type.member from the target's types, { -1, -1 } when there is none. */
struct ks_field ks_field_find(const struct ks_target *t, const char *type,
			      const char *member);

/*
 * Reads the unsigned member f of the struct at base, of the member's own
 * size, or of dflt bytes when the types do not tell it.  Returns 0,
 * -ENOENT for a member the kernel lacks, -EINVAL for one wider than 8
 * bytes, or the read's error.
 */
int ks_field_read(const struct ks_target *t, uint64_t base,
		  const struct ks_field *f, size_t dflt, uint64_t *val_ret);

/*
 * A row of a field table: dst receives type.member, or type.alt when
 * the kernel has the member under its name before a rename.  A needed
 * member that is missing fails the table with "no member type.member in
 * this kernel's types"; one of a size not in sizes (when it lists any)
 * with "type.member has an unexpected size N".  A user's message names
 * no source file: file and line are for a debugger, and mark the row
 * as needed.
 */
struct ks_field_spec {
	struct ks_field *dst;
	const char *type, *member;
	const char *alt;	/* the older name, or NULL */
	long sizes[3];		/* the sizes allowed, 0 ends; none: any */
	const char *file;	/* NULL: optional */
	int line;
};

#define KS_NEED(dst, type, member) \
	{ dst, type, member, NULL, { 0 }, __FILE__, __LINE__ }
/* KS_NEED_AS(dst, type, member, older name or NULL, allowed sizes...) */
#define KS_NEED_AS(dst, type, member, alt, ...) \
	{ dst, type, member, alt, { __VA_ARGS__ }, __FILE__, __LINE__ }
#define KS_OPTIONAL(dst, type, member) \
	{ dst, type, member, NULL, { 0 }, NULL, 0 }
#define KS_OPTIONAL_AS(dst, type, member, alt) \
	{ dst, type, member, alt, { 0 }, NULL, 0 }

/*
 * Fills every dst.  Returns 0, or -ENOENT for a needed member missing or
 * of a size not allowed; the other rows are filled all the same.
 */
int ks_field_table_resolve(const struct ks_target *t,
			   const struct ks_field_spec *specs, size_t nr);

/*
 * The same, and the first such member's message goes to rep (may be
 * NULL): "no member type.member in this kernel's types (file:line)".
 */
int ks_field_table_report(const struct ks_target *t,
			  const struct ks_field_spec *specs, size_t nr,
			  const struct ks_reporter *rep);

#endif /* KS_MEMBER_TABLE_H */
