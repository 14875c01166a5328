// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_rt: the WQ_RT class, where the kernel has it
 * (WQ_HAS_RT_CLASS); elsewhere the suite is one skipped case.
 */
#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <trace/events/workqueue.h>

#include "../workqueue_internal.h"
#include "probes.h"

#ifdef WQ_HAS_RT_CLASS

/* The RT workqueue kinds the class cases run over. */
enum wqk_rt_kind { WQK_RT_PERCPU, WQK_RT_UNBOUND, WQK_RT_ORDERED, WQK_RT_RECLAIM };

static const enum wqk_rt_kind wqk_rt_kinds[] = {
	WQK_RT_PERCPU, WQK_RT_UNBOUND, WQK_RT_ORDERED, WQK_RT_RECLAIM,
};

static void wqk_rt_kind_desc(const enum wqk_rt_kind *kind, char *desc)
{
	static const char * const names[] = {
		[WQK_RT_PERCPU] = "rt_percpu", [WQK_RT_UNBOUND] = "rt_unbound",
		[WQK_RT_ORDERED] = "rt_ordered", [WQK_RT_RECLAIM] = "rt_mem_reclaim",
	};

	strscpy(desc, names[*kind], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_rt_kind, wqk_rt_kinds, wqk_rt_kind_desc);

static struct workqueue_struct *wqk_rt_kind_wq(struct kunit *test)
{
	const enum wqk_rt_kind *kind = test->param_value;
	struct workqueue_struct *wq;

	switch (*kind) {
	case WQK_RT_UNBOUND:
		return wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	case WQK_RT_ORDERED:
		wq = alloc_ordered_workqueue("wqk_rtord_%x", WQ_RT,
					     get_random_u32() & 0xffff);
		KUNIT_ASSERT_NOT_NULL(test, wq);
		wqk_defer(test, wqk_destroy_wq_action, wq);
		return wq;
	case WQK_RT_RECLAIM:
		return wqk_wq_new(test, WQ_RT | WQ_MEM_RECLAIM, 0);
	default:
		return wqk_wq_new(test, WQ_RT, 0);
	}
}

/* @p ran on a SCHED_RR worker at the class's priority. */
static void wqk_expect_rt(struct kunit *test, struct wqk_probe *p)
{
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_RR);
	KUNIT_EXPECT_EQ(test, p->rt_priority, wq_rt_prio);
}

/*
 * Items of a WQ_RT workqueue run on SCHED_RR workers at the one priority
 * the class has (workqueue.rt_prio), named kworker/...R, for every kind
 * of workqueue: per-CPU, unbound, ordered, with a rescuer; delayed and
 * RCU items too.
 */
static void rt_items_run_sched_rr_at_the_class_priority(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_rt_kind_wq(test);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p, *d, *r;

	p = wqk_run_one(test, wq, cpu);
	wqk_expect_rt(test, p);
	KUNIT_EXPECT_EQ(test, p->comm[strlen(p->comm) - 1], 'R');
	p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);
	wqk_expect_rt(test, p);

	/* delayed work, its timer on another CPU, and RCU work too */
	d = wqk_probe_new(test, NULL);
	r = wqk_probe_new(test, NULL);
	queue_delayed_work_on(cpumask_first(cpu_online_mask), wq, &d->dwork, 1);
	queue_rcu_work(wq, &r->rwork);
	WQK_WAIT(test, &d->finished);
	WQK_WAIT(test, &r->finished);
	wqk_expect_rt(test, d);
	wqk_expect_rt(test, r);
}

/* Two workers of @wq's pool on @cpu that are idle now: no creation in the way. */
static void wqk_rt_idle_workers(struct kunit *test, struct workqueue_struct *wq,
				int cpu)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *a = wqk_gated_probe(test, t);
	struct wqk_probe *b = wqk_gated_probe(test, t);

	queue_work_on(cpu, wq, &a->work);
	queue_work_on(cpu, wq, &b->work);
	WQK_WAIT_STARTED(test, t, 2);
	wqk_open(a);
	wqk_open(b);
	flush_workqueue(wq);
}

/*
 * An RT item does not wait for a SCHED_OTHER task's slice: queued on its
 * own CPU by a nice -20 task that keeps running, it has run by the
 * queuer's next preemption point (the wakeup preempts the queuer at once;
 * a nice-0 worker would wait for the queuer to give the CPU up).
 */
