// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit conformance suite for workqueues.
 *
 * Each case states one behaviour that callers of the 6.12 workqueue API rely
 * on.  The suite runs unchanged on stock 6.12 and on the rework; cases for
 * capabilities that stock lacks detect them with a feature macro from
 * <linux/workqueue.h> and skip with a reason.
 *
 * Map of this file:
 *   1. probes: an instrumented work item, trackers and helpers
 *   2. workqueue_queue       queue_work*() return values, CPU choice
 *   3. workqueue_ordered     ordered workqueues, max_active, min_active
 *   4. workqueue_concurrency concurrency management of per-CPU pools
 *   5. workqueue_flush       flush_work/flush_workqueue/drain_workqueue
 *   6. workqueue_cancel      cancel and delayed/rcu work
 *   7. workqueue_disable     disable/enable counts
 *   8. workqueue_bh          WQ_BH workqueues
 *   9. workqueue_unbound     unbound attributes and affinity scopes
 *  10. workqueue_introspect  work_busy, current_work, congestion, helpers
 *  11. workqueue_rescuer     WQ_MEM_RECLAIM
 *  12. workqueue_hotplug     CPU hotplug
 *  13. workqueue_lifecycle   creation and destruction, their error paths
 *  14. workqueue_stress      random queue/cancel/flush, exactly-once
 *  15. workqueue_rt          the WQ_RT class (skipped where it is absent)
 *  16. workqueue_pi          priority inheritance on wait (likewise)
 *  17. workqueue_precise     precise delayed work (likewise)
 *  18. workqueue_hist        per-workqueue histograms (likewise)
 *
 * Nothing here asserts speed: waits have generous timeouts that only matter
 * when a behaviour is broken, and "must not happen" checks are made by the
 * items themselves at the moment they run.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kmsg_dump.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/nodemask.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/rtmutex.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/isolation.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/topology.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#include <trace/events/workqueue.h>
#ifdef WQ_HAS_PRECISE_WORK
#include <linux/workqueue_precise.h>
#endif
#ifdef WQ_HAS_HISTOGRAMS
#include <linux/workqueue_hist.h>
#endif
#include <uapi/linux/sched/types.h>

#include "workqueue_internal.h"
/* the rework's test hooks, where the tree has them */
#if __has_include("workqueue_test.h")
#include "workqueue_test.h"
#endif

/* How long a wait may take before the behaviour counts as broken. */
#define WQK_TIMEOUT		(20 * HZ)
/* Grace period given to something that must *not* happen. */
#define WQK_SETTLE_MS		50

/* ------------------------------------------------------------------ */
/* 1. probes                                                           */
/* ------------------------------------------------------------------ */

/**
 * struct wqk_tracker - counts shared by the probes of one case
 * @running: probes inside their function right now
 * @peak: largest @running seen
 * @started: probe executions begun
 * @finished: probe executions ended
 */
struct wqk_tracker {
	atomic_t running;
	atomic_t peak;
	atomic_t started;
	atomic_t finished;
};

struct wqk_probe;
typedef void (*wqk_hook_fn)(struct wqk_probe *p);

/**
 * struct wqk_probe - an instrumented work item
 * @work: the item when queued as plain work
 * @dwork: the item when queued as delayed work
 * @rwork: the item when queued as RCU work
 * @pw: the item when queued as precise work (where the tree has it)
 * @test: the case it belongs to
 * @tracker: counts shared with other probes, or %NULL
 * @wq: where hooks requeue it
 * @stop: requeueing hooks stop requeueing (set by the case and by the
 *	teardown, so that a failed case does not leave a live requeuer that
 *	the teardown's destroy_workqueue() would drain forever)
 * @gated: wait on @gate before finishing (never in BH context)
 * @gate: opened by the case (and by the teardown)
 * @burn_us: CPU time to burn without sleeping
 * @sleep_ms: time to sleep
 * @hook: case-specific step, run last
 * @data: for @hook
 * @started: completed each time an execution begins
 * @finished: completed each time an execution ends
 * @runs: executions begun
 * @cpu: CPU of the last execution
 * @nice: nice level of the last execution
 * @policy: scheduling policy of the last execution
 * @rt_priority: its real-time priority (0 outside SCHED_FIFO/RR)
 * @comm: the executing task's name
 * @end_nice: nice level at the end of the last execution (after the gate)
 * @end_policy: scheduling policy there
 * @end_rt_priority: its real-time priority there
 * @in_softirq: the last execution was in softirq context
 * @in_interrupt: the last execution was in interrupt context
 * @rescuer: the last execution was by a rescuer
 * @current_work: what current_work() returned in the last execution
 * @ran_at: jiffies when the last execution began
 * @running_at_start: probes of @tracker running when it began
 * @place: executions of @tracker's probes ended up to the end of this one
 * @cpu_ns: CPU time charged to the last execution, from its first line to
 *	its last (a host preemption anywhere in it is charged too)
 * @nr_allowed: CPUs the executing task was allowed to run on
 * @task: the task of the last execution (valid while its workqueue lives,
 *	for rescuers)
 *
 * Exactly one of @work, @dwork, @rwork and @pw is used by a probe.
 */
struct wqk_probe {
	struct work_struct work;
	struct delayed_work dwork;
	struct rcu_work rwork;
#ifdef WQ_HAS_PRECISE_WORK
	struct precise_work pw;
#endif
	struct kunit *test;
	struct wqk_tracker *tracker;
	struct workqueue_struct *wq;
	bool stop;

	bool gated;
	struct completion gate;
	unsigned int burn_us;
	unsigned int sleep_ms;
	wqk_hook_fn hook;
	void *data;

	struct completion started;
	struct completion finished;
	atomic_t runs;
	int cpu;
	int nice;
	int policy;
	int rt_priority;
	char comm[TASK_COMM_LEN];
	int end_nice;
	int end_policy;
	int end_rt_priority;
	bool in_softirq;
	bool in_interrupt;
	bool rescuer;
	struct work_struct *current_work;
	unsigned long ran_at;
	u64 cpu_ns;
	int running_at_start;
	int place;
	int nr_allowed;
	struct task_struct *task;
};

static void wqk_probe_body(struct wqk_probe *p)
{
	struct wqk_tracker *t = p->tracker;
	u64 cpu0 = task_sched_runtime(current);
	int running = 0;

	p->cpu = raw_smp_processor_id();
	p->nr_allowed = current->nr_cpus_allowed;
	p->task = current;
	p->nice = task_nice(current);
	p->policy = current->policy;
	p->rt_priority = current->rt_priority;
	if (in_task())	/* the comm lock is not softirq-safe */
		get_task_comm(p->comm, current);
	p->in_softirq = in_serving_softirq();
	p->in_interrupt = in_interrupt();
	p->rescuer = current_is_workqueue_rescuer();
	p->current_work = current_work();
	p->ran_at = jiffies;

	if (t) {
		int peak = atomic_read(&t->peak);

		running = atomic_inc_return(&t->running);
		while (running > peak &&
		       !atomic_try_cmpxchg(&t->peak, &peak, running))
			;
		atomic_inc(&t->started);
		wake_up_var(&t->started);
	}
	p->running_at_start = running;
	atomic_inc(&p->runs);
	complete(&p->started);

	if (p->gated)
		wait_for_completion(&p->gate);
	if (p->sleep_ms)
		msleep(p->sleep_ms);
	if (p->burn_us)
		udelay(p->burn_us);
	if (p->hook)
		p->hook(p);

	p->end_nice = task_nice(current);
	p->end_policy = current->policy;
	p->end_rt_priority = current->rt_priority;
	/* more than burn_us when the vCPU was preempted on the host */
	p->cpu_ns = task_sched_runtime(current) - cpu0;
	if (t) {
		atomic_dec(&t->running);
		p->place = atomic_inc_return(&t->finished);
		wake_up_var(&t->finished);
	}
	complete(&p->finished);
}

static void wqk_probe_fn(struct work_struct *work)
{
	wqk_probe_body(container_of(work, struct wqk_probe, work));
}

static void wqk_probe_dfn(struct work_struct *work)
{
	wqk_probe_body(container_of(to_delayed_work(work), struct wqk_probe,
				    dwork));
}

static void wqk_probe_rfn(struct work_struct *work)
{
	wqk_probe_body(container_of(to_rcu_work(work), struct wqk_probe,
				    rwork));
}

#ifdef WQ_HAS_PRECISE_WORK
static void wqk_probe_pfn(struct work_struct *work)
{
	wqk_probe_body(container_of(to_precise_work(work), struct wqk_probe,
				    pw));
}
#endif

/* Run @fn(@arg) when the case ends; fail the case if that cannot be set up. */
static void wqk_defer(struct kunit *test, kunit_action_t *fn, void *arg)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fn, arg), 0);
}

/* Test teardown: stop requeueing, open the gate, make sure the item is gone. */
static void wqk_probe_cleanup(void *arg)
{
	struct wqk_probe *p = arg;

	WRITE_ONCE(p->stop, true);
	complete_all(&p->gate);
	cancel_work_sync(&p->work);
	cancel_delayed_work_sync(&p->dwork);
	flush_rcu_work(&p->rwork);
#ifdef WQ_HAS_PRECISE_WORK
	cancel_precise_work_sync(&p->pw);
#endif
}

/*
 * Probes for BH workqueues are initialised at their own INIT_WORK() site:
 * lockdep keys a work item's map by that site, and one map used both in
 * softirq and in process context is an inconsistent lock state.
 */
static struct wqk_probe *__wqk_probe_new(struct kunit *test,
					 struct wqk_tracker *t, bool bh)
{
	struct wqk_probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->test = test;
	p->tracker = t;
	p->cpu = -1;
	if (bh)
		INIT_WORK(&p->work, wqk_probe_fn);
	else
		INIT_WORK(&p->work, wqk_probe_fn);
	INIT_DELAYED_WORK(&p->dwork, wqk_probe_dfn);
	INIT_RCU_WORK(&p->rwork, wqk_probe_rfn);
#ifdef WQ_HAS_PRECISE_WORK
	INIT_PRECISE_WORK(&p->pw, wqk_probe_pfn);
#endif
	init_completion(&p->gate);
	init_completion(&p->started);
	init_completion(&p->finished);
	wqk_defer(test, wqk_probe_cleanup, p);
	return p;
}

static struct wqk_probe *wqk_probe_new(struct kunit *test,
				       struct wqk_tracker *t)
{
	return __wqk_probe_new(test, t, false);
}

static struct wqk_probe *wqk_bh_probe_new(struct kunit *test,
					  struct wqk_tracker *t)
{
	return __wqk_probe_new(test, t, true);
}

static struct wqk_probe *wqk_gated_probe(struct kunit *test,
					 struct wqk_tracker *t)
{
	struct wqk_probe *p = wqk_probe_new(test, t);

	p->gated = true;
	return p;
}

static void wqk_open(struct wqk_probe *p)
{
	complete_all(&p->gate);
}

static struct wqk_tracker *wqk_tracker_new(struct kunit *test)
{
	struct wqk_tracker *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* Wait for one completion; fail the case when it times out. */
#define WQK_WAIT(test, comp)						\
	KUNIT_ASSERT_GT_MSG(test, wait_for_completion_timeout(comp,	\
			    WQK_TIMEOUT), 0, "timed out waiting for %s", #comp)

/* Wait until @t counted at least @n starts (or finishes). */
static void wqk_wait_count(struct kunit *test, atomic_t *count, int n,
			   const char *what)
{
	long left = wait_var_event_timeout(count, atomic_read(count) >= n,
					   WQK_TIMEOUT);

	KUNIT_ASSERT_GT_MSG(test, left, 0, "only %d of %d items %s",
			    atomic_read(count), n, what);
}

#define WQK_WAIT_STARTED(test, t, n) \
	wqk_wait_count(test, &(t)->started, n, "started")
#define WQK_WAIT_FINISHED(test, t, n) \
	wqk_wait_count(test, &(t)->finished, n, "finished")

KUNIT_DEFINE_ACTION_WRAPPER(wqk_destroy_wq_action, destroy_workqueue,
			    struct workqueue_struct *);

static struct workqueue_struct *wqk_wq_new(struct kunit *test,
					   unsigned int flags, int max_active)
{
	struct workqueue_struct *wq;

	wq = alloc_workqueue("wqk_%lx", flags, max_active,
			     get_random_u32() & 0xffffUL);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	return wq;
}

KUNIT_DEFINE_ACTION_WRAPPER(wqk_free_attrs_action, free_workqueue_attrs,
			    struct workqueue_attrs *);

static struct workqueue_attrs *wqk_attrs_new(struct kunit *test)
{
	struct workqueue_attrs *attrs = alloc_workqueue_attrs();

	KUNIT_ASSERT_NOT_NULL(test, attrs);
	wqk_defer(test, wqk_free_attrs_action, attrs);
	return attrs;
}

static struct workqueue_struct *wqk_ordered_new(struct kunit *test)
{
	struct workqueue_struct *wq;

	wq = alloc_ordered_workqueue("wqk_ord_%x", 0, get_random_u32() & 0xffff);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	return wq;
}

/* An ordered workqueue held up by a gated item, for "pending" states. */
static struct workqueue_struct *wqk_blocked_wq(struct kunit *test,
					       struct wqk_probe **blocker)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);

	*blocker = wqk_gated_probe(test, NULL);
	queue_work(wq, &(*blocker)->work);
	WQK_WAIT(test, &(*blocker)->started);
	return wq;
}

/* The kinds of sleepable workqueue most cases run over. */
enum wqk_kind {
	WQK_PERCPU,
	WQK_HIGHPRI,
	WQK_UNBOUND,
	WQK_ORDERED,
	WQK_MEM_RECLAIM,
};

static const enum wqk_kind wqk_kinds[] = {
	WQK_PERCPU, WQK_HIGHPRI, WQK_UNBOUND, WQK_ORDERED, WQK_MEM_RECLAIM,
};

static void wqk_kind_desc(const enum wqk_kind *kind, char *desc)
{
	static const char * const names[] = {
		[WQK_PERCPU] = "percpu", [WQK_HIGHPRI] = "highpri",
		[WQK_UNBOUND] = "unbound", [WQK_ORDERED] = "ordered",
		[WQK_MEM_RECLAIM] = "mem_reclaim",
	};

	strscpy(desc, names[*kind], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_kind, wqk_kinds, wqk_kind_desc);

static struct workqueue_struct *wqk_kind_wq(struct kunit *test)
{
	const enum wqk_kind *kind = test->param_value;

	switch (*kind) {
	case WQK_HIGHPRI:
		return wqk_wq_new(test, WQ_HIGHPRI, 0);
	case WQK_UNBOUND:
		return wqk_wq_new(test, WQ_UNBOUND, 0);
	case WQK_ORDERED:
		return wqk_ordered_new(test);
	case WQK_MEM_RECLAIM:
		return wqk_wq_new(test, WQ_MEM_RECLAIM, 0);
	default:
		return wqk_wq_new(test, 0, 0);
	}
}

static bool wqk_is_ordered_kind(struct kunit *test)
{
	const enum wqk_kind *kind = test->param_value;

	return *kind == WQK_ORDERED;
}

/*
 * Two online CPUs, different when the machine has more than one, and on
 * different NUMA nodes when it has CPUs on two: a case that needs two
 * CPUs then also catches state kept per node where it must be global.
 */
static void wqk_two_cpus(int *a, int *b)
{
	int cpu;

	*a = cpumask_first(cpu_online_mask);
	*b = cpumask_next(*a, cpu_online_mask);
	if (*b >= nr_cpu_ids)
		*b = *a;
	for_each_online_cpu(cpu) {
		if (cpu_to_node(cpu) != cpu_to_node(*a)) {
			*b = cpu;
			break;
		}
	}
}

/*
 * A built-in parameter "workqueue.@name", set for one case: the value it
 * had comes back when the case ends.  The suite is built in, so it reaches
 * the parameter table as the kernel's command line parser does.
 */
struct wqk_param {
	const struct kernel_param *kp;
	char *old;
};

static const struct kernel_param *wqk_find_param(const char *name)
{
	const struct kernel_param *kp;
	char full[64];

	snprintf(full, sizeof(full), "workqueue.%s", name);
	for (kp = __start___param; kp < __stop___param; kp++)
		if (!strcmp(kp->name, full))
			return kp;
	return NULL;
}

static int wqk_param_write(const struct kernel_param *kp, const char *val)
{
	int ret;

	kernel_param_lock(NULL);
	ret = kp->ops->set(val, kp);
	kernel_param_unlock(NULL);
	return ret;
}

static void wqk_param_restore(void *arg)
{
	struct wqk_param *wp = arg;

	wqk_param_write(wp->kp, wp->old);
}

static void wqk_set_param(struct kunit *test, const char *name, const char *val)
{
	struct wqk_param *wp = kunit_kzalloc(test, sizeof(*wp), GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, wp);
	wp->kp = wqk_find_param(name);
	if (!wp->kp)
		kunit_skip(test, "no parameter workqueue.%s", name);
	wp->old = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wp->old);
	kernel_param_lock(NULL);
	len = wp->kp->ops->get(wp->old, wp->kp);
	kernel_param_unlock(NULL);
	KUNIT_ASSERT_GT(test, len, 0);
	strim(wp->old);
	KUNIT_ASSERT_EQ(test, wqk_param_write(wp->kp, val), 0);
	wqk_defer(test, wqk_param_restore, wp);
}

/*
 * Log lines between these two are a stack dump the case provokes on
 * purpose (the harness's log check lets a "Call Trace:" through there, and
 * nothing else).
 */
#define WQK_EXPECTED_LOCKUP_BEGIN "workqueue_kunit: expected workqueue lockup begins\n"
#define WQK_EXPECTED_LOCKUP_END	"workqueue_kunit: expected workqueue lockup ends\n"
#define WQK_EXPECTED_DUMP_BEGIN	"workqueue_kunit: expected stack dump begins\n"
#define WQK_EXPECTED_DUMP_END	"workqueue_kunit: expected stack dump ends\n"
/* ... and a WARN splat (or a warning with a stack dump) provoked on purpose */
#define WQK_EXPECTED_WARN_BEGIN	"workqueue_kunit: expected warning begins\n"
#define WQK_EXPECTED_WARN_END	"workqueue_kunit: expected warning ends\n"

/*
 * A case whose feature (or configuration) this tree lacks, stock 6.12's
 * for a suite of the rework's: it skips, saying what it needs.
 */
#define WQK_ABSENT_CASE(name, why)					\
static void name(struct kunit *test)					\
{									\
	kunit_skip(test, why);						\
}

static int wqk_last_online_cpu(void)
{
	return cpumask_last(cpu_online_mask);
}

/*
 * Kthreads that a case starts.  They park after running @fn until the case
 * ends, so that kthread_stop() in the cleanup always finds them alive.
 */
struct wqk_thread {
	struct task_struct *task;
	void (*fn)(struct wqk_thread *th);
	void *data;
	int index;
	bool running;
	struct completion done;
};

static int wqk_thread_main(void *arg)
{
	struct wqk_thread *th = arg;

	WRITE_ONCE(th->running, true);
	th->fn(th);
	complete(&th->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void wqk_thread_stop(void *arg)
{
	struct wqk_thread *th = arg;

	kthread_stop(th->task);
	put_task_struct(th->task);
}

/* Start @fn in a kthread, bound to @cpu unless it is negative. */
static struct wqk_thread *wqk_thread_run(struct kunit *test,
					 void (*fn)(struct wqk_thread *),
					 void *data, int index, int cpu)
{
	struct wqk_thread *th = kunit_kzalloc(test, sizeof(*th), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, th);
	th->fn = fn;
	th->data = data;
	th->index = index;
	init_completion(&th->done);
	if (cpu >= 0)
		th->task = kthread_create_on_cpu(wqk_thread_main, th, cpu,
						 "wqk_thread/%u");
	else
		th->task = kthread_create(wqk_thread_main, th, "wqk_thread");
	KUNIT_ASSERT_FALSE(test, IS_ERR(th->task));
	get_task_struct(th->task);
	wqk_defer(test, wqk_thread_stop, th);
	wake_up_process(th->task);
	return th;
}

/*
 * Wait until @th, having started its function, sleeps uninterruptibly
 * (inside the flush or cancel it was started for).
 */
static bool wqk_wait_blocked(struct wqk_thread *th)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (time_before(jiffies, deadline)) {
		if (READ_ONCE(th->running) && !completion_done(&th->done) &&
		    (READ_ONCE(th->task->__state) & TASK_UNINTERRUPTIBLE))
			return true;
		usleep_range(1000, 2000);
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* 2. workqueue_queue                                                  */
/* ------------------------------------------------------------------ */

static void queue_work_returns_false_while_pending(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_TRUE(test, queue_work(wq, &blocker->work));
	WQK_WAIT(test, &blocker->started);
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	KUNIT_EXPECT_TRUE(test, work_pending(&p->work));
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	KUNIT_EXPECT_FALSE(test, queue_work_on(raw_smp_processor_id(), wq,
					       &p->work));
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
}

static void queue_work_on_runs_on_requested_cpu(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_probe_new(test, NULL);

		KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &p->work));
		flush_work(&p->work);
		KUNIT_EXPECT_EQ_MSG(test, p->cpu, cpu, "queued on CPU %d", cpu);
	}
	cpus_read_unlock();
}

static void queue_work_runs_on_queueing_cpu(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	int cpu;

	cpu = get_cpu();
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	put_cpu();
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
}

static void queue_work_node_runs_on_that_node(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs;
	struct wqk_probe *p, *blocker;
	int node;

	attrs = alloc_workqueue_attrs();
	KUNIT_ASSERT_NOT_NULL(test, attrs);
	attrs->affn_scope = WQ_AFFN_NUMA;
	attrs->affn_strict = true;
	KUNIT_EXPECT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	free_workqueue_attrs(attrs);

	for_each_node_state(node, N_CPU) {
		p = wqk_probe_new(test, NULL);
		KUNIT_EXPECT_TRUE(test, queue_work_node(node, wq, &p->work));
		WQK_WAIT(test, &p->finished);
		flush_work(&p->work);
		KUNIT_EXPECT_EQ_MSG(test, cpu_to_node(p->cpu), node,
				    "ran on CPU %d", p->cpu);
	}

	/* Like queue_work(), it refuses an item that is already pending. */
	wq = wqk_blocked_wq(test, &blocker);
	p = wqk_probe_new(test, NULL);
	node = first_node(node_states[N_CPU]);
	KUNIT_EXPECT_TRUE(test, queue_work_node(node, wq, &p->work));
	KUNIT_EXPECT_FALSE(test, queue_work_node(node, wq, &p->work));
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

/* Runs on CPU a, requeued on CPU b while running: must not overlap. */
static void wqk_requeue_elsewhere(struct wqk_probe *p)
{
	int *other_cpu = p->data;

	if (atomic_read(&p->runs) == 1)
		KUNIT_EXPECT_TRUE(p->test, queue_work_on(*other_cpu, p->wq,
							 &p->work));
	msleep(20);
}

static void item_never_runs_concurrently_with_itself(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *p = wqk_probe_new(test, t);
	int a, b;

	wqk_two_cpus(&a, &b);
	p->wq = wq;
	p->data = &b;
	p->hook = wqk_requeue_elsewhere;
	KUNIT_EXPECT_TRUE(test, queue_work_on(a, wq, &p->work));
	WQK_WAIT_FINISHED(test, t, 2);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
}

/* The pending bit is clear while the function runs: it may requeue. */
static void wqk_requeue_once(struct wqk_probe *p)
{
	if (atomic_read(&p->runs) == 1) {
		KUNIT_EXPECT_FALSE(p->test, work_pending(&p->work));
		KUNIT_EXPECT_TRUE(p->test, queue_work(p->wq, &p->work));
	}
}

static void item_may_requeue_itself(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *p = wqk_probe_new(test, t);

	p->wq = wq;
	p->hook = wqk_requeue_once;
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	WQK_WAIT_FINISHED(test, t, 2);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 2);
}

static void current_work_is_the_running_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_NULL(test, current_work());
	queue_work(wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_PTR_EQ(test, p->current_work, &p->work);
	KUNIT_EXPECT_FALSE(test, p->in_interrupt);
}

static struct kunit_case wqk_queue_cases[] = {
	KUNIT_CASE(queue_work_returns_false_while_pending),
	KUNIT_CASE(queue_work_on_runs_on_requested_cpu),
	KUNIT_CASE(queue_work_runs_on_queueing_cpu),
	KUNIT_CASE(queue_work_node_runs_on_that_node),
	KUNIT_CASE(item_never_runs_concurrently_with_itself),
	KUNIT_CASE_PARAM(item_may_requeue_itself, wqk_kind_gen_params),
	KUNIT_CASE_PARAM(current_work_is_the_running_item, wqk_kind_gen_params),
	{}
};

static struct kunit_suite wqk_queue_suite = {
	.name = "workqueue_queue",
	.test_cases = wqk_queue_cases,
};

/* ------------------------------------------------------------------ */
/* 3. workqueue_ordered                                                */
/* ------------------------------------------------------------------ */

#define WQK_ORDER_PER_CPU	24

/**
 * struct wqk_order - queueing order versus execution order
 * @wq: the ordered workqueue
 * @lock: makes "take a sequence number, queue" one step
 * @next_seq: sequence number of the next queue_work()
 * @ran: sequence numbers in execution order
 * @nr_ran: entries in @ran
 */
struct wqk_order {
	struct workqueue_struct *wq;
	spinlock_t lock;	/* protects next_seq */
	int next_seq;
	int *ran;
	atomic_t nr_ran;
};

/* An item that knows its place in the queueing order. */
struct wqk_seq_probe {
	struct work_struct work;
	struct wqk_order *order;
	struct wqk_tracker *tracker;
	int seq;
};

static void wqk_seq_fn(struct work_struct *work)
{
	struct wqk_seq_probe *sp = container_of(work, struct wqk_seq_probe, work);
	struct wqk_order *o = sp->order;
	struct wqk_tracker *t = sp->tracker;
	int running = atomic_inc_return(&t->running);
	int peak = atomic_read(&t->peak);

	while (running > peak && !atomic_try_cmpxchg(&t->peak, &peak, running))
		;
	o->ran[atomic_inc_return(&o->nr_ran) - 1] = sp->seq;
	if (sp->seq % 3 == 0)
		usleep_range(100, 200);
	atomic_dec(&t->running);
	atomic_inc(&t->finished);
	wake_up_var(&t->finished);
}

static void wqk_order_queuer(struct wqk_thread *th)
{
	struct wqk_seq_probe *items = th->data;
	struct wqk_order *o = items[0].order;
	int i;

	for (i = 0; i < WQK_ORDER_PER_CPU; i++) {
		struct wqk_seq_probe *sp = &items[th->index * WQK_ORDER_PER_CPU + i];

		spin_lock(&o->lock);
		sp->seq = o->next_seq++;
		queue_work(o->wq, &sp->work);
		spin_unlock(&o->lock);
		if (i % 4 == 0)
			cond_resched();
	}
}

static void ordered_runs_in_queueing_order_from_all_cpus(struct kunit *test)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_order *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	int nr_cpus = num_online_cpus(), n = nr_cpus * WQK_ORDER_PER_CPU;
	struct wqk_seq_probe *items;
	int cpu, i = 0;

	KUNIT_ASSERT_NOT_NULL(test, o);
	items = kunit_kcalloc(test, n, sizeof(*items), GFP_KERNEL);
	o->ran = kunit_kcalloc(test, n, sizeof(int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	KUNIT_ASSERT_NOT_NULL(test, o->ran);
	o->wq = wqk_ordered_new(test);
	spin_lock_init(&o->lock);
	for (i = 0; i < n; i++) {
		INIT_WORK(&items[i].work, wqk_seq_fn);
		items[i].order = o;
		items[i].tracker = t;
	}

	i = 0;
	cpus_read_lock();
	for_each_online_cpu(cpu)
		wqk_thread_run(test, wqk_order_queuer, items, i++, cpu);
	cpus_read_unlock();
	WQK_WAIT_FINISHED(test, t, n);
	flush_workqueue(o->wq);

	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr_ran), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, o->ran[i], i, "position %d", i);
}

static void ordered_runs_one_at_a_time_when_items_sleep(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i, a, b;

	wqk_two_cpus(&a, &b);
	for (i = 0; i < 8; i++) {
		struct wqk_probe *p = wqk_probe_new(test, t);

		p->sleep_ms = 2;
		queue_work_on(i % 2 ? a : b, wq, &p->work);
	}
	WQK_WAIT_FINISHED(test, t, 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
}

/* Queue @n gated items on @cpu, let them all run, return the tracker. */
static struct wqk_tracker *wqk_run_gated(struct kunit *test,
					 struct workqueue_struct *wq,
					 int n, int cpu, int expect_started)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe **ps = kunit_kcalloc(test, n, sizeof(*ps), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ps);
	for (i = 0; i < n; i++) {
		ps[i] = wqk_gated_probe(test, t);
		KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &ps[i]->work));
	}
	WQK_WAIT_STARTED(test, t, expect_started);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->started), expect_started);
	for (i = 0; i < n; i++)
		wqk_open(ps[i]);
	WQK_WAIT_FINISHED(test, t, n);
	return t;
}

static void max_active_bounds_items_in_flight(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 2);
	struct wqk_tracker *t;

	t = wqk_run_gated(test, wq, 6, raw_smp_processor_id(), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 2);
}

static void unbound_max_active_bounds_items_in_flight(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 3);
	struct wqk_tracker *t;

	t = wqk_run_gated(test, wq, 8, WORK_CPU_UNBOUND, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 3);
}

static void set_max_active_changes_the_bound(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 4);
	struct wqk_tracker *t;

	workqueue_set_max_active(wq, 1);
	t = wqk_run_gated(test, wq, 4, raw_smp_processor_id(), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
	workqueue_set_max_active(wq, 3);
	t = wqk_run_gated(test, wq, 5, raw_smp_processor_id(), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 3);
}

/*
 * min_active: with one node's items holding all of max_active, an item
 * queued from another node still starts.
 */
static void min_active_lets_every_node_progress(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 2);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *late = wqk_gated_probe(test, NULL);
	int i, cpu_a = -1, cpu_b = -1, cpu;

	for_each_online_cpu(cpu) {
		if (cpu_a < 0)
			cpu_a = cpu;
		else if (cpu_b < 0 && cpu_to_node(cpu) != cpu_to_node(cpu_a))
			cpu_b = cpu;
	}
	if (cpu_b < 0)
		kunit_skip(test, "needs online CPUs on two NUMA nodes");

	workqueue_set_min_active(wq, 1);
	for (i = 0; i < 4; i++)
		queue_work_on(cpu_a, wq, &wqk_gated_probe(test, t)->work);
	WQK_WAIT_STARTED(test, t, 1);
	KUNIT_EXPECT_TRUE(test, queue_work_on(cpu_b, wq, &late->work));
	WQK_WAIT(test, &late->started);
	KUNIT_EXPECT_LE(test, atomic_read(&t->started), 2);
}

/*
 * An unbound workqueue with max_active 1 and one pwq per CPU, so that two
 * CPUs of one node share the node's single slot, and *@hold running gated
 * on *@a in that slot.  Sets *@a and *@b, or skips.
 */
/* A workqueue like wqk_node_slot_held()'s: unbound, one pwq per CPU. */
static struct workqueue_struct *wqk_cpu_scope_wq(struct kunit *test, int max_active)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, max_active);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);

	attrs->affn_scope = WQ_AFFN_CPU;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	return wq;
}

/*
 * Wake the unbound pool that wqk_cpu_scope_wq() workqueues use for @cpu,
 * with an item of another such workqueue (unbound pools are shared by
 * attributes): a case whose pool was not woken when it should have been
 * fails, and its items still run, so that its end does not hang.
 */
static void wqk_kick_cpu_scope_pool(struct kunit *test, int cpu)
{
	struct workqueue_struct *other = wqk_cpu_scope_wq(test, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_work_on(cpu, other, &p->work);
	WQK_WAIT(test, &p->finished);
}

static struct workqueue_struct *wqk_node_slot_held(struct kunit *test,
						   int *a, int *b,
						   struct wqk_probe **hold)
{
	struct workqueue_struct *wq;
	int cpu;

	*a = *b = -1;
	for_each_online_cpu(cpu) {
		if (*a < 0)
			*a = cpu;
		else if (*b < 0 && cpu_to_node(cpu) == cpu_to_node(*a))
			*b = cpu;
	}
	if (*b < 0)
		kunit_skip(test, "needs two online CPUs on one NUMA node");
	wq = wqk_cpu_scope_wq(test, 1);
	*hold = wqk_gated_probe(test, NULL);
	queue_work_on(*a, wq, &(*hold)->work);
	WQK_WAIT(test, &(*hold)->started);
	return wq;
}

/*
 * The slot an item gives back goes to the pwq that waited longest, not
 * to the next item of the pwq it came from, and that pwq's pool, idle on
 * another CPU, is woken for it.  A pool left asleep fails the case within
 * WQK_TIMEOUT and is woken by the case itself, so the suite goes on.
 */
static void node_quota_goes_to_the_pwq_waiting_longest(struct kunit *test)
{
	struct wqk_probe *waiter = wqk_gated_probe(test, NULL);
	struct wqk_probe *again = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq;
	struct wqk_probe *hold;
	int a, b;

	wq = wqk_node_slot_held(test, &a, &b, &hold);
	queue_work_on(b, wq, &waiter->work);
	queue_work_on(a, wq, &again->work);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_FALSE(test, completion_done(&waiter->started));

	wqk_open(hold);
	if (!wait_for_completion_timeout(&waiter->started, WQK_TIMEOUT)) {
		KUNIT_FAIL(test, "the pool the slot went to was not woken");
		wqk_kick_cpu_scope_pool(test, b);
		WQK_WAIT(test, &waiter->started);
	}
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_FALSE(test, completion_done(&again->started));
	wqk_open(waiter);
	WQK_WAIT(test, &again->finished);
}

/* A pwq whose waiting items were all cancelled does not hold up others. */
static void cancelled_waiter_leaves_the_node_quota_free(struct kunit *test)
{
	struct wqk_probe *cancelled = wqk_probe_new(test, NULL);
	struct wqk_probe *later = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq;
	struct wqk_probe *hold;
	int a, b;

	wq = wqk_node_slot_held(test, &a, &b, &hold);
	queue_work_on(b, wq, &cancelled->work);
	KUNIT_EXPECT_TRUE(test, cancel_work(&cancelled->work));
	wqk_open(hold);
	WQK_WAIT(test, &hold->finished);

	queue_work_on(a, wq, &later->work);
	WQK_WAIT(test, &later->finished);
	KUNIT_EXPECT_FALSE(test, completion_done(&cancelled->started));
}

static void wqk_unexclude_cpus(void *unused)
{
	cpumask_var_t none;

	if (!zalloc_cpumask_var(&none, GFP_KERNEL))
		return;
	cpus_read_lock();
	workqueue_unbound_exclude_cpumask(none);
	cpus_read_unlock();
	free_cpumask_var(none);
}

/*
 * Keep unbound items off @cpus, as a cpuset partition does (which also
 * rebuilds every unbound workqueue, ordered ones included).  The
 * exclusion ends with the case.
 */
static void wqk_exclude_cpus(struct kunit *test, const struct cpumask *cpus)
{
	cpumask_var_t mask;
	int ret;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_copy(mask, cpus);
	cpus_read_lock();
	ret = workqueue_unbound_exclude_cpumask(mask);
	cpus_read_unlock();
	free_cpumask_var(mask);
	KUNIT_ASSERT_EQ(test, ret, 0);
	wqk_defer(test, wqk_unexclude_cpus, NULL);
}

/*
 * Each rebuild of an ordered workqueue (a cpuset partition or a write to
 * the global cpumask) starts a new pwq that waits for the older ones.
 * Two rebuilds while an item runs leave two waiting pwqs, each with an
 * item: both run, in order, one at a time.
 */
static void ordered_runs_on_after_rebuilds_pile_up(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, t);
	struct wqk_probe *b = wqk_probe_new(test, t);
	struct wqk_probe *c = wqk_probe_new(test, t);

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs to exclude one");
	queue_work(wq, &a->work);
	WQK_WAIT(test, &a->started);
	wqk_exclude_cpus(test, cpumask_of(wqk_last_online_cpu()));
	queue_work(wq, &b->work);
	wqk_exclude_cpus(test, cpu_none_mask);
	queue_work(wq, &c->work);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->started), 1);

	wqk_open(a);
	WQK_WAIT(test, &b->finished);
	WQK_WAIT(test, &c->finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
}

