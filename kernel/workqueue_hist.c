// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-workqueue histograms: how long items wait behind max_active (from
 * queueing to activation) and for a worker (from activation to start),
 * how long they run (wall clock and CPU), and how long flushers wait;
 * with, per workqueue, the work functions of the slowest starts and the
 * longest runs.  On by default (workqueue.histograms=0 turns them off).
 *
 * Items are sampled, per pool_workqueue: an item is timed from queueing
 * to its end when its pwq's countdown runs out and at least 100 ms passed
 * since the pwq's last sample, and counts for the items queued since
 * that sample, so that the histograms estimate every item.  The
 * countdown's period adapts to about the items a pwq queues in 100 ms (1
 * below that rate: every item is timed), so a busy pwq reads the clock
 * about 20 times a second and takes 10 samples: the cost is bounded in
 * time, whatever the rate.
 * Each pwq has one sample in flight at a time; an item queued while one
 * is carries its count to the next.  Flush waits are all counted.
 *
 * The item histograms live in their pwq (per CPU for per-CPU workqueues)
 * and are changed under its pool's lock, which the item's path holds
 * anyway: no atomics and no cache line shared with other CPUs.  A reader
 * sums them, with what released pwqs left behind.  A pwq's block is
 * allocated by the worker of its first sampled item, in process context,
 * so that only pwqs in use pay for it; the block for released pwqs'
 * counts is allocated when the first one is released.
 *
 * Readable in /sys/kernel/debug/workqueue/histograms (every workqueue),
 * in /sys/devices/virtual/workqueue/NAME/histograms/ (WQ_SYSFS ones), and
 * by tools/workqueue/wq_hist.py (drgn).  Writing "reset" clears them.
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. parameters
 *   2. sampling: the hooks on the path of an item
 *   3. flush waits and the worst items
 *   4. allocation and release
 *   5. reading and resetting
 *   6. the debugfs file
 */
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/cputime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "workqueue_impl.h"
#include "workqueue_test.h"
#include <trace/events/workqueue.h>

/* parameters are workqueue.*, as those of kernel/workqueue.c */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "workqueue."

/* ------------------------------------------------------------------ */
/* 1. parameters                                                      */
/* ------------------------------------------------------------------ */

/* workqueue.histograms=0 at boot: no histograms, no memory for them */
static bool wq_hist_enabled = true;
module_param_named(histograms, wq_hist_enabled, bool, 0444);

/* the blocks of pwqs and of workqueues, at their exact sizes */
static struct kmem_cache *wq_hist_cache, *wq_hist_wq_cache;

/*
 * workqueue.hist_period: every Nth item sampled, 1 for every item; 0 (the
 * default) adapts N between 1 and WQ_HIST_MAX_PERIOD to the rate, and
 * samples at most one item per WQ_HIST_GAP_NS.
 */
#define WQ_HIST_MAX_PERIOD	1024
/* the adaptive period takes a sample per pwq every WQ_HIST_GAP_NS at most */
#define WQ_HIST_GAP_NS		(100 * NSEC_PER_MSEC)

static unsigned int wq_hist_period;

static int wq_hist_period_set(const char *val, const struct kernel_param *kp)
{
	unsigned int period;
	int ret = kstrtouint(val, 0, &period);

	if (ret)
		return ret;
	if (period > WQ_HIST_MAX_PERIOD)
		return -EINVAL;
	WRITE_ONCE(wq_hist_period, period);
	return 0;
}

static const struct kernel_param_ops wq_hist_period_ops = {
	.set = wq_hist_period_set,
	.get = param_get_uint,
};
module_param_cb(hist_period, &wq_hist_period_ops, &wq_hist_period, 0644);

/**
 * workqueue_hist_set_period - sample one item in @period
 * @period: items per sample, 1 for every item, 0 to adapt to the rate
 *
 * What workqueue.hist_period sets; a pwq picks the new period up at its
 * next sample.
 *
 * Context: any.
 * Return: the period before, or -EINVAL if @period is above
 * %WQ_HIST_MAX_PERIOD (and nothing changed).
 */
int workqueue_hist_set_period(unsigned int period)
{
	if (period > WQ_HIST_MAX_PERIOD) {
		pr_warn_once("workqueue: histogram period %u above %u\n",
			     period, WQ_HIST_MAX_PERIOD);
		return -EINVAL;
	}
	return xchg(&wq_hist_period, period);
}
EXPORT_SYMBOL_GPL(workqueue_hist_set_period);

