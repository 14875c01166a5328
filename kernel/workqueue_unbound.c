// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unbound workqueues: attributes, pods, shared unbound pools, the pwq
 * table that maps each CPU to the pwq of its pod, and the unbound cpumask.
 * And the limits of every workqueue: max_active and min_active, applied
 * to its pwqs, and for an unbound one its per-node quotas of active items,
 * sized from its pods (kernel/workqueue_pwq.c allocates them,
 * kernel/workqueue.c enforces them).
 *
 * An unbound workqueue's attributes (nice, cpumask, affinity scope and
 * strictness) select pools: the CPUs are split into pods by the affinity
 * scope, and each pod whose CPUs intersect the cpumask gets the pool for
 * (nice, pod CPUs).  Pools with equal attributes are shared by all
 * workqueues.  Items queued on a CPU go to the pwq of that CPU's pod.
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. attributes
 *   2. pods
 *   3. unbound pools
 *   4. limits: max_active, min_active, node quotas
 *   5. pwq tables: building, applying, CPU hotplug
 *   6. the unbound cpumask and parameters
 */
#include <linux/cpu.h>
#include <linux/jhash.h>
#include <linux/moduleparam.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "workqueue_impl.h"
#include "workqueue_unbound.h"
#include "workqueue_test.h"

/* parameters are workqueue.*, as those of kernel/workqueue.c */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "workqueue."

/**
 * struct wq_pod_type - how one affinity scope splits the CPUs into pods
 * @nr_pods: number of pods
 * @pod_cpus: CPUs of each pod
 * @pod_node: NUMA node of each pod
 * @cpu_pod: pod of each possible CPU
 */
struct wq_pod_type {
	int			nr_pods;
	cpumask_var_t		*pod_cpus;
	int			*pod_node;
	int			*cpu_pod;
};

static DEFINE_HASHTABLE(unbound_pool_hash, 6);		/* L */
static bool wq_topo_initialized;			/* L */
static struct wq_pod_type wq_pod_types[WQ_AFFN_NR_TYPES];	/* L */
#ifdef WQ_HAS_CACHE_SHARD
/*
 * 7.1's default: an LLC of more than cache_shard_size cores is shared by
 * several pools, one per shard, where 6.12's cache scope gave it one pool
 * whose lock every CPU of it contends on.  An LLC of at most that many
 * cores is one shard: the pools are 6.12's.
 */
enum wq_affn_scope wq_affn_dfl = WQ_AFFN_CACHE_SHARD;
#else
enum wq_affn_scope wq_affn_dfl = WQ_AFFN_CACHE;
#endif

cpumask_var_t wq_requested_unbound_cpumask;	/* L: what was asked for */
cpumask_var_t wq_isolated_cpumask;		/* L: excluded by cpusets */
/*
 * L: the online CPUs as the hotplug callbacks left them.  Whether a pod has
 * an online CPU is read from it, not from cpu_online_mask, so that pwq
 * tables need only L: a CPU going down is already out of it while its
 * teardown still runs.
 */
static cpumask_var_t wq_online_cpumask;
static struct cpumask wq_cmdline_cpumask __initdata;

/* in the order of enum wq_affn_scope; the sysfs ABI uses these names */
const char * const wq_affn_names[WQ_AFFN_NR_TYPES] = {
	"default", "cpu", "smt", "cache",
#ifdef WQ_HAS_CACHE_SHARD
	"cache_shard",
#endif
	"numa", "system",
};

#ifdef WQ_HAS_CACHE_SHARD
/*
 * workqueue.cache_shard_size: the cache_shard scope splits each LLC into
 * shards of at most this many cores (SMT siblings together), as 7.1 does;
 * read at boot, when the pods are made.
 */
static unsigned int wq_cache_shard_size = 8;

static int wq_cache_shard_size_set(const char *val, const struct kernel_param *kp)
{
	unsigned int size;
	int ret = kstrtouint(val, 0, &size);

	if (ret)
		return ret;
	if (!size)
		return -EINVAL;
	*(unsigned int *)kp->arg = size;
	return 0;
}

static const struct kernel_param_ops wq_cache_shard_size_ops = {
	.set = wq_cache_shard_size_set,
	.get = param_get_uint,
};
module_param_cb(cache_shard_size, &wq_cache_shard_size_ops,
		&wq_cache_shard_size, 0444);
#endif

/* ------------------------------------------------------------------ */
/* 1. attributes                                                       */
/* ------------------------------------------------------------------ */

/* the attributes of new unbound workqueues ([1]: WQ_HIGHPRI), and ordered ones */
static struct workqueue_attrs *unbound_std_wq_attrs[NR_STD_WORKER_POOLS];
static struct workqueue_attrs *ordered_wq_attrs[NR_STD_WORKER_POOLS];

static struct workqueue_attrs __init *alloc_std_attrs(int nice, bool ordered)
{
	struct workqueue_attrs *attrs = alloc_workqueue_attrs();

	wq_boot_check(attrs, "standard attributes");
	attrs->nice = nice;
	attrs->ordered = ordered;
	return attrs;
}

/* Called by workqueue_init_early(), before the system workqueues. */
void __init wq_std_attrs_init(void)
{
	int i;

	for (i = 0; i < NR_STD_WORKER_POOLS; i++) {
		int nice = i ? HIGHPRI_NICE_LEVEL : 0;

		unbound_std_wq_attrs[i] = alloc_std_attrs(nice, false);
		ordered_wq_attrs[i] = alloc_std_attrs(nice, true);
	}
}

static void copy_attr_masks(struct workqueue_attrs *to,
			    const struct workqueue_attrs *from)
{
	cpumask_copy(to->cpumask, from->cpumask);
	cpumask_copy(to->__pod_cpumask, from->__pod_cpumask);
}

/**
 * copy_workqueue_attrs - copy every field of @from to @to
 * @to: destination
 * @from: source
 */
