// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_bh: WQ_BH workqueues, the system ones and new ones.
 * Their items run in softirq context on the queueing CPU; flush, cancel
 * and disable work on them, the last from atomic context.
 */
#include <linux/cpu.h>

#include "probes.h"

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

kunit_test_suites(&wqk_bh_suite);
