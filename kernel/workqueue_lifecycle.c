// SPDX-License-Identifier: GPL-2.0-only
/*
 * The life of workqueues and of the workqueue code itself: creating and
 * destroying workqueues, CPU hotplug, the freezer and the boot stages.
 * None of it runs on the path of an item; the hot path (queueing,
 * activation, running, flushing) is kernel/workqueue.c.  What a workqueue
 * owns (its pwqs, node quotas and lockdep map) is allocated and freed by
 * kernel/workqueue_pwq.c, and its limits are set in
 * kernel/workqueue_unbound.c.  This is the top of the implementation: no
 * other file of it calls this one.
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. parameters
 *   2. creating workqueues
 *   3. destroying workqueues
 *   4. CPU hotplug
 *   5. the freezer
 *   6. initialisation
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "workqueue_impl.h"
#include "workqueue_unbound.h"

/* parameters are workqueue.*, as those of kernel/workqueue.c */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "workqueue."

/* ------------------------------------------------------------------ */
/* 1. parameters                                                      */
/* ------------------------------------------------------------------ */

static bool wq_power_efficient = IS_ENABLED(CONFIG_WQ_POWER_EFFICIENT_DEFAULT);
module_param_named(power_efficient, wq_power_efficient, bool, 0444);

/* ------------------------------------------------------------------ */
/* 2. creating workqueues                                             */
/* ------------------------------------------------------------------ */


#ifdef WQ_HAS_RT_CLASS
/*
 * The per-CPU RT pools get workers when the first WQ_RT workqueue is
 * created (or at workqueue_init() if one was created before): until an RT
 * user exists, the class costs no thread.  Every present CPU's pool gets
 * its two (populate_pool()), online or not, so that a CPU coming up
 * meanwhile is not missed (we hold L, and the hotplug lock nests outside
 * it); a CPU that is not present yet must be hot-added first, and its
 * workqueue_prepare_cpu() then sees the class live.  Possible CPUs that
 * never come get nothing.
 */
static bool wq_rt_pools_live;				/* L to set */

/* Context: wq_pool_mutex (L). */
static int populate_rt_pools_locked(void)
{
	int cpu, ret = 0;

	wq_assert_L();
	WRITE_ONCE(wq_rt_pools_live, true);
	if (!wq_online)
		return 0;	/* workqueue_init() will */
	/* a hot-add marks its CPU present before it prepares it */
	smp_mb();
	for_each_present_cpu(cpu)
		if (populate_pool(&per_cpu(cpu_worker_pools, cpu)[RT_WORKER_POOL]))
			ret = -ENOMEM;
	return ret;
}
#endif

/* The per-CPU pool @wq's items go to on @cpu. */
static struct worker_pool *percpu_pool_of(struct workqueue_struct *wq, int cpu)
{
	bool highpri = wq->flags & WQ_HIGHPRI;

	if (wq->flags & WQ_BH)
		return &per_cpu(bh_worker_pools, cpu)[highpri];
#ifdef WQ_HAS_RT_CLASS
	if (wq->flags & WQ_RT)
		return &per_cpu(cpu_worker_pools, cpu)[RT_WORKER_POOL];
#endif
	return &per_cpu(cpu_worker_pools, cpu)[highpri];
}

/*
 * Per-CPU (and BH) workqueues: one pwq per CPU on its pool.
 * Context: wq_pool_mutex (L).
 */
static int alloc_percpu_pwqs(struct workqueue_struct *wq)
{
	int cpu;

#ifdef WQ_HAS_RT_CLASS
	if ((wq->flags & WQ_RT) && populate_rt_pools_locked())
		return -ENOMEM;
#endif
	for_each_possible_cpu(cpu) {
		struct worker_pool *pool = percpu_pool_of(wq, cpu);
		struct pool_workqueue *pwq = alloc_pwq(wq, pool);

		if (!pwq)
			return -ENOMEM;
		pwq->refcnt = 1;	/* the table entry's */
		rcu_assign_pointer(*per_cpu_ptr(wq->cpu_pwq, cpu), pwq);
		mutex_lock(&wq->mutex);
		link_pwq(pwq);
		mutex_unlock(&wq->mutex);
	}
	return 0;
}

