// SPDX-License-Identifier: GPL-2.0
/*
 * Workqueue torture test: random operations on workqueues of every kind,
 * with CPU hotplug, shuffling, stutter and fault injection, checked
 * against an exact ledger.
 *
 * Threads pick a random workqueue (a "slot": per-CPU, high-priority,
 * unbound with changing attributes, ordered, BH, WQ_MEM_RECLAIM and, where
 * the kernel has it, WQ_RT) and a random item of it (plain, delayed, RCU
 * or precise delayed work) and queue, queue_on, mod, cancel, cancel_sync,
 * flush, disable or enable it, or flush, drain, resize, reconfigure
 * (through sysfs) or destroy and re-create the workqueue.  Items sleep,
 * burn CPU, requeue themselves and queue others.
 *
 * The ledger (per item, all counters only grow):
 *   queue_try   queue attempts counted before the call, taken back when
 *               the call queued nothing
 *   queue_ok    queue calls that made the item pending, counted after
 *   cancel_ok   cancels (and disables, and the moving part of a mod) that
 *               removed a pending instance, counted after the call;
 *               the call and its count are one read-side section of the
 *               item's cancel_rwsem, so a checker that takes it for
 *               writing sees every cancel that has removed an instance
 *   ran         runs of the item function, counted when a run starts
 *   finished    runs that have ended, counted as the function returns
 * and it checks:
 *   - a run never makes ran + cancel_ok exceed queue_try (nothing runs
 *     that was not queued, nothing runs twice);
 *   - an item never runs concurrently with itself;
 *   - after flush_work() or cancel_work_sync(), finished + cancel_ok
 *     covers the queue_ok seen before the call (after flush_workqueue(),
 *     for the plain items of that workqueue): what was queued before has
 *     finished or been cancelled; except after a flush of a timed item
 *     that overlapped another flush of it, which proves nothing (see
 *     wqt_flush_overlapped());
 *   - a delayed or precise item does not stay pending long past its
 *     delay: an instance queued with a delay D that has neither started
 *     nor been cancelled 10 s + 2 D later is a lost timer (checked with
 *     the statistics and whenever its workqueue is closed);
 *   - an item disabled throughout a queue call is not queued;
 *   - an ordered workqueue runs one item at a time, its plain items in
 *     the order they were queued;
 *   - whenever a workqueue is drained or destroyed, and at the end, every
 *     item of it is exactly accounted for: queue_ok == finished +
 *     cancel_ok and nothing runs.
 * Faults: alloc_workqueue() and the sysfs attribute writes (per workqueue
 * and the global unbound cpumask) run with the thread's fail_nth set
 * (CONFIG_FAULT_INJECTION; failslab must not ignore GFP_KERNEL, see the
 * harness) fault_rate % of the time, armed around the call alone; a failed
 * call must return an error and leave the old workqueue or attributes in
 * place, and a call that fails with no fault armed is an error.  Worker
 * creation faults are the implementation's business (its debugfs knobs).
 * Where the kernel has them, the workqueues' histograms are read and reset
 * while all this goes on.
 *
 * Statistics every stat_interval seconds and at the end, which prints
 * "End of test: SUCCESS" or "End of test: FAILURE" in rcutorture's words.
 *
 * Map: parameters and state; the ledger; items (the work function and
 * the queue/cancel/flush operations); slots (lifetime, exclusive sections,
 * drain, destroy/re-create, sysfs attributes); the torture threads; stats;
 * init and cleanup.
 *
 * Locking:
 *   wqt_slot.lock    (spinlock, BH-safe) closed, users, the ordered
 *                    tickets of every item of the slot
 *   wqt_slot.excl    (mutex) one exclusive section (drain, destroy) at a
 *                    time; with users == 0 and closed it owns slot->wq
 *   wqt_slot.attrs   (mutex) one sysfs attribute write or
 *                    workqueue_set_max_active() per slot at a time
 *   wqt_item.op_mutex (mutex) disable, enable, mod and cancel_sync (which
 *                    disables while it waits) of the item: with it held,
 *                    our count of disables is the kernel's
 *   wqt_item.cancel_rwsem (rw_semaphore) read: a cancel call and its
 *                    count; write: a checker waiting for those in flight
 *   wqt_item.timer_lock (spinlock, irq-safe) the newest timed instance
 *   wqt_global_attrs (mutex) the global unbound cpumask writes
 * Order: op_mutex, then cancel_rwsem, then slot.lock; cpus_read_lock()
 * (queue_on) is taken before slot.lock and timer_lock and never with
 * op_mutex or cancel_rwsem.
 */
#define pr_fmt(fmt) fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/ratelimit.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/torture.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#ifdef WQ_HAS_PRECISE_WORK
#include <linux/workqueue_precise.h>
#endif
#ifdef WQ_HAS_HISTOGRAMS
#include <linux/workqueue_hist.h>
#endif

MODULE_DESCRIPTION("Workqueue torture test");
MODULE_LICENSE("GPL");

torture_param(int, nthreads, 4, "Torture threads");
torture_param(int, onoff_holdoff, 3, "Seconds before CPU hotplug starts");
torture_param(int, onoff_interval, 2000, "Milliseconds between CPU hotplug operations (0: none)");
torture_param(int, shuffle_interval, 3, "Seconds between task shuffles");
torture_param(int, stutter, 5, "Seconds of run, then of pause (0: no stutter)");
torture_param(int, shutdown_secs, 0, "Power off after this many seconds (0: never)");
torture_param(int, stat_interval, 10, "Seconds between statistics (0: only at the end)");
torture_param(int, fault_rate, 8, "Percent of calls run with an allocation fault");
torture_param(int, rt, 1, "Include a WQ_RT workqueue where the kernel has the class");
torture_param(bool, verbose, false, "Log more");

static char *torture_type = "wq";

#define WQT_ITEMS	8	/* items per slot */
#define WQT_TICKETS	2	/* pending + running instance of an item */
#define WQT_TIMER_SLACK	(10 * HZ)	/* a timed item late by more is lost */
#define WQT_CPUMASK_PATH "/sys/devices/virtual/workqueue/cpumask"

enum wqt_kind { WQT_PLAIN, WQT_DELAYED, WQT_RCU, WQT_PRECISE };

static const char * const wqt_kind_names[] = {
	[WQT_PLAIN] = "work", [WQT_DELAYED] = "delayed",
	[WQT_RCU] = "rcu", [WQT_PRECISE] = "precise",
};

struct wqt_slot;

/* One work item and its ledger. */
struct wqt_item {
	union {				/* the work_struct is first in each */
		struct work_struct work;
		struct delayed_work dwork;
		struct rcu_work rwork;
#ifdef WQ_HAS_PRECISE_WORK
		struct precise_work pwork;
#endif
	};
	enum wqt_kind kind;
	int index;
	struct wqt_slot *slot;
	atomic_t running;
	atomic_long_t queue_try, queue_ok, cancel_ok, ran, finished;
	struct mutex op_mutex;		/* disable, enable, mod, cancel_sync */
	struct rw_semaphore cancel_rwsem; /* read: a cancel and its count */
	spinlock_t timer_lock;		/* timer_inst, timer_limit */
	long timer_inst;		/* newest timed instance (queue_ok) */
	unsigned long timer_limit;	/* when it must have started by */
	atomic_t disabled;		/* our disables not yet enabled */
	atomic_t disable_gen;		/* changes with every disable/enable */
	atomic_t flushers;		/* wqt_flush() calls in flight */
	atomic_t flush_overlaps;	/* flushes that began beside another */
	unsigned long tickets[WQT_TICKETS];	/* ordered: pending instances */
	int nr_tickets;
};

