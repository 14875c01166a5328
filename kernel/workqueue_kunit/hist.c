// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_hist: per-workqueue latency and run-time histograms,
 * where the kernel has them (WQ_HAS_HISTOGRAMS); elsewhere the suite is
 * one skipped case.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched/clock.h>
#include <linux/timekeeping.h>
#ifdef WQ_HAS_HISTOGRAMS
#include <linux/workqueue_hist.h>
#endif
#include <trace/events/workqueue.h>

#include "probes.h"

#ifdef WQ_HAS_HISTOGRAMS
static void wqk_hist_period_restore(void *old)
{
	workqueue_hist_set_period((unsigned long)old);
}

/* Sample one item in @period while the case runs. */
static void wqk_hist_period(struct kunit *test, unsigned int period)
{
	int old = workqueue_hist_set_period(period);

	KUNIT_ASSERT_GE(test, old, 0);
	wqk_defer(test, wqk_hist_period_restore, (void *)(unsigned long)old);
}

/* The sleepable kinds, with max_active 1 (ordered ones have it anyway). */
static struct workqueue_struct *wqk_kind_wq_one(struct kunit *test)
{
	static const unsigned int flags[] = {
		[WQK_PERCPU] = 0, [WQK_HIGHPRI] = WQ_HIGHPRI,
		[WQK_UNBOUND] = WQ_UNBOUND, [WQK_MEM_RECLAIM] = WQ_MEM_RECLAIM,
	};
	const enum wqk_kind *kind = test->param_value;

	if (*kind == WQK_ORDERED)
		return wqk_ordered_new(test);
	return wqk_wq_new(test, flags[*kind], 1);
}

/*
 * Ready @wq's pwq for @cpu: the worker of a pwq's first sampled item
 * allocates its histograms, after the item.  Every item is sampled from
 * here on, and the histograms start empty.
 */

static void wqk_hist_ready(struct kunit *test, struct workqueue_struct *wq,
			   int cpu, bool bh)
{
	struct wqk_probe *first = __wqk_probe_new(test, NULL, bh);

	wqk_hist_period(test, 1);
	queue_work_on(cpu, wq, &first->work);
	flush_work(&first->work);
	workqueue_hist_reset(wq);
}

/* A per-CPU workqueue ready on @cpu. */
static struct workqueue_struct *wqk_hist_wq(struct kunit *test, int max_active,
					    int cpu)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, max_active);

	wqk_hist_ready(test, wq, cpu, false);
	return wq;
}

static u64 wqk_hist_total(struct kunit *test, struct workqueue_struct *wq,
			  enum wq_hist_kind kind)
{
	u64 b[WQ_HIST_BUCKETS];
	int n = workqueue_hist_read(wq, kind, b);

	KUNIT_ASSERT_GE(test, n, 0);
	return n;
}

/* The counts of @kind in the bucket that holds @us and above. */
static u64 wqk_hist_from(struct kunit *test, struct workqueue_struct *wq,
			 enum wq_hist_kind kind, u64 us)
{
	u64 b[WQ_HIST_BUCKETS], n = 0;
	int i;

	KUNIT_ASSERT_GE(test, workqueue_hist_read(wq, kind, b), 0);
	for (i = min_t(int, fls64(us), WQ_HIST_BUCKETS - 1); i < WQ_HIST_BUCKETS; i++)
		n += b[i];
	return n;
}

/* The highest non-empty bucket of @kind, -1 if none. */
static int wqk_hist_top_bucket(struct kunit *test, struct workqueue_struct *wq,
			       enum wq_hist_kind kind)
{
	u64 b[WQ_HIST_BUCKETS];
	int i;

	KUNIT_ASSERT_GE(test, workqueue_hist_read(wq, kind, b), 0);
	for (i = WQ_HIST_BUCKETS - 1; i >= 0; i--)
		if (b[i])
			return i;
	return -1;
}

#define WQK_HIST_HOLD_MS	30
#define WQK_HIST_SPIN_MS	4	/* under every CPU-intensive threshold */