/* ------------------------------------------------------------------ */
/* 2. sampling: the hooks on the path of an item                      */
/* ------------------------------------------------------------------ */

/* worker->hist_flags */
enum {
	WQ_HIST_SAMPLED		= 1 << 0,	/* the item is a sample */
	WQ_HIST_ALLOC		= 1 << 1,	/* its pwq has no histograms yet */
};

/* Time from @from to @to, 0 if the clocks of two CPUs disagree. */
static u64 wq_hist_since(u64 from, u64 to)
{
	return to > from ? to - from : 0;
}

static unsigned int wq_hist_bucket(u64 ns)
{
	return min_t(unsigned int, fls64(div_u64(ns, NSEC_PER_USEC)),
		     WQ_HIST_BUCKETS - 1);
}

static void wq_hist_add(struct wq_hist *h, int kind, u64 ns, unsigned int n)
{
	h->count[kind][wq_hist_bucket(ns)] += n;
}

/*
 * The countdown of @pwq ran out @gap ns after its last sample: whether to
 * take this one (at most one per WQ_HIST_GAP_NS), and the next period:
 * longer while samples come too often, shorter while they come far apart,
 * so that it settles at about the items @pwq queues per WQ_HIST_GAP_NS.
 */
static bool wq_hist_due(struct pool_workqueue *pwq, u64 gap)
{
	unsigned int fixed = READ_ONCE(wq_hist_period);
	unsigned int period = pwq->hist_period;

	if (fixed) {
		pwq->hist_period = fixed;
		return true;
	}
	if (gap < WQ_HIST_GAP_NS) {
		pwq->hist_period = min(period * 2, WQ_HIST_MAX_PERIOD);
		return false;
	}
	if (gap > 4 * WQ_HIST_GAP_NS)
		pwq->hist_period = max(period / 2, 1U);
	return true;
}

/**
 * wq_hist_sample_locked - the countdown of @pwq ran out: sample @work?
 * @pwq: the pwq @work was just queued on
 * @work: the item
 * @active: whether it went to the pool's worklist at once
 *
 * A sample stands for the items queued since the one before, those of
 * samples not taken included.  A pwq without histograms yet has its
 * worker allocate them after the item, and counts the item in them.  This
 * and the worker's two steps read the clock once each.
 *
 * Context: pool->lock (P).
 */
static void wq_hist_sample_locked(struct pool_workqueue *pwq,
				  struct work_struct *work, bool active)
{
	unsigned int items = pwq->hist_carry + pwq->hist_period;
	u64 now;

	wq_assert_P(pwq->pool);
	if (!pwq->wq->hist) {
		/* histograms off */
		pwq->hist_countdown = UINT_MAX;
		return;
	}
	now = wq_hist_clock();
	if (pwq->hist_work || !wq_hist_due(pwq, wq_hist_since(pwq->hist_last, now))) {
		/* one sample in flight, or too soon: these count with the next */
		pwq->hist_carry = items;
	} else {
		pwq->hist_carry = 0;
		pwq->hist_work = work;
		pwq->hist_weight = items;
		pwq->hist_queued = now;
		pwq->hist_active = active ? now : 0;
		pwq->hist_last = now;
	}
	pwq->hist_countdown = pwq->hist_period;
}

/**
 * wq_hist_activated_locked - the sampled item of @pwq became active
 * @pwq: the pwq
 *
 * Context: pool->lock (P).
 */
static void wq_hist_activated_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	pwq->hist_active = wq_hist_clock();
}

/* The task's context switches so far, voluntary or not. */
static unsigned long wq_hist_switches(struct task_struct *task)
{
	return READ_ONCE(task->nvcsw) + READ_ONCE(task->nivcsw);
}

/**
 * wq_hist_begin_locked - @worker starts the sampled item of @pwq
 * @worker: the worker
 * @pwq: the pwq
 *
 * Notes when the item was queued, activated and started, and what the
 * worker's task ran so far; wq_hist_end() counts it all after the item,
 * so that the item starts as soon as it can.
 *
 * Context: pool->lock (P).
 */
