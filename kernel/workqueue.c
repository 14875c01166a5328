// SPDX-License-Identifier: GPL-2.0-only
/*
 * Concurrency-managed workqueues.
 *
 * Items queued with queue_work() and friends run on shared worker pools:
 * two per CPU (normal and high priority) whose concurrency the scheduler
 * regulates through the sleep and wake hooks below, two per CPU served
 * from softirq for WQ_BH workqueues, and unbound pools shared by all
 * workqueues with the same attributes.  A workqueue is a thin frontend: a
 * pool_workqueue (pwq) per pool it uses carries its limits, its inactive
 * items and the per-color counts that make flush_workqueue() exact.
 * Workqueues that may be needed to reclaim memory own a rescuer thread.
 *
 * This file is the path of an item, from queueing to completion, and what
 * that path needs.  The locking legend, the nesting chart and the
 * structures are in kernel/workqueue_impl.h.  Allocating and freeing
 * pwqs and what else a workqueue owns lives in kernel/workqueue_pwq.c,
 * unbound pools, attributes and limits in kernel/workqueue_unbound.c,
 * state dumps and the watchdog in kernel/workqueue_show.c, the sysfs
 * interface in kernel/workqueue_sysfs.c, and creating and destroying
 * workqueues, CPU hotplug, the freezer and boot in
 * kernel/workqueue_lifecycle.c.
 */

/*
 * Map of this file:
 *   1. global state and parameters
 *   2. work->data: where an item is, or was
 *   3. debugobjects
 *   4. concurrency accounting and waking workers
 *   5. pools and workers: setting pools up, naming, creating (and the
 *      faults tests inject there) and attaching workers, their CPU
 *      binding across hotplug, idleness, culling, management
 *   6. priority inheritance on wait (WQ_HAS_WAIT_PI)
 *   7. running items: process_one_work(), worker and rescuer threads
 *      (creating and stopping rescuers), BH
 *   8. scheduler hooks
 *   9. pool_workqueues: references, activation, node quotas, limits
 *  10. flush colors, and items leaving their pwq
 *  11. queueing
 *  12. flushing: barriers, flush_work(), flush_workqueue(), draining
 *  13. cancelling, disabling, enabling
 *  14. introspection: current_work(), work_busy(), set_worker_desc(), ...
 *  15. helpers built on the API
 */
#include <linux/cpu.h>
#include <linux/cpuset.h>
#include <linux/debug_locks.h>
#include <linux/debugfs.h>
#include <linux/debugobjects.h>
#include <linux/delay.h>
#include <linux/fault-inject.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/rcupdate.h>
#include <linux/rcuwait.h>
#include <linux/sched/debug.h>
#include <linux/sched/isolation.h>
#include <linux/sched/prio.h>
#include <uapi/linux/sched/types.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "workqueue_impl.h"
#include "workqueue_test.h"

#define CREATE_TRACE_POINTS
#include <trace/events/workqueue.h>

/* ------------------------------------------------------------------ */
/* 1. global state and parameters                                      */
/* ------------------------------------------------------------------ */

/* L: pools, unbound pwqs, the workqueue list and attributes */
DEFINE_MUTEX(wq_pool_mutex);
/* A: worker attach/detach and the cpumasks of a pool's workers */
DEFINE_MUTEX(wq_pool_attach_mutex);
DEFINE_RAW_SPINLOCK(wq_mayday_lock);

LIST_HEAD(workqueues);
DEFINE_IDR(worker_pool_idr);
/*
 * L: where unbound workers and items may run; kernel/workqueue_unbound.c
 * sets it up and changes it.
 */
cpumask_var_t wq_unbound_cpumask;
bool wq_online;
bool workqueue_freezing;

/*
 * The system-wide workqueues, created by workqueue_init_early() in
 * kernel/workqueue_lifecycle.c: SYSTEM_WQ(x) defines system_x.
 */
#define SYSTEM_WQ(x)	struct workqueue_struct *system_##x __ro_after_init

/* "events": schedule_work() and friends */
SYSTEM_WQ(wq);
EXPORT_SYMBOL(system_wq);
/* a second per-CPU "events", named for what it is */
SYSTEM_WQ(percpu_wq);
EXPORT_SYMBOL(system_percpu_wq);
/* "events_highpri": nice -20 workers */
SYSTEM_WQ(highpri_wq);
EXPORT_SYMBOL_GPL(system_highpri_wq);
/* "events_long": items that may run long */
SYSTEM_WQ(long_wq);
EXPORT_SYMBOL_GPL(system_long_wq);
/* "events_unbound": any CPU, high max_active */
SYSTEM_WQ(unbound_wq);
EXPORT_SYMBOL_GPL(system_unbound_wq);
/* a second "events_unbound", the default for new code */
SYSTEM_WQ(dfl_wq);
EXPORT_SYMBOL_GPL(system_dfl_wq);
/* "events_freezable": held while tasks are frozen */
SYSTEM_WQ(freezable_wq);
EXPORT_SYMBOL_GPL(system_freezable_wq);
/* "events_power_efficient": unbound if workqueue.power_efficient */
SYSTEM_WQ(power_efficient_wq);
EXPORT_SYMBOL_GPL(system_power_efficient_wq);
/* both of the two above */
SYSTEM_WQ(freezable_power_efficient_wq);
EXPORT_SYMBOL_GPL(system_freezable_power_efficient_wq);
/* "events_bh": softirq */
SYSTEM_WQ(bh_wq);
EXPORT_SYMBOL_GPL(system_bh_wq);
/* "events_bh_highpri": HI_SOFTIRQ */
SYSTEM_WQ(bh_highpri_wq);
EXPORT_SYMBOL_GPL(system_bh_highpri_wq);

DEFINE_PER_CPU_SHARED_ALIGNED(struct worker_pool [NR_CPU_WORKER_POOLS],
			      cpu_worker_pools);
DEFINE_PER_CPU_SHARED_ALIGNED(struct worker_pool [NR_STD_WORKER_POOLS],
			      bh_worker_pools);
static DEFINE_PER_CPU(struct irq_work [NR_STD_WORKER_POOLS], bh_pool_irq_works);

struct kthread_worker *pwq_release_worker;		/* I */
static DECLARE_WAIT_QUEUE_HEAD(wq_detach_wait);
/*
 * retire_pool_workers() waiting for a pool's manager to finish; it runs
 * under wq_pool_mutex (L), so there is one waiter at most.  An rcuwait can
 * be woken under a pool's raw lock, even on PREEMPT_RT.
 */
static struct rcuwait wq_manager_wait = __RCUWAIT_INITIALIZER(wq_manager_wait);

/* Items running longer than this leave concurrency management. */
unsigned long wq_cpu_intensive_thresh_us = ULONG_MAX;
module_param_named(cpu_intensive_thresh_us, wq_cpu_intensive_thresh_us, ulong, 0644);

#ifdef CONFIG_WQ_CPU_INTENSIVE_REPORT
static unsigned int wq_cpu_intensive_warning_thresh = 4;
module_param_named(cpu_intensive_warning_thresh, wq_cpu_intensive_warning_thresh,
		   uint, 0644);
#endif

static bool wq_debug_force_rr_cpu = IS_ENABLED(CONFIG_DEBUG_WQ_FORCE_RR_CPU);
module_param_named(debug_force_rr_cpu, wq_debug_force_rr_cpu, bool, 0644);

#ifdef WQ_HAS_HISTOGRAMS
/*
 * The histograms' call sites on the path of an item (workqueue_impl.h):
 * empty until kernel/workqueue_hist.c installs its functions at boot, and
 * for good with workqueue.histograms=0, which also turns the key off.
 */
DEFINE_STATIC_KEY_TRUE(wq_hist_on);
DEFINE_STATIC_CALL_NULL(wq_hist_hook_sample, wq_hist_sample_fn);
DEFINE_STATIC_CALL_NULL(wq_hist_hook_activated, wq_hist_pwq_fn);
DEFINE_STATIC_CALL_NULL(wq_hist_hook_begin, wq_hist_begin_fn);
DEFINE_STATIC_CALL_NULL(wq_hist_hook_end, wq_hist_end_fn);
DEFINE_STATIC_CALL_NULL(wq_hist_hook_drop, wq_hist_pwq_fn);
DEFINE_STATIC_CALL_NULL(wq_hist_hook_flush, wq_hist_flush_fn);
#endif

#ifdef WQ_HAS_RT_CLASS
/*
 * The SCHED_FIFO priority of every WQ_RT worker (workqueue.rt_prio=, read
 * only after boot).  Kernel code does not pick RT priorities of its own
 * (sched_set_fifo()): the class has one level, the administrator's.  The
 * default is sched_set_fifo_low()'s, 1, above every SCHED_OTHER task and
 * below every RT task that asked for more; RCU's kthreads run at 1 too
 * unless rcutree.kthread_prio says otherwise.
 */
int wq_rt_prio = 1;

static int wq_rt_prio_set(const char *val, const struct kernel_param *kp)
{
	int prio, ret = kstrtoint(val, 0, &prio);

	if (ret)
		return ret;
	if (prio < 1 || prio > MAX_RT_PRIO - 1)
		return -EINVAL;
	*(int *)kp->arg = prio;
	return 0;
}

static const struct kernel_param_ops wq_rt_prio_ops = {
	.set = wq_rt_prio_set,
	.get = param_get_int,
};
module_param_cb(rt_prio, &wq_rt_prio_ops, &wq_rt_prio, 0444);
#endif

static int std_pool_index(struct worker_pool *pool)
{
	return pool->attrs->nice == HIGHPRI_NICE_LEVEL;
}

bool wq_is_ordered(struct workqueue_struct *wq)
{
	return wq->flags & __WQ_ORDERED;
}

/* ------------------------------------------------------------------ */
/* 2. work->data: where an item is, or was                             */
/* ------------------------------------------------------------------ */

/*
 * While an item is queued, work->data holds its pwq, its flush color and
 * the WORK_STRUCT_* flags (PENDING among them).  Once it leaves the queue
 * it holds the ID of the pool it was last on, for flush_work() and
 * non-reentrancy, the disable depth and WORK_OFFQ_BH.  The layout is that
 * of <linux/workqueue.h>.
 */

static unsigned long work_data(struct work_struct *work)
{
	return atomic_long_read(&work->data);
}

static unsigned int data_color(unsigned long data)
{
	return (data >> WORK_STRUCT_COLOR_SHIFT) &
	       ((1 << WORK_STRUCT_COLOR_BITS) - 1);
}

static unsigned long color_data(unsigned int color)
{
	return (unsigned long)color << WORK_STRUCT_COLOR_SHIFT;
}

/* The flush color that closing number @seq + 1 closes (see section 10). */
static unsigned int seq_color(unsigned long seq)
{
	return seq % NR_FLUSH_COLORS;
}

static unsigned int data_disable_depth(unsigned long data)
{
	if (data & WORK_STRUCT_PWQ)
		return 0;
	return (data & WORK_OFFQ_DISABLE_MASK) >> WORK_OFFQ_DISABLE_SHIFT;
}

/* Point a queued item at @pwq.  The caller owns PENDING. */
static void set_work_queued(struct work_struct *work, struct pool_workqueue *pwq,
			    unsigned long flags)
{
	atomic_long_set(&work->data, (unsigned long)pwq | flags |
			WORK_STRUCT_PENDING | WORK_STRUCT_PWQ | work_static(work));
}

/*
 * Record that @work is off queue, last on pool @pool_id, with off-queue
 * bits @offq (disable depth, BH); PENDING is set only if @pending.
 */
static void set_work_off_queue(struct work_struct *work, int pool_id,
			       unsigned long offq, bool pending)
{
	unsigned long data = ((unsigned long)pool_id << WORK_OFFQ_POOL_SHIFT) |
			     offq | work_static(work);

	if (!pending) {
		/*
		 * Clearing PENDING hands the item to whoever sets it next:
		 * what we wrote to it (its list entry, say) must be visible
		 * to them first. Pairs with the full barrier of
		 * test_and_set_bit() in claim_work().
		 */
		smp_wmb();
	}
	atomic_long_set(&work->data, pending ? data | WORK_STRUCT_PENDING : data);
}

/* The off-queue bits to keep when an item leaves @pool. */
static unsigned long pool_offq_bits(struct worker_pool *pool)
{
	return (pool->flags & POOL_BH) ? WORK_OFFQ_BH : 0;
}

/**
 * get_work_pwq - the pwq a queued item points at
 * @work: the item
 *
 * Return: the pwq, or %NULL if @work is not queued.
 */
struct pool_workqueue *get_work_pwq(struct work_struct *work)
{
	unsigned long data = work_data(work);

	if (!(data & WORK_STRUCT_PWQ))
		return NULL;
	return (struct pool_workqueue *)(data & WORK_STRUCT_PWQ_MASK);
}

/**
 * get_work_pool - the pool an item is on or was last on
 * @work: the item
 *
 * Context: RCU read lock or wq_pool_mutex; the pool stays valid as long.
 * Return: the pool, or %NULL if @work has never been queued.
 */
static struct worker_pool *get_work_pool(struct work_struct *work)
{
	unsigned long data = work_data(work);
	unsigned long id;

	wq_assert_R();
	if (data & WORK_STRUCT_PWQ)
		return ((struct pool_workqueue *)(data & WORK_STRUCT_PWQ_MASK))->pool;
	id = data >> WORK_OFFQ_POOL_SHIFT;
	if (id == WORK_OFFQ_POOL_NONE)
		return NULL;
	return idr_find(&worker_pool_idr, id);
}

static int work_last_pool_id(struct work_struct *work)
{
	unsigned long data = work_data(work);

	if (data & WORK_STRUCT_PWQ)
		return get_work_pwq(work)->pool->id;
	return data >> WORK_OFFQ_POOL_SHIFT;
}

/* ------------------------------------------------------------------ */
/* 3. debugobjects                                                     */
/* ------------------------------------------------------------------ */

#ifndef CONFIG_DEBUG_OBJECTS_WORK
static inline void debug_work_activate(struct work_struct *work) { }
static inline void debug_work_deactivate(struct work_struct *work) { }
#else

static const struct debug_obj_descr work_debug_descr;

/* debugobjects names an item by its function */
static void *work_debug_hint(void *addr)
{
	const struct work_struct *work = addr;

	return work->func;
}

/* DECLARE_WORK() items are set up statically, with WORK_STRUCT_STATIC */
static bool work_is_static_object(void *addr)
{
	return work_static(addr);
}

/* An active item is initialised or freed: cancel it, then do as asked. */
static bool work_fixup_active(void *addr, enum debug_obj_state state,
			      void (*redo)(void *addr,
					   const struct debug_obj_descr *d))
{
	if (state != ODEBUG_STATE_ACTIVE)
		return false;
	cancel_work_sync(addr);
	redo(addr, &work_debug_descr);
	return true;
}

static bool work_fixup_init(void *addr, enum debug_obj_state state)
{
	return work_fixup_active(addr, state, debug_object_init);
}

static bool work_fixup_free(void *addr, enum debug_obj_state state)
{
	return work_fixup_active(addr, state, debug_object_free);
}

static const struct debug_obj_descr work_debug_descr = {
	.name = "work_struct", .debug_hint = work_debug_hint,
	.is_static_object = work_is_static_object,
	.fixup_init = work_fixup_init, .fixup_free = work_fixup_free,
};

static void debug_work_activate(struct work_struct *work)
{
	debug_object_activate(work, &work_debug_descr);
}

static void debug_work_deactivate(struct work_struct *work)
{
	debug_object_deactivate(work, &work_debug_descr);
}

/**
 * destroy_delayed_work_on_stack - end the life of an on-stack delayed item
 * @dwork: the item, idle
 *
 * Context: any.
 */
void destroy_delayed_work_on_stack(struct delayed_work *dwork)
{
	destroy_work_on_stack(&dwork->work);
	destroy_timer_on_stack(&dwork->timer);
}
EXPORT_SYMBOL_GPL(destroy_delayed_work_on_stack);

/**
 * __init_work - tell debugobjects about a new work item
 * @work: the item
 * @onstack: whether it lives on the stack
 *
 * Context: any.
 */
void __init_work(struct work_struct *work, int onstack)
{
	void (*init)(void *addr, const struct debug_obj_descr *descr) =
		onstack ? debug_object_init_on_stack : debug_object_init;

	init(work, &work_debug_descr);
}
EXPORT_SYMBOL_GPL(__init_work);

/**
 * destroy_work_on_stack - end the life of an on-stack work item
 * @work: the item, idle
 *
 * Context: any.
 */
void destroy_work_on_stack(struct work_struct *work)
{
	debug_object_free(work, &work_debug_descr);
}
EXPORT_SYMBOL_GPL(destroy_work_on_stack);

#endif /* CONFIG_DEBUG_OBJECTS_WORK */

/* ------------------------------------------------------------------ */
/* 4. concurrency accounting and waking workers                        */
/* ------------------------------------------------------------------ */

/* Whether @worker counts in its pool's nr_running. */
static bool worker_counts(struct worker *worker)
{
	return !(worker->flags & WORKER_NOT_RUNNING) && !worker->sleeping;
}

/**
 * worker_set_flags_locked - set worker flags, keeping nr_running right
 * @worker: the worker
 * @flags: WORKER_* to set
 *
 * Context: pool->lock (P) of the worker's pool.
 */
static void worker_set_flags_locked(struct worker *worker, unsigned int flags)
{
	struct worker_pool *pool = worker->pool;

	wq_assert_P(pool);
	if (worker_counts(worker) && (flags & WORKER_NOT_RUNNING))
		pool->nr_running--;
	worker->flags |= flags;
}

/**
 * worker_clr_flags_locked - clear worker flags, keeping nr_running right
 * @worker: the worker
 * @flags: WORKER_* to clear
 *
 * Context: pool->lock (P) of the worker's pool.
 */
static void worker_clr_flags_locked(struct worker *worker, unsigned int flags)
{
	struct worker_pool *pool = worker->pool;
	bool counted = worker_counts(worker);

	wq_assert_P(pool);
	worker->flags &= ~flags;
	if (!counted && worker_counts(worker))
		pool->nr_running++;
}

/* Items wait and nobody runs: the pool needs a(nother) worker. */
static bool pool_needs_worker(struct worker_pool *pool)
{
	return !list_empty(&pool->worklist) && !pool->nr_running;
}

/* A worker may go on taking items while at most it runs. */
static bool pool_keep_working(struct worker_pool *pool)
{
	return !list_empty(&pool->worklist) && pool->nr_running <= 1;
}

/* The pool has work but no idle worker left to take over. */
static bool pool_must_create(struct worker_pool *pool)
{
	return pool_needs_worker(pool) && !pool->nr_idle;
}

static struct irq_work *bh_pool_irq_work(struct worker_pool *pool)
{
	return &per_cpu(bh_pool_irq_works, pool->cpu)[std_pool_index(pool)];
}

static void raise_bh_softirq(struct worker_pool *pool)
{
	raise_softirq_irqoff(std_pool_index(pool) ? HI_SOFTIRQ : TASKLET_SOFTIRQ);
}

/* Runs on the BH pool's CPU: hardirq, or the irq_work thread on RT. */
static void bh_pool_irq_work_fn(struct irq_work *iw)
{
	bool highpri = iw == &per_cpu(bh_pool_irq_works, smp_processor_id())[1];

	/* on PREEMPT_RT irq_works run in a thread, interrupts on */
	raise_softirq(highpri ? HI_SOFTIRQ : TASKLET_SOFTIRQ);
}

/*
 * Have the softirq of a BH pool's CPU run its items: raised here, or on
 * another CPU by an IPI (irq_work) for as long as that CPU is online.
 * Interrupts are off, so it cannot go offline in between: stop_machine()
 * waits for us.  The items of an offline CPU's pool wait for
 * workqueue_softirq_dead() (a CPU going down) or workqueue_online_cpu().
 *
 * Context: pool->lock (P).
 */
static void kick_bh_pool(struct worker_pool *pool)
{
	if (pool->cpu == smp_processor_id())
		raise_bh_softirq(pool);
	else if (IS_ENABLED(CONFIG_SMP) && cpu_online(pool->cpu))
		irq_work_queue_on(bh_pool_irq_work(pool), pool->cpu);
}

/**
 * kick_bh_pools - run what waits on a CPU's BH pools
 * @cpu: the CPU, online
 *
 * Context: process context.
 */
void kick_bh_pools(int cpu)
{
	struct worker_pool *pools = per_cpu(bh_worker_pools, cpu);
	int i;

	for (i = 0; i < NR_STD_WORKER_POOLS; i++) {
		raw_spin_lock_irq(&pools[i].lock);
		if (!list_empty(&pools[i].worklist))
			kick_bh_pool(&pools[i]);
		raw_spin_unlock_irq(&pools[i].lock);
	}
}

/*
 * Point an unbound worker about to wake at a CPU of its pool's pod.
 * Context: pool->lock (P).
 */
static void repatriate_worker_locked(struct worker_pool *pool,
				     struct worker *worker)
{
#ifdef CONFIG_SMP
	struct task_struct *p = worker->task;
	const struct cpumask *pod = pool->attrs->__pod_cpumask;
	struct pool_workqueue *pwq;
	struct work_struct *work;