/*
 * An item held behind max_active for 30 ms counts at least that long from
 * queueing to activation; the item that held it, activated when queued,
 * counts in the first bucket.
 */
static void hist_counts_the_time_behind_max_active(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq_one(test);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();
	u64 buckets[WQ_HIST_BUCKETS];

	wqk_hist_ready(test, wq, cpu, false);
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	queue_work_on(cpu, wq, &b->work);
	msleep(WQK_HIST_HOLD_MS);
	wqk_open(a);
	WQK_WAIT(test, &b->finished);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, workqueue_hist_read(wq, WQ_HIST_QUEUED, buckets), 2);
	KUNIT_EXPECT_EQ(test, buckets[0], 1);
	KUNIT_EXPECT_EQ(test, wqk_hist_from(test, wq, WQ_HIST_QUEUED,
					    WQK_HIST_HOLD_MS * USEC_PER_MSEC), 1);
}

/*
 * Queue the probe in @p->data behind this one, on its CPU, then keep the
 * worker busy without sleeping for WQK_HIST_SPIN_MS: no other worker is
 * woken for the item queued behind (the worker counts as running), and
 * the spin stays under every CPU-intensive threshold.
 */
static void wqk_hist_spin_hook(struct wqk_probe *p)
{
	struct wqk_probe *next = p->data;
	u64 until;

	queue_work_on(p->cpu, p->wq, &next->work);
	until = local_clock() + WQK_HIST_SPIN_MS * NSEC_PER_MSEC;
	while (local_clock() < until)
		cpu_relax();
}

/*
 * An active item queued behind one that keeps the pool's running worker
 * busy counts that time from activation to start.
 */
static void hist_counts_the_time_waiting_for_a_worker(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	struct wqk_probe *a = wqk_probe_new(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);

	a->hook = wqk_hist_spin_hook;
	a->data = b;
	a->wq = wq;
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &b->finished);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_WAITING), 2);
	/*
	 * B waited for the rest of the spin: most of it.  A may have waited
	 * that long too, for its worker to wake on a busy host: at least one.
	 */
	KUNIT_EXPECT_GE(test, wqk_hist_from(test, wq, WQ_HIST_WAITING,
					    WQK_HIST_SPIN_MS * USEC_PER_MSEC / 2), 1);
}

#define WQK_HIST_HOG_THRESH	"20000"	/* us: workqueue.cpu_intensive_thresh_us */
#define WQK_HIST_HOG_MIN_US	10000	/* well under it: the buckets are log2 */

/*
 * An item queued behind a CPU hog of its pool counts the time until the
 * hog is found CPU-intensive (20 ms of CPU time) and another worker
 * starts it.  It is queued as soon as the hog has started (not before:
 * a pwq times one item at a time, and the hog's start ends its timing),
 * from another CPU, so that the hog's CPU time falls in the item's wait
 * (queued from the hog's own CPU, the queuer could get its turn only
 * after most of it).
 */
static void hist_counts_the_time_waiting_behind_a_cpu_hog(struct kunit *test)
{
	struct wqk_probe *hog = wqk_probe_new(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq;
	int cpu, self;

	wqk_two_cpus(&self, &cpu);
	if (cpu == self)
		kunit_skip(test, "needs two CPUs");
	wqk_set_param(test, "cpu_intensive_thresh_us", WQK_HIST_HOG_THRESH);
	wq = wqk_hist_wq(test, 0, cpu);
	wqk_pin_self(test, self, 0);
	hog->hook = wqk_spin_until_other_started;
	hog->data = b;
	queue_work_on(cpu, wq, &hog->work);
	WQK_WAIT(test, &hog->started);
	queue_work_on(cpu, wq, &b->work);
	WQK_WAIT(test, &b->finished);
	WQK_WAIT(test, &hog->finished);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, b->cpu, cpu);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_WAITING), 2);
	KUNIT_EXPECT_GE(test, wqk_hist_from(test, wq, WQ_HIST_WAITING,
					    WQK_HIST_HOG_MIN_US), 1);
}

