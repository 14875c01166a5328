// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_cancel: cancelling plain, delayed and RCU work.  The
 * return values of the cancel family, waiting for a running item, the
 * timers of delayed items (unpinned, stopped, shortened and lengthened by
 * mod_delayed_work()), and RCU work after a grace period.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/sched/isolation.h>

#include "probes.h"

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

kunit_test_suites(&wqk_cancel_suite);