	wq_assert_P(pool);
	if (pool->cpu >= 0 || pool->attrs->affn_strict ||
	    cpumask_test_cpu(p->wake_cpu, pod))
		return;
	if (!cpumask_intersects(pod, cpu_online_mask))
		return;
	p->wake_cpu = cpumask_any_and_distribute(pod, cpu_online_mask);
	/* counted for the workqueue of the item it is woken for */
	work = list_first_entry_or_null(&pool->worklist, struct work_struct, entry);
	pwq = work ? get_work_pwq(work) : NULL;
	if (pwq)
		pwq->stats[PWQ_STAT_REPATRIATED]++;
#endif
}

/**
 * __kick_pool_locked - wake an idle worker if the pool needs one
 * @pool: the pool
 * @later: where to leave the worker's task for the caller to wake once it
 *	has dropped the pool lock, or %NULL to wake it now
 *
 * A task's memory outlives its exit by an RCU grace period
 * (delayed_put_task_struct()), and a worker exits only after it left the
 * idle list under P: a caller that wakes *@later before it leaves the RCU
 * read-side section it held P in wakes a task that still exists.  By then
 * the worker may have left the idle list, or come back to it: a wakeup it
 * did not need, after which worker_thread() finds the pool as it is and
 * sleeps again.
 *
 * Context: pool->lock (P).
 * Return: whether a worker (or the softirq of a BH pool) was, or is to
 * be, woken.
 */
static __always_inline bool __kick_pool_locked(struct worker_pool *pool,
					       struct task_struct **later)
{
	struct worker *worker;

	wq_assert_P(pool);
	if (!pool_needs_worker(pool))
		return false;
	if (pool->flags & POOL_BH) {
		kick_bh_pool(pool);
		return true;
	}
	worker = list_first_entry_or_null(&pool->idle_list, struct worker, entry);
	if (!worker)
		return false;
	repatriate_worker_locked(pool, worker);
	if (later)
		*later = worker->task;
	else
		wake_up_process(worker->task);
	return true;
}

/*
 * Wake an idle worker if the pool needs one, at once.  Context: P.
 * Return: as __kick_pool_locked().
 */
static bool kick_pool_locked(struct worker_pool *pool)
{
	wq_assert_P(pool);
	return __kick_pool_locked(pool, NULL);
}

/* ------------------------------------------------------------------ */
/* 5. pools and workers: setup, binding, idleness, culling, managing  */
/* ------------------------------------------------------------------ */

static int worker_thread(void *arg);

/**
 * pool_allowed_cpus - where a pool's workers may run
 * @pool: the pool
 *
 * Return: the pool's CPU, its pod for strict unbound pools, else its
 * cpumask.
 */
const struct cpumask *pool_allowed_cpus(struct worker_pool *pool)
{
	if (pool->cpu < 0 && pool->attrs->affn_strict)
		return pool->attrs->__pod_cpumask;
	return pool->attrs->cpumask;
}

static struct worker *alloc_worker(int node)
{
	struct worker *worker = kzalloc_node(sizeof(*worker), GFP_KERNEL, node);

	if (!worker)
		return NULL;
	INIT_LIST_HEAD(&worker->entry);
	INIT_LIST_HEAD(&worker->scheduled);
	INIT_LIST_HEAD(&worker->node);
#ifdef WQ_HAS_WAIT_PI
	INIT_LIST_HEAD(&worker->rank_node);
#endif
	/* not counted for concurrency until it starts processing */
	worker->flags = WORKER_PREP;
	return worker;
}

/* Pin @worker's task where @pool wants it. */
static void worker_set_affinity(struct worker *worker, struct worker_pool *pool,
				bool started)
{
	/* a per-CPU pool whose CPU is down runs its workers anywhere */
	bool cpu_down = pool->cpu >= 0 && (pool->flags & POOL_DISASSOCIATED);
	const struct cpumask *mask = cpu_down ? wq_unbound_cpumask :
						pool_allowed_cpus(pool);

	wq_assert_A();
	/*
	 * A started task (a rescuer) is a per-CPU kthread before it asks
	 * for the CPU: the scheduler lets only those onto a CPU that is going
	 * down (online, no longer active), and a rescuer attaching to that
	 * CPU's pool before the pool is disassociated would otherwise be
	 * refused the CPU and run the pool's items elsewhere.
	 */
	if (started) {
		kthread_set_per_cpu(worker->task, cpu_down ? -1 : pool->cpu);
		set_cpus_allowed_ptr(worker->task, mask);
	} else {
		/* binding makes it a kthread whose affinity is ours to set */
		kthread_bind_mask(worker->task, mask);
		kthread_set_per_cpu(worker->task, cpu_down ? -1 : pool->cpu);
	}
}

/**
 * worker_attach_to_pool - make @worker one of @pool's workers
 * @worker: a new worker (not started yet) or a rescuer
 * @pool: the pool
 *
 * Context: process context; takes wq_pool_attach_mutex (A).
 */
static void worker_attach_to_pool(struct worker *worker, struct worker_pool *pool)
{
	mutex_lock(&wq_pool_attach_mutex);
	/* unbound pools, and per-CPU ones whose CPU is down */
	if (pool->flags & POOL_DISASSOCIATED)
		worker->flags |= WORKER_UNBOUND;
	if (worker->task && !(pool->flags & POOL_BH))
		worker_set_affinity(worker, pool, worker->rescue_wq);
	list_add_tail(&worker->node, &pool->workers);
	worker->pool = pool;
	mutex_unlock(&wq_pool_attach_mutex);
}

/*
 * Let @worker's task run where unbound work may run (on every CPU if none
 * of those is active), no longer pinned to its pool's CPUs.
 * Context: wq_pool_attach_mutex (A).
 */
static void unpin_worker_locked(struct worker *worker)
{
	wq_assert_A();
	kthread_set_per_cpu(worker->task, -1);
	set_cpus_allowed_ptr(worker->task,
			     cpumask_intersects(wq_unbound_cpumask, cpu_active_mask) ?
			     wq_unbound_cpumask : cpu_possible_mask);
}

/**
 * worker_detach_from_pool - undo worker_attach_to_pool()
 * @worker: a rescuer between pools, or a retired worker whose thread has
 *	    exited (reap_dying_workers())
 *
 * Context: process context; takes wq_pool_attach_mutex (A).
 */
static void worker_detach_from_pool(struct worker *worker)
{
	mutex_lock(&wq_pool_attach_mutex);
	/* a retired worker's thread is gone: nothing to unpin */
	if (worker->task && !(worker->flags & WORKER_DIE))
		kthread_set_per_cpu(worker->task, -1);
	/*
	 * A rescuer between pools waits where unbound work may run, not on
	 * the CPUs of the pool it last served (an isolated CPU, say).
	 */
	if (worker->rescue_wq)
		unpin_worker_locked(worker);
	list_del_init(&worker->node);
	worker->pool = NULL;
	worker->flags &= ~(WORKER_UNBOUND | WORKER_REBOUND);
	mutex_unlock(&wq_pool_attach_mutex);
	wake_up_all(&wq_detach_wait);
}

#ifdef CONFIG_SMP
/*
 * The pool's CPU is going down: its workers run on, unbound and out of
 * concurrency management, so that nothing queued there is stuck.
 */
void unbind_workers_locked(struct worker_pool *pool)
{
	struct worker *worker;

	wq_assert_A();
	raw_spin_lock_irq(&pool->lock);
	list_for_each_entry(worker, &pool->workers, node)
		worker->flags |= WORKER_UNBOUND;
	pool->flags |= POOL_DISASSOCIATED;
	pool->nr_running = 0;
	kick_pool_locked(pool);
	raw_spin_unlock_irq(&pool->lock);

	list_for_each_entry(worker, &pool->workers, node) {
		kthread_set_per_cpu(worker->task, -1);
		set_cpus_allowed_ptr(worker->task, wq_unbound_cpumask);
	}
}

/*
 * The pool's CPU is back: bind the workers to it again.  They count for
 * concurrency again once they next start processing (WORKER_REBOUND).
 */
void rebind_workers_locked(struct worker_pool *pool)
{
	struct worker *worker;

	wq_assert_A();
	list_for_each_entry(worker, &pool->workers, node) {
		kthread_set_per_cpu(worker->task, pool->cpu);
		WARN_ON_ONCE(set_cpus_allowed_ptr(worker->task,
						  pool_allowed_cpus(pool)) < 0);
	}
	raw_spin_lock_irq(&pool->lock);
	pool->flags &= ~POOL_DISASSOCIATED;
	list_for_each_entry(worker, &pool->workers, node) {
		if (!(worker->flags & WORKER_UNBOUND))
			continue;
		worker_set_flags_locked(worker, WORKER_REBOUND);
		worker->flags &= ~WORKER_UNBOUND;
	}
	raw_spin_unlock_irq(&pool->lock);
}
#endif /* CONFIG_SMP */

static bool pool_has_too_many_idle(struct worker_pool *pool)
{
	int busy = pool->nr_workers - pool->nr_idle;

	return pool->nr_idle > IDLE_WORKERS_KEPT &&
	       (pool->nr_idle - IDLE_WORKERS_KEPT) * 4 >= busy;
}

/* Culling may be due once the idle timeout passes. */
static void arm_idle_timer_locked(struct worker_pool *pool)
{
	wq_assert_P(pool);
	if (pool_has_too_many_idle(pool) && !timer_pending(&pool->idle_timer))
		mod_timer(&pool->idle_timer, jiffies + IDLE_WORKER_TIMEOUT);
}

#ifdef WQ_HAS_WAIT_PI
static bool worker_update_rank_locked(struct worker *worker);
#endif

/**
 * worker_enter_idle_locked - put a worker on its pool's idle list
 * @worker: the worker
 *
 * Context: pool->lock (P).
 */
static void worker_enter_idle_locked(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;

	wq_assert_P(pool);
	if (WARN_ON_ONCE((worker->flags & WORKER_IDLE) ||
			 !list_empty(&worker->entry)))
		return;
#ifdef WQ_HAS_WAIT_PI
	/* raised for an item another worker took (lend_to_waking_locked()) */
	if (unlikely(worker->boosted))
		WARN_ON_ONCE(worker_update_rank_locked(worker));
#endif
	/* LIFO: the most recently busy worker is woken first */
	list_add(&worker->entry, &pool->idle_list);
	worker->last_active = jiffies;
	worker_set_flags_locked(worker, WORKER_IDLE);
	if (++pool->nr_idle > IDLE_WORKERS_KEPT)
		arm_idle_timer_locked(pool);
	/* all workers idle: none may count as running */
	WARN_ON_ONCE(pool->nr_workers == pool->nr_idle && pool->nr_running);
}

/**
 * worker_leave_idle_locked - take a worker off the idle list
 * @worker: the worker
 *
 * Context: pool->lock (P).
 */
static void worker_leave_idle_locked(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;

	wq_assert_P(pool);
	if (WARN_ON_ONCE(!(worker->flags & WORKER_IDLE)))
		return;
	worker_clr_flags_locked(worker, WORKER_IDLE);
	pool->nr_idle--;
	list_del_init(&worker->entry);
}

/*
 * A flush_workqueue() caller, waiting until flushed_seq reaches @seq
 * (section 10).
 */
struct flush_waiter {
	struct list_head node;
	unsigned long seq;
	struct completion done;
#ifdef WQ_HAS_WAIT_PI
	/* lent to the workqueue's items meanwhile (section 6) */
	int rank;
	struct list_head lend_node;
#endif
};

/**
 * struct wq_barrier - a flush_work() barrier and its waiter
 * @work: queued right behind the awaited item (or first on the worker
 *	running it); running it lets the waiter go
 * @done: set when it ran; the waiter may return from then on
 * @task: the waiting task (I)
 * @pwq: the pwq the barrier is queued on, the awaited item's (I)
 * @raised: the waiter, itself a worker waiting here, was raised and is to
 *	pass the raise on to @target's worker (P of the waiter's pool)
 * @target: the awaited item (I)
 * @target_func: its function when the barrier was queued (I)
 * @rank: the rank the waiter lends (P of @target's pool)
 * @ahead: @target waited behind max_active when the loan began: it goes to
 *	every item of @pwq that runs until the barrier does, as on an
 *	ordered workqueue, and @target keeps its place in line (P)
 * @apply: the loan decided ranks for other tasks, to be applied once the
 *	pool lock is dropped (wq_apply_ranks()) (X of the waiter)
 * @boost_node: on the target pwq's boosters list while the loan lasts (P)
 * @since: when the wait began, for the histograms (I)
 */
struct wq_barrier {
	struct work_struct	work;
	bool			done;
	struct task_struct	*task;
	struct pool_workqueue	*pwq;
#ifdef WQ_HAS_WAIT_PI
	bool			raised;
	struct work_struct	*target;
	work_func_t		target_func;
	int			rank;
	bool			ahead;
	bool			apply;
	struct list_head	boost_node;
#endif
#ifdef WQ_HAS_HISTOGRAMS
	u64			since;
#endif
};

static void wq_barrier_func(struct work_struct *work);

/* flush_work()'s barriers ride along with their target and need no slot */
static bool work_is_barrier(struct work_struct *work)
{
	return work->func == wq_barrier_func;
}

/*
 * Scheduling ranks: a priority as one number, nice 19..-20 as 0..39 and
 * SCHED_FIFO or SCHED_RR priority p as 40 + p.
 */
#ifdef WQ_HAS_WAIT_PI
#define WQ_NO_RANK	(-1)

static int rank_of(int policy, int rt_priority, int nice)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return NICE_WIDTH + rt_priority;
	if (policy == SCHED_NORMAL || policy == SCHED_BATCH)
		return MAX_NICE - nice;
	return WQ_NO_RANK;
}

static int task_rank(struct task_struct *p)
{
	return rank_of(p->policy, p->rt_priority, task_nice(p));
}
#endif

/* The rank a worker of @pool has of its own (a rescuer's may be higher). */
static int pool_rank(struct worker_pool *pool)
{
#ifdef WQ_HAS_RT_CLASS
	if (pool_is_rt(pool))
		return NICE_WIDTH + wq_rt_prio;
#endif
	return MAX_NICE - pool->attrs->nice;
}

static int worker_own_rank(struct worker *worker)
{
	int rank = pool_rank(worker->pool);

	if (worker->rescue_wq)
		rank = max(rank, MAX_NICE - RESCUER_NICE_LEVEL);
	return rank;
}

/*
 * Give @task the scheduling of @rank: above NICE_WIDTH SCHED_RR if @rr
 * (the real-time class's own workers: equal-priority items take turns
 * once one of them hogs its CPU), else SCHED_FIFO; SCHED_NORMAL at the
 * matching nice level below.
 *
 * Context: a task that is not %current: process context, no spinlock
 * held.  sched_setattr_nocheck() walks the rt_mutex chain of a task
 * blocked on one (rt_mutex_adjust_pi()), and that walk turns interrupts
 * back on.  %current itself is not blocked on anything, so the walk ends
 * at once, and what is left takes its pi_lock and runqueue lock as a
 * wakeup does: %current may change its own rank under P.
 */
static void task_set_rank(struct task_struct *task, int rank, bool rr)
{
	bool rt = rank > NICE_WIDTH;
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = !rt ? SCHED_NORMAL : rr ? SCHED_RR : SCHED_FIFO,
		.sched_priority = rt ? rank - NICE_WIDTH : 0,
		.sched_nice = rt ? 0 : MAX_NICE - rank,
	};

	WARN_ON_ONCE(sched_setattr_nocheck(task, &attr));
}

#ifdef WQ_HAS_WAIT_PI
/*
 * Ranks decided under a pool lock for another task are applied after it
 * is dropped.  The decider (under P) writes the rank into the worker's
 * @rank_want and puts the worker on wq_rank_pending (Q); once it has
 * dropped P it calls wq_apply_ranks(), which, one applier at a time (G),
 * takes workers off the list and gives their tasks the rank they want
 * at that moment.  A later decision puts the worker back on the list,
 * so the last rank decided is the last applied: a stale one never
 * sticks.  A worker's own decisions for itself are applied at once; if
 * an applier is busy with that worker meanwhile, the worker goes back
 * on the list, so that the applier, which empties it, applies the newer
 * rank after its older one.
 */
static DEFINE_RAW_SPINLOCK(wq_rank_lock);	/* Q */
static DEFINE_MUTEX(wq_rank_mutex);		/* G */
static LIST_HEAD(wq_rank_pending);		/* Q */
static struct worker *wq_rank_applying;		/* Q */

/**
 * worker_set_rank - decide the rank of a worker's task
 * @worker: the worker
 * @rank: the rank
 *
 * Its own rank is SCHED_RR where it is real-time, a loan SCHED_FIFO (the
 * lender's policy).
 *
 * Context: P of @worker's pool, or the worker itself (a rescuer between
 * pools, X).
 * Return: %true if the rank waits for wq_apply_ranks(), which the caller
 * is to call once it holds no spinlock; %false if it is applied.
 */
static bool worker_set_rank(struct worker *worker, int rank)
{
	bool self = worker->task == current;
	/* a rescuer between pools (none) ranks as a rescuer, below RT */
	bool rr = worker->pool && rank == worker_own_rank(worker);
	unsigned long flags;

	raw_spin_lock_irqsave(&wq_rank_lock, flags);
	worker->rank_want = rank;
	worker->rank_rr = rr;
	if ((!self || wq_rank_applying == worker) &&
	    list_empty(&worker->rank_node))
		list_add_tail(&worker->rank_node, &wq_rank_pending);
	raw_spin_unlock_irqrestore(&wq_rank_lock, flags);
	if (self)
		task_set_rank(worker->task, rank, rr);
	return !self;
}

/**
 * wq_apply_ranks - give the tasks of workers the ranks decided for them
 *
 * Context: process context, may sleep; no workqueue lock held.
 */
static void wq_apply_ranks(void)
{
	struct task_struct *task;
	struct worker *worker;
	bool rr;
	int rank;

	might_sleep();
	guard(mutex)(&wq_rank_mutex);
	for (;;) {
		scoped_guard(raw_spinlock_irq, &wq_rank_lock) {
			worker = list_first_entry_or_null(&wq_rank_pending,
							  struct worker, rank_node);
			if (worker) {
				list_del_init(&worker->rank_node);
				task = get_task_struct(worker->task);
				rank = worker->rank_want;
				rr = worker->rank_rr;
			}
			wq_rank_applying = worker;
		}
		if (!worker)
			return;
		task_set_rank(task, rank, rr);
		put_task_struct(task);
	}
}

/**
 * worker_forget_rank - a worker about to be freed leaves the appliers
 * @worker: a worker no rank is decided for any more (retired, or a
 *	rescuer whose thread has stopped)
 *
 * Context: process context, may sleep; no workqueue lock held.
 */
static void worker_forget_rank(struct worker *worker)
{
	scoped_guard(raw_spinlock_irq, &wq_rank_lock)
		list_del_init(&worker->rank_node);
	/* an applier that took it off the list before is done with it */
	mutex_lock(&wq_rank_mutex);
	mutex_unlock(&wq_rank_mutex);
}
#endif

/*
 * Worker names and the faults of worker creation, for tests: the names
 * ps shows, and the switches that make creating a worker fail.
 */
/**
 * format_worker_id - a worker's name as ps shows it
 * @buf: where to write
 * @size: size of @buf
 * @worker: the worker
 * @pool: its pool, %NULL for a rescuer or a detached worker
 *
 * kworker/CPU:ID (H for high priority, R for the RT class) for per-CPU
 * pools, kworker/uPOOL:ID (R for the RT class) for unbound pools,
 * kworker/R-WQ for rescuers.
 *
 * Return: the length written.
 */
int format_worker_id(char *buf, size_t size, struct worker *worker,
		     struct worker_pool *pool)
{
	if (worker->rescue_wq)
		return scnprintf(buf, size, "kworker/R-%s", worker->rescue_wq->name);
	if (!pool)
		return scnprintf(buf, size, "kworker/dying");
	/* suffixes: H for the highpri pools, R for the RT class (not 6.12's) */
	if (pool->cpu >= 0)
		return scnprintf(buf, size, "kworker/%d:%d%s", pool->cpu, worker->id,
				 pool_is_rt(pool) ? "R" :
				 pool->attrs->nice < 0 ? "H" : "");
	return scnprintf(buf, size, "kworker/u%d:%d%s", pool->id, worker->id,
			 pool_is_rt(pool) ? "R" : "");
}

static bool wq_fail_creation;

/**
 * wq_fail_worker_creation - make creating workers fail, for tests
 * @fail: whether every new worker fails until this is called with %false
 *
 * Lets a test show that WQ_MEM_RECLAIM workqueues make progress through
 * their rescuers when pools cannot grow (KUnit; kernel/workqueue_test.h).
 *
 * Context: any.
 */
void wq_fail_worker_creation(bool fail)
{
	WRITE_ONCE(wq_fail_creation, fail);
}

/* Whether to fail this worker creation: while the fault is on. */
static bool wq_fail_worker_creation_now(void)
{
	return READ_ONCE(wq_fail_creation);
}

