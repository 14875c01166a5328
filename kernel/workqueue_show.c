// SPDX-License-Identifier: GPL-2.0-only
/*
 * Looking at workqueues: worker names (ps, /proc), worker info in stack
 * dumps, state dumps (SysRq, the freezer, the watchdog), the stall
 * watchdog, and the debugfs knobs that make worker creation fail for
 * tests.
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. worker names and descriptions
 *   2. state dumps
 *   3. the stall watchdog
 *   4. debugfs
 */
#include <linux/debugfs.h>
#include <linux/kvm_para.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/sched/debug.h>
#include <linux/uaccess.h>

#include "workqueue_impl.h"

/* parameters are workqueue.*, as those of kernel/workqueue.c */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "workqueue."

/* ------------------------------------------------------------------ */
/* 1. worker names and descriptions                                    */
/* ------------------------------------------------------------------ */

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

/*
 * Dumps keep 6.12's text, which people and scripts read.  In item lists a
 * run of items with the same function folds into "N*fn", a flush_work()
 * barrier shows as "BAR(pid)" of the task waiting on it, and items are
 * separated by commas except where an item is followed by the barriers
 * linked to it.  BH pools show as "bh" or "bh-hi" instead of a nice level,
 * and their worker, which has no task, by the same name; RT pools show
 * their SCHED_FIFO priority as "fifo=N".
 *
 * A line is built in one buffer and printed whole, so that other CPUs'
 * messages cannot cut into it.  The buffer is as long as a printk record;
 * a line that outgrows it goes on in a new line, as a record would, and
 * nothing is lost.  There is one buffer: dump_lock serialises its users
 * and nests inside pool locks.
 */
#define WQ_DUMP_LINE	992	/* printk's LOG_LINE_MAX */

static DEFINE_RAW_SPINLOCK(dump_lock);
static struct {
	bool		emerg;	/* KERN_EMERG, else KERN_INFO */
	int		len;
	char		buf[WQ_DUMP_LINE];
} dump_line;

static void dump_flush(void)
{
	lockdep_assert_held(&dump_lock);
	if (dump_line.len && dump_line.emerg)
		pr_emerg("%s\n", dump_line.buf);
	else if (dump_line.len)
		pr_info("%s\n", dump_line.buf);
	dump_line.len = 0;
	dump_line.buf[0] = '\0';
}

/* Append to the line being built; a piece that does not fit starts a new one. */
static __printf(1, 2) void dump_add(const char *fmt, ...)
{
	int room = WQ_DUMP_LINE - dump_line.len, n;
	va_list args;

	lockdep_assert_held(&dump_lock);
	va_start(args, fmt);
	n = vsnprintf(dump_line.buf + dump_line.len, room, fmt, args);
	va_end(args);
	if (n < room) {
		dump_line.len += n;
		return;
	}
	dump_line.buf[dump_line.len] = '\0';
	dump_flush();
	va_start(args, fmt);
	n = vsnprintf(dump_line.buf, WQ_DUMP_LINE, fmt, args);
	va_end(args);
	dump_line.len = min(n, WQ_DUMP_LINE - 1);
}

/* Start a line, at KERN_EMERG if @emerg; dump_end() prints it.  IRQs off. */
static void dump_begin(bool emerg)
{
	raw_spin_lock(&dump_lock);
	dump_line.emerg = emerg;
	dump_line.len = 0;
}

static void dump_end(void)
{
	dump_flush();
	raw_spin_unlock(&dump_lock);
}

static const char *bh_pool_name(struct worker_pool *pool)
{
	return pool->attrs->nice == HIGHPRI_NICE_LEVEL ? "bh-hi" : "bh";
}

static void dump_pool(struct worker_pool *pool)
{
	dump_add(" cpus=%*pbl", cpumask_pr_args(pool->attrs->cpumask));
	if (pool->node != NUMA_NO_NODE)
		dump_add(" node=%d", pool->node);
	dump_add(" flags=0x%x", pool->flags);
	if (pool->flags & POOL_BH)
		dump_add(" %s", bh_pool_name(pool));
#ifdef WQ_HAS_RT_CLASS
	else if (pool_is_rt(pool))
		dump_add(" fifo=%d", wq_rt_prio);
#endif
	else
		dump_add(" nice=%d", pool->attrs->nice);
}

