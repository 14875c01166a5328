/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private declarations of the workqueue implementation, shared by
 * kernel/workqueue.c (pools, workers, activation and node quotas,
 * queueing, flushing, cancelling),
 * kernel/workqueue_pwq.c (what a workqueue owns: pwqs, node quotas,
 * lockdep map; allocating and freeing them),
 * kernel/workqueue_unbound.c (pods, unbound pools and attributes, the
 * limits of every workqueue),
 * kernel/workqueue_lifecycle.c (creating and destroying workqueues, CPU
 * hotplug, the freezer, boot),
 * kernel/workqueue_show.c (state dumps, watchdog, debugfs),
 * kernel/workqueue_sysfs.c (the sysfs ABI) and
 * kernel/workqueue_hist.c (the per-workqueue histograms),
 * and by the files of single capabilities that use only these.
 *
 * Calls go down this list of floors, never up or back:
 *
 *   1. kernel/workqueue.c, the bottom: it calls none of the other files,
 *      and the histograms reach the item's path through call sites it
 *      owns (section 6);
 *   2. workqueue_hist.c and workqueue_precise.c, which call only the core;
 *   3. workqueue_pwq.c, which calls the core and the histograms;
 *   4. workqueue_unbound.c, whose pwq tables allocate pwqs;
 *   5. workqueue_show.c and workqueue_sysfs.c;
 *   6. workqueue_lifecycle.c, the top, which calls them all.
 *
 * Only what more than one of these files uses is declared here; what
 * workqueue_unbound.c offers the files above it is declared in
 * kernel/workqueue_unbound.h.
 *
 * Map of this file:
 *   1. locking legend, the global locks and their asserts
 *   2. flags and limits
 *   3. structures: worker_pool, pool_workqueue, workqueue_struct
 *   4. global state, by the file that defines it
 *   5. walking pools and pwqs
 *   6. shared functions, by the file that defines them (the histogram
 *      hooks of the item's path among them)
 *
 * 1. Locking legend
 *
 * Every field below names what protects it, by letter.  A letter alone
 * means: hold that lock to read or change the field; where reading and
 * changing differ, the field says so ("W to change, P or W to read").
 *
 * A function whose name ends in _locked expects its caller to hold the
 * lock its kernel-doc (or comment) names, and asserts it with the helper
 * for that letter.  _locked ends the name, and a function that takes the
 * lock itself is not called _locked.
 *
 *  I  set while the object is created, read-only afterwards
 *  P  pool->lock (raw spinlock, taken with interrupts disabled)
 *  L  wq_pool_mutex: the set of pools and workqueues, the unbound pool
 *     hash, pod types, the unbound cpumasks
 *  A  wq_pool_attach_mutex: attaching workers to pools, CPU binding
 *  W  wq->mutex: a workqueue's pwqs, limits and freezing state
 *  F  wq->flush_lock (raw spinlock): a workqueue's waiting flushers and
 *     which of its closed flush colors have drained
 *  N  nna->lock (raw spinlock): a node's active-item quota of an unbound
 *     workqueue and the pwqs waiting for it
 *  M  wq_mayday_lock (raw spinlock): rescue requests
 *  H  wq->hist->lock (raw spinlock): the worst-offender lists of a
 *     workqueue's histograms
 *  R  RCU (sched): pools looked up by ID, the list of workqueues, the pwq
 *     tables of workqueues
 *  T  no lock: atomic operations, or an object with its own (an ida, a
 *     work item or rcu_head handed to the workqueue or to RCU)
 *  X  used by its owner only (the worker; where a field says so, the
 *     watchdog), no lock
 *
 * The letters of 6.12, for reviewers who know its legend (at the top of
 * its kernel/workqueue.c); ours are kept:
 *
 *   6.12  here            6.12  here
 *   L     P               WQ    W
 *   PL    L               WR    W; R to read
 *   PR    L; R to read    WO    W to change, read locklessly (see below)
 *   PW    L and W         LN    P and N (pwq->pending_node)
 *   PWR   L and W; R      MD    M
 *   A, I  A, I            K     P, read unlocked by the worker itself
 *   S     X
 *
 * 6.12's P (preemption disabled) and WD (the watchdog's own) have no
 * letter here; 6.12 has no F (its flush state is under wq->mutex) and no
 * letter for the node lock alone.
 *
 * Nesting, outermost first (a lock is never taken while holding one to
 * its right):
 *
 *   cpus_read_lock  >  L  >  A  >  W  >  P  >  N
 *   (L is taken with and without the CPU hotplug lock: nothing under L
 *   may take it)
 *                                W  >  F      P  >  M      P  >  F
 *                                W  >  H
 *
 * Two pool locks are never held at once: moving work between pools drops
 * one lock before taking the other.
 *
 * Lockless reads.  Some fields are read, on purpose, without the lock
 * their letter names, most of them with READ_ONCE() or data_race().  Here
 * is each one and why it is safe, or, in one case, what a stale answer
 * costs:
 *
 * nna->max <- W, WRITE_ONCE() (wq_update_node_max_active()):
 *
 *   read with READ_ONCE() and without N by node_quota_take_free(),
 *   node_quota_tryinc_locked() and node_quota_may_pass().  It is a limit
 *   that the count, the atomic nna->nr, is checked against: a reader that
 *   sees the old limit acts as if it had run just before the change, and
 *   a count above a lowered limit only drains.  Later attempts see the
 *   new limit; wq_refresh_limits() makes one on every pwq right after it
 *   changes the limits.
 *
 * nna->pending_pwqs <- N:
 *
 *   node_quota_tryinc_locked() takes a free slot without N only while the
 *   line looks empty; node_quota_may_pass() and node_quota_next() read the
 *   first entry with READ_ONCE().  The full barriers paired between
 *   joining the line and looking at the count (node_quota_tryinc_locked())
 *   and between freeing a slot and looking at the line
 *   (node_quota_dec_locked()) keep a waiter first in line and the one
 *   freeing a slot from both missing it.  An entry read without N may
 *   have left the line by the time it is used, which activating it tells
 *   (there is nothing left to activate); its memory stays valid as
 *   interrupts are disabled (RCU).
 *
 * pwq->pending_node <- N, and also the pwq's own P to join or leave:
 *
 *   whether a pwq is in line changes only under its P, so list_empty()
 *   under P alone gives a stable answer (node_quota_tryinc_locked(),
 *   node_quota_unlist_locked()), although the pointer it reads may be
 *   rewritten under N as other pwqs join and leave; node_quota_may_pass()
 *   reads the neighbours with READ_ONCE() as a hint, see its comment.
 *   One test holds neither lock: pwq_leave_node_quota() runs at release,
 *   when nothing can put the pwq back in line (it has no item left), and
 *   node_quota_unlist_locked() tests again under P.  A freed slot is
 *   offered to a pwq of another pool under that pool's lock
 *   (node_quota_offer_locked()), which tests there whether the pwq is
 *   still in line.
 *
 * worker->flags <- P; WORKER_UNBOUND and WORKER_REBOUND also under A:
 *
 *   worker_attach_to_pool() and worker_detach_from_pool() change them
 *   under A without P while the worker is on no list of the pool (not yet
 *   or no longer on pool->workers, never on the idle list then), so no
 *   holder of P looks at it, and its thread is not running (not started
 *   yet, or exited) or is the one attaching or detaching (a rescuer).  The
 *   worker reads its own flags without P, and so do the scheduler hooks on
 *   its CPU: wq_worker_sleeping() with READ_ONCE(), wq_worker_tick() from
 *   the tick that interrupts it.
 *
 * pwq->nr_active <- P:
 *
 *   freeze_workqueues_busy() reads it with READ_ONCE() under RCU: while
 *   the workqueue is frozen it only goes down, so a stale value only
 *   makes the freezer look again.
 *
 * pool->flags <- P:
 *
 *   retire_pool_workers() waits for POOL_MANAGER_ACTIVE to clear with
 *   READ_ONCE() and without P, then tests it again under P.
 *
 * wq->rescuer <- L to set, M to clear:
 *
 *   send_mayday_locked() reads it with READ_ONCE() before taking M and
 *   again under M; insert_flush_barrier() reads it without a lock only to
 *   pick a lockdep annotation.
 *
 * pool->watchdog_ts <- P:
 *
 *   the watchdog reads it with READ_ONCE(): a write it misses is one made
 *   at the moment of its check, after a whole threshold without progress.
 *
 * pwq->stats[] <- P:
 *
 *   the ticks of the pwq's workers add CPU time under data_race(): a
 *   statistic, which an update lost to a race only makes a tick short.
 *
 * wq->hist->slowest_start[], ->longest_run[] <- H:
 *
 *   the last entry's time is read with READ_ONCE() and without H to skip
 *   the lock for a sample that would not enter the list; the list is
 *   looked at again under H.
 */