/*
 * Free pwqs that never carried an item (creation failed half way).
 * Context: wq_pool_mutex (L).
 */
static void free_unused_pwqs(struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq, *tmp;

	wq_assert_L();
	list_for_each_entry_safe(pwq, tmp, &wq->pwqs, pwqs_node) {
		list_del(&pwq->pwqs_node);
		pwq->refcnt = 0;
		discard_pwq(pwq);
	}
}

/* The pwqs of a new workqueue.  Context: wq_pool_mutex (L). */
static int alloc_and_link_pwqs(struct workqueue_struct *wq)
{
	int ret;

	wq_assert_L();
	wq->cpu_pwq = alloc_percpu(struct pool_workqueue *);
	if (!wq->cpu_pwq)
		return -ENOMEM;
	if (!(wq->flags & WQ_UNBOUND))
		ret = alloc_percpu_pwqs(wq);
	else
		ret = alloc_unbound_pwqs(wq);
	if (ret)
		free_unused_pwqs(wq);
	return ret;
}

static void wq_init_fields(struct workqueue_struct *wq)
{
	struct list_head *lists[] = {
		&wq->pwqs, &wq->list, &wq->maydays, &wq->flushers,
#ifdef WQ_HAS_WAIT_PI
		&wq->flush_lenders,
#endif
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		INIT_LIST_HEAD(lists[i]);
	mutex_init(&wq->mutex);
	raw_spin_lock_init(&wq->flush_lock);
}

/* Check flags and turn them into what the workqueue really is. */
static int wq_sanitize_flags(unsigned int *flags, int *max_active)
{
#ifdef WQ_HAS_RT_CLASS
	if ((*flags & WQ_RT) && (*flags & (WQ_BH | WQ_HIGHPRI))) {
		pr_warn_once("workqueue: WQ_RT cannot be combined with WQ_BH or WQ_HIGHPRI\n");
		return -EINVAL;
	}
#endif
	if (*flags & WQ_BH) {
		if (WARN_ON_ONCE(*flags & ~__WQ_BH_ALLOWS))
			return -EINVAL;
		if (WARN_ON_ONCE(*max_active))
			return -EINVAL;
	}
	/* WQ_PERCPU only documents the default in 6.12: it is not checked */
	/* power-efficient workqueues are unbound when power saving is on */
	if ((*flags & WQ_POWER_EFFICIENT) && wq_power_efficient)
		*flags |= WQ_UNBOUND;
	return 0;
}

/* workqueue_struct.name_id: 0 is no workqueue's (see set_worker_desc()) */
static atomic64_t wq_name_ids = ATOMIC64_INIT(0);

/*
 * Create a workqueue whose flushes are annotated with @map, or with a
 * lockdep map of its own when @map is %NULL.
 */
static __printf(1, 0) struct workqueue_struct *
alloc_wq_va(const char *fmt, unsigned int flags, int max_active,
	    struct lockdep_map *map, va_list args)
{
	struct workqueue_struct *wq;
	size_t size = sizeof(*wq);

	if (wq_sanitize_flags(&flags, &max_active))
		return NULL;
	if (flags & WQ_UNBOUND)
		size += (nr_node_ids + 1) * sizeof(wq->node_nr_active[0]);
	wq = kzalloc(size, GFP_KERNEL);
	if (!wq)
		return NULL;
	if (vsnprintf(wq->name, sizeof(wq->name), fmt, args) >= WQ_NAME_LEN)
		pr_warn_once("workqueue: name exceeds WQ_NAME_LEN. Truncating to: %s\n",
			     wq->name);
	wq->name_id = atomic64_inc_return(&wq_name_ids);
	/* a BH workqueue shares its CPU's softirq and has no limit of its own */
	if (flags & WQ_BH)
		max_active = INT_MAX;
	else
		max_active = wq_clamp_max_active(max_active ?: WQ_DFL_ACTIVE, wq->name);
	wq->flags = flags;
	wq->max_active = max_active;
	wq->saved_max_active = max_active;
	wq->min_active = min(max_active, WQ_DFL_MIN_ACTIVE);
	wq->saved_min_active = wq->min_active;
	wq_init_fields(wq);
	wq_init_lockdep(wq, map);

	if (flags & WQ_UNBOUND) {
		wq->unbound_attrs = alloc_workqueue_attrs();
		if (!wq->unbound_attrs || wq_alloc_node_nr_active(wq))
			goto err_free;
	}
#ifdef WQ_HAS_HISTOGRAMS
	if (wq_hist_alloc_wq(wq))
		goto err_free;
#endif
	/*
	 * From the pwq table to the list of workqueues under one hold of L:
	 * CPU hotplug and unbound cpumask changes update listed workqueues
	 * under L, so none falls in between.
	 */
	apply_wqattrs_lock();
	if (alloc_and_link_pwqs(wq))
		goto err_unlock;
	if (wq_online && init_rescuer(wq))
		goto err_pwqs;
	mutex_lock(&wq->mutex);
	wq_refresh_limits(wq);
	mutex_unlock(&wq->mutex);
	list_add_tail_rcu(&wq->list, &workqueues);
	apply_wqattrs_unlock();

	if ((flags & WQ_SYSFS) && workqueue_sysfs_register(wq)) {
		destroy_workqueue(wq);
		return NULL;
	}
	return wq;

err_pwqs:
	free_unused_pwqs(wq);
err_unlock:
	apply_wqattrs_unlock();
err_free:
	discard_wq(wq);
	return NULL;
}

/**
 * alloc_workqueue - create a workqueue
 * @fmt: printf format of its name
 * @flags: WQ_* flags
 * @max_active: items that may be active at once (per CPU for per-CPU
 *	workqueues); 0 for the default
 * @...: format arguments
 *
 * Context: process context, may sleep.
 * Return: the workqueue, or %NULL on failure or invalid flags.
 */
__printf(1, 4)
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	struct workqueue_struct *wq;
	va_list args;

	va_start(args, max_active);
	wq = alloc_wq_va(fmt, flags, max_active, NULL, args);
	va_end(args);
	return wq;
}
EXPORT_SYMBOL_GPL(alloc_workqueue);

