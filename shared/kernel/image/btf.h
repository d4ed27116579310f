/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Struct layouts from BTF, the compact type format the kernel carries for
 * BPF (CONFIG_DEBUG_INFO_BTF: the vmlinux's .BTF section, also mapped at
 * __start_BTF in memory).  Only what a target's member_offset, type_size
 * and member_size need: no libbpf, no DWARF.
 *
 * Type names are plain ("task_struct"); "struct x" and "union x" pick the
 * kind.  A plain name prefers a struct, then a union, then a typedef, then
 * an integer, enum or float of that name.
 *
 * A member is found through nested anonymous structs and unions, as C
 * does ("__state" in task_struct).  A dotted path ("thread.sp") walks into
 * member structs, and "mem[1].base" indexes an array member.
 *
 * All return the value (bytes) or -ENOENT; -EINVAL for a malformed path.
 */
#ifndef KS_BTF_H
#define KS_BTF_H

#include <stddef.h>

#include "report.h"

struct ks_btf;

/*
 * Parses a BTF blob (header, types, strings); the bytes are copied.
 * -EINVAL for anything malformed, -ENOTSUP for a big-endian blob.
 * Records that are damaged are named through rep (which may be
 * NULL): a count (vlen) that runs the records into each other shows as
 * a type that refers to no type or no string, named with its id, name
 * and vlen, rather than as a member that later lookups cannot find.
 */
int ks_btf_load(const void *data, size_t size, struct ks_btf **btf_ret,
		const struct ks_reporter *rep);
void ks_btf_free(struct ks_btf *btf);

long ks_btf_type_size(const struct ks_btf *btf, const char *type);
/* The byte offset; a bitfield gives the byte holding its first bit. */
long ks_btf_member_offset(const struct ks_btf *btf, const char *type,
			  const char *member);
/* sizeof the member's type (its whole storage type for a bitfield). */
long ks_btf_member_size(const struct ks_btf *btf, const char *type,
			const char *member);
/* The offset in bits, for bitfields.  -ENOENT if there is none. */
long ks_btf_member_bit_offset(const struct ks_btf *btf, const char *type,
			      const char *member);

/*
 * The value of enumerator name of enum type ("zone_stat_item" or "enum
 * zone_stat_item"): 0, or -ENOENT where either is missing.
 */
int ks_btf_enum_value(const struct ks_btf *btf, const char *type,
		      const char *name, long long *val_ret);

#endif /* KS_BTF_H */