/* A worker by PID, and "(RESCUER)" for a rescuer. */
static void dump_worker(struct worker *worker)
{
	if (worker->pool && (worker->pool->flags & POOL_BH))
		dump_add("%s", bh_pool_name(worker->pool));
	else
#ifdef WQ_HAS_WAIT_PI
		/* "(BOOSTED)", not 6.12's: its item's waiters lend it theirs */
		dump_add("%d%s%s", worker->task ? task_pid_nr(worker->task) : -1,
			 worker->rescue_wq ? "(RESCUER)" : "",
			 worker->boosted ? "(BOOSTED)" : "");
#else
		dump_add("%d%s", worker->task ? task_pid_nr(worker->task) : -1,
			 worker->rescue_wq ? "(RESCUER)" : "");
#endif
}

/* A run of consecutive items with one function, not printed yet. */
struct dump_run {
	work_func_t	func;
	long		len;
	bool		comma;	/* the run's first item follows a comma */
};

static void dump_run_end(struct dump_run *run)
{
	const char *sep = run->comma ? "," : "";

	if (run->len > 1)
		dump_add("%s %ld*%ps", sep, run->len, run->func);
	else if (run->len == 1)
		dump_add("%s %ps", sep, run->func);
	run->len = 0;
}

/* Add @work, after a comma if @comma, to the items being printed. */
static void dump_work(struct dump_run *run, struct work_struct *work,
		      bool comma)
{
	struct task_struct *flusher = wq_barrier_task(work);

	if (!flusher && comma && run->len && run->func == work->func) {
		run->len++;
		return;
	}
	dump_run_end(run);
	if (flusher) {
		dump_add("%s BAR(%d)", comma ? "," : "", task_pid_nr(flusher));
		return;
	}
	*run = (struct dump_run){ .func = work->func, .len = 1, .comma = comma };
}

/* A line @title with the items of @head that belong to @pwq (all if %NULL). */
static void dump_works(const char *title, struct list_head *head,
		       struct pool_workqueue *pwq)
{
	struct dump_run run = { };
	struct work_struct *work;
	bool comma = false;

	dump_begin(false);
	dump_add("%s", title);
	list_for_each_entry(work, head, entry) {
		if (pwq && get_work_pwq(work) != pwq)
			continue;
		dump_work(&run, work, comma);
		comma = !(atomic_long_read(&work->data) & WORK_STRUCT_LINKED);
	}
	dump_run_end(&run);
	dump_end();
}

/* Whether a worker runs an item of @pwq.  Context: P of @pwq's pool. */
static bool pwq_has_in_flight_locked(struct pool_workqueue *pwq)
{
	struct worker *worker;
	int bkt;

	wq_assert_P(pwq->pool);
	hash_for_each(pwq->pool->busy_hash, bkt, worker, hentry)
		if (worker->current_pwq == pwq)
			return true;
	return false;
}

/* The workers running @pwq's items, each with what it runs next. */
static void dump_in_flight(struct pool_workqueue *pwq)
{
	struct worker *worker;
	struct work_struct *work;
	const char *sep = "";
	int bkt;

	dump_begin(false);
	dump_add("    in-flight:");
	hash_for_each(pwq->pool->busy_hash, bkt, worker, hentry) {
		struct dump_run run = { };

		if (worker->current_pwq != pwq)
			continue;
		dump_add(" %s", sep);
		dump_worker(worker);
		dump_add(":%ps", worker->current_func);
		list_for_each_entry(work, &worker->scheduled, entry)
			dump_work(&run, work, false);
		dump_run_end(&run);
		sep = ",";
	}
	dump_end();
}

/* Whether the pool's worklist has an item of @pwq.  Context: P. */
static bool pwq_has_pending_locked(struct pool_workqueue *pwq)
{
	struct work_struct *work;

	wq_assert_P(pwq->pool);
	list_for_each_entry(work, &pwq->pool->worklist, entry)
		if (get_work_pwq(work) == pwq)
			return true;
	return false;
}

/* Whether @pwq has anything to show.  Context: P of @pwq's pool. */
static bool pwq_has_work_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	return pwq->nr_active || !list_empty(&pwq->inactive_works) ||
	       pwq_has_pending_locked(pwq);
}