void copy_workqueue_attrs(struct workqueue_attrs *to,
			  const struct workqueue_attrs *from)
{
	copy_attr_masks(to, from);
	to->affn_scope = from->affn_scope;
	to->affn_strict = from->affn_strict;
	to->ordered = from->ordered;
	to->nice = from->nice;
}

/*
 * What makes two pools different: the class (RT or not), nice, CPUs, pod
 * and strictness.  A strict pool runs only on its pod, so its cpumask does
 * not matter.  The class is the workqueue's (WQ_RT), not an attribute.
 */
static u32 pool_attrs_hash(const struct workqueue_attrs *attrs, bool rt)
{
	u32 seed = ((u32)attrs->nice << 2) | (rt << 1) | attrs->affn_strict;
	u32 hash = jhash(cpumask_bits(attrs->__pod_cpumask), cpumask_size(), seed);

	return attrs->affn_strict ? hash :
	       jhash(cpumask_bits(attrs->cpumask), cpumask_size(), hash);
}

static bool pool_attrs_equal(const struct workqueue_attrs *a,
			     const struct workqueue_attrs *b)
{
	return a->nice == b->nice && a->affn_strict == b->affn_strict &&
	       cpumask_equal(a->__pod_cpumask, b->__pod_cpumask) &&
	       (a->affn_strict || cpumask_equal(a->cpumask, b->cpumask));
}

static enum wq_affn_scope effective_scope(const struct workqueue_attrs *attrs)
{
	return attrs->affn_scope == WQ_AFFN_DFL ? wq_affn_dfl : attrs->affn_scope;
}

/* ------------------------------------------------------------------ */
/* 2. pods                                                             */
/* ------------------------------------------------------------------ */

/* Room for the CPU masks and nodes of @pt->nr_pods pods; boot-time only. */
static void __init alloc_pods(struct wq_pod_type *pt)
{
	int i;

	pt->pod_node = kcalloc(pt->nr_pods, sizeof(*pt->pod_node), GFP_KERNEL);
	pt->pod_cpus = kcalloc(pt->nr_pods, sizeof(*pt->pod_cpus), GFP_KERNEL);
	for (i = 0; pt->pod_cpus && i < pt->nr_pods; i++)
		if (!zalloc_cpumask_var(&pt->pod_cpus[i], GFP_KERNEL))
			break;
	wq_boot_check(pt->pod_node && pt->pod_cpus && i == pt->nr_pods, "pod masks");
}

/*
 * Split the possible CPUs into pods: CPUs @same says belong together share
 * a pod.  Allocation failure at boot is fatal.
 */
static void __init init_pod_type(struct wq_pod_type *pt,
				 bool (*same)(int a, int b))
{
	int cpu, other, pod;

	pt->nr_pods = 0;
	pt->cpu_pod = kcalloc(nr_cpu_ids, sizeof(pt->cpu_pod[0]), GFP_KERNEL);
	wq_boot_check(pt->cpu_pod, "pod map");
	for_each_possible_cpu(cpu) {
		pt->cpu_pod[cpu] = -1;
		for_each_possible_cpu(other) {
			if (other >= cpu)
				break;
			if (same(cpu, other)) {
				pt->cpu_pod[cpu] = pt->cpu_pod[other];
				break;
			}
		}
		if (pt->cpu_pod[cpu] < 0)
			pt->cpu_pod[cpu] = pt->nr_pods++;
	}

	alloc_pods(pt);
	for_each_possible_cpu(cpu) {
		pod = pt->cpu_pod[cpu];
		pt->pod_node[pod] = cpu_to_node(cpu);
		cpumask_set_cpu(cpu, pt->pod_cpus[pod]);
	}
}

static bool __init cpus_dont_share(int a, int b)
{
	return false;
}

static bool __init cpus_share_smt(int a, int b)
{
	return IS_ENABLED(CONFIG_SCHED_SMT) &&
	       cpumask_test_cpu(a, topology_sibling_cpumask(b));
}

#ifdef WQ_HAS_CACHE_SHARD
/* The first CPU of @cpu's core (its SMT siblings), or @cpu itself. */
static int __init core_of(int cpu)
{
	if (!IS_ENABLED(CONFIG_SCHED_SMT))
		return cpu;
	return cpumask_first(topology_sibling_cpumask(cpu));
}

/* the shard of each possible CPU within its LLC, while the pods are made */
static int *wq_cpu_shard __initdata;

/*
 * The shard of @cpu within its LLC: the LLC's cores in CPU order, cut into
 * DIV_ROUND_UP(cores, workqueue.cache_shard_size) runs of consecutive
 * cores, as equal as they can be.  An LLC of at most cache_shard_size
 * cores is one shard: its pod is the cache scope's.
 */
static int __init cache_shard_of(int cpu)
{
	int other, cores = 0, before = 0, shards;

	for_each_possible_cpu(other) {
		if (!cpus_share_cache(cpu, other) || core_of(other) != other)
			continue;
		cores++;
		before += other < core_of(cpu);
	}
	shards = DIV_ROUND_UP(cores, wq_cache_shard_size);
	return cores ? before * shards / cores : 0;
}

static bool __init cpus_share_cache_shard(int a, int b)
{
	return cpus_share_cache(a, b) && wq_cpu_shard[a] == wq_cpu_shard[b];
}
#endif

static bool __init cpus_share_numa(int a, int b)
{
	return cpu_to_node(a) == cpu_to_node(b);
}

static bool __init cpus_share_all(int a, int b)
{
	return true;
}

/**
 * wq_init_pod_types_early - pods before the topology is known
 *
 * Until workqueue_init_topology(), every scope is one pod of all CPUs.
 *
 * Context: early boot.
 */