/* A workqueue under test, with its items. */
struct wqt_slot {
	const char *name;
	unsigned int flags;
	bool ordered;
	struct workqueue_struct *wq;
	int gen;			/* re-creations, for the name */
	char wq_name[32];
	spinlock_t lock;		/* closed, users, tickets */
	bool closed;
	int users;			/* written under lock, read without */
	wait_queue_head_t users_wq;
	struct mutex excl;		/* one drain or re-creation */
	struct mutex attrs;		/* one attribute write or max_active */
	atomic_t running;		/* items running now (ordered check) */
	unsigned long next_ticket, last_ticket;
	struct wqt_item items[WQT_ITEMS];
};

/* What a slot is: flags and the kinds of its items. */
struct wqt_slot_type {
	const char *name;
	unsigned int flags;
	bool ordered;
	enum wqt_kind kinds[WQT_ITEMS];
};

#ifdef WQ_HAS_PRECISE_WORK
#define WQT_TIMED	WQT_PRECISE
#else
#define WQT_TIMED	WQT_DELAYED
#endif

#define WQT_MIXED { WQT_PLAIN, WQT_PLAIN, WQT_PLAIN, WQT_DELAYED, \
		    WQT_DELAYED, WQT_RCU, WQT_TIMED, WQT_TIMED }

static const struct wqt_slot_type wqt_slot_types[] = {
	{ "percpu", 0, false, WQT_MIXED },
	{ "highpri", WQ_HIGHPRI, false, WQT_MIXED },
	{ "unbound", WQ_UNBOUND | WQ_SYSFS, false, WQT_MIXED },
	{ "unbound_rc", WQ_UNBOUND | WQ_SYSFS | WQ_MEM_RECLAIM, false, WQT_MIXED },
	{ "reclaim", WQ_MEM_RECLAIM, false, WQT_MIXED },
	{ "ordered", WQ_MEM_RECLAIM, true,
	  { WQT_PLAIN, WQT_PLAIN, WQT_PLAIN, WQT_PLAIN, WQT_PLAIN,
	    WQT_DELAYED, WQT_DELAYED, WQT_DELAYED } },
	{ "bh", WQ_BH, false, WQT_MIXED },
#ifdef WQ_HAS_RT_CLASS
	{ "rt", WQ_RT, false, WQT_MIXED },
#endif
};

#define WQT_SLOTS ARRAY_SIZE(wqt_slot_types)

static struct wqt_slot *wqt_slots;
static int wqt_nr_slots;
/* lockdep: the items of a slot are one class (BH items apart from others) */
static struct lock_class_key wqt_work_keys[WQT_SLOTS];
static struct task_struct **wqt_threads;
static struct task_struct *wqt_stats_task;
static DEFINE_MUTEX(wqt_global_attrs);
static atomic_long_t wqt_errors;
static bool wqt_global_cpumask_changed;
static char *wqt_saved_cpumask;	/* the global cpumask at load, "%*pb\n" */

/*
 * Operations, counted for the statistics.  Those the kernel may lack
 * exist only where it has them, so that every operation listed runs.
 */
enum wqt_op {
	WQT_OP_QUEUE, WQT_OP_QUEUE_ON, WQT_OP_MOD, WQT_OP_CANCEL,
	WQT_OP_CANCEL_SYNC, WQT_OP_FLUSH, WQT_OP_FLUSH_WQ, WQT_OP_DRAIN,
	WQT_OP_DISABLE, WQT_OP_ENABLE, WQT_OP_MAX_ACTIVE, WQT_OP_ATTRS,
	WQT_OP_GLOBAL_CPUMASK, WQT_OP_RECREATE,
#ifdef WQ_HAS_HISTOGRAMS
	WQT_OP_HIST_READ, WQT_OP_HIST_RESET,
#endif
	WQT_NR_OPS
};

static const char * const wqt_op_names[] = {
	[WQT_OP_QUEUE]		= "queue",
	[WQT_OP_QUEUE_ON]	= "queue_on",
	[WQT_OP_MOD]		= "mod",
	[WQT_OP_CANCEL]		= "cancel",
	[WQT_OP_CANCEL_SYNC]	= "cancel_sync",
	[WQT_OP_FLUSH]		= "flush",
	[WQT_OP_FLUSH_WQ]	= "flush_wq",
	[WQT_OP_DRAIN]		= "drain",
	[WQT_OP_DISABLE]	= "disable",
	[WQT_OP_ENABLE]		= "enable",
	[WQT_OP_MAX_ACTIVE]	= "max_active",
	[WQT_OP_ATTRS]		= "attrs",
	[WQT_OP_GLOBAL_CPUMASK]	= "global_cpumask",
	[WQT_OP_RECREATE]	= "recreate",
#ifdef WQ_HAS_HISTOGRAMS
	[WQT_OP_HIST_READ]	= "hist_read",
	[WQT_OP_HIST_RESET]	= "hist_reset",
#endif
};

/* Weights of the operations a torture thread picks. */
static const int wqt_op_weight[WQT_NR_OPS] = {
	[WQT_OP_QUEUE] = 40, [WQT_OP_QUEUE_ON] = 15, [WQT_OP_MOD] = 10,
	[WQT_OP_CANCEL] = 8, [WQT_OP_CANCEL_SYNC] = 5, [WQT_OP_FLUSH] = 6,
	[WQT_OP_FLUSH_WQ] = 2, [WQT_OP_DRAIN] = 1, [WQT_OP_DISABLE] = 2,
	[WQT_OP_ENABLE] = 4, [WQT_OP_MAX_ACTIVE] = 2, [WQT_OP_ATTRS] = 2,
	[WQT_OP_GLOBAL_CPUMASK] = 1, [WQT_OP_RECREATE] = 1,
#ifdef WQ_HAS_HISTOGRAMS
	[WQT_OP_HIST_READ] = 2, [WQT_OP_HIST_RESET] = 1,
#endif
};

static atomic_long_t wqt_op_count[WQT_NR_OPS];
static atomic_long_t wqt_runs, wqt_checks, wqt_rejected_queues;
static atomic_long_t wqt_flush_overlaps;
static atomic_long_t wqt_faults_tried, wqt_faults_hit, wqt_fault_errors;

/* ------------------------------------------------------------------ */
/* The ledger                                                          */
/* ------------------------------------------------------------------ */

/* Count a failure and report it, ratelimited: @where names the object. */
static void wqt_report(const char *where, const char *what, long a, long b)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);

	atomic_long_inc(&wqt_errors);
	if (__ratelimit(&rs))
		pr_alert("%s" TORTURE_FLAG "!!! %s: %s (%ld, %ld)\n",
			 torture_type, where, what, a, b);
}

/* A failure of an item. */
static void wqt_fail(struct wqt_item *it, const char *what, long a, long b)
{
	char where[64];

	snprintf(where, sizeof(where), "%s item %d (%s)", it->slot->wq_name,
		 it->index, wqt_kind_names[it->kind]);
	wqt_report(where, what, a, b);
}

/* A failure of a workqueue as a whole: its allocation or attributes. */
static void wqt_slot_fail(struct wqt_slot *s, const char *what, long a, long b)
{
	wqt_report(s->wq_name, what, a, b);
}

static bool wqt_timed(struct wqt_item *it)
{
	return it->kind == WQT_DELAYED || it->kind == WQT_PRECISE;
}

/**
 * wqt_timer_note - note when the newest instance of a timed item is due
 * @it: the item
 * @inst: the instance, numbered by queue_ok after its count
 * @delay_us: the delay it was queued with
 *
 * Only one instance of a timed item is pending at a time.  The newest one
 * noted must have started or been cancelled WQT_TIMER_SLACK plus twice its
 * delay after now (the deadline plus a margin of 10 s + D, for hotplug,
 * stutter and slow guests).
 *
 * Context: any.
 */
static void wqt_timer_note(struct wqt_item *it, long inst, unsigned int delay_us)
{
	unsigned long d = usecs_to_jiffies(delay_us), flags;

	if (!wqt_timed(it))
		return;
	spin_lock_irqsave(&it->timer_lock, flags);
	if (inst > it->timer_inst) {
		it->timer_inst = inst;
		it->timer_limit = jiffies + 2 * d + WQT_TIMER_SLACK;
	}
	spin_unlock_irqrestore(&it->timer_lock, flags);
}