#ifndef _KERNEL_WORKQUEUE_IMPL_H
#define _KERNEL_WORKQUEUE_IMPL_H

#include <linux/hashtable.h>
#include <linux/idr.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/rculist.h>
#include <linux/workqueue.h>
#ifdef WQ_HAS_HISTOGRAMS
#include <linux/static_call.h>
#include <linux/timekeeping.h>
#include <linux/workqueue_hist.h>
#endif

#include "workqueue_internal.h"

#ifdef WQ_HAS_WAIT_PI
/*
 * Priority inheritance on wait (kernel/workqueue.c, section 6) adds two
 * letters to the locking legend,
 *
 *  Q  wq_rank_lock (raw spinlock): scheduling ranks decided for workers
 *     other than %current, waiting to be applied (wq_rank_pending)
 *  G  wq_rank_mutex: one applier of ranks at a time; a worker it applies
 *     to is not freed meanwhile (reaping and stopping a rescuer take it)
 *
 * which nest as P  >  Q, G taken with no other workqueue lock held and
 * only Q under it, and one lockless read:
 *
 * wq->nr_flush_lenders <- F:
 *
 *   worker_begin_item_locked() and wq_flush_rank() read it with
 *   READ_ONCE() under a pool's P only, to skip F when nobody lends.  A
 *   lender that joins after the read re-ranks every worker of the
 *   workqueue itself (flush_lend()), under each pool's P, so a worker that
 *   missed it is corrected before the lender sleeps.
 */
