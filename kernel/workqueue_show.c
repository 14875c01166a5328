// SPDX-License-Identifier: GPL-2.0-only
/*
 * Looking at workqueues: worker names (ps, /proc), worker info in stack
 * dumps, state dumps (SysRq, the freezer, the watchdog), the stall
 * watchdog, and the debugfs knob that makes worker creation fail for
 * tests.
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. worker names and descriptions
 *   2. state dumps
 *   3. the stall watchdog
 *   4. debugfs and the worker-creation fault
 */
#include <linux/debugfs.h>
#include <linux/kvm_para.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/sched/debug.h>
#include <linux/seq_buf.h>
#include <linux/uaccess.h>

#include "workqueue_impl.h"

/* parameters are workqueue.*, as those of kernel/workqueue.c */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "workqueue."

/* ------------------------------------------------------------------ */
/* 1. worker names and descriptions                                    */
/* ------------------------------------------------------------------ */

/**
 * format_worker_id - a worker's name as ps shows it
 * @buf: where to write
 * @size: size of @buf
 * @worker: the worker
 * @pool: its pool, %NULL for a rescuer or a detached worker
 *
 * kworker/CPU:ID (H for high priority) for per-CPU pools, kworker/uPOOL:ID
 * for unbound pools, kworker/R-WQ for rescuers.
 *
 * Return: the length written.
 */
int format_worker_id(char *buf, size_t size, struct worker *worker,
		     struct worker_pool *pool)
{
	if (worker->rescue_wq)
		return scnprintf(buf, size, "kworker/R-%s", worker->rescue_wq->name);
	if (!pool)
		return scnprintf(buf, size, "kworker/dying");
	if (pool->cpu >= 0)
		return scnprintf(buf, size, "kworker/%d:%d%s", pool->cpu, worker->id,
				 pool->attrs->nice < 0 ? "H" : "");
	return scnprintf(buf, size, "kworker/u%d:%d", pool->id, worker->id);
}

/**
 * wq_worker_comm - the name of a task for /proc, workers described
 * @buf: where to write
 * @size: size of @buf
 * @task: the task
 *
 * A worker's name is followed by "+DESC" while it runs an item and
 * "-DESC" after, DESC being set_worker_desc()'s text or the workqueue's
 * name.
 *
 * Context: process context, may sleep.
 */
void wq_worker_comm(char *buf, size_t size, struct task_struct *task)
{
	struct worker *worker;
	struct worker_pool *pool;
	int len;

	/* the attach mutex keeps PF_WQ_WORKER and the worker's pool stable */
	mutex_lock(&wq_pool_attach_mutex);
	if (!(task->flags & PF_WQ_WORKER)) {
		strscpy(buf, task->comm, size);
		goto out;
	}
	worker = kthread_data(task);
	pool = worker->pool;
	len = format_worker_id(buf, size, worker, pool);
	if (pool) {
		raw_spin_lock_irq(&pool->lock);
		if (worker->desc[0])
			scnprintf(buf + len, size - len, "%c%s",
				  worker->current_work ? '+' : '-', worker->desc);
		raw_spin_unlock_irq(&pool->lock);
	}
out:
	mutex_unlock(&wq_pool_attach_mutex);
}

/* printk() at a level given as a KERN_* string */
static __printf(2, 3) void wq_printk_lvl(const char *log_lvl, const char *fmt, ...)
{
	int c = printk_get_level(log_lvl);
	va_list args;

	va_start(args, fmt);
	vprintk_emit(0, c >= '0' && c <= '7' ? c - '0' : LOGLEVEL_DEFAULT, NULL,
		     fmt, args);
	va_end(args);
}

/**
 * print_worker_info - say what a worker was doing, for a stack dump
 * @log_lvl: printk level
 * @task: the task being dumped
 *
 * The task may be dying or corrupt: everything is read without faulting.
 *
 * Context: any.
 */