/* A queue attempt is counted before the call ... */
static void wqt_queue_begin(struct wqt_item *it)
{
	atomic_long_inc(&it->queue_try);
}

/**
 * wqt_queue_end - settle a queue attempt
 * @it: the item
 * @queued: what the call returned
 * @gen0: the item's disable generation, read before the call
 * @disabled0: its count of our disables, read after @gen0 before the call
 * @delay_us: the delay the item was queued with (timed kinds)
 *
 * With the generation unchanged, the item was disabled all through the
 * call and must not have been queued.
 *
 * Context: any.
 */
static void wqt_queue_end(struct wqt_item *it, bool queued, int gen0,
			  int disabled0, unsigned int delay_us)
{
	if (!queued) {
		atomic_long_dec(&it->queue_try);
		atomic_long_inc(&wqt_rejected_queues);
		return;
	}
	wqt_timer_note(it, atomic_long_inc_return(&it->queue_ok), delay_us);
	if (disabled0 > 0 && gen0 == atomic_read(&it->disable_gen))
		wqt_fail(it, "queued while disabled", disabled0, gen0);
}

/*
 * A cancel call and its count are one read-side section of cancel_rwsem:
 * @cancelled is what the call returned.
 */
static void wqt_cancel_begin(struct wqt_item *it)
{
	down_read(&it->cancel_rwsem);
}

static void wqt_cancel_end(struct wqt_item *it, bool cancelled)
{
	if (cancelled)
		atomic_long_inc(&it->cancel_ok);
	up_read(&it->cancel_rwsem);
}

/*
 * Instances of @it that have ended, with every cancel in flight counted
 * if it removed one: those wait for the write side.
 *
 * Context: process context, holding none of the item's locks.
 */
static long wqt_settled(struct wqt_item *it)
{
	down_write(&it->cancel_rwsem);
	up_write(&it->cancel_rwsem);
	return atomic_long_read(&it->finished) + atomic_long_read(&it->cancel_ok);
}

/*
 * After a failed check: the item's counts and what the workqueue says of
 * it, now and a second later (whether what was missing ends after all).
 */
static void wqt_explain(struct wqt_item *it)
{
	int i;

	for (i = 0; i < 2; i++) {
		/* the work_struct is first in each kind: &it->work is it */
		pr_alert("%s" TORTURE_FLAG " %s item %d: busy=%#x running=%d\n",
			 torture_type, it->slot->wq_name, it->index,
			 work_busy(&it->work), atomic_read(&it->running));
		pr_alert("%s" TORTURE_FLAG " tried=%ld queued=%ld ran=%ld done=%ld cancelled=%ld\n",
			 torture_type, atomic_long_read(&it->queue_try),
			 atomic_long_read(&it->queue_ok), atomic_long_read(&it->ran),
			 atomic_long_read(&it->finished),
			 atomic_long_read(&it->cancel_ok));
		if (!i)
			msleep(1000);
	}
}

/**
 * wqt_check_done - after a flush or cancel_sync: what was queued has ended
 * @it: the item
 * @queued_before: its queue_ok, read before the call
 * @what: the failure to report
 *
 * Every instance counted before the call must have finished running or
 * been cancelled.
 *
 * Context: process context, holding none of the item's locks.
 */
static void wqt_check_done(struct wqt_item *it, long queued_before,
			   const char *what)
{
	long done = wqt_settled(it);

	atomic_long_inc(&wqt_checks);
	if (done >= queued_before)
		return;
	wqt_fail(it, what, queued_before, done);
	wqt_explain(it);
}

/**
 * wqt_check_timer - a timed item's newest instance is not long overdue
 * @it: the item
 *
 * An instance that has neither started nor been cancelled well after its
 * delay has a lost timer.  Each lost one is reported once.
 *
 * Context: process context, holding none of the item's locks.
 */
static void wqt_check_timer(struct wqt_item *it)
{
	unsigned long limit, flags;
	long inst, done;

	if (!wqt_timed(it))
		return;
	spin_lock_irqsave(&it->timer_lock, flags);
	inst = it->timer_inst;
	limit = it->timer_limit;
	spin_unlock_irqrestore(&it->timer_lock, flags);
	if (!inst || time_before(jiffies, limit))
		return;
	atomic_long_inc(&wqt_checks);
	if (atomic_long_read(&it->ran) + atomic_long_read(&it->cancel_ok) >= inst)
		return;
	/* a cancel that removed it may not be counted yet */
	down_write(&it->cancel_rwsem);
	done = atomic_long_read(&it->ran) + atomic_long_read(&it->cancel_ok);
	up_write(&it->cancel_rwsem);
	if (done >= inst)
		return;
	wqt_fail(it, "timer lost: neither run nor cancelled long after its delay",
		 inst, done);
	spin_lock_irqsave(&it->timer_lock, flags);
	if (it->timer_inst == inst)
		it->timer_inst = 0;
	spin_unlock_irqrestore(&it->timer_lock, flags);
}

/* With the item quiet (nothing can queue or run it): exact accounts. */
static void wqt_check_settled(struct wqt_item *it)
{
	long q = atomic_long_read(&it->queue_ok);
	long done = atomic_long_read(&it->finished) + atomic_long_read(&it->cancel_ok);

	atomic_long_inc(&wqt_checks);
	if (q != done)
		wqt_fail(it, "queued != finished + cancelled when settled", q, done);
	if (atomic_read(&it->running))
		wqt_fail(it, "running when settled", atomic_read(&it->running), 0);
	if (it->nr_tickets)
		wqt_fail(it, "ordered tickets left over", it->nr_tickets, 0);
}

/* ------------------------------------------------------------------ */
/* Items                                                               */
/* ------------------------------------------------------------------ */

static bool wqt_slot_get(struct wqt_slot *s);
static void wqt_slot_put(struct wqt_slot *s);

static struct wqt_item *wqt_item_of(struct work_struct *work)
{
	return container_of(work, struct wqt_item, work);
}

static bool wqt_bh(struct wqt_slot *s)
{
	return s->flags & WQ_BH;
}

/*
 * Ordered slots: a plain item's queue and cancel go through these, under
 * slot->lock, so that its tickets follow its pending instances.
 */
static void wqt_ticket_push(struct wqt_item *it)
{
	struct wqt_slot *s = it->slot;

	lockdep_assert_held(&s->lock);
	if (WARN_ON_ONCE(it->nr_tickets >= WQT_TICKETS))
		return;
	it->tickets[it->nr_tickets++] = ++s->next_ticket;
}

static void wqt_ticket_drop_newest(struct wqt_item *it)
{
	lockdep_assert_held(&it->slot->lock);
	if (!WARN_ON_ONCE(!it->nr_tickets))
		it->nr_tickets--;
}

/* At the start of a run: the oldest ticket must be the newest run yet. */
static void wqt_ticket_run(struct wqt_item *it)
{
	struct wqt_slot *s = it->slot;
	unsigned long t;

	spin_lock_bh(&s->lock);
	if (!it->nr_tickets) {
		spin_unlock_bh(&s->lock);
		wqt_fail(it, "ordered item ran without a ticket", 0, 0);
		return;
	}
	t = it->tickets[0];
	it->tickets[0] = it->tickets[1];
	it->nr_tickets--;
	if (t <= s->last_ticket) {
		spin_unlock_bh(&s->lock);
		wqt_fail(it, "ordered workqueue ran out of order", t, s->last_ticket);
		return;
	}
	s->last_ticket = t;
	spin_unlock_bh(&s->lock);
}

static bool wqt_ticketed(struct wqt_item *it)
{
	return it->slot->ordered && it->kind == WQT_PLAIN;
}