#endif

extern struct mutex wq_pool_mutex;
extern struct mutex wq_pool_attach_mutex;
extern raw_spinlock_t wq_mayday_lock;

#define wq_assert_L()		lockdep_assert_held(&wq_pool_mutex)
#define wq_assert_A()		lockdep_assert_held(&wq_pool_attach_mutex)
#define wq_assert_W(wq)		lockdep_assert_held(&(wq)->mutex)
#define wq_assert_F(wq)		lockdep_assert_held(&(wq)->flush_lock)
#define wq_assert_P(pool)	lockdep_assert_held(&(pool)->lock)
/* N and M have none: no function expects them held, their users take them. */
/* Pools by ID: RCU or L.  A workqueue's pwq table: RCU, W or L. */
#define wq_assert_R()							\
	lockdep_assert(rcu_read_lock_any_held() || lockdep_is_held(&wq_pool_mutex))
#define wq_assert_R_or_W(wq)						\
	lockdep_assert(rcu_read_lock_any_held() ||			\
		       lockdep_is_held(&(wq)->mutex) || lockdep_is_held(&wq_pool_mutex))

/* 2. Flags and limits */

enum pool_flags {
	POOL_BH			= 1 << 0,	/* served from softirq (I) */
	POOL_MANAGER_ACTIVE	= 1 << 1,	/* a worker is managing (P) */
	/* per-CPU pool whose CPU is down; BH pools (never bound) always (P) */
	POOL_DISASSOCIATED	= 1 << 2,
#ifdef WQ_HAS_RT_CLASS
	POOL_RT			= 1 << 3,	/* SCHED_RR workers: the RT class (I) */
#endif
};

enum worker_flags {
	WORKER_DIE		= 1 << 1,	/* told to exit */
	WORKER_IDLE		= 1 << 2,	/* on the idle list */
	WORKER_PREP		= 1 << 3,	/* not processing yet */
	WORKER_CPU_INTENSIVE	= 1 << 6,	/* out of concurrency control */
	WORKER_UNBOUND		= 1 << 7,	/* unbound pool or CPU offline */
	WORKER_REBOUND		= 1 << 8,	/* rebound, not yet processing */
	WORKER_RESCUER		= 1 << 9,	/* a rescuer */

	/* workers with any of these do not count in pool->nr_running */
	WORKER_NOT_RUNNING	= WORKER_PREP | WORKER_CPU_INTENSIVE |
				  WORKER_UNBOUND | WORKER_REBOUND |
				  WORKER_IDLE | WORKER_RESCUER,
};

enum wq_limits {
	NR_STD_WORKER_POOLS	= 2,		/* normal and highpri */
#ifdef WQ_HAS_RT_CLASS
	RT_WORKER_POOL		= 2,		/* per CPU, after those two */
	NR_CPU_WORKER_POOLS	= 3,		/* normal, highpri and RT */
#else
	NR_CPU_WORKER_POOLS	= 2,		/* normal and highpri */
#endif
	BUSY_WORKER_HASH_ORDER	= 6,
	WQ_NAME_LEN		= 32,
	WORKER_ID_LEN		= 10 + WQ_NAME_LEN,
	NR_FLUSH_COLORS		= WORK_NR_COLORS,	/* barriers' too */
	IDLE_WORKERS_KEPT	= 2,		/* per pool, when culling */
	IDLE_WORKER_TIMEOUT	= 300 * HZ,
	MAYDAY_INITIAL_TIMEOUT	= HZ / 100 >= 2 ? HZ / 100 : 2,
	MAYDAY_INTERVAL		= HZ / 10,
	CREATE_COOLDOWN		= HZ,
	HIGHPRI_NICE_LEVEL	= MIN_NICE,
	RESCUER_NICE_LEVEL	= MIN_NICE,
	BH_WORKER_RESTARTS	= 10,
};