static void wq_hist_begin_locked(struct worker *worker, struct pool_workqueue *pwq)
{
	u64 now;

	wq_assert_P(pwq->pool);
	pwq->hist_work = NULL;
	if (!pwq->hist_weight)
		return;
	now = wq_hist_clock();
	worker->hist_flags = WQ_HIST_SAMPLED | (pwq->hist ? 0 : WQ_HIST_ALLOC);
	worker->hist_weight = pwq->hist_weight;
	worker->hist_queued = pwq->hist_queued;
	worker->hist_active = pwq->hist_active ?: now;
	worker->hist_start = now;
	if (worker->task) {
		worker->hist_cpu = worker->task->se.sum_exec_runtime;
		worker->hist_switches = wq_hist_switches(worker->task);
	}
}

/**
 * wq_hist_drop_locked - the sampled item of @pwq leaves it unrun
 * @pwq: the pwq
 *
 * The items the sample stood for, but itself, count with the next one.
 *
 * Context: pool->lock (P).
 */
static void wq_hist_drop_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	if (pwq->hist_weight)
		pwq->hist_carry += pwq->hist_weight - 1;
	pwq->hist_work = NULL;
}

/*
 * The CPU time of @worker's item, which ran @run ns on the clock: all of
 * it if the task was never switched out meanwhile; else what the
 * scheduler charged it since the item began, within a tick (the charge at
 * the start was not brought up to date, to spare the scheduler's locks
 * for items that do not sleep).
 */
static u64 wq_hist_cpu_time(struct worker *worker, u64 run)
{
	struct task_struct *task = worker->task;

	if (wq_hist_switches(task) == worker->hist_switches)
		return run;
	return min(wq_hist_since(worker->hist_cpu, task_sched_runtime(task)), run);
}

static void wq_hist_offer(struct wq_hist_wq *wqh, struct wq_hist_top *top,
			  work_func_t func, u64 ns);
static void wq_hist_alloc_pwq(struct pool_workqueue *pwq, bool bh);

/* Count @worker's sampled item in @h.  Context: P. */
static void wq_hist_count_locked(struct wq_hist *h, struct worker *worker,
				 u64 run, u64 cpu, bool bh)
{
	unsigned int n = worker->hist_weight;

	wq_assert_P(worker->pool);
	wq_hist_add(h, WQ_HIST_QUEUED,
		    wq_hist_since(worker->hist_queued, worker->hist_active), n);
	wq_hist_add(h, WQ_HIST_WAITING,
		    wq_hist_since(worker->hist_active, worker->hist_start), n);
	wq_hist_add(h, WQ_HIST_RUNNING, run, n);
	if (!bh)
		wq_hist_add(h, WQ_HIST_CPU, cpu, n);
	h->samples++;
}

/**
 * wq_hist_end - the function of @worker's sampled item returned
 * @worker: the worker
 * @pwq: the item's pwq
 * @func: its function
 * @bh: it ran in softirq (no CPU time of its own)
 *
 * Context: process or softirq context, no lock held.
 */
static void wq_hist_end(struct worker *worker, struct pool_workqueue *pwq,
			work_func_t func, bool bh)
{
	struct wq_hist_wq *wqh = pwq->wq->hist;
	u64 run, cpu, latency;
	bool alloc = worker->hist_flags & WQ_HIST_ALLOC;

	worker->hist_flags = 0;
	run = wq_hist_since(worker->hist_start, wq_hist_clock());
	cpu = bh ? 0 : wq_hist_cpu_time(worker, run);
	latency = wq_hist_since(worker->hist_queued, worker->hist_start);
	if (alloc)
		wq_hist_alloc_pwq(pwq, bh);
	scoped_guard(raw_spinlock_irq, &pwq->pool->lock) {
		if (pwq->hist)
			wq_hist_count_locked(pwq->hist, worker, run, cpu, bh);
		else	/* no memory: the next sample counts these items */
			pwq->hist_carry += worker->hist_weight;
	}
	trace_workqueue_sample(func, pwq->wq->name, latency, run, cpu,
			       worker->hist_weight);
	if (wqh) {
		wq_hist_offer(wqh, wqh->slowest_start, func, latency);
		wq_hist_offer(wqh, wqh->longest_run, func, run);
	}
}

/* ------------------------------------------------------------------ */
/* 3. flush waits and the worst items                                 */
/* ------------------------------------------------------------------ */

/**
 * wq_hist_count_flush - a flusher of @wq waited since @start_ns
 * @wq: the workqueue, alive for the caller
 * @start_ns: wq_hist_clock() when the wait began
 *
 * Called by wq_hist_flushed(), installed only with histograms on.
 *
 * Context: any.
 */