#ifdef WQ_HAS_WORKER_CREATION_FAULT
#define WQK_HIST_CREATE_MS	300

/*
 * An item of an unbound pool whose workers are all busy waits for a
 * worker to be created, and counts that time: worker creation fails for
 * 300 ms, then the item starts on the worker created after it.  The
 * items that found a worker started within 100 ms, so exactly one counts
 * 300 ms or more.
 */
static void hist_counts_the_time_waiting_for_a_worker_to_be_created(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_probe **ps = kunit_kcalloc(test, WQK_RESCUE_BLOCKERS,
					      sizeof(*ps), GFP_KERNEL);
	int i, n, cpu = wqk_last_online_cpu();

	KUNIT_ASSERT_NOT_NULL(test, ps);
	/* a pool of its own: no other workqueue's items or idle workers */
	attrs->nice = 7;
	cpumask_copy(attrs->cpumask, cpumask_of(cpu));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	wqk_hist_ready(test, wq, cpu, false);
	wq_fail_worker_creation(true);
	wqk_defer(test, wqk_creation_fault_off, NULL);
	for (n = 0; n < WQK_RESCUE_BLOCKERS; n++) {
		ps[n] = wqk_gated_probe(test, NULL);
		queue_work_on(cpu, wq, &ps[n]->work);
		if (!wait_for_completion_timeout(&ps[n]->started,
						 msecs_to_jiffies(2 * WQK_SETTLE_MS)))
			break;
	}
	if (n == WQK_RESCUE_BLOCKERS)
		kunit_skip(test, "every item found a worker");
	msleep(WQK_HIST_CREATE_MS);
	wq_fail_worker_creation(false);
	WQK_WAIT(test, &ps[n]->started);
	for (i = 0; i <= n; i++)
		wqk_open(ps[i]);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_WAITING), n + 1);
	KUNIT_EXPECT_EQ(test, wqk_hist_from(test, wq, WQ_HIST_WAITING,
					    WQK_HIST_CREATE_MS * USEC_PER_MSEC), 1);
}
#endif

/* A sleeping item counts its sleep on the clock, not on the CPU. */
static void hist_counts_a_sleep_as_run_time_not_cpu_time(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	int run;

	p->sleep_ms = WQK_HIST_HOLD_MS;
	queue_work_on(cpu, wq, &p->work);
	flush_work(&p->work);
	KUNIT_ASSERT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), 1);
	KUNIT_ASSERT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_CPU), 1);
	run = wqk_hist_top_bucket(test, wq, WQ_HIST_RUNNING);
	KUNIT_EXPECT_GE(test, run, fls64(WQK_HIST_HOLD_MS * USEC_PER_MSEC));
	KUNIT_EXPECT_LT(test, wqk_hist_top_bucket(test, wq, WQ_HIST_CPU), run);
}

/* An item that burns the CPU counts that time on the CPU. */
static void hist_counts_a_burn_as_cpu_time(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	p->burn_us = WQK_HIST_SPIN_MS * USEC_PER_MSEC;
	queue_work_on(cpu, wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_CPU), 1);
	/* other tasks may preempt the burn: half of it is enough */
	KUNIT_EXPECT_EQ(test, wqk_hist_from(test, wq, WQ_HIST_CPU,
					    WQK_HIST_SPIN_MS * USEC_PER_MSEC / 2), 1);
}

/* A BH item runs in softirq: its run time counts, it has no CPU time. */
static void hist_counts_bh_items_without_cpu_time(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_BH, 0);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	wqk_hist_ready(test, wq, cpu, true);
	queue_work_on(cpu, wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), 1);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_CPU), 0);
}

struct wqk_hist_opener {
	struct delayed_work dwork;
	struct wqk_probe *p;
};

static void wqk_hist_open_fn(struct work_struct *work)
{
	wqk_open(container_of(to_delayed_work(work), struct wqk_hist_opener,
			      dwork)->p);
}

