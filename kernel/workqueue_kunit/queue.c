// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_queue: queue_work*() return values and CPU choice.  A
 * pending item is not queued again; an item runs on the CPU (or node) it
 * was queued on, never concurrently with itself, and may queue itself
 * again; current_work() names it while it runs.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "probes.h"

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

kunit_test_suites(&wqk_queue_suite);
