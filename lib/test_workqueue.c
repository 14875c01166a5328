// SPDX-License-Identifier: GPL-2.0
/*
 * test_workqueue: load and measurement module for workqueues.
 *
 * Debugfs interface, under /sys/kernel/debug/test_workqueue/:
 *   churn    write "start" or "stop"; read "queued=N ran=N items=N".
 *            Keeps items of several kinds queued on random online CPUs,
 *            for the CPU hotplug selftest: every queued item must run
 *            exactly once.
 *   freezer  write "arm"; read the outcome of the next suspend cycle.
 *            On PM_SUSPEND_PREPARE a delayed item is queued on a freezable
 *            and on a plain workqueue, timed to fire while tasks are
 *            frozen: the plain one must run inside the freeze, the
 *            freezable one only after the thaw.
 *
 * While loaded, it keeps two WQ_SYSFS workqueues for the sysfs selftest:
 * twq_unbound (WQ_UNBOUND) and twq_percpu.
 *
 * Map of this file:
 *   1. churn
 *   2. freezer
 *   3. debugfs and module glue
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

static DEFINE_MUTEX(twq_mutex);		/* serialises debugfs commands */

/* ------------------------------------------------------------------ */
/* 1. churn                                                            */
/* ------------------------------------------------------------------ */

#define TWQ_CHURN_ITEMS	48

struct twq_churn_item {
	struct delayed_work dwork;
	struct workqueue_struct *wq;
	atomic_long_t queued;
	atomic_long_t ran;
};

static struct twq_churn {
	struct workqueue_struct *wq[3];
	struct twq_churn_item items[TWQ_CHURN_ITEMS];
	struct task_struct *task;
} *churn;

static void twq_churn_fn(struct work_struct *work)
{
	struct twq_churn_item *it = container_of(to_delayed_work(work),
						 struct twq_churn_item, dwork);

	if (atomic_long_inc_return(&it->ran) % 8 == 0)
		usleep_range(100, 300);
}

static int twq_random_online_cpu(void)
{
	int cpu = cpumask_nth(get_random_u32_below(num_online_cpus()),
			      cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/* Requeue whatever is idle, on random CPUs, until stopped. */
static int twq_churn_thread(void *arg)
{
	struct twq_churn *c = arg;
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		struct twq_churn_item *it = &c->items[i++ % TWQ_CHURN_ITEMS];
		int cpu = twq_random_online_cpu();
		bool queued;

		if (i % 3)
			queued = queue_work_on(cpu, it->wq, &it->dwork.work);
		else
			queued = queue_delayed_work_on(cpu, it->wq, &it->dwork,
						       get_random_u32_below(3));
		if (queued)
			atomic_long_inc(&it->queued);
		if (i % TWQ_CHURN_ITEMS == 0)
			usleep_range(500, 1000);
	}
	return 0;
}

static void twq_churn_free(struct twq_churn *c)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(c->wq); i++)
		if (c->wq[i])
			destroy_workqueue(c->wq[i]);
	kfree(c);
}

static int twq_churn_start(void)
{
	static const unsigned int flags[] = { 0, WQ_UNBOUND, WQ_HIGHPRI };
	struct twq_churn *c;
	int i;

	if (churn)
		return -EBUSY;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(c->wq); i++) {
		c->wq[i] = alloc_workqueue("twq_churn%d", flags[i], 0, i);
		if (!c->wq[i])
			goto err_free;
	}
	for (i = 0; i < TWQ_CHURN_ITEMS; i++) {
		INIT_DELAYED_WORK(&c->items[i].dwork, twq_churn_fn);
		c->items[i].wq = c->wq[i % ARRAY_SIZE(c->wq)];
	}
	c->task = kthread_run(twq_churn_thread, c, "twq_churn");
	if (IS_ERR(c->task))
		goto err_free;
	churn = c;
	return 0;

err_free:
	twq_churn_free(c);
	return -ENOMEM;
}