void print_worker_info(const char *log_lvl, struct task_struct *task)
{
	char name[WQ_NAME_LEN] = { }, desc[WORKER_DESC_LEN] = { };
	struct workqueue_struct *wq = NULL;
	struct pool_workqueue *pwq = NULL;
	struct worker *worker;
	work_func_t fn = NULL;

	if (!(task->flags & PF_WQ_WORKER))
		return;
	worker = kthread_probe_data(task);
	if (!worker)
		return;
	copy_from_kernel_nofault(&fn, &worker->current_func, sizeof(fn));
	copy_from_kernel_nofault(&pwq, &worker->current_pwq, sizeof(pwq));
	if (pwq)
		copy_from_kernel_nofault(&wq, &pwq->wq, sizeof(wq));
	if (wq)
		copy_from_kernel_nofault(name, wq->name, sizeof(name) - 1);
	copy_from_kernel_nofault(desc, worker->desc, sizeof(desc) - 1);
	if (!fn && !name[0] && !desc[0])
		return;
	/* the description only when set_worker_desc() changed it */
	wq_printk_lvl(log_lvl, "Workqueue: %s %ps%s%s%s\n", name, fn,
		      strcmp(name, desc) ? " (" : "",
		      strcmp(name, desc) ? desc : "",
		      strcmp(name, desc) ? ")" : "");
}

/* ------------------------------------------------------------------ */
/* 2. state dumps                                                      */
/* ------------------------------------------------------------------ */

/* Lines of a dump are built in a buffer and printed whole. */
#define WQ_DUMP_LINE	256

static void seq_pool_info(struct seq_buf *line, struct worker_pool *pool)
{
	seq_buf_printf(line, " cpus=%*pbl", cpumask_pr_args(pool->attrs->cpumask));
	if (pool->node != NUMA_NO_NODE)
		seq_buf_printf(line, " node=%d", pool->node);
	seq_buf_printf(line, " flags=0x%x nice=%d", pool->flags, pool->attrs->nice);
}

/* The functions of the items on @head that belong to @pwq (all if NULL). */
static void seq_works(struct seq_buf *line, struct list_head *head,
		      struct pool_workqueue *pwq)
{
	struct work_struct *work;
	const char *sep = "";

	list_for_each_entry(work, head, entry) {
		if (pwq && get_work_pwq(work) != pwq)
			continue;
		seq_buf_printf(line, "%s%ps", sep, work->func);
		sep = ", ";
	}
}

static bool pwq_has_work_locked(struct pool_workqueue *pwq)
{
	struct work_struct *work;

	if (pwq->nr_active || !list_empty(&pwq->inactive_works))
		return true;
	list_for_each_entry(work, &pwq->pool->worklist, entry)
		if (get_work_pwq(work) == pwq)
			return true;
	return false;
}

static void show_pwq_locked(struct pool_workqueue *pwq)
{
	struct worker_pool *pool = pwq->pool;
	char buf[WQ_DUMP_LINE];
	struct seq_buf line;
	struct worker *worker;
	int bkt;

	seq_buf_init(&line, buf, sizeof(buf));
	seq_buf_printf(&line, "  pwq %d:", pool->id);
	seq_pool_info(&line, pool);
	seq_buf_printf(&line, " active=%d refcnt=%d%s", pwq->nr_active, pwq->refcnt,
		       !list_empty(&pwq->mayday_node) ? " MAYDAY" : "");
	pr_info("%s\n", seq_buf_str(&line));

	seq_buf_init(&line, buf, sizeof(buf));
	hash_for_each(pool->busy_hash, bkt, worker, hentry)
		if (worker->current_pwq == pwq)
			seq_buf_printf(&line, " %d:%ps",
				       worker->task ? task_pid_nr(worker->task) : -1,
				       worker->current_func);
	if (seq_buf_used(&line))
		pr_info("    in-flight:%s\n", seq_buf_str(&line));

	seq_buf_init(&line, buf, sizeof(buf));
	seq_works(&line, &pool->worklist, pwq);
	if (seq_buf_used(&line))
		pr_info("    pending: %s\n", seq_buf_str(&line));
	if (!list_empty(&pwq->inactive_works)) {
		seq_buf_init(&line, buf, sizeof(buf));
		seq_works(&line, &pwq->inactive_works, NULL);
		pr_info("    inactive: %s\n", seq_buf_str(&line));
	}
}