#ifdef CONFIG_FAULT_INJECTION
static struct fault_attr wq_fail_growth = FAULT_ATTR_INITIALIZER;
#endif
static atomic_t wq_growth_faults;

/**
 * wq_fail_pool_growth_now - whether a manager's new worker fails, at random
 *
 * The fault-injection point "fail_pool_growth" (probability, interval,
 * times... under /sys/kernel/debug/workqueue/fail_pool_growth/; off
 * until set): a pool that needs one more worker does not get it this
 * time, and retries after its cooldown while the rescuers help, as when
 * memory is short.  Only the growth of pools in use: a CPU coming online
 * or a new unbound pool still gets its first worker.  Failures are
 * counted in /sys/kernel/debug/workqueue/pool_growth_faults.
 *
 * Context: any.
 * Return: %true to fail this creation.
 */
static bool wq_fail_pool_growth_now(void)
{
#ifdef CONFIG_FAULT_INJECTION
	if (should_fail_ex(&wq_fail_growth, 1, FAULT_NOWARN)) {
		atomic_inc(&wq_growth_faults);
		return true;
	}
#endif
	return false;
}

/**
 * wq_faults_debugfs_init - the fault-injection files of worker creation
 * @dir: /sys/kernel/debug/workqueue/
 *
 * Context: boot, after debugfs is up.
 */
void __init wq_faults_debugfs_init(struct dentry *dir)
{
	debugfs_create_atomic_t("pool_growth_faults", 0400, dir, &wq_growth_faults);
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	fault_create_debugfs_attr("fail_pool_growth", dir, &wq_fail_growth);
#endif
}

/**
 * create_worker - start a new idle worker in @pool
 * @pool: the pool
 *
 * Context: process context, may sleep; no locks held.
 * Return: 0, or -errno if no worker could be created.
 */
int create_worker(struct worker_pool *pool)
{
	char name[WORKER_ID_LEN];
	struct worker *worker;
	int id, ret = -ENOMEM;

	id = ida_alloc(&pool->worker_ida, GFP_KERNEL);
	if (id < 0)
		return id;
	worker = alloc_worker(pool->node);
	if (!worker)
		goto err_id;
	worker->id = id;
	if (wq_fail_worker_creation_now()) {
		ret = -EAGAIN;
		goto err_free;
	}
	format_worker_id(name, sizeof(name), worker, pool);
	worker->task = kthread_create_on_node(worker_thread, worker, pool->node,
					      "%s", name);
	if (IS_ERR(worker->task)) {
		ret = PTR_ERR(worker->task);
		if (ret == -EINTR)
			pr_err("workqueue: interrupted while creating a worker\n");
		else
			pr_err_once("workqueue: cannot create worker: %d\n", ret);
		goto err_free;
	}
	worker->rank = pool_rank(pool);
	task_set_rank(worker->task, worker->rank, true);
	worker_attach_to_pool(worker, pool);

	raw_spin_lock_irq(&pool->lock);
	pool->nr_workers++;
	worker_enter_idle_locked(worker);
	/* it starts, finds the pool needs nothing (or something) and idles */
	wake_up_process(worker->task);
	raw_spin_unlock_irq(&pool->lock);
	return 0;

err_free:
	kfree(worker);
err_id:
	ida_free(&pool->worker_ida, id);
	return ret;
}

/**
 * populate_pool - give a pool the workers it starts with
 * @pool: the pool
 *
 * One worker, and in a real-time pool a second one in reserve.  A worker
 * is made by kthreadd, a nice-0 task that CPU hogs hold back for up to a
 * slice, and the worker of a pool's first item makes a replacement before
 * it starts that item (worker_run_locked()): a real-time item must not
 * wait for kthreadd the first time its CPU's pool is used.  Two is what a
 * first item leaves in any pool, and what idle culling keeps.  The
 * reserve is made on a best-effort basis: without it, the pool makes one
 * when its first item starts, as any pool does.
 *
 * Context: process context, may sleep; as create_worker().
 * Return: 0, or the error of creating the pool's first worker.
 */
int populate_pool(struct worker_pool *pool)
{
	int want = pool_is_rt(pool) ? IDLE_WORKERS_KEPT : 1;
	int have, ret;

	for (;;) {
		scoped_guard(raw_spinlock_irq, &pool->lock)
			have = pool->nr_workers;
		if (have >= want)
			return 0;
		ret = create_worker(pool);
		if (ret)
			return have ? 0 : ret;
	}
}

/**
 * retire_worker_locked - take an idle worker off duty for good
 * @worker: the idle worker
 * @dying: list to put it on; reap_dying_workers() ends it
 *
 * Context: pool->lock (P).
 */
static void retire_worker_locked(struct worker *worker, struct list_head *dying)
{
	struct worker_pool *pool = worker->pool;

	wq_assert_P(pool);
	if (WARN_ON_ONCE(worker->current_work || !list_empty(&worker->scheduled) ||
			 !(worker->flags & WORKER_IDLE)))
		return;
	/* the task may exit as soon as it sees WORKER_DIE: keep it */
	get_task_struct(worker->task);
	worker->flags |= WORKER_DIE;
	list_move(&worker->entry, dying);
	pool->nr_idle--;
	pool->nr_workers--;
}

/*
 * Stop the threads of retired workers, take them off their pool and free
 * them.  The detaching is done here, not by the thread: a worker retired
 * before its thread first ran never enters worker_thread(), since
 * kthread_stop() makes kthread() skip the thread function.
 */
static void reap_dying_workers(struct list_head *dying)
{
	struct worker *worker;

	while ((worker = list_first_entry_or_null(dying, struct worker, entry))) {
		list_del_init(&worker->entry);
		/* it exits where unbound work runs, not on an isolated CPU */
		mutex_lock(&wq_pool_attach_mutex);
		unpin_worker_locked(worker);
		mutex_unlock(&wq_pool_attach_mutex);
		kthread_stop(worker->task);
		ida_free(&worker->pool->worker_ida, worker->id);
		worker_detach_from_pool(worker);
#ifdef WQ_HAS_WAIT_PI
		worker_forget_rank(worker);
#endif
		put_task_struct(worker->task);
		kfree(worker);
	}
}

/**
 * retire_pool_workers - end every worker of an unbound pool being destroyed
 * @pool: the pool, with nothing queued
 *
 * Context: process context, wq_pool_mutex (L).
 */
static void retire_pool_workers(struct worker_pool *pool)
{
	struct worker *worker, *tmp;
	LIST_HEAD(dying);

	wq_assert_L();
	/* be the manager, so that nobody creates workers any more */
	raw_spin_lock_irq(&pool->lock);
	while (pool->flags & POOL_MANAGER_ACTIVE) {
		raw_spin_unlock_irq(&pool->lock);
		rcuwait_wait_event(&wq_manager_wait,
				   !(READ_ONCE(pool->flags) & POOL_MANAGER_ACTIVE),
				   TASK_UNINTERRUPTIBLE);
		raw_spin_lock_irq(&pool->lock);
	}
	pool->flags |= POOL_MANAGER_ACTIVE;
	list_for_each_entry_safe(worker, tmp, &pool->idle_list, entry)
		retire_worker_locked(worker, &dying);
	WARN_ON_ONCE(pool->nr_workers || pool->nr_idle);
	raw_spin_unlock_irq(&pool->lock);
	reap_dying_workers(&dying);
	wait_event(wq_detach_wait, list_empty_careful(&pool->workers));
}

static void rcu_free_pool(struct rcu_head *rcu)
{
	struct worker_pool *pool = container_of(rcu, struct worker_pool, rcu);

	ida_destroy(&pool->worker_ida);
	free_workqueue_attrs(pool->attrs);
	kfree(pool);
}

/**
 * put_unbound_pool - drop a reference to an unbound pool
 * @pool: the pool
 *
 * The last reference ends its workers and frees it after RCU.
 *
 * Context: wq_pool_mutex (L), may sleep.
 */
void put_unbound_pool(struct worker_pool *pool)
{
	wq_assert_L();
	if (--pool->refcnt)
		return;
	if (WARN_ON_ONCE(pool->cpu >= 0) ||
	    WARN_ON_ONCE(!list_empty(&pool->worklist)))
		return;
	idr_remove(&worker_pool_idr, pool->id);
	/* out of workqueue_unbound.c's table of shared pools */
	hash_del(&pool->hash_node);
	retire_pool_workers(pool);
	timer_delete_sync(&pool->idle_timer);
	cancel_work_sync(&pool->idle_cull_work);
	timer_delete_sync(&pool->mayday_timer);
	call_rcu(&pool->rcu, rcu_free_pool);
}

/* The idle worker that has been idle longest (the list is LIFO). */
static struct worker *oldest_idle_worker(struct worker_pool *pool)
{
	return list_last_entry(&pool->idle_list, struct worker, entry);
}

/*
 * Retire, oldest first, the idle workers beyond what the pool keeps whose
 * idle time ran out; re-arm the timer for the next one.  Returns the
 * retired workers on @dying.
 */
static void cull_idle_workers_locked(struct worker_pool *pool,
				     struct list_head *dying)
{
	wq_assert_P(pool);
	while (pool_has_too_many_idle(pool)) {
		struct worker *worker = oldest_idle_worker(pool);
		unsigned long due = worker->last_active + IDLE_WORKER_TIMEOUT;

		if (time_before(jiffies, due)) {
			mod_timer(&pool->idle_timer, due);
			break;
		}
		if (!dying)
			break;
		retire_worker_locked(worker, dying);
	}
}

static void idle_timer_fn(struct timer_list *t)
{
	struct worker_pool *pool = from_timer(pool, t, idle_timer);
	bool cull;

	raw_spin_lock_irq(&pool->lock);
	cull_idle_workers_locked(pool, NULL);
	cull = pool_has_too_many_idle(pool) &&
	       !time_before(jiffies, oldest_idle_worker(pool)->last_active +
				      IDLE_WORKER_TIMEOUT);
	raw_spin_unlock_irq(&pool->lock);
	/* stopping threads sleeps: do it in process context */
	if (cull)
		queue_work(system_unbound_wq, &pool->idle_cull_work);
}

static void idle_cull_fn(struct work_struct *work)
{
	struct worker_pool *pool = container_of(work, struct worker_pool,
						idle_cull_work);
	LIST_HEAD(dying);

	raw_spin_lock_irq(&pool->lock);
	cull_idle_workers_locked(pool, &dying);
	raw_spin_unlock_irq(&pool->lock);
	reap_dying_workers(&dying);
}

/**
 * send_mayday_locked - ask the rescuer of @pwq's workqueue for help
 * @pwq: a pwq with items stuck on its pool
 *
 * Context: pool->lock (P) of @pwq's pool.
 */
static void send_mayday_locked(struct pool_workqueue *pwq)
{
	struct workqueue_struct *wq = pwq->wq;

	wq_assert_P(pwq->pool);
	if (!READ_ONCE(wq->rescuer))
		return;
	raw_spin_lock(&wq_mayday_lock);
	/* stop_rescuer() clears it under M before stopping the thread */
	if (wq->rescuer && list_empty(&pwq->mayday_node)) {
		/* the rescuer drops this reference */
		pwq->refcnt++;
		list_add_tail(&pwq->mayday_node, &wq->maydays);
		wake_up_process(wq->rescuer->task);
		pwq->stats[PWQ_STAT_MAYDAY]++;
	}
	raw_spin_unlock(&wq_mayday_lock);
}

static void pool_mayday_timeout(struct timer_list *t)
{
	struct worker_pool *pool = from_timer(pool, t, mayday_timer);
	struct work_struct *work;

	raw_spin_lock_irq(&pool->lock);
	if (pool_must_create(pool)) {
		/* every workqueue with items here may be needed for reclaim */
		list_for_each_entry(work, &pool->worklist, entry)
			send_mayday_locked(get_work_pwq(work));
	}
	raw_spin_unlock_irq(&pool->lock);
	mod_timer(&pool->mayday_timer, jiffies + MAYDAY_INTERVAL);
}

/*
 * Create workers until one is idle in reserve, asking the rescuers for
 * help while that takes long.  Drops pool->lock meanwhile.
 */
static void create_reserve_worker(struct worker_pool *pool)
	__releases(&pool->lock) __acquires(&pool->lock)
{
	bool again;

	do {
		raw_spin_unlock_irq(&pool->lock);
		mod_timer(&pool->mayday_timer, jiffies + MAYDAY_INITIAL_TIMEOUT);
		while (wq_fail_pool_growth_now() || create_worker(pool)) {
			schedule_timeout_interruptible(CREATE_COOLDOWN);
			raw_spin_lock_irq(&pool->lock);
			again = pool_must_create(pool);
			raw_spin_unlock_irq(&pool->lock);
			if (!again)
				break;
		}
		timer_delete_sync(&pool->mayday_timer);
		raw_spin_lock_irq(&pool->lock);
	} while (pool_must_create(pool));
}

/**
 * manage_workers_locked - become the pool's manager and restock it
 * @worker: a worker about to process items while none is idle
 *
 * Context: pool->lock (P); dropped and retaken if it returns true.
 * Return: whether @worker managed (the pool's state must be rechecked).
 */
static bool manage_workers_locked(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;
	bool taken;

	wq_assert_P(pool);
	taken = !pool->manager && !(pool->flags & POOL_MANAGER_ACTIVE);
	if (taken) {
		pool->manager = worker;
		pool->flags |= POOL_MANAGER_ACTIVE;
		create_reserve_worker(pool);
		pool->flags &= ~POOL_MANAGER_ACTIVE;
		pool->manager = NULL;
		rcuwait_wake_up(&wq_manager_wait);
	}
	return taken;
}

/**
 * free_workqueue_attrs - free attributes
 * @attrs: the attributes, or %NULL
 *
 * Context: any.
 */
void free_workqueue_attrs(struct workqueue_attrs *attrs)
{
	if (!attrs)
		return;
	free_cpumask_var(attrs->cpumask);
	free_cpumask_var(attrs->__pod_cpumask);
	kfree(attrs);
}

/**
 * alloc_workqueue_attrs - allocate default attributes
 *
 * Nice 0, every possible CPU, the default affinity scope, not strict.
 *
 * Context: process context, may sleep.
 * Return: the attributes, or %NULL.
 */
struct workqueue_attrs *alloc_workqueue_attrs(void)
{
	struct workqueue_attrs *attrs = kzalloc(sizeof(*attrs), GFP_KERNEL);

	if (!attrs)
		return NULL;
	if (!alloc_cpumask_var(&attrs->cpumask, GFP_KERNEL) ||
	    !alloc_cpumask_var(&attrs->__pod_cpumask, GFP_KERNEL)) {
		free_workqueue_attrs(attrs);
		return NULL;
	}
	cpumask_copy(attrs->cpumask, cpu_possible_mask);
	attrs->affn_scope = WQ_AFFN_DFL;
	return attrs;
}

/**
 * init_worker_pool - set up an empty pool
 * @pool: the pool
 *
 * The pool starts disassociated (no CPU) with one reference.
 *
 * Context: process context, or early boot.
 * Return: 0, or -ENOMEM.
 */
int init_worker_pool(struct worker_pool *pool)
{
	/* no CPU, no node, no ID yet; the creator holds the one reference */
	*pool = (struct worker_pool) {
		.id = -1, .cpu = -1, .node = NUMA_NO_NODE,
		.flags = pool->flags | POOL_DISASSOCIATED,
		.refcnt = 1, .watchdog_ts = jiffies,
	};
	raw_spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->worklist);
	INIT_LIST_HEAD(&pool->idle_list);
	INIT_LIST_HEAD(&pool->workers);
	INIT_HLIST_NODE(&pool->hash_node);
	hash_init(pool->busy_hash);
	ida_init(&pool->worker_ida);
	INIT_WORK(&pool->idle_cull_work, idle_cull_fn);
	timer_setup(&pool->mayday_timer, pool_mayday_timeout, 0);
	timer_setup(&pool->idle_timer, idle_timer_fn, TIMER_DEFERRABLE);
	pool->attrs = alloc_workqueue_attrs();
	return pool->attrs ? 0 : -ENOMEM;
}

/**
 * worker_pool_assign_id - give a pool its ID
 * @pool: the pool
 *
 * Context: wq_pool_mutex (L).
 * Return: 0, or -errno.
 */
int worker_pool_assign_id(struct worker_pool *pool)
{
	int ret;

	wq_assert_L();
	ret = idr_alloc(&worker_pool_idr, pool, 0, WORK_OFFQ_POOL_NONE, GFP_KERNEL);
	if (ret >= 0) {
		pool->id = ret;
		return 0;
	}
	return ret;
}

/*
 * A per-CPU (or BH) pool of @cpu: @index 0 is the normal one, 1 the high
 * priority one, RT_WORKER_POOL the RT one (not for BH).
 */
void __init init_cpu_pool(struct worker_pool *pool, int cpu, int index,
			  bool bh)
{
	wq_boot_check(!init_worker_pool(pool), "worker pool");
	pool->cpu = cpu;
	pool->node = cpu_to_node(cpu);
	cpumask_copy(pool->attrs->cpumask, cpumask_of(cpu));
	cpumask_copy(pool->attrs->__pod_cpumask, cpumask_of(cpu));
	pool->attrs->nice = index == 1 ? HIGHPRI_NICE_LEVEL : 0;
#ifdef WQ_HAS_RT_CLASS
	if (index == RT_WORKER_POOL && !WARN_ON_ONCE(bh))
		pool->flags |= POOL_RT;
#endif
	pool->attrs->affn_strict = true;
	if (bh) {
		struct worker *worker = &pool->bh_worker;

		/* a BH pool is never bound */
		pool->flags |= POOL_BH;
		INIT_LIST_HEAD(&worker->entry);
		INIT_LIST_HEAD(&worker->scheduled);
		INIT_LIST_HEAD(&worker->node);
		worker->pool = pool;
		worker->flags = WORKER_PREP;
		init_irq_work(bh_pool_irq_work(pool), bh_pool_irq_work_fn);
	}
	mutex_lock(&wq_pool_mutex);
	wq_boot_check(!worker_pool_assign_id(pool), "pool id");
	mutex_unlock(&wq_pool_mutex);
}

#ifdef WQ_HAS_WAIT_PI
/* ------------------------------------------------------------------ */
/* 6. priority inheritance on wait                                     */
/* ------------------------------------------------------------------ */

/*
 * A task waiting for an item (flush_work(), cancel_work_sync() and their
 * family) lends the item its scheduling priority: the worker running it
 * runs at the higher of its pool's priority and its waiters', and goes
 * back to its pool's the moment the item returns.  The waiter's barrier
 * (the flush_work() barrier queued behind the item) is the loan: it sits
 * on its pwq's boosters list from the moment it is queued until the item
 * it waits for ends.  An ordered workqueue's items are lent to by every
 * waiter of their pwq: what runs ahead of the awaited item is in its way.
 *
 * Priorities compare as ranks: nice 19..-20 is 0..39, SCHED_FIFO or
 * SCHED_RR at priority p is 40 + p.  SCHED_IDLE and SCHED_DEADLINE
 * waiters lend nothing; BH items have no worker to lend to.
 */
/*
 * The highest rank flush_workqueue() callers lend to every item of @wq
 * while they wait, or WQ_NO_RANK.  Context: P of a pool of @wq; takes F.
 */
static int wq_flush_rank(struct workqueue_struct *wq)
{
	struct flush_waiter *f;
	int rank = WQ_NO_RANK;

	if (!READ_ONCE(wq->nr_flush_lenders))
		return rank;
	raw_spin_lock(&wq->flush_lock);
	list_for_each_entry(f, &wq->flush_lenders, lend_node)
		rank = max(rank, f->rank);
	raw_spin_unlock(&wq->flush_lock);
	return rank;
}

/*
 * Whether the loan of @barr applies to what @worker runs now: its target
 * (the same function at the same address, as worker_runs() matches), or
 * anything of the pwq on an ordered workqueue, or while the target waits
 * behind max_active (@barr->ahead): what runs there is ahead of it.  A
 * loan lasts until the barrier starts, so it covers a target queued again
 * while it ran: both runs, the one ahead and the one waited for.
 */
static bool loan_applies(struct wq_barrier *barr, struct worker *worker)
{
	return (barr->target == worker->current_work &&
		barr->target_func == worker->current_func) ||
	       barr->ahead || wq_is_ordered(worker->current_pwq->wq);
}

/* Whether @barr's waiter ranks above the workers of its pwq's pool. */
static bool barrier_raises(struct wq_barrier *barr)
{
	return barr->rank > pool_rank(barr->pwq->pool);
}

/*
 * @barr leaves its pwq's boosters (it starts: the loan is over).
 * Context: P.
 */
static void barrier_end_loan_locked(struct wq_barrier *barr)
{
	wq_assert_P(barr->pwq->pool);
	if (list_empty(&barr->boost_node))
		return;
	list_del_init(&barr->boost_node);
	if (barrier_raises(barr))
		WARN_ON_ONCE(--barr->pwq->nr_raising < 0);
}

/*
 * Run @worker at the higher of its own rank and the loans to its item;
 * its own rank when it runs none.  A worker that is raised while it waits
 * for another item itself is told to pass the raise on, and so on down a
 * chain of waiting workers.  Context: pool->lock (P).  Return: %true if
 * the caller is to call wq_apply_ranks() once it has dropped P (the
 * worker is not %current).
 */
