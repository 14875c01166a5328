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
 *   cancel_try / cancel_ok   the same for cancels that removed a pending
 *               instance
 *   ran         runs of the item function
 * and it checks:
 *   - a run never makes ran + cancel_ok exceed queue_try (nothing runs
 *     that was not queued, nothing runs twice);
 *   - an item never runs concurrently with itself;
 *   - after flush_work() or cancel_work_sync(), ran + cancel_try covers
 *     the queue_ok seen before the call (after flush_workqueue(), for the
 *     plain items of that workqueue);
 *   - an item disabled throughout a queue call is not queued;
 *   - an ordered workqueue runs one item at a time, its plain items in
 *     the order they were queued;
 *   - whenever a workqueue is drained or destroyed, and at the end, every
 *     item of it is exactly accounted for: queue_ok == ran + cancel_ok
 *     and no attempt is left over.
 * Faults: alloc_workqueue() and the sysfs attribute writes run with the
 * thread's fail_nth set (CONFIG_FAULT_INJECTION; failslab must not ignore
 * GFP_KERNEL, see the harness); a failed call must return an error and
 * leave the old workqueue or attributes in place.  Worker creation faults
 * are the implementation's business (its debugfs knobs).
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
 *   wqt_slot.attrs   (mutex) one sysfs attribute write per slot at a time
 *   wqt_item.op_mutex (mutex) disable, enable, mod and cancel_sync (which
 *                    disables while it waits) of the item: with it held,
 *                    our count of disables is the kernel's
 *   wqt_global_attrs (mutex) the global unbound cpumask writes
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
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/torture.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#ifdef WQ_HAS_PRECISE_WORK
#include <linux/workqueue_precise.h>
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
	atomic_long_t queue_try, queue_ok, cancel_try, cancel_ok, ran;
	struct mutex op_mutex;		/* disable, enable, mod, cancel_sync */
	atomic_t disabled;		/* our disables not yet enabled */
	atomic_t disable_gen;		/* changes with every disable/enable */
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
	int users;
	wait_queue_head_t users_wq;
	struct mutex excl;		/* one drain or re-creation */
	struct mutex attrs;		/* one sysfs attribute write */
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

/* Operations, counted for the statistics. */
enum wqt_op {
	WQT_OP_QUEUE, WQT_OP_QUEUE_ON, WQT_OP_MOD, WQT_OP_CANCEL,
	WQT_OP_CANCEL_SYNC, WQT_OP_FLUSH, WQT_OP_FLUSH_WQ, WQT_OP_DRAIN,
	WQT_OP_DISABLE, WQT_OP_ENABLE, WQT_OP_MAX_ACTIVE, WQT_OP_ATTRS,
	WQT_OP_GLOBAL_CPUMASK, WQT_OP_RECREATE, WQT_NR_OPS
};

static const char * const wqt_op_names[] = {
	"queue", "queue_on", "mod", "cancel", "cancel_sync", "flush",
	"flush_wq", "drain", "disable", "enable", "max_active", "attrs",
	"global_cpumask", "recreate",
};

/* Weights of the operations a torture thread picks. */
static const int wqt_op_weight[WQT_NR_OPS] = {
	[WQT_OP_QUEUE] = 40, [WQT_OP_QUEUE_ON] = 15, [WQT_OP_MOD] = 10,
	[WQT_OP_CANCEL] = 8, [WQT_OP_CANCEL_SYNC] = 5, [WQT_OP_FLUSH] = 6,
	[WQT_OP_FLUSH_WQ] = 2, [WQT_OP_DRAIN] = 1, [WQT_OP_DISABLE] = 2,
	[WQT_OP_ENABLE] = 4, [WQT_OP_MAX_ACTIVE] = 2, [WQT_OP_ATTRS] = 2,
	[WQT_OP_GLOBAL_CPUMASK] = 1, [WQT_OP_RECREATE] = 1,
};

static atomic_long_t wqt_op_count[WQT_NR_OPS];
static atomic_long_t wqt_runs, wqt_checks, wqt_rejected_queues;
static atomic_long_t wqt_faults_tried, wqt_faults_hit, wqt_fault_errors;

/* ------------------------------------------------------------------ */
/* The ledger                                                          */
/* ------------------------------------------------------------------ */

