// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_concurrency: concurrency management of per-CPU pools.
 * An item that sleeps lets the next one start, CPU-bound items on one CPU
 * do not overlap, a CPU-intensive item holds no one back; the nice levels
 * of the normal and highpri pools, and expedited RCU grace periods that a
 * hog on the caller's CPU does not hold up.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include <trace/events/workqueue.h>

#include "probes.h"

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

kunit_test_suites(&wqk_concurrency_suite);