/**
 * wqt_mod - mod_delayed_work_on() or mod_precise_work_on(), counted
 * @it: a delayed or precise item
 * @cpu: the CPU to queue on, or WORK_CPU_UNBOUND
 * @delay_us: the new delay
 *
 * A mod of a pending item moves that instance, so the ledger counts it
 * as a cancel of the old instance and a new one: a flush that started
 * before the mod may return before it runs.  Under op_mutex, an item we
 * have not disabled is not disabled, so a mod that found it idle queued.
 * Both counts are in the cancel's read-side section.
 *
 * Context: process context.
 */
static void wqt_mod(struct wqt_item *it, int cpu, unsigned int delay_us)
{
	struct workqueue_struct *wq = it->slot->wq;
	bool was_pending = false;
	long inst;

	mutex_lock(&it->op_mutex);
	if (atomic_read(&it->disabled)) {
		mutex_unlock(&it->op_mutex);
		return;
	}
	wqt_queue_begin(it);
	wqt_cancel_begin(it);
	if (it->kind == WQT_DELAYED)
		was_pending = mod_delayed_work_on(cpu, wq, &it->dwork,
						  usecs_to_jiffies(delay_us));
#ifdef WQ_HAS_PRECISE_WORK
	else
		was_pending = mod_precise_work_on(cpu, wq, &it->pwork,
						  ns_to_ktime(delay_us * NSEC_PER_USEC),
						  get_random_u32_below(2) * 50 * NSEC_PER_USEC);
#endif
	inst = atomic_long_inc_return(&it->queue_ok);
	wqt_timer_note(it, inst, delay_us);
	wqt_cancel_end(it, was_pending);
	mutex_unlock(&it->op_mutex);
}

/**
 * wqt_queue - queue an item on its slot's workqueue, counted
 * @it: the item
 * @cpu: the CPU to queue on, or WORK_CPU_UNBOUND
 * @delay_us: for delayed kinds, how long to wait
 * @mod: modify the delay of a pending delayed item instead
 *
 * The caller holds a use of the slot (or runs as a chained item of a
 * closed slot), and keeps @cpu online if it names one.
 *
 * Context: any context the item's kind may be queued from; process
 * context for @mod.
 */
static void wqt_queue(struct wqt_item *it, int cpu, unsigned int delay_us, bool mod)
{
	struct workqueue_struct *wq = it->slot->wq;
	unsigned long delay = usecs_to_jiffies(delay_us);
	int gen0 = atomic_read(&it->disable_gen);
	int disabled0 = atomic_read(&it->disabled);
	bool ret = false;

	if (mod && (it->kind == WQT_DELAYED || it->kind == WQT_PRECISE)) {
		wqt_mod(it, cpu, delay_us);
		return;
	}
	wqt_queue_begin(it);
	switch (it->kind) {
	case WQT_PLAIN:
		if (wqt_ticketed(it)) {
			spin_lock_bh(&it->slot->lock);
			ret = queue_work_on(cpu, wq, &it->work);
			if (ret)
				wqt_ticket_push(it);
			spin_unlock_bh(&it->slot->lock);
		} else {
			ret = queue_work_on(cpu, wq, &it->work);
		}
		break;
	case WQT_DELAYED:
		ret = queue_delayed_work_on(cpu, wq, &it->dwork, delay);
		break;
	case WQT_RCU:
		ret = queue_rcu_work(wq, &it->rwork);
		break;
	case WQT_PRECISE:
#ifdef WQ_HAS_PRECISE_WORK
		ret = queue_precise_work_on(cpu, wq, &it->pwork,
					    ns_to_ktime(delay_us * NSEC_PER_USEC), 0);
#endif
		break;
	}
	wqt_queue_end(it, ret, gen0, disabled0, delay_us);
}

/* A random delay for the timed kinds: none, short, or a few ticks. */
static unsigned int wqt_random_delay_us(void)
{
	switch (get_random_u32_below(4)) {
	case 0:
		return 0;
	case 1:
		return 20 + get_random_u32_below(500);
	default:
		return get_random_u32_below(3 * USEC_PER_SEC / HZ);
	}
}

static bool wqt_cancel_call(struct wqt_item *it)
{
	switch (it->kind) {
	case WQT_PLAIN:
		return cancel_work(&it->work);
	case WQT_DELAYED:
		return cancel_delayed_work(&it->dwork);
#ifdef WQ_HAS_PRECISE_WORK
	case WQT_PRECISE:
		return cancel_precise_work(&it->pwork);
#endif
	default:		/* rcu_work cannot be cancelled */
		return false;
	}
}

/* cancel_*_sync() of an unordered item, under op_mutex (it disables). */
static bool wqt_cancel_sync_call(struct wqt_item *it)
{
	switch (it->kind) {
	case WQT_PLAIN:
		return cancel_work_sync(&it->work);
	case WQT_DELAYED:
		return cancel_delayed_work_sync(&it->dwork);
#ifdef WQ_HAS_PRECISE_WORK
	case WQT_PRECISE:
		return cancel_precise_work_sync(&it->pwork);
#endif
	default:
		return false;
	}
}

/**
 * wqt_cancel - cancel an item, and wait for its running instance if @sync
 * @it: the item
 * @sync: cancel_*_sync() (for ordered plain items: cancel, then flush)
 *
 * After a sync cancel, what was queued before it has finished or been
 * cancelled.
 *
 * Context: process context.
 */
static void wqt_cancel(struct wqt_item *it, bool sync)
{
	long queued_before = atomic_long_read(&it->queue_ok);
	bool ret;

	if (it->kind == WQT_RCU)
		return;
	if (wqt_ticketed(it)) {
		wqt_cancel_begin(it);
		spin_lock_bh(&it->slot->lock);
		ret = cancel_work(&it->work);
		if (ret)
			wqt_ticket_drop_newest(it);
		spin_unlock_bh(&it->slot->lock);
		wqt_cancel_end(it, ret);
		if (sync)
			flush_work(&it->work);
	} else if (!sync) {
		wqt_cancel_begin(it);
		wqt_cancel_end(it, wqt_cancel_call(it));
	} else {
		/* it disables the item while it waits: not under a mod */
		mutex_lock(&it->op_mutex);
		wqt_cancel_begin(it);
		wqt_cancel_end(it, wqt_cancel_sync_call(it));
		mutex_unlock(&it->op_mutex);
	}
	if (sync)
		wqt_check_done(it, queued_before,
			       "neither finished nor cancelled after cancel_sync");
}

/*
 * Two flushes of a timed item at once: one stops the timer and owns
 * PENDING until it has queued the item, and the other, finding the item
 * neither on its timer nor queued nor running, returns at once, as on
 * 6.12 (flush_delayed_work() there and here).  That second flush proves
 * nothing.  wqt_flush_begin() counts the flush in and returns what
 * wqt_flush_overlapped() compares, -1 if another flush is in flight.
 * A flush that stops the timer after ours began counts the overlap
 * before it does, and ours sees that count: it found the timer stopped
 * under the timer base's lock, which the other flush released after.
 */
static int wqt_flush_begin(struct wqt_item *it)
{
	if (atomic_inc_return(&it->flushers) > 1) {
		atomic_inc(&it->flush_overlaps);
		return -1;
	}
	return atomic_read(&it->flush_overlaps);
}

/* Whether another flush of the item ran beside ours; counts ours out. */
static bool wqt_flush_overlapped(struct wqt_item *it, int gen)
{
	bool overlapped = gen < 0 || atomic_read(&it->flush_overlaps) != gen;

	atomic_dec(&it->flushers);
	if (overlapped)
		atomic_long_inc(&wqt_flush_overlaps);
	return overlapped;
}

/**
 * wqt_flush - flush an item and check that what was queued before has run
 * @it: the item
 *
 * Context: process context.
 */