static bool worker_update_rank_locked(struct worker *worker)
{
	struct pool_workqueue *pwq = worker->current_pwq;
	int rank = worker_own_rank(worker);
	struct wq_barrier *barr;
	bool apply, raised;

	wq_assert_P(worker->pool);
	if (!worker->task)
		return false;
	if (pwq) {
		list_for_each_entry(barr, &pwq->boosters, boost_node)
			if (loan_applies(barr, worker))
				rank = max(rank, barr->rank);
		rank = max(rank, wq_flush_rank(pwq->wq));
	}
	worker->boosted = rank > worker_own_rank(worker);
	if (rank == worker->rank)
		return false;
	trace_workqueue_work_boost(worker->task, worker->current_work,
				   worker->rank, rank);
	raised = rank > worker->rank;
	apply = worker_set_rank(worker, rank);
	/* lend_raise() reads the new rank here, applied or not */
	WRITE_ONCE(worker->rank, rank);
	if (raised && worker->waiting) {
		WRITE_ONCE(worker->waiting->raised, true);
		wake_up_process(worker->task);
	}
	return apply;
}

/*
 * Re-rank every worker of @pool running an item of @pwq.  Context: P.
 * Return: as worker_update_rank_locked().
 */
static bool pwq_update_ranks_locked(struct pool_workqueue *pwq)
{
	struct worker *worker;
	bool apply = false;
	int bkt;

	wq_assert_P(pwq->pool);
	hash_for_each(pwq->pool->busy_hash, bkt, worker, hentry)
		if (worker->current_pwq == pwq)
			apply |= worker_update_rank_locked(worker);
	return apply;
}
#endif

/* ------------------------------------------------------------------ */
/* 7. running items                                                    */
/* ------------------------------------------------------------------ */

static void pwq_dec_nr_in_flight_locked(struct pool_workqueue *pwq,
					unsigned long data, bool kick);

/* Whether @worker runs @work (the same function at the same address). */
static bool worker_runs(struct worker *worker, struct work_struct *work)
{
	return worker->current_work == work && worker->current_func == work->func;
}

/**
 * find_worker_executing_work - the worker of @pool running @work now
 * @pool: the pool
 * @work: the item
 *
 * An item's address may be reused by another item once the first one is
 * freed, so the function must match as well.
 *
 * Context: pool->lock (P).
 * Return: the worker, or %NULL.
 */
static struct worker *find_worker_executing_work(struct worker_pool *pool,
						 struct work_struct *work)
{
	struct worker *worker;

	wq_assert_P(pool);
	hash_for_each_possible(pool->busy_hash, worker, hentry, (unsigned long)work)
		if (worker_runs(worker, work))
			break;
	return worker;
}

/*
 * Move @work and the barriers linked behind it (WORK_STRUCT_LINKED) to the
 * tail of @head.  If @nextp is given, it is left pointing at the entry
 * that followed the moved ones, for a caller walking the old list.
 */
static void move_linked_works(struct work_struct *work, struct list_head *head,
			      struct work_struct **nextp)
{
	struct work_struct *next;
	bool linked;

	do {
		next = list_next_entry(work, entry);
		linked = work_data(work) & WORK_STRUCT_LINKED;
		list_move_tail(&work->entry, head);
		work = next;
	} while (linked);
	if (nextp)
		*nextp = next;
}

/**
 * assign_work_locked - give @work to a worker of its pool
 * @work: an item on the pool's worklist
 * @worker: the worker taking it
 * @nextp: see move_linked_works()
 *
 * An item must not run twice at once: if another worker of the pool runs
 * it already, it goes to that worker's scheduled list instead.
 *
 * Context: pool->lock (P).
 * Return: whether @worker got it.
 */
static bool assign_work_locked(struct work_struct *work, struct worker *worker,
			       struct work_struct **nextp)
{
	struct worker *owner = find_worker_executing_work(worker->pool, work);

	wq_assert_P(worker->pool);
	if (unlikely(owner && owner != worker)) {
		move_linked_works(work, &owner->scheduled, nextp);
		return false;
	}
	move_linked_works(work, &worker->scheduled, nextp);
	return true;
}

/*
 * Check what a work function left behind: no atomic context (softirq
 * items excepted), and the lock and RCU read-side depths it found
 * (@lock_depth, @rcu_depth: a softirq item on PREEMPT_RT starts inside
 * the read-side section of local_bh_disable()).
 */
static void check_work_leaks(work_func_t func, int lock_depth, int rcu_depth,
			     bool bh)
{
	if (likely(!(!bh && in_atomic()) &&
		   lockdep_depth(current) == lock_depth &&
		   rcu_preempt_depth() == rcu_depth))
		return;
	/* both lines are 6.12's to the letter: log parsers match them */
	pr_err("BUG: workqueue leaked atomic, lock or RCU: %s[%d]\n"
	       "     preempt=0x%08x lock=%d->%d RCU=%d->%d workfn=%ps\n",
	       current->comm, task_pid_nr(current), preempt_count(), lock_depth,
	       lockdep_depth(current), rcu_depth, rcu_preempt_depth(), func);
	debug_show_held_locks(current);
	dump_stack();
}

/* Make @worker the one running @work (which leaves the lists). */
static void worker_begin_item_locked(struct worker *worker,
				     struct work_struct *work,
				     struct pool_workqueue *pwq)
{
	struct worker_pool *pool = worker->pool;

	wq_assert_P(pool);
	debug_work_deactivate(work);
	hash_add(pool->busy_hash, &worker->hentry, (unsigned long)work);
	worker->current_work = work;
	worker->current_func = work->func;
	worker->current_pwq = pwq;
	worker->current_color = data_color(work_data(work));
	if (worker->task)
		worker->current_at = worker->task->se.sum_exec_runtime;
	/* ps shows the workqueue's name: copy it only when it changes */
	if (unlikely(worker->desc_id != pwq->wq->name_id)) {
		strscpy(worker->desc, pwq->wq->name, WORKER_DESC_LEN);
		worker->desc_id = pwq->wq->name_id;
	}
	list_del_init(&work->entry);
	if (unlikely(pwq->wq->flags & WQ_CPU_INTENSIVE))
		worker_set_flags_locked(worker, WORKER_CPU_INTENSIVE);
#ifdef WQ_HAS_WAIT_PI
	/* waiters lend their priority to the item (section 6) */
	if (unlikely(!list_empty(&pwq->boosters) || worker->boosted ||
		     READ_ONCE(pwq->wq->nr_flush_lenders))) {
		/* a barrier whose item was cancelled ends its loan itself */
		if (work_is_barrier(work))
			barrier_end_loan_locked(container_of(work, struct wq_barrier,
							     work));
		/* waiters at or below the workers' rank change nothing */
		if (pwq->nr_raising || worker->boosted ||
		    READ_ONCE(pwq->wq->nr_flush_lenders))
			WARN_ON_ONCE(worker_update_rank_locked(worker));
	}
#endif
	pwq->stats[PWQ_STAT_STARTED]++;
	/* the watchdog's sign of progress */
	pool->watchdog_ts = jiffies;
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_start_locked(worker, pwq, work);
#endif
}

static void worker_end_item_locked(struct worker *worker)
{
	wq_assert_P(worker->pool);
	/* ->hentry shares its place with ->entry: leave the latter empty */
	hash_del(&worker->hentry);
	INIT_LIST_HEAD(&worker->entry);
	if (unlikely(worker->flags & WORKER_CPU_INTENSIVE))
		worker_clr_flags_locked(worker, WORKER_CPU_INTENSIVE);
	/* PSI recognises its own item by it */
	worker->last_func = worker->current_func;
	worker->current_work = NULL;
	worker->current_func = NULL;
	worker->current_pwq = NULL;
	worker->current_at = 0;
	worker->current_color = 0;
#ifdef WQ_HAS_WAIT_PI
	/* back to its own priority before it takes anything else */
	if (unlikely(worker->boosted))
		WARN_ON_ONCE(worker_update_rank_locked(worker));
#endif
}

/*
 * A BH pool's items run on its own CPU, except when workqueue_softirq_dead()
 * drains a dead CPU's pool from a drain item of system_bh_highpri_wq.  That
 * item holds the workqueue's lockdep map while it runs, and items of the
 * same workqueue found in the pool would take the map again: a recursive
 * acquisition report for what is no recursion.  They run without it.
 */
static bool bh_pool_draining(struct worker_pool *pool)
{
	return (pool->flags & POOL_BH) && pool->cpu != raw_smp_processor_id();
}

/**
 * process_one_work - run one item
 * @worker: the worker, which got @work from assign_work_locked()
 * @work: the item, first on @worker's scheduled list
 *
 * Context: pool->lock (P), dropped while the function runs.
 */
static void process_one_work(struct worker *worker, struct work_struct *work)
	__releases(&pool->lock) __acquires(&pool->lock)
{
	struct pool_workqueue *pwq = get_work_pwq(work);
	struct worker_pool *pool = worker->pool;
	bool bh = pool->flags & POOL_BH;
	bool wq_map = !bh_pool_draining(pool);
	unsigned long data = work_data(work);
	work_func_t func = work->func;
	int lock_depth, rcu_depth;
#ifdef CONFIG_LOCKDEP
	/* the function may free @work: run on a copy of its lockdep map */
	struct lockdep_map lockdep_map;

	lockdep_copy_map(&lockdep_map, &work->lockdep_map);
#endif
	WARN_ON_ONCE(!bh && pool->cpu >= 0 &&
		     !(pool->flags & POOL_DISASSOCIATED) &&
		     raw_smp_processor_id() != pool->cpu);

	worker_begin_item_locked(worker, work, pwq);
	/* unbound pools and CPU-intensive items: another worker for the rest */
	kick_pool_locked(pool);
	/* from here on the item may be queued again */
	set_work_off_queue(work, pool->id, pool_offq_bits(pool), false);
	raw_spin_unlock_irq(&pool->lock);
	/*
	 * PENDING is clear before the function reads anything: a queuer that
	 * sets it again after our read of the state will queue the item
	 * again.
	 */
	smp_mb();	/* pairs with test_and_set_bit() when queueing */

	lock_depth = lockdep_depth(current);
	rcu_depth = rcu_preempt_depth();
	if (wq_map)
		lock_map_acquire(pwq->wq->lockdep_map);
	lock_map_acquire(&lockdep_map);
	lockdep_invariant_state(true);
	trace_workqueue_execute_start(work);
	func(work);
	/* @work may be gone now: only its address is used below */
	trace_workqueue_execute_end(work, func);
	lock_map_release(&lockdep_map);
	if (wq_map)
		lock_map_release(pwq->wq->lockdep_map);
	check_work_leaks(func, lock_depth, rcu_depth, bh);
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_done(worker, pwq, func, bh);
#endif
	if (!bh)
		cond_resched();

	raw_spin_lock_irq(&pool->lock);
	pwq->stats[PWQ_STAT_COMPLETED]++;
	worker_end_item_locked(worker);
	/* this worker looks at the worklist again before it idles */
	pwq_dec_nr_in_flight_locked(pwq, data, false);
}

/* Run everything on @worker's scheduled list.  Context: P, dropped inside. */
static void process_scheduled_works(struct worker *worker)
{
	struct work_struct *work;

	while ((work = list_first_entry_or_null(&worker->scheduled,
						struct work_struct, entry)))
		process_one_work(worker, work);
}

static void set_pf_worker(bool on)
{
	/* wq_worker_comm() reads PF_WQ_WORKER under the attach mutex */
	guard(mutex)(&wq_pool_attach_mutex);
	current->flags = (current->flags & ~PF_WQ_WORKER) | (on ? PF_WQ_WORKER : 0);
}

/*
 * A worker told to die stops being one; reap_dying_workers() waits for
 * the thread to end, then detaches and frees it.
 */
static void worker_exit(void)
{
	set_pf_worker(false);
	set_task_comm(current, "kworker/dying");
}

/*
 * One round of a woken worker: restock the pool if it is about to run
 * out of idle workers, then run items while the pool lets it.
 */
static void worker_run_locked(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;
	struct work_struct *work;

	wq_assert_P(pool);
recheck:
	if (!pool_needs_worker(pool))
		return;
	/* keep a worker in reserve for when this one sleeps */
	if (!pool->nr_idle && manage_workers_locked(worker))
		goto recheck;
	WARN_ON_ONCE(!list_empty(&worker->scheduled));
	worker_clr_flags_locked(worker, WORKER_PREP | WORKER_REBOUND);
	do {
		work = list_first_entry(&pool->worklist,
					struct work_struct, entry);
		if (assign_work_locked(work, worker, NULL))
			process_scheduled_works(worker);
	} while (pool_keep_working(pool));
	worker_set_flags_locked(worker, WORKER_PREP);
}

/**
 * worker_thread - the life of a worker
 * @arg: the worker
 *
 * Idle until woken, then run items while the pool needs this worker, and
 * back to idle.  Exits when retired.
 *
 * Context: kthread.
 * Return: 0.
 */
static int worker_thread(void *arg)
{
	struct worker *worker = arg;
	struct worker_pool *pool = worker->pool;

	set_pf_worker(true);
	for (;;) {
		raw_spin_lock_irq(&pool->lock);
		if (unlikely(worker->flags & WORKER_DIE)) {
			raw_spin_unlock_irq(&pool->lock);
			worker_exit();
			return 0;
		}
		worker_leave_idle_locked(worker);
		worker_run_locked(worker);
		worker_enter_idle_locked(worker);
		__set_current_state(TASK_IDLE);
		raw_spin_unlock_irq(&pool->lock);
		schedule();
	}
}

/* The rescuer's own rank, changed only while it is idle.  Context: X. */
static void rescuer_set_rank(struct worker *rescuer, int rank)
{
	if (rescuer->rank != rank)
#ifdef WQ_HAS_WAIT_PI
		WARN_ON_ONCE(worker_set_rank(rescuer, rank));
#else
		task_set_rank(current, rank, true);
#endif
	rescuer->rank = rank;
}

/* The first item of @pwq on its pool's worklist, or %NULL.  Context: P. */
static struct work_struct *first_work_of_pwq_locked(struct pool_workqueue *pwq)
{
	struct work_struct *work;

	wq_assert_P(pwq->pool);
	list_for_each_entry(work, &pwq->pool->worklist, entry)
		if (get_work_pwq(work) == pwq)
			return work;
	return NULL;
}

/*
 * Run, as @rescuer, the first item of @pwq waiting on its pool, and ask
 * again, behind the requests of the workqueue's other pools, while the
 * pool still cannot make progress: one starved pool cannot keep the
 * rescuer from another (as 7.0's rescuer does).  An item waits on the
 * rescuer's scheduled list only while it runs.
 */
#ifdef WQ_HAS_WAIT_PI
/*
 * The loan of a waiter relies on that (target_to_front_locked()).
 */
#endif
static void rescue_pwq(struct worker *rescuer, struct pool_workqueue *pwq)
{
	struct worker_pool *pool = pwq->pool;
	struct work_struct *work;

	worker_attach_to_pool(rescuer, pool);
	/* RT items run at RT priority, rescued or not; idle rescuers do not */
	rescuer_set_rank(rescuer, worker_own_rank(rescuer));
	raw_spin_lock_irq(&pool->lock);
	work = first_work_of_pwq_locked(pwq);
	if (work && assign_work_locked(work, rescuer, NULL)) {
		pwq->stats[PWQ_STAT_RESCUED]++;
		process_scheduled_works(rescuer);
	}
	if (pool_must_create(pool) && first_work_of_pwq_locked(pwq))
		send_mayday_locked(pwq);
	/* whatever is left is for the normal workers again */
	kick_pool_locked(pool);
	raw_spin_unlock_irq(&pool->lock);
	worker_detach_from_pool(rescuer);
	rescuer_set_rank(rescuer, MAX_NICE - RESCUER_NICE_LEVEL);
}

/**
 * current_is_workqueue_rescuer - whether %current is a rescuer
 *
 * Context: any.
 * Return: %true if %current is the rescuer of a workqueue.
 */
bool current_is_workqueue_rescuer(void)
{
	const struct worker *worker = current_wq_worker();

	return worker && worker->rescue_wq;
}

/**
 * rescuer_thread - the rescuer of a WQ_MEM_RECLAIM workqueue
 * @arg: the rescuer
 *
 * Serves mayday requests: when a pool cannot create workers (memory is
 * short), the rescuer runs the pool's items of its workqueue, so reclaim
 * that waits for them makes progress.
 *
 * Context: kthread.
 * Return: 0.
 */
