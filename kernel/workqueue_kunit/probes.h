/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites of the workqueue KUnit conformance suite share: the
 * probe (an instrumented work item), its tracker, and the helpers that
 * more than one suite uses.  probes.c has their code, in the same order.
 */
#ifndef _KERNEL_WORKQUEUE_KUNIT_PROBES_H
#define _KERNEL_WORKQUEUE_KUNIT_PROBES_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#ifdef WQ_HAS_PRECISE_WORK
#include <linux/workqueue_precise.h>
#endif

/* the rework's test hooks, where the tree has them */
#if __has_include("../workqueue_test.h")
#include "../workqueue_test.h"
#endif

/* How long a wait may take before the behaviour counts as broken. */
#define WQK_TIMEOUT		(20 * HZ)
/* Grace period given to something that must *not* happen. */
#define WQK_SETTLE_MS		50

/* Wait for one completion; fail the case when it times out. */
#define WQK_WAIT(test, comp)						\
	KUNIT_ASSERT_GT_MSG(test, wait_for_completion_timeout(comp,	\
			    WQK_TIMEOUT), 0, "timed out waiting for %s", #comp)

/*
 * A case whose feature (or configuration) this tree lacks, stock 6.12's
 * for a suite of the rework's: it skips, saying what it needs.
 */
#define WQK_ABSENT_CASE(name, why)					\
static void name(struct kunit *test)					\
{									\
	kunit_skip(test, why);						\
}

/*
 * Log lines between these two are a stack dump the case provokes on
 * purpose (the harness's log check lets a "Call Trace:" through there, and
 * nothing else).
 */
#define WQK_EXPECTED_LOCKUP_BEGIN "workqueue_kunit: expected workqueue lockup begins\n"
#define WQK_EXPECTED_LOCKUP_END	"workqueue_kunit: expected workqueue lockup ends\n"
#define WQK_EXPECTED_DUMP_BEGIN	"workqueue_kunit: expected stack dump begins\n"
#define WQK_EXPECTED_DUMP_END	"workqueue_kunit: expected stack dump ends\n"
/* ... and a WARN splat (or a warning with a stack dump) provoked on purpose */
#define WQK_EXPECTED_WARN_BEGIN	"workqueue_kunit: expected warning begins\n"
#define WQK_EXPECTED_WARN_END	"workqueue_kunit: expected warning ends\n"

/* ------------------------------------------------------------------ */
/* probes                                                              */
/* ------------------------------------------------------------------ */

/**
 * struct wqk_tracker - counts shared by the probes of one case
 * @running: probes inside their function right now
 * @peak: largest @running seen
 * @started: probe executions begun
 * @finished: probe executions ended
 */
struct wqk_tracker {
	atomic_t running;
	atomic_t peak;
	atomic_t started;
	atomic_t finished;
};

struct wqk_probe;
typedef void (*wqk_hook_fn)(struct wqk_probe *p);

/**
 * struct wqk_probe - an instrumented work item
 * @work: the item when queued as plain work
 * @dwork: the item when queued as delayed work
 * @rwork: the item when queued as RCU work
 * @pw: the item when queued as precise work (where the tree has it)
 * @test: the case it belongs to
 * @tracker: counts shared with other probes, or %NULL
 * @wq: where hooks requeue it
 * @stop: requeueing hooks stop requeueing (set by the case and by the
 *	teardown, so that a failed case does not leave a live requeuer that
 *	the teardown's destroy_workqueue() would drain forever)
 * @gated: wait on @gate before finishing (never in BH context)
 * @gate: opened by the case (and by the teardown)
 * @burn_us: CPU time to burn without sleeping
 * @sleep_ms: time to sleep
 * @hook: case-specific step, run last
 * @data: for @hook
 * @started: completed each time an execution begins
 * @finished: completed each time an execution ends
 * @runs: executions begun
 * @cpu: CPU of the last execution
 * @nice: nice level of the last execution
 * @policy: scheduling policy of the last execution
 * @rt_priority: its real-time priority (0 outside SCHED_FIFO/RR)
 * @comm: the executing task's name
 * @end_nice: nice level at the end of the last execution (after the gate)
 * @end_policy: scheduling policy there
 * @end_rt_priority: its real-time priority there
 * @in_softirq: the last execution was in softirq context
 * @in_interrupt: the last execution was in interrupt context
 * @rescuer: the last execution was by a rescuer
 * @current_work: what current_work() returned in the last execution
 * @ran_at: jiffies when the last execution began
 * @running_at_start: probes of @tracker running when it began
 * @place: executions of @tracker's probes ended up to the end of this one
 * @cpu_ns: CPU time charged to the last execution, from its first line to
 *	its last (a host preemption anywhere in it is charged too)
 * @nr_allowed: CPUs the executing task was allowed to run on
 * @task: the task of the last execution (valid while its workqueue lives,
 *	for rescuers)
 *
 * Exactly one of @work, @dwork, @rwork and @pw is used by a probe.
 */
struct wqk_probe {
	struct work_struct work;
	struct delayed_work dwork;
	struct rcu_work rwork;
#ifdef WQ_HAS_PRECISE_WORK
	struct precise_work pw;
#endif
	struct kunit *test;
	struct wqk_tracker *tracker;
	struct workqueue_struct *wq;
	bool stop;

	bool gated;
	struct completion gate;
	unsigned int burn_us;
	unsigned int sleep_ms;
	wqk_hook_fn hook;
	void *data;

	struct completion started;
	struct completion finished;
	atomic_t runs;
	int cpu;
	int nice;
	int policy;
	int rt_priority;
	char comm[TASK_COMM_LEN];
	int end_nice;
	int end_policy;
	int end_rt_priority;
	bool in_softirq;
	bool in_interrupt;
	bool rescuer;
	struct work_struct *current_work;
	unsigned long ran_at;
	u64 cpu_ns;
	int running_at_start;
	int place;
	int nr_allowed;
	struct task_struct *task;
};

/* The work function of a probe queued as plain work (dumps name it). */
void wqk_probe_fn(struct work_struct *work);

/**
 * __wqk_probe_new() - a new probe, cancelled and freed when the case ends
 * @test: the case
 * @t: the tracker the probe counts in, or %NULL
 * @bh: the probe is for BH workqueues
 *
 * Probes for BH workqueues are initialised at their own INIT_WORK() site:
 * lockdep keys a work item's map by that site, and one map used both in
 * softirq and in process context is an inconsistent lock state.
 *
 * Return: the probe; the case fails if it cannot be allocated.
 */
struct wqk_probe *__wqk_probe_new(struct kunit *test,
				  struct wqk_tracker *t, bool bh);
/* __wqk_probe_new() for process context, and for BH workqueues. */
struct wqk_probe *wqk_probe_new(struct kunit *test, struct wqk_tracker *t);
struct wqk_probe *wqk_bh_probe_new(struct kunit *test, struct wqk_tracker *t);
/* A probe that waits in its function until wqk_open() opens its gate. */
struct wqk_probe *wqk_gated_probe(struct kunit *test, struct wqk_tracker *t);
void wqk_open(struct wqk_probe *p);

struct wqk_tracker *wqk_tracker_new(struct kunit *test);

/* Wait until @t counted at least @n starts (or finishes). */
void wqk_wait_count(struct kunit *test, atomic_t *count, int n,
		    const char *what);
#define WQK_WAIT_STARTED(test, t, n) \
	wqk_wait_count(test, &(t)->started, n, "started")
#define WQK_WAIT_FINISHED(test, t, n) \
	wqk_wait_count(test, &(t)->finished, n, "finished")

/* Run one item on @wq, queued on @cpu, and return its probe. */
struct wqk_probe *__wqk_run_one(struct kunit *test,
				struct workqueue_struct *wq, int cpu, bool bh);
struct wqk_probe *wqk_run_one(struct kunit *test,
			      struct workqueue_struct *wq, int cpu);

/* Hook: spin (without sleeping) until the probe in ->data has started. */
void wqk_spin_until_other_started(struct wqk_probe *p);
/* Hook: requeue until told to stop (->stop). */
void wqk_requeue_until_stopped(struct wqk_probe *p);
/* Hook: requeue until ->runs reaches the count in ->data (or ->stop). */
void wqk_requeue_chain(struct wqk_probe *p);

/* ------------------------------------------------------------------ */
/* workqueues                                                          */
/* ------------------------------------------------------------------ */

/* Run @fn(@arg) when the case ends; fail the case if that cannot be set up. */
void wqk_defer(struct kunit *test, kunit_action_t *fn, void *arg);
/* A wqk_defer() action: destroy_workqueue(@wq). */
void wqk_destroy_wq_action(void *wq);

/*
 * Workqueues destroyed when the case ends (the case fails if they cannot
 * be allocated): of @flags and @max_active; ordered; an ordered one held
 * up by a gated item *@blocker, for "pending" states.
 */
struct workqueue_struct *wqk_wq_new(struct kunit *test,
				    unsigned int flags, int max_active);
struct workqueue_struct *wqk_ordered_new(struct kunit *test);
struct workqueue_struct *wqk_blocked_wq(struct kunit *test,
					struct wqk_probe **blocker);
/* Attributes freed when the case ends. */
struct workqueue_attrs *wqk_attrs_new(struct kunit *test);

/* Room for the name of a workqueue that __wqk_named_wq() makes. */
#define WQK_NAME_LEN	24

/*
 * A per-CPU workqueue of @flags (wqk_named_wq(): 0), max_active 1, whose
 * name the case knows: it goes to @name, WQK_NAME_LEN bytes.
 */
struct workqueue_struct *__wqk_named_wq(struct kunit *test, char *name,
					unsigned int flags);
struct workqueue_struct *wqk_named_wq(struct kunit *test, char *name);

/* The kinds of sleepable workqueue most cases run over. */
enum wqk_kind {
	WQK_PERCPU,
	WQK_HIGHPRI,
	WQK_UNBOUND,
	WQK_ORDERED,
	WQK_MEM_RECLAIM,
};

/*
 * KUnit parameters: each enum wqk_kind, and normal/highpri (a bool).
 * wqk_kind_wq() is a workqueue of the case's kind, wqk_is_ordered_kind()
 * whether that kind is ordered.
 */
const void *wqk_kind_gen_params(const void *prev, char *desc);
const void *wqk_highpri_gen_params(const void *prev, char *desc);
struct workqueue_struct *wqk_kind_wq(struct kunit *test);
bool wqk_is_ordered_kind(struct kunit *test);

/* ------------------------------------------------------------------ */
/* CPUs, priorities and parameters                                     */
/* ------------------------------------------------------------------ */

/*
 * Two online CPUs, different when the machine has more than one, and on
 * different NUMA nodes when it has CPUs on two: a case that needs two
 * CPUs then also catches state kept per node where it must be global.
 */
void wqk_two_cpus(int *a, int *b);
int wqk_last_online_cpu(void);
/* A work_on_cpu() function: the CPU it ran on plus (long)@arg. */
long wqk_cpu_plus(void *arg);
/* Pin the case's own kthread (one per case) to @cpu at @nice. */
void wqk_pin_self(struct kunit *test, int cpu, int nice);

/**
 * wqk_set_prio() - make the calling thread run at a policy and priority
 * @policy: SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or
 *	SCHED_DEADLINE
 * @prio: the nice level for SCHED_NORMAL and SCHED_BATCH, the priority for
 *	SCHED_FIFO and SCHED_RR; SCHED_IDLE ignores it, SCHED_DEADLINE gets
 *	1 ms every 100 ms
 *
 * Return: what sched_setattr_nocheck() returned.
 */
int wqk_set_prio(int policy, int prio);

/* The built-in parameter "workqueue.@name", or %NULL. */
const struct kernel_param *wqk_find_param(const char *name);

/**
 * wqk_set_param() - set a built-in parameter "workqueue.@name" for one case
 * @test: the case; skipped if the kernel has no such parameter
 * @name: the parameter's name without "workqueue."
 * @val: the value, as on the command line
 *
 * The value it had comes back when the case ends.  The suite is built in,
 * so it reaches the parameter table as the kernel's command line parser
 * does.
 */
void wqk_set_param(struct kunit *test, const char *name, const char *val);

/* The CPU a hotplug case takes down, or skip the case. */
int wqk_hotplug_victim(struct kunit *test);
/* Take @cpu down, back up when the case ends. */
void wqk_take_cpu_down(struct kunit *test, int cpu);

/**
 * wqk_exclude_cpus() - keep unbound items off some CPUs for one case
 * @test: the case
 * @cpus: the CPUs to exclude
 *
 * As a cpuset partition does, which also rebuilds every unbound
 * workqueue, ordered ones included.  The exclusion ends with the case
 * (wqk_unexclude_cpus()).
 */
void wqk_exclude_cpus(struct kunit *test, const struct cpumask *cpus);
void wqk_unexclude_cpus(void *unused);

/**
 * wqk_node_slot_held() - a node's single slot, held
 * @test: the case; skipped without two online CPUs on one node
 * @a: set to the CPU whose pwq holds the slot
 * @b: set to another CPU of @a's node
 * @hold: set to the gated probe that runs on @a in that slot
 *
 * Return: an unbound workqueue with max_active 1 and one pwq per CPU, so
 * that @a and @b share their node's single slot.
 */
struct workqueue_struct *wqk_node_slot_held(struct kunit *test,
					    int *a, int *b,
					    struct wqk_probe **hold);

/**
 * wqk_kick_cpu_scope_pool() - wake the pool of wqk_node_slot_held()'s kind
 * @test: the case
 * @cpu: the CPU whose pool to wake
 *
 * With an item of another such workqueue (unbound pools are shared by
 * attributes): a case whose pool was not woken when it should have been
 * fails, and its items still run, so that its end does not hang.
 */
void wqk_kick_cpu_scope_pool(struct kunit *test, int cpu);

/**
 * wqk_ordered_requeue_behind_rebuild() - queue a running item again, behind
 *	a rebuild
 * @test: the case; skipped without two online CPUs
 * @wq: an ordered workqueue
 * @a: a gated probe
 *
 * Start @a on @wq, rebuild @wq (a CPU excluded from unbound work) and
 * queue @a again: that instance waits in the newer pwq, plugged until the
 * older one, where @a runs, drains.
 */
void wqk_ordered_requeue_behind_rebuild(struct kunit *test,
					struct workqueue_struct *wq,
					struct wqk_probe *a);

/* ------------------------------------------------------------------ */
/* threads and waiters                                                 */
/* ------------------------------------------------------------------ */

/**
 * struct wqk_thread - a kthread that a case starts
 * @task: the kthread
 * @fn: what it runs
 * @data: for @fn
 * @index: for @fn
 * @running: @fn has begun
 * @done: completed when @fn returns
 *
 * It parks after running @fn until the case ends, so that kthread_stop()
 * in the cleanup always finds it alive.
 */
struct wqk_thread {
	struct task_struct *task;
	void (*fn)(struct wqk_thread *th);
	void *data;
	int index;
	bool running;
	struct completion done;
};

/**
 * wqk_thread_run() - start a function in a kthread
 * @test: the case, which stops the kthread when it ends
 * @fn: the function
 * @data: &wqk_thread.data
 * @index: &wqk_thread.index
 * @cpu: the CPU to bind the kthread to; not bound if negative
 *
 * Return: the thread.
 */
struct wqk_thread *wqk_thread_run(struct kunit *test,
				  void (*fn)(struct wqk_thread *),
				  void *data, int index, int cpu);

/*
 * Wait until @th, having started its function, sleeps uninterruptibly
 * (inside the flush or cancel it was started for); false on a timeout.
 */
bool wqk_wait_blocked(struct wqk_thread *th);

/* What a waiter thread does, and what it saw when it came back. */
enum wqk_wait_op {
	WQK_FLUSH_WORKQUEUE,
	WQK_FLUSH_WORK,
	WQK_FLUSH_DELAYED,
	WQK_CANCEL_SYNC,
	WQK_CANCEL_DELAYED_SYNC,
	WQK_DISABLE_SYNC,
	WQK_DRAIN,
	WQK_FLUSH_RCU,
	WQK_DISABLE_DELAYED_SYNC,
#ifdef WQ_HAS_PRECISE_WORK
	WQK_FLUSH_PRECISE,
	WQK_CANCEL_PRECISE_SYNC,
	WQK_DISABLE_PRECISE_SYNC,
#endif
};

struct wqk_waiter {
	enum wqk_wait_op op;
	struct workqueue_struct *wq;
	struct wqk_probe *p;
	bool ret;
	bool probe_finished;	/* ->p had finished when the call returned */
	struct wqk_thread *th;
	bool set_prio;		/* wait at @policy/@prio, not as created */
	int policy;		/* any policy wqk_set_prio() takes */
	int prio;		/* nice level, or real-time priority */
};

#if defined(WQ_HAS_WAIT_PI) || defined(WQ_HAS_HISTOGRAMS)
/* Queue @p on @wq (on @cpu where the call takes one) as @op's item. */
void wqk_queue_for(enum wqk_wait_op op, struct workqueue_struct *wq,
		   struct wqk_probe *p, int cpu);
#endif

/**
 * wqk_wait_call() - make a call that waits
 * @op: the call
 * @wq: the workqueue it takes, if it takes one
 * @p: the probe it takes, if it takes an item
 *
 * Return: what the call returned (true for calls that return nothing).
 */
bool wqk_wait_call(enum wqk_wait_op op, struct workqueue_struct *wq,
		   struct wqk_probe *p);

/* A wqk_thread_run() function: the call of the struct wqk_waiter in ->data. */
void wqk_waiter_fn(struct wqk_thread *th);

/**
 * wqk_waiter_start() - start a thread that makes a call that waits
 * @test: the case; fails if the call returns without waiting
 * @op: the call
 * @wq: the workqueue it takes, if it takes one
 * @p: the probe it takes, if it takes an item
 *
 * Return: the waiter, once it is blocked in its call.
 */
struct wqk_waiter *wqk_waiter_start(struct kunit *test,
				    enum wqk_wait_op op,
				    struct workqueue_struct *wq,
				    struct wqk_probe *p);

/* ------------------------------------------------------------------ */
/* logs and dumps                                                      */
/* ------------------------------------------------------------------ */

/*
 * Dumps (SysRq-t, the watchdog, a failed freeze) are read by people and
 * scripts: their text is ABI.  A case prints a marker, has the dump
 * printed, and reads back the log lines after the marker, without their
 * "[time]" prefix.
 */
#define WQK_LOG_LINES	256
#define WQK_LOG_LEN	2048	/* a whole printk message */

struct wqk_log {
	char line[WQK_LOG_LINES][WQK_LOG_LEN];
	char next[WQK_LOG_LEN];
	int nr;
};

/**
 * wqk_log_of() - what a dump printed
 * @test: the case, which frees the log when it ends
 * @dump: prints the dump
 * @arg: for @dump
 *
 * Return: the log lines @dump(@arg) printed.
 */
struct wqk_log *wqk_log_of(struct kunit *test, void (*dump)(void *),
			   void *arg);

/*
 * The first line that starts with @prefix after the first that starts
 * with @after (wqk_log_line(): from the top), or "" (and a failure).
 */
const char *wqk_log_line_after(struct kunit *test, struct wqk_log *log,
			       const char *after, const char *prefix);
const char *wqk_log_line(struct kunit *test, struct wqk_log *log,
			 const char *prefix);

/* wqk_log_of() dumps: show_one_workqueue(@wq), show_all_workqueues(). */
void wqk_show_one(void *wq);
void wqk_show_all(void *unused);

/* The pool ID from a "  pwq ID:" line, -1 if there is none. */
int wqk_pwq_line_pool(const char *line);

/*
 * The ID of a per-CPU pool of @cpu: 6.12 numbers them per CPU at boot in
 * the order bh, bh-highpri, normal, highpri (@kind 0 to 3), which dumps
 * and wq_dump.py show (for possible CPUs numbered without holes, as on
 * the test guest).
 */
int wqk_cpu_pool_id(int cpu, int kind);

/**
 * wqk_expect_stall_report() - stall a pool and check the watchdog's report
 * @test: the case
 * @toucher_cpu: a CPU where a thread touches its own CPU's watchdog all
 *	along, which must not hide the stall of another CPU's pool; none if
 *	negative
 * @flags: the workqueue's: WQ_RT stalls the CPU's real-time pool, which
 *	the report names by its priority ("fifo=N") where others say "nice=N"
 *
 * A per-CPU pool whose running item neither sleeps nor counts as
 * CPU-intensive, with an item waiting behind it: the watchdog reports the
 * pool with 6.12's line, "stuck for" counted from the pool's last progress
 * (at least the one-second threshold), then dumps the busy workqueues and
 * the stacks of the pool's running workers.
 */
void wqk_expect_stall_report(struct kunit *test, int toucher_cpu,
			     unsigned int flags);

/* ------------------------------------------------------------------ */
/* rescuers                                                            */
/* ------------------------------------------------------------------ */

#ifdef WQ_HAS_WORKER_CREATION_FAULT
#define WQK_RESCUE_BLOCKERS	32
#define WQK_RESCUED		4

/* A wqk_defer() action: worker creation works again. */
void wqk_creation_fault_off(void *unused);

/**
 * wqk_starve_pool() - leave a pool only its rescuers
 * @test: the case; skipped if the pool has more workers than it can hold
 * @cpu: the pool's CPU
 * @flags: which pool of @cpu: the one of per-CPU workqueues with @flags
 *	(0: the normal one, WQ_RT: the RT one)
 *
 * Make the pool unable to run anything but its rescuers' items: worker
 * creation fails, and WQK_RESCUE_BLOCKERS gated items of a workqueue
 * without a rescuer hold every worker the pool has.
 */
void wqk_starve_pool(struct kunit *test, int cpu, unsigned int flags);

/* Queue WQK_RESCUED sleeping items of @wq on the starved pool of @cpu. */
void wqk_queue_rescued(struct kunit *test, struct workqueue_struct *wq,
		       int cpu, struct wqk_probe **ps);
#endif

/* ------------------------------------------------------------------ */
/* the real-time class and priority inheritance                        */
/* ------------------------------------------------------------------ */

#if defined(WQ_HAS_RT_CLASS) || defined(WQ_HAS_WAIT_PI)
/* Where an item of a run records its turn. */
struct wqk_turn {
	atomic_t *next;
	int saw;
};

/* @n probes (of tracker @t, may be %NULL) that record their turns. */
void wqk_turns_new(struct kunit *test, struct wqk_tracker *t,
		   struct wqk_probe **ps, struct wqk_turn *turns,
		   atomic_t *next, int n);

/*
 * Whether @policy with @rt_priority or @nice is @want_policy at @want:
 * the real-time priority for SCHED_FIFO and SCHED_RR, else the nice level.
 */
bool wqk_rank_is(int policy, int rt_priority, int nice,
		 int want_policy, int want);

/* Wait until @task runs at @policy/@prio (as wqk_rank_is()), or time out. */
bool wqk_task_reaches(struct task_struct *task, int policy, int prio);

#define WQK_RT_HOG_MS	5000

/*
 * Hook: spin until told to stop (->stop), for WQK_RT_HOG_MS at most;
 * whether it was told goes to the bool in ->data.
 */
void wqk_rt_hog_hook(struct wqk_probe *p);

/* Queue @n probes on @wq, on @cpu. */
void wqk_queue_all(struct workqueue_struct *wq, int cpu,
		   struct wqk_probe **ps, int n);
#endif

#endif /* _KERNEL_WORKQUEUE_KUNIT_PROBES_H */