/* how long a BH pool's softirq runs items before yielding */
#define BH_WORKER_JIFFIES	msecs_to_jiffies(2)

/* pwq->stats[], as tools/workqueue/wq_monitor.py reads them */
enum pool_workqueue_stats {
	PWQ_STAT_STARTED,	/* items started */
	PWQ_STAT_COMPLETED,	/* items completed */
	PWQ_STAT_CPU_TIME,	/* CPU time of per-CPU items, us */
	PWQ_STAT_CPU_INTENSIVE,	/* items found hogging the CPU */
	PWQ_STAT_CM_WAKEUP,	/* concurrency-management wakeups */
	PWQ_STAT_REPATRIATED,	/* unbound workers brought back to their pod */
	PWQ_STAT_MAYDAY,	/* rescue requests */
	PWQ_STAT_RESCUED,	/* items run by the rescuer */
	PWQ_NR_STATS,
};

/* 3. Structures */

#ifdef WQ_HAS_HISTOGRAMS
/* Histograms of sampled items; flush waits are kept per workqueue. */
#define WQ_NR_ITEM_HISTS	WQ_HIST_FLUSH
/* the worst items a workqueue keeps, per list */
#define WQ_HIST_TOP		4

/**
 * struct wq_hist - item histograms, of one pwq or summed
 * @count: per kind and bucket, the items the samples stand for (P)
 * @samples: sampled items (P)
 */
struct wq_hist {
	u64			count[WQ_NR_ITEM_HISTS][WQ_HIST_BUCKETS];
	u64			samples;
};

/**
 * struct wq_hist_top - a work function among a workqueue's worst
 * @func: the function, %NULL for a free entry (H)
 * @ns: its worst time (H)
 */
struct wq_hist_top {
	work_func_t		func;
	u64			ns;
};

/**
 * struct wq_hist_wq - what a workqueue's histograms keep beside its pwqs'
 * @lock: the H lock (I)
 * @retired: the histograms of pwqs released so far, allocated with the
 *	first (W)
 * @flush: flush waits per bucket (T)
 * @slowest_start: functions of the sampled items that waited longest from
 *	queueing to start, worst first (H; see Lockless reads)
 * @longest_run: functions of the sampled items that ran longest, wall
 *	clock, worst first (H; see Lockless reads)
 * @since: when the histograms were last reset, ns since boot (W)
 */
struct wq_hist_wq {
	raw_spinlock_t		lock;
	struct wq_hist		*retired;
	atomic64_t		flush[WQ_HIST_BUCKETS];
	struct wq_hist_top	slowest_start[WQ_HIST_TOP];
	struct wq_hist_top	longest_run[WQ_HIST_TOP];
	u64			since;
};
#endif

/**
 * struct worker_pool - workers and the one worklist they take items from
 * @lock: the pool lock (P)
 * @cpu: the CPU of a per-CPU pool, -1 for unbound pools (I)
 * @node: NUMA node the pool allocates on (I)
 * @id: pool ID, recorded in off-queue items (I)
 * @flags: POOL_* (P)
 * @watchdog_ts: last time the pool made progress (P)
 * @cpu_stall: the watchdog found this per-CPU pool stuck (X: the watchdog)
 * @nr_running: workers that run and count for concurrency (P)
 * @worklist: items ready to run (P)
 * @nr_workers: attached workers (P)
 * @nr_idle: idle workers (P)
 * @idle_list: idle workers, most recently idle first (P)
 * @idle_timer: fires when idle workers may be culled (P)
 * @idle_cull_work: culls them in process context (T)
 * @mayday_timer: fires while a worker cannot be created in time (P)
 * @busy_hash: running workers hashed by item (P)
 * @manager: the worker managing the pool, if any (P)
 * @workers: attached workers (A)
 * @worker_ida: worker IDs (T)
 * @attrs: nice level and CPUs of the workers (I)
 * @hash_node: entry in unbound_pool_hash (L)
 * @refcnt: pwqs using an unbound pool (L)
 * @bh_worker: the softirq execution context of a BH pool (I)
 * @rcu: for freeing an unbound pool (T)
 */
struct worker_pool {
	raw_spinlock_t		lock;
	int			cpu;
	int			node;
	int			id;
	unsigned int		flags;
	unsigned long		watchdog_ts;
	bool			cpu_stall;
	int			nr_running;
	struct list_head	worklist;
	int			nr_workers;
	int			nr_idle;
	struct list_head	idle_list;
	struct timer_list	idle_timer;
	struct work_struct	idle_cull_work;
	struct timer_list	mayday_timer;
	DECLARE_HASHTABLE(busy_hash, BUSY_WORKER_HASH_ORDER);
	struct worker		*manager;
	struct list_head	workers;
	struct ida		worker_ida;
	struct workqueue_attrs	*attrs;
	struct hlist_node	hash_node;
	int			refcnt;
	struct worker		bh_worker;
	struct rcu_head		rcu;
};