/**
 * struct wqk_pool_hold - holds a pool's lock from inside a queue_work()
 * @work: the item whose queueing holds it (in the workqueue_queue_work
 *	tracepoint, which both kernels call with the pool locked)
 * @held: the lock is held
 * @release: let it go
 */
struct wqk_pool_hold {
	struct work_struct *work;
	bool held;
	bool release;
};

static void wqk_pool_hold_probe(void *data, int req_cpu,
				struct pool_workqueue *pwq,
				struct work_struct *work)
{
	struct wqk_pool_hold *h = data;
	u64 end = ktime_get_mono_fast_ns() + 2 * NSEC_PER_SEC;

	if (work != h->work)
		return;
	WRITE_ONCE(h->held, true);
	while (!READ_ONCE(h->release) && ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

static void wqk_pool_hold_end(void *arg)
{
	struct wqk_pool_hold *h = arg;

	WRITE_ONCE(h->release, true);
	unregister_trace_workqueue_queue_work(wqk_pool_hold_probe, h);
	tracepoint_synchronize_unregister();
}

static void wqk_queue_probe(struct wqk_thread *th)
{
	struct wqk_probe *p = th->data;

	queue_work(p->wq, &p->work);
}

/* Attributes for a thread to apply to a workqueue. */
struct wqk_apply {
	struct workqueue_struct *wq;
	struct workqueue_attrs *attrs;
};

static void wqk_apply_attrs(struct wqk_thread *th)
{
	struct wqk_apply *a = th->data;

	WARN_ON(apply_workqueue_attrs(a->wq, a->attrs));
}

/*
 * A rebuild moves an ordered workqueue to a new pwq, which waits,
 * plugged, until the old one drains.  An item whose queue_work() returned
 * before another's began must run first, even when the two are queued
 * from different CPUs while the rebuild switches over.  Here the switch
 * is held up: the lock of the old pwq's pool is held (by an item being
 * queued there) when the rebuild starts; a first item is queued from
 * CPU 0, and once that call returned, a second from CPU 1.  (6.12
 * switches the CPUs' entries of the pwq table one at a time and queues
 * through the queuing CPU's entry: with CPU 0 switched and CPU 1 not,
 * the first item waits in the plugged new pwq and the second joins the
 * old one, which runs it first.  The torture test found it on stock;
 * there the commit takes no pool lock between entries, so this case
 * cannot hold it open.  On the rework without the fix the case caught
 * it in about one run in four: in the others the rebuild had already
 * switched CPU 1's entry when the second item was queued.)
 */
static void ordered_item_queued_later_from_another_cpu_runs_later(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct workqueue_attrs *next = wqk_attrs_new(test);
	struct wqk_apply *rebuild = kunit_kzalloc(test, sizeof(*rebuild), GFP_KERNEL);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_pool_hold *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct wqk_probe *holder = wqk_probe_new(test, t);
	struct wqk_probe *x = wqk_probe_new(test, t);
	struct wqk_probe *y = wqk_probe_new(test, t);
	struct wqk_thread *tx, *ty = NULL;
	unsigned long deadline;
	bool x_returned;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, rebuild);
	if (num_online_cpus() < 4 || !cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 to 3 online");
	/* a pool of its own, so that holding its lock stops nobody else */
	attrs->nice = 3;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	next->nice = 3;
	cpumask_clear_cpu(3, next->cpumask);
	holder->wq = wq;
	x->wq = wq;
	y->wq = wq;
	rebuild->wq = wq;
	rebuild->attrs = next;

	h->work = &holder->work;
	if (register_trace_workqueue_queue_work(wqk_pool_hold_probe, h))
		kunit_skip(test, "no workqueue_queue_work tracepoint");
	wqk_defer(test, wqk_pool_hold_end, h);
	wqk_thread_run(test, wqk_queue_probe, holder, 0, 2);
	deadline = jiffies + WQK_TIMEOUT;
	while (!READ_ONCE(h->held) && time_before(jiffies, deadline))
		usleep_range(1000, 2000);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(h->held));
	wqk_thread_run(test, wqk_apply_attrs, rebuild, 0, 3);
	msleep(4 * WQK_SETTLE_MS);

	tx = wqk_thread_run(test, wqk_queue_probe, x, 0, 0);
	x_returned = wait_for_completion_timeout(&tx->done,
						 msecs_to_jiffies(4 * WQK_SETTLE_MS));
	if (x_returned) {
		/* @x went to the new pwq; @y waits for the held lock */
		ty = wqk_thread_run(test, wqk_queue_probe, y, 0, 1);
		msleep(WQK_SETTLE_MS);
	}
	WRITE_ONCE(h->release, true);
	if (!x_returned) {
		WQK_WAIT(test, &tx->done);
		ty = wqk_thread_run(test, wqk_queue_probe, y, 0, 1);
	}
	WQK_WAIT(test, &ty->done);
	WQK_WAIT(test, &x->finished);
	WQK_WAIT(test, &y->finished);
	KUNIT_EXPECT_LT_MSG(test, x->place, y->place,
			    "the item queued later ran first (first call %s at once)",
			    x_returned ? "returned" : "did not return");
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
}

#ifdef WQ_HAS_TABLE_SWITCH_PAUSE
/* Let a paused rebuild go on (it holds wq_pool_mutex), then pause none. */
static void wqk_resume_switch(void *arg)
{
	complete_all(arg);
	wq_pause_table_switch(NULL, NULL, NULL);
}

/*
 * The same order, with the rebuild paused where the table's entries
 * disagree: CPU 0's entry switched to the new, plugged pwq, CPU 1's not.
 * The first item is queued from CPU 0, then the second from CPU 1; the
 * first runs first.  Queued through the CPUs' entries (6.12), the second
 * joins the old pwq and runs while the first waits in the plugged one,
 * every time.  The other case holds the switch with a pool lock, which
 * only some runs catch in that state.
 */
static void ordered_order_holds_while_table_entries_disagree(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_apply *rebuild = kunit_kzalloc(test, sizeof(*rebuild), GFP_KERNEL);
	struct completion *paused = kunit_kzalloc(test, sizeof(*paused), GFP_KERNEL);
	struct completion *resume = kunit_kzalloc(test, sizeof(*resume), GFP_KERNEL);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *x = wqk_probe_new(test, t);
	struct wqk_probe *y = wqk_probe_new(test, t);
	struct wqk_thread *th;

	KUNIT_ASSERT_NOT_NULL(test, rebuild);
	KUNIT_ASSERT_NOT_NULL(test, paused);
	KUNIT_ASSERT_NOT_NULL(test, resume);
	if (!cpu_online(0) || !cpu_online(1) || cpumask_first(cpu_possible_mask))
		kunit_skip(test, "needs CPUs 0 and 1 online, 0 the first possible");
	init_completion(paused);
	init_completion(resume);
	x->wq = wq;
	y->wq = wq;
	/* another pool: the rebuild makes a new pwq, plugged */
	attrs->nice = 3;
	rebuild->wq = wq;
	rebuild->attrs = attrs;
	wq_pause_table_switch(wq, paused, resume);
	wqk_defer(test, wqk_resume_switch, resume);
	th = wqk_thread_run(test, wqk_apply_attrs, rebuild, 0, -1);
	WQK_WAIT(test, paused);

	WQK_WAIT(test, &wqk_thread_run(test, wqk_queue_probe, x, 0, 0)->done);
	WQK_WAIT(test, &wqk_thread_run(test, wqk_queue_probe, y, 0, 1)->done);
	wqk_resume_switch(resume);
	WQK_WAIT(test, &th->done);
	WQK_WAIT(test, &x->finished);
	WQK_WAIT(test, &y->finished);
	KUNIT_EXPECT_LT_MSG(test, x->place, y->place, "the item queued later ran first");
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
}
#endif

static struct kunit_case wqk_ordered_cases[] = {
	KUNIT_CASE(ordered_runs_in_queueing_order_from_all_cpus),
	KUNIT_CASE(ordered_runs_on_after_rebuilds_pile_up),
	KUNIT_CASE(ordered_item_queued_later_from_another_cpu_runs_later),
#ifdef WQ_HAS_TABLE_SWITCH_PAUSE
	KUNIT_CASE(ordered_order_holds_while_table_entries_disagree),
#endif
	KUNIT_CASE(ordered_runs_one_at_a_time_when_items_sleep),
	KUNIT_CASE(max_active_bounds_items_in_flight),
	KUNIT_CASE(unbound_max_active_bounds_items_in_flight),
	KUNIT_CASE(set_max_active_changes_the_bound),
	KUNIT_CASE(min_active_lets_every_node_progress),
	KUNIT_CASE(node_quota_goes_to_the_pwq_waiting_longest),
	KUNIT_CASE(cancelled_waiter_leaves_the_node_quota_free),
	{}
};

static struct kunit_suite wqk_ordered_suite = {
	.name = "workqueue_ordered",
	.test_cases = wqk_ordered_cases,
};

/* ------------------------------------------------------------------ */
/* 4. workqueue_concurrency                                            */
/* ------------------------------------------------------------------ */

static void sleeping_item_lets_the_next_one_start(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = raw_smp_processor_id();

	KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &a->work));
	WQK_WAIT(test, &a->started);
	KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &b->work));
	WQK_WAIT(test, &b->finished);
	KUNIT_EXPECT_FALSE(test, completion_done(&a->finished));
	KUNIT_EXPECT_EQ(test, b->cpu, cpu);
	wqk_open(a);
	WQK_WAIT(test, &a->finished);
}

static void sleeping_items_get_enough_workers(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *ps[8];
	int i, cpu = raw_smp_processor_id();

	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_gated_probe(test, t);
		queue_work_on(cpu, wq, &ps[i]->work);
	}
	WQK_WAIT_STARTED(test, t, ARRAY_SIZE(ps));
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		wqk_open(ps[i]);
	WQK_WAIT_FINISHED(test, t, ARRAY_SIZE(ps));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), (int)ARRAY_SIZE(ps));
}

/*
 * Items that never sleep, queued on one CPU from two workqueues sharing
 * the CPU's pool: the pool keeps one of them running at a time.
 */
/*
 * An item that uses more CPU time than workqueue.cpu_intensive_thresh_us
 * (10 ms by default) without sleeping rightly leaves concurrency
 * management.  Under TCG an item burning 500 us can be charged that much
 * when the host preempts the vCPU, during the burn or anywhere else in the
 * item: such a round says nothing and is run again.
 */
#define WQK_BURN_DISTURBED_NS	(5 * NSEC_PER_MSEC)
#define WQK_BURN_ROUNDS		10

/* One round: 8 CPU-bound items on one CPU; false if a burn was disturbed. */
static bool wqk_cpu_bound_round(struct kunit *test, int *peak)
{
	struct workqueue_struct *wq1 = wqk_wq_new(test, 0, 0);
	struct workqueue_struct *wq2 = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *p[8];
	int i, cpu = wqk_last_online_cpu();
	bool clean = true;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = wqk_probe_new(test, t);
		p[i]->burn_us = 500;
		queue_work_on(cpu, i % 2 ? wq1 : wq2, &p[i]->work);
	}
	WQK_WAIT_FINISHED(test, t, ARRAY_SIZE(p));
	for (i = 0; i < ARRAY_SIZE(p); i++)
		clean &= p[i]->cpu_ns < WQK_BURN_DISTURBED_NS;
	*peak = atomic_read(&t->peak);
	return clean;
}

static void cpu_bound_items_on_one_cpu_do_not_overlap(struct kunit *test)
{
	int round, peak = 0;

	for (round = 0; round < WQK_BURN_ROUNDS; round++)
		if (wqk_cpu_bound_round(test, &peak))
			break;
	if (round == WQK_BURN_ROUNDS)
		kunit_skip(test, "%d rounds: every one had a 500 us item charged 5 ms or more",
			   WQK_BURN_ROUNDS);
	KUNIT_EXPECT_EQ(test, peak, 1);
}

/*
 * workqueue.cpu_intensive_thresh_us=0 turns the detection off: items
 * burning two scheduler ticks each still run one at a time.
 */
static void cpu_intensive_threshold_zero_turns_detection_off(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i, cpu = wqk_last_online_cpu();

	wqk_set_param(test, "cpu_intensive_thresh_us", "0");
	for (i = 0; i < 4; i++) {
		struct wqk_probe *p = wqk_probe_new(test, t);

		p->burn_us = 2 * jiffies_to_usecs(1);
		queue_work_on(cpu, wq, &p->work);
	}
	WQK_WAIT_FINISHED(test, t, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
}

/* Spin (without sleeping) until the probe in ->data has started. */
static void wqk_spin_until_other_started(struct wqk_probe *p)
{
	struct wqk_probe *other = p->data;
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (!completion_done(&other->started) &&
	       time_before(jiffies, deadline)) {
		cpu_relax();
		cond_resched();
	}
}

static void cpu_intensive_item_does_not_hold_others_back(struct kunit *test)
{
	struct workqueue_struct *hog_wq = wqk_wq_new(test, WQ_CPU_INTENSIVE, 0);
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *hog = wqk_probe_new(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	hog->hook = wqk_spin_until_other_started;
	hog->data = b;
	queue_work_on(cpu, hog_wq, &hog->work);
	WQK_WAIT(test, &hog->started);
	queue_work_on(cpu, wq, &b->work);
	WQK_WAIT(test, &b->finished);
	WQK_WAIT(test, &hog->finished);
	KUNIT_EXPECT_EQ(test, b->cpu, cpu);
	KUNIT_EXPECT_EQ(test, hog->cpu, cpu);
}

static void highpri_items_run_at_nice_minus_20(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_HIGHPRI, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_probe *s = wqk_probe_new(test, NULL);

	queue_work(wq, &p->work);
	queue_work(system_highpri_wq, &s->work);
	flush_work(&p->work);
	flush_work(&s->work);
	KUNIT_EXPECT_EQ(test, p->nice, MIN_NICE);
	KUNIT_EXPECT_EQ(test, s->nice, MIN_NICE);
}

static void normal_items_run_at_nice_0(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_probe *u = wqk_probe_new(test, NULL);

	queue_work(wq, &p->work);
	queue_work(system_unbound_wq, &u->work);
	flush_work(&p->work);
	flush_work(&u->work);
	KUNIT_EXPECT_EQ(test, p->nice, 0);
	KUNIT_EXPECT_EQ(test, u->nice, 0);
}

static int wqk_set_prio(int policy, int prio);

#define WQK_RCU_HOG_MS	5000

/* The hostile neighbour of the expedited grace period case, and its caller. */
struct wqk_rcu_hog {
	int cpu;			/* where the hog spins and the caller calls */
	bool spinning;
	bool stop;
	bool told;			/* the hog was told to stop before its time */
	atomic_t gp_items_on_cpu;	/* GP items that ran on @cpu meanwhile */
};

/* A SCHED_FIFO 50 thread spinning on its CPU until told, 5 s at most. */
static void wqk_rcu_hog_fn(struct wqk_thread *th)
{
	struct wqk_rcu_hog *h = th->data;
	unsigned long until = jiffies + msecs_to_jiffies(WQK_RCU_HOG_MS);

	if (WARN_ON(wqk_set_prio(SCHED_FIFO, 50)))
		return;
	WRITE_ONCE(h->spinning, true);
	while (!READ_ONCE(h->stop) && time_before(jiffies, until))
		cpu_relax();
	h->told = READ_ONCE(h->stop);
}

/* A SCHED_FIFO 60 task on the hog's CPU asks for an expedited GP. */
static void wqk_rcu_caller_fn(struct wqk_thread *th)
{
	if (!WARN_ON(wqk_set_prio(SCHED_FIFO, 60)))
		synchronize_rcu_expedited();
}

/* Count the items of RCU's expedited grace periods that start on h->cpu. */
static void wqk_rcu_gp_item_probe(void *data, struct work_struct *work)
{
	struct wqk_rcu_hog *h = data;
	char name[KSYM_SYMBOL_LEN];

	if (raw_smp_processor_id() != h->cpu)
		return;
	snprintf(name, sizeof(name), "%ps", work->func);
	if (!strcmp(name, "wait_rcu_exp_gp") ||
	    !strcmp(name, "sync_rcu_exp_select_node_cpus"))
		atomic_inc(&h->gp_items_on_cpu);
}

static void wqk_rcu_probe_off(void *arg)
{
	unregister_trace_workqueue_execute_start(wqk_rcu_gp_item_probe, arg);
	tracepoint_synchronize_unregister();
}

/*
 * A user of RCU is no worse off than with 6.12's kthread_workers: a
 * SCHED_FIFO 60 task calling synchronize_rcu_expedited() on a CPU that a
 * SCHED_FIFO 50 thread holds gets its grace period while the thread
 * still spins, and no item of the grace period runs on that CPU
 * meanwhile (it needs no particular CPU, least of all a held one).
 */
static void expedited_gp_is_not_held_by_a_hog_on_the_callers_cpu(struct kunit *test)
{
	struct wqk_rcu_hog *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	unsigned long deadline = jiffies + WQK_TIMEOUT;
	struct wqk_thread *hog, *caller;

	KUNIT_ASSERT_NOT_NULL(test, h);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	h->cpu = wqk_last_online_cpu();
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_execute_start(wqk_rcu_gp_item_probe, h), 0);
	wqk_defer(test, wqk_rcu_probe_off, h);
	hog = wqk_thread_run(test, wqk_rcu_hog_fn, h, 0, h->cpu);
	while (!READ_ONCE(h->spinning) && time_before(jiffies, deadline))
		usleep_range(1000, 2000);
	caller = wqk_thread_run(test, wqk_rcu_caller_fn, NULL, 1, h->cpu);
	WQK_WAIT(test, &caller->done);
	WRITE_ONCE(h->stop, true);
	WQK_WAIT(test, &hog->done);
	KUNIT_EXPECT_TRUE_MSG(test, h->told,
			      "the grace period waited for the hog to stop");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&h->gp_items_on_cpu), 0,
			    "grace-period items ran on the held CPU");
}

static struct kunit_case wqk_concurrency_cases[] = {
	KUNIT_CASE(sleeping_item_lets_the_next_one_start),
	KUNIT_CASE(sleeping_items_get_enough_workers),
	KUNIT_CASE(cpu_bound_items_on_one_cpu_do_not_overlap),
	KUNIT_CASE(cpu_intensive_threshold_zero_turns_detection_off),
	KUNIT_CASE(cpu_intensive_item_does_not_hold_others_back),
	KUNIT_CASE(highpri_items_run_at_nice_minus_20),
	KUNIT_CASE(normal_items_run_at_nice_0),
	KUNIT_CASE(expedited_gp_is_not_held_by_a_hog_on_the_callers_cpu),
	{}
};

static struct kunit_suite wqk_concurrency_suite = {
	.name = "workqueue_concurrency",
	.test_cases = wqk_concurrency_cases,
};

/* ------------------------------------------------------------------ */
/* 5. workqueue_flush                                                  */
/* ------------------------------------------------------------------ */

/* What a waiter thread does, and what it saw when it came back. */
enum wqk_wait_op {
	WQK_FLUSH_WORKQUEUE,
	WQK_FLUSH_WORK,
	WQK_FLUSH_DELAYED,
	WQK_CANCEL_SYNC,
	WQK_CANCEL_DELAYED_SYNC,
	WQK_DISABLE_SYNC,
	WQK_DRAIN,
	WQK_FLUSH_RCU,
	WQK_DISABLE_DELAYED_SYNC,
#ifdef WQ_HAS_PRECISE_WORK
	WQK_FLUSH_PRECISE,
	WQK_CANCEL_PRECISE_SYNC,
	WQK_DISABLE_PRECISE_SYNC,
#endif
};

struct wqk_waiter {
	enum wqk_wait_op op;
	struct workqueue_struct *wq;
	struct wqk_probe *p;
	bool ret;
	bool probe_finished;	/* ->p had finished when the call returned */
	struct wqk_thread *th;
	bool set_prio;		/* wait at @policy/@prio, not as created */
	int policy;		/* any policy wqk_set_prio() takes */
	int prio;		/* nice level, or real-time priority */
};

/*
 * Make the calling thread run at @policy/@prio: the nice level for
 * SCHED_NORMAL and SCHED_BATCH, the priority for SCHED_FIFO and SCHED_RR;
 * SCHED_IDLE ignores @prio, SCHED_DEADLINE gets 1 ms every 100 ms.
 */
static int wqk_set_prio(int policy, int prio)
{
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;
	struct sched_attr attr = {
		.size = sizeof(attr), .sched_policy = policy,
		.sched_priority = rt ? prio : 0,
		.sched_nice = rt ? 0 : prio,
	};

	if (policy == SCHED_DEADLINE) {
		attr.sched_nice = 0;
		attr.sched_runtime = NSEC_PER_MSEC;
		attr.sched_deadline = 100 * NSEC_PER_MSEC;
		attr.sched_period = attr.sched_deadline;
	}
	return sched_setattr_nocheck(current, &attr);
}

#if defined(WQ_HAS_WAIT_PI) || defined(WQ_HAS_HISTOGRAMS)
/* Queue @p on @wq (on @cpu where the call takes one) as @op's item. */
static void wqk_queue_for(enum wqk_wait_op op, struct workqueue_struct *wq,
			  struct wqk_probe *p, int cpu)
{
	switch (op) {
	case WQK_FLUSH_DELAYED:
	case WQK_CANCEL_DELAYED_SYNC:
	case WQK_DISABLE_DELAYED_SYNC:
		queue_delayed_work_on(cpu, wq, &p->dwork, 0);
		break;
	case WQK_FLUSH_RCU:
		queue_rcu_work(wq, &p->rwork);
		break;
#ifdef WQ_HAS_PRECISE_WORK
	case WQK_FLUSH_PRECISE:
	case WQK_CANCEL_PRECISE_SYNC:
	case WQK_DISABLE_PRECISE_SYNC:
		queue_precise_work_on(cpu, wq, &p->pw, 0, 0);
		break;
#endif
	default:
		queue_work_on(cpu, wq, &p->work);
	}
}
#endif

/* Make the call @op on @wq or @p; what it returned. */
static bool wqk_wait_call(enum wqk_wait_op op, struct workqueue_struct *wq,
			  struct wqk_probe *p)
{
	switch (op) {
	case WQK_FLUSH_WORKQUEUE:
		flush_workqueue(wq);
		return true;
	case WQK_FLUSH_WORK:
		return flush_work(&p->work);
	case WQK_FLUSH_DELAYED:
		return flush_delayed_work(&p->dwork);
	case WQK_CANCEL_SYNC:
		return cancel_work_sync(&p->work);
	case WQK_CANCEL_DELAYED_SYNC:
		return cancel_delayed_work_sync(&p->dwork);
	case WQK_DISABLE_SYNC:
		return disable_work_sync(&p->work);
	case WQK_DRAIN:
		drain_workqueue(wq);
		return true;
	case WQK_FLUSH_RCU:
		return flush_rcu_work(&p->rwork);
	case WQK_DISABLE_DELAYED_SYNC:
		return disable_delayed_work_sync(&p->dwork);
#ifdef WQ_HAS_PRECISE_WORK
	case WQK_FLUSH_PRECISE:
		return flush_precise_work(&p->pw);
	case WQK_CANCEL_PRECISE_SYNC:
		return cancel_precise_work_sync(&p->pw);
	case WQK_DISABLE_PRECISE_SYNC:
		return disable_precise_work_sync(&p->pw);
#endif
	}
	return false;
}

static void wqk_waiter_fn(struct wqk_thread *th)
{
	struct wqk_waiter *w = th->data;

	if (w->set_prio && WARN_ON(wqk_set_prio(w->policy, w->prio)))
		return;
	w->ret = wqk_wait_call(w->op, w->wq, w->p);
	if (w->p)
		w->probe_finished = completion_done(&w->p->finished);
}

/* Start a waiter and return once it is blocked in its call. */
static struct wqk_waiter *wqk_waiter_start(struct kunit *test,
					   enum wqk_wait_op op,
					   struct workqueue_struct *wq,
					   struct wqk_probe *p)
{
	struct wqk_waiter *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->op = op;
	w->wq = wq;
	w->p = p;
	w->th = wqk_thread_run(test, wqk_waiter_fn, w, 0, -1);
	KUNIT_ASSERT_TRUE_MSG(test, wqk_wait_blocked(w->th),
			      "waiter returned without waiting");
	KUNIT_EXPECT_FALSE(test, completion_done(&w->th->done));
	return w;
}

static void flush_workqueue_waits_for_every_earlier_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i;

	for (i = 0; i < 6; i++) {
		struct wqk_probe *p = wqk_probe_new(test, t);

		p->sleep_ms = 1 + i % 3;
		queue_work(wq, &p->work);
	}
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->finished), 6);
}

static void flush_workqueue_does_not_wait_for_later_items(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *early = wqk_gated_probe(test, NULL);
	struct wqk_probe *late = wqk_gated_probe(test, NULL);
	struct wqk_waiter *w;

	queue_work(wq, &early->work);
	WQK_WAIT(test, &early->started);
	w = wqk_waiter_start(test, WQK_FLUSH_WORKQUEUE, wq, NULL);
	queue_work(wq, &late->work);
	wqk_open(early);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_FALSE(test, completion_done(&late->finished));
	wqk_open(late);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&late->runs), 1);
}

/*
 * Flushers that call while another flush is still waiting each wait for
 * the items queued before their own call, and for no later one.
 */
static void concurrent_flushes_wait_only_for_earlier_items(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p[3];
	struct wqk_waiter *w[3];
	int i;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = wqk_gated_probe(test, NULL);
		queue_work(wq, &p[i]->work);
		w[i] = wqk_waiter_start(test, WQK_FLUSH_WORKQUEUE, wq, NULL);
	}
	/* each flush returns while the items queued after it are held */
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		wqk_open(p[i]);
		WQK_WAIT(test, &w[i]->th->done);
		if (i + 1 < ARRAY_SIZE(p))
			KUNIT_EXPECT_FALSE(test, completion_done(&w[i + 1]->th->done));
	}
}

/*
 * A flush waits for every item queued before it, including those of the
 * colors earlier flushes closed: with the first flush still waiting for
 * a held item, a second flush does not return when only its own items
 * are done.
 */
static void flush_workqueue_waits_for_colors_earlier_flushes_closed(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_gated_probe(test, NULL);
	struct wqk_waiter *first, *second;

	queue_work(wq, &a->work);
	first = wqk_waiter_start(test, WQK_FLUSH_WORKQUEUE, wq, NULL);
	KUNIT_ASSERT_TRUE(test, wqk_wait_blocked(first->th));
	queue_work(wq, &b->work);
	second = wqk_waiter_start(test, WQK_FLUSH_WORKQUEUE, wq, NULL);
	KUNIT_ASSERT_TRUE(test, wqk_wait_blocked(second->th));

	wqk_open(b);
	if (!wqk_is_ordered_kind(test))
		WQK_WAIT(test, &b->finished);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_FALSE(test, completion_done(&first->th->done));
	KUNIT_EXPECT_FALSE(test, completion_done(&second->th->done));

	wqk_open(a);
	WQK_WAIT(test, &first->th->done);
	WQK_WAIT(test, &second->th->done);
}

/* More concurrent flushers than there are flush colors all return. */
static void many_concurrent_flushes_all_return(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	enum { NR = WORK_NR_COLORS + 5 };
	struct wqk_probe *p[NR];
	struct wqk_waiter *w[NR];
	int i;

	for (i = 0; i < NR; i++) {
		p[i] = wqk_gated_probe(test, t);
		queue_work(wq, &p[i]->work);
		w[i] = wqk_waiter_start(test, WQK_FLUSH_WORKQUEUE, wq, NULL);
	}
	/* past the colors a flusher may also wait for later items */
	for (i = 0; i < NR; i++)
		wqk_open(p[i]);
	for (i = 0; i < NR; i++)
		WQK_WAIT(test, &w[i]->th->done);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->finished), NR);
}

static void flush_work_on_idle_item_returns_false(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_FALSE(test, flush_work(&p->work));
	queue_work(wq, &p->work);
	WQK_WAIT(test, &p->finished);
	flush_work(&p->work);
	KUNIT_EXPECT_FALSE(test, flush_work(&p->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void flush_work_waits_for_pending_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_waiter *w;

	queue_work(wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	queue_work(wq, &p->work);
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, p);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
	wqk_open(blocker);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, w->ret);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
}

static void flush_work_waits_for_running_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_waiter *w;

	queue_work(wq, &p->work);
	WQK_WAIT(test, &p->started);
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, p);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, w->ret);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
}

/* Requeue until told to stop (->stop). */
static void wqk_requeue_until_stopped(struct wqk_probe *p)
{
	if (!READ_ONCE(p->stop)) {
		usleep_range(200, 400);
		queue_work(p->wq, &p->work);
	}
}

static void flush_work_does_not_wait_for_requeued_instances(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_thread *th;
	struct wqk_waiter *w;

	p->wq = wq;
	p->hook = wqk_requeue_until_stopped;
	queue_work(wq, &p->work);
	WQK_WAIT(test, &p->started);

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->op = WQK_FLUSH_WORK;
	w->p = p;
	th = wqk_thread_run(test, wqk_waiter_fn, w, 0, -1);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_TRUE(test, w->ret);
	KUNIT_EXPECT_GE(test, atomic_read(&p->runs), 1);
	WRITE_ONCE(p->stop, true);
	cancel_work_sync(&p->work);
}

/* Requeue until ->runs reaches the count in ->data (or ->stop). */
static void wqk_requeue_chain(struct wqk_probe *p)
{
	int len = (long)p->data;

	if (atomic_read(&p->runs) < len && !READ_ONCE(p->stop))
		KUNIT_EXPECT_TRUE(p->test, queue_work(p->wq, &p->work));
}

static void drain_workqueue_runs_a_requeueing_chain_to_its_end(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	int len = 20;

	p->wq = wq;
	p->data = (void *)(long)len;
	p->hook = wqk_requeue_chain;
	queue_work(wq, &p->work);
	drain_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), len);
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
	/* The workqueue takes new items again once drained. */
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	flush_workqueue(wq);
}

static void flush_delayed_work_runs_a_pending_item_now(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_FALSE(test, flush_delayed_work(&p->dwork));
	KUNIT_EXPECT_TRUE(test, queue_delayed_work(wq, &p->dwork, 3600 * HZ));
	/* It may already have finished when the flush looks: no return check. */
	flush_delayed_work(&p->dwork);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&p->dwork));
}

/*
 * A flusher of an item waiting in a rebuilt ordered workqueue's new pwq
 * has its barrier linked behind the item; cancelling the item hands the
 * barrier on, and the flusher returns once the older item is done, with
 * nothing else queued.  (6.12 moves the barrier to the pool's worklist
 * without waking the pool, which nothing else may wake: the flusher, and
 * every later item of the workqueue, wait for good.  The torture test
 * found it on stock.)
 */
static void ordered_flusher_of_a_cancelled_waiting_item_returns(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *x = wqk_probe_new(test, NULL);
	struct wqk_probe *y = wqk_probe_new(test, NULL);
	struct wqk_waiter *w;
	bool returned;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs to exclude one");
	queue_work(wq, &a->work);
	WQK_WAIT(test, &a->started);
	wqk_exclude_cpus(test, cpumask_of(wqk_last_online_cpu()));
	queue_work(wq, &x->work);
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, x);
	KUNIT_EXPECT_TRUE(test, cancel_work(&x->work));
	wqk_open(a);
	WQK_WAIT(test, &a->finished);
	returned = wait_for_completion_timeout(&w->th->done, WQK_TIMEOUT);
	KUNIT_EXPECT_TRUE_MSG(test, returned, "the flusher of the cancelled item still waits");
	if (!returned) {
		/* an item queued behind wakes the pool, so the flusher ends */
		queue_work(wq, &y->work);
		WQK_WAIT(test, &w->th->done);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 0);
}

/*
 * Start @a on the ordered @wq, rebuild @wq (a CPU excluded from unbound
 * work) and queue @a again: that instance waits in the newer pwq,
 * plugged until the older one, where @a runs, drains.
 */
static void wqk_ordered_requeue_behind_rebuild(struct kunit *test,
					       struct workqueue_struct *wq,
					       struct wqk_probe *a)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs to exclude one");
	queue_work(wq, &a->work);
	WQK_WAIT(test, &a->started);
	wqk_exclude_cpus(test, cpumask_of(wqk_last_online_cpu()));
	KUNIT_ASSERT_TRUE(test, queue_work(wq, &a->work));
}

/*
 * An ordered workqueue queues an item again on its newest pwq while the
 * item still runs on an older one (a rebuild started the newer one).
 * Cancelling the new instance must leave the item pointing at the pool
 * where it runs: a flush_work() after the cancel waits for that run.
 * (6.12 leaves it pointing at the newest pwq's pool, where it does not
 * run, and the flush returns at once.  The torture test found it.)
 */
static void ordered_flush_after_cancel_waits_for_the_older_run(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_waiter *w;

	wqk_ordered_requeue_behind_rebuild(test, wq, a);
	KUNIT_ASSERT_TRUE(test, cancel_work(&a->work));
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, a);
	wqk_open(a);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, w->ret);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->runs), 1);
}

