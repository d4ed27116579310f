// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksdie: kills the kernel in a known context, on demand, for the vmcore
 * scenarios whose guests die (vmcores/scenarios/{oops,nmi,bug-wq,timer,
 * hung}.sh).  Writing a word to /proc/ksdie picks the death:
 *
 *   oops     a NULL store in process context (the writer's), an Oops
 *            that "oops=panic" turns into a panic;
 *   spin N   this CPU loops in the kernel for N seconds with preemption
 *            off, for an NMI from outside (QEMU's inject-nmi) to find it
 *            there; "ksdie: spinning on CPU C" says where;
 *   bug-wq   BUG() in a work item, on a kworker;
 *   timer    panic() from a timer callback (softirq);
 *   hung     the writer sleeps in D for good, for hung_task_panic.
 *
 * Each death prints "ksdie: <word>" first, so that the console shows
 * which trigger ran.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

/* A pointer the compiler cannot prove NULL: the store is a real one. */
static int *ksdie_target;
static struct timer_list ksdie_timer;

static noinline void ksdie_oops(void)
{
	WRITE_ONCE(*ksdie_target, 1);
}

static noinline void ksdie_spin(unsigned long secs)
{
	unsigned long end;

	preempt_disable();
	pr_emerg("ksdie: spinning on CPU %d\n", smp_processor_id());
	end = jiffies + secs * HZ;
	while (time_before(jiffies, end))
		mdelay(1);
	preempt_enable();
}

static void ksdie_work_fn(struct work_struct *work)
{
	BUG();
}
static DECLARE_WORK(ksdie_work, ksdie_work_fn);

static void ksdie_timer_fn(struct timer_list *t)
{
	panic("ksdie: panic from a timer callback");
}

static noinline void ksdie_hung(void)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
}

static void ksdie_do(const char *word, unsigned long arg)
{
	if (!strcmp(word, "oops")) {
		ksdie_oops();
	} else if (!strcmp(word, "spin")) {
		ksdie_spin(arg ? arg : 60);
	} else if (!strcmp(word, "bug-wq")) {
		schedule_work(&ksdie_work);
		flush_work(&ksdie_work);
	} else if (!strcmp(word, "timer")) {
		timer_setup(&ksdie_timer, ksdie_timer_fn, 0);
		mod_timer(&ksdie_timer, jiffies + 1);
	} else if (!strcmp(word, "hung")) {
		ksdie_hung();
	}
}

static ssize_t ksdie_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *pos)
{
	char buf[32], word[16];
	unsigned long arg = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%15s %lu", word, &arg) < 1)
		return -EINVAL;
	pr_emerg("ksdie: %s\n", word);
	ksdie_do(word, arg);
	return len;
}

static const struct proc_ops ksdie_ops = {
	.proc_write = ksdie_write,
};

static int __init ksdie_init(void)
{
	if (!proc_create("ksdie", 0200, NULL, &ksdie_ops))
		return -ENOMEM;
	return 0;
}

static void __exit ksdie_exit(void)
{
	remove_proc_entry("ksdie", NULL);
}

module_init(ksdie_init);
module_exit(ksdie_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kills the kernel on demand, for kstack's dumps that die");