/* The lines of a busy pwq in a workqueue's dump.  Context: P. */
static void show_pwq_locked(struct pool_workqueue *pwq)
{
	struct worker_pool *pool = pwq->pool;

	wq_assert_P(pool);
	dump_begin(false);
	dump_add("  pwq %d:", pool->id);
	dump_pool(pool);
	dump_add(" active=%d refcnt=%d%s", pwq->nr_active, pwq->refcnt,
		 !list_empty(&pwq->mayday_node) ? " MAYDAY" : "");
	dump_end();
	if (pwq_has_in_flight_locked(pwq))
		dump_in_flight(pwq);
	if (pwq_has_pending_locked(pwq))
		dump_works("    pending:", &pool->worklist, pwq);
	if (!list_empty(&pwq->inactive_works))
		dump_works("    inactive:", &pwq->inactive_works, NULL);
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

/*
 * A pool with busy workers or waiting items: "hung" is how long the first
 * pending item has waited (0s with none), then the idle workers.  6.12
 * leaves out a pool whose workers are all idle even with items waiting,
 * the very state of a pool nobody woke: such a pool is shown here.
 */
static void show_one_worker_pool(struct worker_pool *pool)
{
	unsigned long flags, hung = 0;
	struct worker *worker;
	const char *sep = "idle: ";

	raw_spin_lock_irqsave(&pool->lock, flags);
	if (pool->nr_workers == pool->nr_idle && list_empty(&pool->worklist))
		goto out;
	if (!list_empty(&pool->worklist))
		hung = jiffies_to_msecs(jiffies - pool->watchdog_ts) / 1000;
	printk_deferred_enter();
	dump_begin(false);
	dump_add("pool %d:", pool->id);
	dump_pool(pool);
	dump_add(" hung=%lus workers=%d", hung, pool->nr_workers);
	if (pool->manager)
		dump_add(" manager: %d", task_pid_nr(pool->manager->task));
	list_for_each_entry(worker, &pool->idle_list, entry) {
		dump_add(" %s", sep);
		dump_worker(worker);
		sep = "";
	}
	dump_end();
	printk_deferred_exit();
out:
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
	unsigned long flags;

	local_irq_save(flags);
	dump_begin(true);
	dump_add("BUG: workqueue lockup - pool");
	dump_pool(pool);
	dump_add(" stuck for %us!", jiffies_to_msecs(jiffies - ts) / 1000);
	dump_end();
	local_irq_restore(flags);
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
			pr_info("pool %d:\n", pool->id);
			sched_show_task(worker->task);
		}
	}
	printk_deferred_exit();
	raw_spin_unlock_irqrestore(&pool->lock, flags);
	touch_nmi_watchdog();
}

/* After the dump, the stacks of what runs on each stuck per-CPU pool. */
static void show_stalled_pools_hogs(void)
{
	struct worker_pool *pool;
	int pi;

	pr_info("Showing backtraces of running workers in stalled CPU-bound worker pools:\n");
	rcu_read_lock();
	for_each_pool(pool, pi)
		if (pool->cpu_stall)
			show_pool_hogs(pool);
	rcu_read_unlock();
}

/* Whether @pool has had items waiting, and no progress, for @period. */
static bool pool_is_stuck(struct worker_pool *pool, unsigned long period)
{
	if (list_empty(&pool->worklist))
		return false;
	/* a guest the host stopped looks stalled: that is no stall */
	kvm_check_and_clear_guest_paused();
	return time_after(jiffies, pool_excused_since(pool) + period);
}

/*
 * Every stuck pool is reported, then (as 6.12 does) the dump of all busy
 * workqueues, then the stacks of the workers running on stuck per-CPU
 * pools: such a pool is stuck behind what runs there.
 */
static void wq_watchdog_timer_fn(struct timer_list *unused)
{
	unsigned long period = READ_ONCE(wq_watchdog_thresh) * HZ;
	bool any = false, cpu_bound = false;
	struct worker_pool *pool;
	int id;

	if (!period)
		return;
	scoped_guard(rcu) {
		for_each_pool(pool, id) {
			bool stuck = pool_is_stuck(pool, period);

			pool->cpu_stall = stuck && pool->cpu >= 0 &&
					  !(pool->flags & POOL_BH);
			cpu_bound |= pool->cpu_stall;
			any |= stuck;
			if (stuck)
				report_stall(pool);
		}
	}
	if (any)
		show_all_workqueues();
	if (cpu_bound)
		show_stalled_pools_hogs();
	if (any && wq_panic_on_stall && ++wq_stall_count >= wq_panic_on_stall)
		panic("workqueue: %u stall(s)", wq_stall_count);
	wq_watchdog_touch_all();
	mod_timer(&wq_watchdog_timer, jiffies + period);
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
	/* as 6.12: the timer's offset, thresh * HZ, must be a valid one */
	if (thresh > MAX_JIFFY_OFFSET / HZ)
		return -ERANGE;
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
/* 4. debugfs                                                          */
/* ------------------------------------------------------------------ */

/* /sys/kernel/debug/workqueue/, once debugfs is up */
static int __init wq_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("workqueue", NULL);

	wq_faults_debugfs_init(dir);
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_debugfs_init(dir);
#endif
	return 0;
}
late_initcall(wq_debugfs_init);