static void wq_hist_count_flush(struct workqueue_struct *wq, u64 start_ns)
{
	struct wq_hist_wq *wqh = wq->hist;

	if (!wqh)
		return;
	atomic64_inc(&wqh->flush[wq_hist_bucket(wq_hist_since(start_ns,
							      wq_hist_clock()))]);
}

/* Enter @func with @ns in @top, worst first, one entry per function. */
static void wq_hist_top_insert_locked(struct wq_hist_wq *wqh,
				      struct wq_hist_top *top,
				      work_func_t func, u64 ns)
{
	int i, at = WQ_HIST_TOP - 1;

	lockdep_assert_held(&wqh->lock);
	for (i = 0; i < WQ_HIST_TOP; i++) {
		if (top[i].func == func) {
			if (top[i].ns >= ns)
				return;
			at = i;
			break;
		}
	}
	if (top[at].func != func && top[at].ns >= ns && top[at].func)
		return;
	/* slide the better ones down over @at */
	for (i = at; i > 0 && top[i - 1].ns < ns; i--)
		top[i] = top[i - 1];
	top[i].func = func;
	WRITE_ONCE(top[i].ns, ns);
}

static void wq_hist_offer(struct wq_hist_wq *wqh, struct wq_hist_top *top,
			  work_func_t func, u64 ns)
{
	unsigned long flags;

	/* a time below the last entry's cannot enter (Lockless reads) */
	if (READ_ONCE(top[WQ_HIST_TOP - 1].ns) >= ns)
		return;
	raw_spin_lock_irqsave(&wqh->lock, flags);
	wq_hist_top_insert_locked(wqh, top, func, ns);
	raw_spin_unlock_irqrestore(&wqh->lock, flags);
}

/* ------------------------------------------------------------------ */
/* 4. allocation and release                                          */
/* ------------------------------------------------------------------ */

/**
 * wq_hist_init - set up the histograms and install their hooks
 *
 * Called by workqueue_init_early(), before the first workqueue.  With
 * workqueue.histograms=0, or without the caches, the core's call sites
 * stay empty and its key off.
 */
void __init wq_hist_init(void)
{
	if (wq_hist_enabled) {
		wq_hist_cache = KMEM_CACHE(wq_hist, 0);
		wq_hist_wq_cache = KMEM_CACHE(wq_hist_wq, 0);
		/* without them, no workqueue gets histograms: as if off */
		if (!wq_hist_cache || !wq_hist_wq_cache)
			wq_hist_enabled = false;
	}
	if (!wq_hist_enabled) {
		static_branch_disable(&wq_hist_on);
		return;
	}
	static_call_update(wq_hist_hook_sample, wq_hist_sample_locked);
	static_call_update(wq_hist_hook_activated, wq_hist_activated_locked);
	static_call_update(wq_hist_hook_begin, wq_hist_begin_locked);
	static_call_update(wq_hist_hook_end, wq_hist_end);
	static_call_update(wq_hist_hook_drop, wq_hist_drop_locked);
	static_call_update(wq_hist_hook_flush, wq_hist_count_flush);
}

/**
 * wq_hist_alloc_wq - give a new workqueue its histograms
 * @wq: the workqueue, not yet visible to anyone
 *
 * Context: process context.
 * Return: 0, or -ENOMEM.  Off histograms allocate nothing and succeed.
 */
int wq_hist_alloc_wq(struct workqueue_struct *wq)
{
	if (!wq_hist_enabled)
		return 0;
	wq->hist = kmem_cache_zalloc(wq_hist_wq_cache, GFP_KERNEL);
	if (!wq->hist)
		return -ENOMEM;
	raw_spin_lock_init(&wq->hist->lock);
	wq->hist->since = wq_hist_clock();
	return 0;
}

/* The workqueue is gone: its histograms go with it. */
void wq_hist_free_wq(struct workqueue_struct *wq)
{
	if (!wq->hist)
		return;
	if (wq->hist->retired)
		kmem_cache_free(wq_hist_cache, wq->hist->retired);
	kmem_cache_free(wq_hist_wq_cache, wq->hist);
	wq->hist = NULL;
}

/*
 * A new pwq samples its first item (to have its histograms allocated);
 * with histograms off, its countdown runs out after UINT_MAX items, and
 * the sample is not taken then either.
 */
