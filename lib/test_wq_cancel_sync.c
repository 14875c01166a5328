// SPDX-License-Identifier: GPL-2.0
/*
 * test_wq_cancel_sync: does cancel_work_sync() wait for a work item that
 * still runs on an ordered workqueue when a write to the unbound cpumask
 * has just given the workqueue a new pwq?
 *
 * On 6.12 it does not.  An ordered workqueue queues the item again on its
 * newest pwq even while it runs on the older one; cancelling that instance
 * leaves the item naming the newest pwq's pool, where it does not run, and
 * the flush half of cancel_work_sync() finds nothing to wait for.  A caller
 * that frees the item once cancel_work_sync() returns has a use-after-free.
 *
 * tools/testing/selftests/workqueue/wq_cancel_sync.sh drives it through
 * /sys/kernel/debug/test_wq_cancel_sync/ctl, one round at a time:
 *
 *   echo start > ctl	queue the item on the ordered workqueue; the write
 *			returns once the item runs (each run lasts run_ms)
 *   (the script writes /sys/devices/virtual/workqueue/cpumask: the
 *   workqueue gets a new pwq, plugged until the running item is done)
 *   echo cancel > ctl	queue the item again (it waits in the new pwq), call
 *			cancel_work_sync() on it and check that the run had
 *			ended when it returned: the write fails with EBUSY
 *			if it had not, and the kernel log says so
 *
 * /sys/kernel/debug/test_wq_cancel_sync/result reads "rounds N early N
 * missed N": the rounds, those where cancel_work_sync() returned early, and
 * those that tested nothing because the run had ended before the item was
 * queued again (run_ms too short for the cpumask write).
 * With free_early=1 a round frees the item as soon as cancel_work_sync()
 * returns, as the caller of the bug would: on a KASAN kernel the item's
 * function then writes to freed memory and KASAN reports it.  Only for
 * KASAN kernels: elsewhere that write corrupts the freed memory.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

static unsigned int run_ms = 1000;
module_param(run_ms, uint, 0644);
MODULE_PARM_DESC(run_ms, "how long each run of the item lasts, in ms (default 1000)");

static bool free_early;
module_param(free_early, bool, 0644);
MODULE_PARM_DESC(free_early,
		 "free the item as soon as cancel_work_sync() returns (KASAN kernels only)");

/**
 * struct wqcs_item - the work item under test, allocated per round
 * @work: the work item
 * @runs: runs of @work, written by the item's function at its end (the
 *	write KASAN catches after an early free)
 */
struct wqcs_item {
	struct work_struct work;
	unsigned long runs;
};

static struct workqueue_struct *wqcs_wq;
static struct dentry *wqcs_dir;
static DEFINE_MUTEX(wqcs_mutex);	/* one ctl write at a time */
static struct wqcs_item *wqcs_item;	/* the item of the round under way */
static DECLARE_COMPLETION(wqcs_started);
static DECLARE_COMPLETION(wqcs_ended);
static atomic_t wqcs_running = ATOMIC_INIT(0);
static unsigned int wqcs_rounds, wqcs_early, wqcs_missed;

static void wqcs_fn(struct work_struct *work)
{
	struct wqcs_item *item = container_of(work, struct wqcs_item, work);

	atomic_set(&wqcs_running, 1);
	complete(&wqcs_started);
	msleep(READ_ONCE(run_ms));
	item->runs++;
	atomic_set(&wqcs_running, 0);
	complete(&wqcs_ended);
}

/* Queue a new item and wait until it runs. */
static int wqcs_start(void)
{
	struct wqcs_item *item;

	if (wqcs_item)
		return -EBUSY;
	item = kzalloc(sizeof(*item), GFP_KERNEL);
	if (!item)
		return -ENOMEM;
	INIT_WORK(&item->work, wqcs_fn);
	reinit_completion(&wqcs_started);
	reinit_completion(&wqcs_ended);
	queue_work(wqcs_wq, &item->work);
	if (!wait_for_completion_timeout(&wqcs_started, 10 * HZ)) {
		cancel_work_sync(&item->work);
		kfree(item);
		return -ETIMEDOUT;
	}
	wqcs_item = item;
	return 0;
}

/*
 * Queue the running item again, cancel it with cancel_work_sync() and
 * check that the run had ended by then.
 */
static int wqcs_cancel(void)
{
	struct wqcs_item *item = wqcs_item;
	bool requeued, early;

	if (!item)
		return -EINVAL;
	wqcs_item = NULL;
	if (!atomic_read(&wqcs_running))
		wqcs_missed++;
	requeued = queue_work(wqcs_wq, &item->work);
	cancel_work_sync(&item->work);
	early = atomic_read(&wqcs_running);
	wqcs_rounds++;
	if (early) {
		wqcs_early++;
		pr_err("round %u: cancel_work_sync() returned while the item was running%s\n",
		       wqcs_rounds, requeued ? "" : " (it was not queued again)");
		if (free_early)
			kfree(item);
	}
	/* the run ends in at most run_ms: wait for it before the next round */
	wait_for_completion(&wqcs_ended);
	if (!early || !free_early)
		kfree(item);
	return early ? -EBUSY : 0;
}

static ssize_t wqcs_ctl_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[16];
	size_t len = min(count, sizeof(buf) - 1);
	int ret;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);

	mutex_lock(&wqcs_mutex);
	if (!strcmp(buf, "start"))
		ret = wqcs_start();
	else if (!strcmp(buf, "cancel"))
		ret = wqcs_cancel();
	else
		ret = -EINVAL;
	mutex_unlock(&wqcs_mutex);
	return ret ?: count;
}

static const struct file_operations wqcs_ctl_fops = {
	.owner = THIS_MODULE,
	.write = wqcs_ctl_write,
	.llseek = noop_llseek,
};

static int wqcs_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&wqcs_mutex);
	seq_printf(m, "rounds %u early %u missed %u\n",
		   wqcs_rounds, wqcs_early, wqcs_missed);
	mutex_unlock(&wqcs_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wqcs_result);

static int __init wqcs_init(void)
{
	wqcs_wq = alloc_ordered_workqueue("test_wq_cancel_sync", 0);
	if (!wqcs_wq)
		return -ENOMEM;
	wqcs_dir = debugfs_create_dir("test_wq_cancel_sync", NULL);
	debugfs_create_file("ctl", 0200, wqcs_dir, NULL, &wqcs_ctl_fops);
	debugfs_create_file("result", 0444, wqcs_dir, NULL, &wqcs_result_fops);
	return 0;
}

static void __exit wqcs_exit(void)
{
	debugfs_remove_recursive(wqcs_dir);
	mutex_lock(&wqcs_mutex);
	if (wqcs_item) {
		cancel_work_sync(&wqcs_item->work);
		wait_for_completion(&wqcs_ended);
		kfree(wqcs_item);
		wqcs_item = NULL;
	}
	mutex_unlock(&wqcs_mutex);
	destroy_workqueue(wqcs_wq);
}

module_init(wqcs_init);
module_exit(wqcs_exit);
MODULE_DESCRIPTION("cancel_work_sync() on an ordered workqueue rebuilt by a cpumask write");
MODULE_LICENSE("GPL");