/*
 * flush_work() of an item that runs and is queued again waits for both
 * instances; once the queued one is cancelled, still for the run.  The
 * queued instance is inactive, behind max_active 1 on a per-CPU
 * workqueue.  (6.12 moves the flusher's barrier to the worklist when the
 * item it follows is cancelled, without waking the pool: it runs when a
 * worker of the pool next looks, during the run or after it, and here
 * after, so the case passes on stock.)
 */
static void flush_of_cancelled_requeue_waits_for_the_run(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	int cpu = cpumask_first(cpu_online_mask);
	struct wqk_waiter *w;

	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	KUNIT_ASSERT_TRUE(test, queue_work_on(cpu, wq, &a->work));
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, a);
	KUNIT_ASSERT_TRUE(test, cancel_work(&a->work));
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&w->th->done),
			       "the flush returned while the item ran");
	wqk_open(a);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->runs), 1);
}

/* Pin the case's own kthread (one per case) to @cpu at @nice. */
static void wqk_pin_self(struct kunit *test, int cpu, int nice)
{
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	set_user_nice(current, nice);
}

/*
 * Hook of flush_of_cancelled_active_requeue_waits_for_the_run(): still
 * running, so that the pool wakes no other worker, wait until the
 * flusher's barrier is linked behind the instance queued again, cancel
 * that instance, then sleep, which lets another worker of the pool in.
 */
static void wqk_cancel_requeue_then_sleep(struct wqk_probe *p)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;
	bool *cancelled = p->data;

	while (!test_bit(WORK_STRUCT_LINKED_BIT, work_data_bits(&p->work)) &&
	       time_before(jiffies, deadline))
		cpu_relax();
	*cancelled = cancel_work(&p->work);
	msleep(WQK_SETTLE_MS);
}

/*
 * The same with the queued instance active (max_active 2): it waits on
 * the worklist for a worker to hand it to the one that runs the item,
 * and a flush links its barrier behind it there.  Once it is cancelled
 * and the run sleeps, another worker comes for the worklist: the barrier
 * must not be there.  (6.12 leaves it there: the flush returns during
 * the run.  The torture test found it with a precise item.)
 */
static void flush_of_cancelled_active_requeue_waits_for_the_run(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 2);
	struct wqk_probe *a = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();
	bool cancelled = false;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	wqk_pin_self(test, cpumask_first(cpu_online_mask), 0);
	a->hook = wqk_cancel_requeue_then_sleep;
	a->data = &cancelled;
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	KUNIT_ASSERT_TRUE(test, queue_work_on(cpu, wq, &a->work));
	KUNIT_EXPECT_TRUE(test, flush_work(&a->work));
	KUNIT_EXPECT_TRUE_MSG(test, completion_done(&a->finished),
			      "the flush returned while the item ran");
	KUNIT_EXPECT_TRUE(test, cancelled);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->runs), 1);
}

/*
 * The same on an ordered workqueue just rebuilt: the queued instance
 * waits in the newer pwq, plugged until the older one, where the run
 * goes on, drains.  The flusher's barrier waits there with it, and when
 * the newer pwq starts, the barrier takes no slot: the items queued
 * behind it still run one at a time.  (6.12 sends the barrier to the
 * worklist, where it runs at once: the flush returns during the run.)
 */
static void ordered_flush_of_cancelled_requeue_waits_for_the_run(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, t);
	struct wqk_probe *b = wqk_gated_probe(test, t);
	struct wqk_probe *c = wqk_probe_new(test, t);
	struct wqk_waiter *w;

	wqk_ordered_requeue_behind_rebuild(test, wq, a);
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, a);
	KUNIT_ASSERT_TRUE(test, cancel_work(&a->work));
	queue_work(wq, &b->work);
	queue_work(wq, &c->work);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&w->th->done),
			       "the flush returned while the item ran");
	wqk_open(a);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
	WQK_WAIT(test, &b->started);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&c->runs), 0,
			    "an item started while another ran");
	wqk_open(b);
	WQK_WAIT(test, &c->finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->runs), 1);
}

/*
 * A flusher of an item waiting for its node's slot returns once the item
 * is cancelled: its barrier leaves with the item for the pool's worklist,
 * and the pool, idle on another CPU, is woken for it.  6.12 moves the
 * barrier without a wake-up, and the flusher sleeps until unrelated work
 * reaches the pool; here the case wakes it itself after WQK_TIMEOUT, and
 * fails.
 */
static void flusher_of_an_item_waiting_for_its_node_slot_returns_on_cancel(struct kunit *test)
{
	struct wqk_probe *waiting = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq;
	struct wqk_probe *hold;
	struct wqk_waiter *w;
	int a, b;

	wq = wqk_node_slot_held(test, &a, &b, &hold);
	queue_work_on(b, wq, &waiting->work);
	w = wqk_waiter_start(test, WQK_FLUSH_WORK, wq, waiting);
	KUNIT_EXPECT_TRUE(test, cancel_work(&waiting->work));
	if (!wait_for_completion_timeout(&w->th->done, WQK_TIMEOUT)) {
		KUNIT_FAIL(test, "the flusher was not woken after the cancel");
		wqk_kick_cpu_scope_pool(test, b);
		WQK_WAIT(test, &w->th->done);
	}
	KUNIT_EXPECT_FALSE(test, completion_done(&waiting->started));
	wqk_open(hold);
}

static struct kunit_case wqk_flush_cases[] = {
	KUNIT_CASE_PARAM(flush_workqueue_waits_for_every_earlier_item,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(flush_workqueue_does_not_wait_for_later_items,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(concurrent_flushes_wait_only_for_earlier_items,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(flush_workqueue_waits_for_colors_earlier_flushes_closed,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(many_concurrent_flushes_all_return, wqk_kind_gen_params),
	KUNIT_CASE_PARAM(flush_work_on_idle_item_returns_false,
			 wqk_kind_gen_params),
	KUNIT_CASE(flush_work_waits_for_pending_item),
	KUNIT_CASE_PARAM(flush_work_waits_for_running_item, wqk_kind_gen_params),
	KUNIT_CASE_PARAM(flush_work_does_not_wait_for_requeued_instances,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(drain_workqueue_runs_a_requeueing_chain_to_its_end,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(flush_delayed_work_runs_a_pending_item_now,
			 wqk_kind_gen_params),
	KUNIT_CASE(ordered_flusher_of_a_cancelled_waiting_item_returns),
	KUNIT_CASE(ordered_flush_after_cancel_waits_for_the_older_run),
	KUNIT_CASE(flush_of_cancelled_requeue_waits_for_the_run),
	KUNIT_CASE(flush_of_cancelled_active_requeue_waits_for_the_run),
	KUNIT_CASE(ordered_flush_of_cancelled_requeue_waits_for_the_run),
	KUNIT_CASE(flusher_of_an_item_waiting_for_its_node_slot_returns_on_cancel),
	{}
};

static struct kunit_suite wqk_flush_suite = {
	.name = "workqueue_flush",
	.test_cases = wqk_flush_cases,
};

/* ------------------------------------------------------------------ */
/* 6. workqueue_cancel                                                 */
/* ------------------------------------------------------------------ */

static void cancel_work_removes_a_pending_item(struct kunit *test)
{
	struct wqk_probe *blocker, *p = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);

	KUNIT_EXPECT_FALSE(test, cancel_work(&p->work));
	queue_work(wq, &p->work);
	KUNIT_EXPECT_TRUE(test, cancel_work(&p->work));
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
	/* A cancelled item can be queued again. */
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void cancel_work_sync_removes_a_pending_item(struct kunit *test)
{
	struct wqk_probe *blocker, *p = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);

	queue_work(wq, &p->work);
	KUNIT_EXPECT_TRUE(test, cancel_work_sync(&p->work));
	KUNIT_EXPECT_FALSE(test, cancel_work_sync(&p->work));
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
}

static void cancel_work_sync_waits_for_a_running_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_waiter *w;

	queue_work(wq, &p->work);
	WQK_WAIT(test, &p->started);
	w = wqk_waiter_start(test, WQK_CANCEL_SYNC, wq, p);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_FALSE(test, w->ret);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
}

static void cancel_work_sync_stops_a_requeueing_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	int runs;

	p->wq = wq;
	p->hook = wqk_requeue_until_stopped;
	queue_work(wq, &p->work);
	WQK_WAIT(test, &p->started);
	cancel_work_sync(&p->work);
	runs = atomic_read(&p->runs);
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
	msleep(WQK_SETTLE_MS);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), runs);
}

/*
 * A delayed item queued for any CPU after one queued for a given CPU
 * (add_timer_on() pins its timer) gets a timer that is not pinned.
 */
static void delayed_item_for_any_cpu_has_an_unpinned_timer(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	if (housekeeping_enabled(HK_TYPE_TIMER))
		kunit_skip(test, "nohz_full: timers go to housekeeping CPUs");
	KUNIT_ASSERT_TRUE(test, queue_delayed_work_on(wqk_last_online_cpu(), wq,
						      &p->dwork, 1));
	WQK_WAIT(test, &p->finished);
	KUNIT_ASSERT_TRUE(test, queue_delayed_work(wq, &p->dwork, 60 * HZ));
	KUNIT_EXPECT_FALSE(test, p->dwork.timer.flags & TIMER_PINNED);
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work_sync(&p->dwork));
}

static void cancel_delayed_work_stops_the_timer(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_FALSE(test, cancel_delayed_work(&p->dwork));
	KUNIT_EXPECT_TRUE(test, queue_delayed_work(wq, &p->dwork, 3600 * HZ));
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&p->dwork));
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work(&p->dwork));
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&p->dwork));
	KUNIT_EXPECT_FALSE(test, timer_pending(&p->dwork.timer));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
}

static void cancel_delayed_work_sync_waits_for_a_running_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_waiter *w;

	queue_delayed_work(wq, &p->dwork, 1);
	WQK_WAIT(test, &p->started);
	w = wqk_waiter_start(test, WQK_CANCEL_DELAYED_SYNC, wq, p);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_FALSE(test, w->ret);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
}

static void queue_delayed_work_returns_false_while_pending(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_TRUE(test, queue_delayed_work(wq, &p->dwork, 3600 * HZ));
	KUNIT_EXPECT_FALSE(test, queue_delayed_work(wq, &p->dwork, 0));
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work_sync(&p->dwork));
}

static void mod_delayed_work_shortens_the_delay(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_delayed_work(wq, &p->dwork, 3600 * HZ);
	KUNIT_EXPECT_TRUE(test, mod_delayed_work(wq, &p->dwork, 0));
	WQK_WAIT(test, &p->finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void mod_delayed_work_lengthens_the_delay(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_delayed_work(wq, &p->dwork, 2);
	KUNIT_EXPECT_TRUE(test, mod_delayed_work(wq, &p->dwork, 3600 * HZ));
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work_sync(&p->dwork));
}

static void mod_delayed_work_queues_an_idle_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_FALSE(test, mod_delayed_work(wq, &p->dwork, 0));
	WQK_WAIT(test, &p->finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static const unsigned long wqk_delays[] = { 1, 2, 5, 13 };

static void delayed_items_never_run_early(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *ps[ARRAY_SIZE(wqk_delays)];
	unsigned long queued_at[ARRAY_SIZE(wqk_delays)];
	int i;

	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_probe_new(test, NULL);
		queued_at[i] = jiffies;
		queue_delayed_work(wq, &ps[i]->dwork, wqk_delays[i]);
	}
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		WQK_WAIT(test, &ps[i]->finished);
		KUNIT_EXPECT_GE_MSG(test, ps[i]->ran_at - queued_at[i],
				    wqk_delays[i], "delay %lu jiffies",
				    wqk_delays[i]);
	}
}

/*
 * An RCU reader that began before queue_rcu_work() holds the item back
 * until it ends.  (poll_state_synchronize_rcu() on a cookie taken before
 * the call is no oracle: it may still say false when the callback runs,
 * as it did once on stock with PREEMPT_RT.)
 */
#define WQK_RCU_READER_MS	20

static void queue_rcu_work_runs_after_a_grace_period(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	bool queued, requeued, early;

	rcu_read_lock();
	queued = queue_rcu_work(wq, &p->rwork);
	requeued = queue_rcu_work(wq, &p->rwork);
	mdelay(WQK_RCU_READER_MS);
	early = completion_done(&p->started);
	rcu_read_unlock();

	KUNIT_EXPECT_TRUE(test, queued);
	KUNIT_EXPECT_FALSE(test, requeued);
	KUNIT_EXPECT_FALSE_MSG(test, early, "ran inside a reader older than the call");
	WQK_WAIT(test, &p->finished);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void flush_rcu_work_waits_for_the_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_FALSE(test, flush_rcu_work(&p->rwork));
	queue_rcu_work(wq, &p->rwork);
	KUNIT_EXPECT_TRUE(test, flush_rcu_work(&p->rwork));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static struct kunit_case wqk_cancel_cases[] = {
	KUNIT_CASE(cancel_work_removes_a_pending_item),
	KUNIT_CASE(cancel_work_sync_removes_a_pending_item),
	KUNIT_CASE_PARAM(cancel_work_sync_waits_for_a_running_item,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(cancel_work_sync_stops_a_requeueing_item,
			 wqk_kind_gen_params),
	KUNIT_CASE(delayed_item_for_any_cpu_has_an_unpinned_timer),
	KUNIT_CASE_PARAM(cancel_delayed_work_stops_the_timer,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(cancel_delayed_work_sync_waits_for_a_running_item,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(queue_delayed_work_returns_false_while_pending,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(mod_delayed_work_shortens_the_delay,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(mod_delayed_work_lengthens_the_delay,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(mod_delayed_work_queues_an_idle_item,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(delayed_items_never_run_early, wqk_kind_gen_params),
	KUNIT_CASE_PARAM(queue_rcu_work_runs_after_a_grace_period,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(flush_rcu_work_waits_for_the_item, wqk_kind_gen_params),
	{}
};

static struct kunit_suite wqk_cancel_suite = {
	.name = "workqueue_cancel",
	.test_cases = wqk_cancel_cases,
};

/* ------------------------------------------------------------------ */
/* 7. workqueue_disable                                                */
/* ------------------------------------------------------------------ */

static void disabled_item_cannot_be_queued(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	KUNIT_EXPECT_FALSE(test, disable_work(&p->work));
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
	KUNIT_EXPECT_TRUE(test, enable_work(&p->work));
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void disable_work_nests(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	disable_work(&p->work);
	disable_work(&p->work);
	KUNIT_EXPECT_FALSE(test, enable_work(&p->work));
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	KUNIT_EXPECT_TRUE(test, enable_work(&p->work));
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void disable_work_cancels_a_pending_item(struct kunit *test)
{
	struct wqk_probe *blocker, *p = wqk_probe_new(test, NULL);
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);

	queue_work(wq, &p->work);
	KUNIT_EXPECT_TRUE(test, disable_work(&p->work));
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
	KUNIT_EXPECT_TRUE(test, enable_work(&p->work));
}

static void disable_work_sync_waits_for_a_running_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_waiter *w;

	queue_work(wq, &p->work);
	WQK_WAIT(test, &p->started);
	w = wqk_waiter_start(test, WQK_DISABLE_SYNC, wq, p);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_FALSE(test, w->ret);
	KUNIT_EXPECT_TRUE(test, w->probe_finished);
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	KUNIT_EXPECT_TRUE(test, enable_work(&p->work));
}

static void disable_delayed_work_cancels_the_timer(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_delayed_work(wq, &p->dwork, 3600 * HZ);
	KUNIT_EXPECT_TRUE(test, disable_delayed_work(&p->dwork));
	KUNIT_EXPECT_FALSE(test, timer_pending(&p->dwork.timer));
	KUNIT_EXPECT_FALSE(test, queue_delayed_work(wq, &p->dwork, 0));
	KUNIT_EXPECT_FALSE(test, disable_delayed_work_sync(&p->dwork));
	KUNIT_EXPECT_FALSE(test, enable_delayed_work(&p->dwork));
	KUNIT_EXPECT_TRUE(test, enable_delayed_work(&p->dwork));
	KUNIT_EXPECT_TRUE(test, queue_delayed_work(wq, &p->dwork, 0));
	flush_delayed_work(&p->dwork);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static void enable_and_queue_work_queues_when_enabled(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	disable_work(&p->work);
	disable_work(&p->work);
	KUNIT_EXPECT_FALSE(test, enable_and_queue_work(wq, &p->work));
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
	KUNIT_EXPECT_TRUE(test, enable_and_queue_work(wq, &p->work));
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static struct kunit_case wqk_disable_cases[] = {
	KUNIT_CASE_PARAM(disabled_item_cannot_be_queued, wqk_kind_gen_params),
	KUNIT_CASE(disable_work_nests),
	KUNIT_CASE(disable_work_cancels_a_pending_item),
	KUNIT_CASE_PARAM(disable_work_sync_waits_for_a_running_item,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(disable_delayed_work_cancels_the_timer,
			 wqk_kind_gen_params),
	KUNIT_CASE_PARAM(enable_and_queue_work_queues_when_enabled,
			 wqk_kind_gen_params),
	{}
};

static struct kunit_suite wqk_disable_suite = {
	.name = "workqueue_disable",
	.test_cases = wqk_disable_cases,
};

/* ------------------------------------------------------------------ */
/* 8. workqueue_bh                                                     */
/* ------------------------------------------------------------------ */

enum wqk_bh_kind { WQK_SYSTEM_BH, WQK_SYSTEM_BH_HIGHPRI, WQK_BH, WQK_BH_HIGHPRI };

static const enum wqk_bh_kind wqk_bh_kinds[] = {
	WQK_SYSTEM_BH, WQK_SYSTEM_BH_HIGHPRI, WQK_BH, WQK_BH_HIGHPRI,
};

static void wqk_bh_kind_desc(const enum wqk_bh_kind *kind, char *desc)
{
	static const char * const names[] = {
		[WQK_SYSTEM_BH] = "system_bh_wq",
		[WQK_SYSTEM_BH_HIGHPRI] = "system_bh_highpri_wq",
		[WQK_BH] = "WQ_BH", [WQK_BH_HIGHPRI] = "WQ_BH|WQ_HIGHPRI",
	};

	strscpy(desc, names[*kind], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_bh_kind, wqk_bh_kinds, wqk_bh_kind_desc);

static struct workqueue_struct *wqk_bh_wq(struct kunit *test)
{
	const enum wqk_bh_kind *kind = test->param_value;

	switch (*kind) {
	case WQK_SYSTEM_BH:
		return system_bh_wq;
	case WQK_SYSTEM_BH_HIGHPRI:
		return system_bh_highpri_wq;
	case WQK_BH:
		return wqk_wq_new(test, WQ_BH, 0);
	default:
		return wqk_wq_new(test, WQ_BH | WQ_HIGHPRI, 0);
	}
}

static void bh_items_run_in_softirq_on_the_queueing_cpu(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_bh_wq(test);
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_bh_probe_new(test, NULL);

		KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &p->work));
		WQK_WAIT(test, &p->finished);
		flush_work(&p->work);
		KUNIT_EXPECT_TRUE(test, p->in_softirq);
		KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	}
	cpus_read_unlock();
}

static void flush_workqueue_on_bh_workqueue(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_BH, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i;

	for (i = 0; i < 8; i++)
		queue_work(wq, &wqk_bh_probe_new(test, t)->work);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->finished), 8);
}

static void cancel_work_on_pending_bh_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_bh_wq(test);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);
	bool queued, cancelled;

	local_bh_disable();
	queued = queue_work(wq, &p->work);
	cancelled = cancel_work(&p->work);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, queued);
	KUNIT_EXPECT_TRUE(test, cancelled);
	KUNIT_EXPECT_FALSE(test, cancel_work_sync(&p->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
}

static void cancel_work_sync_on_running_bh_item(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_bh_wq(test);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);
	int a, b;

	wqk_two_cpus(&a, &b);
	p->burn_us = 2000;
	queue_work_on(b, wq, &p->work);
	WQK_WAIT(test, &p->started);
	KUNIT_EXPECT_FALSE(test, cancel_work_sync(&p->work));
	KUNIT_EXPECT_TRUE(test, completion_done(&p->finished));
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), 0U);
}

static void disable_work_on_bh_item_from_atomic_context(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_bh_wq(test);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);
	bool disabled;

	local_bh_disable();
	queue_work(wq, &p->work);
	disabled = disable_work(&p->work);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, disabled);
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	KUNIT_EXPECT_TRUE(test, enable_work(&p->work));
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &p->work));
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

static struct kunit_case wqk_bh_cases[] = {
	KUNIT_CASE_PARAM(bh_items_run_in_softirq_on_the_queueing_cpu,
			 wqk_bh_kind_gen_params),
	KUNIT_CASE(flush_workqueue_on_bh_workqueue),
	KUNIT_CASE_PARAM(cancel_work_on_pending_bh_item, wqk_bh_kind_gen_params),
	KUNIT_CASE_PARAM(cancel_work_sync_on_running_bh_item,
			 wqk_bh_kind_gen_params),
	KUNIT_CASE_PARAM(disable_work_on_bh_item_from_atomic_context,
			 wqk_bh_kind_gen_params),
	{}
};

static struct kunit_suite wqk_bh_suite = {
	.name = "workqueue_bh",
	.test_cases = wqk_bh_cases,
};

/* ------------------------------------------------------------------ */
/* 9. workqueue_unbound                                                */
/* ------------------------------------------------------------------ */

/* Run one item on @wq, queued on @cpu, and return its probe. */
static struct wqk_probe *__wqk_run_one(struct kunit *test,
				       struct workqueue_struct *wq, int cpu,
				       bool bh)
{
	struct wqk_probe *p = __wqk_probe_new(test, NULL, bh);

	KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &p->work));
	WQK_WAIT(test, &p->finished);
	flush_work(&p->work);
	return p;
}

static struct wqk_probe *wqk_run_one(struct kunit *test,
				     struct workqueue_struct *wq, int cpu)
{
	return __wqk_run_one(test, wq, cpu, false);
}

static void unbound_nice_attribute_applies_to_workers(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	static const int nices[] = { 5, -5, 19, 0 };
	int i;

	for (i = 0; i < ARRAY_SIZE(nices); i++) {
		attrs->nice = nices[i];
		KUNIT_EXPECT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
		KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq,
						  WORK_CPU_UNBOUND)->nice, nices[i]);
	}
}

static void unbound_highpri_items_run_at_nice_minus_20(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND | WQ_HIGHPRI, 0);

	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->nice,
			MIN_NICE);
}

static void unbound_cpumask_attribute_confines_items(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int target = wqk_last_online_cpu(), cpu;

	cpumask_copy(attrs->cpumask, cpumask_of(target));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, cpu)->cpu, target);
	cpus_read_unlock();
}

static void apply_attrs_while_items_are_in_flight(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *ps[4];
	int i;

	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_gated_probe(test, t);
		queue_work(wq, &ps[i]->work);
	}
	WQK_WAIT_STARTED(test, t, 2);
	attrs->nice = 3;
	cpumask_copy(attrs->cpumask, cpumask_of(wqk_last_online_cpu()));
	KUNIT_EXPECT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		wqk_open(ps[i]);
	flush_workqueue(wq);
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&ps[i]->runs), 1);
	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->nice, 3);
}

struct wqk_scope {
	enum wq_affn_scope scope;
	bool strict;
	const char *name;
};

static const struct wqk_scope wqk_scopes[] = {
	{ WQ_AFFN_DFL, false, "default" },
	{ WQ_AFFN_CPU, false, "cpu" },
	{ WQ_AFFN_SMT, false, "smt" },
	{ WQ_AFFN_CACHE, false, "cache" },
#ifdef WQ_HAS_CACHE_SHARD
	{ WQ_AFFN_CACHE_SHARD, false, "cache_shard" },
	{ WQ_AFFN_CACHE_SHARD, true, "cache_shard,strict" },
#endif
	{ WQ_AFFN_NUMA, false, "numa" },
	{ WQ_AFFN_SYSTEM, false, "system" },
	{ WQ_AFFN_CPU, true, "cpu,strict" },
	{ WQ_AFFN_SMT, true, "smt,strict" },
	{ WQ_AFFN_CACHE, true, "cache,strict" },
	{ WQ_AFFN_NUMA, true, "numa,strict" },
	{ WQ_AFFN_SYSTEM, true, "system,strict" },
};

static void wqk_scope_desc(const struct wqk_scope *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_scope, wqk_scopes, wqk_scope_desc);

/* Whether @ran is inside the pod of @cpu for a strict @scope. */
static bool wqk_in_pod(enum wq_affn_scope scope, int cpu, int ran)
{
	switch (scope) {
	case WQ_AFFN_CPU:
		return ran == cpu;
	case WQ_AFFN_SMT:
		return cpumask_test_cpu(ran, topology_sibling_cpumask(cpu));
	case WQ_AFFN_CACHE:
		return cpus_share_cache(cpu, ran);
	case WQ_AFFN_NUMA:
		return cpu_to_node(cpu) == cpu_to_node(ran);
	default:
		return true;
	}
}

static void every_affinity_scope_is_accepted(struct kunit *test)
{
	const struct wqk_scope *s = test->param_value;
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int cpu;

	attrs->affn_scope = s->scope;
	attrs->affn_strict = s->strict;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_run_one(test, wq, cpu);

		if (s->strict)
			KUNIT_EXPECT_TRUE_MSG(test,
					      wqk_in_pod(s->scope, cpu, p->cpu),
					      "queued on %d, ran on %d", cpu, p->cpu);
	}
	cpus_read_unlock();
}

/* Keep unbound items off @node's CPUs (as a cpuset partition does). */
static void wqk_exclude_node(struct kunit *test, int node)
{
	wqk_exclude_cpus(test, cpumask_of_node(node));
}

/*
 * The per-node share of max_active follows the CPUs items may really use:
 * the requested cpumask within the unbound cpumask.  A workqueue asking
 * only for CPUs that are excluded from unbound work runs on the others,
 * and with min_active 0 still gets a share there.
 */
static void node_quotas_follow_the_cpus_items_may_use(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 4);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i, node = cpu_to_node(wqk_last_online_cpu());
	struct wqk_probe *ps[4];

	if (num_online_nodes() < 2 ||
	    cpumask_weight(cpumask_of_node(node)) == num_online_cpus())
		kunit_skip(test, "needs online CPUs on two NUMA nodes");
	wqk_exclude_node(test, node);
	cpumask_copy(attrs->cpumask, cpumask_of_node(node));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	workqueue_set_min_active(wq, 0);

	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_probe_new(test, t);
		queue_work(wq, &ps[i]->work);
	}
	WQK_WAIT_FINISHED(test, t, ARRAY_SIZE(ps));
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_NE(test, cpu_to_node(ps[i]->cpu), node);
}

#ifdef WQ_HAS_CACHE_SHARD
/* The CPUs the worker of an item queued on @cpu may run on, into @mask. */
static void wqk_strict_worker_cpus(struct kunit *test, struct workqueue_struct *wq,
				   int cpu, struct cpumask *mask)
{
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->finished);
	cpumask_copy(mask, p->task->cpus_ptr);
}

/* An unbound workqueue with strict affinity in @scope. */
static struct workqueue_struct *wqk_strict_scope_wq(struct kunit *test,
						    enum wq_affn_scope scope)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);

	attrs->affn_scope = scope;
	attrs->affn_strict = true;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	return wq;
}

/*
 * The cache_shard scope (7.1's) cuts a last-level cache into shards of at
 * most workqueue.cache_shard_size cores (8 unless booted otherwise), SMT
 * siblings together: each CPU's shard lies within its cache pod, holds
 * whole cores, and is the cache pod where the cache has at most 8 cores.
 */
static void cache_shard_pods_cut_caches_into_whole_cores(struct kunit *test)
{
	struct workqueue_struct *shard = wqk_strict_scope_wq(test, WQ_AFFN_CACHE_SHARD);
	struct workqueue_struct *cache = wqk_strict_scope_wq(test, WQ_AFFN_CACHE);
	cpumask_var_t s, c;
	int cpu, other;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&s, GFP_KERNEL));
	if (!alloc_cpumask_var(&c, GFP_KERNEL)) {
		free_cpumask_var(s);
		KUNIT_FAIL(test, "no memory");
		return;
	}
	for_each_online_cpu(cpu) {
		wqk_strict_worker_cpus(test, shard, cpu, s);
		wqk_strict_worker_cpus(test, cache, cpu, c);
		KUNIT_EXPECT_TRUE_MSG(test, cpumask_subset(s, c), "cpu %d", cpu);
		for_each_cpu(other, s) {
			const struct cpumask *core = topology_sibling_cpumask(other);

			KUNIT_EXPECT_TRUE_MSG(test, !IS_ENABLED(CONFIG_SCHED_SMT) ||
					      cpumask_subset(core, s),
					      "cpu %d: a core cut in two", cpu);
		}
		if (cpumask_weight(c) <= 8)
			KUNIT_EXPECT_TRUE_MSG(test, cpumask_equal(s, c), "cpu %d", cpu);
	}
	free_cpumask_var(c);
	free_cpumask_var(s);
}
#endif

static struct kunit_case wqk_unbound_cases[] = {
	KUNIT_CASE(node_quotas_follow_the_cpus_items_may_use),
	KUNIT_CASE(unbound_nice_attribute_applies_to_workers),
	KUNIT_CASE(unbound_highpri_items_run_at_nice_minus_20),
	KUNIT_CASE(unbound_cpumask_attribute_confines_items),
	KUNIT_CASE(apply_attrs_while_items_are_in_flight),
	KUNIT_CASE_PARAM(every_affinity_scope_is_accepted, wqk_scope_gen_params),
#ifdef WQ_HAS_CACHE_SHARD
	KUNIT_CASE(cache_shard_pods_cut_caches_into_whole_cores),
#endif
	{}
};

static struct kunit_suite wqk_unbound_suite = {
	.name = "workqueue_unbound",
	.test_cases = wqk_unbound_cases,
};

/* ------------------------------------------------------------------ */
/* 10. workqueue_introspect                                            */
/* ------------------------------------------------------------------ */

static void work_busy_reports_pending_and_running(struct kunit *test)
{
	struct wqk_probe *blocker, *p = wqk_gated_probe(test, NULL);
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);

	KUNIT_EXPECT_EQ(test, work_busy(&p->work), 0U);
	queue_work(wq, &p->work);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), (unsigned int)WORK_BUSY_PENDING);
	wqk_open(blocker);
	WQK_WAIT(test, &p->started);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), (unsigned int)WORK_BUSY_RUNNING);
	queue_work(wq, &p->work);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work),
			(unsigned int)(WORK_BUSY_PENDING | WORK_BUSY_RUNNING));
	wqk_open(p);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), 0U);
}

static void workqueue_congested_reports_waiting_items(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	KUNIT_EXPECT_FALSE(test, workqueue_congested(cpu, wq));
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	queue_work_on(cpu, wq, &b->work);
	KUNIT_EXPECT_TRUE(test, workqueue_congested(cpu, wq));
	wqk_open(a);
	flush_workqueue(wq);
	KUNIT_EXPECT_FALSE(test, workqueue_congested(cpu, wq));
}

static void normal_workers_are_not_rescuers(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);

	KUNIT_EXPECT_FALSE(test, p->rescuer);
	KUNIT_EXPECT_FALSE(test, current_is_workqueue_rescuer());
}

static atomic_t wqk_each_cpu_runs[NR_CPUS];

static void wqk_count_cpu(struct work_struct *work)
{
	atomic_inc(&wqk_each_cpu_runs[raw_smp_processor_id()]);
}

static void schedule_on_each_cpu_runs_once_per_online_cpu(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu)
		atomic_set(&wqk_each_cpu_runs[cpu], 0);
	/* It takes the hotplug lock itself; no case here races hotplug. */
	KUNIT_EXPECT_EQ(test, schedule_on_each_cpu(wqk_count_cpu), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&wqk_each_cpu_runs[cpu]),
				    cpu_online(cpu) ? 1 : 0, "CPU %d", cpu);
}

static long wqk_cpu_plus(void *arg)
{
	return raw_smp_processor_id() + (long)arg;
}

static void work_on_cpu_returns_the_value_from_that_cpu(struct kunit *test)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, wqk_cpu_plus,
						  (void *)1000L), cpu + 1000L);
	}
	cpus_read_unlock();
	/* work_on_cpu_safe() takes the hotplug lock itself. */
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, work_on_cpu_safe(cpu, wqk_cpu_plus,
						       (void *)7L), cpu + 7L);
}

struct wqk_ew {
	struct execute_work ew;
	bool ran;
	bool in_interrupt;
	int ret;
	struct completion done;
};

static void wqk_ew_fn(struct work_struct *work)
{
	struct wqk_ew *e = container_of(work, struct wqk_ew, ew.work);

	e->ran = true;
	e->in_interrupt = in_interrupt();
	complete(&e->done);
}

static void execute_in_process_context_runs_directly(struct kunit *test)
{
	struct wqk_ew *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	init_completion(&e->done);
	KUNIT_EXPECT_EQ(test, execute_in_process_context(wqk_ew_fn, &e->ew), 0);
	KUNIT_EXPECT_TRUE(test, e->ran);
}

static void wqk_ew_from_bh(struct wqk_probe *p)
{
	struct wqk_ew *e = p->data;

	e->ret = execute_in_process_context(wqk_ew_fn, &e->ew);
}

static void execute_in_process_context_defers_from_softirq(struct kunit *test)
{
	struct wqk_ew *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	init_completion(&e->done);
	p->data = e;
	p->hook = wqk_ew_from_bh;
	queue_work(system_bh_wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, e->ret, 1);
	WQK_WAIT(test, &e->done);
	KUNIT_EXPECT_FALSE(test, e->in_interrupt);
	flush_work(&e->ew.work);
}

static void wqk_describe(struct wqk_probe *p)
{
	char *buf = p->data;

	set_worker_desc("wqk-desc-%d", 42);
	wq_worker_comm(buf, 64, current);
}

static void worker_names_show_set_worker_desc(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	p->data = buf;
	p->hook = wqk_describe;
	queue_work(wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "kworker/"), "%s", buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "+wqk-desc-42"), "%s", buf);
}

/*
 * Dumps (SysRq-t, the watchdog, a failed freeze) are read by people and
 * scripts: their text is ABI.  A case prints a marker, has the dump
 * printed, and reads back the log lines after the marker, without their
 * "[time]" prefix.
 */
#define WQK_LOG_LINES	256
#define WQK_LOG_LEN	2048	/* a whole printk message */
#define WQK_NAME_LEN	24

struct wqk_log {
	char line[WQK_LOG_LINES][WQK_LOG_LEN];
	char next[WQK_LOG_LEN];
	int nr;
};

KUNIT_DEFINE_ACTION_WRAPPER(wqk_kvfree_action, kvfree, const void *);

/* Drop a "[time] " prefix at @line, if there is one. */
static void wqk_log_unstamp(char *line)
{
	char *end = line[0] == '[' ? strstr(line, "] ") : NULL;

	if (end)
		memmove(line, end + 2, strlen(end + 2) + 1);
}

/*
 * Trailing newlines and the "[time] " prefixes off a record, also those
 * of the lines of a multi-line record after its first.
 */