static void wqk_hist_opener_cleanup(void *arg)
{
	cancel_delayed_work_sync(&((struct wqk_hist_opener *)arg)->dwork);
}

/*
 * Wait with @op for an item of @wq, queued on @cpu as @op's item, that
 * @o lets go after WQK_HIST_HOLD_MS.
 */
static void wqk_hist_held_wait(struct kunit *test, struct workqueue_struct *wq,
			       struct wqk_hist_opener *o, enum wqk_wait_op op,
			       int cpu)
{
	struct wqk_probe *p = wqk_gated_probe(test, NULL);

	o->p = p;
	wqk_queue_for(op, wq, p, cpu);
	WQK_WAIT(test, &p->started);
	/* the wait below begins before the opener's timer can expire */
	queue_delayed_work(system_wq, &o->dwork,
			   msecs_to_jiffies(WQK_HIST_HOLD_MS) + 1);
	wqk_wait_call(op, wq, p);
	KUNIT_EXPECT_TRUE_MSG(test, completion_done(&p->finished),
			      "op %d returned before the item", op);
}

/*
 * Flush waits are all counted: every call that waits for an item, and
 * flush_workqueue(), waiting for an item that runs 30 ms more, counts
 * about that long; flush_workqueue() on the idle workqueue counts too.
 */
static void hist_counts_the_wait_of_every_flush_and_sync_call(struct kunit *test)
{
	static const enum wqk_wait_op ops[] = {
		WQK_FLUSH_WORK, WQK_FLUSH_WORKQUEUE, WQK_FLUSH_DELAYED,
		WQK_FLUSH_RCU, WQK_CANCEL_SYNC, WQK_CANCEL_DELAYED_SYNC,
		WQK_DISABLE_SYNC, WQK_DISABLE_DELAYED_SYNC,
#ifdef WQ_HAS_PRECISE_WORK
		WQK_FLUSH_PRECISE, WQK_CANCEL_PRECISE_SYNC,
		WQK_DISABLE_PRECISE_SYNC,
#endif
	};
	int cpu = wqk_last_online_cpu(), i;
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	struct wqk_hist_opener *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	INIT_DELAYED_WORK(&o->dwork, wqk_hist_open_fn);
	wqk_defer(test, wqk_hist_opener_cleanup, o);
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		wqk_hist_held_wait(test, wq, o, ops[i], cpu);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_FLUSH),
			ARRAY_SIZE(ops) + 1);
	KUNIT_EXPECT_EQ(test, wqk_hist_from(test, wq, WQ_HIST_FLUSH,
					    WQK_HIST_HOLD_MS * USEC_PER_MSEC),
			ARRAY_SIZE(ops));
}

#define WQK_HIST_PERIOD	4

/*
 * With one item in 4 sampled, each sample stands for the 4 items queued
 * since the one before: 1 + 4n items count as 1 + 4n.
 */
static void hist_samples_stand_for_the_items_between_them(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), i, n = 1 + 10 * WQK_HIST_PERIOD;
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	wqk_hist_period(test, WQK_HIST_PERIOD);
	for (i = 0; i < n; i++) {
		queue_work_on(cpu, wq, &p->work);
		flush_work(&p->work);
	}
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), n);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_QUEUED), n);
}

/*
 * One sample at a time per pwq: items queued while one is in flight count
 * with the next sample, and a sampled item cancelled before it runs is
 * left out, the items it stood for are not.
 */
static void hist_counts_items_behind_a_sample_and_not_a_cancelled_one(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), i;
	struct workqueue_struct *wq = wqk_hist_wq(test, 1, cpu);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *p[4];

	for (i = 0; i < ARRAY_SIZE(p); i++)
		p[i] = wqk_probe_new(test, NULL);
	queue_work_on(cpu, wq, &a->work);		/* sample 1 */
	WQK_WAIT(test, &a->started);
	queue_work_on(cpu, wq, &p[0]->work);		/* sample 2, inactive */
	queue_work_on(cpu, wq, &p[1]->work);		/* carried */
	queue_work_on(cpu, wq, &p[2]->work);		/* carried */
	KUNIT_EXPECT_TRUE(test, cancel_work(&p[0]->work));
	wqk_open(a);
	flush_workqueue(wq);
	queue_work_on(cpu, wq, &p[3]->work);		/* stands for 3 */
	flush_workqueue(wq);
	/* a, p[1], p[2] and p[3] ran */
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), 4);
}