/**
 * show_one_workqueue - dump a workqueue's state if it has work
 * @wq: the workqueue
 *
 * Context: any.
 */
void show_one_workqueue(struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;
	bool idle = true;
	unsigned long flags;

	rcu_read_lock();
	for_each_pwq(pwq, wq) {
		raw_spin_lock_irqsave(&pwq->pool->lock, flags);
		idle &= !pwq_has_work_locked(pwq);
		raw_spin_unlock_irqrestore(&pwq->pool->lock, flags);
		if (!idle)
			break;
	}
	if (idle)
		goto out;
	pr_info("workqueue %s: flags=0x%x\n", wq->name, wq->flags);
	for_each_pwq(pwq, wq) {
		raw_spin_lock_irqsave(&pwq->pool->lock, flags);
		/* consoles may queue work: print them later, not under the lock */
		printk_deferred_enter();
		if (pwq_has_work_locked(pwq))
			show_pwq_locked(pwq);
		printk_deferred_exit();
		raw_spin_unlock_irqrestore(&pwq->pool->lock, flags);
		/* a long dump must not trip the lockup detectors */
		touch_nmi_watchdog();
	}
out:
	rcu_read_unlock();
}

static void show_one_worker_pool(struct worker_pool *pool)
{
	char buf[WQ_DUMP_LINE];
	struct seq_buf line;
	struct worker *worker;
	unsigned long flags;

	raw_spin_lock_irqsave(&pool->lock, flags);
	printk_deferred_enter();
	if (pool->nr_workers == pool->nr_idle && list_empty(&pool->worklist))
		goto out;
	seq_buf_init(&line, buf, sizeof(buf));
	seq_buf_printf(&line, "pool %d:", pool->id);
	seq_pool_info(&line, pool);
	seq_buf_printf(&line, " hung=%us workers=%d idle=%d running=%d",
		       jiffies_to_msecs(jiffies - pool->watchdog_ts) / 1000,
		       pool->nr_workers, pool->nr_idle, pool->nr_running);
	if (pool->manager)
		seq_buf_printf(&line, " manager: %d", task_pid_nr(pool->manager->task));
	seq_buf_puts(&line, " idle workers:");
	list_for_each_entry(worker, &pool->idle_list, entry)
		seq_buf_printf(&line, " %d", task_pid_nr(worker->task));
	pr_info("%s\n", seq_buf_str(&line));
out:
	printk_deferred_exit();
	raw_spin_unlock_irqrestore(&pool->lock, flags);
}

/**
 * show_all_workqueues - dump every busy workqueue and worker pool
 *
 * Context: any; used by SysRq-t and the stall watchdog.
 */
void show_all_workqueues(void)
{
	struct workqueue_struct *wq;
	struct worker_pool *pool;
	int id;

	pr_info("Showing busy workqueues and worker pools:\n");
	guard(rcu)();
	list_for_each_entry_rcu(wq, &workqueues, list)
		show_one_workqueue(wq);
	idr_for_each_entry(&worker_pool_idr, pool, id) {
		show_one_worker_pool(pool);
		touch_nmi_watchdog();
	}
}

/**
 * show_freezable_workqueues - dump the busy freezable workqueues
 *
 * Context: process context; used when freezing fails.
 */
void show_freezable_workqueues(void)
{
	struct workqueue_struct *wq;

	rcu_read_lock();
	pr_info("Showing freezable workqueues that are still busy:\n");
	list_for_each_entry_rcu(wq, &workqueues, list)
		if (wq->flags & WQ_FREEZABLE)
			show_one_workqueue(wq);
	rcu_read_unlock();
}

/* ------------------------------------------------------------------ */
/* 3. the stall watchdog                                               */
/* ------------------------------------------------------------------ */