static int rescuer_thread(void *arg)
{
	struct worker *rescuer = arg;
	struct workqueue_struct *wq = rescuer->rescue_wq;
	struct pool_workqueue *pwq;
	bool stop;

	set_user_nice(current, RESCUER_NICE_LEVEL);
	set_pf_worker(true);
	for (;;) {
		set_current_state(TASK_IDLE);
		/* read before the list: requests made before stop are served */
		stop = kthread_should_stop();
		raw_spin_lock_irq(&wq_mayday_lock);
		while ((pwq = list_first_entry_or_null(&wq->maydays,
						       struct pool_workqueue,
						       mayday_node))) {
			list_del_init(&pwq->mayday_node);
			raw_spin_unlock_irq(&wq_mayday_lock);
			__set_current_state(TASK_RUNNING);
			rescue_pwq(rescuer, pwq);
			put_pwq_unlocked(pwq);
			raw_spin_lock_irq(&wq_mayday_lock);
		}
		raw_spin_unlock_irq(&wq_mayday_lock);
		if (stop)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	set_pf_worker(false);
	return 0;
}

/*
 * Where a rescuer waits: an unbound workqueue's effective cpumask (its
 * default pool's CPUs), any CPU for a per-CPU one.  Context: L.
 */
static const struct cpumask *rescuer_home_cpus(struct workqueue_struct *wq)
{
	struct pool_workqueue *dfl;

	wq_assert_L();
	if (!(wq->flags & WQ_UNBOUND))
		return cpu_possible_mask;
	dfl = rcu_dereference_protected(wq->dfl_pwq,
					lockdep_is_held(&wq_pool_mutex));
	return dfl ? dfl->pool->attrs->cpumask : wq_unbound_cpumask;
}

int init_rescuer(struct workqueue_struct *wq)
{
	struct worker *rescuer;
	char name[WORKER_ID_LEN];

	wq_assert_L();
	if (!(wq->flags & WQ_MEM_RECLAIM) || wq->rescuer)
		return 0;
	rescuer = alloc_worker(NUMA_NO_NODE);
	if (!rescuer)
		return -ENOMEM;
	rescuer->flags = WORKER_RESCUER;
	rescuer->rank = MAX_NICE - RESCUER_NICE_LEVEL;	/* rescuer_thread() sets it */
	rescuer->rescue_wq = wq;
	format_worker_id(name, sizeof(name), rescuer, NULL);
	rescuer->task = kthread_create(rescuer_thread, rescuer, "%s", name);
	if (!IS_ERR(rescuer->task)) {
		wq->rescuer = rescuer;
		kthread_bind_mask(rescuer->task, rescuer_home_cpus(wq));
		wake_up_process(rescuer->task);
		return 0;
	}
	pr_err("workqueue: cannot create the rescuer of %s: %pe\n",
	       wq->name, rescuer->task);
	kfree(rescuer);
	return -ENOMEM;
}

/* Stop @wq's rescuer, if it has one: @wq is drained for good. */
static void stop_rescuer(struct workqueue_struct *wq)
{
	struct worker *rescuer = wq->rescuer;

	if (!rescuer)
		return;
	/* no new mayday may wake it once it is being stopped (M) */
	raw_spin_lock_irq(&wq_mayday_lock);
	wq->rescuer = NULL;
	raw_spin_unlock_irq(&wq_mayday_lock);
	/* the rescuer serves the requests already made, then exits */
	kthread_stop(rescuer->task);
#ifdef WQ_HAS_WAIT_PI
	worker_forget_rank(rescuer);
#endif
	kfree(rescuer);
}

/* Run a BH pool's items for a bounded time, then leave the rest. */
static void bh_worker(struct worker_pool *pool)
{
	struct worker *worker = &pool->bh_worker;
	unsigned long end = jiffies + BH_WORKER_JIFFIES;
	int rounds = BH_WORKER_RESTARTS;
	struct work_struct *work;

	raw_spin_lock_irq(&pool->lock);
	while (!list_empty(&pool->worklist) && rounds-- &&
	       time_before(jiffies, end)) {
		work = list_first_entry(&pool->worklist, struct work_struct, entry);
		if (assign_work_locked(work, worker, NULL))
			process_scheduled_works(worker);
	}
	/* more left: run again on the next softirq */
	if (!list_empty(&pool->worklist))
		kick_bh_pool(pool);
	raw_spin_unlock_irq(&pool->lock);
}

/**
 * workqueue_softirq_action - run this CPU's BH workqueue items
 * @highpri: the high-priority pool (HI_SOFTIRQ) or the normal one
 *
 * Context: softirq.
 */
void workqueue_softirq_action(bool highpri)
{
	struct worker_pool *pools = per_cpu(bh_worker_pools, smp_processor_id());

	/* also called for tasklets: often nothing to do */
	if (!list_empty(&pools[highpri].worklist))
		bh_worker(&pools[highpri]);
}

struct bh_drain_work {
	struct work_struct work;
	struct worker_pool *pool;
	struct completion done;
};

/* Drain a dead CPU's BH pool from this CPU's softirq. */
static void bh_drain_fn(struct work_struct *work)
{
	struct bh_drain_work *d = container_of(work, struct bh_drain_work, work);

	bh_worker(d->pool);
	if (!list_empty(&d->pool->worklist))
		queue_work(system_bh_highpri_wq, work);
	else
		complete(&d->done);
}

/**
 * workqueue_softirq_dead - run the BH items left on a CPU that went down
 * @cpu: the dead CPU
 *
 * Context: process context (CPU hotplug teardown).
 */
void workqueue_softirq_dead(unsigned int cpu)
{
	int i;

	for (i = 0; i < NR_STD_WORKER_POOLS; i++) {
		struct bh_drain_work d;

		d.pool = &per_cpu(bh_worker_pools, cpu)[i];
		if (list_empty(&d.pool->worklist))
			continue;
		INIT_WORK_ONSTACK(&d.work, bh_drain_fn);
		init_completion(&d.done);
		queue_work(system_bh_highpri_wq, &d.work);
		wait_for_completion(&d.done);
		destroy_work_on_stack(&d.work);
	}
}

/* ------------------------------------------------------------------ */
/* 8. scheduler hooks                                                  */
/* ------------------------------------------------------------------ */

/**
 * wq_worker_running - a worker that slept runs again
 * @task: the worker's task, %current
 *
 * Context: process context, called by schedule() after switching back.
 */
void wq_worker_running(struct task_struct *task)
{
	struct worker *worker = kthread_data(task);
	struct worker_pool *pool;

	if (!READ_ONCE(worker->sleeping))
		return;
	pool = worker->pool;
	raw_spin_lock_irq(&pool->lock);
	WRITE_ONCE(worker->sleeping, 0);
	if (worker_counts(worker))
		pool->nr_running++;
	raw_spin_unlock_irq(&pool->lock);
	/* CPU hogging is measured from the last wake-up */
	worker->current_at = task->se.sum_exec_runtime;
}

/**
 * wq_worker_sleeping - a running worker is about to block
 * @task: the worker's task, %current
 *
 * If it was the last running worker of its pool and items wait, wake an
 * idle worker so the CPU is not left idle while there is work.
 *
 * Context: process context, called by schedule() before blocking.
 */
void wq_worker_sleeping(struct task_struct *task)
{
	struct worker *worker = kthread_data(task);
	struct worker_pool *pool;

	/* not counted, or preempted after an earlier call: nothing to do */
	if ((READ_ONCE(worker->flags) & WORKER_NOT_RUNNING) ||
	    READ_ONCE(worker->sleeping))
		return;
	pool = worker->pool;
	raw_spin_lock_irq(&pool->lock);
	if (worker_counts(worker)) {
		WRITE_ONCE(worker->sleeping, 1);
		pool->nr_running--;
		if (kick_pool_locked(pool) && worker->current_pwq)
			worker->current_pwq->stats[PWQ_STAT_CM_WAKEUP]++;
	}
	raw_spin_unlock_irq(&pool->lock);
}

#ifdef CONFIG_WQ_CPU_INTENSIVE_REPORT
/*
 * Report functions that keep hogging per-CPU workers: once a function
 * reached the threshold, then each time its count doubles.
 */
#define WCI_SLOTS	64
static struct {
	work_func_t func;
	unsigned long count;
} wci_table[WCI_SLOTS];
static DEFINE_RAW_SPINLOCK(wci_lock);

/* Called under a pool lock: defer the console work. */
static void wq_warn_cpu_hog(work_func_t func, unsigned long count)
{
	printk_deferred_enter();
	pr_warn("workqueue: %ps hogged CPU for >%luus %lu times, consider switching to WQ_UNBOUND\n",
		func, wq_cpu_intensive_thresh_us, count);
	printk_deferred_exit();
}

static void report_cpu_hog(work_func_t func)
{
	unsigned long count = 0;
	unsigned long flags;
	int i;

	if (!wq_cpu_intensive_warning_thresh)
		return;
	raw_spin_lock_irqsave(&wci_lock, flags);
	for (i = 0; i < WCI_SLOTS; i++) {
		if (wci_table[i].func == func || !wci_table[i].func) {
			wci_table[i].func = func;
			count = ++wci_table[i].count;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&wci_lock, flags);
	/* at the threshold, then 1, 2, 4, ... catches after it (6.12's cadence) */
	if (count >= wq_cpu_intensive_warning_thresh &&
	    is_power_of_2(count + 1 - wq_cpu_intensive_warning_thresh))
		wq_warn_cpu_hog(func, count);
}
#else
static void report_cpu_hog(work_func_t func) { }
#endif

/*
 * Take a worker hogging the CPU out of the count; wake a replacement.
 * Context: pool->lock (P) of the worker's pool.
 */
static void release_cpu_hog_locked(struct worker *worker,
				   struct pool_workqueue *pwq)
{
	bool woke;

	wq_assert_P(worker->pool);
	worker_set_flags_locked(worker, WORKER_CPU_INTENSIVE);
	woke = kick_pool_locked(worker->pool);
	pwq->stats[PWQ_STAT_CPU_INTENSIVE]++;
	pwq->stats[PWQ_STAT_CM_WAKEUP] += woke;
	report_cpu_hog(worker->current_func);
}

/**
 * wq_worker_tick - scheduler tick on a CPU running a worker
 * @task: the worker's task
 *
 * An item of a per-CPU pool running longer than cpu_intensive_thresh_us
 * without sleeping holds back the items behind it: take it out of
 * concurrency management.  A threshold of 0 turns the detection off.
 *
 * Context: hardirq, interrupts disabled.
 */
void wq_worker_tick(struct task_struct *task)
{
	struct worker *worker = kthread_data(task);
	struct pool_workqueue *pwq = worker->current_pwq;
	struct worker_pool *pool = worker->pool;
	unsigned long thresh_us = READ_ONCE(wq_cpu_intensive_thresh_us);
	u64 thresh = (u64)thresh_us * NSEC_PER_USEC;

	if (!pwq || !pool)
		return;
	/* racy like the tick itself: a statistic, not a count */
	data_race(pwq->stats[PWQ_STAT_CPU_TIME] += TICK_USEC);
	if (!thresh_us || (worker->flags & WORKER_NOT_RUNNING))
		return;
	if (task->se.sum_exec_runtime - worker->current_at < thresh)
		return;

	raw_spin_lock(&pool->lock);
	if (worker->current_pwq && worker_counts(worker))
		release_cpu_hog_locked(worker, pwq);
	raw_spin_unlock(&pool->lock);
}

/**
 * wq_worker_last_func - the function a worker ran last
 * @task: a worker's task, %current
 *
 * Used by PSI to recognise its own averaging item.
 *
 * Context: the scheduler, on @task's CPU.
 * Return: the function, or %NULL.
 */
work_func_t wq_worker_last_func(struct task_struct *task)
{
	struct worker *worker = kthread_data(task);

	return worker->last_func;
}

/* ------------------------------------------------------------------ */
/* 9. pool_workqueues: references, activation, node quotas, limits    */
/* ------------------------------------------------------------------ */

static void get_pwq_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	WARN_ON_ONCE(pwq->refcnt <= 0);
	pwq->refcnt++;
}

/**
 * put_pwq_locked - drop a reference to a pwq
 * @pwq: the pwq
 *
 * The last reference hands the pwq to the release worker, which unlinks
 * and frees it in process context.
 *
 * Context: pool->lock (P) of @pwq's pool.
 */
static void put_pwq_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	if (--pwq->refcnt)
		return;
	if (WARN_ON_ONCE(!pwq_release_worker))
		return;
	kthread_queue_work(pwq_release_worker, &pwq->release_work);
}

/**
 * put_pwq_unlocked - put_pwq_locked() for callers without the pool lock
 * @pwq: the pwq, or %NULL
 *
 * Context: any context that may take a pool lock.
 */
void put_pwq_unlocked(struct pool_workqueue *pwq)
{
	unsigned long flags;

	if (!pwq)
		return;
	raw_spin_lock_irqsave(&pwq->pool->lock, flags);
	put_pwq_locked(pwq);
	raw_spin_unlock_irqrestore(&pwq->pool->lock, flags);
}

/**
 * put_wq_pwqs - drop the references of a workqueue's pwq table
 * @wq: the workqueue, drained and unlisted
 *
 * The release of the last pwq frees @wq.  Old pwqs of attribute changes
 * are released first.
 *
 * Context: process context, may sleep; takes wq->mutex (W).
 */
void put_wq_pwqs(struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;
	int cpu;

	if (pwq_release_worker)
		kthread_flush_worker(pwq_release_worker);
	mutex_lock(&wq->mutex);
	for_each_possible_cpu(cpu) {
		pwq = rcu_dereference_protected(*per_cpu_ptr(wq->cpu_pwq, cpu), true);
		RCU_INIT_POINTER(*per_cpu_ptr(wq->cpu_pwq, cpu), NULL);
		put_pwq_unlocked(pwq);
	}
	pwq = rcu_dereference_protected(wq->dfl_pwq, true);
	RCU_INIT_POINTER(wq->dfl_pwq, NULL);
	put_pwq_unlocked(pwq);
	mutex_unlock(&wq->mutex);
}

/**
 * link_pwq - add a pwq to its workqueue's list
 * @pwq: a new pwq
 *
 * Context: wq->mutex (W).
 */
void link_pwq(struct pool_workqueue *pwq)
{
	struct workqueue_struct *wq = pwq->wq;

	wq_assert_W(wq);
	if (!list_empty(&pwq->pwqs_node))
		return;
	/* new items get the workqueue's color; flush colors cycle in step */
	pwq->work_color = seq_color(wq->flush_seq);
	list_add_tail_rcu(&pwq->pwqs_node, &wq->pwqs);
}

/*
 * Node quotas.  The active items of an unbound workqueue are limited per
 * NUMA node (struct wq_node_nr_active, sized by wq_update_node_max_active()
 * in kernel/workqueue_unbound.c); pwqs that find their node's quota used up
 * wait in line for it and are served in turn.
 */

/* Take a free slot of @nna, if there is one.  Context: any. */
static bool node_quota_take_free(struct wq_node_nr_active *nna)
{
	int max = READ_ONCE(nna->max);
	int nr = atomic_read(&nna->nr);

	do {
		if (nr >= max)
			return false;
	} while (!atomic_try_cmpxchg_relaxed(&nna->nr, &nr, nr + 1));
	return true;
}

/**
 * node_quota_tryinc_locked - take a slot of a node's quota for @pwq
 * @pwq: an unbound pwq with an item to activate
 * @fill: take a free slot even if other pwqs wait for one
 *
 * While no pwq waits, a free slot is taken without the N lock.  Without
 * a slot, @pwq joins the node's waiting pwqs, served in turn: a waiting
 * pwq that gets a slot goes to the back of the line, and leaves it when
 * it has no inactive item left (node_quota_unlist_locked()).
 *
 * A pwq joins the line before it looks at the count again, and
 * node_quota_dec_locked() frees its slot before it looks at the line,
 * each with a full barrier between: either the waiter sees the free slot
 * or the one freeing it sees the waiter.
 *
 * Out of line, so that the per-CPU path of pwq_tryinc_nr_active_locked()
 * stays small enough to be inlined into __queue_work().
 *
 * Context: pool->lock (P) of @pwq's pool.
 * Return: whether a slot was taken.
 */
static noinline bool node_quota_tryinc_locked(struct pool_workqueue *pwq,
					      bool fill)
{
	struct wq_node_nr_active *nna = wq_node_nr_active(pwq->wq, pwq->pool->node);
	bool waiting = !list_empty(&pwq->pending_node);
	struct pool_workqueue *first;
	bool ok = false;

	wq_assert_P(pwq->pool);
	if (!waiting && list_empty(&nna->pending_pwqs) && node_quota_take_free(nna))
		return true;
	/* in line already, and no slot: a freed one will be handed over */
	if (waiting && atomic_read(&nna->nr) >= READ_ONCE(nna->max))
		return false;

	raw_spin_lock(&nna->lock);
	first = list_first_entry_or_null(&nna->pending_pwqs,
					 struct pool_workqueue, pending_node);
	if (!waiting)
		list_add_tail(&pwq->pending_node, &nna->pending_pwqs);
	if (fill || !first || first == pwq) {
		smp_mb();	/* in line, then the count: see above */
		ok = node_quota_take_free(nna);
	}
	/* served: a waiter goes to the back of the line, a newcomer leaves */
	if (ok && waiting)
		list_move_tail(&pwq->pending_node, &nna->pending_pwqs);
	else if (ok)
		list_del_init(&pwq->pending_node);
	raw_spin_unlock(&nna->lock);
	return ok;
}

/**
 * node_quota_may_pass - whether @pwq may keep a slot for its next item
 * @pwq: an unbound pwq one of whose active items is done
 *
 * It may if it alone is in line for the node's slots and the quota was
 * not lowered below the count.  Read without the N lock: a pwq joining
 * the line meanwhile finds no free slot and waits for the next one, which
 * the end of the item taking this slot over hands out in turn.
 *
 * Context: pool->lock (P) of @pwq's pool.
 * Return: %true if @pwq may pass the slot on.
 */
static bool node_quota_may_pass(struct pool_workqueue *pwq)
{
	struct wq_node_nr_active *nna = wq_node_nr_active(pwq->wq, pwq->pool->node);

	wq_assert_P(pwq->pool);
	return READ_ONCE(nna->pending_pwqs.next) == &pwq->pending_node &&
	       READ_ONCE(pwq->pending_node.next) == &nna->pending_pwqs &&
	       atomic_read(&nna->nr) <= READ_ONCE(nna->max);
}

/**
 * node_quota_unlist_locked - @pwq has no inactive item left to wait for
 * @pwq: an unbound pwq
 *
 * Context: pool->lock (P) of @pwq's pool.
 */
void node_quota_unlist_locked(struct pool_workqueue *pwq)
{
	struct wq_node_nr_active *nna;

	wq_assert_P(pwq->pool);
	if (list_empty(&pwq->pending_node))
		return;
	nna = wq_node_nr_active(pwq->wq, pwq->pool->node);
	raw_spin_lock(&nna->lock);
	list_del_init(&pwq->pending_node);
	raw_spin_unlock(&nna->lock);
}

static bool pwq_is_unbound(struct pool_workqueue *pwq)
{
	return pwq->wq->flags & WQ_UNBOUND;
}

/*
 * An unbound pwq with no inactive item left waits for no slot.
 * Context: pool->lock (P) of @pwq's pool.
 */
static void pwq_unlist_if_drained_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	if (list_empty(&pwq->inactive_works) && pwq_is_unbound(pwq))
		node_quota_unlist_locked(pwq);
}

/* Take an active slot for one more item of @pwq, if the limits allow. */
static bool pwq_tryinc_nr_active_locked(struct pool_workqueue *pwq, bool fill)
{
	wq_assert_P(pwq->pool);
	if (pwq->plugged)
		return false;
	if (pwq_is_unbound(pwq)) {
		if (!node_quota_tryinc_locked(pwq, fill))
			return false;
	} else if (pwq->nr_active >= pwq->max_active) {
		return false;
	}
	pwq->nr_active++;
	return true;
}

/* Move an inactive item (and its linked barriers) to the pool's worklist. */
static void activate_work_locked(struct pool_workqueue *pwq,
				 struct work_struct *work)
{
	struct worker_pool *pool = pwq->pool;

	wq_assert_P(pool);
	trace_workqueue_activate_work(work);
	if (list_empty(&pool->worklist))
		pool->watchdog_ts = jiffies;
	move_linked_works(work, &pool->worklist, NULL);
	/* a barrier never takes a slot: it stays INACTIVE */
	if (!work_is_barrier(work))
		__clear_bit(WORK_STRUCT_INACTIVE_BIT, work_data_bits(work));
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_activate_locked(pwq, work);
#endif
}

/*
 * Activate @pwq's first inactive item if the limits allow (barriers need
 * no slot).  With @fill, the node quota is taken even if other pwqs wait.
 */
static bool pwq_activate_first_locked(struct pool_workqueue *pwq, bool fill)
{
	struct work_struct *work;
	bool done = false;

	wq_assert_P(pwq->pool);
	work = list_first_entry_or_null(&pwq->inactive_works,
					struct work_struct, entry);
	/* a plugged pwq's barriers wait with it (unlink_queued_work_locked()) */
	if (work && ((work_is_barrier(work) && !pwq->plugged) ||
		     pwq_tryinc_nr_active_locked(pwq, fill))) {
		activate_work_locked(pwq, work);
		done = true;
	}
	pwq_unlist_if_drained_locked(pwq);
	return done;
}

/**
 * pwq_activate_inactive_nokick_locked - activate what the limits allow
 * @pwq: the pwq
 *
 * For callers that run the pool's worklist themselves next.
 *
 * Context: pool->lock (P).
 * Return: whether an item was activated.
 */
static bool pwq_activate_inactive_nokick_locked(struct pool_workqueue *pwq)
{
	bool any = false;

	wq_assert_P(pwq->pool);
	while (pwq_activate_first_locked(pwq, true))
		any = true;
	return any;
}

/**
 * pwq_activate_inactive_locked - activate what the limits now allow
 * @pwq: the pwq
 *
 * Context: pool->lock (P).
 * Return: whether an item was activated.
 */
bool pwq_activate_inactive_locked(struct pool_workqueue *pwq)
{
	bool any;

	wq_assert_P(pwq->pool);
	any = pwq_activate_inactive_nokick_locked(pwq);
	kick_pool_locked(pwq->pool);
	return any;
}

/**
 * pwq_set_max_active_locked - apply the workqueue's limit to a pwq
 * @pwq: the pwq
 *
 * Context: pool->lock (P); wq->mutex (W) keeps the limit stable.
 */
void pwq_set_max_active_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	pwq->max_active = READ_ONCE(pwq->wq->max_active);
	pwq_activate_inactive_locked(pwq);
}

/*
 * @pwq's slot of the node quota, just given up by an item, goes straight
 * to its next inactive item (and the barriers before it): no counting out
 * and in again.  Returns whether an item took it.
 */
static bool pwq_pass_slot_locked(struct pool_workqueue *pwq)
{
	struct work_struct *work;
	bool passed = false;

	wq_assert_P(pwq->pool);
	while (!passed) {
		/* activating moves the barriers linked behind it along */
		work = list_first_entry_or_null(&pwq->inactive_works,
						struct work_struct, entry);
		if (!work)
			break;
		passed = !work_is_barrier(work);
		activate_work_locked(pwq, work);
	}
	pwq->nr_active += passed;
	pwq_unlist_if_drained_locked(pwq);
	return passed;
}

/*
 * Offer a freed slot to @next, first in line.  Return whether that settled
 * it: an item of @next took the slot, or @next is still in line, which
 * means it found no free slot (another pwq took it first) and waits for
 * the next one.  A @next with nothing to activate has left the line, and
 * the caller offers the slot to the pwq after it.  Both are read under
 * @next's P, where a pwq joins and leaves the line.
 */
static bool node_quota_offer_locked(struct pool_workqueue *next, bool kick)
{
	bool activated;

	wq_assert_P(next->pool);
	if (kick)
		activated = pwq_activate_inactive_locked(next);
	else
		activated = pwq_activate_inactive_nokick_locked(next);
	return activated || !list_empty(&next->pending_node);
}

/*
 * node_quota_offer_locked() to @next, a pwq waiting on another pool: we
 * cannot hold two pool locks, so ours is dropped meanwhile.  @next stays
 * valid: it was in line, and interrupts stay disabled, which holds off the
 * RCU grace period its release would wait for.
 */
static bool hand_slot_to_other_pool(struct worker_pool *pool,
				    struct pool_workqueue *next)
	__releases(&pool->lock) __acquires(&pool->lock)
{
	bool settled;

	raw_spin_unlock(&pool->lock);
	raw_spin_lock(&next->pool->lock);
	settled = node_quota_offer_locked(next, true);
	raw_spin_unlock(&next->pool->lock);
	raw_spin_lock(&pool->lock);
	return settled;
}

/*
 * The pwq first in line for @nna's slots, or %NULL, read without the N
 * lock: it may leave the line meanwhile, which activating it tells.  Its
 * memory stays valid while interrupts are disabled (RCU).
 */
static struct pool_workqueue *node_quota_next(struct wq_node_nr_active *nna)
{
	struct list_head *first = READ_ONCE(nna->pending_pwqs.next);

	if (first == &nna->pending_pwqs)
		return NULL;
	return list_entry(first, struct pool_workqueue, pending_node);
}

/**
 * node_quota_dec_locked - an active item of @pwq is done
 * @pwq: an unbound pwq
 * @kick: wake a worker if this activates items on @pwq's own pool
 *
 * The slot goes to the first pwq in line; one found with nothing left to
 * activate has left the line, and the next one is tried.
 *
 * Context: pool->lock (P) of @pwq's pool, interrupts disabled; the lock
 * may be dropped and retaken.
 */
