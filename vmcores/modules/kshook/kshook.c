// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kshook: a test module for kstack -K / -F.  It installs, from a module,
 * the hooks a third party would: a kprobe with pre and post handlers, a
 * kretprobe, and an ftrace_ops with IPMODIFY (the registration pattern of
 * ftrace-based function hooking).  The handlers only count: the guest must
 * behave exactly as without the module, the hooks just have to be there
 * for the vmcore to show who owns them.
 *
 * Three different functions, because an IPMODIFY ops excludes any other on
 * the same function, and a kprobe with a post handler on an ftrace site
 * goes through the kernel's own IPMODIFY ops (kprobe_ipmodify_ops).
 *
 * It also leaves a kprobe [GONE] in its own freed init text, which only
 * ftrace_mod_maps can name (kshook_probe_init_text()).
 *
 * On x86_64 it also attaches a direct trampoline to wake_up_process (the
 * pattern of BPF trampolines; the "D" and "direct-->" of enabled_functions),
 * as Linux 6.1's samples/ftrace/ftrace-direct.c does.  That part is
 * optional: when the kernel refuses it, the other hooks stay.
 */
#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/version.h>
#ifdef CONFIG_X86_64
#if __has_include(<asm/ibt.h>)
#include <asm/ibt.h>
#endif
#include <asm/linkage.h>
#include <asm/nospec-branch.h>
/* 6.2+ accounts call depth in trampolines (retbleed); older kernels do not */
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT ""
#endif
/* IBT came in 5.18: before it a function starts without endbr64 */
#ifndef ASM_ENDBR
#define ASM_ENDBR ""
#endif
#ifndef ASM_RET
#define ASM_RET "ret\n"
#endif
#endif
/*
 * Before 5.11 an ops had to say it was recursion safe, and ftrace guarded
 * the others: the guard that FTRACE_OPS_FL_RECURSION asks for since.  The
 * flags are an enum, not macros, so #ifndef cannot tell (it dropped the
 * flag on 6.1): the version does.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#define FTRACE_OPS_FL_RECURSION 0
#endif

static char *kprobe_func = "do_unlinkat";
static char *kretprobe_func = "do_mkdirat";
static char *ftrace_func = "do_rmdir";
module_param(kprobe_func, charp, 0444);
module_param(kretprobe_func, charp, 0444);
module_param(ftrace_func, charp, 0444);

static atomic_t kshook_hits = ATOMIC_INIT(0);

static int kshook_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&kshook_hits);
	return 0;
}

static void kshook_post(struct kprobe *p, struct pt_regs *regs,
			unsigned long flags)
{
	atomic_inc(&kshook_hits);
}

static int kshook_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&kshook_hits);
	return 0;
}

/* 5.11 handed ftrace callbacks ftrace_regs instead of pt_regs. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#define KSHOOK_FTRACE_REGS struct ftrace_regs
#else
#define KSHOOK_FTRACE_REGS struct pt_regs
#endif

/* Leaves the ip alone: IPMODIFY is claimed, the function still runs as is. */
static void notrace kshook_ftrace_func(unsigned long ip, unsigned long parent_ip,
				       struct ftrace_ops *op,
				       KSHOOK_FTRACE_REGS *fregs)
{
	atomic_inc(&kshook_hits);
}

#if defined(CONFIG_X86_64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
#define KSHOOK_DIRECT 1
static bool direct = true;
module_param(direct, bool, 0444);
static bool direct_registered;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
/* 6.5 made direct calls ops-based: the ops' filter names the function. */
static struct ftrace_ops kshook_direct_ops;
#endif

/* Called by the trampoline with the traced function's first argument. */
void kshook_direct_func(struct task_struct *p);
void kshook_direct_func(struct task_struct *p)
{
	atomic_inc(&kshook_hits);
}

void kshook_direct_tramp(void);
/* wake_up_process() has one argument: %rdi is all there is to keep. */
asm(
"	.pushsection	.text, \"ax\", @progbits\n"
"	.type		kshook_direct_tramp, @function\n"
"	.globl		kshook_direct_tramp\n"
"   kshook_direct_tramp:"
	ASM_ENDBR
"	pushq %rbp\n"
"	movq %rsp, %rbp\n"
	CALL_DEPTH_ACCOUNT
"	pushq %rdi\n"
"	call kshook_direct_func\n"
"	popq %rdi\n"
"	leave\n"
	ASM_RET
"	.size		kshook_direct_tramp, .-kshook_direct_tramp\n"
"	.popsection\n"
);

static int kshook_direct_register(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	int err = ftrace_set_filter_ip(&kshook_direct_ops,
				       (unsigned long)wake_up_process, 0, 0);

	return err ? err : register_ftrace_direct(&kshook_direct_ops,
					(unsigned long)kshook_direct_tramp);
#else
	return register_ftrace_direct((unsigned long)wake_up_process,
				      (unsigned long)kshook_direct_tramp);
#endif
}

