// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_pi: priority inheritance on wait, where the kernel has it
 * (WQ_HAS_WAIT_PI): a task waiting for an item lends it its priority.
 * Elsewhere the suite is one skipped case.
 *
 * Map of this file:
 *   1. loans to the running item: nice and SCHED_FIFO, the highest waiter,
 *      behind max_active and on ordered workqueues
 *   2. chains: items waiting for items, workers blocked on rt_mutexes
 *   3. every call that waits lends, for as long as it waits, and no more
 *   4. what a loan leaves alone, and what shows it: BH items, dumps,
 *      tracepoints, CPU-intensive detection, rescuers
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/pid.h>
#include <linux/rtmutex.h>
#include <linux/sched/signal.h>
#include <trace/events/workqueue.h>

#include "probes.h"

#ifdef WQ_HAS_WAIT_PI
/* ------------------------------------------------------------------ */
/* 1. loans to the running item                                        */
/* ------------------------------------------------------------------ */

#define WQK_EXPECT_TASK_AT(test, task, policy, prio)			\
	KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(task, policy, prio),	\
			      "that policy and priority were never reached")

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

/* ------------------------------------------------------------------ */
/* 2. chains                                                           */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* 3. every call that waits                                            */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* 4. what a loan leaves alone, and what shows it                      */
/* ------------------------------------------------------------------ */

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

kunit_test_suites(&wqk_pi_suite);