static void rt_item_preempts_a_normal_task_on_its_cpu(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p;

	if (!IS_ENABLED(CONFIG_PREEMPTION))
		kunit_skip(test, "needs a preemptible kernel");
	wqk_rt_idle_workers(test, wq, cpu);
	wqk_pin_self(test, cpu, MIN_NICE);
	p = wqk_probe_new(test, NULL);
	queue_work_on(cpu, wq, &p->work);
	/* the first preemption point after the wakeup, as any code path has */
	preempt_disable();
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, completion_done(&p->finished));
	WQK_WAIT(test, &p->finished);
	wqk_expect_rt(test, p);
}

/*
 * The class sits below any real-time task that asked for more: an RT
 * item queued on its own CPU by a SCHED_FIFO task one level above the
 * class has not started by the queuer's next preemption point, and runs
 * once the queuer sleeps.
 */
static void rt_item_does_not_preempt_a_higher_rt_task(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *p;

	if (wq_rt_prio >= MAX_RT_PRIO - 1)
		kunit_skip(test, "no real-time priority above the class's");
	wqk_rt_idle_workers(test, wq, cpu);
	wqk_pin_self(test, cpu, 0);
	KUNIT_ASSERT_EQ(test, wqk_set_prio(SCHED_FIFO, wq_rt_prio + 1), 0);
	p = wqk_probe_new(test, NULL);
	queue_work_on(cpu, wq, &p->work);
	preempt_disable();
	preempt_enable();
	KUNIT_EXPECT_FALSE(test, completion_done(&p->started));
	WQK_WAIT(test, &p->finished);
	KUNIT_EXPECT_EQ(test, wqk_set_prio(SCHED_NORMAL, 0), 0);
	wqk_expect_rt(test, p);
}

/*
 * Concurrency management covers RT pools: an RT item that sleeps lets
 * the next RT item of its CPU start.
 */
static void rt_item_that_sleeps_does_not_hold_back_the_next(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	int cpu = wqk_last_online_cpu();
	struct wqk_probe *sleeper = wqk_gated_probe(test, NULL);
	struct wqk_probe *next = wqk_probe_new(test, NULL);

	queue_work_on(cpu, wq, &sleeper->work);
	WQK_WAIT(test, &sleeper->started);
	queue_work_on(cpu, wq, &next->work);
	WQK_WAIT(test, &next->finished);
	KUNIT_EXPECT_FALSE(test, completion_done(&sleeper->finished));
	KUNIT_EXPECT_EQ(test, next->cpu, cpu);
	wqk_expect_rt(test, next);
	wqk_open(sleeper);
	WQK_WAIT(test, &sleeper->finished);
}

/* An ordered RT workqueue runs its items one at a time, in order. */
static void ordered_rt_workqueue_keeps_queueing_order(struct kunit *test)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct workqueue_struct *wq;
	atomic_t next = ATOMIC_INIT(0);
	struct wqk_probe *ps[16];
	struct wqk_turn turns[16];
	int i;

	wq = alloc_ordered_workqueue("wqk_rtord_%x", WQ_RT, get_random_u32() & 0xffff);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	wqk_turns_new(test, t, ps, turns, &next, ARRAY_SIZE(ps));
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		ps[i]->sleep_ms = i % 3 == 0;	/* sleepers must not let the next in */
	wqk_queue_all(wq, WORK_CPU_UNBOUND, ps, ARRAY_SIZE(ps));
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->peak), 1);
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		KUNIT_EXPECT_EQ(test, turns[i].saw, i);
		wqk_expect_rt(test, ps[i]);
	}
}

/* An unbound RT workqueue runs its items within its cpumask. */
static void unbound_rt_workqueue_follows_its_cpumask(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int target = wqk_last_online_cpu(), cpu;

	cpumask_copy(attrs->cpumask, cpumask_of(target));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_run_one(test, wq, cpu);

		KUNIT_EXPECT_EQ(test, p->cpu, target);
		wqk_expect_rt(test, p);
	}
}

/*
 * An unbound RT workqueue and a normal one with equal attributes do not
 * share a pool: the RT one's items run SCHED_RR, the other's at nice 0,
 * on workers of their own, before and after both are given the same
 * cpumask.
 */