/* A reset clears every histogram of the workqueue, and only its. */
static void hist_reset_clears_every_histogram(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), k;
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	struct workqueue_struct *other = wqk_hist_wq(test, 0, cpu);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_probe *q = wqk_probe_new(test, NULL);

	queue_work_on(cpu, wq, &p->work);
	queue_work_on(cpu, other, &q->work);
	flush_work(&p->work);
	flush_work(&q->work);
	flush_workqueue(wq);
	for (k = 0; k < WQ_NR_HISTS; k++)
		KUNIT_EXPECT_GT_MSG(test, wqk_hist_total(test, wq, k), 0,
				    "histogram %d", k);
	workqueue_hist_reset(wq);
	for (k = 0; k < WQ_NR_HISTS; k++)
		KUNIT_EXPECT_EQ_MSG(test, wqk_hist_total(test, wq, k), 0,
				    "histogram %d", k);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, other, WQ_HIST_RUNNING), 1);
}

/* Bad arguments: a period above the maximum changes nothing. */
static void hist_refuses_a_period_out_of_range(struct kunit *test)
{
	wqk_hist_period(test, 7);
	KUNIT_EXPECT_EQ(test, workqueue_hist_set_period(1 << 20), -EINVAL);
	KUNIT_EXPECT_EQ(test, workqueue_hist_set_period(7), 7);
}

/* Bad arguments: a kind out of range is refused, and nothing is read. */
static void hist_read_refuses_a_bad_kind(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct workqueue_struct *wq = wqk_hist_wq(test, 0, cpu);
	u64 b[WQ_HIST_BUCKETS];

	b[0] = 42;
	KUNIT_EXPECT_EQ(test, workqueue_hist_read(wq, WQ_NR_HISTS, b), -EINVAL);
	KUNIT_EXPECT_EQ(test, workqueue_hist_read(wq, -1, b), -EINVAL);
	KUNIT_EXPECT_EQ(test, b[0], 42);
	KUNIT_EXPECT_EQ(test, workqueue_hist_read(wq, WQ_HIST_RUNNING, b), 0);
}

/*
 * Every item counts, a new pwq's first too: a per-CPU workqueue that ran
 * one item on each online CPU and five more on the last, each timed
 * (hist_period 1), counts them all in each item histogram, with no item
 * run before to ready its pwqs.
 */
static void hist_counts_the_first_item_of_every_pwq(struct kunit *test)
{
	static const enum wq_hist_kind kinds[] = {
		WQ_HIST_QUEUED, WQ_HIST_WAITING, WQ_HIST_RUNNING, WQ_HIST_CPU,
	};
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	int cpu, i, last = wqk_last_online_cpu(), items = 0;

	wqk_hist_period(test, 1);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		for (i = 0; i < (cpu == last ? 6 : 1); i++, items++) {
			struct wqk_probe *p = wqk_probe_new(test, NULL);

			queue_work_on(cpu, wq, &p->work);
			flush_work(&p->work);
		}
	}
	cpus_read_unlock();
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		KUNIT_EXPECT_EQ_MSG(test, wqk_hist_total(test, wq, kinds[i]), items,
				    "histogram %d", kinds[i]);
}

/* The workqueue_sample events of one workqueue, by name. */
struct wqk_samples {
	const char *wq_name;
	atomic_t nr;
	atomic_t weight;
	atomic_t other_function;	/* not wqk_probe_fn */
	atomic_t cpu_above_run;
};

