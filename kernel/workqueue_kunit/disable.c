// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_disable: disable_work() and enable_work().  A disabled
 * item cannot be queued, disables nest, and disabling cancels a pending
 * item or timer and (the _sync variants) waits for a running one.
 */

#include "probes.h"

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

kunit_test_suites(&wqk_disable_suite);