static void wqt_flush(struct wqt_item *it)
{
	long queued_before = atomic_long_read(&it->queue_ok);
	int gen = wqt_timed(it) ? wqt_flush_begin(it) : 0;

	switch (it->kind) {
	case WQT_PLAIN:
		flush_work(&it->work);
		break;
	case WQT_DELAYED:
		flush_delayed_work(&it->dwork);
		break;
	case WQT_RCU:
		flush_rcu_work(&it->rwork);
		break;
	case WQT_PRECISE:
#ifdef WQ_HAS_PRECISE_WORK
		flush_precise_work(&it->pwork);
#endif
		break;
	}
	if (wqt_timed(it) && wqt_flush_overlapped(it, gen))
		return;
	wqt_check_done(it, queued_before, "not finished after flush");
}

/*
 * disable_*(): a pending instance it removes counts as a cancel.  Our
 * count goes up after the call, the generation after the count.
 */
static void wqt_disable(struct wqt_item *it, bool sync)
{
	bool ret = false;

	if (it->kind == WQT_RCU)
		return;
	mutex_lock(&it->op_mutex);
	wqt_cancel_begin(it);
	if (wqt_ticketed(it)) {
		spin_lock_bh(&it->slot->lock);
		ret = disable_work(&it->work);
		if (ret)
			wqt_ticket_drop_newest(it);
		spin_unlock_bh(&it->slot->lock);
		if (sync)
			flush_work(&it->work);
	} else if (it->kind == WQT_PLAIN) {
		ret = sync ? disable_work_sync(&it->work) : disable_work(&it->work);
	} else if (it->kind == WQT_DELAYED) {
		ret = sync ? disable_delayed_work_sync(&it->dwork) :
			disable_delayed_work(&it->dwork);
#ifdef WQ_HAS_PRECISE_WORK
	} else {
		ret = sync ? disable_precise_work_sync(&it->pwork) :
			disable_precise_work(&it->pwork);
#endif
	}
	wqt_cancel_end(it, ret);
	atomic_inc(&it->disabled);
	atomic_inc(&it->disable_gen);
	mutex_unlock(&it->op_mutex);
}

/* enable_*() of one of our disables: count and generation go first. */
static void wqt_enable(struct wqt_item *it)
{
	mutex_lock(&it->op_mutex);
	if (atomic_read(&it->disabled)) {
		atomic_dec(&it->disabled);
		atomic_inc(&it->disable_gen);
		switch (it->kind) {
		case WQT_PLAIN:
			enable_work(&it->work);
			break;
		case WQT_DELAYED:
			enable_delayed_work(&it->dwork);
			break;
		case WQT_PRECISE:
#ifdef WQ_HAS_PRECISE_WORK
			enable_precise_work(&it->pwork);
#endif
			break;
		default:
			break;
		}
	}
	mutex_unlock(&it->op_mutex);
}

/* What a running item does besides being counted. */
static void wqt_item_behave(struct wqt_item *it)
{
	struct wqt_slot *s = it->slot;
	bool atomic = wqt_bh(s);
	u32 r = get_random_u32_below(100);

	if (r < 10 && !atomic)
		usleep_range(50, 2000);
	else if (r < 30)
		udelay(get_random_u32_below(atomic ? 20 : 200));
	else if (r == 30 && !atomic && !(s->flags & WQ_HIGHPRI))
		mdelay(12);	/* over the CPU-intensive threshold */

	r = get_random_u32_below(100);
	if (r < 12) {
		/* requeue itself */
		if (wqt_slot_get(s)) {
			wqt_queue(it, WORK_CPU_UNBOUND, wqt_random_delay_us(), false);
			wqt_slot_put(s);
		} else if (READ_ONCE(s->closed) && it->kind == WQT_PLAIN && !atomic) {
			/* chained work of a draining workqueue is allowed */
			wqt_queue(it, WORK_CPU_UNBOUND, 0, false);
		}
	} else if (r < 30) {
		/* queue another item, of any slot */
		struct wqt_slot *o = &wqt_slots[get_random_u32_below(wqt_nr_slots)];

		if (wqt_slot_get(o)) {
			wqt_queue(&o->items[get_random_u32_below(WQT_ITEMS)],
				  WORK_CPU_UNBOUND, wqt_random_delay_us(), false);
			wqt_slot_put(o);
		}
	}
}

static void wqt_work_fn(struct work_struct *work)
{
	struct wqt_item *it = wqt_item_of(work);
	struct wqt_slot *s = it->slot;
	long ran, done, tried;

	if (atomic_inc_return(&it->running) != 1)
		wqt_fail(it, "runs concurrently with itself", atomic_read(&it->running), 1);
	if (s->ordered) {
		if (atomic_inc_return(&s->running) != 1)
			wqt_fail(it, "ordered workqueue runs two items at once",
				 atomic_read(&s->running), 1);
		if (wqt_ticketed(it))
			wqt_ticket_run(it);
	}
	ran = atomic_long_inc_return(&it->ran);
	done = ran + atomic_long_read(&it->cancel_ok);
	tried = atomic_long_read(&it->queue_try);
	if (done > tried)
		wqt_fail(it, "ran more often than queued", done, tried);
	atomic_long_inc(&wqt_runs);

	wqt_item_behave(it);

	if (s->ordered)
		atomic_dec(&s->running);
	atomic_dec(&it->running);
	/* last: a flush that returns must find it counted */
	atomic_long_inc(&it->finished);
}

static void wqt_item_init(struct wqt_slot *s, struct wqt_item *it, int i,
			  enum wqt_kind kind)
{
	BUILD_BUG_ON(offsetof(struct delayed_work, work) != 0);
	BUILD_BUG_ON(offsetof(struct rcu_work, work) != 0);
#ifdef WQ_HAS_PRECISE_WORK
	BUILD_BUG_ON(offsetof(struct precise_work, work) != 0);
#endif
	it->slot = s;
	it->index = i;
	it->kind = kind;
	mutex_init(&it->op_mutex);
	init_rwsem(&it->cancel_rwsem);
	spin_lock_init(&it->timer_lock);
	switch (kind) {
	case WQT_PLAIN:
		INIT_WORK(&it->work, wqt_work_fn);
		break;
	case WQT_DELAYED:
		INIT_DELAYED_WORK(&it->dwork, wqt_work_fn);
		break;
	case WQT_RCU:
		INIT_RCU_WORK(&it->rwork, wqt_work_fn);
		break;
	case WQT_PRECISE:
#ifdef WQ_HAS_PRECISE_WORK
		INIT_PRECISE_WORK(&it->pwork, wqt_work_fn);
#endif
		break;
	}
#ifdef CONFIG_LOCKDEP
	lockdep_init_map(&it->work.lockdep_map, "(work_completion)wqt_item",
			 &wqt_work_keys[s - wqt_slots], 0);
#endif
}

/* ------------------------------------------------------------------ */
/* Slots                                                               */
/* ------------------------------------------------------------------ */

/* Take a use of the slot's workqueue; false while it is closed. */
static bool wqt_slot_get(struct wqt_slot *s)
{
	bool ok;

	spin_lock_bh(&s->lock);
	ok = !s->closed && s->wq;
	if (ok)
		WRITE_ONCE(s->users, s->users + 1);
	spin_unlock_bh(&s->lock);
	return ok;
}

static void wqt_slot_put(struct wqt_slot *s)
{
	bool wake;

	spin_lock_bh(&s->lock);
	WRITE_ONCE(s->users, s->users - 1);
	wake = !s->users && s->closed;
	spin_unlock_bh(&s->lock);
	if (wake)
		wake_up(&s->users_wq);
}

static struct workqueue_struct *wqt_alloc_wq(struct wqt_slot *s)
{
	snprintf(s->wq_name, sizeof(s->wq_name), "wqt_%s_%d", s->name, s->gen++);
	if (s->ordered)
		return alloc_ordered_workqueue("%s", s->flags, s->wq_name);
	return alloc_workqueue("%s", s->flags, 0, s->wq_name);
}

#ifdef CONFIG_FAULT_INJECTION
/**
 * wqt_fault_arm - set the thread's fail_nth fault_rate % of the time
 *
 * Arm it just around the call under test: one of the next 24 fault
 * injection points this thread passes fails.
 *
 * Context: process context.
 * Return: whether a fault is armed; pass it to wqt_fault_disarm().
 */