#ifdef CONFIG_LOCKDEP
/**
 * alloc_workqueue_lockdep_map - alloc_workqueue() with a caller's lockdep map
 * @fmt: printf format of the name
 * @flags: WQ_* flags
 * @max_active: see alloc_workqueue()
 * @lockdep_map: map to use for flush annotations; must outlive the wq
 * @...: format arguments
 *
 * Context: process context, may sleep.
 * Return: the workqueue, or %NULL.
 */
__printf(1, 5)
struct workqueue_struct *alloc_workqueue_lockdep_map(const char *fmt,
						     unsigned int flags,
						     int max_active,
						     struct lockdep_map *lockdep_map, ...)
{
	struct workqueue_struct *wq;
	va_list args;

	va_start(args, lockdep_map);
	wq = alloc_wq_va(fmt, flags, max_active, lockdep_map, args);
	va_end(args);
	return wq;
}
EXPORT_SYMBOL_GPL(alloc_workqueue_lockdep_map);
#endif

/* ------------------------------------------------------------------ */
/* 3. destroying workqueues                                           */
/* ------------------------------------------------------------------ */

/**
 * destroy_workqueue - drain a workqueue and free it
 * @wq: the workqueue
 *
 * A workqueue still busy after draining (items queued from outside while
 * it was destroyed) is left in place with a warning rather than freed
 * under them.
 *
 * Context: process context, may sleep.
 */
void destroy_workqueue(struct workqueue_struct *wq)
{
	bool busy;

	/* out of sysfs first: a kept busy workqueue holds no name there */
	wq_sysfs_unregister(wq);
	retire_workqueue(wq);
	mutex_lock(&wq_pool_mutex);
	mutex_lock(&wq->mutex);
	busy = wq_busy_for_destroy(wq);
	if (!busy)
		list_del_rcu(&wq->list);
	mutex_unlock(&wq->mutex);
	mutex_unlock(&wq_pool_mutex);

	if (!WARN_ON(busy)) {
		put_wq_pwqs(wq);
		return;
	}
	/* busy after draining: kept, and said so in 6.12's words */
	pr_warn("%s: %s has the following busy pwq\n", __func__, wq->name);
	show_one_workqueue(wq);
}
EXPORT_SYMBOL_GPL(destroy_workqueue);