static void wqk_sample_probe(void *data, work_func_t function, const char *wq_name,
			     u64 latency, u64 run, u64 cpu, unsigned int weight)
{
	struct wqk_samples *s = data;

	if (strcmp(wq_name, s->wq_name))
		return;
	atomic_inc(&s->nr);
	atomic_add(weight, &s->weight);
	if (function != wqk_probe_fn)
		atomic_inc(&s->other_function);
	if (cpu > run)
		atomic_inc(&s->cpu_above_run);
}

static void wqk_samples_off(void *arg)
{
	unregister_trace_workqueue_sample(wqk_sample_probe, arg);
	tracepoint_synchronize_unregister();
}

/*
 * A workqueue named in @name, its pwq of @cpu ready, and the samples
 * traced for it from here on.
 */
static struct wqk_samples *wqk_samples_on(struct kunit *test, char *name,
					  struct workqueue_struct **wq, int cpu)
{
	struct wqk_samples *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	*wq = wqk_named_wq(test, name);
	wqk_hist_ready(test, *wq, cpu, false);
	s->wq_name = name;
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_sample(wqk_sample_probe, s), 0);
	wqk_defer(test, wqk_samples_off, s);
	return s;
}

/* Queue @p on @cpu of @wq and wait for it, @n times. */
static void wqk_run_n(struct workqueue_struct *wq, struct wqk_probe *p, int cpu,
		      int n)
{
	while (n--) {
		queue_work_on(cpu, wq, &p->work);
		flush_work(&p->work);
	}
}

/*
 * workqueue:workqueue_sample traces each sample the histograms count,
 * with its function, its workqueue, run times (on the CPU no more than
 * on the clock) and the items it stands for: with one item in 4 timed,
 * 1 + 4n items give 1 + n events whose weights add up to 1 + 4n, the
 * histograms' total.
 */
static void hist_sample_events_carry_what_the_histograms_count(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), n = 1 + 5 * WQK_HIST_PERIOD;
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq;
	char name[WQK_NAME_LEN];
	struct wqk_samples *s = wqk_samples_on(test, name, &wq, cpu);

	wqk_hist_period(test, WQK_HIST_PERIOD);
	wqk_run_n(wq, p, cpu, n);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr), 1 + 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->weight), n);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->other_function), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->cpu_above_run), 0);
}

#define WQK_HIST_NAP_MS	20

static void wqk_hist_nap_fn(struct work_struct *work)
{
	msleep(WQK_HIST_NAP_MS);
}

/* The worst-item lists of @wq as their sysfs file shows them, logged. */
static char *wqk_worst_page(struct kunit *test, struct workqueue_struct *wq)
{
	char *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_GE(test, wq_hist_show_kind(wq, WQ_NR_HISTS, page), 0);
	kunit_info(test, "worst items:\n%s", page);
	return page;
}

/* Whether the worst-item lists of @wq name the function @name. */
static bool wqk_worst_names(struct kunit *test, struct workqueue_struct *wq,
			    const char *name)
{
	return strstr(wqk_worst_page(test, wq), name);
}

/*
 * The worst-item lists see sampled items only: with one item in 2 timed,
 * a slow item between two timed fast ones is not listed, however slow;
 * the same item is once it is the one timed.  (After wqk_hist_ready() the
 * first item is timed, then every second one.)
 */
static void hist_worst_lists_see_sampled_items_only(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *fast = wqk_probe_new(test, NULL);
	struct work_struct *nap = kunit_kzalloc(test, sizeof(*nap), GFP_KERNEL);
	struct workqueue_struct *wq;
	char name[WQK_NAME_LEN];
	struct wqk_samples *s = wqk_samples_on(test, name, &wq, cpu);

	KUNIT_ASSERT_NOT_NULL(test, nap);
	INIT_WORK(nap, wqk_hist_nap_fn);
	wqk_hist_period(test, 2);
	wqk_run_n(wq, fast, cpu, 1);
	queue_work_on(cpu, wq, nap);
	flush_work(nap);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr), 1);
	KUNIT_EXPECT_TRUE(test, wqk_worst_names(test, wq, "wqk_probe_fn"));
	KUNIT_EXPECT_FALSE(test, wqk_worst_names(test, wq, "wqk_hist_nap_fn"));

	queue_work_on(cpu, wq, nap);
	flush_work(nap);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr), 2);
	KUNIT_EXPECT_TRUE(test, wqk_worst_names(test, wq, "wqk_hist_nap_fn"));
}