/**
 * struct pool_workqueue - the link between a workqueue and a pool
 * @pool: the pool (I)
 * @wq: the workqueue (I)
 * @work_color: color new items get (P)
 * @flush_colors: bit per closed color that a flush waits for this pwq to
 *	drain (P)
 * @refcnt: references: table entries, queued items, barriers, maydays (P)
 * @nr_in_flight: queued or running items per color (P)
 * @nr_active: items on the pool's worklist or running (P)
 * @max_active: limit of @nr_active for per-CPU workqueues (P)
 * @plugged: an ordered workqueue's new pwq waits for the old one (W to
 *	change, and P too once the pwq is linked; W or P to read)
 * @inactive_works: items waiting for @nr_active to drop (P)
 * @boosters: flush_work() barriers whose waiters lend their priority to
 *	this pwq's items (P)
 * @nr_raising: those of @boosters that rank above the pool's workers,
 *	the only ones that can raise one (P)
 * @pending_node: entry in the node quota's list of waiting pwqs (N, and
 *	this pwq's P to join or leave; P to test; see Lockless reads)
 * @pwqs_node: entry in wq->pwqs (W; R to walk)
 * @mayday_node: entry in wq->maydays (M)
 * @stats: PWQ_STAT_* counters (P; the tick adds CPU time without it)
 * @hist: the pwq's histograms, allocated by the worker of its first
 *	sampled item (P to set and to change; see kernel/workqueue_hist.c)
 * @hist_work: the item being sampled, from queueing to start (P)
 * @hist_queued: when it was queued (P)
 * @hist_active: when it was activated, 0 while it is inactive (P)
 * @hist_last: when the sample before it was taken (P)
 * @hist_countdown: items to queue before the next sample (P)
 * @hist_period: items per sample (P)
 * @hist_weight: items the sample in flight stands for (P)
 * @hist_carry: items whose sample could not be taken, carried on (P)
 * @release_work: frees the pwq in process context (T)
 * @rcu: for freeing after readers are done (T)
 *
 * The alignment leaves the low bits of a pwq pointer free for the item
 * flags and the flush color stored beside it in work->data.
 */
struct pool_workqueue {
	struct worker_pool	*pool;
	struct workqueue_struct	*wq;
	int			work_color;
	u16			flush_colors;
	int			refcnt;
	int			nr_in_flight[WORK_NR_COLORS];
	int			nr_active;
	int			max_active;
	bool			plugged;
	struct list_head	inactive_works;
#ifdef WQ_HAS_WAIT_PI
	struct list_head	boosters;
	int			nr_raising;
#endif
	struct list_head	pending_node;
	struct list_head	pwqs_node;
	struct list_head	mayday_node;
	u64			stats[PWQ_NR_STATS];
#ifdef WQ_HAS_HISTOGRAMS
	struct wq_hist		*hist;
	struct work_struct	*hist_work;
	u64			hist_queued;
	u64			hist_active;
	u64			hist_last;
	unsigned int		hist_countdown;
	unsigned int		hist_period;
	unsigned int		hist_weight;
	unsigned int		hist_carry;
#endif
	struct kthread_work	release_work;
	struct rcu_head		rcu;
} __aligned(1 << WORK_STRUCT_PWQ_SHIFT);

/**
 * struct wq_node_nr_active - active-item quota of an unbound workqueue on
 *	one NUMA node
 * @max: the quota (W to change, with WRITE_ONCE(); read without N, see
 *	Lockless reads)
 * @nr: active items of the workqueue's pwqs on the node (T; a free
 *	slot is taken without N while no pwq waits)
 * @lock: the N lock (I)
 * @pending_pwqs: pwqs with inactive items waiting for the quota (N to
 *	change; its first entry is read without N, see Lockless reads)
 */
struct wq_node_nr_active {
	int			max;
	atomic_t		nr;
	raw_spinlock_t		lock;
	struct list_head	pending_pwqs;
};

struct wq_device;
struct dentry;