static bool wqt_fault_arm(void)
{
	if (get_random_u32_below(100) >= fault_rate)
		return false;
	atomic_long_inc(&wqt_faults_tried);
	WRITE_ONCE(current->fail_nth, 1 + get_random_u32_below(24));
	return true;
}

/* Right after the call: count whether the armed fault hit, clear it. */
static void wqt_fault_disarm(bool armed)
{
	if (!armed)
		return;
	if (!READ_ONCE(current->fail_nth))
		atomic_long_inc(&wqt_faults_hit);
	WRITE_ONCE(current->fail_nth, 0);
}
#else
static bool wqt_fault_arm(void)
{
	return false;
}

static void wqt_fault_disarm(bool armed)
{
}
#endif

/*
 * Close the slot and quiet every item but the plain ones (those a drain
 * or destroy waits for, with their chains): no use of the slot is left
 * and no timer or RCU callback can queue.  A timed item still pending
 * long after its delay is reported before it is disabled.
 */
static void wqt_slot_close(struct wqt_slot *s)
{
	int i;

	mutex_lock(&s->excl);
	spin_lock_bh(&s->lock);
	s->closed = true;
	spin_unlock_bh(&s->lock);
	wait_event(s->users_wq, !READ_ONCE(s->users));
	for (i = 0; i < WQT_ITEMS; i++) {
		struct wqt_item *it = &s->items[i];

		wqt_check_timer(it);
		if (it->kind == WQT_RCU)
			flush_rcu_work(&it->rwork);
		else if (it->kind != WQT_PLAIN)
			wqt_disable(it, true);
	}
}

static void wqt_slot_open(struct wqt_slot *s)
{
	int i;

	for (i = 0; i < WQT_ITEMS; i++) {
		struct wqt_item *it = &s->items[i];

		wqt_check_settled(it);
		if (it->kind != WQT_PLAIN && it->kind != WQT_RCU)
			wqt_enable(it);
	}
	spin_lock_bh(&s->lock);
	s->closed = false;
	spin_unlock_bh(&s->lock);
	mutex_unlock(&s->excl);
}

/* Drain the slot's workqueue; chains of its plain items may run on. */
static void wqt_slot_drain(struct wqt_slot *s)
{
	wqt_slot_close(s);
	if (s->wq)
		drain_workqueue(s->wq);
	wqt_slot_open(s);
}

/**
 * wqt_slot_new_wq - allocate the slot's next workqueue
 * @s: the slot, closed and with no workqueue
 *
 * The first try runs with a fault armed at times: it may fail then and
 * only then, and a second try must work.
 *
 * Context: process context, in the slot's exclusive section.
 * Return: the new workqueue, or NULL (reported).
 */
static struct workqueue_struct *wqt_slot_new_wq(struct wqt_slot *s)
{
	struct workqueue_struct *wq;
	bool armed = wqt_fault_arm();

	wq = wqt_alloc_wq(s);
	wqt_fault_disarm(armed);
	if (wq)
		return wq;
	if (armed)
		atomic_long_inc(&wqt_fault_errors);
	else
		wqt_slot_fail(s, "alloc_workqueue() failed without a fault", 0, 0);
	wq = wqt_alloc_wq(s);
	if (!wq)
		wqt_slot_fail(s, "alloc_workqueue() failed twice", 0, 0);
	return wq;
}

/* Destroy the slot's workqueue and, unless @final, make a new one. */
static void wqt_slot_recreate(struct wqt_slot *s, bool final)
{
	wqt_slot_close(s);
	if (s->wq)
		destroy_workqueue(s->wq);
	s->wq = NULL;
	if (!final)
		s->wq = wqt_slot_new_wq(s);
	wqt_slot_open(s);
}

/* ------------------------------------------------------------------ */
/* Attributes through sysfs, as an administrator changes them          */
/* ------------------------------------------------------------------ */

/* Room for any file we read or write: a cpumask as "%*pb\n" included. */
static size_t wqt_buf_len(void)
{
	return max_t(size_t, 64, DIV_ROUND_UP(nr_cpu_ids, 32) * 9 + 2);
}

/**
 * wqt_file_read - read a sysfs file into a string
 * @path: the file
 * @buf: where to put it, NUL-terminated
 * @len: the size of @buf
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
static int wqt_file_read(const char *path, char *buf, size_t len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return 0;
}

/**
 * wqt_file_write - write a string to a sysfs file, maybe with a fault
 * @path: the file
 * @val: the string
 * @fault: whether a fault may be armed
 * @armed: set to whether one was
 *
 * The fault is armed around the write alone, after the file is open.
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
static int wqt_file_write(const char *path, const char *val, bool fault,
			  bool *armed)
{
	struct file *f = filp_open(path, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	*armed = false;
	if (IS_ERR(f))
		return PTR_ERR(f);
	*armed = fault && wqt_fault_arm();
	n = kernel_write(f, val, strlen(val), &pos);
	wqt_fault_disarm(*armed);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

/*
 * wqt_buf - the strings of one checked write, @wqt_buf_len() bytes each:
 * the value written, the file before, the file after a failed write
 */
struct wqt_buf {
	char *val, *before, *after;
};

static int wqt_buf_alloc(struct wqt_buf *b)
{
	size_t len = wqt_buf_len();

	b->val = kmalloc_array(3, len, GFP_KERNEL);
	if (!b->val)
		return -ENOMEM;
	b->before = b->val + len;
	b->after = b->before + len;
	return 0;
}

/**
 * wqt_write_checked - write an attribute as an administrator, checked
 * @path: its sysfs file
 * @b: the value to write in b->val, and room to read the file
 * @where: the object it belongs to, for reports
 *
 * The write runs with a fault armed fault_rate % of the time.  It may fail
 * only with a fault armed, and must then leave the file as it read before.
 * The caller serializes writes of the attribute.
 *
 * Context: process context.
 * Return: 0 when the value was written, -errno otherwise.
 */
static int wqt_write_checked(const char *path, struct wqt_buf *b,
			     const char *where)
{
	size_t len = wqt_buf_len();
	bool armed;
	int ret;

	ret = wqt_file_read(path, b->before, len);
	if (ret) {
		wqt_report(where, "cannot read an attribute before writing it", ret, 0);
		return ret;
	}
	ret = wqt_file_write(path, b->val, true, &armed);
	if (!ret)
		return 0;
	if (armed)
		atomic_long_inc(&wqt_fault_errors);
	else
		wqt_report(where, "attribute write failed without a fault", ret, 0);
	if (!wqt_file_read(path, b->after, len) && strcmp(b->before, b->after))
		wqt_report(where, "failed attribute write changed it", ret, armed);
	return ret;
}

/* A random non-empty set of possible CPUs, as "%*pb\n", into @buf. */
static int wqt_random_cpumask(char *buf, size_t len)
{
	cpumask_var_t mask;
	int cpu;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	while (cpumask_empty(mask))
		for_each_possible_cpu(cpu)
			if (get_random_u32_below(2))
				cpumask_set_cpu(cpu, mask);
	snprintf(buf, len, "%*pb\n", cpumask_pr_args(mask));
	free_cpumask_var(mask);
	return 0;
}

static const char * const wqt_scopes[] = {
	"default", "cpu", "smt", "cache", "numa", "system",
};

/*
 * A random value for a random attribute of an unbound workqueue, into
 * @val: returns the attribute's file name, NULL if out of memory.
 */
static const char *wqt_random_attr(char *val, size_t len)
{
	switch (get_random_u32_below(5)) {
	case 0:
		return wqt_random_cpumask(val, len) ? NULL : "cpumask";
	case 1:
		snprintf(val, len, "%d\n", (int)get_random_u32_below(40) - 20);
		return "nice";
	case 2:
		snprintf(val, len, "%s\n",
			 wqt_scopes[get_random_u32_below(ARRAY_SIZE(wqt_scopes))]);
		return "affinity_scope";
	case 3:
		snprintf(val, len, "%u\n", get_random_u32_below(2));
		return "affinity_strict";
	default:
		snprintf(val, len, "%u\n", 1 + get_random_u32_below(16));
		return "max_active";
	}
}