/*
 * The first line of the worst lists in @page that starts with @kind
 * ("start" or "run"): its microseconds in *@us and its function's name.
 */
static bool wqk_worst_first(const char *page, const char *kind, u64 *us,
			    char *name, size_t size)
{
	size_t len = strlen(kind);
	const char *line = page;

	while (*line) {
		const char *end = strchrnul(line, '\n'), *sp;

		if (!strncmp(line, kind, len) && line[len] == ' ') {
			sp = strchr(line + len + 1, ' ');
			if (!sp || sp > end || sscanf(line + len, " %llu", us) != 1)
				return false;
			strscpy(name, sp + 1, min_t(size_t, size, end - sp));
			return true;
		}
		line = *end ? end + 1 : end;
	}
	return false;
}

#define WQK_HIST_HELD_MS	100

/*
 * The worst lists rank, the slowest first: of two items on a workqueue of
 * max_active 1, the one held for 100 ms is the longest run, and the one
 * queued behind it the slowest start.  Each took at least as long as the
 * hold, timed with the histograms' own clock: msleep() counts jiffies,
 * which under emulation may run a little ahead of it.
 */
static void hist_worst_lists_put_the_slowest_first(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *held = wqk_gated_probe(test, NULL);
	struct work_struct *nap = kunit_kzalloc(test, sizeof(*nap), GFP_KERNEL);
	char name[64], *page;
	u64 us, held_us;

	KUNIT_ASSERT_NOT_NULL(test, nap);
	INIT_WORK(nap, wqk_hist_nap_fn);
	wqk_hist_ready(test, wq, cpu, false);
	queue_work_on(cpu, wq, &held->work);
	WQK_WAIT(test, &held->started);
	queue_work_on(cpu, wq, nap);
	held_us = ktime_get_mono_fast_ns();
	msleep(WQK_HIST_HELD_MS);
	held_us = (ktime_get_mono_fast_ns() - held_us) / NSEC_PER_USEC;
	wqk_open(held);
	flush_work(nap);
	page = wqk_worst_page(test, wq);
	KUNIT_ASSERT_TRUE(test, wqk_worst_first(page, "start", &us, name, sizeof(name)));
	KUNIT_EXPECT_STREQ(test, name, "wqk_hist_nap_fn");
	KUNIT_EXPECT_GE(test, us, held_us);
	KUNIT_ASSERT_TRUE(test, wqk_worst_first(page, "run", &us, name, sizeof(name)));
	KUNIT_EXPECT_STREQ(test, name, "wqk_probe_fn");
	KUNIT_EXPECT_GE(test, us, held_us);
}

/* Slower than 10 items a second on a CPU. */
#define WQK_HIST_SLOW_MS	150

/*
 * The adaptive period (workqueue.hist_period 0) times every item of a
 * workqueue that queues fewer than 10 a second on a CPU, each standing
 * for itself; after a burst it samples less, and the sample that follows
 * it stands for every item since, so that the counts are exact again.
 */
static void hist_adaptive_period_times_every_slow_item(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), i, items;
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq;
	char name[WQK_NAME_LEN];
	struct wqk_samples *s = wqk_samples_on(test, name, &wq, cpu);

	wqk_hist_period(test, 0);
	for (i = 0; i < 3; i++) {
		msleep(WQK_HIST_SLOW_MS);
		wqk_run_n(wq, p, cpu, 1);
		KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), i + 1);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->weight), 3);
	wqk_run_n(wq, p, cpu, 8);
	items = 3 + 8;
	for (i = 0; i < 16 && wqk_hist_total(test, wq, WQ_HIST_RUNNING) != items; i++) {
		msleep(WQK_HIST_SLOW_MS);
		wqk_run_n(wq, p, cpu, 1);
		items++;
	}
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), items);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->weight), items);
}