static void wqk_log_chomp(char *line, size_t len)
{
	char *nl = line;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	wqk_log_unstamp(line);
	while ((nl = strchr(nl, '\n')))
		wqk_log_unstamp(++nl);
}

/* Run @dump(@arg) and return the log lines it printed. */
static struct wqk_log *wqk_log_of(struct kunit *test, void (*dump)(void *),
				  void *arg)
{
	struct kmsg_dump_iter iter = { };
	struct wqk_log *log = kvzalloc(sizeof(*log), GFP_KERNEL);
	char marker[48], *buf;
	bool seen = false;
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, log);
	wqk_defer(test, wqk_kvfree_action, log);
	buf = log->next;
	snprintf(marker, sizeof(marker), "wqk: dump %08x follows",
		 get_random_u32());
	pr_info("%s\n", marker);
	dump(arg);
	kmsg_dump_rewind(&iter);
	while (log->nr < WQK_LOG_LINES &&
	       kmsg_dump_get_line(&iter, false, buf, WQK_LOG_LEN, &len)) {
		buf[min(len, WQK_LOG_LEN - 1)] = '\0';
		if (seen) {
			wqk_log_chomp(buf, strlen(buf));
			strscpy(log->line[log->nr++], buf, WQK_LOG_LEN);
		}
		seen |= !!strstr(buf, marker);
	}
	KUNIT_ASSERT_TRUE_MSG(test, seen, "marker not found in the log");
	return log;
}

/*
 * The first line that starts with @prefix after the first that starts
 * with @after (from the top if @after is %NULL), or "" (and a failure).
 */
static const char *wqk_log_line_after(struct kunit *test, struct wqk_log *log,
				      const char *after, const char *prefix)
{
	int i = 0;

	while (after && i < log->nr && !str_has_prefix(log->line[i], after))
		i++;
	for (i += !!after; i < log->nr; i++)
		if (str_has_prefix(log->line[i], prefix))
			return log->line[i];
	KUNIT_FAIL(test, "no line starting with \"%s\" after \"%s\" in %d lines",
		   prefix, after ?: "", log->nr);
	return "";
}

/* The first line that starts with @prefix, or "" (and a failure). */
static const char *wqk_log_line(struct kunit *test, struct wqk_log *log,
				const char *prefix)
{
	return wqk_log_line_after(test, log, NULL, prefix);
}

/* A per-CPU workqueue of @flags, max_active 1, whose name the case knows. */
static struct workqueue_struct *__wqk_named_wq(struct kunit *test, char *name,
					       unsigned int flags)
{
	struct workqueue_struct *wq;

	snprintf(name, WQK_NAME_LEN, "wqk_dump_%x", get_random_u32() & 0xffff);
	wq = alloc_workqueue("%s", flags, 1, name);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	return wq;
}

static struct workqueue_struct *wqk_named_wq(struct kunit *test, char *name)
{
	return __wqk_named_wq(test, name, 0);
}

/* What a worker showed of itself while it ran an item (wqk_record_desc()). */
struct wqk_desc {
	char comm[64];
	bool describe;		/* call set_worker_desc() instead */
};

static void wqk_record_desc(struct wqk_probe *p)
{
	struct wqk_desc *d = p->data;

	if (d->describe)
		set_worker_desc("wqk-desc-%d", 7);
	else
		wq_worker_comm(d->comm, sizeof(d->comm), current);
}

/*
 * Run @p on @cpu's pool of @wq and check the description its worker
 * showed: "+@name" at the end.
 */
static void wqk_expect_desc(struct kunit *test, struct workqueue_struct *wq,
			    struct wqk_probe *p, int cpu, const char *name)
{
	struct wqk_desc *d = p->data;
	const char *plus;

	d->describe = false;
	queue_work_on(cpu, wq, &p->work);
	flush_work(&p->work);
	plus = strrchr(d->comm, '+');
	KUNIT_EXPECT_NOT_NULL_MSG(test, plus, "%s", d->comm);
	if (plus)
		KUNIT_EXPECT_STREQ(test, plus + 1, name);
}

/*
 * ps shows the workqueue of the item a worker runs.  A worker copies the
 * name only when it changes, so check the cases where it must: an item
 * of another workqueue, an item of the same one after set_worker_desc(),
 * and a new workqueue in the memory of a destroyed one (which the
 * allocator hands back at once, most of the time).
 */
static void worker_desc_follows_each_item(struct kunit *test)
{
	struct wqk_desc *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	char a[WQK_NAME_LEN], b[WQK_NAME_LEN];
	struct workqueue_struct *wqa = wqk_named_wq(test, a);
	struct workqueue_struct *wqb = wqk_named_wq(test, b);
	struct workqueue_struct *gone, *reborn;
	int cpu = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_NOT_NULL(test, d);
	p->data = d;
	p->hook = wqk_record_desc;
	wqk_expect_desc(test, wqa, p, cpu, a);
	wqk_expect_desc(test, wqb, p, cpu, b);
	wqk_expect_desc(test, wqa, p, cpu, a);

	d->describe = true;
	queue_work_on(cpu, wqa, &p->work);
	flush_work(&p->work);
	wqk_expect_desc(test, wqa, p, cpu, a);

	gone = alloc_workqueue("wqk_desc_gone", 0, 1);
	KUNIT_ASSERT_NOT_NULL(test, gone);
	wqk_expect_desc(test, gone, p, cpu, "wqk_desc_gone");
	destroy_workqueue(gone);
	reborn = alloc_workqueue("wqk_desc_reborn", 0, 1);
	KUNIT_ASSERT_NOT_NULL(test, reborn);
	wqk_defer(test, wqk_destroy_wq_action, reborn);
	wqk_expect_desc(test, reborn, p, cpu, "wqk_desc_reborn");
}

static void wqk_show_one(void *wq)
{
	show_one_workqueue(wq);
}

static void wqk_show_all(void *unused)
{
	show_all_workqueues();
}

/* The pool ID from a "  pwq ID:" line, -1 if there is none. */
static int wqk_pwq_line_pool(const char *line)
{
	int id;

	return sscanf(line, " pwq %d:", &id) == 1 ? id : -1;
}

/*
 * The ID of a per-CPU pool of @cpu: 6.12 numbers them per CPU at boot in
 * the order bh, bh-highpri, normal, highpri (@kind 0 to 3), which dumps
 * and wq_dump.py show (for possible CPUs numbered without holes, as on
 * the test guest).
 */
static int wqk_cpu_pool_id(int cpu, int kind)
{
	return cpu * 4 + kind;
}

#ifdef WQ_HAS_RT_CLASS
/*
 * The ID of @cpu's real-time pool: the RT pools come after the four pools
 * of every possible CPU, in CPU order (workqueue_init_early()).
 */
static int wqk_rt_pool_id(int cpu)
{
	int other, before = 0;

	for_each_possible_cpu(other)
		before += other < cpu;
	return 4 * num_possible_cpus() + before;
}
#endif

/*
 * A running item with a flush_work() barrier behind it, and inactive
 * items where runs of one function fold and a barrier breaks the run:
 *   in-flight: PID:fn BAR(PID)
 *   inactive: 2*fn BAR(PID), fn
 */
static void dump_lists_items_with_runs_and_barriers(struct kunit *test)
{
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *a = wqk_gated_probe(test, NULL), *b[3];
	struct wqk_waiter *fa, *fb;
	int cpu = wqk_last_online_cpu(), i;
	struct wqk_log *log;
	const char *line;
	char want[128];

	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	for (i = 0; i < ARRAY_SIZE(b); i++) {
		b[i] = wqk_probe_new(test, NULL);
		queue_work_on(cpu, wq, &b[i]->work);
	}
	fa = wqk_waiter_start(test, WQK_FLUSH_WORK, NULL, a);
	fb = wqk_waiter_start(test, WQK_FLUSH_WORK, NULL, b[1]);

	log = wqk_log_of(test, wqk_show_one, wq);
	snprintf(want, sizeof(want), "workqueue %s: flags=0x", name);
	wqk_log_line(test, log, want);
	line = wqk_log_line(test, log, "  pwq ");
	snprintf(want, sizeof(want), " cpus=%d ", cpu);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want), "%s", line);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, " nice=0 active=1 refcnt="),
				  "%s", line);
	KUNIT_EXPECT_EQ(test, wqk_pwq_line_pool(line), wqk_cpu_pool_id(cpu, 2));
	snprintf(want, sizeof(want), "    in-flight: %d:wqk_probe_fn BAR(%d)",
		 task_pid_nr(a->task), task_pid_nr(fa->th->task));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    in-flight:"), want);
	snprintf(want, sizeof(want),
		 "    inactive: 2*wqk_probe_fn BAR(%d), wqk_probe_fn",
		 task_pid_nr(fb->th->task));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    inactive:"), want);

	wqk_open(a);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&fa->th->done,
							  WQK_TIMEOUT), 0UL);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&fb->th->done,
							  WQK_TIMEOUT), 0UL);
}

/*
 * The pool of a busy CPU: "hung=0s" while nothing waits for a worker,
 * then the idle workers as " idle: PID PID".
 */
static void dump_shows_busy_pool_with_idle_workers(struct kunit *test)
{
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu(), pool;
	struct wqk_log *log;
	const char *line, *rest;
	char want[64];

	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	log = wqk_log_of(test, wqk_show_all, NULL);
	wqk_open(a);

	/* other workqueues may be busy too: our pwq follows our name */
	snprintf(want, sizeof(want), "workqueue %s:", name);
	pool = wqk_pwq_line_pool(wqk_log_line_after(test, log, want, "  pwq "));
	KUNIT_ASSERT_GE(test, pool, 0);
	snprintf(want, sizeof(want), "pool %d:", pool);
	line = wqk_log_line(test, log, want);
	rest = strstr(line, " hung=");
	KUNIT_ASSERT_NOT_NULL_MSG(test, rest, "%s", line);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(rest, " hung=0s workers="),
			      "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "idle workers"), "%s", line);
	rest = strstr(line, " idle: ");
	if (rest)	/* then only PIDs */
		KUNIT_EXPECT_EQ_MSG(test, strspn(rest + 7, "0123456789 "),
				    strlen(rest + 7), "%s", line);
}

static void wqk_nop_a(struct work_struct *work) { }
static void wqk_nop_b(struct work_struct *work) { }

/*
 * 200 waiting items of two alternating functions make an "inactive:"
 * line of some 3000 characters, more than a printk record holds: it goes
 * on in further lines, and not one item is lost.
 */
static void dump_lines_have_no_length_limit(struct kunit *test)
{
	enum { NR = 200 };
	/* before the workqueue: freed after its destruction drains them */
	struct work_struct *w = kunit_kcalloc(test, NR, sizeof(*w), GFP_KERNEL);
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu(), i, seen = 0;
	struct wqk_log *log;
	bool inactive = false;

	KUNIT_ASSERT_NOT_NULL(test, w);
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	for (i = 0; i < NR; i++) {
		INIT_WORK(&w[i], i % 2 ? wqk_nop_b : wqk_nop_a);
		queue_work_on(cpu, wq, &w[i]);
	}
	log = wqk_log_of(test, wqk_show_one, wq);
	wqk_open(a);
	flush_workqueue(wq);

	for (i = 0; i < log->nr; i++) {
		const char *p = log->line[i];

		inactive |= str_has_prefix(p, "    inactive:");
		while (inactive && (p = strstr(p, "wqk_nop_"))) {
			seen++;
			p++;
		}
	}
	KUNIT_EXPECT_TRUE(test, inactive);
	KUNIT_EXPECT_EQ(test, seen, NR);
}

struct wqk_bh_dump {
	struct workqueue_struct *wq;
	struct wqk_probe *p[3];
	int cpu;
};

/* With softirqs off here, the items wait on this CPU's pool. */
static void wqk_show_waiting_bh(void *arg)
{
	struct wqk_bh_dump *d = arg;
	int i;

	local_bh_disable();
	d->cpu = smp_processor_id();
	for (i = 0; i < ARRAY_SIZE(d->p); i++)
		queue_work_on(d->cpu, d->wq, &d->p[i]->work);
	show_one_workqueue(d->wq);
	local_bh_enable();
}

/*
 * Items waiting on a BH pool: the pool shows as "bh" or "bh-hi" instead
 * of a nice level, and three items of one function as "3*fn".
 */
static void dump_names_bh_pools(struct kunit *test)
{
	const bool *highpri = test->param_value;
	struct wqk_bh_dump *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct wqk_log *log;
	const char *line;
	char want[32];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->wq = wqk_wq_new(test, WQ_BH | (*highpri ? WQ_HIGHPRI : 0), 0);
	for (i = 0; i < ARRAY_SIZE(d->p); i++)
		d->p[i] = wqk_bh_probe_new(test, NULL);
	log = wqk_log_of(test, wqk_show_waiting_bh, d);
	flush_workqueue(d->wq);

	line = wqk_log_line(test, log, "  pwq ");
	snprintf(want, sizeof(want), " cpus=%d ", d->cpu);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want), "%s", line);
	/* POOL_BH | POOL_DISASSOCIATED: BH pools are never bound to a CPU */
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, " flags=0x5 "), "%s", line);
	snprintf(want, sizeof(want), " %s active=3 ", *highpri ? "bh-hi" : "bh");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want), "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "nice="), "%s", line);
	KUNIT_EXPECT_EQ(test, wqk_pwq_line_pool(line),
			wqk_cpu_pool_id(d->cpu, *highpri));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    pending:"),
			   "    pending: 3*wqk_probe_fn");
}

/* A pool held up on purpose until the watchdog reports it. */
struct wqk_stall {
	struct workqueue_struct *wq;
	struct wqk_probe *hog;
	struct wqk_probe *next;
	int cpu;
	bool reported;
	char report[128];	/* the start of the report's line */
	char hog_line[32];	/* the line before the hog's stack */
	char line[WQK_LOG_LEN];
};

/*
 * Whether the watchdog's report is complete: the line that introduces the
 * hog's stack, printed after the report line and the dump, has been
 * printed since @since (us).
 */
static bool wqk_stall_reported(struct wqk_stall *st, u64 since)
{
	struct kmsg_dump_iter iter = { };
	size_t len;

	kmsg_dump_rewind(&iter);
	while (kmsg_dump_get_line(&iter, false, st->line, WQK_LOG_LEN, &len)) {
		unsigned long sec, usec;
		bool recent;

		st->line[min(len, WQK_LOG_LEN - 1)] = '\0';
		recent = sscanf(st->line, "[%lu.%lu]", &sec, &usec) == 2 &&
			 sec * USEC_PER_SEC + usec >= since;
		wqk_log_chomp(st->line, strlen(st->line));
		if (recent && !strcmp(st->line, st->hog_line))
			return true;
	}
	return false;
}

/* Hold the CPU without sleeping until the watchdog's report is complete. */
static void wqk_hog_until_reported(struct wqk_probe *p)
{
	struct wqk_stall *st = p->data;
	u64 since = div_u64(local_clock(), NSEC_PER_USEC);
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (!READ_ONCE(p->stop) && time_before(jiffies, deadline) &&
	       !st->reported) {
		mdelay(20);
		cond_resched();
		st->reported = wqk_stall_reported(st, since);
	}
}

static void wqk_stall_pool(void *arg)
{
	struct wqk_stall *st = arg;

	pr_info(WQK_EXPECTED_LOCKUP_BEGIN);
	queue_work_on(st->cpu, st->wq, &st->hog->work);
	if (wait_for_completion_timeout(&st->hog->started, WQK_TIMEOUT))
		queue_work_on(st->cpu, st->wq, &st->next->work);
	wait_for_completion_timeout(&st->hog->finished, 2 * WQK_TIMEOUT);
	flush_work(&st->next->work);
	pr_info(WQK_EXPECTED_LOCKUP_END);
}

/* Touch the softlockup (and so the workqueue) watchdog of this CPU. */
static void wqk_touch_until_reported(struct wqk_thread *th)
{
	struct wqk_stall *st = th->data;
	unsigned long deadline = jiffies + 2 * WQK_TIMEOUT;

	while (!READ_ONCE(st->reported) && time_before(jiffies, deadline)) {
		touch_softlockup_watchdog();
		msleep(20);
	}
}

/*
 * A per-CPU pool whose running item neither sleeps nor counts as
 * CPU-intensive, with an item waiting behind it: the watchdog reports
 * the pool with 6.12's line, "stuck for" counted from the pool's last
 * progress (at least the one-second threshold), then dumps the busy
 * workqueues and the stacks of the pool's running workers.  With
 * @toucher_cpu >= 0 a thread there touches its own CPU's watchdog all
 * along, which must not hide the stall of another CPU's pool.  @flags
 * are the workqueue's: WQ_RT stalls the CPU's real-time pool, which the
 * report names by its priority ("fifo=N") where others say "nice=N".
 */
static void wqk_expect_stall_report(struct kunit *test, int toucher_cpu,
				    unsigned int flags)
{
	struct wqk_stall *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	const char *line, *dump, *hogs, *tail;
	unsigned int secs = 0;
	struct wqk_log *log;
	char what[32];
	int node, i, id;

	KUNIT_ASSERT_NOT_NULL(test, st);
	wqk_set_param(test, "watchdog_thresh", "1");
	wqk_set_param(test, "cpu_intensive_thresh_us", "60000000");
	st->wq = wqk_wq_new(test, flags, 0);
	st->hog = wqk_probe_new(test, NULL);
	st->next = wqk_probe_new(test, NULL);
	st->cpu = wqk_last_online_cpu();
	st->hog->data = st;
	st->hog->hook = wqk_hog_until_reported;
	id = wqk_cpu_pool_id(st->cpu, 2);
	/* flags=0x0 nice=0; the RT pool's flags are its own */
	snprintf(what, sizeof(what), "flags=0x0 nice=0");
#ifdef WQ_HAS_RT_CLASS
	if (flags & WQ_RT) {
		id = wqk_rt_pool_id(st->cpu);
		snprintf(what, sizeof(what), "fifo=%d", wq_rt_prio);
	}
#endif
	snprintf(st->hog_line, sizeof(st->hog_line), "pool %d:", id);
	node = cpu_to_node(st->cpu);
	if (node == NUMA_NO_NODE)
		snprintf(st->report, sizeof(st->report),
			 "BUG: workqueue lockup - pool cpus=%d flags=", st->cpu);
	else
		snprintf(st->report, sizeof(st->report),
			 "BUG: workqueue lockup - pool cpus=%d node=%d flags=",
			 st->cpu, node);
	if (toucher_cpu >= 0)
		wqk_thread_run(test, wqk_touch_until_reported, st, 0,
			       toucher_cpu);

	log = wqk_log_of(test, wqk_stall_pool, st);
	line = wqk_log_line(test, log, "BUG: workqueue lockup - pool");
	/* then, in 6.12's order, the dump and the stacks of the hogs */
	dump = wqk_log_line(test, log, "Showing busy workqueues and worker pools:");
	hogs = wqk_log_line(test, log,
			    "Showing backtraces of running workers in stalled CPU-bound worker pools:");
	KUNIT_EXPECT_TRUE(test, line < dump && dump < hogs);
	for (i = 0; i < log->nr && strcmp(log->line[i], st->hog_line); i++)
		;
	KUNIT_EXPECT_TRUE_MSG(test, i < log->nr && hogs < log->line[i],
			      "no \"%s\" after the hogs' heading", st->hog_line);
	KUNIT_EXPECT_TRUE(test, st->reported);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(line, st->report), "%s", line);
	/* "flags=0x0 nice=0 stuck for Ns!", or "flags=0x.. fifo=N stuck ..." */
	tail = strstr(line, " stuck for ");
	KUNIT_EXPECT_TRUE_MSG(test, tail && tail - strlen(what) > line &&
			      !strncmp(tail - strlen(what), what, strlen(what)),
			      "no \"%s stuck for\" in: %s", what, line);
	if (tail)
		sscanf(tail + strlen(" stuck for "), "%us!", &secs);
	KUNIT_EXPECT_GE_MSG(test, secs, 1U, "%s", line);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->next->runs), 1);
}

static void watchdog_reports_a_stuck_percpu_pool(struct kunit *test)
{
	wqk_expect_stall_report(test, -1, 0);
}

/*
 * touch_softlockup_watchdog() excuses the CPU it runs on: a thread that
 * keeps touching another CPU's watchdog does not hide the stall.
 */
static void watchdog_touch_elsewhere_does_not_hide_a_stall(struct kunit *test)
{
	int other = cpumask_first(cpu_online_mask);

	if (other == wqk_last_online_cpu())
		kunit_skip(test, "needs two online CPUs");
	wqk_expect_stall_report(test, other, 0);
}

/*
 * Per-CPU pools carry their CPU's NUMA node, as the dump shows it
 * ("cpus=C node=N"), whatever was known of nodes when the pools were
 * set up at early boot.
 */
static void percpu_pools_know_their_cpus_node(struct kunit *test)
{
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe **ps;
	struct wqk_log *log;
	int cpu, i, seen = 0, n = 0;

	ps = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ps);
	for_each_online_cpu(cpu) {
		ps[n] = wqk_gated_probe(test, NULL);
		queue_work_on(cpu, wq, &ps[n]->work);
		WQK_WAIT(test, &ps[n]->started);
		n++;
	}
	log = wqk_log_of(test, wqk_show_one, wq);
	for (i = 0; i < n; i++)
		wqk_open(ps[i]);
	for (i = 0; i < log->nr; i++) {
		int id, node;

		if (sscanf(log->line[i], " pwq %d: cpus=%d node=%d", &id, &cpu,
			   &node) != 3)
			continue;
		seen++;
		KUNIT_EXPECT_EQ_MSG(test, node, cpu_to_node(cpu), "%s",
				    log->line[i]);
	}
	KUNIT_EXPECT_EQ(test, seen, n);
	flush_workqueue(wq);
}

static const bool wqk_bools[] = { false, true };

static void wqk_highpri_desc(const bool *highpri, char *desc)
{
	strscpy(desc, *highpri ? "highpri" : "normal", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_highpri, wqk_bools, wqk_highpri_desc);

/* The flags a caller passes to alloc_workqueue(), as dumps show them. */
#define WQK_PUBLIC_FLAGS	(WQ_BH | WQ_UNBOUND | WQ_FREEZABLE | WQ_MEM_RECLAIM | \
				 WQ_HIGHPRI | WQ_CPU_INTENSIVE | WQ_SYSFS | \
				 WQ_POWER_EFFICIENT | WQ_PERCPU)

/*
 * The system workqueues carry the flags 6.12 creates them with, as the
 * dump of a busy one shows: the per-CPU ones have no WQ_PERCPU bit (0x100),
 * which 6.12 does not set on them.
 */
static void system_workqueues_have_6_12_flags(struct kunit *test)
{
	const struct {
		struct workqueue_struct *wq;
		const char *name;
		unsigned int flags;
	} sys[] = {
		{ system_wq, "events", 0 },
		{ system_percpu_wq, "events", 0 },
		{ system_highpri_wq, "events_highpri", WQ_HIGHPRI },
		{ system_long_wq, "events_long", 0 },
		{ system_unbound_wq, "events_unbound", WQ_UNBOUND },
		{ system_freezable_wq, "events_freezable", WQ_FREEZABLE },
	};
	char want[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(sys); i++) {
		struct wqk_probe *p = wqk_gated_probe(test, NULL);
		unsigned int flags = ~0U;
		struct wqk_log *log;
		const char *line;
		int n;

		/* only a busy workqueue is shown */
		queue_work(sys[i].wq, &p->work);
		WQK_WAIT(test, &p->started);
		log = wqk_log_of(test, wqk_show_one, sys[i].wq);
		wqk_open(p);
		snprintf(want, sizeof(want), "workqueue %s: flags=", sys[i].name);
		line = wqk_log_line(test, log, want);
		n = sscanf(line + strlen(want), "%x", &flags);
		KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s", line);
		KUNIT_EXPECT_EQ_MSG(test, flags & WQK_PUBLIC_FLAGS, sys[i].flags,
				    "%s", line);
		flush_work(&p->work);
	}
}

#ifdef CONFIG_LOCKDEP
#define WQK_EXPECTED_LEAK_BEGIN	"workqueue_kunit: expected leak report begins\n"
#define WQK_EXPECTED_LEAK_END	"workqueue_kunit: expected leak report ends\n"

static struct lock_class_key wqk_leak_key;
static struct lockdep_map wqk_leak_map =
	STATIC_LOCKDEP_MAP_INIT("wqk_leak", &wqk_leak_key);

/*
 * Return holding wqk_leak_map.  Taken as a trylock, it depends on nothing
 * the worker holds; the next item gives it back.
 */
static void wqk_leak_hook(struct wqk_probe *p)
{
	lock_map_acquire_try(&wqk_leak_map);
}

static void wqk_unleak_hook(struct wqk_probe *p)
{
	lock_map_release(&wqk_leak_map);
}

struct wqk_leak {
	struct workqueue_struct *wq;
	struct wqk_probe *leaker, *giver;
	int cpu;
};

/*
 * The giver waits behind the leaker (max_active 1) off the worklist, so
 * no other worker is woken for it: the leaker's worker, which does not
 * sleep after the leaker, activates it and runs it next.
 */
static void wqk_leak_run(void *arg)
{
	struct wqk_leak *l = arg;

	pr_info(WQK_EXPECTED_LEAK_BEGIN);
	queue_work_on(l->cpu, l->wq, &l->leaker->work);
	if (wait_for_completion_timeout(&l->leaker->started, WQK_TIMEOUT))
		queue_work_on(l->cpu, l->wq, &l->giver->work);
	wqk_open(l->leaker);
	/* the giver's own report (lock=1->0) comes after its function */
	flush_work(&l->giver->work);
	pr_info(WQK_EXPECTED_LEAK_END);
}

/*
 * An item that returns holding a lock is reported in 6.12's two lines,
 * which log parsers match: the worker's name and PID, then the preempt
 * count, the lock and RCU depths before and after, and the function.
 */
static void leaked_lock_is_reported_in_6_12_words(struct kunit *test)
{
	struct wqk_leak l = {
		.wq = wqk_wq_new(test, 0, 1), .cpu = wqk_last_online_cpu(),
		.leaker = wqk_gated_probe(test, NULL),
		.giver = wqk_probe_new(test, NULL),
	};
	char *want = kunit_kzalloc(test, WQK_LOG_LEN, GFP_KERNEL);
	struct wqk_log *log;

	KUNIT_ASSERT_NOT_NULL(test, want);
	l.leaker->hook = wqk_leak_hook;
	l.giver->hook = wqk_unleak_hook;
	log = wqk_log_of(test, wqk_leak_run, &l);
	KUNIT_ASSERT_EQ(test, completion_done(&l.giver->finished), true);
	KUNIT_ASSERT_PTR_EQ(test, l.giver->task, l.leaker->task);
	snprintf(want, WQK_LOG_LEN,
		 "BUG: workqueue leaked atomic, lock or RCU: %s[%d]\n"
		 "     preempt=0x%08x lock=0->1 RCU=0->0 workfn=%ps",
		 l.leaker->comm, task_pid_nr(l.leaker->task), 0, wqk_probe_fn);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "BUG: workqueue leaked"),
			   want);
}
#else
WQK_ABSENT_CASE(leaked_lock_is_reported_in_6_12_words, "needs CONFIG_LOCKDEP")
#endif

static struct kunit_case wqk_introspect_cases[] = {
	KUNIT_CASE(work_busy_reports_pending_and_running),
	KUNIT_CASE(workqueue_congested_reports_waiting_items),
	KUNIT_CASE_PARAM(normal_workers_are_not_rescuers, wqk_kind_gen_params),
	KUNIT_CASE(schedule_on_each_cpu_runs_once_per_online_cpu),
	KUNIT_CASE(work_on_cpu_returns_the_value_from_that_cpu),
	KUNIT_CASE(execute_in_process_context_runs_directly),
	KUNIT_CASE(execute_in_process_context_defers_from_softirq),
	KUNIT_CASE_PARAM(worker_names_show_set_worker_desc, wqk_kind_gen_params),
	KUNIT_CASE(worker_desc_follows_each_item),
	KUNIT_CASE(dump_lists_items_with_runs_and_barriers),
	KUNIT_CASE(dump_shows_busy_pool_with_idle_workers),
	KUNIT_CASE(dump_lines_have_no_length_limit),
	KUNIT_CASE_SLOW(watchdog_reports_a_stuck_percpu_pool),
	KUNIT_CASE_SLOW(watchdog_touch_elsewhere_does_not_hide_a_stall),
	KUNIT_CASE(percpu_pools_know_their_cpus_node),
	KUNIT_CASE(leaked_lock_is_reported_in_6_12_words),
	KUNIT_CASE_PARAM(dump_names_bh_pools, wqk_highpri_gen_params),
	KUNIT_CASE(system_workqueues_have_6_12_flags),
	{}
};

static struct kunit_suite wqk_introspect_suite = {
	.name = "workqueue_introspect",
	.test_cases = wqk_introspect_cases,
};

/* ------------------------------------------------------------------ */
/* 11. workqueue_rescuer                                               */
/* ------------------------------------------------------------------ */

/* Count tasks whose comm is the (truncated) rescuer name for @name. */
static int wqk_count_rescuers(const char *name)
{
	char comm[TASK_COMM_LEN];
	struct task_struct *g, *p;
	int n = 0;

	snprintf(comm, sizeof(comm), "kworker/R-%s", name);
	rcu_read_lock();
	for_each_process_thread(g, p)
		if (!strcmp(p->comm, comm))
			n++;
	rcu_read_unlock();
	return n;
}

static void mem_reclaim_workqueue_has_a_rescuer(struct kunit *test)
{
	struct workqueue_struct *wq;
	char name[8];

	snprintf(name, sizeof(name), "wR%04x", get_random_u32() & 0xffff);
	KUNIT_ASSERT_EQ(test, wqk_count_rescuers(name), 0);
	wq = alloc_workqueue("%s", WQ_MEM_RECLAIM, 0, name);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	KUNIT_EXPECT_EQ(test, wqk_count_rescuers(name), 1);
	destroy_workqueue(wq);
}

static void plain_workqueue_has_no_rescuer(struct kunit *test)
{
	struct workqueue_struct *wq;
	char name[8];

	snprintf(name, sizeof(name), "wN%04x", get_random_u32() & 0xffff);
	wq = alloc_workqueue("%s", 0, 0, name);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	KUNIT_EXPECT_EQ(test, wqk_count_rescuers(name), 0);
	destroy_workqueue(wq);
}

#ifdef WQ_HAS_WORKER_CREATION_FAULT
#define WQK_RESCUE_BLOCKERS	32
#define WQK_RESCUED		4

static void wqk_creation_fault_off(void *unused)
{
	wq_fail_worker_creation(false);
}

/*
 * Make the pool of @cpu that per-CPU workqueues with @flags use (0: the
 * normal one, WQ_RT: the RT one) unable to run anything but its rescuers'
 * items: worker creation fails, and gated items of a workqueue without a
 * rescuer hold every worker the pool has.  Skips if the pool has more
 * workers than that.
 */
static void wqk_starve_pool(struct kunit *test, int cpu, unsigned int flags)
{
	struct workqueue_struct *plain = wqk_wq_new(test, flags, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i, started;

	wq_fail_worker_creation(true);
	wqk_defer(test, wqk_creation_fault_off, NULL);
	for (i = 0; i < WQK_RESCUE_BLOCKERS; i++)
		queue_work_on(cpu, plain, &wqk_gated_probe(test, t)->work);
	do {
		started = atomic_read(&t->started);
		msleep(WQK_SETTLE_MS);
	} while (started != atomic_read(&t->started));
	if (started == WQK_RESCUE_BLOCKERS)
		kunit_skip(test, "the pool had %d idle workers or more", started);
}

/* Queue WQK_RESCUED sleeping items of @wq on the starved pool of @cpu. */
static void wqk_queue_rescued(struct kunit *test, struct workqueue_struct *wq,
			      int cpu, struct wqk_probe **ps)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i;

	for (i = 0; i < WQK_RESCUED; i++) {
		ps[i] = wqk_probe_new(test, t);
		ps[i]->sleep_ms = 5;
		queue_work_on(cpu, wq, &ps[i]->work);
	}
	WQK_WAIT_FINISHED(test, t, WQK_RESCUED);
}
#endif

/*
 * With every worker of a pool held and none to be created, the items of
 * a WQ_MEM_RECLAIM workqueue still run: its rescuer runs them.
 */
static void rescuer_runs_items_when_workers_cannot_be_created(struct kunit *test)
{
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_MEM_RECLAIM, 0);
	struct wqk_probe *ps[WQK_RESCUED];
	int i, cpu = wqk_last_online_cpu();

	wqk_starve_pool(test, cpu, 0);
	wqk_queue_rescued(test, wq, cpu, ps);
	for (i = 0; i < WQK_RESCUED; i++) {
		KUNIT_EXPECT_TRUE(test, ps[i]->rescuer);
		KUNIT_EXPECT_EQ(test, ps[i]->cpu, cpu);
	}
#else
	kunit_skip(test, "needs WQ_HAS_WORKER_CREATION_FAULT %s",
		   "(no way to make worker creation fail in this tree)");
#endif
}

/*
 * A rescuer done with a per-CPU pool does not stay pinned to that CPU:
 * it waits where unbound work may run.
 */
static void rescuer_leaves_the_cpu_of_the_pool_it_served(struct kunit *test)
{
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_MEM_RECLAIM, 0);
	struct wqk_probe *ps[WQK_RESCUED];
	int cpu = wqk_last_online_cpu();
	unsigned long deadline;
	struct task_struct *rescuer;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	wqk_starve_pool(test, cpu, 0);
	wqk_queue_rescued(test, wq, cpu, ps);
	KUNIT_ASSERT_TRUE(test, ps[0]->rescuer);
	rescuer = ps[0]->task;
	KUNIT_EXPECT_EQ(test, ps[0]->nr_allowed, 1);
	/* it detaches once the pool's items of its workqueue are done */
	deadline = jiffies + 2 * HZ;
	while (READ_ONCE(rescuer->nr_cpus_allowed) == 1 &&
	       time_before(jiffies, deadline))
		usleep_range(5000, 10000);
	KUNIT_EXPECT_GT(test, READ_ONCE(rescuer->nr_cpus_allowed), 1);
#else
	kunit_skip(test, "needs WQ_HAS_WORKER_CREATION_FAULT %s",
		   "(no way to make worker creation fail in this tree)");
#endif
}

#define WQK_RESCUE_TURN_ITEMS	8

/*
 * One starved pool cannot keep the rescuer from another (7.0's rescuer
 * turn): with two pools of one WQ_MEM_RECLAIM workqueue starved at once,
 * eight items waiting on the first, the rescuer at work on them, and then
 * one on the second, the rescuer runs one item of a pool at a time and
 * goes back in line, so the second pool's item finishes before the first
 * pool's eight are done (a rescuer that serves a pool to the end runs it
 * last; when it comes earlier depends on when the second pool asks).
 */