/*
 * Write one random attribute of an unbound WQ_SYSFS slot, sometimes with
 * a fault injected; a failed write must leave the value as it was.  The
 * slot's attrs mutex also covers workqueue_set_max_active().
 */
static void wqt_slot_attrs(struct wqt_slot *s)
{
	struct wqt_buf b;
	const char *attr;
	char path[96];

	if (wqt_buf_alloc(&b))
		return;
	attr = wqt_random_attr(b.val, wqt_buf_len());
	if (attr) {
		snprintf(path, sizeof(path), "/sys/devices/virtual/workqueue/%s/%s",
			 s->wq_name, attr);
		mutex_lock(&s->attrs);
		wqt_write_checked(path, &b, s->wq_name);
		mutex_unlock(&s->attrs);
	}
	kfree(b.val);
}

/* workqueue_set_max_active(), serialized with the sysfs writes. */
static void wqt_slot_max_active(struct wqt_slot *s, int max_active)
{
	mutex_lock(&s->attrs);
	workqueue_set_max_active(s->wq, max_active);
	mutex_unlock(&s->attrs);
}

/*
 * The global unbound cpumask: a random set, sometimes all possible CPUs or
 * the mask at load, sometimes with a fault injected (a failed write must
 * leave it as it was).
 */
static void wqt_global_cpumask(void)
{
	size_t len = wqt_buf_len();
	struct wqt_buf b;
	u32 r = get_random_u32_below(6);

	if (wqt_buf_alloc(&b))
		return;
	if (r == 0)
		snprintf(b.val, len, "%*pb\n", cpumask_pr_args(cpu_possible_mask));
	else if (r == 1)
		strscpy(b.val, wqt_saved_cpumask, len);
	else if (wqt_random_cpumask(b.val, len))
		goto out;
	mutex_lock(&wqt_global_attrs);
	if (!wqt_write_checked(WQT_CPUMASK_PATH, &b, "global cpumask"))
		wqt_global_cpumask_changed = true;
	mutex_unlock(&wqt_global_attrs);
out:
	kfree(b.val);
}

/* At load: keep the global unbound cpumask to put back at unload. */
static int __init wqt_save_global_cpumask(void)
{
	int ret;

	wqt_saved_cpumask = kmalloc(wqt_buf_len(), GFP_KERNEL);
	if (!wqt_saved_cpumask)
		return -ENOMEM;
	ret = wqt_file_read(WQT_CPUMASK_PATH, wqt_saved_cpumask, wqt_buf_len());
	if (ret)
		pr_err("%s" TORTURE_FLAG " cannot read %s: %d\n", torture_type,
		       WQT_CPUMASK_PATH, ret);
	return ret;
}

/* At unload: put the global unbound cpumask back as it was at load. */
static void wqt_restore_global_cpumask(void)
{
	bool armed;
	int ret;

	if (wqt_global_cpumask_changed) {
		ret = wqt_file_write(WQT_CPUMASK_PATH, wqt_saved_cpumask, false, &armed);
		if (ret)
			wqt_report("global cpumask", "cannot restore it", ret, 0);
		wqt_global_cpumask_changed = false;
	}
	kfree(wqt_saved_cpumask);
	wqt_saved_cpumask = NULL;
}

/* ------------------------------------------------------------------ */
/* Torture threads                                                     */
/* ------------------------------------------------------------------ */

static enum wqt_op wqt_pick_op(struct torture_random_state *trs)
{
	int total = 0, r, op;

	for (op = 0; op < WQT_NR_OPS; op++)
		total += wqt_op_weight[op];
	r = torture_random(trs) % total;
	for (op = 0; r >= wqt_op_weight[op]; op++)
		r -= wqt_op_weight[op];
	return op;
}

/*
 * A random online CPU; the caller holds cpus_read_lock() (modules cannot
 * assert it: lockdep_assert_cpus_held() is not exported).
 */
