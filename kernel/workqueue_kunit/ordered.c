// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_ordered: ordered workqueues, max_active and min_active.
 * An ordered workqueue runs its items one at a time in queueing order,
 * from every CPU and through rebuilds of its table; max_active bounds the
 * items in flight, and the per-node quota of an unbound workqueue lets
 * every node progress and goes to the pwq that waited longest.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/topology.h>
#include <linux/wait_bit.h>
#include <trace/events/workqueue.h>

#include "probes.h"

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

/*
 * All items from one CPU, so from one node: an unbound workqueue's
 * max_active is shared out per node, and every node may run min_active
 * (here 3) at least, so items queued from two nodes may run 6 at once.
 * WORK_CPU_UNBOUND would queue from whichever CPU the test thread is on
 * at each call.
 */
static void unbound_max_active_bounds_items_in_flight(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 3);
	struct wqk_tracker *t;

	t = wqk_run_gated(test, wq, 8, raw_smp_processor_id(), 3);
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

kunit_test_suites(&wqk_ordered_suite);