void wq_hist_init_pwq(struct pool_workqueue *pwq)
{
	pwq->hist_period = 1;
	pwq->hist_countdown = wq_hist_enabled ? 1 : UINT_MAX;
}

/*
 * The worker of the first sampled item of @pwq allocates its histograms,
 * in softirq for BH pools, on the pool's node.
 */
static void wq_hist_alloc_pwq(struct pool_workqueue *pwq, bool bh)
{
	gfp_t gfp = bh ? GFP_ATOMIC | __GFP_NOWARN : GFP_KERNEL;
	struct wq_hist *h;

	if (!pwq->wq->hist)
		return;
	h = kmem_cache_alloc_node(wq_hist_cache, gfp | __GFP_ZERO, pwq->pool->node);
	if (!h)
		return;		/* the next sample asks again */
	scoped_guard(raw_spinlock_irq, &pwq->pool->lock) {
		if (!pwq->hist) {
			pwq->hist = h;
			h = NULL;
		}
	}
	if (h)
		kmem_cache_free(wq_hist_cache, h);
}

static void wq_hist_sum(struct wq_hist *to, const struct wq_hist *from)
{
	int k, b;

	for (k = 0; k < WQ_NR_ITEM_HISTS; k++)
		for (b = 0; b < WQ_HIST_BUCKETS; b++)
			to->count[k][b] += from->count[k][b];
	to->samples += from->samples;
}

/**
 * wq_hist_retire_pwq - @pwq leaves its workqueue: keep its counts
 * @pwq: the pwq, unlinked under the same hold of W
 *
 * The first pwq to leave hands its block over as the workqueue's block
 * of released counts; the others add theirs to it.
 *
 * Context: wq->mutex (W).
 */
void wq_hist_retire_pwq(struct pool_workqueue *pwq)
{
	struct workqueue_struct *wq = pwq->wq;

	wq_assert_W(wq);
	if (!pwq->hist || !wq->hist)
		return;
	if (!wq->hist->retired) {
		wq->hist->retired = pwq->hist;
		pwq->hist = NULL;
		return;
	}
	wq_hist_sum(wq->hist->retired, pwq->hist);
}

/* @pwq is freed (after RCU). */
void wq_hist_free_pwq(struct pool_workqueue *pwq)
{
	if (pwq->hist)
		kmem_cache_free(wq_hist_cache, pwq->hist);
}

/* ------------------------------------------------------------------ */
/* 5. reading and resetting                                           */
/* ------------------------------------------------------------------ */

/**
 * wq_hist_collect - the item histograms of @wq, summed
 * @wq: the workqueue
 * @sum: where to put them
 *
 * Context: wq->mutex (W).
 */
void wq_hist_collect(struct workqueue_struct *wq, struct wq_hist *sum)
{
	struct pool_workqueue *pwq;

	wq_assert_W(wq);
	memset(sum, 0, sizeof(*sum));
	if (!wq->hist)
		return;
	if (wq->hist->retired)
		wq_hist_sum(sum, wq->hist->retired);
	for_each_pwq(pwq, wq) {
		guard(raw_spinlock_irq)(&pwq->pool->lock);
		if (pwq->hist)
			wq_hist_sum(sum, pwq->hist);
	}
}

/**
 * workqueue_hist_read - one histogram of a workqueue
 * @wq: the workqueue
 * @kind: which one
 * @buckets: %WQ_HIST_BUCKETS counts, see &enum wq_hist_kind
 *
 * Context: process context, may sleep.
 * Return: the sum of the counts, or -EINVAL for a bad @kind (@buckets
 * untouched), or -ENODATA with histograms off (@buckets are zeroed then).
 */
int workqueue_hist_read(struct workqueue_struct *wq, enum wq_hist_kind kind,
			u64 *buckets)
{
	struct wq_hist *sum;
	u64 total = 0;
	int b;

	if ((unsigned int)kind >= WQ_NR_HISTS)
		return -EINVAL;
	memset(buckets, 0, WQ_HIST_BUCKETS * sizeof(*buckets));
	if (!wq->hist)
		return -ENODATA;
	if (kind == WQ_HIST_FLUSH) {
		for (b = 0; b < WQ_HIST_BUCKETS; b++)
			total += buckets[b] = atomic64_read(&wq->hist->flush[b]);
		return min_t(u64, total, INT_MAX);
	}
	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	scoped_guard(mutex, &wq->mutex)
		wq_hist_collect(wq, sum);
	for (b = 0; b < WQ_HIST_BUCKETS; b++)
		total += buckets[b] = sum->count[kind][b];
	kfree(sum);
	return min_t(u64, total, INT_MAX);
}
EXPORT_SYMBOL_GPL(workqueue_hist_read);

