// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_hotplug: CPU hotplug.  Items on a CPU going offline run
 * exactly once, a per-CPU pool serves its CPU again when it comes back,
 * unbound workers and workqueues follow CPUs going down and up, and a BH
 * item left on a dead CPU runs once elsewhere.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "probes.h"

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

kunit_test_suites(&wqk_hotplug_suite);