static int wqt_random_online_cpu(struct torture_random_state *trs)
{
	int cpu = cpumask_nth(torture_random(trs) % num_online_cpus(), cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/*
 * Queue an item on a random online CPU, which stays online until the
 * call is done, as queue_work_on() and its family require.
 */
static void wqt_queue_on(struct wqt_item *it, struct torture_random_state *trs)
{
	cpus_read_lock();
	wqt_queue(it, wqt_random_online_cpu(trs), wqt_random_delay_us(), false);
	cpus_read_unlock();
}

#ifdef WQ_HAS_HISTOGRAMS
/*
 * Read a random histogram of the slot's workqueue: the count of what it
 * holds, or -ENODATA for a workqueue without histograms.
 */
static void wqt_hist_read(struct wqt_slot *s, struct torture_random_state *trs)
{
	enum wq_hist_kind kind = torture_random(trs) % WQ_NR_HISTS;
	u64 buckets[WQ_HIST_BUCKETS];
	int ret;

	ret = workqueue_hist_read(s->wq, kind, buckets);
	atomic_long_inc(&wqt_checks);
	if (ret < 0 && ret != -ENODATA)
		wqt_slot_fail(s, "workqueue_hist_read() failed", ret, kind);
}
#endif

/* Flush the slot's workqueue: its plain items queued before have ended. */
static void wqt_flush_wq(struct wqt_slot *s)
{
	long before[WQT_ITEMS];
	int i;

	for (i = 0; i < WQT_ITEMS; i++)
		before[i] = atomic_long_read(&s->items[i].queue_ok);
	flush_workqueue(s->wq);
	for (i = 0; i < WQT_ITEMS; i++)
		if (s->items[i].kind == WQT_PLAIN)
			wqt_check_done(&s->items[i], before[i],
				       "not finished after flush_workqueue");
}

/* One operation on an item or workqueue of a slot the caller uses. */
static void wqt_do_op(struct wqt_slot *s, enum wqt_op op,
		      struct torture_random_state *trs)
{
	struct wqt_item *it = &s->items[torture_random(trs) % WQT_ITEMS];
	bool unbound = s->flags & WQ_UNBOUND;

	switch (op) {
	case WQT_OP_QUEUE:
		wqt_queue(it, WORK_CPU_UNBOUND, wqt_random_delay_us(), false);
		break;
	case WQT_OP_QUEUE_ON:
		wqt_queue_on(it, trs);
		break;
	case WQT_OP_MOD:
		wqt_queue(it, WORK_CPU_UNBOUND, wqt_random_delay_us(), true);
		break;
	case WQT_OP_CANCEL:
		wqt_cancel(it, false);
		break;
	case WQT_OP_CANCEL_SYNC:
		wqt_cancel(it, true);
		break;
	case WQT_OP_FLUSH:
		wqt_flush(it);
		break;
	case WQT_OP_FLUSH_WQ:
		wqt_flush_wq(s);
		break;
	case WQT_OP_DISABLE:
		if (atomic_read(&it->disabled) < 2)
			wqt_disable(it, torture_random(trs) & 1);
		break;
	case WQT_OP_ENABLE:
		wqt_enable(it);
		break;
	case WQT_OP_MAX_ACTIVE:
		if (!s->ordered && !wqt_bh(s))
			wqt_slot_max_active(s, 1 + torture_random(trs) % 16);
		break;
	case WQT_OP_ATTRS:
		if (unbound && (s->flags & WQ_SYSFS))
			wqt_slot_attrs(s);
		break;
#ifdef WQ_HAS_HISTOGRAMS
	case WQT_OP_HIST_READ:
		wqt_hist_read(s, trs);
		break;
	case WQT_OP_HIST_RESET:
		workqueue_hist_reset(s->wq);
		break;
#endif
	default:
		break;
	}
}

static int wqt_thread(void *arg)
{
	DEFINE_TORTURE_RANDOM(trs);

	VERBOSE_TOROUT_STRING("torture thread started");
	do {
		struct wqt_slot *s = &wqt_slots[torture_random(&trs) % wqt_nr_slots];
		enum wqt_op op = wqt_pick_op(&trs);

		atomic_long_inc(&wqt_op_count[op]);
		if (op == WQT_OP_DRAIN) {
			wqt_slot_drain(s);
		} else if (op == WQT_OP_RECREATE) {
			wqt_slot_recreate(s, false);
		} else if (op == WQT_OP_GLOBAL_CPUMASK) {
			wqt_global_cpumask();
		} else if (wqt_slot_get(s)) {
			wqt_do_op(s, op, &trs);
			wqt_slot_put(s);
		}
		if (!(torture_random(&trs) % 16))
			schedule_timeout_uninterruptible(1);
		stutter_wait("wqt_thread");
	} while (!torture_must_stop());
	torture_kthread_stopping("wqt_thread");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

static void wqt_print_stats(void)
{
	char buf[512];
	int op, n = 0;
	long total = 0;

	for (op = 0; op < WQT_NR_OPS; op++) {
		long c = atomic_long_read(&wqt_op_count[op]);

		total += c;
		n += scnprintf(buf + n, sizeof(buf) - n, " %s:%ld", wqt_op_names[op], c);
	}
	pr_alert("%s" TORTURE_FLAG " ops: %ld%s\n", torture_type, total, buf);
	pr_alert("%s" TORTURE_FLAG " runs: %ld checks: %ld rejected-queues: %ld errors: %ld\n",
		 torture_type, atomic_long_read(&wqt_runs), atomic_long_read(&wqt_checks),
		 atomic_long_read(&wqt_rejected_queues), atomic_long_read(&wqt_errors));
	pr_alert("%s" TORTURE_FLAG " overlapped-timed-flushes: %ld (not checked)\n",
		 torture_type, atomic_long_read(&wqt_flush_overlaps));
	/*
	 * torture_onoff_stats() continues this line without ending it: the
	 * next message, printed right after, ends it.
	 */
	pr_alert("%s" TORTURE_FLAG " hotplug: ", torture_type);
	torture_onoff_stats();
	pr_alert("%s" TORTURE_FLAG " faults: tried %ld hit %ld failed-calls %ld\n",
		 torture_type, atomic_long_read(&wqt_faults_tried),
		 atomic_long_read(&wqt_faults_hit), atomic_long_read(&wqt_fault_errors));
}

/* Lost timers of every slot, with the statistics. */
static void wqt_check_timers(void)
{
	int i, j;

	for (i = 0; i < wqt_nr_slots; i++)
		for (j = 0; j < WQT_ITEMS; j++)
			wqt_check_timer(&wqt_slots[i].items[j]);
}

static int wqt_stats_thread(void *arg)
{
	do {
		schedule_timeout_interruptible(stat_interval * HZ);
		wqt_check_timers();
		wqt_print_stats();
		torture_shutdown_absorb("wqt_stats_thread");
	} while (!torture_must_stop());
	torture_kthread_stopping("wqt_stats_thread");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Init and cleanup                                                    */
/* ------------------------------------------------------------------ */

static int __init wqt_slots_init(void)
{
	int i, j;

	wqt_slots = kcalloc(WQT_SLOTS, sizeof(*wqt_slots), GFP_KERNEL);
	if (!wqt_slots)
		return -ENOMEM;
	for (i = 0; i < WQT_SLOTS; i++) {
		const struct wqt_slot_type *t = &wqt_slot_types[i];
		struct wqt_slot *s = &wqt_slots[wqt_nr_slots];

		if (!rt && !strcmp(t->name, "rt"))
			continue;
		s->name = t->name;
		s->flags = t->flags;
		s->ordered = t->ordered;
		spin_lock_init(&s->lock);
		init_waitqueue_head(&s->users_wq);
		mutex_init(&s->excl);
		mutex_init(&s->attrs);
		for (j = 0; j < WQT_ITEMS; j++)
			wqt_item_init(s, &s->items[j], j, t->kinds[j]);
		s->wq = wqt_alloc_wq(s);
		if (!s->wq)
			return -ENOMEM;
		wqt_nr_slots++;
	}
	return 0;
}

static void wqt_cleanup(void)
{
	bool failed;
	int i;

	if (torture_cleanup_begin())
		return;
	if (wqt_threads)
		for (i = 0; i < nthreads; i++)
			torture_stop_kthread(wqt_thread, wqt_threads[i]);
	kfree(wqt_threads);
	wqt_threads = NULL;
	torture_stop_kthread(wqt_stats_thread, wqt_stats_task);
	wqt_restore_global_cpumask();
	for (i = 0; i < wqt_nr_slots; i++)
		wqt_slot_recreate(&wqt_slots[i], true);
	kfree(wqt_slots);
	wqt_slots = NULL;
	wqt_print_stats();
	failed = atomic_long_read(&wqt_errors) || torture_onoff_failures();
	pr_alert("%s" TORTURE_FLAG "--- End of test: %s: nthreads=%d onoff_interval=%d\n",
		 torture_type, failed ? "FAILURE" : "SUCCESS", nthreads, onoff_interval);
	torture_cleanup_end();
}

/* Is module parameter @name's value @val in [@min, @max]?  Says if not. */
static bool __init wqt_param_ok(const char *name, int val, int min, int max)
{
	if (val >= min && val <= max)
		return true;
	pr_err("%s" TORTURE_FLAG " %s=%d is not in [%d, %d]\n", torture_type,
	       name, val, min, max);
	return false;
}

/* The module parameters make sense (intervals in seconds fit in jiffies). */
static bool __init wqt_params_ok(void)
{
	const int secs = INT_MAX / HZ;
	bool ok = true;

	ok &= wqt_param_ok("nthreads", nthreads, 1, INT_MAX);
	ok &= wqt_param_ok("onoff_holdoff", onoff_holdoff, 0, secs);
	ok &= wqt_param_ok("onoff_interval", onoff_interval, 0, INT_MAX);
	ok &= wqt_param_ok("shuffle_interval", shuffle_interval, 1, secs);
	ok &= wqt_param_ok("stutter", stutter, 0, secs);
	ok &= wqt_param_ok("shutdown_secs", shutdown_secs, 0, secs);
	ok &= wqt_param_ok("stat_interval", stat_interval, 0, secs);
	ok &= wqt_param_ok("fault_rate", fault_rate, 0, 100);
	return ok;
}

static int __init wqt_init(void)
{
	int i, err;

	BUILD_BUG_ON(ARRAY_SIZE(wqt_op_names) != WQT_NR_OPS);
	if (!wqt_params_ok())
		return -EINVAL;
	if (!torture_init_begin(torture_type, verbose))
		return -EBUSY;
	err = wqt_save_global_cpumask();
	if (err)
		goto fail;
	err = wqt_slots_init();
	if (err)
		goto fail;
	wqt_threads = kcalloc(nthreads, sizeof(*wqt_threads), GFP_KERNEL);
	if (!wqt_threads) {
		err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < nthreads; i++) {
		err = torture_create_kthread(wqt_thread, NULL, wqt_threads[i]);
		if (err)
			goto fail;
	}
	if (stat_interval) {
		err = torture_create_kthread(wqt_stats_thread, NULL, wqt_stats_task);
		if (err)
			goto fail;
	}
	err = torture_shuffle_init(shuffle_interval * HZ);
	if (!err && stutter)
		err = torture_stutter_init(stutter * HZ, stutter * HZ);
	if (!err && onoff_interval)
		err = torture_onoff_init(onoff_holdoff * HZ,
					 msecs_to_jiffies(onoff_interval), NULL);
	if (!err)
		err = torture_shutdown_init(shutdown_secs, wqt_cleanup);
	if (err)
		goto fail;
	torture_init_end();
	return 0;
fail:
	torture_init_end();
	wqt_cleanup();
	return err;
}

module_init(wqt_init);
module_exit(wqt_cleanup);