/* ------------------------------------------------------------------ */
/* 4. CPU hotplug                                                     */
/* ------------------------------------------------------------------ */

/* Walk the normal, highpri and RT pools of @cpu. */
#define for_each_std_pool(pool, cpu)					\
	for (int __i = 0; __i < NR_CPU_WORKER_POOLS &&			\
	     ((pool) = &per_cpu(cpu_worker_pools, cpu)[__i], true); __i++)

/* Whether a pool may have no worker: an RT pool before any RT user. */
static bool pool_may_stay_empty(struct worker_pool *pool)
{
#ifdef WQ_HAS_RT_CLASS
	return pool_is_rt(pool) && !READ_ONCE(wq_rt_pools_live);
#else
	return false;
#endif
}

#ifdef CONFIG_SMP
/*
 * @cpu is back.  When every CPU an unbound pool's workers may use went
 * down, the scheduler let them run anywhere; if @cpu is one of the pool's,
 * confine them to the pool's CPUs again.
 */
static void restore_unbound_workers_locked(struct worker_pool *pool, int cpu)
{
	const struct cpumask *allowed = pool_allowed_cpus(pool);
	struct worker *worker;

	wq_assert_A();
	if (pool->cpu >= 0 || !cpumask_test_cpu(cpu, allowed))
		return;
	list_for_each_entry(worker, &pool->workers, node)
		WARN_ON_ONCE(set_cpus_allowed_ptr(worker->task, allowed) < 0);
}

/* Restore the workers of every unbound pool @cpu belongs to.  Context: L. */
static void restore_unbound_pools(int cpu)
{
	struct worker_pool *pool;
	int id;

	wq_assert_L();
	mutex_lock(&wq_pool_attach_mutex);
	for_each_pool(pool, id)
		restore_unbound_workers_locked(pool, cpu);
	mutex_unlock(&wq_pool_attach_mutex);
}

/**
 * workqueue_prepare_cpu - CPU hotplug: a CPU is about to come up
 * @cpu: the CPU
 *
 * Context: process context, CPU hotplug lock held.
 * Return: 0, or -ENOMEM if its pools have no worker and none can be made.
 */
int workqueue_prepare_cpu(unsigned int cpu)
{
	struct worker_pool *pool;

	for_each_std_pool(pool, cpu) {
		if (pool_may_stay_empty(pool))
			continue;
		if (populate_pool(pool))
			return -ENOMEM;
	}
	return 0;
}

/**
 * workqueue_offline_cpu - CPU hotplug: a CPU is going down
 * @cpu: the CPU, the one this runs on
 *
 * Context: process context on @cpu, CPU hotplug lock held.
 * Return: 0, or -EINVAL if called from another CPU.
 */
int workqueue_offline_cpu(unsigned int cpu)
{
	struct worker_pool *pool;

	/* unbinding the workers of a pool must happen on its CPU */
	if (cpu != smp_processor_id()) {
		WARN_ON(1);
		return -EINVAL;
	}
	mutex_lock(&wq_pool_attach_mutex);
	for_each_std_pool(pool, cpu)
		unbind_workers_locked(pool);
	mutex_unlock(&wq_pool_attach_mutex);

	mutex_lock(&wq_pool_mutex);
	wq_unbound_cpu_changed(cpu, false);
	mutex_unlock(&wq_pool_mutex);
	return 0;
}

/**
 * workqueue_online_cpu - CPU hotplug: a CPU came up
 * @cpu: the CPU
 *
 * Context: process context, CPU hotplug lock held.
 * Return: 0.
 */
int workqueue_online_cpu(unsigned int cpu)
{
	struct worker_pool *pool;

	/* what was queued while it was down */
	kick_bh_pools(cpu);
	mutex_lock(&wq_pool_mutex);
	mutex_lock(&wq_pool_attach_mutex);
	for_each_std_pool(pool, cpu)
		rebind_workers_locked(pool);
	mutex_unlock(&wq_pool_attach_mutex);
	restore_unbound_pools(cpu);
	wq_unbound_cpu_changed(cpu, true);
	mutex_unlock(&wq_pool_mutex);
	return 0;
}
#endif /* CONFIG_SMP */