/**
 * struct workqueue_struct - a workqueue: its pwqs and how to use them
 * @pwqs: all pwqs of the workqueue (W; R to walk)
 * @list: entry in the list of workqueues (L; R to walk)
 * @mutex: the W lock (I)
 * @flush_lock: the F lock (I)
 * @flush_seq: flush colors closed so far; the color of items queued now
 *	is its remainder by NR_FLUSH_COLORS (W)
 * @flushed_seq: closed colors that have drained, oldest first (F)
 * @drained_colors: closed colors that have drained behind an older one
 *	still draining (F)
 * @flushers: flush_workqueue() callers waiting (F)
 * @flush_lenders: flush_workqueue() callers lending their priority to the
 *	workqueue's items while they wait (F)
 * @nr_flush_lenders: their number (F to change; read without F to skip
 *	the lock when there are none)
 * @nr_pwqs_to_flush: per closed color, the pwqs that still have items of
 *	it, plus one while the color is being closed (T)
 * @maydays: pwqs asking the rescuer for help (M)
 * @rescuer: the rescuer of a WQ_MEM_RECLAIM workqueue (L to set, M to
 *	clear; see Lockless reads)
 * @nr_drainers: drain_workqueue() callers (W)
 * @max_active: effective limit, 0 while frozen (W)
 * @min_active: effective per-node minimum for unbound workqueues (W)
 * @saved_max_active: limit set by the user (W)
 * @saved_min_active: minimum set by the user (W)
 * @unbound_attrs: attributes requested for an unbound workqueue (W)
 * @dfl_pwq: pwq for CPUs whose pod has no usable CPU (W; R)
 * @wq_dev: the sysfs device of a WQ_SYSFS workqueue (I)
 * @hist: histograms of released pwqs, flush waits and the worst items,
 *	%NULL with histograms off (I)
 * @lockdep_name: name of the lockdep map allocated for it (I)
 * @key: lockdep class key of that map (I)
 * @__lockdep_map: lockdep map the workqueue owns (I)
 * @lockdep_map: lockdep map for flush annotations (I)
 * @name: the name (I)
 * @name_id: a number no other workqueue of this boot has, for workers
 *	to tell whether their description still holds @name (I)
 * @rcu: for freeing after readers are done (T)
 * @flags: WQ_* and __WQ_* (W to change)
 * @cpu_pwq: per CPU, the pwq items queued on that CPU go to (W; R)
 * @node_nr_active: per node (and [nr_node_ids] for the whole system) the
 *	active-item quota of an unbound workqueue (I)
 */
struct workqueue_struct {
	struct list_head	pwqs;
	struct list_head	list;
	struct mutex		mutex;		/* W */
	raw_spinlock_t		flush_lock;	/* F */
	unsigned long		flush_seq;
	unsigned long		flushed_seq;
	unsigned long		drained_colors;
	struct list_head	flushers;
#ifdef WQ_HAS_WAIT_PI
	struct list_head	flush_lenders;
	int			nr_flush_lenders;
#endif
	atomic_t		nr_pwqs_to_flush[NR_FLUSH_COLORS];
	struct list_head	maydays;
	struct worker		*rescuer;
	int			nr_drainers;
	int			max_active;
	int			min_active;
	int			saved_max_active;
	int			saved_min_active;
	struct workqueue_attrs	*unbound_attrs;
	struct pool_workqueue __rcu *dfl_pwq;
	struct wq_device	*wq_dev;
#ifdef WQ_HAS_HISTOGRAMS
	struct wq_hist_wq	*hist;
#endif
#ifdef CONFIG_LOCKDEP
	char			*lockdep_name;
	struct lock_class_key	key;
	struct lockdep_map	__lockdep_map;
	struct lockdep_map	*lockdep_map;
#endif
	char			name[WQ_NAME_LEN];
	u64			name_id;
	struct rcu_head		rcu;
	unsigned int		flags;
	struct pool_workqueue __rcu * __percpu *cpu_pwq;
	struct wq_node_nr_active *node_nr_active[];
};

/*
 * 4. Global state, by the file that defines it.  The three global locks
 * are declared with their asserts in section 1 (kernel/workqueue.c).
 */

/* kernel/workqueue.c */
extern struct list_head workqueues;			/* L; R to walk */
extern struct idr worker_pool_idr;			/* L; R to look up */
extern bool wq_online;					/* workers exist */
extern bool workqueue_freezing;				/* L */
extern unsigned long wq_cpu_intensive_thresh_us;
extern struct kthread_worker *pwq_release_worker;	/* I */
extern cpumask_var_t wq_unbound_cpumask;		/* L */
DECLARE_PER_CPU_SHARED_ALIGNED(struct worker_pool [NR_CPU_WORKER_POOLS],
			       cpu_worker_pools);
DECLARE_PER_CPU_SHARED_ALIGNED(struct worker_pool [NR_STD_WORKER_POOLS],
			       bh_worker_pools);

/* 5. Walking pools and pwqs */

/* Walk every pool (per-CPU, BH and unbound); needs L or RCU. */
#define for_each_pool(pool, pi)						\
	idr_for_each_entry(&worker_pool_idr, pool, pi)

/* A workqueue's list of pwqs, for walking under W or RCU. */
static inline struct list_head *wq_pwq_list(struct workqueue_struct *wq)
{
	wq_assert_R_or_W(wq);
	return &wq->pwqs;
}