#ifdef CONFIG_WQ_WATCHDOG

static unsigned long wq_watchdog_thresh = 30;	/* seconds, 0 disables */
static unsigned int wq_panic_on_stall;
module_param_named(panic_on_stall, wq_panic_on_stall, uint, 0644);
static struct timer_list wq_watchdog_timer;
static unsigned long wq_watchdog_touched = INITIAL_JIFFIES;
static DEFINE_PER_CPU(unsigned long, wq_watchdog_touched_cpu) = INITIAL_JIFFIES;
static unsigned int wq_stall_count;

/**
 * wq_watchdog_touch - something legitimately kept a CPU busy for long
 * @cpu: the CPU
 *
 * Counts as progress for @cpu's per-CPU pools and for the unbound pools,
 * not for other CPUs' pools: a touch on one CPU must not hide a stall on
 * another.
 *
 * Context: any.
 */
void wq_watchdog_touch(int cpu)
{
	unsigned long now = jiffies;

	if (WARN_ONCE(cpu < 0 || cpu >= nr_cpu_ids,
		      "%s: no CPU given\n", __func__))
		return;
	per_cpu(wq_watchdog_touched_cpu, cpu) = now;
	/* the global stamp only matters at thresh granularity */
	if (READ_ONCE(wq_watchdog_touched) != now)
		WRITE_ONCE(wq_watchdog_touched, now);
}

/* A new watchdog period: everything counts as touched now. */
static void wq_watchdog_touch_all(void)
{
	unsigned long now = jiffies;
	int cpu;

	WRITE_ONCE(wq_watchdog_touched, now);
	for_each_possible_cpu(cpu)
		per_cpu(wq_watchdog_touched_cpu, cpu) = now;
}

/*
 * Since when the watchdog excuses @pool: its last progress, or the last
 * touch of its CPU (of any CPU, for an unbound pool), whichever is later.
 */
static unsigned long pool_excused_since(struct worker_pool *pool)
{
	unsigned long ts = READ_ONCE(pool->watchdog_ts);
	unsigned long touched = pool->cpu >= 0 ?
		READ_ONCE(per_cpu(wq_watchdog_touched_cpu, pool->cpu)) :
		READ_ONCE(wq_watchdog_touched);

	return time_after(touched, ts) ? touched : ts;
}

/* "stuck for" counts from the pool's last progress, not from a touch. */
static void report_stall(struct worker_pool *pool)
{
	unsigned long ts = READ_ONCE(pool->watchdog_ts);
	char buf[WQ_DUMP_LINE];
	struct seq_buf line;

	seq_buf_init(&line, buf, sizeof(buf));
	seq_pool_info(&line, pool);
	pr_emerg("BUG: workqueue lockup - pool%s stuck for %us!\n",
		 seq_buf_str(&line), jiffies_to_msecs(jiffies - ts) / 1000);
}

/*
 * The stacks of the workers running on a stuck per-CPU pool: the item
 * that hogs the CPU is on one of them.
 */
static void show_pool_hogs(struct worker_pool *pool)
{
	struct worker *worker;
	unsigned long flags;
	int bkt;

	raw_spin_lock_irqsave(&pool->lock, flags);
	printk_deferred_enter();
	hash_for_each(pool->busy_hash, bkt, worker, hentry) {
		if (task_is_running(worker->task)) {
			pr_info("workqueue: pool %d worker %d is running %ps:\n",
				pool->id, task_pid_nr(worker->task),
				worker->current_func);
			sched_show_task(worker->task);
		}
	}
	printk_deferred_exit();
	raw_spin_unlock_irqrestore(&pool->lock, flags);
	touch_nmi_watchdog();
}