static void rescuer_serves_two_starved_pools_in_turn(struct kunit *test)
{
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_MEM_RECLAIM, 0);
	int a = wqk_last_online_cpu(), b = cpumask_first(cpu_online_mask), i;
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *first = NULL, *other;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	wqk_starve_pool(test, a, 0);
	wqk_starve_pool(test, b, 0);
	for (i = 0; i < WQK_RESCUE_TURN_ITEMS; i++) {
		struct wqk_probe *p = wqk_probe_new(test, t);

		p->sleep_ms = 50;
		queue_work_on(a, wq, &p->work);
		first = first ?: p;
	}
	/* the first pool's request is served first: the rescuer is at it */
	WQK_WAIT(test, &first->started);
	other = wqk_probe_new(test, t);
	queue_work_on(b, wq, &other->work);
	WQK_WAIT_FINISHED(test, t, WQK_RESCUE_TURN_ITEMS + 1);
	KUNIT_EXPECT_TRUE(test, other->rescuer);
	KUNIT_EXPECT_LE_MSG(test, other->place, WQK_RESCUE_TURN_ITEMS,
			    "the second pool's item finished %dth of %d",
			    other->place, WQK_RESCUE_TURN_ITEMS + 1);
#else
	kunit_skip(test, "needs WQ_HAS_WORKER_CREATION_FAULT %s",
		   "(no way to make worker creation fail in this tree)");
#endif
}

static struct kunit_case wqk_rescuer_cases[] = {
	KUNIT_CASE(mem_reclaim_workqueue_has_a_rescuer),
	KUNIT_CASE(plain_workqueue_has_no_rescuer),
	KUNIT_CASE(rescuer_runs_items_when_workers_cannot_be_created),
	KUNIT_CASE(rescuer_leaves_the_cpu_of_the_pool_it_served),
	KUNIT_CASE(rescuer_serves_two_starved_pools_in_turn),
	{}
};

static struct kunit_suite wqk_rescuer_suite = {
	.name = "workqueue_rescuer",
	.test_cases = wqk_rescuer_cases,
};

/* ------------------------------------------------------------------ */
/* 12. workqueue_hotplug                                               */
/* ------------------------------------------------------------------ */

/* The CPU a hotplug case takes down, or skip the case. */
static int wqk_hotplug_victim(struct kunit *test)
{
	int cpu;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	cpu = wqk_last_online_cpu();
	if (!cpu_is_hotpluggable(cpu))
		kunit_skip(test, "CPU %d is not hotpluggable", cpu);
	return cpu;
}

static void wqk_cpu_up_action(void *arg)
{
	int cpu = (long)arg;

	if (!cpu_online(cpu))
		add_cpu(cpu);
}

static void wqk_take_cpu_down(struct kunit *test, int cpu)
{
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	wqk_defer(test, wqk_cpu_up_action, (void *)(long)cpu);
}

static void items_on_a_cpu_going_offline_run_exactly_once(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, t);
	struct wqk_probe *ps[6], *delayed[2];
	int i;

	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_probe_new(test, t);
		ps[i]->sleep_ms = i % 2;
		queue_work_on(cpu, wq, &ps[i]->work);
	}
	for (i = 0; i < ARRAY_SIZE(delayed); i++) {
		delayed[i] = wqk_probe_new(test, t);
		queue_delayed_work_on(cpu, wq, &delayed[i]->dwork, 2 + 20 * i);
	}
	wqk_take_cpu_down(test, cpu);
	wqk_open(blocker);
	WQK_WAIT_FINISHED(test, t, 1 + ARRAY_SIZE(ps) + ARRAY_SIZE(delayed));
	flush_workqueue(wq);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&blocker->runs), 1);
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&ps[i]->runs), 1);
	for (i = 0; i < ARRAY_SIZE(delayed); i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&delayed[i]->runs), 1);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
}

static void percpu_pool_serves_its_cpu_again_after_online(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct workqueue_struct *hi = wqk_wq_new(test, WQ_HIGHPRI, 0);
	struct workqueue_struct *bh = wqk_wq_new(test, WQ_BH, 0);
	struct wqk_probe *p;

	wqk_take_cpu_down(test, cpu);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	p = wqk_run_one(test, wq, cpu);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	p = wqk_run_one(test, hi, cpu);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	KUNIT_EXPECT_EQ(test, p->nice, MIN_NICE);
	p = __wqk_run_one(test, bh, cpu, true);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	KUNIT_EXPECT_TRUE(test, p->in_softirq);
	KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, wqk_cpu_plus, NULL), (long)cpu);
}

static void unbound_workqueues_follow_cpus_going_down_and_up(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test), other;
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);

	attrs->affn_scope = WQ_AFFN_CPU;
	attrs->affn_strict = true;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	wqk_take_cpu_down(test, cpu);
	for_each_online_cpu(other)
		KUNIT_EXPECT_NE(test, wqk_run_one(test, wq, other)->cpu, cpu);
	KUNIT_EXPECT_NE(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->cpu, cpu);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, cpu)->cpu, cpu);
}

/*
 * An unbound workqueue confined to one CPU: while that CPU is down its
 * workers run elsewhere (the scheduler widens their affinity); once it is
 * back they are confined to it again.
 */
static void unbound_workers_are_confined_again_when_their_cpu_returns(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_probe *p;

	cpumask_copy(attrs->cpumask, cpumask_of(cpu));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->cpu, cpu);
	wqk_take_cpu_down(test, cpu);
	KUNIT_EXPECT_NE(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->cpu, cpu);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	KUNIT_EXPECT_EQ(test, p->nr_allowed, 1);
}

/* The unbound pool that ran @p, from its worker's name "kworker/uID:N". */
static int wqk_unbound_pool_of(struct wqk_probe *p)
{
	char comm[TASK_COMM_LEN];
	int id;

	get_task_comm(comm, p->task);
	return sscanf(comm, "kworker/u%d:", &id) == 1 ? id : -1;
}

/*
 * Pods are made of possible CPUs: a CPU of a pod going down and up again
 * leaves the pod's pool in place (as wq_dump.py shows on 6.12), only a
 * pod left without any online CPU falls back to the default pwq.
 */
static void unbound_pool_outlives_hotplug_of_one_of_its_cpus(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test), other, pool;
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);

	for_each_online_cpu(other)
		if (other != cpu && cpu_to_node(other) == cpu_to_node(cpu))
			break;
	if (other >= nr_cpu_ids || nr_node_ids < 2)
		kunit_skip(test, "needs two NUMA nodes, CPU %d's with another CPU",
			   cpu);
	attrs->affn_scope = WQ_AFFN_NUMA;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	pool = wqk_unbound_pool_of(wqk_run_one(test, wq, other));
	KUNIT_ASSERT_GE(test, pool, 0);
	wqk_take_cpu_down(test, cpu);
	KUNIT_EXPECT_EQ(test, wqk_unbound_pool_of(wqk_run_one(test, wq, other)),
			pool);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, wqk_unbound_pool_of(wqk_run_one(test, wq, other)),
			pool);
	KUNIT_EXPECT_EQ(test, wqk_unbound_pool_of(wqk_run_one(test, wq, cpu)),
			pool);
}

/* Items of a BH pool of @cpu, and the runs that happened elsewhere. */
struct wqk_strand {
	int cpu;
	atomic_t elsewhere;
};

/* Requeue on the CPU while it runs there; a run elsewhere ends the chain. */
static void wqk_requeue_on_its_cpu(struct wqk_probe *p)
{
	struct wqk_strand *s = p->data;

	if (p->cpu != s->cpu)
		atomic_inc(&s->elsewhere);
	else if (!READ_ONCE(p->stop))
		queue_work_on(s->cpu, p->wq, &p->work);
}

/*
 * A BH item that keeps requeueing itself on its CPU is left on the CPU's
 * pool when it dies: workqueue_softirq_dead() runs it once on another CPU,
 * from a drain item of the system BH workqueue, which for
 * system_bh_highpri_wq's own items must not count as recursive locking
 * of the workqueue's lockdep map (a splat fails the run).
 */
static void bh_item_left_on_a_dead_cpu_runs_once_elsewhere(struct kunit *test)
{
	const bool *highpri = test->param_value;
	int cpu = wqk_hotplug_victim(test);
	struct wqk_strand *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->cpu = cpu;
	p->wq = *highpri ? system_bh_highpri_wq : system_bh_wq;
	p->data = s;
	p->hook = wqk_requeue_on_its_cpu;
	queue_work_on(cpu, p->wq, &p->work);
	WQK_WAIT(test, &p->started);
	wqk_take_cpu_down(test, cpu);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->elsewhere), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&p->work));
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
}

static struct kunit_case wqk_hotplug_cases[] = {
	KUNIT_CASE(unbound_workers_are_confined_again_when_their_cpu_returns),
	KUNIT_CASE_PARAM(bh_item_left_on_a_dead_cpu_runs_once_elsewhere,
			 wqk_highpri_gen_params),
	KUNIT_CASE(unbound_pool_outlives_hotplug_of_one_of_its_cpus),
	KUNIT_CASE(items_on_a_cpu_going_offline_run_exactly_once),
	KUNIT_CASE(percpu_pool_serves_its_cpu_again_after_online),
	KUNIT_CASE(unbound_workqueues_follow_cpus_going_down_and_up),
	{}
};

static struct kunit_suite wqk_hotplug_suite = {
	.name = "workqueue_hotplug",
	.test_cases = wqk_hotplug_cases,
};

/* ------------------------------------------------------------------ */
/* 13. workqueue_lifecycle                                             */
/* ------------------------------------------------------------------ */

/*
 * A WQ_SYSFS workqueue whose directory cannot be made (the name is taken)
 * is not created: the caller gets NULL and the kernel goes on.  sysfs
 * dumps the stack of a duplicate name; the log check is told to expect it.
 */
static void sysfs_name_clash_fails_the_second_workqueue(struct kunit *test)
{
	struct workqueue_struct *wq, *dup;
	struct wqk_probe *p;
	char name[16];

	snprintf(name, sizeof(name), "wqk_s%04x", get_random_u32() & 0xffff);
	wq = alloc_workqueue("%s", WQ_SYSFS | WQ_UNBOUND, 0, name);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	pr_info(WQK_EXPECTED_DUMP_BEGIN);
	dup = alloc_workqueue("%s", WQ_SYSFS | WQ_UNBOUND, 0, name);
	pr_info(WQK_EXPECTED_DUMP_END);
	KUNIT_EXPECT_NULL(test, dup);
	if (dup)
		destroy_workqueue(dup);
	p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

/*
 * Callers may create workqueues and apply attributes with the CPU hotplug
 * lock held (padata does, from pcrypt's init): neither takes it again.
 */
static void attrs_apply_with_the_cpu_hotplug_lock_held(struct kunit *test)
{
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct workqueue_struct *wq;
	int ret;

	attrs->nice = 3;
	cpus_read_lock();
	wq = alloc_workqueue("wqk_hp%04x", WQ_UNBOUND, 0,
			     get_random_u32() & 0xffff);
	ret = wq ? apply_workqueue_attrs(wq, attrs) : -ENOMEM;
	cpus_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->nice, 3);
}

static void wqk_alloc_clamped(void *arg)
{
	const char *name = arg;
	struct workqueue_struct *wq = alloc_workqueue("%s", 0,
						      WQ_MAX_ACTIVE + 1, name);

	if (wq)
		destroy_workqueue(wq);
}

/* An out-of-range max_active is clamped with 6.12's warning, word for word. */
static void max_active_clamp_warns_in_6_12_words(struct kunit *test)
{
	char name[WQK_NAME_LEN], want[128];
	struct wqk_log *log;

	snprintf(name, sizeof(name), "wqk_clamp_%x", get_random_u32() & 0xffff);
	log = wqk_log_of(test, wqk_alloc_clamped, name);
	snprintf(want, sizeof(want),
		 "workqueue: max_active %d requested for %s is out of range, clamping between 1 and %d",
		 WQ_MAX_ACTIVE + 1, name, WQ_MAX_ACTIVE);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "workqueue: max_active"),
			   want);
}

/* 6.12 takes WQ_UNBOUND | WQ_PERCPU as it is: WQ_PERCPU is not checked. */
static void unbound_percpu_flags_are_accepted(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND | WQ_PERCPU, 0);
	struct wqk_probe *p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);

	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

/* Whether the log holds a line containing @text (said before the case). */
static bool wqk_log_seen(const char *text)
{
	struct kmsg_dump_iter iter = { };
	char *buf = kmalloc(WQK_LOG_LEN, GFP_KERNEL);
	bool seen = false;
	size_t len;

	if (!buf)
		return false;
	kmsg_dump_rewind(&iter);
	while (!seen && kmsg_dump_get_line(&iter, false, buf, WQK_LOG_LEN, &len)) {
		buf[min(len, WQK_LOG_LEN - 1)] = '\0';
		seen = strstr(buf, text);
	}
	kfree(buf);
	return seen;
}

/* The first line that starts with @prefix and contains @text, or "". */
static const char *wqk_log_line_with(struct kunit *test, struct wqk_log *log,
				     const char *prefix, const char *text)
{
	int i;

	for (i = 0; i < log->nr; i++)
		if (str_has_prefix(log->line[i], prefix) &&
		    strstr(log->line[i], text))
			return log->line[i];
	KUNIT_FAIL(test, "no line starting with \"%s\" and containing \"%s\" in %d lines",
		   prefix, text, log->nr);
	return "";
}

/* 6.12's WQ_NAME_LEN: the longest name is one less. */
#define WQK_WQ_NAME_LEN		32

static void wqk_alloc_named(void *arg)
{
	struct workqueue_struct *wq = alloc_workqueue("%s", 0, 0, (char *)arg);

	if (wq)
		destroy_workqueue(wq);
}

/* A name too long is cut, and 6.12's warning (once a boot) says to what. */
static void long_name_is_truncated_with_6_12_warning(struct kunit *test)
{
	char name[WQK_WQ_NAME_LEN + 16], want[128];
	struct wqk_log *log;

	if (wqk_log_seen("workqueue: name exceeds WQ_NAME_LEN"))
		kunit_skip(test, "the warning was printed before (it is printed once)");
	snprintf(name, sizeof(name), "wqk_trunc_%04x_0123456789abcdefghijklmn",
		 get_random_u32() & 0xffff);
	KUNIT_ASSERT_GE(test, strlen(name), WQK_WQ_NAME_LEN);
	log = wqk_log_of(test, wqk_alloc_named, name);
	snprintf(want, sizeof(want),
		 "workqueue: name exceeds WQ_NAME_LEN. Truncating to: %.*s",
		 WQK_WQ_NAME_LEN - 1, name);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "workqueue: name exceeds"),
			   want);
}

/*
 * flush_scheduled_work() is meant to draw a compile-time warning; this
 * case calls it on purpose.
 */
__diag_push();
__diag_ignore_all("-Wattribute-warning",
		  "the case checks the run-time warning of flush_scheduled_work()");
static void wqk_flush_scheduled(void *unused)
{
	flush_scheduled_work();
}

__diag_pop();

/*
 * flush_scheduled_work() flushes the system workqueue and, as on 6.12,
 * says at run time that this will be prohibited, with a stack dump that
 * names the caller.
 */
static void flush_scheduled_work_warns_with_a_stack_dump(struct kunit *test)
{
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_log *log;

	KUNIT_EXPECT_TRUE(test, schedule_work(&p->work));
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	log = wqk_log_of(test, wqk_flush_scheduled, NULL);
	pr_info(WQK_EXPECTED_WARN_END);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "WARNING: Flushing"),
			   "WARNING: Flushing system-wide workqueues will be prohibited in near future.");
	wqk_log_line(test, log, "Call Trace:");
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

struct wqk_rcu_call {
	struct workqueue_struct *wq;
	struct wqk_probe *p;
	bool ret;
};

static void wqk_queue_rcu(void *arg)
{
	struct wqk_rcu_call *c = arg;

	c->ret = queue_rcu_work(c->wq, &c->p->rwork);
}

/*
 * An rcu_work cannot be disabled: queue_rcu_work() on one whose inner item
 * a caller disabled refuses it and, as 6.12 does, warns (once a boot).
 */
static void queue_rcu_work_warns_on_a_disabled_item(struct kunit *test)
{
	struct wqk_rcu_call c = {
		.wq = wqk_wq_new(test, 0, 0),
		.p = wqk_probe_new(test, NULL),
	};
	struct wqk_log *log;

	KUNIT_ASSERT_FALSE(test, disable_work(&c.p->rwork.work));
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	log = wqk_log_of(test, wqk_queue_rcu, &c);
	pr_info(WQK_EXPECTED_WARN_END);
	KUNIT_EXPECT_FALSE(test, c.ret);
	KUNIT_EXPECT_FALSE(test, work_pending(&c.p->rwork.work));
	wqk_log_line_with(test, log, "WARNING: CPU: ", " queue_rcu_work+");
	KUNIT_EXPECT_TRUE(test, enable_work(&c.p->rwork.work));
	rcu_barrier();
	flush_workqueue(c.wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.p->runs), 0);
}

/* The item refused by a draining workqueue was never queued: release it. */
static void wqk_unstick_pending(void *arg)
{
	struct work_struct *work = arg;

	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
}

/*
 * A draining workqueue refuses an item from outside (6.12: WARN_ON_ONCE),
 * and the item keeps PENDING, as on 6.12: it is not queued, and cannot be
 * queued again until its owner sorts it out; it is not silently made idle.
 */
static void refused_item_stays_pending_on_a_draining_workqueue(struct kunit *test)
{
	struct wqk_probe *blocker, *p;
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);
	struct wqk_waiter *w;
	bool queued;

	p = wqk_probe_new(test, NULL);
	wqk_defer(test, wqk_unstick_pending, &p->work);
	w = wqk_waiter_start(test, WQK_DRAIN, wq, NULL);
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	queued = queue_work(wq, &p->work);
	pr_info(WQK_EXPECTED_WARN_END);
	KUNIT_EXPECT_TRUE(test, queued);
	KUNIT_EXPECT_TRUE(test, work_pending(&p->work));
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	wqk_open(blocker);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, work_pending(&p->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
}

/* More items than the default max_active, queued on one CPU's BH pool. */
#define WQK_BH_BURST		(WQ_DFL_ACTIVE + 8)

struct wqk_bh_item {
	struct work_struct work;
	atomic_t *runs;
};

struct wqk_bh_burst {
	struct workqueue_struct *wq;
	struct wqk_bh_item items[WQK_BH_BURST];
	atomic_t runs;
	int max_active;		/* for wqk_bh_set_max_active() */
};

static void wqk_bh_burst_fn(struct work_struct *work)
{
	atomic_inc(container_of(work, struct wqk_bh_item, work)->runs);
}

/* Queue the burst with BHs off, so that nothing runs yet, and dump it. */
static void wqk_bh_burst_show(void *arg)
{
	struct wqk_bh_burst *b = arg;
	int i;

	local_bh_disable();
	for (i = 0; i < WQK_BH_BURST; i++)
		queue_work(b->wq, &b->items[i].work);
	show_one_workqueue(b->wq);
	local_bh_enable();
}

/* How many items of the dumped burst were active (-1 if not shown). */
static int wqk_bh_burst_active(struct kunit *test, struct wqk_bh_burst *b)
{
	struct wqk_log *log = wqk_log_of(test, wqk_bh_burst_show, b);
	const char *line = wqk_log_line(test, log, "  pwq ");
	const char *active = strstr(line, " active=");
	int n = -1;

	KUNIT_EXPECT_NOT_NULL_MSG(test, active, "%s", line);
	if (active && sscanf(active, " active=%d", &n) != 1)
		n = -1;
	flush_workqueue(b->wq);
	return n;
}

static void wqk_bh_set_max_active(void *arg)
{
	struct wqk_bh_burst *b = arg;

	workqueue_set_max_active(b->wq, b->max_active);
}

/*
 * A BH workqueue has no max_active of its own (6.12 gives it INT_MAX):
 * every item of a burst larger than the default limit is active at once.
 * workqueue_set_max_active() on it warns and changes nothing.
 */
static void bh_workqueue_has_no_max_active_limit(struct kunit *test)
{
	struct wqk_bh_burst *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct wqk_log *log;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->wq = wqk_wq_new(test, WQ_BH, 0);
	for (i = 0; i < WQK_BH_BURST; i++) {
		INIT_WORK(&b->items[i].work, wqk_bh_burst_fn);
		b->items[i].runs = &b->runs;
	}
	KUNIT_EXPECT_EQ(test, wqk_bh_burst_active(test, b), WQK_BH_BURST);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->runs), WQK_BH_BURST);

	b->max_active = 1;
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	log = wqk_log_of(test, wqk_bh_set_max_active, b);
	pr_info(WQK_EXPECTED_WARN_END);
	wqk_log_line_with(test, log, "WARNING: CPU: ", " workqueue_set_max_active+");
	KUNIT_EXPECT_EQ(test, wqk_bh_burst_active(test, b), WQK_BH_BURST);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->runs), 2 * WQK_BH_BURST);
}

/* Busy, not asleep: a sleep would let the flusher run before it ends. */
#define WQK_SHORT_ITEM_US	20

static void wqk_short_item(struct work_struct *work)
{
	udelay(WQK_SHORT_ITEM_US);
}

#define WQK_BARRIER_ROUNDS	50

/*
 * A flush_work() barrier belongs to its workqueue until it has run: a
 * destroy right after the flush must find nothing in flight (6.12 counts
 * the barrier in its target's color, so the drain waits for it).  A busy
 * workqueue at destroy is a WARN the log check catches.
 */
static void destroy_right_after_flush_work_finds_it_idle(struct kunit *test)
{
	struct work_struct work;
	int i;

	INIT_WORK_ONSTACK(&work, wqk_short_item);
	for (i = 0; i < WQK_BARRIER_ROUNDS; i++) {
		struct workqueue_struct *wq = alloc_workqueue("wqk_bar%d", 0, 0, i);

		KUNIT_ASSERT_NOT_NULL(test, wq);
		queue_work(wq, &work);
		flush_work(&work);
		destroy_workqueue(wq);
	}
	destroy_work_on_stack(&work);
}

#define WQK_RR_ITEMS	6

struct wqk_rr {
	struct workqueue_struct *wq;
	struct wqk_probe *p[WQK_RR_ITEMS];
	int from[WQK_RR_ITEMS];
};

/* Queue the items one at a time, each from a known CPU, and wait for it. */
static void wqk_queue_rr_items(void *arg)
{
	struct wqk_rr *rr = arg;
	int i;

	for (i = 0; i < WQK_RR_ITEMS; i++) {
		rr->from[i] = get_cpu();
		queue_work(rr->wq, &rr->p[i]->work);
		put_cpu();
		wait_for_completion_timeout(&rr->p[i]->finished, WQK_TIMEOUT);
	}
}

/*
 * workqueue.debug_force_rr_cpu sends unbound items round the allowed CPUs
 * instead of to the queueing CPU's pod, saying so once a boot in 6.12's
 * words: with one-CPU strict pods, items run away from the CPU that
 * queued them (never, without it).
 */
static void forced_round_robin_spreads_unbound_items(struct kunit *test)
{
	const char *text = "workqueue: round-robin CPU selection forced, expect performance impact";
	struct wqk_rr *rr = kunit_kzalloc(test, sizeof(*rr), GFP_KERNEL);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	bool said = wqk_log_seen(text);
	struct wqk_log *log;
	int i, away = 0;

	KUNIT_ASSERT_NOT_NULL(test, rr);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	rr->wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	attrs->affn_scope = WQ_AFFN_CPU;
	attrs->affn_strict = true;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(rr->wq, attrs), 0);
	for (i = 0; i < WQK_RR_ITEMS; i++)
		rr->p[i] = wqk_probe_new(test, NULL);
	wqk_set_param(test, "debug_force_rr_cpu", "1");
	log = wqk_log_of(test, wqk_queue_rr_items, rr);
	for (i = 0; i < WQK_RR_ITEMS; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&rr->p[i]->runs), 1);
		away += rr->p[i]->cpu != rr->from[i];
	}
	KUNIT_EXPECT_GE(test, away, 1);
	if (!said)
		KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "workqueue: round-robin"),
				   text);
}

struct wqk_drain_chain {
	struct workqueue_struct *wq;
	struct wqk_probe *p;
};

static void wqk_drain_chain(void *arg)
{
	struct wqk_drain_chain *d = arg;

	queue_work(d->wq, &d->p->work);
	drain_workqueue(d->wq);
}

/*
 * drain_workqueue() that needs many flushes says so in 6.12's words, at
 * the 10th try (then every 100th up to 1000): a chain of 14 runs, each
 * sleeping so that one flush sees one run, takes 13 tries.
 */
static void slow_drain_is_reported_at_the_10th_try(struct kunit *test)
{
	struct wqk_drain_chain *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	char name[WQK_NAME_LEN], want[128];
	struct wqk_log *log;
	int i, reports = 0;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->wq = wqk_named_wq(test, name);
	d->p = wqk_probe_new(test, NULL);
	d->p->wq = d->wq;
	d->p->sleep_ms = 20;
	d->p->data = (void *)14L;
	d->p->hook = wqk_requeue_chain;
	log = wqk_log_of(test, wqk_drain_chain, d);
	snprintf(want, sizeof(want),
		 "workqueue %s: drain_workqueue() isn't complete after 10 tries",
		 name);
	for (i = 0; i < log->nr; i++) {
		if (!strstr(log->line[i], "isn't complete after"))
			continue;
		reports++;
		KUNIT_EXPECT_STREQ(test, log->line[i], want);
	}
	KUNIT_EXPECT_EQ(test, reports, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->p->runs), 14);
}

static atomic_t wqk_cadence_runs;

/* A function of its own: the hog reports count per function, per boot. */
static void wqk_cadence_hog(struct work_struct *work)
{
	mdelay(40);
	atomic_inc(&wqk_cadence_runs);
}

static void wqk_run_cadence_hog(void *arg)
{
	struct work_struct *work = arg;
	int i;

	for (i = 0; i < 9; i++) {
		queue_work_on(wqk_last_online_cpu(), system_wq, work);
		flush_work(work);
	}
}

/*
 * An item that hogs its CPU past cpu_intensive_thresh_us is reported in
 * 6.12's words, from the cpu_intensive_warning_thresh-th time on and then
 * backing off: with a threshold of 1, at the 1st, 2nd, 4th and 8th time
 * of 9.
 */
static void cpu_hog_reports_back_off_as_in_6_12(struct kunit *test)
{
	static const int counts[] = { 1, 2, 4, 8 };
	struct work_struct *work = kunit_kzalloc(test, sizeof(*work), GFP_KERNEL);
	char want[160];
	struct wqk_log *log;
	int i, n = 0;

	if (!IS_ENABLED(CONFIG_WQ_CPU_INTENSIVE_REPORT))
		kunit_skip(test, "needs CONFIG_WQ_CPU_INTENSIVE_REPORT");
	if (wqk_log_seen("workqueue: wqk_cadence_hog hogged CPU"))
		kunit_skip(test, "the function was reported before in this boot");
	KUNIT_ASSERT_NOT_NULL(test, work);
	wqk_set_param(test, "cpu_intensive_thresh_us", "10000");
	wqk_set_param(test, "cpu_intensive_warning_thresh", "1");
	INIT_WORK(work, wqk_cadence_hog);
	atomic_set(&wqk_cadence_runs, 0);
	log = wqk_log_of(test, wqk_run_cadence_hog, work);
	KUNIT_ASSERT_EQ(test, atomic_read(&wqk_cadence_runs), 9);
	for (i = 0; i < log->nr; i++) {
		if (!strstr(log->line[i], "wqk_cadence_hog hogged CPU"))
			continue;
		if (n < ARRAY_SIZE(counts)) {
			snprintf(want, sizeof(want),
				 "workqueue: wqk_cadence_hog hogged CPU for >10000us %d times, consider switching to WQ_UNBOUND",
				 counts[n]);
			KUNIT_EXPECT_STREQ(test, log->line[i], want);
		}
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(counts));
}

static struct kunit_case wqk_lifecycle_cases[] = {
	KUNIT_CASE(destroy_right_after_flush_work_finds_it_idle),
	KUNIT_CASE(unbound_percpu_flags_are_accepted),
	KUNIT_CASE(max_active_clamp_warns_in_6_12_words),
	KUNIT_CASE(attrs_apply_with_the_cpu_hotplug_lock_held),
	KUNIT_CASE(sysfs_name_clash_fails_the_second_workqueue),
	KUNIT_CASE(long_name_is_truncated_with_6_12_warning),
	KUNIT_CASE(flush_scheduled_work_warns_with_a_stack_dump),
	KUNIT_CASE(queue_rcu_work_warns_on_a_disabled_item),
	KUNIT_CASE(refused_item_stays_pending_on_a_draining_workqueue),
	KUNIT_CASE(bh_workqueue_has_no_max_active_limit),
	KUNIT_CASE(forced_round_robin_spreads_unbound_items),
	KUNIT_CASE(slow_drain_is_reported_at_the_10th_try),
	KUNIT_CASE(cpu_hog_reports_back_off_as_in_6_12),
	{}
};

static struct kunit_suite wqk_lifecycle_suite = {
	.name = "workqueue_lifecycle",
	.test_cases = wqk_lifecycle_cases,
};

/* ------------------------------------------------------------------ */
/* 14. workqueue_stress                                                */
/* ------------------------------------------------------------------ */

#define WQK_STRESS_ITEMS	24
#define WQK_STRESS_OPS		1500

/**
 * struct wqk_stress_item - one item raced on by the stress threads
 * @dwork: the item, queued both directly and with a delay
 * @wq: the one workqueue it is ever queued on
 * @expected: successful queues minus successful cancels
 * @ran: executions
 *
 * Every queue that returns true and is not undone by a cancel that returns
 * true must be matched by exactly one execution.
 */
struct wqk_stress_item {
	struct delayed_work dwork;
	struct workqueue_struct *wq;
	atomic_t expected;
	atomic_t ran;
};

static void wqk_stress_fn(struct work_struct *work)
{
	struct wqk_stress_item *it = container_of(to_delayed_work(work),
						  struct wqk_stress_item, dwork);

	if (atomic_inc_return(&it->ran) % 4 == 0)
		usleep_range(10, 50);
}

static int wqk_random_cpu(void)
{
	int cpu = cpumask_nth(get_random_u32_below(num_online_cpus()),
			      cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/* One random operation on @it, keeping its books. */
static void wqk_stress_op(struct wqk_stress_item *it)
{
	unsigned long delay = get_random_u32_below(3);
	int cpu = wqk_random_cpu();

	switch (get_random_u32_below(12)) {
	case 0 ... 3:
		if (queue_work_on(cpu, it->wq, &it->dwork.work))
			atomic_inc(&it->expected);
		break;
	case 4:
		if (queue_delayed_work_on(cpu, it->wq, &it->dwork, delay))
			atomic_inc(&it->expected);
		break;
	case 5:
		/*
		 * Not mod_delayed_work_on(): it returns false both when it
		 * queued an idle item and when it found the item disabled by
		 * a racing cancel_delayed_work_sync(), so it cannot be
		 * booked.
		 */
		if (queue_delayed_work_on(cpu, it->wq, &it->dwork, 0))
			atomic_inc(&it->expected);
		break;
	case 6 ... 7:
		if (cancel_delayed_work(&it->dwork))
			atomic_dec(&it->expected);
		break;
	case 8:
		if (cancel_delayed_work_sync(&it->dwork))
			atomic_dec(&it->expected);
		break;
	case 9:
		flush_delayed_work(&it->dwork);
		break;
	case 10:
		flush_work(&it->dwork.work);
		break;
	default:
		if (get_random_u32_below(8) == 0)
			flush_workqueue(it->wq);
		break;
	}
}

static void wqk_stress_thread(struct wqk_thread *th)
{
	struct wqk_stress_item *items = th->data;
	int i;

	for (i = 0; i < WQK_STRESS_OPS; i++) {
		wqk_stress_op(&items[get_random_u32_below(WQK_STRESS_ITEMS)]);
		if (i % 16 == 0)
			cond_resched();
	}
}

static void wqk_stress_cleanup(void *arg)
{
	struct wqk_stress_item *items = arg;
	int i;

	for (i = 0; i < WQK_STRESS_ITEMS; i++)
		cancel_delayed_work_sync(&items[i].dwork);
}

static void racing_queue_cancel_flush_runs_each_item_exactly_once(struct kunit *test)
{
	struct workqueue_struct *wqs[] = {
		wqk_wq_new(test, 0, 0),
		wqk_wq_new(test, WQ_UNBOUND, 0),
		wqk_wq_new(test, WQ_HIGHPRI, 0),
		wqk_ordered_new(test),
	};
	struct wqk_stress_item *items;
	struct wqk_thread *ths[NR_CPUS];
	int i, cpu, n = 0;

	items = kunit_kcalloc(test, WQK_STRESS_ITEMS, sizeof(*items), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	for (i = 0; i < WQK_STRESS_ITEMS; i++) {
		INIT_DELAYED_WORK(&items[i].dwork, wqk_stress_fn);
		items[i].wq = wqs[i % ARRAY_SIZE(wqs)];
	}
	wqk_defer(test, wqk_stress_cleanup, items);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ths[n] = wqk_thread_run(test, wqk_stress_thread, items, n, cpu);
		n++;
	}
	cpus_read_unlock();
	for (i = 0; i < n; i++)
		WQK_WAIT(test, &ths[i]->done);

	for (i = 0; i < WQK_STRESS_ITEMS; i++)
		flush_delayed_work(&items[i].dwork);
	for (i = 0; i < ARRAY_SIZE(wqs); i++)
		flush_workqueue(wqs[i]);
	for (i = 0; i < WQK_STRESS_ITEMS; i++) {
		KUNIT_EXPECT_FALSE(test, delayed_work_pending(&items[i].dwork));
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&items[i].ran),
				    atomic_read(&items[i].expected), "item %d", i);
	}
}

#define WQK_ALLOC_RACE_ROUNDS	60

struct wqk_alloc_race {
	int victim;
	struct completion go;
	bool allowed_victim;
};

/* At a random moment of the allocation: exclude the victim from unbound work. */
static void wqk_exclude_victim_soon(struct wqk_thread *th)
{
	struct wqk_alloc_race *r = th->data;
	cpumask_var_t mask;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	cpumask_set_cpu(r->victim, mask);
	wait_for_completion(&r->go);
	udelay(get_random_u32_below(3000));
	cpus_read_lock();
	workqueue_unbound_exclude_cpumask(mask);
	cpus_read_unlock();
	free_cpumask_var(mask);
}

/* The executing worker may be put on the victim CPU. */
static void wqk_note_victim_allowed(struct wqk_probe *p)
{
	struct wqk_alloc_race *r = p->data;

	if (cpumask_test_cpu(r->victim, current->cpus_ptr))
		WRITE_ONCE(r->allowed_victim, true);
}