/**
 * wq_hist_reset_kinds - clear some histograms of @wq
 * @wq: the workqueue
 * @kinds: bit per &enum wq_hist_kind, and bit %WQ_NR_HISTS for the lists
 *	of the worst items
 *
 * Context: process context; takes wq->mutex (W).
 */
void wq_hist_reset_kinds(struct workqueue_struct *wq, unsigned long kinds)
{
	struct wq_hist_wq *wqh = wq->hist;
	struct pool_workqueue *pwq;
	int k, b;

	if (!wqh)
		return;
	guard(mutex)(&wq->mutex);
	for (k = 0; k < WQ_NR_ITEM_HISTS; k++) {
		if (!(kinds & BIT(k)))
			continue;
		if (wqh->retired)
			memset(wqh->retired->count[k], 0,
			       sizeof(wqh->retired->count[k]));
		for_each_pwq(pwq, wq) {
			guard(raw_spinlock_irq)(&pwq->pool->lock);
			if (pwq->hist)
				memset(pwq->hist->count[k], 0,
				       sizeof(pwq->hist->count[k]));
		}
	}
	if (kinds & BIT(WQ_HIST_FLUSH))
		for (b = 0; b < WQ_HIST_BUCKETS; b++)
			atomic64_set(&wqh->flush[b], 0);
	if (kinds & BIT(WQ_NR_HISTS)) {
		guard(raw_spinlock_irq)(&wqh->lock);
		memset(wqh->slowest_start, 0, sizeof(wqh->slowest_start));
		memset(wqh->longest_run, 0, sizeof(wqh->longest_run));
	}
	if ((kinds & (BIT(WQ_NR_HISTS + 1) - 1)) == BIT(WQ_NR_HISTS + 1) - 1) {
		if (wqh->retired)
			wqh->retired->samples = 0;
		for_each_pwq(pwq, wq) {
			guard(raw_spinlock_irq)(&pwq->pool->lock);
			if (pwq->hist)
				pwq->hist->samples = 0;
		}
		wqh->since = wq_hist_clock();
	}
}

/**
 * workqueue_hist_reset - clear every histogram of a workqueue
 * @wq: the workqueue
 *
 * Context: process context, may sleep.
 */
void workqueue_hist_reset(struct workqueue_struct *wq)
{
	wq_hist_reset_kinds(wq, BIT(WQ_NR_HISTS + 1) - 1);
}
EXPORT_SYMBOL_GPL(workqueue_hist_reset);

/**
 * wq_hist_parse_reset - what a write to a histogram file asks for
 * @buf: the bytes written
 * @count: their number
 *
 * "reset" or "0", with or without a newline, is the only thing to write.
 *
 * Context: any.
 * Return: 0 for a reset, -EINVAL for anything else.
 */
int wq_hist_parse_reset(const char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		count--;
	if ((count == 5 && !memcmp(buf, "reset", 5)) ||
	    (count == 1 && buf[0] == '0'))
		return 0;
	return -EINVAL;
}

const char * const wq_hist_names[WQ_NR_HISTS] = {
	[WQ_HIST_QUEUED]	= "queued",
	[WQ_HIST_WAITING]	= "waiting",
	[WQ_HIST_RUNNING]	= "running",
	[WQ_HIST_CPU]		= "cpu",
	[WQ_HIST_FLUSH]		= "flush",
};

/* What each histogram measures, as the debugfs file titles it. */
static const char * const wq_hist_titles[WQ_NR_HISTS] = {
	[WQ_HIST_QUEUED]	= "queued -> active (behind max_active)",
	[WQ_HIST_WAITING]	= "active -> started (waiting for a worker)",
	[WQ_HIST_RUNNING]	= "run time, wall clock",
	[WQ_HIST_CPU]		= "run time, on the CPU",
	[WQ_HIST_FLUSH]		= "flushers waiting",
};

/* The lowest time, in us, bucket @b counts. */
static u64 wq_hist_low_us(int b)
{
	return b ? 1ULL << (b - 1) : 0;
}

/*
 * @kind's buckets of @wq in @out; the item ones from @sum, the flush ones
 * from their counters.
 */