static void node_quota_dec_locked(struct pool_workqueue *pwq, bool kick)
{
	struct wq_node_nr_active *nna = wq_node_nr_active(pwq->wq, pwq->pool->node);
	struct pool_workqueue *next;
	bool settled;

	wq_assert_P(pwq->pool);
	lockdep_assert_irqs_disabled();
	atomic_dec(&nna->nr);
	smp_mb__after_atomic();	/* the count, then the line */
	while ((next = node_quota_next(nna))) {
		if (next->pool != pwq->pool)
			settled = hand_slot_to_other_pool(pwq->pool, next);
		else
			settled = node_quota_offer_locked(next, kick);
		if (settled)
			break;
	}
}

/*
 * An active item of @pwq finished or was cancelled: its slot goes to the
 * next inactive item, of this pwq or, for unbound workqueues, of the pwq
 * waiting longest for the node's quota.  Without @kick, the pool is not
 * kicked for an item activated on it: the caller is a worker that runs
 * the worklist next (waking another worker would only make it race for
 * the item).  May drop and retake pool->lock.
 */
static void pwq_dec_active_locked(struct pool_workqueue *pwq, bool kick)
{
	bool activated;

	wq_assert_P(pwq->pool);
	pwq->nr_active--;
	if (!pwq_is_unbound(pwq)) {
		activated = pwq_activate_first_locked(pwq, false);
	} else {
		/* alone in line for the node's slots: keep this one */
		activated = node_quota_may_pass(pwq) && pwq_pass_slot_locked(pwq);
		if (!activated)
			node_quota_dec_locked(pwq, kick);
	}
	if (activated && kick)
		kick_pool_locked(pwq->pool);
}

/* ------------------------------------------------------------------ */
/* 10. flush colors, and items leaving their pwq                       */
/* ------------------------------------------------------------------ */

/*
 * Flush colors.  An item takes its pwq's work color when it is queued and
 * is counted in the pwq's nr_in_flight[] for that color until it is done.
 * flush_workqueue() closes the workqueue's current color: every pwq moves
 * on to the next one, and the flush waits until the closed color and
 * every color closed before it have drained.  The closings are numbered,
 * wq->flush_seq, and closing number N closes color (N - 1) %
 * NR_FLUSH_COLORS; wq->flushed_seq counts the closings whose colors have
 * drained, in order.  A color drains when the last pwq that had items of
 * it at its closing runs out of them (wq->nr_pwqs_to_flush[]); one that
 * drains before an older one waits in wq->drained_colors.  So a flush
 * waits for exactly the items queued before it, while up to
 * NR_FLUSH_COLORS - 1 flushes are under way; a flusher that finds every
 * color in use waits for the oldest one, then closes one of its own.
 */

/* Let go of the flushers whose closing has drained, with all before it. */
static void wake_flushers_locked(struct workqueue_struct *wq)
{
	struct flush_waiter *f, *next;

	wq_assert_F(wq);
	list_for_each_entry_safe(f, next, &wq->flushers, node) {
		if ((long)(wq->flushed_seq - f->seq) >= 0) {
			list_del_init(&f->node);
			complete(&f->done);
		}
	}
}

/**
 * flush_color_put - a pwq owing @color to the flush, or its closing, is done
 * @wq: the workqueue
 * @color: a closed color
 *
 * When the last one is done, the color has drained: the closings drained
 * in order are counted in wq->flushed_seq and their flushers let go.
 *
 * Context: any; may be called under pool->lock (P).  Takes F.
 */
static void flush_color_put(struct workqueue_struct *wq, unsigned int color)
{
	unsigned long flags;

	if (!atomic_dec_and_test(&wq->nr_pwqs_to_flush[color]))
		return;
	raw_spin_lock_irqsave(&wq->flush_lock, flags);
	__set_bit(color, &wq->drained_colors);
	while (__test_and_clear_bit(seq_color(wq->flushed_seq),
				    &wq->drained_colors))
		wq->flushed_seq++;
	wake_flushers_locked(wq);
	raw_spin_unlock_irqrestore(&wq->flush_lock, flags);
}

/*
 * Close the workqueue's current color: each pwq notes whether it has items
 * of it and moves on to the next color.  The closing's own reference on
 * the color keeps it from draining before every pwq is looked at.
 * Return: the closed color, with that reference.  Context: W.
 */
static unsigned int close_flush_color_locked(struct workqueue_struct *wq)
{
	unsigned int color = seq_color(wq->flush_seq);
	unsigned int next = seq_color(wq->flush_seq + 1);
	struct pool_workqueue *pwq;

	wq_assert_W(wq);
	atomic_set(&wq->nr_pwqs_to_flush[color], 1);
	for_each_pwq(pwq, wq) {
		raw_spin_lock_irq(&pwq->pool->lock);
		WARN_ON_ONCE(pwq->nr_in_flight[next] ||
			     (pwq->flush_colors & BIT(color)));
		if (pwq->nr_in_flight[color]) {
			pwq->flush_colors |= BIT(color);
			atomic_inc(&wq->nr_pwqs_to_flush[color]);
		}
		pwq->work_color = next;
		raw_spin_unlock_irq(&pwq->pool->lock);
	}
	wq->flush_seq++;
	return color;
}

/*
 * Queue @f behind a closing of its own, or, while every other color is
 * still draining, behind the oldest of them.
 * Return: whether @f has a closing of its own.  Context: W.
 */
static bool enqueue_flusher_locked(struct workqueue_struct *wq,
				   struct flush_waiter *f)
{
	bool own;

	wq_assert_W(wq);
	raw_spin_lock_irq(&wq->flush_lock);
	own = wq->flush_seq + 1 - wq->flushed_seq < NR_FLUSH_COLORS;
	f->seq = (own ? wq->flush_seq : wq->flushed_seq) + 1;
	list_add_tail(&f->node, &wq->flushers);
	raw_spin_unlock_irq(&wq->flush_lock);
	if (own)
		flush_color_put(wq, close_flush_color_locked(wq));
	return own;
}

/**
 * pwq_dec_nr_in_flight_locked - an item of @pwq left the queue for good
 * @pwq: the pwq
 * @data: the item's work->data while it was queued
 * @kick: wake a worker for an item this activates on @pwq's pool
 *
 * Updates the active count, the color counts a flush may be waiting for,
 * and drops the item's reference.
 *
 * Context: pool->lock (P); may be dropped and retaken.
 */
static void pwq_dec_nr_in_flight_locked(struct pool_workqueue *pwq,
					unsigned long data, bool kick)
{
	unsigned int color = data_color(data);
	struct workqueue_struct *wq = pwq->wq;

	wq_assert_P(pwq->pool);
	/* a barrier has no slot: it is INACTIVE wherever it is */
	if (!(data & WORK_STRUCT_INACTIVE))
		pwq_dec_active_locked(pwq, kick);
	pwq->nr_in_flight[color]--;
	if ((pwq->flush_colors & BIT(color)) && !pwq->nr_in_flight[color]) {
		pwq->flush_colors &= ~BIT(color);
		flush_color_put(wq, color);
	}
	put_pwq_locked(pwq);
}

/* ------------------------------------------------------------------ */
/* 11. queueing                                                       */
/* ------------------------------------------------------------------ */

/* Put a queued item on @head, pointing at @pwq, which it holds. */
static void insert_work_locked(struct pool_workqueue *pwq,
			       struct work_struct *work,
			       struct list_head *head, unsigned long flags)
{
	wq_assert_P(pwq->pool);
	debug_work_activate(work);
	/* a barrier linked behind @work stays linked */
	flags |= work_data(work) & WORK_STRUCT_LINKED;
	set_work_queued(work, pwq, flags);
	list_add_tail(&work->entry, head);
	get_pwq_locked(pwq);
}

/* Whether %current runs an item of @wq (which may then queue more). */
static bool is_chained_work(struct workqueue_struct *wq)
{
	struct worker *worker = current_wq_worker();

	return worker && worker->current_pwq && worker->current_pwq->wq == wq;
}

/* The CPU whose pwq an item for @req_cpu goes to. */
static int wq_select_cpu(struct workqueue_struct *wq, int req_cpu)
{
	static DEFINE_PER_CPU(int, wq_rr_cpu_last);
	int cpu;

	if (req_cpu != WORK_CPU_UNBOUND)
		return req_cpu;
	cpu = raw_smp_processor_id();
	if (!(wq->flags & WQ_UNBOUND))
		return cpu;
	/*
	 * Unbound items queued on a CPU outside the unbound cpumask (an
	 * isolated one) go round the allowed CPUs instead of using the pod
	 * of their CPU; so do all of them with the debugging aid on.
	 */
	if (!wq_debug_force_rr_cpu) {
		if (cpumask_test_cpu(cpu, wq_unbound_cpumask))
			return cpu;
	} else {
		pr_warn_once("workqueue: round-robin CPU selection forced, expect performance impact\n");
	}
	cpu = cpumask_next_and(__this_cpu_read(wq_rr_cpu_last), wq_unbound_cpumask,
			       cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first_and(wq_unbound_cpumask, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return raw_smp_processor_id();
	__this_cpu_write(wq_rr_cpu_last, cpu);
	return cpu;
}

/*
 * If @work still runs on another pool for @wq, it must be queued behind
 * itself there: lock and return that pool and set *@pwqp; otherwise lock
 * and return @pool.  Called with RCU held and interrupts disabled.
 */
static struct worker_pool *lock_pool_for_queueing(struct workqueue_struct *wq,
						  struct work_struct *work,
						  struct worker_pool *pool,
						  struct pool_workqueue **pwqp)
{
	struct worker_pool *last;
	struct worker *worker;

	/*
	 * An item queued again where it last ran, the common case, needs no
	 * look-up of its last pool (an IDR walk): compare the ids.
	 */
	if (likely(work_last_pool_id(work) == pool->id))
		goto lock_pool;
	last = get_work_pool(work);
	if (last && last != pool && !wq_is_ordered(wq)) {
		raw_spin_lock(&last->lock);
		worker = find_worker_executing_work(last, work);
		if (worker && worker->current_pwq->wq == wq) {
			*pwqp = worker->current_pwq;
			return last;
		}
		raw_spin_unlock(&last->lock);
	}
lock_pool:
	raw_spin_lock(&pool->lock);
	return pool;
}

/**
 * __queue_work - queue an item whose PENDING bit the caller owns
 * @req_cpu: the CPU asked for, or WORK_CPU_UNBOUND
 * @wq: the workqueue
 * @work: the item
 *
 * Context: interrupts disabled.
 */
void __queue_work(int req_cpu, struct workqueue_struct *wq,
		  struct work_struct *work)
{
	struct task_struct *wake = NULL;
	struct pool_workqueue *pwq;
	struct worker_pool *pool;
	unsigned long flags;
	bool active;
	int cpu;

	lockdep_assert_irqs_disabled();
	/*
	 * A dying or draining workqueue only takes items queued by its own
	 * items (chained work, see is_chained_work()).
	 * As on 6.12, a refused item stays PENDING: it is not queued, and
	 * cannot be queued again, which the warning says.
	 */
	if (unlikely(READ_ONCE(wq->flags) & (__WQ_DESTROYING | __WQ_DRAINING)) &&
	    WARN_ONCE(!is_chained_work(wq), "workqueue: cannot queue %ps on %s: it is being drained or destroyed\n",
		      work->func, wq->name))
		return;

	rcu_read_lock();
retry:
	cpu = wq_select_cpu(wq, req_cpu);
	pwq = rcu_dereference(*per_cpu_ptr(wq->cpu_pwq, cpu));
	/*
	 * An ordered workqueue has one pwq in every entry of its table, and
	 * a rebuild switches the entries one CPU at a time, dfl_pwq last:
	 * through the queuing CPU's entry, an item queued on a CPU already
	 * switched could wait in the new, plugged pwq while a later one,
	 * from a CPU not yet switched, joined the old pwq and ran first.
	 * dfl_pwq changes once per rebuild, so items queued one after the
	 * other go to the same pwq or to later ones.
	 */
	if (unlikely(wq->flags & __WQ_ORDERED))
		pwq = rcu_dereference(wq->dfl_pwq);
	pool = lock_pool_for_queueing(wq, work, pwq->pool, &pwq);

	/* an unbound pwq whose table entry was just replaced: use the new one */
	if (unlikely(!pwq->refcnt)) {
		raw_spin_unlock(&pool->lock);
		if (WARN_ON_ONCE(!(wq->flags & WQ_UNBOUND)))
			goto out;
		cpu_relax();
		goto retry;
	}

	trace_workqueue_queue_work(req_cpu, pwq, work);
	if (WARN_ON(!list_empty(&work->entry)))
		goto unlock;

	pwq->nr_in_flight[pwq->work_color]++;
	flags = color_data(pwq->work_color);
	active = list_empty(&pwq->inactive_works) &&
		 pwq_tryinc_nr_active_locked(pwq, false);
	if (active) {
		trace_workqueue_activate_work(work);
		if (list_empty(&pool->worklist))
			pool->watchdog_ts = jiffies;
		insert_work_locked(pwq, work, &pool->worklist, flags);
	} else {
		insert_work_locked(pwq, work, &pwq->inactive_works,
				   flags | WORK_STRUCT_INACTIVE);
	}
#ifdef WQ_HAS_HISTOGRAMS
	/* the histograms sample one item in so many (workqueue_hist.c) */
	wq_hist_queued_locked(pwq, work, active);
#endif
	/*
	 * The wakeup (the worker's run-queue lock, an IPI when it sleeps on
	 * another CPU) is most of what queueing holds P for: the worker is
	 * woken once P is dropped, so that the pool's other queuers and
	 * workers do not wait behind it.  The paths that wake nobody keep
	 * the plain unlock below.
	 */
	if (active && __kick_pool_locked(pool, &wake) && wake) {
		raw_spin_unlock(&pool->lock);
		wake_up_process(wake);
		goto out;
	}
unlock:
	raw_spin_unlock(&pool->lock);
out:
	rcu_read_unlock();
}

/*
 * @work is idle and the caller just set PENDING: clear it again if the
 * item is disabled.  Returns whether it was.
 */
bool clear_pending_if_disabled(struct work_struct *work)
{
	unsigned long data = work_data(work);

	if (likely(!data_disable_depth(data)))
		return false;
	atomic_long_set(&work->data, data & ~WORK_STRUCT_PENDING);
	return true;
}

/* Set PENDING on an idle, enabled item.  Returns whether we own it now. */
bool claim_work(struct work_struct *work)
{
	return !test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)) &&
	       !clear_pending_if_disabled(work);
}

/**
 * queue_work_on - queue work on a specific CPU
 * @cpu: the CPU, or WORK_CPU_UNBOUND for the local one
 * @wq: the workqueue
 * @work: the item
 *
 * For a per-CPU workqueue the item runs on @cpu, which the caller keeps
 * online; an unbound workqueue uses @cpu's pod.
 *
 * Context: any.
 * Return: %false if @work was already pending (or is disabled), %true if
 * it was queued.
 */
bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	guard(irqsave)();
	if (!claim_work(work))
		return false;
	__queue_work(cpu, wq, work);
	return true;
}
EXPORT_SYMBOL(queue_work_on);

/* A CPU of @node, preferring the local one; WORK_CPU_UNBOUND if none. */
static int select_numa_node_cpu(int node)
{
	int cpu = raw_smp_processor_id();
	bool valid = (unsigned int)node < MAX_NUMNODES && node_online(node);

	if (valid && cpu_to_node(cpu) != node)
		cpu = cpumask_any_and(cpumask_of_node(node), cpu_online_mask);
	return valid && cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/**
 * queue_work_node - queue work on a CPU of a NUMA node
 * @node: the node
 * @wq: the workqueue, which must be unbound
 * @work: the item
 *
 * Context: any.
 * Return: %false if @work was already pending, %true if it was queued.
 */
bool queue_work_node(int node, struct workqueue_struct *wq,
		     struct work_struct *work)
{
	unsigned long irq_flags;
	bool queued;

	/* per-CPU workqueues would be bound to whatever CPU we picked */
	WARN_ON_ONCE(!(wq->flags & WQ_UNBOUND));

	local_irq_save(irq_flags);
	queued = claim_work(work);
	if (queued)
		__queue_work(select_numa_node_cpu(node), wq, work);
	local_irq_restore(irq_flags);
	return queued;
}
EXPORT_SYMBOL_GPL(queue_work_node);

/* Queue @dwork after @delay; the caller owns PENDING. */
/*
 * Arm the timer of an item to be queued on @cpu.  With nohz_full
 * (HK_TYPE_TIMER housekeeping) it runs on a housekeeping CPU, this one if
 * it is one; the item still goes to @cpu when it fires.  Otherwise on
 * @cpu, or on any CPU for WORK_CPU_UNBOUND: add_timer_global() also drops
 * the TIMER_PINNED an earlier add_timer_on() left on the timer.
 */
static void arm_delayed_work_timer(struct timer_list *timer, int cpu)
{
	int here = smp_processor_id();

	if (housekeeping_enabled(HK_TYPE_TIMER))
		add_timer_on(timer, housekeeping_test_cpu(here, HK_TYPE_TIMER) ?
				    here : housekeeping_any_cpu(HK_TYPE_TIMER));
	else if (cpu == WORK_CPU_UNBOUND)
		add_timer_global(timer);
	else
		add_timer_on(timer, cpu);
}

static void __queue_delayed_work(int cpu, struct workqueue_struct *wq,
				 struct delayed_work *dwork, unsigned long delay)
{
	/* a delayed item is idle when queued, and set up as one */
	WARN_ON_ONCE(!wq || dwork->timer.function != delayed_work_timer_fn ||
		     timer_pending(&dwork->timer) || !list_empty(&dwork->work.entry));
	if (!delay) {
		/* no tick to wait for: the earliest a timer fires is the next */
		__queue_work(cpu, wq, &dwork->work);
		return;
	}
	dwork->wq = wq;
	dwork->cpu = cpu;
	dwork->timer.expires = jiffies + delay;
	arm_delayed_work_timer(&dwork->timer, cpu);
}

/**
 * delayed_work_timer_fn - the timer of a delayed item expired
 * @t: the timer
 *
 * Context: timer (softirq), interrupts disabled (TIMER_IRQSAFE).
 */
void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);

	__queue_work(dwork->cpu, dwork->wq, &dwork->work);
}
EXPORT_SYMBOL(delayed_work_timer_fn);

/**
 * queue_delayed_work_on - queue work on a CPU after a delay
 * @cpu: the CPU, or WORK_CPU_UNBOUND
 * @wq: the workqueue
 * @dwork: the delayed item
 * @delay: jiffies to wait; 0 queues at once
 *
 * Context: any.
 * Return: %false if @dwork was already pending, %true if it was queued.
 */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	guard(irqsave)();
	if (!claim_work(&dwork->work))
		return false;
	__queue_delayed_work(cpu, wq, dwork, delay);
	return true;
}
EXPORT_SYMBOL(queue_delayed_work_on);

/* The grace period of an RCU item is over: queue it (PENDING is ours). */
static void rcu_work_rcufn(struct rcu_head *head)
{
	struct rcu_work *rwork = container_of(head, struct rcu_work, rcu);

	guard(irqsave)();
	__queue_work(WORK_CPU_UNBOUND, rwork->wq, &rwork->work);
}

/**
 * queue_rcu_work - queue work after an RCU grace period
 * @wq: the workqueue
 * @rwork: the item
 *
 * Context: any.
 * Return: %false if @rwork was already pending, %true if it was queued.
 */
bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork)
{
	struct work_struct *work = &rwork->work;

	/* an rcu_work cannot be disabled: say so when its item was */
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)) ||
	    WARN_ON_ONCE(clear_pending_if_disabled(work)))
		return false;
	rwork->wq = wq;
	call_rcu_hurry(&rwork->rcu, rcu_work_rcufn);
	return true;
}
EXPORT_SYMBOL(queue_rcu_work);

/* ------------------------------------------------------------------ */
/* 12. flushing: barriers, flush_work(), flush_workqueue(), draining  */
/* ------------------------------------------------------------------ */

/*
 * A barrier is an item queued right behind the one a flush waits for; it
 * completes when it runs.  A barrier takes its target's color and no
 * active slot; it is recognised by its function.
 */
static void wq_barrier_func(struct work_struct *work)
{
	struct wq_barrier *barr = container_of(work, struct wq_barrier, work);
	struct task_struct *waiter = get_task_struct(barr->task);

	/* the pwq holds its workqueue until this barrier is done */
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_flushed(barr->pwq->wq, barr->since);
#endif
	/* the waiter may return (and @barr go) once it sees @done */
	smp_store_release(&barr->done, true);
	wake_up_process(waiter);
	put_task_struct(waiter);
}

/**
 * wq_barrier_task - the task waiting on a flush_work() barrier
 * @work: an item
 *
 * Context: pool->lock (P) of the pool @work is queued on.
 * Return: the flushing task if @work is a barrier, else %NULL.
 */
struct task_struct *wq_barrier_task(struct work_struct *work)
{
	if (!work_is_barrier(work))
		return NULL;
	return container_of(work, struct wq_barrier, work)->task;
}