/* Whether an item of @wq, queued from each online CPU, may run on the victim. */
static bool wqk_wq_may_use_victim(struct kunit *test,
				  struct workqueue_struct *wq,
				  struct wqk_alloc_race *r)
{
	int cpu;

	WRITE_ONCE(r->allowed_victim, false);
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_probe_new(test, NULL);

		p->data = r;
		p->hook = wqk_note_victim_allowed;
		queue_work_on(cpu, wq, &p->work);
		if (!wait_for_completion_timeout(&p->finished, WQK_TIMEOUT))
			return true;
		if (p->cpu == r->victim)
			return true;
	}
	return READ_ONCE(r->allowed_victim);
}

/*
 * An unbound workqueue allocated while the unbound cpumask changes (as a
 * cpuset partition changes it) ends up with the new mask, wherever in the
 * allocation the change falls: none is set up with the old mask and left
 * out of the update.  Each round excludes a CPU from unbound work at a
 * random moment of an alloc_workqueue(); no worker of the new workqueue
 * may then run there.
 */
static void alloc_during_cpumask_change_gets_the_new_mask(struct kunit *test)
{
	struct wqk_alloc_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	int round, stale = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	r->victim = wqk_last_online_cpu();
	wqk_defer(test, wqk_unexclude_cpus, NULL);
	for (round = 0; round < WQK_ALLOC_RACE_ROUNDS; round++) {
		struct workqueue_struct *wq;
		struct wqk_thread *th;

		init_completion(&r->go);
		th = wqk_thread_run(test, wqk_exclude_victim_soon, r, round,
				    cpumask_first(cpu_online_mask));
		complete(&r->go);
		wq = alloc_workqueue("wqk_race%d", WQ_UNBOUND, 0, round);
		KUNIT_ASSERT_NOT_NULL(test, wq);
		WQK_WAIT(test, &th->done);
		if (wqk_wq_may_use_victim(test, wq, r))
			stale++;
		destroy_workqueue(wq);
		wqk_unexclude_cpus(NULL);
	}
	KUNIT_EXPECT_EQ_MSG(test, stale, 0,
			    "%d of %d workqueues kept CPU %d after its exclusion",
			    stale, WQK_ALLOC_RACE_ROUNDS, r->victim);
}

static struct kunit_case wqk_stress_cases[] = {
	KUNIT_CASE_SLOW(racing_queue_cancel_flush_runs_each_item_exactly_once),
	KUNIT_CASE_SLOW(alloc_during_cpumask_change_gets_the_new_mask),
	{}
};

static struct kunit_suite wqk_stress_suite = {
	.name = "workqueue_stress",
	.test_cases = wqk_stress_cases,
};

#if defined(WQ_HAS_RT_CLASS) || defined(WQ_HAS_WAIT_PI)
/* Where an item of a run records its turn. */
struct wqk_turn {
	atomic_t *next;
	int saw;
};

static void wqk_turn_hook(struct wqk_probe *p)
{
	struct wqk_turn *t = p->data;

	t->saw = atomic_fetch_inc(t->next);
}

/* @n probes (of tracker @t, may be %NULL) that record their turns. */
static void wqk_turns_new(struct kunit *test, struct wqk_tracker *t,
			  struct wqk_probe **ps, struct wqk_turn *turns,
			  atomic_t *next, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		turns[i] = (struct wqk_turn){ .next = next, .saw = -1 };
		ps[i] = wqk_probe_new(test, t);
		ps[i]->hook = wqk_turn_hook;
		ps[i]->data = &turns[i];
	}
}

/*
 * Whether @policy with @rt_priority or @nice is @want_policy at @want:
 * the real-time priority for SCHED_FIFO and SCHED_RR, else the nice level.
 */
static bool wqk_rank_is(int policy, int rt_priority, int nice,
			int want_policy, int want)
{
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;

	return policy == want_policy && (rt ? rt_priority : nice) == want;
}

/* Wait until @task runs at @policy/@prio (as wqk_rank_is()), or time out. */
static bool wqk_task_reaches(struct task_struct *task, int policy, int prio)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (time_before(jiffies, deadline)) {
		if (wqk_rank_is(READ_ONCE(task->policy), READ_ONCE(task->rt_priority),
				task_nice(task), policy, prio))
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

#define WQK_EXPECT_TASK_AT(test, task, policy, prio)			\
	KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(task, policy, prio),	\
			      "that policy and priority were never reached")

#define WQK_RT_HOG_MS	5000

/*
 * Spin until told to stop (->stop), for WQK_RT_HOG_MS at most; whether it
 * was told goes to the bool in ->data.
 */
static void wqk_rt_hog_hook(struct wqk_probe *p)
{
	unsigned long until = jiffies + msecs_to_jiffies(WQK_RT_HOG_MS);
	bool *told = p->data;

	while (!READ_ONCE(p->stop) && time_before(jiffies, until))
		cpu_relax();
	*told = READ_ONCE(p->stop);
}

/* Queue @n probes on @wq, on @cpu. */
static void wqk_queue_all(struct workqueue_struct *wq, int cpu,
			  struct wqk_probe **ps, int n)
{
	int i;

	for (i = 0; i < n; i++)
		queue_work_on(cpu, wq, &ps[i]->work);
}
#endif

/* ------------------------------------------------------------------ */
/* 15. workqueue_rt                                                    */
/* ------------------------------------------------------------------ */

/*
 * The WQ_RT class, where the kernel has it (WQ_HAS_RT_CLASS); elsewhere
 * the suite is one skipped case.
 */
#ifdef WQ_HAS_RT_CLASS

/* The RT workqueue kinds the class cases run over. */
enum wqk_rt_kind { WQK_RT_PERCPU, WQK_RT_UNBOUND, WQK_RT_ORDERED, WQK_RT_RECLAIM };

static const enum wqk_rt_kind wqk_rt_kinds[] = {
	WQK_RT_PERCPU, WQK_RT_UNBOUND, WQK_RT_ORDERED, WQK_RT_RECLAIM,
};

static void wqk_rt_kind_desc(const enum wqk_rt_kind *kind, char *desc)
{
	static const char * const names[] = {
		[WQK_RT_PERCPU] = "rt_percpu", [WQK_RT_UNBOUND] = "rt_unbound",
		[WQK_RT_ORDERED] = "rt_ordered", [WQK_RT_RECLAIM] = "rt_mem_reclaim",
	};

	strscpy(desc, names[*kind], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_rt_kind, wqk_rt_kinds, wqk_rt_kind_desc);

static struct workqueue_struct *wqk_rt_kind_wq(struct kunit *test)
{
	const enum wqk_rt_kind *kind = test->param_value;
	struct workqueue_struct *wq;

	switch (*kind) {
	case WQK_RT_UNBOUND:
		return wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	case WQK_RT_ORDERED:
		wq = alloc_ordered_workqueue("wqk_rtord_%x", WQ_RT,
					     get_random_u32() & 0xffff);
		KUNIT_ASSERT_NOT_NULL(test, wq);
		wqk_defer(test, wqk_destroy_wq_action, wq);
		return wq;
	case WQK_RT_RECLAIM:
		return wqk_wq_new(test, WQ_RT | WQ_MEM_RECLAIM, 0);
	default:
		return wqk_wq_new(test, WQ_RT, 0);
	}
}

/* @p ran on a SCHED_RR worker at the class's priority. */
static void wqk_expect_rt(struct kunit *test, struct wqk_probe *p)
{
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_RR);
	KUNIT_EXPECT_EQ(test, p->rt_priority, wq_rt_prio);
}

/*
 * Items of a WQ_RT workqueue run on SCHED_RR workers at the one priority
 * the class has (workqueue.rt_prio), named kworker/...R, for every kind
 * of workqueue: per-CPU, unbound, ordered, with a rescuer; delayed and
 * RCU items too.
 */
static void rt_items_run_sched_rr_at_the_class_priority(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_rt_kind_wq(test);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p, *d, *r;

	p = wqk_run_one(test, wq, cpu);
	wqk_expect_rt(test, p);
	KUNIT_EXPECT_EQ(test, p->comm[strlen(p->comm) - 1], 'R');
	p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);
	wqk_expect_rt(test, p);

	/* delayed work, its timer on another CPU, and RCU work too */
	d = wqk_probe_new(test, NULL);
	r = wqk_probe_new(test, NULL);
	queue_delayed_work_on(cpumask_first(cpu_online_mask), wq, &d->dwork, 1);
	queue_rcu_work(wq, &r->rwork);
	WQK_WAIT(test, &d->finished);
	WQK_WAIT(test, &r->finished);
	wqk_expect_rt(test, d);
	wqk_expect_rt(test, r);
}

/* Two workers of @wq's pool on @cpu that are idle now: no creation in the way. */
static void wqk_rt_idle_workers(struct kunit *test, struct workqueue_struct *wq,
				int cpu)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, t);
	struct wqk_probe *b = wqk_gated_probe(test, t);

	queue_work_on(cpu, wq, &a->work);
	queue_work_on(cpu, wq, &b->work);
	WQK_WAIT_STARTED(test, t, 2);
	wqk_open(a);
	wqk_open(b);
	flush_workqueue(wq);
}

/*
 * An RT item does not wait for a SCHED_OTHER task's slice: queued on its
 * own CPU by a nice -20 task that keeps running, it has run by the
 * queuer's next preemption point (the wakeup preempts the queuer at once;
 * a nice-0 worker would wait for the queuer to give the CPU up).
 */
static void rt_item_preempts_a_normal_task_on_its_cpu(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p;

	if (!IS_ENABLED(CONFIG_PREEMPTION))
		kunit_skip(test, "needs a preemptible kernel");
	wqk_rt_idle_workers(test, wq, cpu);
	wqk_pin_self(test, cpu, MIN_NICE);
	p = wqk_probe_new(test, NULL);
	queue_work_on(cpu, wq, &p->work);
	/* the first preemption point after the wakeup, as any code path has */
	preempt_disable();
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, completion_done(&p->finished));
	WQK_WAIT(test, &p->finished);
	wqk_expect_rt(test, p);
}

/*
 * The class sits below any real-time task that asked for more: an RT
 * item queued on its own CPU by a SCHED_FIFO task one level above the
 * class has not started by the queuer's next preemption point, and runs
 * once the queuer sleeps.
 */
static void rt_item_does_not_preempt_a_higher_rt_task(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p;

	if (wq_rt_prio >= MAX_RT_PRIO - 1)
		kunit_skip(test, "no real-time priority above the class's");
	wqk_rt_idle_workers(test, wq, cpu);
	wqk_pin_self(test, cpu, 0);
	KUNIT_ASSERT_EQ(test, wqk_set_prio(SCHED_FIFO, wq_rt_prio + 1), 0);
	p = wqk_probe_new(test, NULL);
	queue_work_on(cpu, wq, &p->work);
	preempt_disable();
	preempt_enable();
	KUNIT_EXPECT_FALSE(test, completion_done(&p->started));
	WQK_WAIT(test, &p->finished);
	KUNIT_EXPECT_EQ(test, wqk_set_prio(SCHED_NORMAL, 0), 0);
	wqk_expect_rt(test, p);
}

/*
 * Concurrency management covers RT pools: an RT item that sleeps lets
 * the next RT item of its CPU start.
 */
static void rt_item_that_sleeps_does_not_hold_back_the_next(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *sleeper = wqk_gated_probe(test, NULL);
	struct wqk_probe *next = wqk_probe_new(test, NULL);

	queue_work_on(cpu, wq, &sleeper->work);
	WQK_WAIT(test, &sleeper->started);
	queue_work_on(cpu, wq, &next->work);
	WQK_WAIT(test, &next->finished);
	KUNIT_EXPECT_FALSE(test, completion_done(&sleeper->finished));
	KUNIT_EXPECT_EQ(test, next->cpu, cpu);
	wqk_expect_rt(test, next);
	wqk_open(sleeper);
	WQK_WAIT(test, &sleeper->finished);
}

/* An ordered RT workqueue runs its items one at a time, in order. */
static void ordered_rt_workqueue_keeps_queueing_order(struct kunit *test)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct workqueue_struct *wq;
	atomic_t next = ATOMIC_INIT(0);
	struct wqk_probe *ps[16];
	struct wqk_turn turns[16];
	int i;

	wq = alloc_ordered_workqueue("wqk_rtord_%x", WQ_RT, get_random_u32() & 0xffff);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	wqk_turns_new(test, t, ps, turns, &next, ARRAY_SIZE(ps));
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		ps[i]->sleep_ms = i % 3 == 0;	/* sleepers must not let the next in */
	wqk_queue_all(wq, WORK_CPU_UNBOUND, ps, ARRAY_SIZE(ps));
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		KUNIT_EXPECT_EQ(test, turns[i].saw, i);
		wqk_expect_rt(test, ps[i]);
	}
}

/* An unbound RT workqueue runs its items within its cpumask. */
static void unbound_rt_workqueue_follows_its_cpumask(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int target = wqk_last_online_cpu(), cpu;

	cpumask_copy(attrs->cpumask, cpumask_of(target));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_run_one(test, wq, cpu);

		KUNIT_EXPECT_EQ(test, p->cpu, target);
		wqk_expect_rt(test, p);
	}
}

/*
 * An unbound RT workqueue and a normal one with equal attributes do not
 * share a pool: the RT one's items run SCHED_RR, the other's at nice 0,
 * on workers of their own, before and after both are given the same
 * cpumask.
 */
static void equal_attrs_rt_and_normal_unbound_do_not_share(struct kunit *test)
{
	struct workqueue_struct *rt = wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	struct workqueue_struct *plain = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int i;

	cpumask_copy(attrs->cpumask, cpumask_of(wqk_last_online_cpu()));
	for (i = 0; i < 2; i++) {
		struct wqk_probe *p = wqk_run_one(test, rt, WORK_CPU_UNBOUND);
		struct wqk_probe *q = wqk_run_one(test, plain, WORK_CPU_UNBOUND);

		wqk_expect_rt(test, p);
		KUNIT_EXPECT_EQ(test, q->policy, SCHED_NORMAL);
		KUNIT_EXPECT_EQ(test, q->nice, 0);
		KUNIT_EXPECT_PTR_NE(test, p->task, q->task);
		KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(rt, attrs), 0);
		KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(plain, attrs), 0);
	}
}

/*
 * The RT pool of a CPU going down runs its items elsewhere, at RT
 * priority, and serves its CPU again once the CPU is back.
 */
static void rt_pool_serves_its_cpu_across_hotplug(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);

	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->started);
	wqk_take_cpu_down(test, cpu);
	wqk_open(p);
	WQK_WAIT(test, &p->finished);
	p = wqk_run_one(test, wq, cpu);
	KUNIT_EXPECT_NE(test, p->cpu, cpu);
	wqk_expect_rt(test, p);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	p = wqk_run_one(test, wq, cpu);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	KUNIT_EXPECT_EQ(test, p->nr_allowed, 1);
	wqk_expect_rt(test, p);
}

/* The workers of @cpu's RT pool, by name: kworker/CPU:IDR. */
static int wqk_count_rt_workers(int cpu)
{
	struct task_struct *g, *p;
	char prefix[TASK_COMM_LEN];
	int len, n = 0;

	len = snprintf(prefix, sizeof(prefix), "kworker/%d:", cpu);
	rcu_read_lock();
	for_each_process_thread(g, p) {
		const char *s = p->comm + len;

		if (strncmp(p->comm, prefix, len))
			continue;
		while (isdigit(*s))
			s++;
		n += s[0] == 'R' && !s[1];
	}
	rcu_read_unlock();
	return n;
}

/*
 * Each CPU's RT pool has a worker in reserve from the start, so that its
 * first item does not wait for a new one (kthreadd makes it, a nice-0
 * task that CPU hogs hold back for a slice).  First in its suite: the
 * first item of a pool leaves two workers in it anyway.
 */
static void rt_pool_starts_with_a_worker_in_reserve(struct kunit *test)
{
	int cpu;

	wqk_wq_new(test, WQ_RT, 0);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_GE_MSG(test, wqk_count_rt_workers(cpu), 2,
				    "RT workers of CPU %d", cpu);
}

#ifdef WQ_HAS_WORKER_CREATION_FAULT
/*
 * With a worker in reserve from the start, the first real-time item of a
 * CPU starts at once, without kthreadd: it starts while worker creation
 * fails.  (The second, queued while the first sleeps, may wait for a
 * third worker, as the docs say: a worker leaving the last idle one
 * behind creates another before it runs anything.)
 */
static void rt_first_item_starts_without_creation(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	wq_fail_worker_creation(true);
	wqk_defer(test, wqk_creation_fault_off, NULL);
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	queue_work_on(cpu, wq, &b->work);
	wq_fail_worker_creation(false);
	wqk_open(a);
	flush_workqueue(wq);
	wqk_expect_rt(test, a);
	wqk_expect_rt(test, b);
	KUNIT_EXPECT_EQ(test, a->cpu, cpu);
}
#endif

/*
 * No user of the class gets a thread of its own: eight more WQ_RT
 * workqueues, each running an item on one CPU (one at a time, as their
 * users would), leave that CPU's RT pool with no more workers.
 */
static void rt_workqueues_add_no_threads(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), before, i;

	wqk_run_one(test, wqk_wq_new(test, WQ_RT, 0), cpu);
	before = wqk_count_rt_workers(cpu);
	for (i = 0; i < 8; i++)
		wqk_run_one(test, wqk_wq_new(test, WQ_RT, 0), cpu);
	KUNIT_EXPECT_LE(test, wqk_count_rt_workers(cpu), before);
}

/*
 * Dumps show the class's pools with "fifo=N" (workqueue.rt_prio), not a
 * nice level: the pwq line of a busy WQ_RT workqueue, and its pool's line.
 */
static void rt_pools_show_fifo_in_dumps(struct kunit *test)
{
	char name[WQK_NAME_LEN], want[64], fifo[16];
	struct workqueue_struct *wq = __wqk_named_wq(test, name, WQ_RT);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_log *log;
	const char *line;

	queue_work_on(wqk_last_online_cpu(), wq, &p->work);
	WQK_WAIT(test, &p->started);
	log = wqk_log_of(test, wqk_show_all, NULL);
	wqk_open(p);
	snprintf(fifo, sizeof(fifo), " fifo=%d ", wq_rt_prio);
	snprintf(want, sizeof(want), "workqueue %s:", name);
	line = wqk_log_line_after(test, log, want, "  pwq ");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, fifo), "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "nice="), "%s", line);
	snprintf(want, sizeof(want), "pool %d:", wqk_pwq_line_pool(line));
	line = wqk_log_line(test, log, want);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, fifo), "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "nice="), "%s", line);
}

/* WQ_RT with WQ_BH or WQ_HIGHPRI makes no sense: refused, NULL. */
static void rt_flag_combinations_that_make_no_sense_are_refused(struct kunit *test)
{
	static const unsigned int bad[] = { WQ_RT | WQ_BH, WQ_RT | WQ_HIGHPRI,
					    WQ_RT | WQ_HIGHPRI | WQ_UNBOUND };
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct workqueue_struct *wq = alloc_workqueue("wqk_bad", bad[i], 0);

		KUNIT_EXPECT_NULL_MSG(test, wq, "flags %#x", bad[i]);
		if (wq)
			destroy_workqueue(wq);
	}
}

/*
 * The rescuer of an RT workqueue runs its items at RT priority: with the
 * CPU's RT pool starved, the rescued items still run SCHED_RR; and the
 * rescuer returns to nice -20 when done.
 */
static void rescuer_of_an_rt_workqueue_runs_items_sched_rr_then_nice_minus_20(struct kunit *test)
{
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT | WQ_MEM_RECLAIM, 0);
	struct wqk_probe *ps[WQK_RESCUED];
	int i, cpu = wqk_last_online_cpu();

	wqk_starve_pool(test, cpu, WQ_RT);
	wqk_queue_rescued(test, wq, cpu, ps);
	for (i = 0; i < WQK_RESCUED; i++) {
		KUNIT_EXPECT_TRUE(test, ps[i]->rescuer);
		wqk_expect_rt(test, ps[i]);
	}
	/* its task lives as long as the workqueue */
	if (ps[0]->rescuer)
		KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(ps[0]->task, SCHED_NORMAL,
							     MIN_NICE),
				      "the rescuer did not return to nice -20");
#else
	kunit_skip(test, "needs WQ_HAS_WORKER_CREATION_FAULT");
#endif
}

/*
 * CPU-intensive detection works for the real-time class: a per-CPU RT
 * item that spins past workqueue.cpu_intensive_thresh_us (or one of a
 * WQ_CPU_INTENSIVE workqueue, at once) lets the next RT item of its CPU
 * start on another worker of the pool while it still spins.  The class's
 * workers are SCHED_RR at one priority: they take turns on the CPU.
 */
static void rt_cpu_hog_lets_the_next_rt_item_start(struct kunit *test)
{
	static const unsigned int flags[] = { WQ_RT, WQ_RT | WQ_CPU_INTENSIVE };
	int cpu = wqk_last_online_cpu(), i;

	/* the case's own thread must get a CPU to tell the hog to stop */
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		struct workqueue_struct *wq = wqk_wq_new(test, flags[i], 0);
		struct wqk_probe *hog = wqk_probe_new(test, NULL);
		struct wqk_probe *next = wqk_probe_new(test, NULL);
		bool told = false;

		hog->hook = wqk_rt_hog_hook;
		hog->data = &told;
		queue_work_on(cpu, wq, &hog->work);
		WQK_WAIT(test, &hog->started);
		queue_work_on(cpu, wq, &next->work);
		WQK_WAIT(test, &next->finished);
		WRITE_ONCE(hog->stop, true);
		WQK_WAIT(test, &hog->finished);
		KUNIT_EXPECT_TRUE_MSG(test, told,
				      "flags %#x: the next item waited for the hog to stop",
				      flags[i]);
	}
}

/* What the workqueue tracepoints said of one item (wqk_trace_*()). */
struct wqk_trace_seen {
	struct work_struct *work;
	int queued_cpu;		/* req_cpu of workqueue_queue_work, or -2 */
	bool activated;
	int start_cpu;		/* CPU of workqueue_execute_start, or -1 */
	int start_policy;	/* its task's policy */
	work_func_t end_func;	/* function of workqueue_execute_end */
};

static void wqk_trace_queue(void *data, int req_cpu,
			    struct pool_workqueue *pwq, struct work_struct *work)
{
	struct wqk_trace_seen *t = data;

	if (work == t->work)
		WRITE_ONCE(t->queued_cpu, req_cpu);
}

static void wqk_trace_activate(void *data, struct work_struct *work)
{
	struct wqk_trace_seen *t = data;

	if (work == t->work)
		WRITE_ONCE(t->activated, true);
}

static void wqk_trace_start(void *data, struct work_struct *work)
{
	struct wqk_trace_seen *t = data;

	if (work != t->work)
		return;
	WRITE_ONCE(t->start_policy, current->policy);
	WRITE_ONCE(t->start_cpu, raw_smp_processor_id());
}

static void wqk_trace_end(void *data, struct work_struct *work,
			  work_func_t function)
{
	struct wqk_trace_seen *t = data;

	if (work == t->work)
		WRITE_ONCE(t->end_func, function);
}

static void wqk_trace_off(void *arg)
{
	unregister_trace_workqueue_queue_work(wqk_trace_queue, arg);
	unregister_trace_workqueue_activate_work(wqk_trace_activate, arg);
	unregister_trace_workqueue_execute_start(wqk_trace_start, arg);
	unregister_trace_workqueue_execute_end(wqk_trace_end, arg);
	tracepoint_synchronize_unregister();
}

/*
 * The workqueue tracepoints see a WQ_RT item as any other: queued with the
 * CPU asked for, activated, started on that CPU by a SCHED_RR worker of
 * the class, ended with its function.
 */
static void rt_items_fire_the_workqueue_tracepoints(struct kunit *test)
{
	struct wqk_trace_seen *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->work = &p->work;
	t->queued_cpu = -2;
	t->start_cpu = -1;
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_queue_work(wqk_trace_queue, t), 0);
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_activate_work(wqk_trace_activate, t), 0);
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_execute_start(wqk_trace_start, t), 0);
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_execute_end(wqk_trace_end, t), 0);
	wqk_defer(test, wqk_trace_off, t);
	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->finished);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->queued_cpu), cpu);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(t->activated));
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->start_cpu), cpu);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->start_policy), SCHED_RR);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(t->end_func) == wqk_probe_fn);
}

static void wqk_take_fifo_low(struct wqk_thread *th)
{
	sched_set_fifo_low(current);
	*(int *)th->data = current->rt_priority;
}

/*
 * The class's priority defaults to sched_set_fifo_low()'s level: above
 * every SCHED_OTHER task, below any real-time task that asked for more.
 * (No configuration of the harness boots with workqueue.rt_prio=.)
 */
static void rt_prio_defaults_to_the_fifo_low_level(struct kunit *test)
{
	struct wqk_thread *th;
	int low = -1;

	th = wqk_thread_run(test, wqk_take_fifo_low, &low, 0, -1);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_EQ(test, low, 1);
	KUNIT_EXPECT_EQ_MSG(test, wq_rt_prio, low,
			    "workqueue.rt_prio is not sched_set_fifo_low()'s level");
}

/* @kp's setter applied to @val, on a copy of @kp that sets *@prio. */
static int wqk_param_parse(const struct kernel_param *kp, const char *val,
			   int *prio)
{
	struct kernel_param copy = { .name = kp->name, .ops = kp->ops,
				     .perm = kp->perm, .arg = prio };

	return kp->ops->set(val, &copy);
}

/*
 * workqueue.rt_prio takes 1 to 99 and refuses anything else with -EINVAL,
 * the priority left as it was: the parameter's own setter, on a copy of
 * it (the parameter is read-only after boot; the harness's isolated boot
 * sets it, which wq_rt_prio.sh checks).
 */
static void rt_prio_takes_1_to_99_only(struct kunit *test)
{
	static const char * const bad[] = { "0", "-1", "100", "1000", "", "x", "7x" };
	static const struct { const char *val; int prio; } good[] = {
		{ "1", 1 }, { "50", 50 }, { "99", 99 }, { "7\n", 7 },
	};
	const struct kernel_param *kp = wqk_find_param("rt_prio");
	int prio, i;

	KUNIT_ASSERT_NOT_NULL(test, kp);
	KUNIT_EXPECT_EQ(test, kp->perm, 0444);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		prio = 1;
		KUNIT_EXPECT_EQ_MSG(test, wqk_param_parse(kp, bad[i], &prio), -EINVAL,
				    "rt_prio=%s", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, prio, 1, "rt_prio=%s", bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		prio = 1;
		KUNIT_EXPECT_EQ_MSG(test, wqk_param_parse(kp, good[i].val, &prio), 0,
				    "rt_prio=%s", good[i].val);
		KUNIT_EXPECT_EQ(test, prio, good[i].prio);
	}
}

/*
 * The stall watchdog works for the real-time pools as for the others: a
 * WQ_RT item that neither sleeps nor counts as CPU-intensive, with an item
 * waiting behind it, is reported as a lockup of its CPU's real-time pool
 * ("fifo=N"), with the dump and the hog's stack.
 */
static void rt_pool_stall_is_reported_by_the_watchdog(struct kunit *test)
{
	/* the case's own thread reads the log beside the hog */
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	wqk_expect_stall_report(test, -1, WQ_RT);
}

static struct kunit_case wqk_rt_cases[] = {
	KUNIT_CASE(rt_pool_starts_with_a_worker_in_reserve),
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	KUNIT_CASE(rt_first_item_starts_without_creation),
#endif
	KUNIT_CASE_PARAM(rt_items_run_sched_rr_at_the_class_priority,
			 wqk_rt_kind_gen_params),
	KUNIT_CASE(rt_item_preempts_a_normal_task_on_its_cpu),
	KUNIT_CASE(rt_item_does_not_preempt_a_higher_rt_task),
	KUNIT_CASE(rt_item_that_sleeps_does_not_hold_back_the_next),
	KUNIT_CASE(ordered_rt_workqueue_keeps_queueing_order),
	KUNIT_CASE(unbound_rt_workqueue_follows_its_cpumask),
	KUNIT_CASE(equal_attrs_rt_and_normal_unbound_do_not_share),
	KUNIT_CASE(rt_pool_serves_its_cpu_across_hotplug),
	KUNIT_CASE(rt_flag_combinations_that_make_no_sense_are_refused),
	KUNIT_CASE(rescuer_of_an_rt_workqueue_runs_items_sched_rr_then_nice_minus_20),
	KUNIT_CASE(rt_cpu_hog_lets_the_next_rt_item_start),
	KUNIT_CASE(rt_workqueues_add_no_threads),
	KUNIT_CASE(rt_pools_show_fifo_in_dumps),
	KUNIT_CASE_SLOW(rt_pool_stall_is_reported_by_the_watchdog),
	KUNIT_CASE(rt_prio_defaults_to_the_fifo_low_level),
	KUNIT_CASE(rt_prio_takes_1_to_99_only),
	KUNIT_CASE(rt_items_fire_the_workqueue_tracepoints),
	{}
};
#else
WQK_ABSENT_CASE(rt_class_is_absent, "needs WQ_HAS_RT_CLASS (no WQ_RT in this tree)")

static struct kunit_case wqk_rt_cases[] = {
	KUNIT_CASE(rt_class_is_absent),
	{}
};
#endif

static struct kunit_suite wqk_rt_suite = {
	.name = "workqueue_rt",
	.test_cases = wqk_rt_cases,
};

/* ------------------------------------------------------------------ */
/* 16. workqueue_pi                                                    */
/* ------------------------------------------------------------------ */

/*
 * Priority inheritance on wait, where the kernel has it (WQ_HAS_WAIT_PI):
 * a task waiting for an item lends it its priority.  Elsewhere the suite
 * is one skipped case.
 */
#ifdef WQ_HAS_WAIT_PI
/* Open @arg's gate: a case that fails never leaves a waiter blocked. */
static void wqk_open_action(void *arg)
{
	complete_all(&((struct wqk_probe *)arg)->gate);
}

/* Expect @p's last run to have begun (@end: ended) at @policy/@prio. */
static void wqk_expect_ran_at(struct kunit *test, struct wqk_probe *p, bool end,
			      int policy, int prio, const char *what)
{
	int pol = end ? p->end_policy : p->policy;
	int rt = end ? p->end_rt_priority : p->rt_priority;
	int nice = end ? p->end_nice : p->nice;

	KUNIT_EXPECT_TRUE_MSG(test, wqk_rank_is(pol, rt, nice, policy, prio),
			      "%s: %s at policy %d, priority %d, nice %d", what,
			      end ? "ended" : "began", pol, rt, nice);
}

/*
 * Start a task waiting (@op on @wq or @p) at @policy/@prio and return
 * once it is blocked in the wait, its loan made.  @gate is the gated probe
 * that holds everything up; the case's end opens it before it stops the
 * waiter.
 */
static struct wqk_waiter *wqk_lender_start(struct kunit *test,
					   enum wqk_wait_op op,
					   struct workqueue_struct *wq,
					   struct wqk_probe *p,
					   struct wqk_probe *gate,
					   int policy, int prio)
{
	struct wqk_waiter *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	*w = (struct wqk_waiter){ .op = op, .wq = wq, .p = p, .set_prio = true,
				  .policy = policy, .prio = prio };
	w->th = wqk_thread_run(test, wqk_waiter_fn, w, 0, -1);
	/* deferred after the thread's stop, so it runs before it */
	wqk_defer(test, wqk_open_action, gate);
	KUNIT_ASSERT_TRUE_MSG(test, wqk_wait_blocked(w->th),
			      "waiter returned without waiting");
	return w;
}

/* Wait until @task sleeps uninterruptibly (or time out). */
static bool wqk_task_blocked(struct task_struct *task)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (time_before(jiffies, deadline)) {
		if (READ_ONCE(task->__state) & TASK_UNINTERRUPTIBLE)
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

/* A gated item of @wq, started on @cpu. */
static struct wqk_probe *wqk_running_gated(struct kunit *test,
					   struct workqueue_struct *wq, int cpu)
{
	struct wqk_probe *p = wqk_gated_probe(test, NULL);

	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->started);
	return p;
}

/*
 * Waiting lends: flush_work(), cancel_work_sync() and flush_workqueue()
 * from a nice -10 task put the worker of the running item at nice -10
 * until the item returns.  The loan ends when the waiter's barrier runs:
 * the item queued again while it ran, behind the barrier on the same
 * worker, runs at the pool's nice 0.
 */
static void waiter_lends_its_nice_to_the_running_item(struct kunit *test)
{
	static const enum wqk_wait_op ops[] = {
		WQK_FLUSH_WORK, WQK_CANCEL_SYNC, WQK_FLUSH_WORKQUEUE,
	};
	int i, cpu = wqk_last_online_cpu();

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
		struct wqk_probe *p = wqk_running_gated(test, wq, cpu);
		bool again = ops[i] == WQK_FLUSH_WORK;
		struct wqk_waiter *w;

		w = wqk_lender_start(test, ops[i], wq,
				     ops[i] == WQK_FLUSH_WORKQUEUE ? NULL : p, p,
				     SCHED_NORMAL, -10);
		WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, -10);
		if (again)
			KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &p->work));
		wqk_open(p);
		WQK_WAIT(test, &w->th->done);
		if (again) {
			flush_work(&p->work);
			KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 2);
			KUNIT_EXPECT_EQ(test, p->nice, 0);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, p->end_nice, -10, "op %d", ops[i]);
		}
		WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, 0);
	}
}

/* An RT waiter lends SCHED_FIFO at its own priority. */
static void rt_waiter_lends_sched_fifo(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_running_gated(test, wq, wqk_last_online_cpu());
	struct wqk_waiter *w;

	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_FIFO, 10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_FIFO, 10);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_EQ(test, p->end_policy, SCHED_FIFO);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, 0);
}

/*
 * Two waiters: the higher one wins, and a lower one that comes later does
 * not lower the worker; a waiter below the pool's own priority changes
 * nothing.
 */
static void higher_waiter_wins_and_none_lowers(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_HIGHPRI, 0);
	struct workqueue_struct *plain = wqk_wq_new(test, 0, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p = wqk_running_gated(test, plain, cpu);
	struct wqk_probe *hp = wqk_running_gated(test, wq, cpu);
	struct wqk_waiter *w1, *w2, *w3;

	w2 = wqk_lender_start(test, WQK_FLUSH_WORK, plain, p, p, SCHED_NORMAL, -15);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, -15);
	/* the loan is made by the time the waiter blocks */
	w1 = wqk_lender_start(test, WQK_FLUSH_WORK, plain, p, p, SCHED_NORMAL, -5);
	KUNIT_EXPECT_EQ(test, task_nice(p->task), -15);
	/* a nice -10 waiter on a nice -20 worker changes nothing */
	w3 = wqk_lender_start(test, WQK_FLUSH_WORK, wq, hp, hp, SCHED_NORMAL, -10);
	KUNIT_EXPECT_EQ(test, task_nice(hp->task), MIN_NICE);
	wqk_open(p);
	wqk_open(hp);
	WQK_WAIT(test, &w1->th->done);
	WQK_WAIT(test, &w2->th->done);
	WQK_WAIT(test, &w3->th->done);
	KUNIT_EXPECT_EQ(test, p->end_nice, -15);
	KUNIT_EXPECT_EQ(test, hp->end_nice, MIN_NICE);
}