static void wq_hist_counts(struct workqueue_struct *wq,
			   const struct wq_hist *sum, int kind, u64 *out)
{
	int b;

	for (b = 0; b < WQ_HIST_BUCKETS; b++)
		out[b] = kind == WQ_HIST_FLUSH ?
			atomic64_read(&wq->hist->flush[b]) : sum->count[kind][b];
}

/* a worst item's function name; a longer one is cut short */
#define WQ_HIST_NAME_LEN	128

/*
 * The name of a worst item's function, or "(unloaded)" once the text it
 * pointed into is gone (a module removed since): never a raw address.
 * Preemption stays off from the look-up to the print, so that the module
 * cannot go in between.
 */
static void wq_hist_func_name(char *buf, work_func_t func)
{
	unsigned long addr = (unsigned long)func;

	guard(preempt)();
	if (core_kernel_text(addr) || is_module_text_address(addr))
		snprintf(buf, WQ_HIST_NAME_LEN, "%ps", func);
	else
		strscpy(buf, "(unloaded)", WQ_HIST_NAME_LEN);
}

/**
 * wq_hist_show_kind - a sysfs file of a WQ_SYSFS workqueue
 * @wq: the workqueue
 * @kind: an &enum wq_hist_kind, or %WQ_NR_HISTS for the worst items
 * @buf: the sysfs page
 *
 * Histograms as "LOW_US COUNT" lines, the non-empty buckets only; the
 * worst items as "start|run US FUNCTION" lines.  At most 24 and 8 short
 * lines: well within the page.
 *
 * Context: process context.
 * Return: the length written.
 */
ssize_t wq_hist_show_kind(struct workqueue_struct *wq, int kind, char *buf)
{
	u64 counts[WQ_HIST_BUCKETS];
	struct wq_hist *sum;
	int b, len = 0;

	if (!wq->hist)
		return 0;
	if (kind == WQ_NR_HISTS) {
		struct wq_hist_top tops[2][WQ_HIST_TOP];
		char name[WQ_HIST_NAME_LEN];

		scoped_guard(raw_spinlock_irq, &wq->hist->lock) {
			memcpy(tops[0], wq->hist->slowest_start, sizeof(tops[0]));
			memcpy(tops[1], wq->hist->longest_run, sizeof(tops[1]));
		}
		for (b = 0; b < 2 * WQ_HIST_TOP; b++) {
			const struct wq_hist_top *t = &tops[b / WQ_HIST_TOP][b % WQ_HIST_TOP];

			if (!t->func)
				continue;
			wq_hist_func_name(name, t->func);
			len += sysfs_emit_at(buf, len, "%s %llu %s\n",
					     b < WQ_HIST_TOP ? "start" : "run",
					     div_u64(t->ns, NSEC_PER_USEC), name);
		}
		return len;
	}
	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	scoped_guard(mutex, &wq->mutex)
		wq_hist_collect(wq, sum);
	wq_hist_counts(wq, sum, kind, counts);
	kfree(sum);
	for (b = 0; b < WQ_HIST_BUCKETS; b++)
		if (counts[b])
			len += sysfs_emit_at(buf, len, "%llu %llu\n",
					     wq_hist_low_us(b), counts[b]);
	return len;
}

/* ------------------------------------------------------------------ */
/* 6. the debugfs file                                                */
/* ------------------------------------------------------------------ */

#define WQ_HIST_BAR	40

/* One histogram in the style of bcc's log2 histograms, with bars. */
static void wq_hist_print(struct seq_file *m, const char *title, const u64 *c)
{
	int b, lo = WQ_HIST_BUCKETS, hi = -1;
	u64 max = 0;

	for (b = 0; b < WQ_HIST_BUCKETS; b++) {
		if (!c[b])
			continue;
		lo = min(lo, b);
		hi = b;
		max = max(max, c[b]);
	}
	if (hi < 0)
		return;
	seq_printf(m, "  %s\n  %10s -> %-10s : %-12s distribution\n", title,
		   "usecs", "", "count");
	for (b = lo; b <= hi; b++) {
		int bar = div64_u64(c[b] * WQ_HIST_BAR, max);

		if (b == WQ_HIST_BUCKETS - 1)
			seq_printf(m, "  %10llu -> %-10s : %-12llu |", wq_hist_low_us(b),
				   "", c[b]);
		else
			seq_printf(m, "  %10llu -> %-10llu : %-12llu |",
				   wq_hist_low_us(b), (1ULL << b) - 1, c[b]);
		seq_printf(m, "%.*s%*s|\n", bar, "****************************************",
			   WQ_HIST_BAR - bar, "");
	}
}

