// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_flush: flush_work(), flush_workqueue() and
 * drain_workqueue(), over every kind of workqueue: what each waits for
 * (earlier items, running ones, a requeueing chain) and what not (later
 * items, requeued instances), and flushes of items cancelled while they
 * wait, also on ordered workqueues.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>

#include "probes.h"

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

kunit_test_suites(&wqk_flush_suite);