/* Walk a workqueue's pwqs; needs W or RCU (wq_pwq_list() checks). */
#define for_each_pwq(pwq, wq)						\
	list_for_each_entry_rcu((pwq), wq_pwq_list(wq), pwqs_node, true)

/* 6. Shared functions, by the file that defines them */

/*
 * Boot-time setup the kernel cannot run without (the per-CPU pools, the
 * system workqueues): stop with the name of what failed.
 */
static inline void wq_boot_check(bool ok, const char *what)
{
	if (unlikely(!ok))
		panic("workqueue: boot-time setup of %s failed\n", what);
}

/**
 * wq_node_nr_active - the quota of @wq on a node
 * @wq: an unbound workqueue
 * @node: the node, or NUMA_NO_NODE
 *
 * Return: the quota.
 */
static inline struct wq_node_nr_active *
wq_node_nr_active(struct workqueue_struct *wq, int node)
{
	if (node == NUMA_NO_NODE)
		node = nr_node_ids;
	return wq->node_nr_active[node];
}

/* Whether @wq is of the RT class (WQ_RT). */
static inline bool wq_is_rt(const struct workqueue_struct *wq)
{
#ifdef WQ_HAS_RT_CLASS
	return wq->flags & WQ_RT;
#else
	return false;
#endif
}

/* Whether @pool is one of the RT class's (WQ_RT; SCHED_RR workers). */
static inline bool pool_is_rt(const struct worker_pool *pool)
{
#ifdef WQ_HAS_RT_CLASS
	return pool->flags & POOL_RT;
#else
	return false;
#endif
}

/* kernel/workqueue.c, in the order of its sections */
bool wq_is_ordered(struct workqueue_struct *wq);
struct pool_workqueue *get_work_pwq(struct work_struct *work);
const struct cpumask *pool_allowed_cpus(struct worker_pool *pool);
void unbind_workers_locked(struct worker_pool *pool);
void kick_bh_pools(int cpu);
void rebind_workers_locked(struct worker_pool *pool);
int format_worker_id(char *buf, size_t size, struct worker *worker,
		     struct worker_pool *pool);
void wq_faults_debugfs_init(struct dentry *dir);
int create_worker(struct worker_pool *pool);
int populate_pool(struct worker_pool *pool);
void put_unbound_pool(struct worker_pool *pool);
int init_worker_pool(struct worker_pool *pool);
int worker_pool_assign_id(struct worker_pool *pool);
void init_cpu_pool(struct worker_pool *pool, int cpu, int index, bool bh);
int init_rescuer(struct workqueue_struct *wq);
void put_pwq_unlocked(struct pool_workqueue *pwq);
void put_wq_pwqs(struct workqueue_struct *wq);
void link_pwq(struct pool_workqueue *pwq);
void node_quota_unlist_locked(struct pool_workqueue *pwq);
bool pwq_activate_inactive_locked(struct pool_workqueue *pwq);
void pwq_set_max_active_locked(struct pool_workqueue *pwq);
void __queue_work(int req_cpu, struct workqueue_struct *wq,
		  struct work_struct *work);
bool clear_pending_if_disabled(struct work_struct *work);
bool claim_work(struct work_struct *work);
struct task_struct *wq_barrier_task(struct work_struct *work);
void retire_workqueue(struct workqueue_struct *wq);
bool wq_busy_for_destroy(struct workqueue_struct *wq);
int grab_pending(struct work_struct *work,
		 bool (*stop_timer)(struct work_struct *work),
		 unsigned long *irq_flags);
bool __cancel_work(struct work_struct *work,
		   bool (*stop_timer)(struct work_struct *work), bool disable);
bool __cancel_work_sync(struct work_struct *work,
			bool (*stop_timer)(struct work_struct *work), bool disable);

/* kernel/workqueue_pwq.c */
void wq_init_lockdep(struct workqueue_struct *wq, struct lockdep_map *map);
int wq_alloc_node_nr_active(struct workqueue_struct *wq);
void discard_wq(struct workqueue_struct *wq);
void wq_pwq_cache_init(void);
struct pool_workqueue *alloc_pwq(struct workqueue_struct *wq,
				 struct worker_pool *pool);
void discard_pwq(struct pool_workqueue *pwq);

/* kernel/workqueue_show.c */
void wq_watchdog_init(void);

#ifdef WQ_HAS_HISTOGRAMS
/*
 * The histograms' hooks on the path of an item.  The core owns the call
 * sites and kernel/workqueue_hist.c installs its functions in them
 * (wq_hist_init()), so the core calls nothing above it.  Each wrapper is
 * one test of a pwq or worker field the path has at hand: with histograms
 * off (workqueue.histograms=0) the countdown never runs out in practice
 * (it starts at UINT_MAX), nothing else is ever set and the calls stay
 * empty.
 */
