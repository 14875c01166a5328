// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_rescuer: WQ_MEM_RECLAIM.  Such a workqueue has a
 * rescuer (a plain one has none), which runs its items when the pool
 * cannot create workers, leaves the CPU of the pool it served, and serves
 * two starved pools in turn.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>

#include "probes.h"

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

kunit_test_suites(&wqk_rescuer_suite);