/* Stop queueing, run what is pending and report; then free. */
static int twq_churn_stop(char *buf, size_t len)
{
	struct twq_churn *c = churn;
	long queued = 0, ran = 0;
	int i, lost = 0;

	if (!c)
		return scnprintf(buf, len, "idle\n");
	kthread_stop(c->task);
	for (i = 0; i < TWQ_CHURN_ITEMS; i++)
		flush_delayed_work(&c->items[i].dwork);
	for (i = 0; i < ARRAY_SIZE(c->wq); i++)
		flush_workqueue(c->wq[i]);
	for (i = 0; i < TWQ_CHURN_ITEMS; i++) {
		long q = atomic_long_read(&c->items[i].queued);
		long r = atomic_long_read(&c->items[i].ran);

		queued += q;
		ran += r;
		if (q != r)
			lost++;
	}
	churn = NULL;
	twq_churn_free(c);
	return scnprintf(buf, len, "queued=%ld ran=%ld mismatched=%d\n",
			 queued, ran, lost);
}

/* ------------------------------------------------------------------ */
/* 2. freezer                                                          */
/* ------------------------------------------------------------------ */

/* Fires well inside the freeze that pm_test=freezer holds for seconds. */
#define TWQ_FREEZE_DELAY	(HZ)

struct twq_freeze_item {
	struct delayed_work dwork;
	atomic_t runs;
	atomic_t runs_frozen;	/* runs while the freezer was active */
};

static struct twq_freezer {
	struct workqueue_struct *freezable;
	struct workqueue_struct *plain;
	struct twq_freeze_item f, p;
	struct notifier_block nb;
	bool armed;
	bool fired;
} *freezer;

static void twq_freeze_fn(struct work_struct *work)
{
	struct twq_freeze_item *it = container_of(to_delayed_work(work),
						  struct twq_freeze_item, dwork);

	if (static_key_enabled(&freezer_active))
		atomic_inc(&it->runs_frozen);
	atomic_inc(&it->runs);
}

static int twq_pm_notify(struct notifier_block *nb, unsigned long action,
			 void *unused)
{
	struct twq_freezer *fz = container_of(nb, struct twq_freezer, nb);

	if (action != PM_SUSPEND_PREPARE || !fz->armed)
		return NOTIFY_DONE;
	fz->armed = false;
	fz->fired = true;
	queue_delayed_work(fz->freezable, &fz->f.dwork, TWQ_FREEZE_DELAY);
	queue_delayed_work(fz->plain, &fz->p.dwork, TWQ_FREEZE_DELAY);
	return NOTIFY_OK;
}

static void twq_freezer_free(void)
{
	struct twq_freezer *fz = freezer;

	if (!fz)
		return;
	unregister_pm_notifier(&fz->nb);
	cancel_delayed_work_sync(&fz->f.dwork);
	cancel_delayed_work_sync(&fz->p.dwork);
	destroy_workqueue(fz->freezable);
	destroy_workqueue(fz->plain);
	kfree(fz);
	freezer = NULL;
}

static int twq_freezer_arm(void)
{
	struct twq_freezer *fz;

	twq_freezer_free();
	fz = kzalloc(sizeof(*fz), GFP_KERNEL);
	if (!fz)
		return -ENOMEM;
	fz->freezable = alloc_workqueue("twq_freezable", WQ_FREEZABLE, 0);
	fz->plain = alloc_workqueue("twq_plain", 0, 0);
	if (!fz->freezable || !fz->plain)
		goto err_free;
	INIT_DELAYED_WORK(&fz->f.dwork, twq_freeze_fn);
	INIT_DELAYED_WORK(&fz->p.dwork, twq_freeze_fn);
	fz->nb.notifier_call = twq_pm_notify;
	fz->armed = true;
	if (register_pm_notifier(&fz->nb))
		goto err_free;
	freezer = fz;
	return 0;

err_free:
	if (fz->freezable)
		destroy_workqueue(fz->freezable);
	if (fz->plain)
		destroy_workqueue(fz->plain);
	kfree(fz);
	return -ENOMEM;
}