DECLARE_STATIC_KEY_TRUE(wq_hist_on);

typedef void wq_hist_sample_fn(struct pool_workqueue *pwq,
			       struct work_struct *work, bool active);
typedef void wq_hist_pwq_fn(struct pool_workqueue *pwq);
typedef void wq_hist_begin_fn(struct worker *worker,
			      struct pool_workqueue *pwq);
typedef void wq_hist_end_fn(struct worker *worker, struct pool_workqueue *pwq,
			    work_func_t func, bool bh);
typedef void wq_hist_flush_fn(struct workqueue_struct *wq, u64 start_ns);

DECLARE_STATIC_CALL(wq_hist_hook_sample, wq_hist_sample_fn);
DECLARE_STATIC_CALL(wq_hist_hook_activated, wq_hist_pwq_fn);
DECLARE_STATIC_CALL(wq_hist_hook_begin, wq_hist_begin_fn);
DECLARE_STATIC_CALL(wq_hist_hook_end, wq_hist_end_fn);
DECLARE_STATIC_CALL(wq_hist_hook_drop, wq_hist_pwq_fn);
DECLARE_STATIC_CALL(wq_hist_hook_flush, wq_hist_flush_fn);

/**
 * wq_hist_clock - the clock of the histograms
 *
 * Monotonic, safe in any context the item's path runs in.
 *
 * Return: nanoseconds since boot.
 */
static inline u64 wq_hist_clock(void)
{
	return ktime_get_mono_fast_ns();
}

/* An item was queued on @pwq: one sample every hist_period items.  P. */
static __always_inline void wq_hist_queued_locked(struct pool_workqueue *pwq,
						  struct work_struct *work,
						  bool active)
{
	wq_assert_P(pwq->pool);
	if (unlikely(!--pwq->hist_countdown))
		static_call_cond(wq_hist_hook_sample)(pwq, work, active);
}

/* @work of @pwq moved from its inactive list to the pool's.  P. */
static __always_inline void wq_hist_activate_locked(struct pool_workqueue *pwq,
						    struct work_struct *work)
{
	wq_assert_P(pwq->pool);
	if (unlikely(pwq->hist_work == work))
		static_call_cond(wq_hist_hook_activated)(pwq);
}

/* @worker takes @work of @pwq.  P. */
static __always_inline void wq_hist_start_locked(struct worker *worker,
						 struct pool_workqueue *pwq,
						 struct work_struct *work)
{
	wq_assert_P(pwq->pool);
	if (unlikely(pwq->hist_work == work))
		static_call_cond(wq_hist_hook_begin)(worker, pwq);
}

/* @worker's function returned; no lock held. */
static __always_inline void wq_hist_done(struct worker *worker,
					 struct pool_workqueue *pwq,
					 work_func_t func, bool bh)
{
	if (unlikely(worker->hist_flags))
		static_call_cond(wq_hist_hook_end)(worker, pwq, func, bh);
}

/* @work of @pwq leaves its list without running (cancelled).  P. */
static __always_inline void wq_hist_unlink_locked(struct pool_workqueue *pwq,
						  struct work_struct *work)
{
	wq_assert_P(pwq->pool);
	if (unlikely(pwq->hist_work == work))
		static_call_cond(wq_hist_hook_drop)(pwq);
}

/* A flusher of @wq waited from @start_ns (wq_hist_clock()) until now. */
static inline void wq_hist_flushed(struct workqueue_struct *wq, u64 start_ns)
{
	static_call_cond(wq_hist_hook_flush)(wq, start_ns);
}

/* kernel/workqueue_hist.c: the rest */
void wq_hist_init(void);
void wq_hist_debugfs_init(struct dentry *dir);
int wq_hist_alloc_wq(struct workqueue_struct *wq);
void wq_hist_free_wq(struct workqueue_struct *wq);
void wq_hist_init_pwq(struct pool_workqueue *pwq);
void wq_hist_retire_pwq(struct pool_workqueue *pwq);
void wq_hist_free_pwq(struct pool_workqueue *pwq);
void wq_hist_collect(struct workqueue_struct *wq, struct wq_hist *sum);
void wq_hist_reset_kinds(struct workqueue_struct *wq, unsigned long kinds);
int wq_hist_parse_reset(const char *buf, size_t count);
ssize_t wq_hist_show_kind(struct workqueue_struct *wq, int kind, char *buf);
extern const char * const wq_hist_names[WQ_NR_HISTS];
#endif

/* kernel/workqueue_sysfs.c */
#ifdef CONFIG_SYSFS
void wq_sysfs_unregister(struct workqueue_struct *wq);
#else
static inline void wq_sysfs_unregister(struct workqueue_struct *wq) { }
#endif

#endif /* _KERNEL_WORKQUEUE_IMPL_H */