static void equal_attrs_rt_and_normal_unbound_do_not_share(struct kunit *test)
{
	struct workqueue_struct *rt = wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	struct workqueue_struct *plain = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int i;

	cpumask_copy(attrs->cpumask, cpumask_of(wqk_last_online_cpu()));
	for (i = 0; i < 2; i++) {
		struct wqk_probe *p = wqk_run_one(test, rt, WORK_CPU_UNBOUND);
		struct wqk_probe *q = wqk_run_one(test, plain, WORK_CPU_UNBOUND);

		wqk_expect_rt(test, p);
		KUNIT_EXPECT_EQ(test, q->policy, SCHED_NORMAL);
		KUNIT_EXPECT_EQ(test, q->nice, 0);
		KUNIT_EXPECT_PTR_NE(test, p->task, q->task);
		KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(rt, attrs), 0);
		KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(plain, attrs), 0);
	}
}

/*
 * The RT pool of a CPU going down runs its items elsewhere, at RT
 * priority, and serves its CPU again once the CPU is back.
 */
static void rt_pool_serves_its_cpu_across_hotplug(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);

	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->started);
	wqk_take_cpu_down(test, cpu);
	wqk_open(p);
	WQK_WAIT(test, &p->finished);
	p = wqk_run_one(test, wq, cpu);
	KUNIT_EXPECT_NE(test, p->cpu, cpu);
	wqk_expect_rt(test, p);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	p = wqk_run_one(test, wq, cpu);
	KUNIT_EXPECT_EQ(test, p->cpu, cpu);
	KUNIT_EXPECT_EQ(test, p->nr_allowed, 1);
	wqk_expect_rt(test, p);
}

/* The workers of @cpu's RT pool, by name: kworker/CPU:IDR. */
static int wqk_count_rt_workers(int cpu)
{
	struct task_struct *g, *p;
	char prefix[TASK_COMM_LEN];
	int len, n = 0;

	len = snprintf(prefix, sizeof(prefix), "kworker/%d:", cpu);
	rcu_read_lock();
	for_each_process_thread(g, p) {
		const char *s = p->comm + len;

		if (strncmp(p->comm, prefix, len))
			continue;
		while (isdigit(*s))
			s++;
		n += s[0] == 'R' && !s[1];
	}
	rcu_read_unlock();
	return n;
}

/*
 * Each CPU's RT pool has a worker in reserve from the start, so that its
 * first item does not wait for a new one (kthreadd makes it, a nice-0
 * task that CPU hogs hold back for a slice).  First in its suite: the
 * first item of a pool leaves two workers in it anyway.
 */
static void rt_pool_starts_with_a_worker_in_reserve(struct kunit *test)
{
	int cpu;

	wqk_wq_new(test, WQ_RT, 0);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_GE_MSG(test, wqk_count_rt_workers(cpu), 2,
				    "RT workers of CPU %d", cpu);
}

#ifdef WQ_HAS_WORKER_CREATION_FAULT
/*
 * With a worker in reserve from the start, the first real-time item of a
 * CPU starts at once, without kthreadd: it starts while worker creation
 * fails.  (The second, queued while the first sleeps, may wait for a
 * third worker, as the docs say: a worker leaving the last idle one
 * behind creates another before it runs anything.)
 */
static void rt_first_item_starts_without_creation(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	wq_fail_worker_creation(true);
	wqk_defer(test, wqk_creation_fault_off, NULL);
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	queue_work_on(cpu, wq, &b->work);
	wq_fail_worker_creation(false);
	wqk_open(a);
	flush_workqueue(wq);
	wqk_expect_rt(test, a);
	wqk_expect_rt(test, b);
	KUNIT_EXPECT_EQ(test, a->cpu, cpu);
}
#endif

/*
 * No user of the class gets a thread of its own: eight more WQ_RT
 * workqueues, each running an item on one CPU (one at a time, as their
 * users would), leave that CPU's RT pool with no more workers.
 */
static void rt_workqueues_add_no_threads(struct kunit *test)
{
	int cpu = wqk_last_online_cpu(), before, i;

	wqk_run_one(test, wqk_wq_new(test, WQ_RT, 0), cpu);
	before = wqk_count_rt_workers(cpu);
	for (i = 0; i < 8; i++)
		wqk_run_one(test, wqk_wq_new(test, WQ_RT, 0), cpu);
	KUNIT_EXPECT_LE(test, wqk_count_rt_workers(cpu), before);
}