/* Every histogram's total. */
static void wqk_hist_totals(struct kunit *test, struct workqueue_struct *wq,
			    u64 *totals)
{
	int k;

	for (k = 0; k < WQ_NR_HISTS; k++)
		totals[k] = wqk_hist_total(test, wq, k);
}

/*
 * An unbound workqueue's counts survive the release of its pwqs: three
 * attribute changes replace them, the item histograms' totals stay, and
 * the items of the new pwqs add to them.
 */
static void hist_counts_survive_a_pwq_release(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	u64 before[WQ_NR_HISTS], after[WQ_NR_HISTS];
	int i, k;

	wqk_hist_ready(test, wq, WORK_CPU_UNBOUND, false);
	wqk_run_n(wq, p, WORK_CPU_UNBOUND, 3);
	wqk_hist_totals(test, wq, before);
	KUNIT_EXPECT_EQ(test, before[WQ_HIST_RUNNING], 3);
	for (i = 1; i <= 3; i++) {
		attrs->nice = i;
		KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
		wqk_hist_totals(test, wq, after);
		/* the item histograms: flush waits count the wait of the calls */
		for (k = 0; k < WQ_HIST_FLUSH; k++)
			KUNIT_EXPECT_EQ_MSG(test, after[k], before[k],
					    "histogram %d after change %d", k, i);
	}
	wqk_run_n(wq, p, WORK_CPU_UNBOUND, 2);
	KUNIT_EXPECT_EQ(test, wqk_hist_total(test, wq, WQ_HIST_RUNNING), 5);
}

static struct kunit_case wqk_hist_cases[] = {
	KUNIT_CASE_PARAM(hist_counts_the_time_behind_max_active, wqk_kind_gen_params),
	KUNIT_CASE(hist_counts_the_time_waiting_for_a_worker),
	KUNIT_CASE(hist_counts_the_time_waiting_behind_a_cpu_hog),
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	KUNIT_CASE(hist_counts_the_time_waiting_for_a_worker_to_be_created),
#endif
	KUNIT_CASE(hist_counts_a_sleep_as_run_time_not_cpu_time),
	KUNIT_CASE(hist_counts_a_burn_as_cpu_time),
	KUNIT_CASE(hist_counts_bh_items_without_cpu_time),
	KUNIT_CASE(hist_counts_the_wait_of_every_flush_and_sync_call),
	KUNIT_CASE(hist_samples_stand_for_the_items_between_them),
	KUNIT_CASE(hist_counts_items_behind_a_sample_and_not_a_cancelled_one),
	KUNIT_CASE(hist_reset_clears_every_histogram),
	KUNIT_CASE(hist_refuses_a_period_out_of_range),
	KUNIT_CASE(hist_read_refuses_a_bad_kind),
	KUNIT_CASE(hist_counts_the_first_item_of_every_pwq),
	KUNIT_CASE(hist_sample_events_carry_what_the_histograms_count),
	KUNIT_CASE(hist_worst_lists_see_sampled_items_only),
	KUNIT_CASE(hist_worst_lists_put_the_slowest_first),
	KUNIT_CASE_SLOW(hist_adaptive_period_times_every_slow_item),
	KUNIT_CASE(hist_counts_survive_a_pwq_release),
	{}
};
#else
WQK_ABSENT_CASE(histograms_are_absent, "needs WQ_HAS_HISTOGRAMS (no histograms in this tree)")

static struct kunit_case wqk_hist_cases[] = {
	KUNIT_CASE(histograms_are_absent),
	{}
};
#endif

static struct kunit_suite wqk_hist_suite = {
	.name = "workqueue_hist",
	.test_cases = wqk_hist_cases,
};

kunit_test_suites(&wqk_hist_suite);