static int twq_freezer_show(char *buf, size_t len)
{
	struct twq_freezer *fz = freezer;

	if (!fz)
		return scnprintf(buf, len, "idle\n");
	flush_delayed_work(&fz->f.dwork);
	flush_delayed_work(&fz->p.dwork);
	return scnprintf(buf, len,
			 "fired=%d freezable_runs=%d freezable_runs_frozen=%d plain_runs=%d plain_runs_frozen=%d\n",
			 fz->fired, atomic_read(&fz->f.runs),
			 atomic_read(&fz->f.runs_frozen),
			 atomic_read(&fz->p.runs),
			 atomic_read(&fz->p.runs_frozen));
}

/* ------------------------------------------------------------------ */
/* 3. debugfs and module glue                                          */
/* ------------------------------------------------------------------ */

static struct dentry *twq_dir;
static struct workqueue_struct *twq_sysfs_wq[2];

static ssize_t twq_churn_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char cmd[16] = "";
	int ret;

	if (copy_from_user(cmd, ubuf, min(count, sizeof(cmd) - 1)))
		return -EFAULT;
	mutex_lock(&twq_mutex);
	if (sysfs_streq(cmd, "start"))
		ret = twq_churn_start();
	else
		ret = -EINVAL;
	mutex_unlock(&twq_mutex);
	return ret ? ret : count;
}

/* Reading churn stops it and reports. */
static ssize_t twq_churn_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[96];
	int len;

	if (*ppos)
		return 0;
	mutex_lock(&twq_mutex);
	len = twq_churn_stop(buf, sizeof(buf));
	mutex_unlock(&twq_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t twq_freezer_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char cmd[16] = "";
	int ret;

	if (copy_from_user(cmd, ubuf, min(count, sizeof(cmd) - 1)))
		return -EFAULT;
	mutex_lock(&twq_mutex);
	ret = sysfs_streq(cmd, "arm") ? twq_freezer_arm() : -EINVAL;
	mutex_unlock(&twq_mutex);
	return ret ? ret : count;
}

static ssize_t twq_freezer_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[160];
	int len;

	if (*ppos)
		return 0;
	mutex_lock(&twq_mutex);
	len = twq_freezer_show(buf, sizeof(buf));
	mutex_unlock(&twq_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations twq_churn_fops = {
	.owner = THIS_MODULE,
	.write = twq_churn_write,
	.read = twq_churn_read,
};

static const struct file_operations twq_freezer_fops = {
	.owner = THIS_MODULE,
	.write = twq_freezer_write,
	.read = twq_freezer_read,
};

static void twq_sysfs_wqs_free(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(twq_sysfs_wq); i++)
		if (twq_sysfs_wq[i])
			destroy_workqueue(twq_sysfs_wq[i]);
}

static int __init twq_init(void)
{
	twq_sysfs_wq[0] = alloc_workqueue("twq_unbound", WQ_UNBOUND | WQ_SYSFS, 0);
	twq_sysfs_wq[1] = alloc_workqueue("twq_percpu", WQ_SYSFS, 0);
	if (!twq_sysfs_wq[0] || !twq_sysfs_wq[1]) {
		twq_sysfs_wqs_free();
		return -ENOMEM;
	}
	twq_dir = debugfs_create_dir("test_workqueue", NULL);
	debugfs_create_file("churn", 0600, twq_dir, NULL, &twq_churn_fops);
	debugfs_create_file("freezer", 0600, twq_dir, NULL, &twq_freezer_fops);
	return 0;
}

static void __exit twq_exit(void)
{
	char buf[96];

	debugfs_remove_recursive(twq_dir);
	mutex_lock(&twq_mutex);
	twq_churn_stop(buf, sizeof(buf));
	twq_freezer_free();
	mutex_unlock(&twq_mutex);
	twq_sysfs_wqs_free();
}

module_init(twq_init);
module_exit(twq_exit);
MODULE_DESCRIPTION("Workqueue load and measurement module");
MODULE_LICENSE("GPL");