static void kshook_direct_unregister(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	unregister_ftrace_direct(&kshook_direct_ops,
				 (unsigned long)kshook_direct_tramp, true);
#else
	unregister_ftrace_direct((unsigned long)wake_up_process,
				 (unsigned long)kshook_direct_tramp);
#endif
}
#endif

static struct kprobe kshook_kp = {
	.pre_handler = kshook_pre,
	.post_handler = kshook_post,
};

static struct kretprobe kshook_krp = {
	.handler = kshook_ret,
	.maxactive = 8,
};

/*
 * SAVE_REGS only where ftrace can save them: arm64 since 6.2 has
 * DYNAMIC_FTRACE_WITH_ARGS instead of _WITH_REGS, and there
 * __register_ftrace_function() refuses an ops asking SAVE_REGS with
 * -EINVAL.  IPMODIFY needs no pt_regs there (livepatch asks it alone).
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
#define KSHOOK_SAVE_REGS FTRACE_OPS_FL_SAVE_REGS
#else
#define KSHOOK_SAVE_REGS 0
#endif

static struct ftrace_ops kshook_ops = {
	.func = kshook_ftrace_func,
	.flags = KSHOOK_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		 FTRACE_OPS_FL_RECURSION,
};

/*
 * A probe left behind in freed module text, on purpose: kprobes lets a
 * module probe its own init text while it is COMING; when init ends, the
 * kprobes module notifier kills the probe ([GONE]) and the init text is
 * freed.  From then on only ftrace_mod_maps names the address
 * (kallsyms_lookup() -> ftrace_mod_address_lookup()), as
 * "kshook_init_probed+0x0  kshook".  noinline keeps the function, and its
 * ftrace site, apart from kshook_init.
 */
static noinline int __init kshook_init_probed(void)
{
	return atomic_read(&kshook_hits);
}

static struct kprobe kshook_init_kp = {
	.pre_handler = kshook_pre,
};
static bool init_kp_registered;

static void __init kshook_probe_init_text(void)
{
	int err;

	kshook_init_kp.addr = (kprobe_opcode_t *)kshook_init_probed;
	err = register_kprobe(&kshook_init_kp);
	if (err)
		pr_warn("kshook: kprobe on kshook_init_probed: %d\n", err);
	init_kp_registered = !err;
	kshook_init_probed();
}

static int __init kshook_init(void)
{
	int ret;

	kshook_kp.symbol_name = kprobe_func;
	ret = register_kprobe(&kshook_kp);
	if (ret) {
		pr_err("kshook: kprobe on %s: %d\n", kprobe_func, ret);
		return ret;
	}
	kshook_krp.kp.symbol_name = kretprobe_func;
	ret = register_kretprobe(&kshook_krp);
	if (ret) {
		pr_err("kshook: kretprobe on %s: %d\n", kretprobe_func, ret);
		goto out_kprobe;
	}
	ret = ftrace_set_filter(&kshook_ops, (unsigned char *)ftrace_func,
				strlen(ftrace_func), 0);
	if (ret) {
		pr_err("kshook: ftrace filter %s: %d\n", ftrace_func, ret);
		goto out_kretprobe;
	}
	ret = register_ftrace_function(&kshook_ops);
	if (ret) {
		pr_err("kshook: ftrace_ops: %d\n", ret);
		goto out_kretprobe;
	}
#ifdef KSHOOK_DIRECT
	if (direct) {
		int err = kshook_direct_register();

		if (err)
			pr_warn("kshook: direct call on wake_up_process: %d\n",
				err);
		direct_registered = !err;
	}
#endif
	kshook_probe_init_text();
	pr_info("kshook: kprobe %s, kretprobe %s, ftrace_ops %s\n",
		kprobe_func, kretprobe_func, ftrace_func);
	return 0;

out_kretprobe:
	unregister_kretprobe(&kshook_krp);
out_kprobe:
	unregister_kprobe(&kshook_kp);
	return ret;
}

static void __exit kshook_exit(void)
{
#ifdef KSHOOK_DIRECT
	if (direct_registered)
		kshook_direct_unregister();
#endif
	unregister_ftrace_function(&kshook_ops);
	/* 5.10 does not export ftrace_free_filter(); a reset empties it too */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
	ftrace_free_filter(&kshook_ops);
#else
	ftrace_set_filter(&kshook_ops, NULL, 0, 1);
#endif
	unregister_kretprobe(&kshook_krp);
	unregister_kprobe(&kshook_kp);
	if (init_kp_registered)
		unregister_kprobe(&kshook_init_kp);
}

module_init(kshook_init);
module_exit(kshook_exit);
MODULE_DESCRIPTION("kstack test hooks: kprobe, kretprobe, IPMODIFY ftrace_ops");
MODULE_LICENSE("GPL");