/*
 * A waiter of the last of three items queued behind a running one on @wq
 * lends to what runs ahead of it: the items run in queueing order, all
 * lent.
 */
static void wqk_waiter_lends_ahead(struct kunit *test, struct workqueue_struct *wq)
{
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *blocker = wqk_running_gated(test, wq, cpu);
	atomic_t next = ATOMIC_INIT(0);
	struct wqk_probe *ps[3];
	struct wqk_turn turns[3];
	struct wqk_waiter *w;
	int i;

	wqk_turns_new(test, NULL, ps, turns, &next, ARRAY_SIZE(ps));
	wqk_queue_all(wq, cpu, ps, ARRAY_SIZE(ps));
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, ps[2], blocker,
			     SCHED_NORMAL, -10);
	WQK_EXPECT_TASK_AT(test, blocker->task, SCHED_NORMAL, -10);
	wqk_open(blocker);
	WQK_WAIT(test, &w->th->done);
	flush_workqueue(wq);
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		KUNIT_EXPECT_EQ_MSG(test, turns[i].saw, i, "item %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ps[i]->nice, -10, "item %d", i);
	}
}

/*
 * A pending item a higher-priority task waits for behind max_active (here
 * 1) keeps its place in line: a workqueue's items leave its inactive list
 * in queueing order, as on 6.12, whoever waits.  The waiter lends to what
 * runs ahead of it instead.
 */
static void waited_item_behind_max_active_keeps_its_place(struct kunit *test)
{
	wqk_waiter_lends_ahead(test, wqk_wq_new(test, 0, 1));
}

/*
 * An ordered workqueue keeps its order: a waiter of a later item lends to
 * whatever runs ahead of it instead.
 */
static void ordered_workqueue_lends_to_what_runs_ahead(struct kunit *test)
{
	wqk_waiter_lends_ahead(test, wqk_ordered_new(test));
}

/*
 * While an attribute change replaces an ordered workqueue's pwq, a waiter
 * of an item in the new, plugged pwq lends to what runs ahead of it there
 * (the docs): the instance of A on the old pwq runs unlent, A queued
 * again on the new pwq, ahead of Y, and Y run lent.
 */
static void ordered_waiter_during_a_rebuild_lends_on_its_own_pwq(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *y = wqk_probe_new(test, NULL);
	struct wqk_waiter *w;

	wqk_ordered_requeue_behind_rebuild(test, wq, a);
	queue_work(wq, &y->work);
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, y, a, SCHED_NORMAL, -10);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ_MSG(test, task_nice(a->task), 0,
			    "the run on the old pwq was lent");
	wqk_open(a);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->runs), 2);
	KUNIT_EXPECT_EQ(test, a->nice, -10);
	KUNIT_EXPECT_EQ(test, y->nice, -10);
}

/* A hook that flushes the item of the probe in @p->data. */
static void wqk_flush_inner_hook(struct wqk_probe *p)
{
	struct wqk_probe *inner = p->data;

	flush_work(&inner->work);
}

/*
 * An item of @wq, started on @cpu, that waits in flush_work() for @target.
 * @key is its lockdep class: one per link of a chain, since an item
 * flushing another of its own class is a recursion to lockdep.
 */
static struct wqk_probe *wqk_waiting_item(struct kunit *test,
					  struct workqueue_struct *wq, int cpu,
					  struct wqk_probe *target,
					  struct lock_class_key *key)
{
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	__INIT_WORK_KEY(&p->work, wqk_probe_fn, 0, key);
	p->hook = wqk_flush_inner_hook;
	p->data = target;
	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->started);
	KUNIT_ASSERT_TRUE(test, wqk_task_blocked(p->task));
	return p;
}

/*
 * Transitivity: an item that already waits for another passes a loan it
 * receives on to the item it waits for.
 */
static void a_lent_item_waiting_for_another_passes_the_loan_on(struct kunit *test)
{
	static struct lock_class_key outer_key;
	struct workqueue_struct *outer_wq = wqk_wq_new(test, 0, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *inner = wqk_running_gated(test, wqk_wq_new(test, 0, 0), cpu);
	struct wqk_probe *outer = wqk_waiting_item(test, outer_wq, cpu, inner,
						   &outer_key);
	struct wqk_waiter *w;

	w = wqk_lender_start(test, WQK_FLUSH_WORK, outer_wq, outer, inner,
			     SCHED_NORMAL, -10);
	WQK_EXPECT_TASK_AT(test, outer->task, SCHED_NORMAL, -10);
	WQK_EXPECT_TASK_AT(test, inner->task, SCHED_NORMAL, -10);
	wqk_open(inner);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_EQ(test, inner->end_nice, -10);
}

/*
 * And so on down the chain: a SCHED_FIFO 10 loan to the first of three
 * items, each waiting for the next, reaches the last, which ends lent;
 * all three are back at nice 0 after.
 */
static void a_fifo_loan_goes_down_a_chain_of_waiting_items(struct kunit *test)
{
	static struct lock_class_key outer_key, middle_key;
	struct workqueue_struct *outer_wq = wqk_wq_new(test, 0, 0);
	int cpu = wqk_last_online_cpu(), i;
	struct wqk_probe *ps[3];
	struct wqk_waiter *w;

	ps[2] = wqk_running_gated(test, wqk_wq_new(test, 0, 0), cpu);
	ps[1] = wqk_waiting_item(test, wqk_wq_new(test, 0, 0), cpu, ps[2], &middle_key);
	ps[0] = wqk_waiting_item(test, outer_wq, cpu, ps[1], &outer_key);
	w = wqk_lender_start(test, WQK_FLUSH_WORK, outer_wq, ps[0], ps[2],
			     SCHED_FIFO, 10);
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(ps[i]->task, SCHED_FIFO, 10),
				      "link %d not lent", i);
	wqk_open(ps[2]);
	WQK_WAIT(test, &w->th->done);
	wqk_expect_ran_at(test, ps[2], true, SCHED_FIFO, 10, "last link");
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(ps[i]->task, SCHED_NORMAL, 0),
				      "link %d kept the loan", i);
}

#ifdef CONFIG_RT_MUTEXES
/* An rt_mutex held by a thread of its own until the case releases it. */
struct wqk_rtm_owner {
	struct rt_mutex lock;
	struct completion held;
	struct completion release;
};

/* Take @o's lock, say so, and hold it until the case releases it. */
static void wqk_rtm_hold(struct wqk_rtm_owner *o)
{
	rt_mutex_lock(&o->lock);
	complete(&o->held);
	wait_for_completion(&o->release);
	rt_mutex_unlock(&o->lock);
}

static void wqk_rtm_owner_fn(struct wqk_thread *th)
{
	wqk_rtm_hold(th->data);
}

static void wqk_rtm_release(void *arg)
{
	complete_all(&((struct wqk_rtm_owner *)arg)->release);
}

/* An rt_mutex and its completions, set up for a case. */
static struct wqk_rtm_owner *wqk_rtm_new(struct kunit *test)
{
	struct wqk_rtm_owner *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	rt_mutex_init(&o->lock);
	init_completion(&o->held);
	init_completion(&o->release);
	return o;
}

/* A hook that takes the rt_mutex in @p->data and lets it go. */
static void wqk_rtm_hook(struct wqk_probe *p)
{
	struct wqk_rtm_owner *o = p->data;

	rt_mutex_lock(&o->lock);
	rt_mutex_unlock(&o->lock);
}

/*
 * Wait until @task runs at SCHED_FIFO @prio's priority, inherited or its
 * own (@prio 0: at its normal priority again), or time out.
 */
static bool wqk_task_inherits(struct task_struct *task, int prio)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (time_before(jiffies, deadline)) {
		int want = prio ? MAX_RT_PRIO - 1 - prio : READ_ONCE(task->normal_prio);

		if (READ_ONCE(task->prio) == want)
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

/*
 * A SCHED_FIFO waiter of an item whose worker is blocked on an rt_mutex:
 * the loan reaches the lock's owner along the rt_mutex chain, as if the
 * waiter were blocked on the lock itself, and ends with the wait.  The
 * worker's priority must be changed without the pool lock: the chain
 * walk turns interrupts back on, and the pool lock is taken from
 * interrupts (under lockdep: "inconsistent {IN-HARDIRQ-W} ->
 * {HARDIRQ-ON-W} usage"; without it, a deadlock when one comes).
 */
static void loan_to_a_worker_blocked_on_an_rt_mutex_reaches_the_owner(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_rtm_owner *o = wqk_rtm_new(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_thread *owner;
	struct wqk_waiter *w;

	owner = wqk_thread_run(test, wqk_rtm_owner_fn, o, 0, -1);
	/* deferred after the owner's stop, so it runs before it */
	wqk_defer(test, wqk_rtm_release, o);
	WQK_WAIT(test, &o->held);
	p->hook = wqk_rtm_hook;
	p->data = o;
	queue_work_on(wqk_last_online_cpu(), wq, &p->work);
	WQK_WAIT(test, &p->started);
	KUNIT_ASSERT_TRUE(test, wqk_task_blocked(p->task));
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_FIFO, 10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_FIFO, 10);
	KUNIT_EXPECT_TRUE_MSG(test, wqk_task_inherits(owner->task, 10),
			      "the lock's owner did not inherit the loan");
	wqk_rtm_release(o);
	WQK_WAIT(test, &w->th->done);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, 0);
	KUNIT_EXPECT_TRUE_MSG(test, wqk_task_inherits(owner->task, 0),
			      "the lock's owner kept the loan");
}

/* A hook that holds the rt_mutex in @p->data until the case releases it. */
static void wqk_rtm_hold_hook(struct wqk_probe *p)
{
	wqk_rtm_hold(p->data);
}

/* SCHED_FIFO 20 task that takes the rt_mutex in ->data and lets it go. */
static void wqk_rtm_contend_fn(struct wqk_thread *th)
{
	struct wqk_rtm_owner *o = th->data;

	if (WARN_ON(wqk_set_prio(SCHED_FIFO, 20)))
		return;
	rt_mutex_lock(&o->lock);
	rt_mutex_unlock(&o->lock);
}

/*
 * A worker is never lowered, by a loan either: a worker boosted to FIFO
 * 20 through an rt_mutex it holds (a FIFO 20 task waits for it) keeps
 * that priority when a FIFO 10 waiter lends to its item, and runs the
 * rest of the item at the loan once the boost ends with the unlock.
 */
static void loan_below_an_rt_mutex_boost_does_not_lower_the_worker(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_rtm_owner *o = wqk_rtm_new(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_thread *contender;
	struct wqk_waiter *w;

	p->hook = wqk_rtm_hold_hook;
	p->data = o;
	queue_work_on(wqk_last_online_cpu(), wq, &p->work);
	WQK_WAIT(test, &o->held);
	contender = wqk_thread_run(test, wqk_rtm_contend_fn, o, 0, -1);
	/* deferred after the contender's stop, so it runs before it */
	wqk_defer(test, wqk_rtm_release, o);
	KUNIT_ASSERT_TRUE_MSG(test, wqk_task_inherits(p->task, 20),
			      "the worker did not inherit the contender's priority");
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_FIFO, 10);
	wqk_defer(test, wqk_rtm_release, o);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_FIFO, 10);
	KUNIT_EXPECT_TRUE_MSG(test, wqk_task_inherits(p->task, 20),
			      "the loan lowered a worker boosted to FIFO 20");
	wqk_rtm_release(o);
	WQK_WAIT(test, &w->th->done);
	WQK_WAIT(test, &contender->done);
	wqk_expect_ran_at(test, p, true, SCHED_FIFO, 10, "after the boost");
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, 0);
}
#endif

/*
 * SCHED_FIFO workers outside the real-time class (whose names end in R):
 * a worker lent a real-time priority, or one that kept it.
 */
static int wqk_fifo_kworkers_outside_rt(void)
{
	struct task_struct *g, *t;
	int n = 0;

	guard(rcu)();
	for_each_process_thread(g, t) {
		size_t len = strnlen(t->comm, TASK_COMM_LEN);

		if ((t->flags & PF_WQ_WORKER) && t->policy == SCHED_FIFO &&
		    len && t->comm[len - 1] != 'R')
			n++;
	}
	return n;
}

/*
 * A loan never outlives the wait: a SCHED_FIFO waiter of an item behind
 * max_active 1 on an unbound workqueue leaves no worker at its priority
 * once it has returned, the idle ones that never ran the item included.
 */
static void no_worker_keeps_a_loan_after_the_wait(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 1);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *blocker = wqk_running_gated(test, wq, cpu);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	unsigned long deadline = jiffies + WQK_TIMEOUT;
	int before = wqk_fifo_kworkers_outside_rt(), after;
	struct wqk_waiter *w;

	queue_work_on(cpu, wq, &p->work);
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, blocker, SCHED_FIFO, 1);
	wqk_open(blocker);
	WQK_WAIT(test, &w->th->done);
	flush_workqueue(wq);
	/* the worker that ran the barrier goes back after it */
	while ((after = wqk_fifo_kworkers_outside_rt()) > before &&
	       time_before(jiffies, deadline))
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ_MSG(test, after, before,
			    "SCHED_FIFO kworkers outside the RT class");
}

/* The rank of @policy at @prio as loans compare them (NICE_WIDTH + p for RT). */
static int wqk_rank(int policy, int prio)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return NICE_WIDTH + prio;
	return MAX_NICE - prio;
}

/* A waiter, and the kind of workqueue whose item it waits for. */
struct wqk_loan {
	const char *name;
	unsigned int flags;	/* of the workqueue */
	int nice;		/* of an unbound workqueue's workers */
	int policy;		/* the waiter's */
	int prio;
};

static const struct wqk_loan wqk_loans[] = {
	{ "percpu, SCHED_NORMAL -10", 0, 0, SCHED_NORMAL, -10 },
	{ "percpu, SCHED_BATCH -10", 0, 0, SCHED_BATCH, -10 },
	{ "percpu, SCHED_FIFO 10", 0, 0, SCHED_FIFO, 10 },
	{ "percpu, SCHED_RR 10", 0, 0, SCHED_RR, 10 },
	{ "unbound nice 5, SCHED_NORMAL -10", WQ_UNBOUND, 5, SCHED_NORMAL, -10 },
#ifdef WQ_HAS_RT_CLASS
	{ "rt, SCHED_FIFO 10", WQ_RT, 0, SCHED_FIFO, 10 },
	{ "rt, SCHED_NORMAL -10 (below)", WQ_RT, 0, SCHED_NORMAL, -10 },
	{ "rt unbound, SCHED_RR 10", WQ_RT | WQ_UNBOUND, 0, SCHED_RR, 10 },
#endif
};

/* A workqueue of @l's kind. */
static struct workqueue_struct *wqk_loan_wq(struct kunit *test,
					    const struct wqk_loan *l)
{
	struct workqueue_struct *wq = wqk_wq_new(test, l->flags, 0);
	struct workqueue_attrs *attrs;

	if (l->nice) {
		attrs = wqk_attrs_new(test);
		attrs->nice = l->nice;
		KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	}
	return wq;
}

/* Wait for @p's gate as a gated probe does, WQK_TIMEOUT at most. */
static void wqk_gate_timeout_hook(struct wqk_probe *p)
{
	wait_for_completion_timeout(&p->gate, WQK_TIMEOUT);
}

/* Queue the probes of the %NULL-ended array @p->data, each on its ->wq, on @p's CPU. */
static void wqk_queue_these_hook(struct wqk_probe *p)
{
	struct wqk_probe **next;

	for (next = p->data; *next; next++)
		queue_work_on(p->cpu, (*next)->wq, &(*next)->work);
}

/*
 * @op waiting, as @l says, for a running item: its worker runs at the
 * higher of its own priority and the waiter's (@policy/@prio) from the
 * moment the waiter blocks until the item returns, and the item it
 * queued on its CPU, on another workqueue of the kind, runs at the
 * workers' own priority: on a per-CPU pool it is the next item of the
 * lent worker, which takes it as soon as the lent one returns (unless
 * that worker sleeps first, say to allocate its pwq's histograms, and
 * another one of the pool takes it meanwhile), and elsewhere another
 * worker's item.
 */
static void wqk_expect_loan(struct kunit *test, enum wqk_wait_op op,
			    const struct wqk_loan *l, int cpu)
{
	struct workqueue_struct *wq = wqk_loan_wq(test, l);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_probe *next[2] = { wqk_probe_new(test, NULL) };
	int policy = l->policy, prio = l->prio, own_policy, own;
	struct wqk_waiter *w;

	next[0]->wq = wqk_loan_wq(test, l);
	p->hook = wqk_queue_these_hook;
	p->data = next;
	wqk_queue_for(op, wq, p, cpu);
	WQK_WAIT(test, &p->started);
	own_policy = p->policy;
	own = own_policy == SCHED_NORMAL ? p->nice : p->rt_priority;
	if (wqk_rank(policy, prio) <= wqk_rank(own_policy, own)) {
		policy = own_policy;
		prio = own;
	} else if (policy != SCHED_NORMAL) {
		policy = policy == SCHED_BATCH ? SCHED_NORMAL : SCHED_FIFO;
	}
	w = wqk_lender_start(test, op, wq, p, p, l->policy, l->prio);
	/* from the moment the wait begins: read, not waited for */
	KUNIT_EXPECT_TRUE_MSG(test, wqk_rank_is(p->task->policy, p->task->rt_priority,
						task_nice(p->task), policy, prio),
			      "%s: not lent once the waiter blocked", l->name);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	wqk_expect_ran_at(test, p, true, policy, prio, l->name);
	WQK_WAIT(test, &next[0]->finished);
	wqk_expect_ran_at(test, next[0], false, own_policy, own, l->name);
	KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(p->task, own_policy, own),
			      "%s: the worker kept the loan", l->name);
}

/* Every call that waits for an item, and lends to it while it waits. */
static const enum wqk_wait_op wqk_item_waits[] = {
	WQK_FLUSH_WORK, WQK_FLUSH_DELAYED, WQK_FLUSH_RCU, WQK_CANCEL_SYNC,
	WQK_CANCEL_DELAYED_SYNC, WQK_DISABLE_SYNC, WQK_DISABLE_DELAYED_SYNC,
#ifdef WQ_HAS_PRECISE_WORK
	WQK_FLUSH_PRECISE, WQK_CANCEL_PRECISE_SYNC, WQK_DISABLE_PRECISE_SYNC,
#endif
};

static void wqk_item_wait_desc(const enum wqk_wait_op *op, char *desc)
{
	static const char * const names[] = {
		[WQK_FLUSH_WORK] = "flush_work",
		[WQK_FLUSH_DELAYED] = "flush_delayed_work",
		[WQK_FLUSH_RCU] = "flush_rcu_work",
		[WQK_CANCEL_SYNC] = "cancel_work_sync",
		[WQK_CANCEL_DELAYED_SYNC] = "cancel_delayed_work_sync",
		[WQK_DISABLE_SYNC] = "disable_work_sync",
		[WQK_DISABLE_DELAYED_SYNC] = "disable_delayed_work_sync",
#ifdef WQ_HAS_PRECISE_WORK
		[WQK_FLUSH_PRECISE] = "flush_precise_work",
		[WQK_CANCEL_PRECISE_SYNC] = "cancel_precise_work_sync",
		[WQK_DISABLE_PRECISE_SYNC] = "disable_precise_work_sync",
#endif
	};

	strscpy(desc, names[*op], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_item_wait, wqk_item_waits, wqk_item_wait_desc);

/*
 * Each call that waits for an item lends the waiter's priority to the
 * worker running it: the nice level of a SCHED_NORMAL or SCHED_BATCH
 * waiter, SCHED_FIFO at the priority of a SCHED_FIFO or SCHED_RR one;
 * per-CPU, unbound (nice 5) and real-time workers alike, never below
 * their own.  The worker is back at its own priority for what it takes
 * next.
 */
static void each_waiting_call_lends_to_the_running_item(struct kunit *test)
{
	const enum wqk_wait_op *op = test->param_value;
	int i, cpu = wqk_last_online_cpu();

	for (i = 0; i < ARRAY_SIZE(wqk_loans); i++)
		wqk_expect_loan(test, *op, &wqk_loans[i], cpu);
}

/*
 * An item queued again while it runs, before a task waits for it: the
 * wait covers both runs, and so does the loan.
 */
static void requeued_before_the_wait_both_runs_are_lent(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *p = wqk_gated_probe(test, t);
	int cpu = wqk_last_online_cpu();
	struct wqk_waiter *w;

	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->started);
	KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &p->work));
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_NORMAL, -10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, -10);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->finished), 2);
	/* the second run's */
	KUNIT_EXPECT_EQ(test, p->nice, -10);
	KUNIT_EXPECT_EQ(test, p->end_nice, -10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, 0);
}

/*
 * Waiters that come later and rank higher raise the worker further,
 * flush_workqueue() and flush_work() waiters mixed: the highest wins
 * whatever the order and the call.
 */
static void later_higher_waiters_raise_the_worker_further(struct kunit *test)
{
	static const struct { enum wqk_wait_op op; int policy, prio; } waits[] = {
		{ WQK_FLUSH_WORKQUEUE, SCHED_NORMAL, -5 },
		{ WQK_FLUSH_WORK, SCHED_NORMAL, -15 },
		{ WQK_FLUSH_WORK, SCHED_FIFO, 5 },
		{ WQK_FLUSH_WORKQUEUE, SCHED_FIFO, 8 },
	};
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_running_gated(test, wq, wqk_last_online_cpu());
	struct wqk_waiter *w[ARRAY_SIZE(waits)];
	int i;

	for (i = 0; i < ARRAY_SIZE(waits); i++) {
		w[i] = wqk_lender_start(test, waits[i].op, wq, p, p,
					waits[i].policy, waits[i].prio);
		KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(p->task, waits[i].policy,
							     waits[i].prio),
				      "waiter %d did not raise the worker", i);
	}
	wqk_open(p);
	for (i = 0; i < ARRAY_SIZE(waits); i++)
		WQK_WAIT(test, &w[i]->th->done);
	wqk_expect_ran_at(test, p, true, SCHED_FIFO, 8, "all four");
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, 0);
}

/*
 * flush_workqueue() and drain_workqueue() lend to the items queued while
 * they wait (here by an item of the workqueue, as draining allows), and
 * those keep their order: three items queued behind a running one on its
 * CPU run in queueing order, lent, while the call still waits (for an
 * item held elsewhere).
 */
static void wqk_expect_whole_wq_lent(struct kunit *test, enum wqk_wait_op op)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	int i, cpu = wqk_last_online_cpu();
	struct wqk_probe *held = wqk_probe_new(test, NULL);
	struct wqk_probe *a = wqk_gated_probe(test, NULL), *ps[4] = { };
	atomic_t next = ATOMIC_INIT(0);
	struct wqk_turn turns[3];
	struct wqk_waiter *w;

	/* a wait the case's end cannot open before the waiter's stop */
	held->hook = wqk_gate_timeout_hook;
	queue_work_on(cpu, wq, &held->work);
	WQK_WAIT(test, &held->started);
	wqk_turns_new(test, NULL, ps, turns, &next, ARRAY_SIZE(turns));
	for (i = 0; i < ARRAY_SIZE(turns); i++)
		ps[i]->wq = wq;
	a->hook = wqk_queue_these_hook;
	a->data = ps;
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	w = wqk_lender_start(test, op, wq, NULL, a, SCHED_NORMAL, -10);
	wqk_open(a);
	WQK_WAIT(test, &ps[2]->finished);
	KUNIT_EXPECT_FALSE(test, completion_done(&w->th->done));
	KUNIT_EXPECT_EQ(test, a->end_nice, -10);
	for (i = 0; i < ARRAY_SIZE(turns); i++) {
		KUNIT_EXPECT_EQ_MSG(test, turns[i].saw, i, "op %d, item %d", op, i);
		KUNIT_EXPECT_EQ_MSG(test, ps[i]->nice, -10, "op %d, item %d", op, i);
	}
	wqk_open(held);
	WQK_WAIT(test, &w->th->done);
}

static void flush_and_drain_lend_to_items_queued_while_they_wait(struct kunit *test)
{
	wqk_expect_whole_wq_lent(test, WQK_FLUSH_WORKQUEUE);
	wqk_expect_whole_wq_lent(test, WQK_DRAIN);
}

/*
 * A waited-for pending item starts next, ahead of other workqueues'
 * items on its pool, and alone lent: a pool held by a running item (a
 * spinning one: the pool wakes no other worker) has Y then T waiting;
 * a SCHED_FIFO 10 waiter of T makes T start first, SCHED_FIFO 10, and Y
 * after it at the pool's nice 0.
 */
static void waited_pending_item_goes_first_and_alone_lent(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *hog = wqk_probe_new(test, NULL), *ps[2];
	atomic_t next = ATOMIC_INIT(0);
	struct wqk_turn turns[2];
	struct wqk_waiter *w;
	bool told = false;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	/* the hog stays in the pool's count however long it spins */
	wqk_set_param(test, "cpu_intensive_thresh_us", "0");
	wqk_turns_new(test, NULL, ps, turns, &next, ARRAY_SIZE(ps));
	/* the worker of a pwq's first item allocates its histograms after it */
	wqk_run_one(test, wq, cpu);
	hog->hook = wqk_rt_hog_hook;
	hog->data = &told;
	queue_work_on(cpu, wq, &hog->work);
	WQK_WAIT(test, &hog->started);
	queue_work_on(cpu, wqk_wq_new(test, 0, 0), &ps[0]->work);
	queue_work_on(cpu, wqk_wq_new(test, 0, 0), &ps[1]->work);
	w = wqk_lender_start(test, WQK_FLUSH_WORK, NULL, ps[1], hog, SCHED_FIFO, 10);
	WRITE_ONCE(hog->stop, true);
	WQK_WAIT(test, &w->th->done);
	WQK_WAIT(test, &ps[0]->finished);
	KUNIT_EXPECT_TRUE(test, told);
	KUNIT_EXPECT_EQ(test, turns[1].saw, 0);
	KUNIT_EXPECT_EQ(test, turns[0].saw, 1);
	wqk_expect_ran_at(test, ps[1], false, SCHED_FIFO, 10, "T");
	wqk_expect_ran_at(test, ps[0], false, SCHED_NORMAL, 0, "Y");
}

/*
 * SCHED_IDLE and SCHED_DEADLINE waiters lend nothing, not even to a nice
 * 19 worker.
 */
static void idle_and_deadline_waiters_lend_nothing(struct kunit *test)
{
	static const int policies[] = { SCHED_IDLE, SCHED_DEADLINE };
	static const struct wqk_loan l = { .flags = WQ_UNBOUND, .nice = MAX_NICE };
	struct workqueue_struct *wq = wqk_loan_wq(test, &l);
	int i;

	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		struct wqk_probe *p = wqk_running_gated(test, wq, WORK_CPU_UNBOUND);
		struct wqk_waiter *w;

		w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, policies[i], 0);
		/* a loan is made by the time the waiter blocks */
		KUNIT_EXPECT_TRUE_MSG(test, wqk_rank_is(p->task->policy, 0,
							task_nice(p->task),
							SCHED_NORMAL, MAX_NICE),
				      "policy %d lent", policies[i]);
		wqk_open(p);
		WQK_WAIT(test, &w->th->done);
		wqk_expect_ran_at(test, p, true, SCHED_NORMAL, MAX_NICE, "idle/deadline");
	}
}

/* The workqueue_work_boost events of one worker, or of one item. */
struct wqk_boosts {
	pid_t pid;
	struct work_struct *work;
	atomic_t nr;
	struct { struct work_struct *work; int from, to; } ev[4];
};

static void wqk_boost_probe(void *data, struct task_struct *worker,
			    struct work_struct *work, int from, int to)
{
	struct wqk_boosts *b = data;
	int i;

	if (worker->pid != READ_ONCE(b->pid) && (!b->work || work != b->work))
		return;
	i = atomic_inc_return(&b->nr) - 1;
	if (i < ARRAY_SIZE(b->ev)) {
		b->ev[i].work = work;
		b->ev[i].from = from;
		b->ev[i].to = to;
	}
}

static void wqk_boosts_off(void *arg)
{
	unregister_trace_workqueue_work_boost(wqk_boost_probe, arg);
	tracepoint_synchronize_unregister();
}

static struct wqk_boosts *wqk_boosts_on(struct kunit *test)
{
	struct wqk_boosts *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->pid = -1;
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_work_boost(wqk_boost_probe, b), 0);
	wqk_defer(test, wqk_boosts_off, b);
	return b;
}

/*
 * BH items have no worker and are left alone: a SCHED_FIFO 10 task
 * flushing one (pending behind another that burns 2 ms in softirq) gets
 * it run, and no loan is traced for it.
 */
static void bh_items_are_left_alone_by_waiters(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_BH, 0);
	struct wqk_probe *burn = wqk_bh_probe_new(test, NULL);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);
	struct wqk_boosts *b = wqk_boosts_on(test);
	int a, cpu;

	wqk_two_cpus(&a, &cpu);
	b->work = &p->work;
	burn->burn_us = 2000;
	KUNIT_ASSERT_EQ(test, wqk_set_prio(SCHED_FIFO, 10), 0);
	queue_work_on(cpu, wq, &burn->work);
	queue_work_on(cpu, wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, wqk_set_prio(SCHED_NORMAL, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
	KUNIT_EXPECT_TRUE(test, p->in_softirq);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->nr), 0);
}

/* The worker of @p: "PID(BOOSTED)" in the dump's in-flight list while lent. */
static void lent_worker_shows_as_boosted_in_dumps(struct kunit *test)
{
	char name[WQK_NAME_LEN], want[96];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *p = wqk_running_gated(test, wq, wqk_last_online_cpu());
	struct wqk_waiter *w;
	struct wqk_log *log;

	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_NORMAL, -10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, -10);
	log = wqk_log_of(test, wqk_show_one, wq);
	snprintf(want, sizeof(want), "    in-flight: %d(BOOSTED):wqk_probe_fn BAR(%d)",
		 task_pid_nr(p->task), task_pid_nr(w->th->task));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    in-flight:"), want);
	wqk_open(p);
	WQK_WAIT(test, &w->th->done);
}

static void wqk_expect_boost(struct kunit *test, struct wqk_boosts *b, int i,
			     struct work_struct *work, int from, int to)
{
	KUNIT_EXPECT_PTR_EQ_MSG(test, b->ev[i].work, work, "event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, b->ev[i].from, from, "event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, b->ev[i].to, to, "event %d", i);
}

/*
 * workqueue:workqueue_work_boost traces each change of a lent worker's
 * priority, as ranks (nice 19..-20 as 0..39, SCHED_FIFO p as 40 + p): a
 * nice -10 waiter raises a nice-0 worker from 19 to 29, a SCHED_FIFO 10
 * one then to 50, and the worker goes back to 19 after the item.
 */
static void each_change_of_a_loan_is_traced_as_ranks(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_probe *p = wqk_running_gated(test, wq, wqk_last_online_cpu());
	struct wqk_boosts *b = wqk_boosts_on(test);
	struct wqk_waiter *w1, *w2;

	WRITE_ONCE(b->pid, task_pid_nr(p->task));
	w1 = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_NORMAL, -10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, -10);
	w2 = wqk_lender_start(test, WQK_CANCEL_SYNC, wq, p, p, SCHED_FIFO, 10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_FIFO, 10);
	wqk_open(p);
	WQK_WAIT(test, &w1->th->done);
	WQK_WAIT(test, &w2->th->done);
	KUNIT_ASSERT_EQ(test, atomic_read(&b->nr), 3);
	wqk_expect_boost(test, b, 0, &p->work, 19, 29);
	wqk_expect_boost(test, b, 1, &p->work, 29, 50);
	wqk_expect_boost(test, b, 2, NULL, 50, 19);
}

/*
 * CPU-intensive detection still frees the CPU of a hog that a SCHED_FIFO
 * waiter lends to: another item of the hog's CPU starts while the hog
 * spins.  (The woken worker, nice 0, runs when the scheduler gives
 * SCHED_OTHER tasks their share beside the SCHED_FIFO hog.)
 */
static void cpu_intensive_detection_still_frees_a_lent_hogs_cpu(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *hog = wqk_probe_new(test, t);
	struct wqk_probe *b = wqk_probe_new(test, t);
	int cpu = wqk_last_online_cpu();
	struct wqk_waiter *w;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	wqk_set_param(test, "cpu_intensive_thresh_us", "10000");
	hog->hook = wqk_spin_until_other_started;
	hog->data = b;
	queue_work_on(cpu, wq, &hog->work);
	WQK_WAIT(test, &hog->started);
	w = wqk_lender_start(test, WQK_FLUSH_WORK, wq, hog, hog, SCHED_FIFO, 10);
	queue_work_on(cpu, wqk_wq_new(test, 0, 0), &b->work);
	WQK_WAIT(test, &b->finished);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_EQ_MSG(test, b->running_at_start, 2,
			    "the item started only after the lent hog");
	KUNIT_EXPECT_EQ(test, b->cpu, cpu);
	wqk_expect_ran_at(test, hog, true, SCHED_FIFO, 10, "hog");
}

/*
 * A rescuer running an item is lent to as any worker, never below its
 * own nice -20: a nice -10 waiter changes nothing, a SCHED_FIFO 10 one
 * raises it until the item returns, and it is back at nice -20 after.
 */
static void rescuer_running_an_item_is_lent_to_but_never_lowered(struct kunit *test)
{
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_MEM_RECLAIM, 0);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu();
	struct wqk_waiter *w1, *w2;

	wqk_starve_pool(test, cpu, 0);
	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->started);
	KUNIT_ASSERT_TRUE(test, p->rescuer);
	w1 = wqk_lender_start(test, WQK_FLUSH_WORK, wq, p, p, SCHED_NORMAL, -10);
	KUNIT_EXPECT_EQ(test, task_nice(p->task), MIN_NICE);
	w2 = wqk_lender_start(test, WQK_CANCEL_SYNC, wq, p, p, SCHED_FIFO, 10);
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_FIFO, 10);
	wqk_open(p);
	WQK_WAIT(test, &w1->th->done);
	WQK_WAIT(test, &w2->th->done);
	wqk_expect_ran_at(test, p, true, SCHED_FIFO, 10, "rescuer");
	WQK_EXPECT_TASK_AT(test, p->task, SCHED_NORMAL, MIN_NICE);
#else
	kunit_skip(test, "needs WQ_HAS_WORKER_CREATION_FAULT");
#endif
}

