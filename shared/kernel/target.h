/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one door between the shared core and kernel memory.  Each source of
 * a kernel image (crash, libkdumpfile, /proc/kcore, a recorded fake for
 * tests) fills a struct ks_target; the walkers and the ORC unwinder in
 * shared/ use only this, so they never learn where the bytes came from.
 *
 * Every function returns 0 on success or a negative errno value:
 * -EFAULT for memory that is not in the image, -ENOENT for an unknown
 * symbol, member or type.  None of them may print or longjmp.
 */
#ifndef KS_TARGET_H
#define KS_TARGET_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct ks_arch;

struct ks_sym {
	const char *name;	/* owned by the target, valid until the next lookup */
	uint64_t addr;		/* start of the symbol */
	uint64_t size;		/* kallsyms rule: distance to the next symbol */
	const char *module;	/* NULL for vmlinux text */
};

/*
 * Registers of a task: a CPU's when the image was taken, or what a
 * context switch saved.  bp is the frame pointer (rbp, x29); r[] is the
 * arch's own (x86_64: pt_regs' first 16 words; arm64: r[0] is lr, x30).
 */
struct ks_regs {
	uint64_t ip, sp, bp;
	uint64_t r[16];
};

struct ks_target_ops {
	int (*read)(void *ctx, uint64_t kaddr, void *buf, size_t len);
	/*
	 * Physical memory, for the one page walk (shared/kernel/page_walk.c);
	 * NULL or -ENOSYS for a target that cannot read it.
	 */
	int (*read_phys)(void *ctx, uint64_t paddr, void *buf, size_t len);
	/*
	 * User memory of the task whose task_struct is at task: every target
	 * answers with ks_page_read_user() over its read_phys (a dump's and
	 * /proc/kcore's through their image, kernel_image.h).
	 */
	int (*read_user)(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
			 size_t len);
	int (*symbol)(void *ctx, const char *name, uint64_t *addr_ret);
	/* the symbol containing addr, as kallsyms would name it */
	int (*lookup)(void *ctx, uint64_t addr, struct ks_sym *sym_ret);
	/* byte offset of member in struct type; -ENOENT if there is none */
	long (*member_offset)(void *ctx, const char *type, const char *member);
	/* sizeof(struct type), or of a member: -ENOENT if unknown */
	long (*type_size)(void *ctx, const char *type);
	long (*member_size)(void *ctx, const char *type, const char *member);
	/*
	 * The value of enumerator name of enum type ("zone_stat_item"), for
	 * an index the kernel's build decides; -ENOENT if unknown.  NULL for
	 * a target without enum types.
	 */
	int (*enum_value)(void *ctx, const char *type, const char *name,
			  long long *val_ret);
	/* registers saved for the task running on cpu; -ENOENT if none */
	int (*cpu_regs)(void *ctx, int cpu, struct ks_regs *regs_ret);
	/*
	 * The value of the dump's VMCOREINFO line key ("NUMBER(VA_BITS)"),
	 * NUL-terminated into buf; -ENOENT without it.  NULL for a target
	 * that has no VMCOREINFO.
	 */
	int (*vmcoreinfo)(void *ctx, const char *key, char *buf, size_t len);
};

struct ks_target {
	const struct ks_target_ops *ops;
	void *ctx;
	/*
	 * The machine the image is of, its table chosen once where the
	 * target is made (ks_arch_resolve(): the name or e_machine its
	 * source gives, an unknown one refused by name); every walker asks
	 * the table, never a name.  NULL only for a target that says none.
	 */
	const struct ks_arch *arch;
};

static inline int ks_read(const struct ks_target *t, uint64_t addr, void *buf,
			  size_t len)
{
	return t->ops->read(t->ctx, addr, buf, len);
}

static inline int ks_enum_value(const struct ks_target *t, const char *type,
				const char *name, long long *val_ret)
{
	if (!t->ops->enum_value)
		return -ENOENT;
	return t->ops->enum_value(t->ctx, type, name, val_ret);
}

static inline int ks_read_u64(const struct ks_target *t, uint64_t addr,
			      uint64_t *val_ret)
{
	return t->ops->read(t->ctx, addr, val_ret, sizeof(*val_ret));
}

#endif /* KS_TARGET_H */