static void wqt_fail(struct wqt_item *it, const char *what, long a, long b)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);

	atomic_long_inc(&wqt_errors);
	if (__ratelimit(&rs))
		pr_alert("%s" TORTURE_FLAG "!!! %s item %d (%s): %s (%ld, %ld)\n",
			 torture_type, it->slot->wq_name, it->index,
			 wqt_kind_names[it->kind], what, a, b);
}

/* A queue attempt is counted before the call ... */
static void wqt_queue_begin(struct wqt_item *it)
{
	atomic_long_inc(&it->queue_try);
}

/*
 * ... and settled after it: @queued is what the call returned; @gen0 and
 * @disabled0 were read (in that order) before the call.  With the
 * generation unchanged, the item was disabled all through the call.
 */
static void wqt_queue_end(struct wqt_item *it, bool queued, int gen0,
			  int disabled0)
{
	if (!queued) {
		atomic_long_dec(&it->queue_try);
		atomic_long_inc(&wqt_rejected_queues);
		return;
	}
	atomic_long_inc(&it->queue_ok);
	if (disabled0 > 0 && gen0 == atomic_read(&it->disable_gen))
		wqt_fail(it, "queued while disabled", disabled0, gen0);
}

/* The same pair for cancels: @cancelled is what the call returned. */
static void wqt_cancel_begin(struct wqt_item *it)
{
	atomic_long_inc(&it->cancel_try);
}

static void wqt_cancel_end(struct wqt_item *it, bool cancelled)
{
	if (cancelled)
		atomic_long_inc(&it->cancel_ok);
	else
		atomic_long_dec(&it->cancel_try);
}

/* After a flush or cancel_sync: what was queued before has run or gone. */
static void wqt_check_done(struct wqt_item *it, long queued_before,
			   const char *what)
{
	long done = atomic_long_read(&it->ran) + atomic_long_read(&it->cancel_try);

	atomic_long_inc(&wqt_checks);
	if (done < queued_before)
		wqt_fail(it, what, queued_before, done);
}