#ifdef WQ_HAS_WAIT_PI
/*
 * An active pending item that a waiter lends a higher priority to starts
 * next: to the front of its pool's worklist, with the barriers linked
 * behind it, ahead of other workqueues' items (which the pool never
 * promised an order against).  Its caller found no worker running it, so
 * it is on the worklist: only a worker running an item keeps another
 * instance of it on its scheduled list while the pool lock is dropped
 * (rescue_pwq() takes one item at a time).  Items waiting behind
 * max_active stay in queueing order (see barr->ahead).  Context: P.
 */
static void target_to_front_locked(struct pool_workqueue *pwq,
				   struct work_struct *target)
{
	struct list_head *head = &pwq->pool->worklist;

	wq_assert_P(pwq->pool);
	if (head->next != &target->entry)
		move_linked_works(target, head->next, NULL);
}

/*
 * A pending item waited for at @rank that the pool needs a worker for
 * starts on the idle worker kick_pool_locked() wakes: that worker is
 * raised and woken now, so that it does not wait behind the CPU's other
 * tasks to get there.  Woken, it passes through worker_thread(): the item
 * it takes, or going idle again if another worker took the item first,
 * re-ranks it, so the raise ends with its next look at the pool.  An
 * item that waits behind max_active, or for a running worker of the pool
 * to get to it, raises nobody here: the worker that starts it is raised
 * then (worker_begin_item_locked()).  Context: P.  Return: as
 * worker_update_rank_locked().
 */
static bool lend_to_waking_locked(struct worker_pool *pool, int rank)
{
	struct worker *worker;
	bool apply;

	wq_assert_P(pool);
	if (!pool_needs_worker(pool))
		return false;
	worker = list_first_entry_or_null(&pool->idle_list, struct worker, entry);
	if (!worker || !worker->task || rank <= worker->rank)
		return false;
	trace_workqueue_work_boost(worker->task, NULL, worker->rank, rank);
	apply = worker_set_rank(worker, rank);
	worker->rank = rank;
	worker->boosted = true;
	wake_up_process(worker->task);
	return apply;
}

/*
 * Start the loan of @barr's waiter to the item it waits for (section 6):
 * to @runner if the item runs there, to whatever runs ahead of it on an
 * ordered workqueue or, while it waits behind max_active, on its pwq; an
 * active pending item goes to the front.  Waiters ranked at or below the
 * pool's own priority change nothing.  BH items have no worker to lend
 * to.  Context: P.  Return: as worker_update_rank_locked().
 */
static bool lend_to_target_locked(struct wq_barrier *barr, struct worker *runner)
{
	struct pool_workqueue *pwq = barr->pwq;
	bool apply = false;

	wq_assert_P(pwq->pool);
	if (pwq->pool->flags & POOL_BH)
		return false;
	barr->ahead = work_data(barr->target) & WORK_STRUCT_INACTIVE;
	list_add_tail(&barr->boost_node, &pwq->boosters);
	if (!barrier_raises(barr))
		return false;
	pwq->nr_raising++;
	/* a target queued again while it runs: the run ahead first */
	if (!runner)
		runner = find_worker_executing_work(pwq->pool, barr->target);
	if (runner)
		apply |= worker_update_rank_locked(runner);
	if (wq_is_ordered(pwq->wq) || barr->ahead) {
		apply |= pwq_update_ranks_locked(pwq);
	} else if (!runner) {
		target_to_front_locked(pwq, barr->target);
		apply |= lend_to_waking_locked(pwq->pool, barr->rank);
	}
	return apply;
}

/*
 * The rank %current lends: a worker's decided rank may not be applied
 * yet when it is told it was raised.
 */
static int lender_rank(void)
{
	struct worker *self = current_wq_worker();
	int rank = task_rank(current);

	return self ? max(rank, READ_ONCE(self->rank)) : rank;
}

/*
 * The waiter of @barr, a worker, was raised while it waits: pass the raise
 * on to the item it waits for (whose worker passes it on in turn if it
 * waits too).  Context: process context.
 */
static void lend_raise(struct wq_barrier *barr)
{
	struct pool_workqueue *pwq = barr->pwq;
	struct worker_pool *pool = pwq->pool;
	int rank = lender_rank();
	bool apply = false;

	raw_spin_lock_irq(&pool->lock);
	if (!list_empty(&barr->boost_node) && rank > barr->rank) {
		struct worker *runner = find_worker_executing_work(pool, barr->target);

		if (!barrier_raises(barr) && rank > pool_rank(pool))
			pwq->nr_raising++;
		barr->rank = rank;
		if (runner)
			apply = worker_update_rank_locked(runner);
		else if (wq_is_ordered(pwq->wq) || barr->ahead)
			apply = pwq_update_ranks_locked(pwq);
	}
	raw_spin_unlock_irq(&pool->lock);
	if (apply)
		wq_apply_ranks();
}
#endif

/*
 * Queue @barr to run right after @target: first on @worker's scheduled
 * list if @target runs there, else right behind @target, linked to it so
 * that it moves wherever @target moves.  The barrier takes @target's
 * color, so a flush of the workqueue (and so a drain, and destroy) waits
 * for it as 6.12's does; it is INACTIVE for good: it never takes a slot.
 */
static void insert_wq_barrier_locked(struct pool_workqueue *pwq,
				     struct wq_barrier *barr,
				     struct work_struct *target,
				     struct worker *worker)
{
	static __maybe_unused struct lock_class_key bh_key, thr_key;
	unsigned long flags = WORK_STRUCT_INACTIVE;
	unsigned int color;
	struct list_head *head;

	wq_assert_P(pwq->pool);
	/* a BH barrier runs in softirq: its own lockdep class */
	INIT_WORK_ONSTACK_KEY(&barr->work, wq_barrier_func,
			      pwq->wq->flags & WQ_BH ? &bh_key : &thr_key);
	__set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&barr->work));
	barr->done = false;
	barr->task = current;
	barr->pwq = pwq;
#ifdef WQ_HAS_WAIT_PI
	barr->raised = false;
	barr->target = target;
	barr->target_func = target->func;
	barr->rank = lender_rank();
	barr->ahead = false;
	barr->apply = false;
	INIT_LIST_HEAD(&barr->boost_node);
#endif
#ifdef WQ_HAS_HISTOGRAMS
	barr->since = static_branch_likely(&wq_hist_on) ? wq_hist_clock() : 0;
#endif

	if (worker) {
		head = worker->scheduled.next;
		color = worker->current_color;
	} else {
		unsigned long tdata = work_data(target);

		head = target->entry.next;
		color = data_color(tdata);
		/* keep the chain of barriers already linked behind @target */
		flags |= tdata & WORK_STRUCT_LINKED;
		__set_bit(WORK_STRUCT_LINKED_BIT, work_data_bits(target));
	}
	pwq->nr_in_flight[color]++;
	insert_work_locked(pwq, &barr->work, head, flags | color_data(color));
#ifdef WQ_HAS_WAIT_PI
	barr->apply = lend_to_target_locked(barr, worker);
#endif
}

/*
 * Warn when a worker that reclaim may wait for waits for a workqueue that
 * cannot guarantee progress under memory pressure.  Cancelling only waits
 * for an item that already runs, and legacy create_workqueue() users get
 * WQ_MEM_RECLAIM whether they need it or not: neither is warned about.
 */
static void check_flush_dependency(struct workqueue_struct *target_wq,
				   struct work_struct *target_work,
				   bool from_cancel)
{
	work_func_t target_func = target_work ? target_work->func : NULL;
	struct worker *worker = current_wq_worker();
	unsigned int wflags;

	if (from_cancel || (target_wq->flags & WQ_MEM_RECLAIM))
		return;
	WARN_ONCE(current->flags & PF_MEMALLOC,
		  "workqueue: PF_MEMALLOC task %d(%s) is flushing !WQ_MEM_RECLAIM %s:%ps",
		  current->pid, current->comm, target_wq->name, target_func);
	wflags = worker && worker->current_pwq ? worker->current_pwq->wq->flags : 0;
	WARN_ONCE((wflags & (WQ_MEM_RECLAIM | __WQ_LEGACY)) == WQ_MEM_RECLAIM,
		  "workqueue: WQ_MEM_RECLAIM %s:%ps is flushing !WQ_MEM_RECLAIM %s:%ps",
		  worker->current_pwq->wq->name, worker->current_func,
		  target_wq->name, target_func);
}

/*
 * Where @work is, on the locked @pool: its pwq, and the worker running it
 * if it is not queued.  %NULL if it is neither queued here nor running,
 * with *@moved set if its data names another pool now: queued again
 * since @pool was read (on an ordered workqueue maybe while it still runs
 * here: it queues on its newest pwq, whatever runs on an older one), or
 * taken off its queue by a cancel that names the pool running it.
 */
static struct pool_workqueue *locate_work_locked(struct worker_pool *pool,
						 struct work_struct *work,
						 struct worker **runner,
						 bool *moved)
{
	struct pool_workqueue *pwq = get_work_pwq(work);
	int id = work_last_pool_id(work);

	wq_assert_P(pool);
	*runner = NULL;
	*moved = (unsigned long)id != WORK_OFFQ_POOL_NONE && id != pool->id;
	if (*moved)
		return NULL;
	if (pwq)
		return pwq;
	*runner = find_worker_executing_work(pool, work);
	return *runner ? (*runner)->current_pwq : NULL;
}

/*
 * Tell lockdep we wait for whatever holds @map.  BH items take their maps
 * in softirq: take them with softirqs off here too.
 */
/* The lockdep maps of an item and of a workqueue; %NULL without lockdep. */
static struct lockdep_map *work_lockdep_map(struct work_struct *work)
{
#ifdef CONFIG_LOCKDEP
	return &work->lockdep_map;
#else
	return NULL;
#endif
}

static struct lockdep_map *wq_lockdep_map(struct workqueue_struct *wq)
{
#ifdef CONFIG_LOCKDEP
	return wq->lockdep_map;
#else
	return NULL;
#endif
}

static void touch_lockdep_map(struct lockdep_map *map, bool bh)
{
	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	if (bh)
		local_bh_disable();
	lock_map_acquire(map);
	lock_map_release(map);
	if (bh)
		local_bh_enable();
}

/* Insert a barrier behind @work if it is queued or running; lockdep too. */
static bool insert_flush_barrier(struct wq_barrier *barr, struct work_struct *work,
				 bool from_cancel)
{
	struct worker_pool *pool;
	struct workqueue_struct *wq = NULL;
	struct worker *runner;
	struct pool_workqueue *pwq;
	bool moved;

	guard(rcu)();
	do {
		/*
		 * Queued again on another pool since we read this one: wait
		 * behind that instance, which runs after this one's run (an
		 * item never runs twice at once; an ordered workqueue's newer
		 * pwq waits for the older ones).
		 */
		pool = get_work_pool(work);
		if (!pool)
			return false;
		scoped_guard(raw_spinlock_irq, &pool->lock) {
			pwq = locate_work_locked(pool, work, &runner, &moved);
			if (pwq) {
				wq = pwq->wq;
				check_flush_dependency(wq, work, from_cancel);
				insert_wq_barrier_locked(pwq, barr, work, runner);
			}
		}
	} while (moved);
	if (!wq)
		return false;
	/* the flusher's locks against whatever the item's function takes */
	touch_lockdep_map(work_lockdep_map(work), wq->flags & WQ_BH);
	/*
	 * Waiting for an item of a workqueue that runs one item at a time
	 * (or has a rescuer) waits for the whole workqueue, as lockdep sees it.
	 */
	if (!from_cancel && (wq->saved_max_active == 1 || wq->rescuer))
		touch_lockdep_map(wq_lockdep_map(wq), wq->flags & WQ_BH);
	return true;
}

#ifdef WQ_HAS_WAIT_PI
/*
 * Note, under its pool's lock, the barrier a worker waits on (@barr), or
 * that it no longer waits (%NULL): a raise of its priority meanwhile is
 * to be passed on (lend_raise()).
 */
static void worker_set_waiting(struct worker *worker, struct wq_barrier *barr)
{
	raw_spin_lock_irq(&worker->pool->lock);
	worker->waiting = barr;
	raw_spin_unlock_irq(&worker->pool->lock);
}
#endif

/*
 * Wait for a barrier to run; a cancelled BH item may be waited for
 * atomically.
 */
static void wait_for_barrier(struct wq_barrier *barr, bool bh_atomic)
{
#ifdef WQ_HAS_WAIT_PI
	/* a worker that waits passes a raise of its priority on to its item */
	struct worker *self = current_wq_worker();

#endif
	if (bh_atomic) {
		/* pairs with the release in wq_barrier_func() */
		while (!smp_load_acquire(&barr->done)) {
			if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
				/* let the softirq that runs it make progress */
				local_bh_disable();
				local_bh_enable();
			} else {
				cpu_relax();
			}
		}
		return;
	}
#ifdef WQ_HAS_WAIT_PI
	if (self) {
		worker_set_waiting(self, barr);
		/* a raise that came before the worker was known to wait */
		lend_raise(barr);
	}
#endif
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		/* pairs with the release in wq_barrier_func() */
		if (smp_load_acquire(&barr->done))
			break;
#ifdef WQ_HAS_WAIT_PI
		if (READ_ONCE(barr->raised)) {
			__set_current_state(TASK_RUNNING);
			WRITE_ONCE(barr->raised, false);
			lend_raise(barr);
			continue;
		}
#endif
		schedule();
	}
	__set_current_state(TASK_RUNNING);
#ifdef WQ_HAS_WAIT_PI
	if (self)
		worker_set_waiting(self, NULL);
#endif
}

static bool __flush_work(struct work_struct *work, bool from_cancel)
{
	struct wq_barrier barr;
	bool bh_atomic;

	if (!from_cancel)
		might_sleep();
	if (WARN_ON(!wq_online || !work->func))
		return false;

	if (!insert_flush_barrier(&barr, work, from_cancel))
		return false;
#ifdef WQ_HAS_WAIT_PI
	/* never a BH item's barrier: those lend nothing, atomic or not */
	if (barr.apply)
		wq_apply_ranks();
#endif
	bh_atomic = from_cancel && (work_data(work) & WORK_OFFQ_BH) &&
		    (!in_task() || irqs_disabled() || preempt_count());
	wait_for_barrier(&barr, bh_atomic);
	destroy_work_on_stack(&barr.work);
	return true;
}

/**
 * flush_delayed_work - run a delayed item now and wait for it
 * @dwork: the item
 *
 * A pending timer is cancelled and the item queued at once.
 *
 * Context: process context, may sleep.
 * Return: %true if it waited, %false if @dwork was idle.
 */
bool flush_delayed_work(struct delayed_work *dwork)
{
	/* stopping the timer leaves PENDING to us: queue it at once */
	scoped_guard(irq) {
		if (timer_delete_sync(&dwork->timer))
			__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	}
	return flush_work(&dwork->work);
}
EXPORT_SYMBOL(flush_delayed_work);

/**
 * flush_work - wait for the last queueing of an item to finish
 * @work: the item
 *
 * Waits until @work, if pending or running when called, has run; not for
 * queueings after the call.
 *
 * Context: process context, may sleep.
 * Return: %true if it waited, %false if @work was idle.
 */
bool flush_work(struct work_struct *work)
{
	return __flush_work(work, false);
}
EXPORT_SYMBOL_GPL(flush_work);

/**
 * flush_rcu_work - wait for an RCU item: its grace period, then itself
 * @rwork: the item
 *
 * Context: process context, may sleep.
 * Return: %true if it waited, %false if @rwork was idle.
 */
bool flush_rcu_work(struct rcu_work *rwork)
{
	bool in_grace_period = work_pending(&rwork->work);

	/* still waiting for the grace period: wait for it to be queued */
	if (in_grace_period)
		rcu_barrier();
	return flush_work(&rwork->work) || in_grace_period;
}
EXPORT_SYMBOL(flush_rcu_work);

#ifdef WQ_HAS_WAIT_PI
/*
 * The rank the caller lends to the items of @wq, or WQ_NO_RANK if it is
 * not above the priority of any of the workqueue's pools.
 */
static int flush_lend_rank(struct workqueue_struct *wq)
{
	int rank = lender_rank();
	struct pool_workqueue *pwq;

	guard(rcu)();
	for_each_pwq(pwq, wq)
		if (rank > pool_rank(pwq->pool))
			return rank;
	return WQ_NO_RANK;
}

/*
 * A flush_workqueue() caller lends its priority to every item of @wq while
 * it waits (@on), and stops (!@on): the workers running them are re-ranked
 * at once.  That reaches items queued after the flush began too, which it
 * does not wait for; pending items keep their order.  BH workqueues have
 * no workers to lend to.  Context: process context.
 */
static void flush_lend(struct workqueue_struct *wq, struct flush_waiter *f,
		       bool on)
{
	struct pool_workqueue *pwq;
	bool apply = false;

	if (wq->flags & WQ_BH)
		return;
	if (on)
		f->rank = flush_lend_rank(wq);
	/* nobody to lend to: the flush costs nothing more */
	if (f->rank == WQ_NO_RANK)
		return;
	raw_spin_lock_irq(&wq->flush_lock);
	if (on) {
		list_add_tail(&f->lend_node, &wq->flush_lenders);
		WRITE_ONCE(wq->nr_flush_lenders, wq->nr_flush_lenders + 1);
	} else {
		list_del(&f->lend_node);
		WRITE_ONCE(wq->nr_flush_lenders, wq->nr_flush_lenders - 1);
	}
	raw_spin_unlock_irq(&wq->flush_lock);

	scoped_guard(rcu) {
		for_each_pwq(pwq, wq) {
			/* a loan at or below the pool's own rank changes nothing */
			if (f->rank <= pool_rank(pwq->pool))
				continue;
			raw_spin_lock_irq(&pwq->pool->lock);
			apply |= pwq_update_ranks_locked(pwq);
			raw_spin_unlock_irq(&pwq->pool->lock);
		}
	}
	if (apply)
		wq_apply_ranks();
}
#endif

/**
 * __flush_workqueue - wait for every item queued on a workqueue so far
 * @wq: the workqueue
 *
 * Closes the current flush color, so that items queued from now on get
 * the next one, and returns once the closed color and every color closed
 * before it have drained.  Concurrent callers each wait for the items
 * queued before their own call.
 *
 * Context: process context, may sleep.
 */
void __flush_workqueue(struct workqueue_struct *wq)
{
#ifdef WQ_HAS_HISTOGRAMS
	u64 since = static_branch_likely(&wq_hist_on) ? wq_hist_clock() : 0;
#endif
	struct flush_waiter f;
	bool own;

	if (WARN_ON(!wq_online))
		return;
	touch_lockdep_map(wq_lockdep_map(wq), wq->flags & WQ_BH);
	check_flush_dependency(wq, NULL, false);

	init_completion(&f.done);
#ifdef WQ_HAS_WAIT_PI
	flush_lend(wq, &f, true);
#endif
	do {
		mutex_lock(&wq->mutex);
		own = enqueue_flusher_locked(wq, &f);
		mutex_unlock(&wq->mutex);
		wait_for_completion(&f.done);
		reinit_completion(&f.done);
	} while (!own);
#ifdef WQ_HAS_WAIT_PI
	flush_lend(wq, &f, false);
#endif
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_flushed(wq, since);
#endif
}
EXPORT_SYMBOL(__flush_workqueue);

/**
 * __warn_flushing_systemwide_wq - a caller flushes a system-wide workqueue
 *
 * flush_workqueue() on a system workqueue is flagged at compile time;
 * flush_scheduled_work() reaches here at run time and says so with a
 * stack dump, in 6.12's words (log checks look for them).
 *
 * Context: process context.
 */
void __warn_flushing_systemwide_wq(void)
{
	pr_warn("WARNING: Flushing system-wide workqueues will be prohibited in near future.\n");
	dump_stack();
}
EXPORT_SYMBOL(__warn_flushing_systemwide_wq);

static bool pwq_drained(struct pool_workqueue *pwq)
{
	bool drained;

	raw_spin_lock_irq(&pwq->pool->lock);
	drained = !pwq->nr_active && list_empty(&pwq->inactive_works);
	raw_spin_unlock_irq(&pwq->pool->lock);
	return drained;
}

/*
 * Flush @wq until it is empty, with @mark (a __WQ_ flag that stays) set
 * on it in the same hold of W that makes it a drainer.
 */
static void drain_marked(struct workqueue_struct *wq, unsigned int mark)
{
	unsigned int flushes = 0;
	struct pool_workqueue *pwq;
	bool drained;

	mutex_lock(&wq->mutex);
	if (!wq->nr_drainers++)
		wq->flags |= __WQ_DRAINING;
	wq->flags |= mark;
	mutex_unlock(&wq->mutex);
	do {
		__flush_workqueue(wq);
		drained = true;
		mutex_lock(&wq->mutex);
		for_each_pwq(pwq, wq)
			drained &= pwq_drained(pwq);
		if (drained && !--wq->nr_drainers)
			wq->flags &= ~__WQ_DRAINING;
		mutex_unlock(&wq->mutex);
		/* 6.12's cadence and words: at 10 tries, then every 100 to 1000 */
		if (!drained && (++flushes == 10 ||
				 (flushes % 100 == 0 && flushes <= 1000)))
			pr_warn("workqueue %s: drain_workqueue() isn't complete after %u tries\n",
				wq->name, flushes);
	} while (!drained);
}