static struct kunit_case wqk_pi_cases[] = {
	KUNIT_CASE(waiter_lends_its_nice_to_the_running_item),
	KUNIT_CASE(rt_waiter_lends_sched_fifo),
	KUNIT_CASE(higher_waiter_wins_and_none_lowers),
	KUNIT_CASE(waited_item_behind_max_active_keeps_its_place),
	KUNIT_CASE(ordered_workqueue_lends_to_what_runs_ahead),
	KUNIT_CASE(ordered_waiter_during_a_rebuild_lends_on_its_own_pwq),
	KUNIT_CASE(a_lent_item_waiting_for_another_passes_the_loan_on),
	KUNIT_CASE(a_fifo_loan_goes_down_a_chain_of_waiting_items),
#ifdef CONFIG_RT_MUTEXES
	KUNIT_CASE(loan_to_a_worker_blocked_on_an_rt_mutex_reaches_the_owner),
	KUNIT_CASE(loan_below_an_rt_mutex_boost_does_not_lower_the_worker),
#endif
	KUNIT_CASE(no_worker_keeps_a_loan_after_the_wait),
	KUNIT_CASE_PARAM(each_waiting_call_lends_to_the_running_item,
			 wqk_item_wait_gen_params),
	KUNIT_CASE(requeued_before_the_wait_both_runs_are_lent),
	KUNIT_CASE(later_higher_waiters_raise_the_worker_further),
	KUNIT_CASE(flush_and_drain_lend_to_items_queued_while_they_wait),
	KUNIT_CASE(waited_pending_item_goes_first_and_alone_lent),
	KUNIT_CASE(idle_and_deadline_waiters_lend_nothing),
	KUNIT_CASE(bh_items_are_left_alone_by_waiters),
	KUNIT_CASE(lent_worker_shows_as_boosted_in_dumps),
	KUNIT_CASE(each_change_of_a_loan_is_traced_as_ranks),
	KUNIT_CASE(cpu_intensive_detection_still_frees_a_lent_hogs_cpu),
	KUNIT_CASE(rescuer_running_an_item_is_lent_to_but_never_lowered),
	{}
};
#else
WQK_ABSENT_CASE(wait_pi_is_absent, "needs WQ_HAS_WAIT_PI (no loans on wait in this tree)")

static struct kunit_case wqk_pi_cases[] = {
	KUNIT_CASE(wait_pi_is_absent),
	{}
};
#endif

static struct kunit_suite wqk_pi_suite = {
	.name = "workqueue_pi",
	.test_cases = wqk_pi_cases,
};

/* ------------------------------------------------------------------ */
/* 17. workqueue_precise                                               */
/* ------------------------------------------------------------------ */

/*
 * Precise delayed work (WQ_HAS_PRECISE_WORK): items queued after a delay
 * in nanoseconds, on an hrtimer.  Elsewhere the suite is one skipped case.
 */
#ifdef WQ_HAS_PRECISE_WORK
/**
 * struct wqk_precise - a precise item that records its runs
 * @pw: the item
 * @queued: when it was queued (CLOCK_MONOTONIC)
 * @ran: when its last execution began
 * @runs: executions begun
 * @turn: where its last execution came in @seq's order
 * @seq: a counter shared by the items of a case, or %NULL
 * @in_softirq: the last execution was in softirq context
 * @policy: the executing task's policy (in task context)
 * @cpu: the CPU of the last execution
 * @done: completed at each execution
 */
struct wqk_precise {
	struct precise_work pw;
	ktime_t queued;
	ktime_t ran;
	atomic_t runs;
	int turn;
	atomic_t *seq;
	bool in_softirq;
	int policy;
	int cpu;
	struct completion done;
};

static void wqk_precise_fn(struct work_struct *work)
{
	struct wqk_precise *x = container_of(to_precise_work(work),
					     struct wqk_precise, pw);

	x->ran = ktime_get();
	x->in_softirq = in_serving_softirq();
	x->policy = in_task() ? current->policy : -1;
	x->cpu = raw_smp_processor_id();
	if (x->seq)
		x->turn = atomic_inc_return(x->seq);
	atomic_inc(&x->runs);
	complete(&x->done);
}

static void wqk_precise_cleanup(void *arg)
{
	struct wqk_precise *x = arg;

	cancel_precise_work_sync(&x->pw);
}

/* BH items get an INIT site of their own (see __wqk_probe_new()). */
static struct wqk_precise *__wqk_precise_new(struct kunit *test, bool bh)
{
	struct wqk_precise *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	if (bh)
		INIT_PRECISE_WORK(&x->pw, wqk_precise_fn);
	else
		INIT_PRECISE_WORK(&x->pw, wqk_precise_fn);
	init_completion(&x->done);
	wqk_defer(test, wqk_precise_cleanup, x);
	return x;
}

static struct wqk_precise *wqk_precise_new(struct kunit *test)
{
	return __wqk_precise_new(test, false);
}

static bool wqk_precise_queue(struct wqk_precise *x, int cpu,
			      struct workqueue_struct *wq, u64 delay_ns,
			      u64 slack_ns)
{
	x->queued = ktime_get();
	return queue_precise_work_on(cpu, wq, &x->pw, ns_to_ktime(delay_ns),
				     slack_ns);
}

/* Delays and slacks the never-early case tries: 100 us to 5 ms. */
static const u64 wqk_precise_delays_ns[] = {
	100 * NSEC_PER_USEC, 500 * NSEC_PER_USEC, NSEC_PER_MSEC, 5 * NSEC_PER_MSEC,
};

/*
 * A precise item runs no earlier than its delay, with or without slack,
 * on every kind of workqueue.
 */
static void precise_item_is_never_early(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	int i, slack;

	for (slack = 0; slack < 2; slack++) {
		for (i = 0; i < ARRAY_SIZE(wqk_precise_delays_ns); i++) {
			struct wqk_precise *x = wqk_precise_new(test);
			u64 delay = wqk_precise_delays_ns[i];

			KUNIT_EXPECT_TRUE(test, wqk_precise_queue(x, WORK_CPU_UNBOUND,
								  wq, delay,
								  slack * delay));
			WQK_WAIT(test, &x->done);
			KUNIT_EXPECT_GE_MSG(test, ktime_to_ns(ktime_sub(x->ran, x->queued)),
					    (s64)delay, "delay %llu ns, slack %d",
					    delay, slack);
			KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
		}
	}
}

/*
 * Expect @x's timer to be armed for @delay after a time between @t0 and
 * @t1, with @slack more allowed: its soft expiry is the deadline, its
 * hard expiry the deadline plus the slack.
 */
static void wqk_expect_timer_range(struct kunit *test, struct wqk_precise *x,
				   ktime_t t0, ktime_t t1, ktime_t delay,
				   u64 slack)
{
	ktime_t soft = hrtimer_get_softexpires(&x->pw.timer);
	ktime_t hard = hrtimer_get_expires(&x->pw.timer);

	KUNIT_EXPECT_TRUE(test, hrtimer_active(&x->pw.timer));
	KUNIT_EXPECT_GE(test, ktime_to_ns(soft), ktime_to_ns(ktime_add(t0, delay)));
	KUNIT_EXPECT_LE(test, ktime_to_ns(soft), ktime_to_ns(ktime_add(t1, delay)));
	KUNIT_EXPECT_EQ_MSG(test, ktime_to_ns(ktime_sub(hard, soft)), (s64)slack,
			    "the timer's range is not the slack granted");
}

/*
 * The slack is a range the caller grants, nothing more: the timer is
 * armed to expire no earlier than the deadline and no later than the
 * deadline plus the slack (soft and hard expiry), whether queued or
 * moved by mod_precise_work_on(), with the slack of the latest call.
 * How late an expiry may come beyond that is the timer's latency, which
 * the bench measures (delay.*); this checks what the item asks for.
 */
static void precise_timer_expires_within_the_slack_granted(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x = wqk_precise_new(test);
	const ktime_t hour = ns_to_ktime(3600ULL * NSEC_PER_SEC);
	const ktime_t minute = ns_to_ktime(60ULL * NSEC_PER_SEC);
	int cpu = wqk_last_online_cpu();
	ktime_t t0, t1;

	t0 = ktime_get();
	KUNIT_EXPECT_TRUE(test, queue_precise_work_on(cpu, wq, &x->pw, hour,
						      3 * NSEC_PER_MSEC));
	t1 = ktime_get();
	wqk_expect_timer_range(test, x, t0, t1, hour, 3 * NSEC_PER_MSEC);

	t0 = ktime_get();
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x->pw, minute, 0));
	t1 = ktime_get();
	wqk_expect_timer_range(test, x, t0, t1, minute, 0);

	t0 = ktime_get();
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x->pw, hour,
						    NSEC_PER_SEC));
	t1 = ktime_get();
	wqk_expect_timer_range(test, x, t0, t1, hour, NSEC_PER_SEC);
	KUNIT_EXPECT_TRUE(test, cancel_precise_work(&x->pw));
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 0);
}

/*
 * Two items queued in the other order run in the order of their
 * deadlines (5 ms and 100 ms: far enough apart for a loaded guest).
 */
static void precise_items_run_in_deadline_order(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct wqk_precise *late = wqk_precise_new(test);
	struct wqk_precise *early = wqk_precise_new(test);
	atomic_t seq = ATOMIC_INIT(0);

	late->seq = &seq;
	early->seq = &seq;
	wqk_precise_queue(late, WORK_CPU_UNBOUND, wq, 100 * NSEC_PER_MSEC, 0);
	wqk_precise_queue(early, WORK_CPU_UNBOUND, wq, 5 * NSEC_PER_MSEC, 0);
	WQK_WAIT(test, &late->done);
	WQK_WAIT(test, &early->done);
	KUNIT_EXPECT_EQ(test, early->turn, 1);
	KUNIT_EXPECT_EQ(test, late->turn, 2);
	KUNIT_EXPECT_LT(test, ktime_compare(early->ran, late->ran), 0);
}

static void wqk_dwork_nop(struct work_struct *work)
{
}

/*
 * The same calls on a delayed item and on a precise one, with delays too
 * long to expire meanwhile, return the same: queue, queue again, mod,
 * cancel, cancel again, mod of an idle item, cancel_sync, flush of an
 * idle item, disable, queue while disabled, enable, queue and flush.
 */
static void precise_calls_return_what_delayed_work_returns(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x = wqk_precise_new(test);
	struct delayed_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	const unsigned long far = 3600 * HZ;
	const ktime_t pfar = ns_to_ktime(3600ULL * NSEC_PER_SEC);
	bool d[13], p[13];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dw);
	INIT_DELAYED_WORK(dw, wqk_dwork_nop);
	d[0] = queue_delayed_work(wq, dw, far);
	p[0] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[1] = queue_delayed_work(wq, dw, far);
	p[1] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[2] = mod_delayed_work(wq, dw, far);
	p[2] = mod_precise_work(wq, &x->pw, pfar, 0);
	d[3] = cancel_delayed_work(dw);
	p[3] = cancel_precise_work(&x->pw);
	d[4] = cancel_delayed_work(dw);
	p[4] = cancel_precise_work(&x->pw);
	d[5] = mod_delayed_work(wq, dw, far);
	p[5] = mod_precise_work(wq, &x->pw, pfar, 0);
	d[6] = cancel_delayed_work_sync(dw);
	p[6] = cancel_precise_work_sync(&x->pw);
	d[7] = flush_delayed_work(dw);
	p[7] = flush_precise_work(&x->pw);
	d[8] = queue_delayed_work(wq, dw, far) && disable_delayed_work(dw);
	p[8] = queue_precise_work(wq, &x->pw, pfar, 0) && disable_precise_work(&x->pw);
	d[9] = queue_delayed_work(wq, dw, far);
	p[9] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[10] = enable_delayed_work(dw);
	p[10] = enable_precise_work(&x->pw);
	/*
	 * A flush queues the item at once and returns true for having waited
	 * for it, unless its worker ran it first: at nice 0 on a preemptible
	 * uniprocessor the worker it wakes preempts us before flush_work()
	 * looks.  At SCHED_FIFO the CPU's workers wait for our sleep.
	 */
	sched_set_fifo_low(current);
	d[11] = queue_delayed_work(wq, dw, far);
	p[11] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[12] = flush_delayed_work(dw);
	p[12] = flush_precise_work(&x->pw);
	sched_set_normal(current, 0);
	for (i = 0; i < ARRAY_SIZE(d); i++)
		KUNIT_EXPECT_EQ_MSG(test, p[i], d[i], "call %d", i);
	/* the flush ran it at once, and only then */
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
	KUNIT_EXPECT_FALSE(test, precise_work_pending(&x->pw));
	cancel_delayed_work_sync(dw);
}

/* Calls of the delayed and precise families, for a side-by-side run. */
enum wqk_dp_call {
	WQK_DP_QUEUE_ON, WQK_DP_MOD_ON, WQK_DP_PENDING, WQK_DP_DISABLE,
	WQK_DP_DISABLE_SYNC, WQK_DP_ENABLE, WQK_DP_CANCEL_SYNC,
};

/*
 * @call on @cpu of @wq, for the precise item @pw, or for the delayed
 * item @dw if @pw is %NULL, with a delay too long to expire meanwhile.
 */
static bool wqk_dp_call(enum wqk_dp_call call, struct workqueue_struct *wq,
			int cpu, struct delayed_work *dw, struct precise_work *pw)
{
	const ktime_t far = ns_to_ktime(3600ULL * NSEC_PER_SEC);

	switch (call) {
	case WQK_DP_QUEUE_ON:
		return pw ? queue_precise_work_on(cpu, wq, pw, far, 0) :
			    queue_delayed_work_on(cpu, wq, dw, 3600 * HZ);
	case WQK_DP_MOD_ON:
		return pw ? mod_precise_work_on(cpu, wq, pw, far, 0) :
			    mod_delayed_work_on(cpu, wq, dw, 3600 * HZ);
	case WQK_DP_PENDING:
		return pw ? precise_work_pending(pw) : delayed_work_pending(dw);
	case WQK_DP_DISABLE:
		return pw ? disable_precise_work(pw) : disable_delayed_work(dw);
	case WQK_DP_DISABLE_SYNC:
		return pw ? disable_precise_work_sync(pw) :
			    disable_delayed_work_sync(dw);
	case WQK_DP_ENABLE:
		return pw ? enable_precise_work(pw) : enable_delayed_work(dw);
	default:
		return pw ? cancel_precise_work_sync(pw) : cancel_delayed_work_sync(dw);
	}
}

/*
 * The rest of the family returns what delayed work returns too: the _on
 * calls with a CPU, disable nested twice and enabled twice, queue and mod
 * while disabled, disable_..._sync, and _pending() after each; and the
 * _on calls run the item on their CPU.
 */
static void precise_disable_and_on_calls_return_what_delayed_work_returns(struct kunit *test)
{
	static const enum wqk_dp_call calls[] = {
		WQK_DP_QUEUE_ON, WQK_DP_PENDING, WQK_DP_DISABLE, WQK_DP_DISABLE,
		WQK_DP_PENDING, WQK_DP_MOD_ON, WQK_DP_PENDING, WQK_DP_QUEUE_ON,
		WQK_DP_ENABLE, WQK_DP_QUEUE_ON, WQK_DP_PENDING, WQK_DP_ENABLE,
		WQK_DP_QUEUE_ON, WQK_DP_PENDING, WQK_DP_DISABLE_SYNC,
		WQK_DP_PENDING, WQK_DP_ENABLE, WQK_DP_MOD_ON, WQK_DP_PENDING,
		WQK_DP_MOD_ON, WQK_DP_CANCEL_SYNC, WQK_DP_PENDING,
	};
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x = wqk_precise_new(test);
	struct delayed_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	int i, a, b;

	KUNIT_ASSERT_NOT_NULL(test, dw);
	INIT_DELAYED_WORK(dw, wqk_dwork_nop);
	wqk_two_cpus(&a, &b);
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		bool d = wqk_dp_call(calls[i], wq, a, dw, NULL);

		KUNIT_EXPECT_EQ_MSG(test, wqk_dp_call(calls[i], wq, a, NULL, &x->pw), d,
				    "call %d", i);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 0);
	KUNIT_EXPECT_TRUE(test, queue_precise_work_on(a, wq, &x->pw, 100 * NSEC_PER_USEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_EQ(test, x->cpu, a);
	/*
	 * Until its function has returned, the item is still running on @a,
	 * and queued again it would run there (no reentrance), whatever CPU
	 * the call names: let it end first.
	 */
	flush_precise_work(&x->pw);
	KUNIT_EXPECT_FALSE(test, mod_precise_work_on(b, wq, &x->pw, 100 * NSEC_PER_USEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_EQ(test, x->cpu, b);
}

/*
 * mod_precise_work_on() moves a pending item's deadline either way: from
 * an hour to 1 ms (queued no earlier than 1 ms after the mod), and from
 * 10 ms to an hour (nothing queued when the 10 ms are up; the item waits
 * behind a blocker should the 10 ms run out before the mod).
 */
static void mod_precise_work_moves_a_pending_deadline_both_ways(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_precise *x = wqk_precise_new(test);
	struct wqk_precise *y = wqk_precise_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	const ktime_t hour = ns_to_ktime(3600ULL * NSEC_PER_SEC);
	int cpu = wqk_last_online_cpu();

	wqk_precise_queue(x, cpu, wq, ktime_to_ns(hour), 0);
	x->queued = ktime_get();
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x->pw, ms_to_ktime(1), 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(x->ran, x->queued)),
			(s64)NSEC_PER_MSEC);

	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	wqk_precise_queue(y, cpu, wq, 10 * NSEC_PER_MSEC, 0);
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &y->pw, hour, 0));
	msleep(WQK_SETTLE_MS);
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_TRUE(test, hrtimer_active(&y->pw.timer));
	KUNIT_EXPECT_TRUE(test, cancel_precise_work(&y->pw));
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&y->runs), 0);
}

/* What workqueue_precise_expire saw of the items of a case. */
struct wqk_expiries {
	struct work_struct *work[4];
	atomic_t nr[4];
	ktime_t expires;	/* of the first item */
	ktime_t now;		/* when its event came */
};

static void wqk_expire_probe(void *data, struct work_struct *work, ktime_t expires)
{
	struct wqk_expiries *e = data;
	int i;

	for (i = 0; i < ARRAY_SIZE(e->work); i++) {
		if (work != e->work[i])
			continue;
		if (!i) {
			e->expires = expires;
			e->now = ktime_get();
		}
		atomic_inc(&e->nr[i]);
	}
}

static void wqk_expire_probe_off(void *arg)
{
	unregister_trace_workqueue_precise_expire(wqk_expire_probe, arg);
	tracepoint_synchronize_unregister();
}

/*
 * workqueue:workqueue_precise_expire records each expiry with the time it
 * was due, no earlier than queueing plus the delay, and never after its
 * own time: once for an item queued with 1 ms; not for a delay of 0, nor
 * for a timer cancelled, nor for one that flush_precise_work() stopped.
 */
static void precise_expiry_is_traced_with_its_due_time(struct kunit *test)
{
	struct wqk_expiries *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x[4];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < ARRAY_SIZE(x); i++) {
		x[i] = wqk_precise_new(test);
		e->work[i] = &x[i]->pw.work;
	}
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_precise_expire(wqk_expire_probe, e), 0);
	wqk_defer(test, wqk_expire_probe_off, e);
	wqk_precise_queue(x[0], WORK_CPU_UNBOUND, wq, NSEC_PER_MSEC, 0);
	wqk_precise_queue(x[1], WORK_CPU_UNBOUND, wq, 0, 0);
	wqk_precise_queue(x[2], WORK_CPU_UNBOUND, wq, 3600ULL * NSEC_PER_SEC, 0);
	wqk_precise_queue(x[3], WORK_CPU_UNBOUND, wq, 3600ULL * NSEC_PER_SEC, 0);
	KUNIT_EXPECT_TRUE(test, cancel_precise_work(&x[2]->pw));
	/* it may run before the flush looks, and return false (see above) */
	flush_precise_work(&x[3]->pw);
	WQK_WAIT(test, &x[0]->done);
	WQK_WAIT(test, &x[1]->done);
	WQK_WAIT(test, &x[3]->done);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->nr[0]), 1);
	for (i = 1; i < ARRAY_SIZE(x); i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&e->nr[i]), 0, "item %d", i);
	KUNIT_EXPECT_GE(test, ktime_to_ns(e->expires),
			ktime_to_ns(x[0]->queued) + (s64)NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, ktime_to_ns(e->now), ktime_to_ns(e->expires));
}

/* The calls whose kernel-doc says "Context: any", and where to make them. */
struct wqk_any_context {
	struct hrtimer timer;
	struct workqueue_struct *wq;
	struct wqk_precise *x[3];
	bool ret[4];
	struct completion done;
};

/*
 * Queue x[0] for 100 us; queue x[1] for an hour and move it to 100 us;
 * queue x[2] for an hour and cancel it; disable the idle x[2], enable it.
 */
static void wqk_any_context_calls(struct wqk_any_context *c)
{
	const ktime_t soon = ns_to_ktime(100 * NSEC_PER_USEC);
	const ktime_t hour = ns_to_ktime(3600ULL * NSEC_PER_SEC);

	c->ret[0] = queue_precise_work(c->wq, &c->x[0]->pw, soon, 0);
	c->ret[1] = queue_precise_work(c->wq, &c->x[1]->pw, hour, 0) &&
		    mod_precise_work(c->wq, &c->x[1]->pw, soon, 0);
	c->ret[2] = queue_precise_work(c->wq, &c->x[2]->pw, hour, 0) &&
		    cancel_precise_work(&c->x[2]->pw);
	c->ret[3] = !disable_precise_work(&c->x[2]->pw) &&
		    enable_precise_work(&c->x[2]->pw);
}

static enum hrtimer_restart wqk_any_context_timer_fn(struct hrtimer *timer)
{
	struct wqk_any_context *c = container_of(timer, struct wqk_any_context,
						 timer);

	wqk_any_context_calls(c);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static void wqk_any_context_cleanup(void *arg)
{
	hrtimer_cancel(&((struct wqk_any_context *)arg)->timer);
}

/*
 * "Context: any": queueing, moving, cancelling, disabling and enabling
 * precise items from a hard-interrupt hrtimer callback, and under a raw
 * spinlock with interrupts off, return what they return in process
 * context, and the items run once each (x[2] never); lockdep and the
 * atomic-sleep checks of the debug configurations watch the calls.
 */
static void precise_calls_of_any_context_work_in_hard_irq_and_under_a_raw_lock(struct kunit *test)
{
	static DEFINE_RAW_SPINLOCK(lock);
	unsigned long flags;
	int i, k;

	for (i = 0; i < 2; i++) {
		struct wqk_any_context *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, c);
		c->wq = wqk_wq_new(test, 0, 0);
		for (k = 0; k < ARRAY_SIZE(c->x); k++)
			c->x[k] = wqk_precise_new(test);
		init_completion(&c->done);
		hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		c->timer.function = wqk_any_context_timer_fn;
		wqk_defer(test, wqk_any_context_cleanup, c);
		if (i) {
			raw_spin_lock_irqsave(&lock, flags);
			wqk_any_context_calls(c);
			raw_spin_unlock_irqrestore(&lock, flags);
		} else {
			hrtimer_start(&c->timer, 0, HRTIMER_MODE_REL_HARD);
			WQK_WAIT(test, &c->done);
		}
		WQK_WAIT(test, &c->x[0]->done);
		WQK_WAIT(test, &c->x[1]->done);
		for (k = 0; k < ARRAY_SIZE(c->ret); k++)
			KUNIT_EXPECT_TRUE_MSG(test, c->ret[k], "%s: call %d",
					      i ? "raw lock" : "hard irq", k);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->x[2]->runs), 0);
	}
}

/*
 * An item on the stack (INIT_PRECISE_WORK_ONSTACK()) runs, and is
 * destroyed idle (destroy_precise_work_on_stack()): debugobjects, in the
 * debug configurations, report any misuse in the log.
 */
static void onstack_precise_item_runs_and_is_destroyed(struct kunit *test)
{
	struct wqk_precise x = { };

	init_completion(&x.done);
	INIT_PRECISE_WORK_ONSTACK(&x.pw, wqk_precise_fn);
	x.queued = ktime_get();
	KUNIT_EXPECT_TRUE(test, queue_precise_work(system_wq, &x.pw,
						   100 * NSEC_PER_USEC, 0));
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&x.done, WQK_TIMEOUT), 0UL);
	/* idle before it goes, whatever happened */
	cancel_precise_work_sync(&x.pw);
	destroy_precise_work_on_stack(&x.pw);
	KUNIT_EXPECT_EQ(test, atomic_read(&x.runs), 1);
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(x.ran, x.queued)),
			(s64)(100 * NSEC_PER_USEC));
}

/*
 * A zero or negative delay queues at once, no timer armed: queueing with
 * 0, -1 ns and KTIME_MIN, and moving a pending item's delay to 0.
 */
static void precise_zero_or_negative_delay_queues_at_once(struct kunit *test)
{
	static const s64 delays[] = { 0, -1, KTIME_MIN };
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	struct wqk_precise *x[ARRAY_SIZE(delays) + 1];
	int cpu = wqk_last_online_cpu(), i, n = ARRAY_SIZE(delays);

	/* max_active 1: the items wait behind the blocker, seen queued */
	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	for (i = 0; i < ARRAY_SIZE(x); i++) {
		x[i] = wqk_precise_new(test);
		if (i < n) {
			KUNIT_EXPECT_TRUE(test, queue_precise_work_on(cpu, wq, &x[i]->pw,
								      delays[i], 0));
		} else {
			wqk_precise_queue(x[i], cpu, wq, 3600ULL * NSEC_PER_SEC, 0);
			KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x[i]->pw, 0, 0));
		}
		KUNIT_EXPECT_FALSE_MSG(test, hrtimer_active(&x[i]->pw.timer), "item %d", i);
		KUNIT_EXPECT_TRUE_MSG(test, work_busy(&x[i]->pw.work) & WORK_BUSY_PENDING,
				      "item %d", i);
	}
	wqk_open(blocker);
	for (i = 0; i < ARRAY_SIZE(x); i++) {
		WQK_WAIT(test, &x[i]->done);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&x[i]->runs), 1, "item %d", i);
	}
}

/* On a BH workqueue the item runs in softirq context. */
static void precise_item_on_bh_workqueue_runs_in_softirq(struct kunit *test)
{
	struct wqk_precise *x = __wqk_precise_new(test, true);

	KUNIT_EXPECT_TRUE(test, wqk_precise_queue(x, WORK_CPU_UNBOUND,
						  system_bh_wq, NSEC_PER_MSEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_TRUE(test, x->in_softirq);
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(x->ran, x->queued)),
			(s64)NSEC_PER_MSEC);
}

#ifdef WQ_HAS_RT_CLASS
/* On an RT workqueue the item runs on a SCHED_RR worker, as the class. */
static void precise_item_on_rt_workqueue_runs_sched_rr(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_precise *x = wqk_precise_new(test);

	KUNIT_EXPECT_TRUE(test, wqk_precise_queue(x, WORK_CPU_UNBOUND, wq,
						  NSEC_PER_MSEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_EQ(test, x->policy, SCHED_RR);
}
#endif

#ifdef WQ_HAS_RT_CLASS
/* A SCHED_FIFO 50 spinner that arms a precise item on its own CPU. */
struct wqk_precise_hog {
	struct wqk_precise *x;
	struct workqueue_struct *wq;
	bool told;		/* the item ran before the spinner's time was up */
};

static void wqk_precise_hog_fn(struct wqk_thread *th)
{
	struct wqk_precise_hog *h = th->data;
	unsigned long until = jiffies + msecs_to_jiffies(WQK_RT_HOG_MS);

	if (WARN_ON(wqk_set_prio(SCHED_FIFO, 50)))
		return;
	wqk_precise_queue(h->x, WORK_CPU_UNBOUND, h->wq, NSEC_PER_MSEC, 0);
	while (!completion_done(&h->x->done) && time_before(jiffies, until))
		cpu_relax();
	h->told = completion_done(&h->x->done);
}

/*
 * The timer waits in hard interrupt mode: armed by a SCHED_FIFO 50 task
 * that then spins on its CPU, it still queues the item (on an unbound RT
 * workqueue kept off that CPU), which runs while the task spins; a timer
 * expiring in softirq would wait for the spinner on PREEMPT_RT.
 */
static void precise_expiry_is_hard_irq_under_an_rt_hog(struct kunit *test)
{
	struct wqk_precise_hog *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int cpu = wqk_last_online_cpu();
	struct wqk_thread *th;

	KUNIT_ASSERT_NOT_NULL(test, h);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the spinner's");
	h->x = wqk_precise_new(test);
	h->wq = wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	cpumask_andnot(attrs->cpumask, cpu_online_mask, cpumask_of(cpu));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(h->wq, attrs), 0);
	th = wqk_thread_run(test, wqk_precise_hog_fn, h, 0, cpu);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_TRUE(test, h->x->pw.timer.is_hard);
	KUNIT_EXPECT_TRUE_MSG(test, h->told, "the item waited for the spinner");
	KUNIT_EXPECT_EQ(test, atomic_read(&h->x->runs), 1);
}
#endif

struct wqk_precise_arm {
	struct wqk_precise *x;
	struct workqueue_struct *wq;
	int cpu;
};

/* Arm the timer from the CPU this thread runs on. */
static void wqk_precise_arm_here(struct wqk_thread *th)
{
	struct wqk_precise_arm *a = th->data;

	/* long enough for the CPU to go down first */
	wqk_precise_queue(a->x, a->cpu, a->wq, NSEC_PER_SEC, 0);
}

/*
 * An item whose timer was armed on a CPU that goes offline before it
 * expires still runs, once.
 */
static void precise_item_survives_its_cpu_going_offline(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct wqk_precise_arm *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct wqk_thread *th;

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->x = wqk_precise_new(test);
	a->wq = wqk_wq_new(test, 0, 0);
	a->cpu = cpu;
	th = wqk_thread_run(test, wqk_precise_arm_here, a, 0, cpu);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_TRUE(test, precise_work_pending(&a->x->pw));
	wqk_take_cpu_down(test, cpu);
	WQK_WAIT(test, &a->x->done);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->x->runs), 1);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
}

/*
 * A workqueue destroyed right after its precise item's timer fired runs
 * the item first, as it does any queued item.
 */
static void destroy_runs_a_precise_item_whose_timer_fired(struct kunit *test)
{
	struct workqueue_struct *wq = alloc_workqueue("wqk_precise", 0, 1);
	struct wqk_precise *x = wqk_precise_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu();

	KUNIT_ASSERT_NOT_NULL(test, wq);
	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	wqk_precise_queue(x, cpu, wq, 200 * NSEC_PER_USEC, 0);
	/* the timer fires; the item waits behind the blocker (max_active 1) */
	while (hrtimer_active(&x->pw.timer))
		usleep_range(100, 200);
	wqk_open(blocker);
	destroy_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
}

static struct kunit_case wqk_precise_cases[] = {
	KUNIT_CASE_PARAM(precise_item_is_never_early, wqk_kind_gen_params),
	KUNIT_CASE(precise_items_run_in_deadline_order),
	KUNIT_CASE(precise_timer_expires_within_the_slack_granted),
	KUNIT_CASE(precise_calls_return_what_delayed_work_returns),
	KUNIT_CASE(precise_disable_and_on_calls_return_what_delayed_work_returns),
	KUNIT_CASE(mod_precise_work_moves_a_pending_deadline_both_ways),
	KUNIT_CASE(precise_expiry_is_traced_with_its_due_time),
	KUNIT_CASE(onstack_precise_item_runs_and_is_destroyed),
	KUNIT_CASE(precise_calls_of_any_context_work_in_hard_irq_and_under_a_raw_lock),
	KUNIT_CASE(precise_zero_or_negative_delay_queues_at_once),
	KUNIT_CASE(precise_item_on_bh_workqueue_runs_in_softirq),
#ifdef WQ_HAS_RT_CLASS
	KUNIT_CASE(precise_item_on_rt_workqueue_runs_sched_rr),
	KUNIT_CASE(precise_expiry_is_hard_irq_under_an_rt_hog),
#endif
	KUNIT_CASE(precise_item_survives_its_cpu_going_offline),
	KUNIT_CASE(destroy_runs_a_precise_item_whose_timer_fired),
	{}
};
#else
WQK_ABSENT_CASE(precise_work_is_absent, "needs WQ_HAS_PRECISE_WORK (no precise_work in this tree)")

static struct kunit_case wqk_precise_cases[] = {
	KUNIT_CASE(precise_work_is_absent),
	{}
};
#endif

static struct kunit_suite wqk_precise_suite = {
	.name = "workqueue_precise",
	.test_cases = wqk_precise_cases,
};

/* ------------------------------------------------------------------ */
/* 18. workqueue_hist                                                  */
/* ------------------------------------------------------------------ */

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
 * queued behind it the slowest start (at least those 100 ms).
 */
static void hist_worst_lists_put_the_slowest_first(struct kunit *test)
{
	int cpu = wqk_last_online_cpu();
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *held = wqk_gated_probe(test, NULL);
	struct work_struct *nap = kunit_kzalloc(test, sizeof(*nap), GFP_KERNEL);
	char name[64], *page;
	u64 us;

	KUNIT_ASSERT_NOT_NULL(test, nap);
	INIT_WORK(nap, wqk_hist_nap_fn);
	wqk_hist_ready(test, wq, cpu, false);
	queue_work_on(cpu, wq, &held->work);
	WQK_WAIT(test, &held->started);
	queue_work_on(cpu, wq, nap);
	msleep(WQK_HIST_HELD_MS);
	wqk_open(held);
	flush_work(nap);
	page = wqk_worst_page(test, wq);
	KUNIT_ASSERT_TRUE(test, wqk_worst_first(page, "start", &us, name, sizeof(name)));
	KUNIT_EXPECT_STREQ(test, name, "wqk_hist_nap_fn");
	KUNIT_EXPECT_GE(test, us, (u64)WQK_HIST_HELD_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, wqk_worst_first(page, "run", &us, name, sizeof(name)));
	KUNIT_EXPECT_STREQ(test, name, "wqk_probe_fn");
	KUNIT_EXPECT_GE(test, us, (u64)WQK_HIST_HELD_MS * USEC_PER_MSEC);
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

kunit_test_suites(&wqk_queue_suite, &wqk_ordered_suite, &wqk_concurrency_suite,
		  &wqk_flush_suite, &wqk_cancel_suite, &wqk_disable_suite,
		  &wqk_bh_suite, &wqk_unbound_suite, &wqk_introspect_suite,
		  &wqk_rescuer_suite, &wqk_hotplug_suite, &wqk_lifecycle_suite,
		  &wqk_stress_suite, &wqk_rt_suite, &wqk_pi_suite,
		  &wqk_precise_suite, &wqk_hist_suite);

MODULE_DESCRIPTION("KUnit conformance suite for workqueues");
MODULE_LICENSE("GPL");