/* With the item quiet (nothing can queue or run it): exact accounts. */
static void wqt_check_settled(struct wqt_item *it)
{
	long q = atomic_long_read(&it->queue_ok);
	long done = atomic_long_read(&it->ran) + atomic_long_read(&it->cancel_ok);

	atomic_long_inc(&wqt_checks);
	if (q != done)
		wqt_fail(it, "queued != ran + cancelled when settled", q, done);
	if (atomic_long_read(&it->queue_try) != q)
		wqt_fail(it, "queue attempt left over", atomic_long_read(&it->queue_try), q);
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
 *
 * Context: process context.
 */
static void wqt_mod(struct wqt_item *it, int cpu, unsigned int delay_us)
{
	struct workqueue_struct *wq = it->slot->wq;
	bool was_pending = false;

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
	wqt_cancel_end(it, was_pending);
	atomic_long_inc(&it->queue_ok);
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
 * closed slot).
 *
 * Context: any context the item's kind may be queued from.
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
	wqt_queue_end(it, ret, gen0, disabled0);
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

/**
 * wqt_cancel - cancel an item, and wait for its running instance if @sync
 * @it: the item
 * @sync: cancel_*_sync() (for ordered plain items: cancel, then flush)
 *
 * Context: process context when @sync, any other time.
 */
static void wqt_cancel(struct wqt_item *it, bool sync)
{
	long queued_before = atomic_long_read(&it->queue_ok);
	bool ret;

	if (it->kind == WQT_RCU)
		return;
	wqt_cancel_begin(it);
	if (wqt_ticketed(it)) {
		spin_lock_bh(&it->slot->lock);
		ret = cancel_work(&it->work);
		if (ret)
			wqt_ticket_drop_newest(it);
		spin_unlock_bh(&it->slot->lock);
		wqt_cancel_end(it, ret);
		if (sync)
			flush_work(&it->work);
	} else if (!sync) {
		wqt_cancel_end(it, wqt_cancel_call(it));
	} else {
		/* it disables the item while it waits: not under a mod */
		mutex_lock(&it->op_mutex);
		switch (it->kind) {
		case WQT_PLAIN:
			ret = cancel_work_sync(&it->work);
			break;
		case WQT_DELAYED:
			ret = cancel_delayed_work_sync(&it->dwork);
			break;
		default:
#ifdef WQ_HAS_PRECISE_WORK
			ret = cancel_precise_work_sync(&it->pwork);
#else
			ret = false;
#endif
			break;
		}
		mutex_unlock(&it->op_mutex);
		wqt_cancel_end(it, ret);
	}
	if (sync)
		wqt_check_done(it, queued_before, "pending after cancel_sync");
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
	wqt_check_done(it, queued_before, "not run after flush");
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
		s->users++;
	spin_unlock_bh(&s->lock);
	return ok;
}

static void wqt_slot_put(struct wqt_slot *s)
{
	bool wake;

	spin_lock_bh(&s->lock);
	wake = !--s->users && s->closed;
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

/* Run @call with an allocation failure injected fault_rate % of times. */
#ifdef CONFIG_FAULT_INJECTION
#define wqt_with_fault(call)						\
({									\
	bool __armed = get_random_u32_below(100) < fault_rate;		\
	typeof(call) __ret;						\
									\
	if (__armed) {							\
		atomic_long_inc(&wqt_faults_tried);			\
		current->fail_nth = 1 + get_random_u32_below(24);	\
	}								\
	__ret = (call);							\
	if (__armed) {							\
		if (!READ_ONCE(current->fail_nth))			\
			atomic_long_inc(&wqt_faults_hit);		\
		current->fail_nth = 0;					\
	}								\
	__ret;								\
})
#else
#define wqt_with_fault(call) (call)
#endif

/*
 * Close the slot and quiet every item but the plain ones (those a drain
 * or destroy waits for, with their chains): no use of the slot is left
 * and no timer or RCU callback can queue.
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

/*
 * Destroy the slot's workqueue and make a new one, first with a fault
 * injected at times: a failed alloc_workqueue() returns NULL and the
 * second try must work.
 */
static void wqt_slot_recreate(struct wqt_slot *s, bool final)
{
	struct workqueue_struct *wq;

	wqt_slot_close(s);
	if (s->wq)
		destroy_workqueue(s->wq);
	s->wq = NULL;
	if (!final) {
		wq = wqt_with_fault(wqt_alloc_wq(s));
		if (!wq) {
			atomic_long_inc(&wqt_fault_errors);
			wq = wqt_alloc_wq(s);
		}
		if (!wq)
			wqt_fail(&s->items[0], "alloc_workqueue() failed without a fault", 0, 0);
		s->wq = wq;
	}
	wqt_slot_open(s);
}

/* ------------------------------------------------------------------ */
/* Attributes through sysfs, as an administrator changes them          */
/* ------------------------------------------------------------------ */

static int wqt_file_io(const char *path, char *buf, size_t len, bool write)
{
	struct file *f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = write ? kernel_write(f, buf, len, &pos) : kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n >= 0 && !write)
		buf[n] = '\0';
	return n < 0 ? n : 0;
}

/* A random non-empty set of possible CPUs, as a hex string. */
static void wqt_random_cpumask(char *buf, size_t len)
{
	unsigned long bits = 0;
	int cpu;

	while (!bits)
		for_each_possible_cpu(cpu)
			if (cpu < BITS_PER_LONG && get_random_u32_below(2))
				bits |= 1UL << cpu;
	snprintf(buf, len, "%lx\n", bits);
}

static const char * const wqt_scopes[] = {
	"default", "cpu", "smt", "cache", "numa", "system",
};

/*
 * Write one random attribute of an unbound WQ_SYSFS slot, sometimes with
 * a fault injected; a failed write must leave the value as it was.
 */
static void wqt_slot_attrs(struct wqt_slot *s)
{
	char path[96], val[32], before[64], after[64];
	const char *attr;
	int ret;

	switch (get_random_u32_below(5)) {
	case 0:
		attr = "cpumask";
		wqt_random_cpumask(val, sizeof(val));
		break;
	case 1:
		attr = "nice";
		snprintf(val, sizeof(val), "%d\n", (int)get_random_u32_below(40) - 20);
		break;
	case 2:
		attr = "affinity_scope";
		snprintf(val, sizeof(val), "%s\n",
			 wqt_scopes[get_random_u32_below(ARRAY_SIZE(wqt_scopes))]);
		break;
	case 3:
		attr = "affinity_strict";
		snprintf(val, sizeof(val), "%u\n", get_random_u32_below(2));
		break;
	default:
		attr = "max_active";
		snprintf(val, sizeof(val), "%u\n", 1 + get_random_u32_below(16));
		break;
	}
	snprintf(path, sizeof(path), "/sys/devices/virtual/workqueue/%s/%s",
		 s->wq_name, attr);
	mutex_lock(&s->attrs);
	if (wqt_file_io(path, before, sizeof(before), false)) {
		mutex_unlock(&s->attrs);
		wqt_fail(&s->items[0], "cannot read a sysfs attribute", 0, 0);
		return;
	}
	ret = wqt_with_fault(wqt_file_io(path, val, strlen(val), true));
	if (ret) {
		atomic_long_inc(&wqt_fault_errors);
		if (!wqt_file_io(path, after, sizeof(after), false) &&
		    strcmp(before, after))
			wqt_fail(&s->items[0], "failed attribute write changed it", ret, 0);
	}
	mutex_unlock(&s->attrs);
}

/* The global unbound cpumask: a random set, sometimes back to all. */
static void wqt_global_cpumask(void)
{
	char val[32];

	mutex_lock(&wqt_global_attrs);
	if (get_random_u32_below(3))
		wqt_random_cpumask(val, sizeof(val));
	else
		snprintf(val, sizeof(val), "%lx\n", cpumask_bits(cpu_possible_mask)[0]);
	if (!wqt_file_io("/sys/devices/virtual/workqueue/cpumask", val, strlen(val), true))
		wqt_global_cpumask_changed = true;
	mutex_unlock(&wqt_global_attrs);
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

static int wqt_random_online_cpu(struct torture_random_state *trs)
{
	int cpu = cpumask_nth(torture_random(trs) % num_online_cpus(), cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/* Flush the slot's workqueue: its plain items queued before have run. */
static void wqt_flush_wq(struct wqt_slot *s)
{
	long before[WQT_ITEMS];
	int i;

	for (i = 0; i < WQT_ITEMS; i++)
		before[i] = atomic_long_read(&s->items[i].queue_ok);
	flush_workqueue(s->wq);
	for (i = 0; i < WQT_ITEMS; i++)
		if (s->items[i].kind == WQT_PLAIN)
			wqt_check_done(&s->items[i], before[i], "not run after flush_workqueue");
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
		wqt_queue(it, wqt_random_online_cpu(trs), wqt_random_delay_us(), false);
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
			workqueue_set_max_active(s->wq, 1 + torture_random(trs) % 16);
		break;
	case WQT_OP_ATTRS:
		if (unbound && (s->flags & WQ_SYSFS))
			wqt_slot_attrs(s);
		break;
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
	char buf[384];
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
	pr_alert("%s" TORTURE_FLAG " faults: tried %ld hit %ld failed-calls %ld\n",
		 torture_type, atomic_long_read(&wqt_faults_tried),
		 atomic_long_read(&wqt_faults_hit), atomic_long_read(&wqt_fault_errors));
	/* torture_onoff_stats() continues the line */
	pr_alert("%s" TORTURE_FLAG " hotplug: ", torture_type);
	torture_onoff_stats();
}

static int wqt_stats_thread(void *arg)
{
	do {
		schedule_timeout_interruptible(stat_interval * HZ);
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
	if (wqt_global_cpumask_changed) {
		char val[32];

		snprintf(val, sizeof(val), "%lx\n", cpumask_bits(cpu_possible_mask)[0]);
		wqt_file_io("/sys/devices/virtual/workqueue/cpumask", val, strlen(val), true);
	}
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

static int __init wqt_init(void)
{
	int i, err;

	if (!torture_init_begin(torture_type, verbose))
		return -EBUSY;
	if (nthreads < 1 || stat_interval < 0 || fault_rate < 0 || fault_rate > 100) {
		err = -EINVAL;
		goto fail;
	}
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
		torture_shuffle_task_register(wqt_threads[i]);
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