void __init wq_init_pod_types_early(void)
{
	int i;

	for (i = 0; i < WQ_AFFN_NR_TYPES; i++) {
		init_pod_type(&wq_pod_types[i], cpus_share_all);
		/* one pod of every CPU has no node (the system scope keeps it) */
		wq_pod_types[i].pod_node[0] = NUMA_NO_NODE;
	}
}

/* Free what init_pod_type() allocated for @pt, whose pods are replaced. */
static void __init free_pod_type(struct wq_pod_type *pt)
{
	int i;

	for (i = 0; pt->pod_cpus && i < pt->nr_pods; i++)
		free_cpumask_var(pt->pod_cpus[i]);
	kfree(pt->pod_cpus);
	kfree(pt->pod_node);
	kfree(pt->cpu_pod);
}

/* Replace @pt's early pods (one of all CPUs) with the topology's. */
static void __init reinit_pod_type(struct wq_pod_type *pt,
				   bool (*same)(int a, int b))
{
	wq_assert_L();
	free_pod_type(pt);
	init_pod_type(pt, same);
}

#ifdef WQ_HAS_CACHE_SHARD
/* The pods of the cache_shard scope. */
static void __init init_cache_shard_pods(struct wq_pod_type *pt)
{
	int cpu;

	wq_cpu_shard = kcalloc(nr_cpu_ids, sizeof(*wq_cpu_shard), GFP_KERNEL);
	wq_boot_check(wq_cpu_shard, "cache shards");
	for_each_possible_cpu(cpu)
		wq_cpu_shard[cpu] = cache_shard_of(cpu);
	reinit_pod_type(pt, cpus_share_cache_shard);
	kfree(wq_cpu_shard);
	wq_cpu_shard = NULL;
}
#endif

/**
 * wq_init_pod_types - pods of each affinity scope from the topology
 *
 * Context: boot, from workqueue_init_topology(); L (readers of the pods
 * hold it, and the early pods are freed).
 */
static void __init wq_init_pod_types(void)
{
	reinit_pod_type(&wq_pod_types[WQ_AFFN_CPU], cpus_dont_share);
	reinit_pod_type(&wq_pod_types[WQ_AFFN_SMT], cpus_share_smt);
	reinit_pod_type(&wq_pod_types[WQ_AFFN_CACHE], cpus_share_cache);
#ifdef WQ_HAS_CACHE_SHARD
	init_cache_shard_pods(&wq_pod_types[WQ_AFFN_CACHE_SHARD]);
#endif
	reinit_pod_type(&wq_pod_types[WQ_AFFN_NUMA], cpus_share_numa);
}

/*
 * The CPUs an unbound pwq for @cpu's pod should use under @attrs: the
 * pod's possible CPUs within the cpumask, so that a pod's pool stays the
 * same while its CPUs come and go.  Once the topology is known, a pod
 * without an online CPU in it is empty, which means: use the default pwq.
 * Context: L.
 */
static void calc_pod_cpumask(struct workqueue_attrs *attrs, int cpu)
{
	const struct wq_pod_type *pt = &wq_pod_types[effective_scope(attrs)];
	int pod = pt->cpu_pod[cpu];

	wq_assert_L();
	cpumask_and(attrs->__pod_cpumask, pt->pod_cpus[pod], attrs->cpumask);
	if (wq_topo_initialized &&
	    !cpumask_intersects(attrs->__pod_cpumask, wq_online_cpumask))
		cpumask_clear(attrs->__pod_cpumask);
}

/* ------------------------------------------------------------------ */
/* 3. unbound pools                                                    */
/* ------------------------------------------------------------------ */

/* The node all of @mask's CPUs are on, or NUMA_NO_NODE. */
static int cpumask_node(const struct cpumask *mask)
{
	int node = cpu_to_node(cpumask_first(mask));

	if (node == NUMA_NO_NODE || !cpumask_subset(mask, cpumask_of_node(node)))
		return NUMA_NO_NODE;
	return node;
}

/**
 * get_unbound_pool - the shared pool for some attributes
 * @attrs: nice, cpumask, pod cpumask and strictness wanted
 * @rt: real-time workers (the WQ_RT class)
 *
 * Context: wq_pool_mutex (L), may sleep.
 * Return: the pool with a reference taken, or %NULL.
 */