/*
 * Dumps show the class's pools with "fifo=N" (workqueue.rt_prio), not a
 * nice level: the pwq line of a busy WQ_RT workqueue, and its pool's line.
 */
static void rt_pools_show_fifo_in_dumps(struct kunit *test)
{
	char name[WQK_NAME_LEN], want[64], fifo[16];
	struct workqueue_struct *wq = __wqk_named_wq(test, name, WQ_RT);
	struct wqk_probe *p = wqk_gated_probe(test, NULL);
	struct wqk_log *log;
	const char *line;

	queue_work_on(wqk_last_online_cpu(), wq, &p->work);
	WQK_WAIT(test, &p->started);
	log = wqk_log_of(test, wqk_show_all, NULL);
	wqk_open(p);
	snprintf(fifo, sizeof(fifo), " fifo=%d ", wq_rt_prio);
	snprintf(want, sizeof(want), "workqueue %s:", name);
	line = wqk_log_line_after(test, log, want, "  pwq ");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, fifo), "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "nice="), "%s", line);
	snprintf(want, sizeof(want), "pool %d:", wqk_pwq_line_pool(line));
	line = wqk_log_line(test, log, want);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, fifo), "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "nice="), "%s", line);
}

/* WQ_RT with WQ_BH or WQ_HIGHPRI makes no sense: refused, NULL. */
static void rt_flag_combinations_that_make_no_sense_are_refused(struct kunit *test)
{
	static const unsigned int bad[] = { WQ_RT | WQ_BH, WQ_RT | WQ_HIGHPRI,
					    WQ_RT | WQ_HIGHPRI | WQ_UNBOUND };
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct workqueue_struct *wq = alloc_workqueue("wqk_bad", bad[i], 0);

		KUNIT_EXPECT_NULL_MSG(test, wq, "flags %#x", bad[i]);
		if (wq)
			destroy_workqueue(wq);
	}
}

/*
 * The rescuer of an RT workqueue runs its items at RT priority: with the
 * CPU's RT pool starved, the rescued items still run SCHED_RR; and the
 * rescuer returns to nice -20 when done.
 */
static void rescuer_of_an_rt_workqueue_runs_items_sched_rr_then_nice_minus_20(struct kunit *test)
{
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT | WQ_MEM_RECLAIM, 0);
	struct wqk_probe *ps[WQK_RESCUED];
	int i, cpu = wqk_last_online_cpu();

	wqk_starve_pool(test, cpu, WQ_RT);
	wqk_queue_rescued(test, wq, cpu, ps);
	for (i = 0; i < WQK_RESCUED; i++) {
		KUNIT_EXPECT_TRUE(test, ps[i]->rescuer);
		wqk_expect_rt(test, ps[i]);
	}
	/* its task lives as long as the workqueue */
	if (ps[0]->rescuer)
		KUNIT_EXPECT_TRUE_MSG(test, wqk_task_reaches(ps[0]->task, SCHED_NORMAL,
							     MIN_NICE),
				      "the rescuer did not return to nice -20");
#else
	kunit_skip(test, "needs WQ_HAS_WORKER_CREATION_FAULT");
#endif
}

/*
 * CPU-intensive detection works for the real-time class: a per-CPU RT
 * item that spins past workqueue.cpu_intensive_thresh_us (or one of a
 * WQ_CPU_INTENSIVE workqueue, at once) lets the next RT item of its CPU
 * start on another worker of the pool while it still spins.  The class's
 * workers are SCHED_RR at one priority: they take turns on the CPU.
 */
static void rt_cpu_hog_lets_the_next_rt_item_start(struct kunit *test)
{
	static const unsigned int flags[] = { WQ_RT, WQ_RT | WQ_CPU_INTENSIVE };
	int cpu = wqk_last_online_cpu(), i;

	/* the case's own thread must get a CPU to tell the hog to stop */
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		struct workqueue_struct *wq = wqk_wq_new(test, flags[i], 0);
		struct wqk_probe *hog = wqk_probe_new(test, NULL);
		struct wqk_probe *next = wqk_probe_new(test, NULL);
		bool told = false;

		hog->hook = wqk_rt_hog_hook;
		hog->data = &told;
		queue_work_on(cpu, wq, &hog->work);
		WQK_WAIT(test, &hog->started);
		queue_work_on(cpu, wq, &next->work);
		WQK_WAIT(test, &next->finished);
		WRITE_ONCE(hog->stop, true);
		WQK_WAIT(test, &hog->finished);
		KUNIT_EXPECT_TRUE_MSG(test, told,
				      "flags %#x: the next item waited for the hog to stop",
				      flags[i]);
	}
}