/* ------------------------------------------------------------------ */
/* 5. the freezer                                                     */
/* ------------------------------------------------------------------ */

/* Re-apply every workqueue's limits after the freezing state changed. */
static void refresh_all_limits_locked(void)
{
	struct workqueue_struct *wq;

	wq_assert_L();
	list_for_each_entry(wq, &workqueues, list) {
		guard(mutex)(&wq->mutex);
		wq_refresh_limits(wq);
	}
}

/**
 * freeze_workqueues_begin - stop activating items of freezable workqueues
 *
 * Items already active run to the end; new ones wait until the thaw.
 *
 * Context: process context, the freezer.
 */
void freeze_workqueues_begin(void)
{
	guard(mutex)(&wq_pool_mutex);
	WARN_ON_ONCE(workqueue_freezing);
	workqueue_freezing = true;
	refresh_all_limits_locked();
}

/* Whether a pwq of @wq has active items; nr_active only drops while frozen. */
static bool wq_has_active_items(struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;

	guard(rcu)();
	for_each_pwq(pwq, wq)
		if (WARN_ON_ONCE(READ_ONCE(pwq->nr_active) < 0) ||
		    READ_ONCE(pwq->nr_active))
			return true;
	return false;
}

/**
 * freeze_workqueues_busy - whether freezable workqueues still run items
 *
 * Context: process context, the freezer, between begin and thaw.
 * Return: %true while any freezable workqueue has active items.
 */
bool freeze_workqueues_busy(void)
{
	struct workqueue_struct *wq;

	guard(mutex)(&wq_pool_mutex);
	WARN_ON_ONCE(!workqueue_freezing);
	list_for_each_entry(wq, &workqueues, list)
		if ((wq->flags & WQ_FREEZABLE) && wq_has_active_items(wq))
			return true;
	return false;
}

/**
 * thaw_workqueues - let freezable workqueues run their items again
 *
 * Context: process context, the freezer.
 */
void thaw_workqueues(void)
{
	guard(mutex)(&wq_pool_mutex);
	if (!workqueue_freezing)
		return;
	workqueue_freezing = false;
	refresh_all_limits_locked();
}

/* ------------------------------------------------------------------ */
/* 6. initialisation                                                  */
/* ------------------------------------------------------------------ */

/* The system workqueues, with 6.12's names, flags and limits. */
struct system_wq_def {
	struct workqueue_struct **wq;
	const char *name;
	unsigned int flags;
	int max_active;
};

static const struct system_wq_def system_wq_defs[] __initconst = {
	{ &system_wq,			"events",			0 },
	{ &system_percpu_wq,		"events",			0 },
	{ &system_highpri_wq,		"events_highpri",		WQ_HIGHPRI },
	{ &system_long_wq,		"events_long",			0 },
	{ &system_unbound_wq,		"events_unbound",		WQ_UNBOUND,
	  WQ_MAX_ACTIVE },
	{ &system_dfl_wq,		"events_unbound",		WQ_UNBOUND,
	  WQ_MAX_ACTIVE },
	{ &system_freezable_wq,		"events_freezable",		WQ_FREEZABLE },
	{ &system_power_efficient_wq,	"events_power_efficient",	WQ_POWER_EFFICIENT },
	{ &system_freezable_power_efficient_wq, "events_freezable_pwr_efficient",
	  WQ_FREEZABLE | WQ_POWER_EFFICIENT },
	{ &system_bh_wq,		"events_bh",			WQ_BH },
	{ &system_bh_highpri_wq,	"events_bh_highpri",		WQ_BH | WQ_HIGHPRI },
};

static void __init create_system_workqueues(void)
{
	const struct system_wq_def *d;

	for (d = system_wq_defs; d < system_wq_defs + ARRAY_SIZE(system_wq_defs); d++) {
		*d->wq = alloc_workqueue("%s", d->flags, d->max_active, d->name);
		wq_boot_check(*d->wq, d->name);
	}
}

/**
 * workqueue_init_early - the first stage of initialisation
 *
 * Sets up the per-CPU pools and the system workqueues.  Items can be
 * queued from now on; they run once workqueue_init() created workers.
 *
 * Context: early boot, before other CPUs and kthreads.
 */
