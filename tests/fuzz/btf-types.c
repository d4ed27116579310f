// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Types shaped like the kernel's, for the BTF seeds tests/fuzz/make-seeds.sh
 * makes with gcc -gbtf: anonymous unions and structs, bitfields, arrays
 * (a flexible one too), typedefs, qualifiers, enums, function pointers.
 */
#include <stdint.h>

typedef uint64_t u64;
typedef _Bool bool;

struct list_head {
	struct list_head *next, *prev;
};

struct thread_struct {
	unsigned long sp;
	unsigned short es, ds;
};

struct upid {
	int nr;
	void *ns;
};

struct pid {
	int count;
	unsigned int level;
	struct upid numbers[];
};

enum mod_mem_type { MOD_TEXT, MOD_DATA, MOD_RODATA, MOD_MEM_NUM_TYPES };

struct module_memory {
	void *base;
	unsigned int size;
};

struct module {
	int state;
	struct list_head list;
	char name[56];
	struct module_memory mem[MOD_MEM_NUM_TYPES];
	const volatile u64 *const ptr;
};

struct task_struct {
	unsigned int __state;
	union {
		int on_cpu;
		struct {
			unsigned int sched_reset_on_fork:1;
			unsigned int sched_contributes_to_load:1;
			unsigned int in_iowait:3;
		};
	};
	struct list_head tasks;
	struct thread_struct thread;
	struct pid *thread_pid;
	char comm[16];
	u64 start_boottime;
	bool (*fn)(struct task_struct *, long);
	void *stack;
};

struct task_struct init_task;
struct module mod;
struct pid pid;