static void wq_watchdog_timer_fn(struct timer_list *unused)
{
	unsigned long thresh = READ_ONCE(wq_watchdog_thresh) * HZ;
	struct worker_pool *pool;
	bool stalled = false;
	int pi;

	if (!thresh)
		return;
	rcu_read_lock();
	for_each_pool(pool, pi) {
		unsigned long since;

		pool->cpu_stall = false;
		if (list_empty(&pool->worklist))
			continue;
		/* a guest the host stopped looks stalled: that is no stall */
		kvm_check_and_clear_guest_paused();
		since = pool_excused_since(pool);
		if (time_after(jiffies, since + thresh)) {
			pool->cpu_stall = pool->cpu >= 0 && !(pool->flags & POOL_BH);
			stalled = true;
			report_stall(pool);
			/* a per-CPU pool is stuck behind what runs there */
			if (pool->cpu_stall)
				show_pool_hogs(pool);
		}
	}
	rcu_read_unlock();
	if (stalled) {
		show_all_workqueues();
		if (wq_panic_on_stall && ++wq_stall_count >= wq_panic_on_stall)
			panic("workqueue: %u stall(s)", wq_stall_count);
	}
	wq_watchdog_touch_all();
	mod_timer(&wq_watchdog_timer, jiffies + thresh);
}

/* End the current period; start one of @thresh seconds unless it is 0. */
static void wq_watchdog_set_thresh(unsigned long thresh)
{
	/* a timer running now must see 0, not the new threshold */
	WRITE_ONCE(wq_watchdog_thresh, 0);
	timer_delete_sync(&wq_watchdog_timer);
	if (!thresh)
		return;
	WRITE_ONCE(wq_watchdog_thresh, thresh);
	wq_watchdog_touch_all();
	mod_timer(&wq_watchdog_timer, jiffies + thresh * HZ);
}

/**
 * wq_watchdog_init - start the stall watchdog
 *
 * Context: boot, from workqueue_init().
 */
void __init wq_watchdog_init(void)
{
	unsigned long thresh = wq_watchdog_thresh;

	timer_setup(&wq_watchdog_timer, wq_watchdog_timer_fn, TIMER_DEFERRABLE);
	wq_watchdog_set_thresh(thresh);
}

/*
 * Before workqueue_init() only the value is kept; the timer starts there.
 * The parse error is passed through, and a threshold whose jiffies do not
 * fit is refused.
 */
static int wq_watchdog_thresh_set(const char *val, const struct kernel_param *kp)
{
	unsigned long thresh;
	int ret = kstrtoul(val, 0, &thresh);

	if (ret)
		return ret;
	if (thresh > ULONG_MAX / HZ)
		return -EINVAL;
	wq_watchdog_thresh = thresh;
	if (wq_online)
		wq_watchdog_set_thresh(thresh);
	return 0;
}

static const struct kernel_param_ops wq_watchdog_thresh_ops = {
	.get = param_get_ulong, .set = wq_watchdog_thresh_set,
};
module_param_cb(watchdog_thresh, &wq_watchdog_thresh_ops, &wq_watchdog_thresh, 0644);

#else
void __init wq_watchdog_init(void) { }
#endif

/* ------------------------------------------------------------------ */
/* 4. debugfs and the worker-creation fault                            */
/* ------------------------------------------------------------------ */

static bool wq_fail_creation;

/**
 * wq_fail_worker_creation - make creating workers fail, for tests
 * @fail: whether every new worker fails until this is called with %false
 *
 * Lets a test show that WQ_MEM_RECLAIM workqueues make progress through
 * their rescuers when pools cannot grow.  Also
 * /sys/kernel/debug/workqueue/fail_worker_creation.
 *
 * Context: any.
 */
void wq_fail_worker_creation(bool fail)
{
	WRITE_ONCE(wq_fail_creation, fail);
}

/**
 * wq_fail_worker_creation_now - whether to fail this worker creation
 *
 * Return: %true while the fault is on.
 */
bool wq_fail_worker_creation_now(void)
{
	return READ_ONCE(wq_fail_creation);
}

/* /sys/kernel/debug/workqueue/, once debugfs is up */
static int __init wq_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("workqueue", NULL);

	debugfs_create_bool("fail_worker_creation", 0600, dir, &wq_fail_creation);
	return 0;
}
late_initcall(wq_debugfs_init);