/**
 * drain_workqueue - flush a workqueue until it is empty
 * @wq: the workqueue
 *
 * While draining, only the workqueue's own items may queue more (chains);
 * anything else queueing on it is refused with a warning.
 *
 * Context: process context, may sleep.
 */
void drain_workqueue(struct workqueue_struct *wq)
{
	drain_marked(wq, 0);
}
EXPORT_SYMBOL_GPL(drain_workqueue);

/**
 * retire_workqueue - drain a workqueue for good and stop its rescuer
 * @wq: the workqueue, being destroyed
 *
 * From the moment it is a drainer, @wq is marked __WQ_DESTROYING: from
 * then on only its own items may queue on it, for good.
 *
 * Context: process context, may sleep.
 */
void retire_workqueue(struct workqueue_struct *wq)
{
	drain_marked(wq, __WQ_DESTROYING);
	stop_rescuer(wq);
}

static bool pwq_busy_locked(struct pool_workqueue *pwq)
{
	wq_assert_P(pwq->pool);
	return pwq->nr_active || !list_empty(&pwq->inactive_works) ||
	       memchr_inv(pwq->nr_in_flight, 0, sizeof(pwq->nr_in_flight));
}

/**
 * wq_busy_for_destroy - whether anything of a drained workqueue is in flight
 * @wq: the workqueue, being destroyed
 *
 * A workqueue found busy is kept rather than freed under its items.
 *
 * Context: wq->mutex (W).
 * Return: %true if a pwq still has active, inactive or in-flight items.
 */
bool wq_busy_for_destroy(struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;
	bool busy = false;

	wq_assert_W(wq);
	for_each_pwq(pwq, wq) {
		raw_spin_lock_irq(&pwq->pool->lock);
		busy |= pwq_busy_locked(pwq);
		raw_spin_unlock_irq(&pwq->pool->lock);
	}
	return busy;
}

/* ------------------------------------------------------------------ */
/* 13. cancelling, disabling, enabling                                */
/* ------------------------------------------------------------------ */

/*
 * Take a queued item of @pwq off its list, and see to the flush barriers
 * linked behind it.  Their flushers also wait for a run of the item that
 * is still going on (an item queued again while it runs), in this pool
 * (the queueing went where the item ran) or, for an ordered workqueue,
 * on an older pwq.  A run in this pool gets the barriers first on its
 * worker's list: left on the worklist, another worker would run them
 * during the run (where the item was still active, waiting for a worker
 * to hand it to the runner).  In a plugged pwq, an ordered workqueue's
 * newer one, the run may be on an older pwq, which drains first: the
 * barriers keep their place and start with the pwq.  Without a run, an
 * active item's barriers stay where they are, on the worklist or the
 * worker's list, and an inactive one's go to the worklist: both run at
 * once.
 */
static void unlink_queued_work_locked(struct pool_workqueue *pwq,
				      struct work_struct *work, unsigned long data)
{
	struct work_struct *next = list_next_entry(work, entry);
	struct worker_pool *pool = pwq->pool;
	struct worker *runner;

	wq_assert_P(pool);
	list_del_init(&work->entry);
	if (!(data & WORK_STRUCT_LINKED))
		return;
	if ((data & WORK_STRUCT_INACTIVE) && pwq->plugged)
		return;
	runner = find_worker_executing_work(pool, work);
	if (runner) {
		/* already first on the runner's list if the item was there */
		if (runner->scheduled.next != &next->entry)
			move_linked_works(next, runner->scheduled.next, NULL);
		return;
	}
	if (data & WORK_STRUCT_INACTIVE) {
		move_linked_works(next, &pool->worklist, NULL);
		kick_pool_locked(pool);
	}
}

/*
 * The stop_timer of try_to_grab_pending() for a delayed_work's item: stop
 * its timer_list if it is pending, and say whether it was.
 */
static bool stop_wheel_timer(struct work_struct *work)
{
	return likely(timer_delete(&to_delayed_work(work)->timer));
}

/*
 * An ordered workqueue queues an item on its newest pwq even while the
 * item still runs on an older one (the order runs them one at a time),
 * so a cancelled item's data would name the newest pwq's pool, which may
 * not be the one running it.  The pool of @queued's workqueue other than
 * @grabbed that runs @work, if one does, for the data to name, so that
 * flush_work() and cancel_work_sync() find the run and wait; else
 * @grabbed.  Looked up before @grabbed is locked (two pool locks are
 * never held at once): the run can end meanwhile, and the item, queued on
 * @grabbed, can start there and be queued there again; the caller names
 * @grabbed then, which it sees under its lock.  The caller holds RCU,
 * with interrupts off and no pool lock.
 */
static struct worker_pool *ordered_runner_pool(struct work_struct *work,
					       struct pool_workqueue *queued,
					       struct worker_pool *grabbed)
{
	struct pool_workqueue *pwq;

	if (!queued || likely(!wq_is_ordered(queued->wq)))
		return grabbed;
	list_for_each_entry_rcu(pwq, &queued->wq->pwqs, pwqs_node) {
		struct worker_pool *pool = pwq->pool;
		bool runs;

		if (pool == grabbed)
			continue;
		raw_spin_lock(&pool->lock);
		runs = find_worker_executing_work(pool, work);
		raw_spin_unlock(&pool->lock);
		if (runs)
			return pool;
	}
	return grabbed;
}

/**
 * try_to_grab_pending - take an item's PENDING bit away from its queue
 * @work: the item
 * @stop_timer: %NULL for an item that waits on no timer; else a function
 *	that stops the timer of the item's container (the timer_list of a
 *	delayed_work, the hrtimer of a precise_work) if it is pending and
 *	says whether it was: stopped, PENDING belongs to the caller.  A timer
 *	whose function runs is not stopped; the function queues the item,
 *	which is then grabbed from its queue.  Called with interrupts off.
 * @irq_flags: where to save the interrupt state
 *
 * Return: 1 if @work was pending and is now off its timer and queue, 0 if
 * it was idle; either way PENDING is now the caller's and interrupts stay
 * disabled until it restores @irq_flags.  -EAGAIN if someone is busy
 * queueing it (interrupts restored): try again.
 */
static int try_to_grab_pending(struct work_struct *work,
			       bool (*stop_timer)(struct work_struct *work),
			       unsigned long *irq_flags)
{
	struct pool_workqueue *pwq;
	struct worker_pool *pool;

	local_irq_save(*irq_flags);
	/* stopping a pending timer leaves PENDING to us */
	if (stop_timer && stop_timer(work))
		return 1;
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
		return 0;

	rcu_read_lock();
	pool = get_work_pool(work);
	if (pool) {
		/* a peek, which the pool lock confirms (or we try again) */
		struct pool_workqueue *peek = get_work_pwq(work);
		struct worker_pool *named = ordered_runner_pool(work, peek, pool);

		raw_spin_lock(&pool->lock);
		pwq = get_work_pwq(work);
		if (pwq && pwq == peek && pwq->pool == pool) {
			unsigned long data = work_data(work);

			/* a run here is the newest: the older one has ended */
			if (find_worker_executing_work(pool, work))
				named = pool;

			debug_work_deactivate(work);
			unlink_queued_work_locked(pwq, work, data);
#ifdef WQ_HAS_HISTOGRAMS
			wq_hist_unlink_locked(pwq, work);
#endif
			pwq_unlist_if_drained_locked(pwq);
			/* off queue before the counts: they may drop the lock */
			set_work_off_queue(work, named->id, pool_offq_bits(named), true);
			pwq_dec_nr_in_flight_locked(pwq, data, true);
			raw_spin_unlock(&pool->lock);
			rcu_read_unlock();
			return 1;
		}
		raw_spin_unlock(&pool->lock);
	}
	rcu_read_unlock();
	local_irq_restore(*irq_flags);
	cpu_relax();
	return -EAGAIN;
}

/* try_to_grab_pending() until it succeeds; its return, 0 or 1. */
int grab_pending(struct work_struct *work,
		 bool (*stop_timer)(struct work_struct *work),
		 unsigned long *irq_flags)
{
	int ret;

	do {
		ret = try_to_grab_pending(work, stop_timer, irq_flags);
	} while (ret == -EAGAIN);
	return ret;
}

/*
 * Release PENDING of an item we grabbed, with @delta added to its disable
 * depth, and restore interrupts.  Returns the new depth.
 */
static unsigned int release_grabbed_work(struct work_struct *work, int delta,
					 unsigned long irq_flags)
{
	const unsigned int max_depth = WORK_OFFQ_DISABLE_MASK >> WORK_OFFQ_DISABLE_SHIFT;
	unsigned long data = work_data(work);
	unsigned int depth = data_disable_depth(data);

	if (delta > 0 && !WARN_ONCE(depth == max_depth, "workqueue: %ps disabled too deeply\n",
				    work->func))
		depth++;
	else if (delta < 0 && !WARN_ONCE(!depth, "workqueue: %ps enabled more than disabled\n",
					 work->func))
		depth--;
	set_work_off_queue(work, work_last_pool_id(work),
			   (data & WORK_OFFQ_FLAG_MASK) |
			   ((unsigned long)depth << WORK_OFFQ_DISABLE_SHIFT), false);
	local_irq_restore(irq_flags);
	return depth;
}

/*
 * cancel_work() (or disable_work(), with @disable) of an item that waits on
 * the timer @stop_timer stops (see try_to_grab_pending()).  Returns
 * whether it was pending.
 */
bool __cancel_work(struct work_struct *work,
		   bool (*stop_timer)(struct work_struct *work), bool disable)
{
	unsigned long irq_flags;
	bool ret = grab_pending(work, stop_timer, &irq_flags);

	release_grabbed_work(work, disable ? 1 : 0, irq_flags);
	return ret;
}

/* __cancel_work(), then wait for a run of @work to end. */
bool __cancel_work_sync(struct work_struct *work,
			bool (*stop_timer)(struct work_struct *work), bool disable)
{
	bool ret;

	/* disabled while we wait, so that nobody queues it again */
	ret = __cancel_work(work, stop_timer, true);
	if (work_data(work) & WORK_OFFQ_BH)
		WARN_ON_ONCE(in_hardirq());
	else
		might_sleep();
	if (wq_online)
		__flush_work(work, true);
	if (!disable)
		enable_work(work);
	return ret;
}

/**
 * cancel_work - take an item off its queue if it is pending
 * @work: the item
 *
 * Does not wait for a running instance.
 *
 * Context: any.
 * Return: %true if @work was pending.
 */
bool cancel_work(struct work_struct *work)
{
	return __cancel_work(work, NULL, false);
}
EXPORT_SYMBOL(cancel_work);

/**
 * cancel_work_sync - cancel an item and wait for it to finish
 * @work: the item
 *
 * On return @work is neither pending nor running, even if it requeues
 * itself.
 *
 * Context: process context, may sleep; any context if @work was last
 * queued on a BH workqueue.
 * Return: %true if @work was pending.
 */
bool cancel_work_sync(struct work_struct *work)
{
	return __cancel_work_sync(work, NULL, false);
}
EXPORT_SYMBOL_GPL(cancel_work_sync);

/**
 * cancel_delayed_work - cancel a delayed item's timer or queueing
 * @dwork: the item
 *
 * Context: any.
 * Return: %true if @dwork was pending.
 */
bool cancel_delayed_work(struct delayed_work *dwork)
{
	return __cancel_work(&dwork->work, stop_wheel_timer, false);
}
EXPORT_SYMBOL(cancel_delayed_work);

/**
 * cancel_delayed_work_sync - cancel a delayed item and wait for it
 * @dwork: the item
 *
 * Context: process context, may sleep.
 * Return: %true if @dwork was pending.
 */
bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work, stop_wheel_timer, false);
}
EXPORT_SYMBOL(cancel_delayed_work_sync);

/**
 * disable_work - cancel an item and keep it from being queued
 * @work: the item
 *
 * Disabling nests: the item can be queued again after as many
 * enable_work() calls.
 *
 * Context: any.
 * Return: %true if @work was pending.
 */
bool disable_work(struct work_struct *work)
{
	return __cancel_work(work, NULL, true);
}
EXPORT_SYMBOL_GPL(disable_work);

/**
 * disable_work_sync - disable_work(), then wait for a running instance
 * @work: the item
 *
 * Context: process context, may sleep; any context if @work was last
 * queued on a BH workqueue.
 * Return: %true if @work was pending.
 */
bool disable_work_sync(struct work_struct *work)
{
	return __cancel_work_sync(work, NULL, true);
}
EXPORT_SYMBOL_GPL(disable_work_sync);

/**
 * enable_work - undo one disable_work()
 * @work: the item
 *
 * Context: any.
 * Return: %true if @work can be queued again (its depth reached zero).
 */
bool enable_work(struct work_struct *work)
{
	unsigned long irq_flags;

	grab_pending(work, NULL, &irq_flags);
	return !release_grabbed_work(work, -1, irq_flags);
}
EXPORT_SYMBOL_GPL(enable_work);

/**
 * disable_delayed_work - disable_work() for a delayed item
 * @dwork: the item
 *
 * Context: any.
 * Return: %true if @dwork was pending.
 */
bool disable_delayed_work(struct delayed_work *dwork)
{
	return __cancel_work(&dwork->work, stop_wheel_timer, true);
}
EXPORT_SYMBOL_GPL(disable_delayed_work);

/**
 * disable_delayed_work_sync - disable_work_sync() for a delayed item
 * @dwork: the item
 *
 * Context: process context, may sleep.
 * Return: %true if @dwork was pending.
 */
bool disable_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work, stop_wheel_timer, true);
}
EXPORT_SYMBOL_GPL(disable_delayed_work_sync);

/**
 * enable_delayed_work - enable_work() for a delayed item
 * @dwork: the item
 *
 * Context: any.
 * Return: %true if @dwork can be queued again.
 */
bool enable_delayed_work(struct delayed_work *dwork)
{
	return enable_work(&dwork->work);
}
EXPORT_SYMBOL_GPL(enable_delayed_work);

/**
 * mod_delayed_work_on - (re)queue a delayed item with a new delay
 * @cpu: the CPU, or WORK_CPU_UNBOUND
 * @wq: the workqueue
 * @dwork: the item
 * @delay: jiffies to wait; 0 queues at once
 *
 * Queues an idle item, or moves a pending one to the new delay.
 *
 * Context: any.
 * Return: %false if @dwork was idle and is queued now (or is disabled),
 * %true if it was pending and got the new delay.
 */
bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	unsigned long irq_flags;
	bool ret = grab_pending(&dwork->work, stop_wheel_timer, &irq_flags);

	if (!clear_pending_if_disabled(&dwork->work))
		__queue_delayed_work(cpu, wq, dwork, delay);
	local_irq_restore(irq_flags);
	return ret;
}
EXPORT_SYMBOL_GPL(mod_delayed_work_on);

/* ------------------------------------------------------------------ */
/* 14. introspection                                                  */
/* ------------------------------------------------------------------ */

/**
 * current_work - the item %current is running
 *
 * Context: any.
 * Return: the item, or %NULL if %current is not a worker running one.
 */
struct work_struct *current_work(void)
{
	struct worker *worker = current_wq_worker();

	if (!worker)
		return NULL;
	return worker->current_work;
}
EXPORT_SYMBOL(current_work);

/**
 * workqueue_congested - whether items wait for a workqueue's limit
 * @cpu: the CPU whose pwq to look at, or WORK_CPU_UNBOUND for this one
 * @wq: the workqueue
 *
 * A hint only: the answer may be stale when it returns.
 *
 * Context: any.
 * Return: %true if items of @wq on @cpu's pwq wait for max_active.
 */
bool workqueue_congested(int cpu, struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;
	int local = get_cpu();

	guard(rcu)();
	pwq = rcu_dereference(*per_cpu_ptr(wq->cpu_pwq,
					   cpu == WORK_CPU_UNBOUND ? local : cpu));
	put_cpu();
	return !list_empty(&pwq->inactive_works);
}
EXPORT_SYMBOL_GPL(workqueue_congested);

/**
 * work_busy - what an item is doing
 * @work: the item
 *
 * A hint only: the answer may be stale when it returns.
 *
 * Context: any.
 * Return: WORK_BUSY_PENDING and/or WORK_BUSY_RUNNING, or 0.
 */
unsigned int work_busy(struct work_struct *work)
{
	unsigned int busy = work_pending(work) ? WORK_BUSY_PENDING : 0;
	struct worker_pool *pool;

	guard(rcu)();
	pool = get_work_pool(work);
	if (pool) {
		guard(raw_spinlock_irqsave)(&pool->lock);
		busy |= find_worker_executing_work(pool, work) ? WORK_BUSY_RUNNING : 0;
	}
	return busy;
}
EXPORT_SYMBOL_GPL(work_busy);

/**
 * set_worker_desc - describe what the current worker does
 * @fmt: printf format
 * @...: arguments
 *
 * Shown with the worker's name in ps and in dumps of its stack, for the
 * rest of the item and after it until the worker runs another.
 *
 * Context: process context, in a work item.
 */
void set_worker_desc(const char *fmt, ...)
{
	struct worker *worker = current_wq_worker();
	va_list args;

	if (!worker)
		return;
	va_start(args, fmt);
	vsnprintf(worker->desc, sizeof(worker->desc), fmt, args);
	va_end(args);
	/* the next item puts its workqueue's name back */
	worker->desc_id = 0;
}
EXPORT_SYMBOL_GPL(set_worker_desc);

/* ------------------------------------------------------------------ */
/* 15. helpers built on the API                                       */
/* ------------------------------------------------------------------ */

/**
 * execute_in_process_context - run a function in process context
 * @fn: the function
 * @ew: the item to use if it has to be deferred
 *
 * Runs @fn at once from process context, else queues it on system_wq.
 *
 * Context: any.
 * Return: 0 if @fn ran, 1 if it was queued.
 */
int execute_in_process_context(work_func_t fn, struct execute_work *ew)
{
	if (in_interrupt()) {
		INIT_WORK(&ew->work, fn);
		schedule_work(&ew->work);
		return 1;
	}
	fn(&ew->work);
	return 0;
}
EXPORT_SYMBOL_GPL(execute_in_process_context);

/**
 * schedule_on_each_cpu - run a function on every online CPU and wait
 * @func: the function, given a work item it must not requeue
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 * Return: 0, or -ENOMEM.
 */
int schedule_on_each_cpu(work_func_t func)
{
	struct work_struct __percpu *works = alloc_percpu(struct work_struct);
	int cpu;

	if (!works)
		return -ENOMEM;
	cpus_read_lock();
	/* queue on every CPU first, then wait for each */
	for_each_online_cpu(cpu)
		INIT_WORK(per_cpu_ptr(works, cpu), func);
	for_each_online_cpu(cpu)
		queue_work_on(cpu, system_percpu_wq, per_cpu_ptr(works, cpu));
	for_each_online_cpu(cpu)
		flush_work(per_cpu_ptr(works, cpu));
	cpus_read_unlock();
	free_percpu(works);
	return 0;
}

#ifdef CONFIG_SMP
struct work_for_cpu {
	struct work_struct work;
	long (*fn)(void *arg);
	void *arg;
	long ret;
};

static void work_for_cpu_fn(struct work_struct *work)
{
	struct work_for_cpu *wfc = container_of(work, struct work_for_cpu, work);

	wfc->ret = wfc->fn(wfc->arg);
}

/**
 * work_on_cpu_key - run a function on a CPU in process context and wait
 * @cpu: the CPU, kept online by the caller
 * @fn: the function
 * @arg: its argument
 * @key: lockdep class of the on-stack item
 *
 * Context: process context, may sleep.
 * Return: what @fn returned.
 */
long work_on_cpu_key(int cpu, long (*fn)(void *), void *arg,
		     struct lock_class_key *key)
{
	struct work_for_cpu wfc = { .fn = fn, .arg = arg, .ret = 0 };

	INIT_WORK_ONSTACK_KEY(&wfc.work, work_for_cpu_fn, key);
	if (queue_work_on(cpu, system_percpu_wq, &wfc.work))
		flush_work(&wfc.work);
	destroy_work_on_stack(&wfc.work);
	return wfc.ret;
}
EXPORT_SYMBOL_GPL(work_on_cpu_key);

/**
 * work_on_cpu_safe_key - work_on_cpu_key() holding the CPU hotplug lock
 * @cpu: the CPU
 * @fn: the function
 * @arg: its argument
 * @key: lockdep class of the on-stack item
 *
 * Context: process context, may sleep.
 * Return: what @fn returned, or -ENODEV if @cpu is offline.
 */
long work_on_cpu_safe_key(int cpu, long (*fn)(void *), void *arg,
			  struct lock_class_key *key)
{
	long ret;

	cpus_read_lock();
	ret = cpu_online(cpu) ? work_on_cpu_key(cpu, fn, arg, key) : -ENODEV;
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(work_on_cpu_safe_key);
#endif /* CONFIG_SMP */