/* What the workqueue tracepoints said of one item (wqk_trace_*()). */
struct wqk_trace_seen {
	struct work_struct *work;
	int queued_cpu;		/* req_cpu of workqueue_queue_work, or -2 */
	bool activated;
	int start_cpu;		/* CPU of workqueue_execute_start, or -1 */
	int start_policy;	/* its task's policy */
	work_func_t end_func;	/* function of workqueue_execute_end */
};

static void wqk_trace_queue(void *data, int req_cpu,
			    struct pool_workqueue *pwq, struct work_struct *work)
{
	struct wqk_trace_seen *t = data;

	if (work == t->work)
		WRITE_ONCE(t->queued_cpu, req_cpu);
}

static void wqk_trace_activate(void *data, struct work_struct *work)
{
	struct wqk_trace_seen *t = data;

	if (work == t->work)
		WRITE_ONCE(t->activated, true);
}

static void wqk_trace_start(void *data, struct work_struct *work)
{
	struct wqk_trace_seen *t = data;

	if (work != t->work)
		return;
	WRITE_ONCE(t->start_policy, current->policy);
	WRITE_ONCE(t->start_cpu, raw_smp_processor_id());
}

static void wqk_trace_end(void *data, struct work_struct *work,
			  work_func_t function)
{
	struct wqk_trace_seen *t = data;

	if (work == t->work)
		WRITE_ONCE(t->end_func, function);
}

static void wqk_trace_off(void *arg)
{
	unregister_trace_workqueue_queue_work(wqk_trace_queue, arg);
	unregister_trace_workqueue_activate_work(wqk_trace_activate, arg);
	unregister_trace_workqueue_execute_start(wqk_trace_start, arg);
	unregister_trace_workqueue_execute_end(wqk_trace_end, arg);
	tracepoint_synchronize_unregister();
}

/*
 * The workqueue tracepoints see a WQ_RT item as any other: queued with the
 * CPU asked for, activated, started on that CPU by a SCHED_RR worker of
 * the class, ended with its function.
 */
static void rt_items_fire_the_workqueue_tracepoints(struct kunit *test)
{
	struct wqk_trace_seen *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->work = &p->work;
	t->queued_cpu = -2;
	t->start_cpu = -1;
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_queue_work(wqk_trace_queue, t), 0);
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_activate_work(wqk_trace_activate, t), 0);
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_execute_start(wqk_trace_start, t), 0);
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_execute_end(wqk_trace_end, t), 0);
	wqk_defer(test, wqk_trace_off, t);
	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->finished);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->queued_cpu), cpu);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(t->activated));
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->start_cpu), cpu);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->start_policy), SCHED_RR);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(t->end_func) == wqk_probe_fn);
}

static void wqk_take_fifo_low(struct wqk_thread *th)
{
	sched_set_fifo_low(current);
	*(int *)th->data = current->rt_priority;
}

/*
 * The class's priority defaults to sched_set_fifo_low()'s level: above
 * every SCHED_OTHER task, below any real-time task that asked for more.
 * (No configuration of the harness boots with workqueue.rt_prio=.)
 */
static void rt_prio_defaults_to_the_fifo_low_level(struct kunit *test)
{
	struct wqk_thread *th;
	int low = -1;

	th = wqk_thread_run(test, wqk_take_fifo_low, &low, 0, -1);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_EQ(test, low, 1);
	KUNIT_EXPECT_EQ_MSG(test, wq_rt_prio, low,
			    "workqueue.rt_prio is not sched_set_fifo_low()'s level");
}

/* @kp's setter applied to @val, on a copy of @kp that sets *@prio. */
static int wqk_param_parse(const struct kernel_param *kp, const char *val,
			   int *prio)
{
	struct kernel_param copy = { .name = kp->name, .ops = kp->ops,
				     .perm = kp->perm, .arg = prio };

	return kp->ops->set(val, &copy);
}

