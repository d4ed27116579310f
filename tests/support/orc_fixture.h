/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel for the ORC tests, built by hand in a fake target: a few
 * functions with one ORC entry each, two modules (one with ORC data,
 * one without), and a 16 KiB task stack that each test fills with the
 * frames it needs.  The helpers abort on a broken fixture (no cmocka
 * here: the fuzzers link this folder too).
 */
#ifndef KS_ORC_FIXTURE_H
#define KS_ORC_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "fake_target.h"
#include "x86_64_unwind.h"
#include "orc.h"

#define TEXT		0xffffffff81000000ULL
#define FN(off)		(TEXT + (off))
#define ORC_IP_ADDR	0xffffffff82000000ULL
#define ORC_ADDR	0xffffffff82100000ULL
#define MODULES_ADDR	0xffffffff83000000ULL
#define MOD_TEXT	0xffffffffc0000000ULL
#define NOORC_TEXT	0xffffffffc0010000ULL
#define MOD_STRUCT	0xffff888000100000ULL
#define NOORC_STRUCT	0xffff888000100400ULL
#define MOD_ORC_IP	(MOD_TEXT + 0x1800)	/* module data: within int32 reach */
#define MOD_ORC		(MOD_TEXT + 0x1c00)
#define STACK		0xffffc90000010000ULL
#define STACK_SIZE	0x4000ULL
#define USER_IP		0x00007f0000001234ULL

/* struct module as this fake kernel lays it out */
#define M_STATE		0
#define M_LIST		8
#define M_NAME		24
#define M_ARCH		80
#define M_CORE		112
#define M_INIT		160
#define M_SIZE		256

enum { F_A, F_B, F_C, F_IRQ, F_KTHREAD, F_X, F_Y, F_REC, F_LOOP, F_SYSCALL,
       F_FORK, F_SCHED, F_SCHEDULE, F_LOCK, F_MOD, F_NOORC, F_BIG, F_WRAP,
       F_IDT, NR_FN };

struct orc_fn {
	const char *name;
	uint64_t addr, size;
	const char *module;
};

extern const struct orc_fn orc_fns[NR_FN];

#define AT(fn, off)	(orc_fns[fn].addr + (off))

struct orc_spec {
	uint64_t ip;
	int sp_reg, sp_offset, bp_reg, bp_offset, type, end;
};

#define CALL(ip, off) \
	{ ip, KS_ORC_REG_SP, off, KS_ORC_REG_UNDEFINED, 0, KS_ORC_TYPE_CALL, 0 }
#define REGS(ip) \
	{ ip, KS_ORC_REG_SP, 0, KS_ORC_REG_UNDEFINED, 0, KS_ORC_TYPE_REGS, 0 }
#define UNDEF(ip, end) \
	{ ip, KS_ORC_REG_UNDEFINED, 0, KS_ORC_REG_UNDEFINED, 0, KS_ORC_TYPE_CALL, end }

extern const struct orc_spec vmlinux_orc[];
extern const size_t nr_vmlinux_orc;

struct fixture {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_orc *orc;
};

/* An .orc_unwind_ip array (relative int32) and its .orc_unwind array. */
void add_orc_table(struct ks_fake *f, uint64_t ip_addr, uint64_t orc_addr,
		   const struct orc_spec *o, size_t n);
/* The __start/__stop symbols of vmlinux's tables, nr_ip and nr_orc long. */
void add_orc_bounds(struct ks_fake *f, uint64_t ip_addr, size_t nr_ip,
		    uint64_t orc_addr, size_t nr_orc);
/* vmlinux's tables of n entries: the bounds and the arrays. */
void add_vmlinux_orc(struct ks_fake *f, uint64_t ip_addr, uint64_t orc_addr,
		     const struct orc_spec *o, size_t n);
/* struct module's members every layout has, and mod_arch_specific's. */
void add_module_types(struct ks_fake *f);
/* orc_entry, inactive_task_frame and the 6.1 module layout. */
void orc_add_types(struct ks_fake *f);
void put_module_sized(struct ks_fake *f, uint64_t mod, const char *name,
		      uint64_t next, uint64_t text, uint32_t text_size,
		      uint32_t size, uint32_t num, uint64_t ip_tab,
		      uint64_t orc_tab);

/* cmocka setups and orc_teardown: the whole stack, or its upper half. */
int orc_setup(void **state);
int orc_setup_upper_half(void **state);
/* The same kernel without ORC tables: orc->frame_pointers. */
int orc_setup_fp(void **state);
int orc_teardown(void **state);

/* A CALL frame of size bytes above sp, returning to ret: the next sp. */
uint64_t call_frame(struct fixture *fx, uint64_t sp, uint64_t size,
		    uint64_t ret);
/* inactive_task_frame at thread_sp returning into __schedule; the next sp. */
uint64_t switch_frame(struct fixture *fx, uint64_t thread_sp);
/* struct pt_regs at sp; returns the sp above it. */
uint64_t regs_frame(struct fixture *fx, uint64_t sp, uint64_t ip,
		    uint64_t regs_sp, uint64_t bp, uint64_t cs);
/* The stack text from thread_sp on the fixture's stack. */
char *orc_walk(struct fixture *fx, uint64_t thread_sp, const char **note);
int orc_count_lines(const char *s);

#endif /* KS_ORC_FIXTURE_H */