void __init workqueue_init_early(void)
{
	int cpu, i;

	BUILD_BUG_ON(__alignof__(struct pool_workqueue) < __alignof__(long long));
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_init();
#endif
	wq_unbound_cpumask_init();
	/* nohz_full: power-efficient items go unbound, to housekeeping CPUs */
	if (housekeeping_enabled(HK_TYPE_TICK))
		wq_power_efficient = true;
	wq_pwq_cache_init();
	wq_init_pod_types_early();

	/*
	 * Pool IDs in 6.12's order per CPU: bh, bh-hi, normal, highpri; the
	 * RT pools, which 6.12 does not have, come after all of those.
	 */
	for_each_possible_cpu(cpu) {
		for (i = 0; i < NR_STD_WORKER_POOLS; i++)
			init_cpu_pool(&per_cpu(bh_worker_pools, cpu)[i], cpu, i, true);
		for (i = 0; i < NR_STD_WORKER_POOLS; i++)
			init_cpu_pool(&per_cpu(cpu_worker_pools, cpu)[i], cpu, i, false);
	}
#ifdef WQ_HAS_RT_CLASS
	for_each_possible_cpu(cpu)
		init_cpu_pool(&per_cpu(cpu_worker_pools, cpu)[RT_WORKER_POOL], cpu,
			      RT_WORKER_POOL, false);
#endif
	wq_std_attrs_init();
	create_system_workqueues();
}

/* Unless set on the command line: 10 ms, more on slow CPUs. */
static void __init wq_cpu_intensive_thresh_init(void)
{
	/*
	 * BogoMIPS, whole ones first so that 32-bit cannot overflow; the
	 * same figure 6.12 scales by, so both pick the same threshold.
	 */
	unsigned long bogomips = max(loops_per_jiffy / 500000 * HZ, 1UL);

	if (wq_cpu_intensive_thresh_us != ULONG_MAX)
		return;
	/* 10 ms; slow machines (under 4000 BogoMIPS) get up to a second */
	wq_cpu_intensive_thresh_us = bogomips >= 4000 ? 10000 :
		min(10000UL * 4000 / bogomips, USEC_PER_SEC);
}

/**
 * workqueue_init - the second stage: workers and rescuers
 *
 * Creates the release kthread, the rescuers of workqueues made so far and
 * the first workers (populate_pool()) of every pool of the online CPUs
 * and every unbound pool.
 *
 * Context: boot, kthreads can be created.
 */
void __init workqueue_init(void)
{
	struct workqueue_struct *wq;
	struct worker_pool *pool;
	int cpu, id;

	wq_cpu_intensive_thresh_init();
	pwq_release_worker = kthread_create_worker(0, "pool_workqueue_release");
	wq_boot_check(!IS_ERR(pwq_release_worker), "pwq release worker");

	mutex_lock(&wq_pool_mutex);
	list_for_each_entry(wq, &workqueues, list)
		WARN(init_rescuer(wq), "workqueue: no rescuer for %s\n", wq->name);
	/* CPU nodes are known now; at early boot they were not */
	idr_for_each_entry(&worker_pool_idr, pool, id)
		if (pool->cpu >= 0)
			pool->node = cpu_to_node(pool->cpu);
	mutex_unlock(&wq_pool_mutex);
	for_each_online_cpu(cpu) {
		for_each_std_pool(pool, cpu) {
			pool->flags &= ~POOL_DISASSOCIATED;
			if (!pool_may_stay_empty(pool))
				wq_boot_check(!populate_pool(pool), "initial worker");
		}
	}
	mutex_lock(&wq_pool_mutex);
	idr_for_each_entry(&worker_pool_idr, pool, id)
		if (pool->cpu < 0)
			wq_boot_check(!populate_pool(pool), "initial worker");
	mutex_unlock(&wq_pool_mutex);
	wq_online = true;
	wq_watchdog_init();
}

/**
 * workqueue_init_topology - the third stage: pods from the CPU topology
 *
 * Context: boot, after SMP and topology are set up.
 */
void __init workqueue_init_topology(void)
{
	wq_unbound_topology_init();
}