/*
 * workqueue.rt_prio takes 1 to 99 and refuses anything else with -EINVAL,
 * the priority left as it was: the parameter's own setter, on a copy of
 * it (the parameter is read-only after boot; the harness's isolated boot
 * sets it, which wq_rt_prio.sh checks).
 */
static void rt_prio_takes_1_to_99_only(struct kunit *test)
{
	static const char * const bad[] = { "0", "-1", "100", "1000", "", "x", "7x" };
	static const struct { const char *val; int prio; } good[] = {
		{ "1", 1 }, { "50", 50 }, { "99", 99 }, { "7\n", 7 },
	};
	const struct kernel_param *kp = wqk_find_param("rt_prio");
	int prio, i;

	KUNIT_ASSERT_NOT_NULL(test, kp);
	KUNIT_EXPECT_EQ(test, kp->perm, 0444);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		prio = 1;
		KUNIT_EXPECT_EQ_MSG(test, wqk_param_parse(kp, bad[i], &prio), -EINVAL,
				    "rt_prio=%s", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, prio, 1, "rt_prio=%s", bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		prio = 1;
		KUNIT_EXPECT_EQ_MSG(test, wqk_param_parse(kp, good[i].val, &prio), 0,
				    "rt_prio=%s", good[i].val);
		KUNIT_EXPECT_EQ(test, prio, good[i].prio);
	}
}

/*
 * The stall watchdog works for the real-time pools as for the others: a
 * WQ_RT item that neither sleeps nor counts as CPU-intensive, with an item
 * waiting behind it, is reported as a lockup of its CPU's real-time pool
 * ("fifo=N"), with the dump and the hog's stack.
 */
static void rt_pool_stall_is_reported_by_the_watchdog(struct kunit *test)
{
	/* the case's own thread reads the log beside the hog */
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the hog's");
	wqk_expect_stall_report(test, -1, WQ_RT);
}

static struct kunit_case wqk_rt_cases[] = {
	KUNIT_CASE(rt_pool_starts_with_a_worker_in_reserve),
#ifdef WQ_HAS_WORKER_CREATION_FAULT
	KUNIT_CASE(rt_first_item_starts_without_creation),
#endif
	KUNIT_CASE_PARAM(rt_items_run_sched_rr_at_the_class_priority,
			 wqk_rt_kind_gen_params),
	KUNIT_CASE(rt_item_preempts_a_normal_task_on_its_cpu),
	KUNIT_CASE(rt_item_does_not_preempt_a_higher_rt_task),
	KUNIT_CASE(rt_item_that_sleeps_does_not_hold_back_the_next),
	KUNIT_CASE(ordered_rt_workqueue_keeps_queueing_order),
	KUNIT_CASE(unbound_rt_workqueue_follows_its_cpumask),
	KUNIT_CASE(equal_attrs_rt_and_normal_unbound_do_not_share),
	KUNIT_CASE(rt_pool_serves_its_cpu_across_hotplug),
	KUNIT_CASE(rt_flag_combinations_that_make_no_sense_are_refused),
	KUNIT_CASE(rescuer_of_an_rt_workqueue_runs_items_sched_rr_then_nice_minus_20),
	KUNIT_CASE(rt_cpu_hog_lets_the_next_rt_item_start),
	KUNIT_CASE(rt_workqueues_add_no_threads),
	KUNIT_CASE(rt_pools_show_fifo_in_dumps),
	KUNIT_CASE_SLOW(rt_pool_stall_is_reported_by_the_watchdog),
	KUNIT_CASE(rt_prio_defaults_to_the_fifo_low_level),
	KUNIT_CASE(rt_prio_takes_1_to_99_only),
	KUNIT_CASE(rt_items_fire_the_workqueue_tracepoints),
	{}
};
#else
WQK_ABSENT_CASE(rt_class_is_absent, "needs WQ_HAS_RT_CLASS (no WQ_RT in this tree)")

static struct kunit_case wqk_rt_cases[] = {
	KUNIT_CASE(rt_class_is_absent),
	{}
};
#endif

static struct kunit_suite wqk_rt_suite = {
	.name = "workqueue_rt",
	.test_cases = wqk_rt_cases,
};

kunit_test_suites(&wqk_rt_suite);