static void wq_hist_print_top(struct seq_file *m, const char *title,
			      const struct wq_hist_top *top)
{
	char name[WQ_HIST_NAME_LEN];
	int i;

	if (!top[0].func)
		return;
	seq_printf(m, "  %s\n", title);
	for (i = 0; i < WQ_HIST_TOP && top[i].func; i++) {
		wq_hist_func_name(name, top[i].func);
		seq_printf(m, "  %12llu us  %s\n",
			   div_u64(top[i].ns, NSEC_PER_USEC), name);
	}
}

/* Everything about one workqueue.  Context: W. */
static void wq_hist_print_wq(struct seq_file *m, struct workqueue_struct *wq,
			     struct wq_hist *sum)
{
	struct wq_hist_top tops[2][WQ_HIST_TOP];
	u64 counts[WQ_HIST_BUCKETS];
	int k;

	wq_assert_W(wq);
	wq_hist_collect(wq, sum);
	seq_printf(m, "workqueue %s: %llu samples over %llu s\n", wq->name,
		   sum->samples,
		   div_u64(wq_hist_since(wq->hist->since, wq_hist_clock()),
			   NSEC_PER_SEC));
	for (k = 0; k < WQ_NR_HISTS; k++) {
		wq_hist_counts(wq, sum, k, counts);
		wq_hist_print(m, wq_hist_titles[k], counts);
	}
	scoped_guard(raw_spinlock_irq, &wq->hist->lock) {
		memcpy(tops[0], wq->hist->slowest_start, sizeof(tops[0]));
		memcpy(tops[1], wq->hist->longest_run, sizeof(tops[1]));
	}
	wq_hist_print_top(m, "slowest starts (queued -> started)", tops[0]);
	wq_hist_print_top(m, "longest runs (wall clock)", tops[1]);
}

static int wq_hist_debugfs_show(struct seq_file *m, void *unused)
{
	struct workqueue_struct *wq;
	struct wq_hist *sum;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	seq_printf(m, "# counts estimate every item from samples; sampling period %s\n",
		   READ_ONCE(wq_hist_period) ? "fixed" : "adaptive");
	guard(mutex)(&wq_pool_mutex);
	list_for_each_entry(wq, &workqueues, list) {
		if (!wq->hist)
			continue;
		guard(mutex)(&wq->mutex);
		wq_hist_print_wq(m, wq, sum);
	}
	kfree(sum);
	return 0;
}

static int wq_hist_debugfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, wq_hist_debugfs_show, NULL);
}

/* Longest write taken: "reset " and a workqueue name, and a newline. */
#define WQ_HIST_WRITE_MAX	(6 + WQ_NAME_LEN + 1)

/*
 * "reset" clears every workqueue's histograms, "reset NAME" those of the
 * workqueues called NAME; anything else is refused and changes nothing.
 */
static ssize_t wq_hist_debugfs_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char buf[WQ_HIST_WRITE_MAX + 1], *name;
	struct workqueue_struct *wq;
	int found = 0;

	if (!count || count > WQ_HIST_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	name = strim(buf);
	if (strncmp(name, "reset", 5) || (name[5] && name[5] != ' '))
		return -EINVAL;
	name = skip_spaces(name + 5);
	guard(mutex)(&wq_pool_mutex);
	list_for_each_entry(wq, &workqueues, list) {
		if (*name && strcmp(wq->name, name))
			continue;
		workqueue_hist_reset(wq);
		found++;
	}
	return found || !*name ? count : -ENOENT;
}

static const struct file_operations wq_hist_debugfs_fops = {
	.owner		= THIS_MODULE,
	.open		= wq_hist_debugfs_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= wq_hist_debugfs_write,
};

/**
 * wq_hist_debugfs_init - create /sys/kernel/debug/workqueue/histograms
 * @dir: the workqueue debugfs directory
 *
 * Context: process context, at boot.
 */
void __init wq_hist_debugfs_init(struct dentry *dir)
{
	if (wq_hist_enabled)
		debugfs_create_file("histograms", 0600, dir, NULL,
				    &wq_hist_debugfs_fops);
}