static struct worker_pool *get_unbound_pool(const struct workqueue_attrs *attrs,
					    bool rt)
{
	u32 hash = pool_attrs_hash(attrs, rt);
	struct worker_pool *pool;
	int node;

	wq_assert_L();
	hash_for_each_possible(unbound_pool_hash, pool, hash_node, hash) {
		if (pool_is_rt(pool) == rt && pool_attrs_equal(pool->attrs, attrs)) {
			pool->refcnt++;
			return pool;
		}
	}

	node = cpumask_node(attrs->__pod_cpumask);
	pool = kzalloc_node(sizeof(*pool), GFP_KERNEL, node);
	if (!pool || init_worker_pool(pool))
		goto err;
#ifdef WQ_HAS_RT_CLASS
	if (rt)
		pool->flags |= POOL_RT;
#endif
	copy_workqueue_attrs(pool->attrs, attrs);
	pool->attrs->ordered = false;
	pool->attrs->affn_scope = WQ_AFFN_DFL;
	pool->node = node;
	if (worker_pool_assign_id(pool))
		goto err;
	if (wq_online && populate_pool(pool)) {
		idr_remove(&worker_pool_idr, pool->id);
		goto err;
	}
	hash_add(unbound_pool_hash, &pool->hash_node, hash);
	return pool;
err:
	if (pool)
		free_workqueue_attrs(pool->attrs);
	kfree(pool);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* 4. limits: max_active, min_active, node quotas                     */
/* ------------------------------------------------------------------ */

/*
 * Where @wq's items may run: its requested cpumask within the unbound
 * cpumask (all of that if they do not meet), as its default pwq's pool
 * has it.  Context: wq->mutex (W).
 */
static const struct cpumask *wq_effective_cpumask(struct workqueue_struct *wq)
{
	struct pool_workqueue *dfl;

	wq_assert_W(wq);
	dfl = rcu_dereference_protected(wq->dfl_pwq, lockdep_is_held(&wq->mutex));
	return dfl ? dfl->pool->attrs->__pod_cpumask : wq_unbound_cpumask;
}

/*
 * Online CPUs of @mask on @node (all nodes: NUMA_NO_NODE).  Read without
 * L where only W is held: a CPU coming or going meanwhile is accounted by
 * the hotplug callback, which updates the quotas again under L.
 */
static int node_online_cpus(const struct cpumask *mask, int node)
{
	int cpu, n = 0;

	for_each_cpu_and(cpu, mask, wq_online_cpumask)
		n += node == NUMA_NO_NODE || cpu_to_node(cpu) == node;
	return n;
}

/**
 * wq_update_node_max_active - share max_active among the NUMA nodes
 * @wq: an unbound workqueue
 *
 * Each node gets a share of max_active in proportion to its online CPUs
 * among those the workqueue's items may run on (its cpumask within the
 * unbound cpumask), but never less than min_active (so that every node
 * makes progress) nor more than max_active.
 *
 * Context: wq->mutex (W).
 */
static void wq_update_node_max_active(struct workqueue_struct *wq)
{
	int max = READ_ONCE(wq->max_active), min = READ_ONCE(wq->min_active);
	const struct cpumask *mask;
	int total, node;

	wq_assert_W(wq);
	if (!wq_topo_initialized)
		return;
	mask = wq_effective_cpumask(wq);
	total = node_online_cpus(mask, NUMA_NO_NODE);
	for_each_node(node) {
		int cpus = node_online_cpus(mask, node);
		int quota = total ? DIV_ROUND_UP(max * cpus, total) : min;

		WRITE_ONCE(wq_node_nr_active(wq, node)->max, clamp(quota, min, max));
	}
	WRITE_ONCE(wq_node_nr_active(wq, NUMA_NO_NODE)->max, max);
}

/**
 * wq_refresh_limits - apply limits and freezing to a workqueue's pwqs
 * @wq: the workqueue
 *
 * Context: wq->mutex (W).
 */
void wq_refresh_limits(struct workqueue_struct *wq)
{
	bool frozen = workqueue_freezing && (wq->flags & WQ_FREEZABLE);
	struct pool_workqueue *pwq;

	wq_assert_W(wq);
	WRITE_ONCE(wq->max_active, frozen ? 0 : wq->saved_max_active);
	WRITE_ONCE(wq->min_active, frozen ? 0 : wq->saved_min_active);
	if (wq->flags & WQ_UNBOUND)
		wq_update_node_max_active(wq);
	for_each_pwq(pwq, wq) {
		unsigned long irq_flags;

		raw_spin_lock_irqsave(&pwq->pool->lock, irq_flags);
		pwq_set_max_active_locked(pwq);
		raw_spin_unlock_irqrestore(&pwq->pool->lock, irq_flags);
	}
}

/**
 * wq_clamp_max_active - a max_active within [1, WQ_MAX_ACTIVE]
 * @max_active: what was asked for
 * @name: the workqueue's name, for the warning
 *
 * Return: @max_active clamped, with a warning if it was out of range.
 */
int wq_clamp_max_active(int max_active, const char *name)
{
	int clamped = clamp_val(max_active, 1, WQ_MAX_ACTIVE);

	if (clamped != max_active)
		pr_warn("workqueue: max_active %d requested for %s is out of range, clamping between %d and %d\n",
			max_active, name, 1, WQ_MAX_ACTIVE);
	return clamped;
}

/**
 * workqueue_set_max_active - change a workqueue's max_active
 * @wq: the workqueue, not ordered
 * @max_active: the new limit, clamped to [1, WQ_MAX_ACTIVE]
 *
 * Context: process context, may sleep.
 */
void workqueue_set_max_active(struct workqueue_struct *wq, int max_active)
{
	int max;

	/* a BH workqueue has no limit; an ordered one runs one item at a time */
	if (WARN_ON(wq->flags & WQ_BH) || WARN_ON(wq_is_ordered(wq)))
		return;
	max = wq_clamp_max_active(max_active, wq->name);
	guard(mutex)(&wq->mutex);
	/* an unbound workqueue's minimum never exceeds its maximum */
	wq->saved_min_active = (wq->flags & WQ_UNBOUND) ?
		min(wq->saved_min_active, max) : wq->saved_min_active;
	wq->saved_max_active = max;
	wq_refresh_limits(wq);
}
EXPORT_SYMBOL_GPL(workqueue_set_max_active);

/**
 * workqueue_set_min_active - change an unbound workqueue's min_active
 * @wq: an unbound, not ordered workqueue
 * @min_active: active items each NUMA node may have whatever its share of
 *	max_active, clamped to [0, max_active]
 *
 * Context: process context, may sleep.
 */
void workqueue_set_min_active(struct workqueue_struct *wq, int min_active)
{
	if (WARN_ON((wq->flags & (WQ_BH | WQ_UNBOUND | __WQ_ORDERED)) != WQ_UNBOUND))
		return;
	guard(mutex)(&wq->mutex);
	wq->saved_min_active = clamp(min_active, 0, wq->saved_max_active);
	wq_refresh_limits(wq);
}

/* ------------------------------------------------------------------ */
/* 5. pwq tables: building, applying, CPU hotplug                      */
/* ------------------------------------------------------------------ */

/**
 * apply_wqattrs_lock - lock out pool changes and the hotplug callbacks
 *
 * Only wq_pool_mutex: the hotplug callbacks take it too, and pods are
 * built from wq_online_cpumask, which they change under it.  Not the CPU
 * hotplug lock: callers such as padata apply attributes with it held.
 *
 * Context: process context; takes wq_pool_mutex (L).
 */
void apply_wqattrs_lock(void)
{
	mutex_lock(&wq_pool_mutex);
}

/**
 * apply_wqattrs_unlock - undo apply_wqattrs_lock()
 */
void apply_wqattrs_unlock(void)
{
	mutex_unlock(&wq_pool_mutex);
}

/* A new pwq of @wq on the pool for @attrs (pod cpumask set). */
static struct pool_workqueue *alloc_unbound_pwq(struct workqueue_struct *wq,
						const struct workqueue_attrs *attrs)
{
	struct worker_pool *pool = get_unbound_pool(attrs, wq_is_rt(wq));
	struct pool_workqueue *pwq;

	wq_assert_L();
	if (!pool)
		return NULL;
	pwq = alloc_pwq(wq, pool);
	if (!pwq)
		put_unbound_pool(pool);
	return pwq;
}

/**
 * struct wq_table - a pwq table being built for an unbound workqueue
 * @attrs: the attributes it implements, cpumask within the unbound cpumask
 * @fresh: pwqs made for it, linked through ->pwqs_node until installed
 * @dfl: the pwq for CPUs whose pod has no usable CPU (or all of them)
 * @pwq: per possible CPU, the pwq its items go to
 */
struct wq_table {
	struct workqueue_attrs	*attrs;
	struct list_head	fresh;
	struct pool_workqueue	*dfl;
	struct pool_workqueue	*pwq[];
};

/* The table's pwq for a pod: one made already for the same pool, or new. */
static struct pool_workqueue *table_pwq(struct wq_table *t,
					struct workqueue_struct *wq,
					const struct workqueue_attrs *pod)
{
	struct pool_workqueue *pwq;

	list_for_each_entry(pwq, &t->fresh, pwqs_node)
		if (pool_attrs_equal(pwq->pool->attrs, pod))
			return pwq;
	pwq = alloc_unbound_pwq(wq, pod);
	if (pwq)
		list_add_tail(&pwq->pwqs_node, &t->fresh);
	return pwq;
}

/* Forget a table that was never installed. */
static void free_wq_table(struct wq_table *t)
{
	struct pool_workqueue *pwq, *tmp;

	list_for_each_entry_safe(pwq, tmp, &t->fresh, pwqs_node) {
		list_del(&pwq->pwqs_node);
		discard_pwq(pwq);
	}
	free_workqueue_attrs(t->attrs);
	kfree(t);
}

/*
 * The attributes a workqueue asked for, made effective: its cpumask within
 * the unbound cpumask (all of that if they do not meet).
 */
static void effective_attrs(struct workqueue_attrs *to,
			    const struct workqueue_attrs *from,
			    struct workqueue_struct *wq)
{
	copy_workqueue_attrs(to, from);
	cpumask_and(to->cpumask, from->cpumask, wq_unbound_cpumask);
	if (cpumask_empty(to->cpumask))
		cpumask_copy(to->cpumask, wq_unbound_cpumask);
	to->ordered = wq_is_ordered(wq);
}

/* The pod attributes of @cpu under @t's attributes; false: use dfl. */
static bool table_pod_attrs(struct workqueue_attrs *pod,
			    const struct workqueue_attrs *attrs, int cpu)
{
	copy_workqueue_attrs(pod, attrs);
	if (attrs->ordered)
		return false;
	calc_pod_cpumask(pod, cpu);
	return !cpumask_empty(pod->__pod_cpumask) &&
	       !cpumask_equal(pod->__pod_cpumask, pod->cpumask);
}

static struct wq_table *build_wq_table(struct workqueue_struct *wq,
				       const struct workqueue_attrs *attrs)
{
	struct workqueue_attrs *pod = alloc_workqueue_attrs();
	struct wq_table *t;
	int cpu;

	wq_assert_L();
	t = kzalloc(struct_size(t, pwq, nr_cpu_ids), GFP_KERNEL);
	if (!t || !pod)
		goto err_free;
	INIT_LIST_HEAD(&t->fresh);
	t->attrs = alloc_workqueue_attrs();
	if (!t->attrs)
		goto err_table;
	effective_attrs(t->attrs, attrs, wq);

	copy_workqueue_attrs(pod, t->attrs);
	cpumask_copy(pod->__pod_cpumask, pod->cpumask);
	t->dfl = table_pwq(t, wq, pod);
	if (!t->dfl)
		goto err_table;
	for_each_possible_cpu(cpu) {
		if (!table_pod_attrs(pod, t->attrs, cpu)) {
			t->pwq[cpu] = t->dfl;
			continue;
		}
		t->pwq[cpu] = table_pwq(t, wq, pod);
		if (!t->pwq[cpu])
			goto err_table;
	}
	free_workqueue_attrs(pod);
	return t;

err_table:
	free_wq_table(t);
	t = NULL;
err_free:
	kfree(t);
	free_workqueue_attrs(pod);
	return NULL;
}

/* Point @slot at @pwq (taking a reference) and drop the old pwq's. */
static void set_table_entry(struct workqueue_struct *wq,
			    struct pool_workqueue __rcu **slot,
			    struct pool_workqueue *pwq)
{
	struct pool_workqueue *old;

	wq_assert_W(wq);
	/* also at early boot, with interrupts still disabled */
	scoped_guard(raw_spinlock_irqsave, &pwq->pool->lock)
		pwq->refcnt++;
	old = rcu_replace_pointer(*slot, pwq, lockdep_is_held(&wq->mutex));
	put_pwq_unlocked(old);
}

#ifdef CONFIG_WORKQUEUE_KUNIT_TEST
/* The next rebuild of @wq pauses after its first entry, for a test (L). */
static struct {
	struct workqueue_struct *wq;
	struct completion *paused;
	struct completion *resume;
} wq_switch_pause;

/**
 * wq_pause_table_switch - pause the next rebuild of a table, for tests
 * @wq: the workqueue whose next rebuild pauses, or %NULL for none
 * @paused: completed once that rebuild has switched the first CPU's entry
 * @resume: what the rebuild then waits for, 20 s at most
 *
 * Lets a test queue items while the entries of @wq's table disagree
 * (KUnit; kernel/workqueue_test.h).
 *
 * Context: process context; takes wq_pool_mutex (L).
 */
void wq_pause_table_switch(struct workqueue_struct *wq,
			   struct completion *paused, struct completion *resume)
{
	apply_wqattrs_lock();
	wq_switch_pause.wq = wq;
	wq_switch_pause.paused = paused;
	wq_switch_pause.resume = resume;
	apply_wqattrs_unlock();
}

/* Pause @wq's rebuild after @cpu's entry if a test asked for it. */
static void wq_table_switch_pause(struct workqueue_struct *wq, int cpu)
{
	wq_assert_L();
	if (likely(wq_switch_pause.wq != wq) ||
	    cpu != cpumask_first(cpu_possible_mask))
		return;
	wq_switch_pause.wq = NULL;
	complete(wq_switch_pause.paused);
	wait_for_completion_timeout(wq_switch_pause.resume, 20 * HZ);
}
#else
static inline void wq_table_switch_pause(struct workqueue_struct *wq, int cpu) { }
#endif

/*
 * Install a built table: link its pwqs (an ordered workqueue's new pwq
 * waits, plugged, until the old ones drained), record the requested
 * attributes and switch every entry.
 */
static void install_wq_table(struct workqueue_struct *wq, struct wq_table *t,
			     const struct workqueue_attrs *requested)
{
	bool plug = t->attrs->ordered && !list_empty(&wq->pwqs);
	struct pool_workqueue *pwq, *tmp;
	int cpu;

	wq_assert_L();
	mutex_lock(&wq->mutex);
	list_for_each_entry_safe(pwq, tmp, &t->fresh, pwqs_node) {
		list_del_init(&pwq->pwqs_node);
		pwq->plugged = plug;
		link_pwq(pwq);
	}
	copy_workqueue_attrs(wq->unbound_attrs, requested);
	cpumask_and(wq->unbound_attrs->cpumask, requested->cpumask,
		    cpu_possible_mask);
	for_each_possible_cpu(cpu) {
		set_table_entry(wq, per_cpu_ptr(wq->cpu_pwq, cpu), t->pwq[cpu]);
		wq_table_switch_pause(wq, cpu);
	}
	set_table_entry(wq, &wq->dfl_pwq, t->dfl);
	wq_refresh_limits(wq);
	/* the rescuer follows the effective cpumask, as on 6.12 */
	if (wq->rescuer)
		set_cpus_allowed_ptr(wq->rescuer->task, t->attrs->cpumask);
	mutex_unlock(&wq->mutex);
	free_workqueue_attrs(t->attrs);
	kfree(t);
}

/* Rebuild @wq's table for @attrs. */
static int rebuild_wq_table(struct workqueue_struct *wq,
			    const struct workqueue_attrs *attrs)
{
	struct wq_table *t = build_wq_table(wq, attrs);

	if (!t)
		return -ENOMEM;
	install_wq_table(wq, t, attrs);
	return 0;
}

static bool attrs_valid(const struct workqueue_attrs *attrs)
{
	return attrs->nice >= MIN_NICE && attrs->nice <= MAX_NICE &&
	       attrs->affn_scope >= 0 && attrs->affn_scope < WQ_AFFN_NR_TYPES;
}

/**
 * apply_workqueue_attrs_locked - apply_workqueue_attrs() with locks held
 * @wq: an unbound workqueue
 * @attrs: the new attributes
 *
 * Context: apply_wqattrs_lock() held.
 * Return: 0, -EINVAL for a per-CPU workqueue or invalid attributes,
 * -ENOMEM.
 */
int apply_workqueue_attrs_locked(struct workqueue_struct *wq,
				 const struct workqueue_attrs *attrs)
{
	wq_assert_L();
	if (WARN_ON_ONCE(!(wq->flags & WQ_UNBOUND)))
		return -EINVAL;
	if (!attrs_valid(attrs)) {
		pr_warn_once("workqueue: %s: invalid attributes (nice %d, scope %d)\n",
			     wq->name, attrs->nice, attrs->affn_scope);
		return -EINVAL;
	}
	return rebuild_wq_table(wq, attrs);
}

/**
 * apply_workqueue_attrs - change an unbound workqueue's attributes
 * @wq: the workqueue
 * @attrs: the new attributes
 *
 * Items queued from now on go to pools with the new attributes; items in
 * flight finish where they are.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int apply_workqueue_attrs(struct workqueue_struct *wq,
			  const struct workqueue_attrs *attrs)
{
	int ret;

	apply_wqattrs_lock();
	ret = apply_workqueue_attrs_locked(wq, attrs);
	apply_wqattrs_unlock();
	return ret;
}

/**
 * alloc_unbound_pwqs - the first pwq table of a new unbound workqueue
 * @wq: the workqueue
 *
 * Context: process context, may sleep; wq_pool_mutex (L), held from here
 * until @wq is on the list of workqueues, so that no CPU hotplug or
 * unbound cpumask change falls between the table and the list.
 * Return: 0 or -errno.
 */
int alloc_unbound_pwqs(struct workqueue_struct *wq)
{
	bool highpri = wq->flags & WQ_HIGHPRI;
	const struct workqueue_attrs *attrs = wq_is_ordered(wq) ?
		ordered_wq_attrs[highpri] : unbound_std_wq_attrs[highpri];

	wq_assert_L();
	return rebuild_wq_table(wq, attrs);
}

/*
 * wq_update_pod - refresh the pwq of @cpu after its pod's CPUs changed
 * (hotplug), from wq_online_cpumask.  The table changes only under L and
 * W, so under L it is read without W; a new pwq (and pool, and worker)
 * is allocated before W is taken: a flush from reclaim may wait on W.
 * Context: wq_pool_mutex (L).
 */
static void wq_update_pod(struct workqueue_struct *wq, int cpu)
{
	struct pool_workqueue __rcu **slot = per_cpu_ptr(wq->cpu_pwq, cpu);
	struct workqueue_attrs *attrs, *pod;
	struct pool_workqueue *cur, *pwq = NULL;

	wq_assert_L();
	if (!(wq->flags & WQ_UNBOUND) || wq_is_ordered(wq))
		return;
	attrs = alloc_workqueue_attrs();
	pod = alloc_workqueue_attrs();
	if (!attrs || !pod)
		goto out;
	effective_attrs(attrs, wq->unbound_attrs, wq);
	cur = rcu_dereference_protected(*slot, lockdep_is_held(&wq_pool_mutex));
	if (table_pod_attrs(pod, attrs, cpu)) {
		if (pool_attrs_equal(cur->pool->attrs, pod))
			goto out;
		pwq = alloc_unbound_pwq(wq, pod);
		if (!pwq)
			pr_warn("workqueue: %s: no pwq for CPU %d's pod, using the default\n",
				wq->name, cpu);
	}

	mutex_lock(&wq->mutex);
	if (pwq)
		link_pwq(pwq);
	else
		pwq = rcu_dereference_protected(wq->dfl_pwq,
						lockdep_is_held(&wq->mutex));
	if (pwq != cur)
		set_table_entry(wq, slot, pwq);
	mutex_unlock(&wq->mutex);
out:
	free_workqueue_attrs(attrs);
	free_workqueue_attrs(pod);
}

/* Refresh the pwqs of the CPUs that share a pod with @cpu. */
static void wq_update_pods_of(struct workqueue_struct *wq, int cpu)
{
	const struct wq_pod_type *pt =
		&wq_pod_types[effective_scope(wq->unbound_attrs)];
	int tcpu;

	for_each_cpu(tcpu, pt->pod_cpus[pt->cpu_pod[cpu]])
		wq_update_pod(wq, tcpu);
}

/**
 * wq_unbound_cpu_changed - a CPU came online or is going offline
 * @cpu: the CPU
 * @online: which of the two
 *
 * Records it in wq_online_cpumask, then refreshes every unbound
 * workqueue: the pwqs of the CPUs sharing a pod with @cpu and the node
 * quotas.  An ordered workqueue keeps its one pwq.
 *
 * Context: CPU hotplug callback, wq_pool_mutex (L).
 */
void wq_unbound_cpu_changed(int cpu, bool online)
{
	struct workqueue_struct *wq;

	wq_assert_L();
	if (online)
		cpumask_set_cpu(cpu, wq_online_cpumask);
	else
		cpumask_clear_cpu(cpu, wq_online_cpumask);
	if (!wq_topo_initialized)
		return;
	list_for_each_entry(wq, &workqueues, list) {
		if (!(wq->flags & WQ_UNBOUND))
			continue;
		if (!wq_is_ordered(wq))
			wq_update_pods_of(wq, cpu);
		mutex_lock(&wq->mutex);
		wq_update_node_max_active(wq);
		mutex_unlock(&wq->mutex);
	}
}

/**
 * wq_unbound_topology_init - pods from the real topology for every
 *	unbound workqueue made so far
 *
 * Context: boot, from workqueue_init_topology().
 */
void __init wq_unbound_topology_init(void)
{
	struct workqueue_struct *wq;
	int cpu;

	mutex_lock(&wq_pool_mutex);
	wq_init_pod_types();
	wq_topo_initialized = true;
	list_for_each_entry(wq, &workqueues, list) {
		if (!(wq->flags & WQ_UNBOUND))
			continue;
		if (!wq_is_ordered(wq))
			for_each_possible_cpu(cpu)
				wq_update_pod(wq, cpu);
		mutex_lock(&wq->mutex);
		wq_update_node_max_active(wq);
		mutex_unlock(&wq->mutex);
	}
	mutex_unlock(&wq_pool_mutex);
}

/* ------------------------------------------------------------------ */
/* 6. the unbound cpumask and parameters                               */
/* ------------------------------------------------------------------ */

/* Rebuild the tables of every unbound workqueue (new mask or scope). */
static int rebuild_all_tables(bool only_dfl_scope)
{
	struct workqueue_struct *wq;
	int ret = 0;

	wq_assert_L();
	list_for_each_entry(wq, &workqueues, list) {
		if (!(wq->flags & WQ_UNBOUND))
			continue;
		if (only_dfl_scope && wq->unbound_attrs->affn_scope != WQ_AFFN_DFL)
			continue;
		ret = rebuild_wq_table(wq, wq->unbound_attrs);
		if (ret)
			break;
	}
	return ret;
}

/**
 * workqueue_apply_unbound_cpumask - move every unbound workqueue to a mask
 * @unbound_cpumask: where unbound items may run from now on
 *
 * On failure the old mask is restored.
 *
 * Context: apply_wqattrs_lock() held.
 * Return: 0 or -ENOMEM.
 */
int workqueue_apply_unbound_cpumask(const cpumask_var_t unbound_cpumask)
{
	cpumask_var_t saved;
	int ret;

	wq_assert_L();
	if (!zalloc_cpumask_var(&saved, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(saved, wq_unbound_cpumask);
	cpumask_copy(wq_unbound_cpumask, unbound_cpumask);
	ret = rebuild_all_tables(false);
	if (ret) {
		cpumask_copy(wq_unbound_cpumask, saved);
		rebuild_all_tables(false);
	}
	free_cpumask_var(saved);
	return ret;
}

/**
 * workqueue_unbound_exclude_cpumask - keep unbound items off some CPUs
 * @exclude_cpumask: the CPUs (isolated by cpusets)
 *
 * The unbound cpumask becomes the requested one without them (the
 * requested one alone if that leaves nothing).
 *
 * Context: process context (cpusets call it with the CPU hotplug lock
 * held).
 * Return: 0 or -errno.
 */
int workqueue_unbound_exclude_cpumask(cpumask_var_t exclude_cpumask)
{
	cpumask_var_t want;
	int ret;

	if (!alloc_cpumask_var(&want, GFP_KERNEL))
		return -ENOMEM;
	/* isolating everything leaves the requested mask as it is */
	if (!cpumask_andnot(want, wq_requested_unbound_cpumask, exclude_cpumask))
		cpumask_copy(want, wq_requested_unbound_cpumask);
	mutex_lock(&wq_pool_mutex);
	cpumask_copy(wq_isolated_cpumask, exclude_cpumask);
	ret = cpumask_equal(want, wq_unbound_cpumask) ? 0 :
	      workqueue_apply_unbound_cpumask(want);
	mutex_unlock(&wq_pool_mutex);
	free_cpumask_var(want);
	return ret;
}

static int __init workqueue_unbound_cpus_setup(char *str)
{
	if (cpulist_parse(str, &wq_cmdline_cpumask) < 0) {
		cpumask_clear(&wq_cmdline_cpumask);
		pr_warn("workqueue.unbound_cpus: invalid CPU list \"%s\", ignored\n", str);
	}
	return 1;
}
__setup("workqueue.unbound_cpus=", workqueue_unbound_cpus_setup);

/* Narrow the boot-time unbound cpumask by @mask, unless none would be left. */
static void __init narrow_unbound_cpumask(const char *what,
					  const struct cpumask *mask)
{
	if (cpumask_intersects(wq_unbound_cpumask, mask)) {
		cpumask_and(wq_unbound_cpumask, wq_unbound_cpumask, mask);
		return;
	}
	/* 6.12's words: boot logs are matched against them */
	pr_warn("workqueue: Restricting unbound_cpumask (%*pb) with %s (%*pb) leaves no CPU, ignoring\n",
		cpumask_pr_args(wq_unbound_cpumask), what,
		cpumask_pr_args(mask));
}

/**
 * wq_unbound_cpumask_init - the unbound cpumask at boot
 *
 * Housekeeping CPUs (workqueue, then scheduler domain), then
 * workqueue.unbound_cpus=: each narrows the mask unless it would leave
 * no CPU, which is reported and ignored.
 *
 * Context: early boot.
 */
void __init wq_unbound_cpumask_init(void)
{
	wq_boot_check(alloc_cpumask_var(&wq_unbound_cpumask, GFP_KERNEL) &&
		      alloc_cpumask_var(&wq_requested_unbound_cpumask, GFP_KERNEL) &&
		      zalloc_cpumask_var(&wq_isolated_cpumask, GFP_KERNEL) &&
		      alloc_cpumask_var(&wq_online_cpumask, GFP_KERNEL),
		      "unbound cpumasks");
	/* the boot CPU; the others are added by their hotplug callbacks */
	cpumask_copy(wq_online_cpumask, cpu_online_mask);

	cpumask_copy(wq_unbound_cpumask, cpu_possible_mask);
	narrow_unbound_cpumask("HK_TYPE_WQ", housekeeping_cpumask(HK_TYPE_WQ));
	narrow_unbound_cpumask("HK_TYPE_DOMAIN",
			       housekeeping_cpumask(HK_TYPE_DOMAIN));
	if (!cpumask_empty(&wq_cmdline_cpumask))
		narrow_unbound_cpumask("workqueue.unbound_cpus",
				       &wq_cmdline_cpumask);
	cpumask_copy(wq_requested_unbound_cpumask, wq_unbound_cpumask);
	/* isolcpus= (domain isolation) counts as isolated from the start */
	cpumask_andnot(wq_isolated_cpumask, cpu_possible_mask,
		       housekeeping_cpumask(HK_TYPE_DOMAIN));
}

/**
 * parse_affn_scope - affinity scope from its name
 * @val: text starting with the name, case-insensitive
 *
 * Matched as 6.12 matches it: by the name's length, so a trailing newline
 * (or anything else) after it is ignored; the longest name that matches
 * wins ("cache" begins "cache_shard").
 *
 * Return: the scope, or -EINVAL.
 */
int parse_affn_scope(const char *val)
{
	int scope, found = -EINVAL;
	size_t len, best = 0;

	for (scope = 0; scope < WQ_AFFN_NR_TYPES; scope++) {
		len = strlen(wq_affn_names[scope]);
		if (len > best && !strncasecmp(val, wq_affn_names[scope], len)) {
			found = scope;
			best = len;
		}
	}
	return found;
}

static int wq_affn_dfl_set(const char *val, const struct kernel_param *kp)
{
	int scope = parse_affn_scope(val);

	if (scope < 0 || scope == WQ_AFFN_DFL)
		return -EINVAL;
	apply_wqattrs_lock();
	wq_affn_dfl = scope;
	/* workqueues on the default scope follow it */
	rebuild_all_tables(true);
	apply_wqattrs_unlock();
	return 0;
}

static int wq_affn_dfl_get(char *buffer, const struct kernel_param *kp)
{
	const char *name = wq_affn_names[READ_ONCE(wq_affn_dfl)];

	return sprintf(buffer, "%s\n", name);
}

static const struct kernel_param_ops wq_affn_dfl_ops = {
	.get = wq_affn_dfl_get, .set = wq_affn_dfl_set,
};
module_param_cb(default_affinity_scope, &wq_affn_dfl_ops, NULL, 0644);
