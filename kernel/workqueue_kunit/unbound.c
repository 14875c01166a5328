// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_unbound: unbound attributes and affinity scopes.  Nice
 * level and cpumask apply to the workers that run the items, also while
 * items are in flight; every affinity scope is accepted, node quotas
 * follow the CPUs, and cache_shard pods hold whole cores.
 */
#include <linux/cpu.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "probes.h"

static void unbound_nice_attribute_applies_to_workers(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	static const int nices[] = { 5, -5, 19, 0 };
	int i;

	for (i = 0; i < ARRAY_SIZE(nices); i++) {
		attrs->nice = nices[i];
		KUNIT_EXPECT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
		KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq,
						  WORK_CPU_UNBOUND)->nice, nices[i]);
	}
}

static void unbound_highpri_items_run_at_nice_minus_20(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND | WQ_HIGHPRI, 0);

	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->nice,
			MIN_NICE);
}

static void unbound_cpumask_attribute_confines_items(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int target = wqk_last_online_cpu(), cpu;

	cpumask_copy(attrs->cpumask, cpumask_of(target));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, cpu)->cpu, target);
	cpus_read_unlock();
}

static void apply_attrs_while_items_are_in_flight(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	struct wqk_probe *ps[4];
	int i;

	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_gated_probe(test, t);
		queue_work(wq, &ps[i]->work);
	}
	WQK_WAIT_STARTED(test, t, 2);
	attrs->nice = 3;
	cpumask_copy(attrs->cpumask, cpumask_of(wqk_last_online_cpu()));
	KUNIT_EXPECT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		wqk_open(ps[i]);
	flush_workqueue(wq);
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&ps[i]->runs), 1);
	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->nice, 3);
}

struct wqk_scope {
	enum wq_affn_scope scope;
	bool strict;
	const char *name;
};

static const struct wqk_scope wqk_scopes[] = {
	{ WQ_AFFN_DFL, false, "default" },
	{ WQ_AFFN_CPU, false, "cpu" },
	{ WQ_AFFN_SMT, false, "smt" },
	{ WQ_AFFN_CACHE, false, "cache" },
#ifdef WQ_HAS_CACHE_SHARD
	{ WQ_AFFN_CACHE_SHARD, false, "cache_shard" },
	{ WQ_AFFN_CACHE_SHARD, true, "cache_shard,strict" },
#endif
	{ WQ_AFFN_NUMA, false, "numa" },
	{ WQ_AFFN_SYSTEM, false, "system" },
	{ WQ_AFFN_CPU, true, "cpu,strict" },
	{ WQ_AFFN_SMT, true, "smt,strict" },
	{ WQ_AFFN_CACHE, true, "cache,strict" },
	{ WQ_AFFN_NUMA, true, "numa,strict" },
	{ WQ_AFFN_SYSTEM, true, "system,strict" },
};

static void wqk_scope_desc(const struct wqk_scope *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_scope, wqk_scopes, wqk_scope_desc);

/* Whether @ran is inside the pod of @cpu for a strict @scope. */
static bool wqk_in_pod(enum wq_affn_scope scope, int cpu, int ran)
{
	switch (scope) {
	case WQ_AFFN_CPU:
		return ran == cpu;
	case WQ_AFFN_SMT:
		return cpumask_test_cpu(ran, topology_sibling_cpumask(cpu));
	case WQ_AFFN_CACHE:
		return cpus_share_cache(cpu, ran);
	case WQ_AFFN_NUMA:
		return cpu_to_node(cpu) == cpu_to_node(ran);
	default:
		return true;
	}
}

static void every_affinity_scope_is_accepted(struct kunit *test)
{
	const struct wqk_scope *s = test->param_value;
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int cpu;

	attrs->affn_scope = s->scope;
	attrs->affn_strict = s->strict;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_run_one(test, wq, cpu);

		if (s->strict)
			KUNIT_EXPECT_TRUE_MSG(test,
					      wqk_in_pod(s->scope, cpu, p->cpu),
					      "queued on %d, ran on %d", cpu, p->cpu);
	}
	cpus_read_unlock();
}

/* Keep unbound items off @node's CPUs (as a cpuset partition does). */
static void wqk_exclude_node(struct kunit *test, int node)
{
	wqk_exclude_cpus(test, cpumask_of_node(node));
}

/*
 * The per-node share of max_active follows the CPUs items may really use:
 * the requested cpumask within the unbound cpumask.  A workqueue asking
 * only for CPUs that are excluded from unbound work runs on the others,
 * and with min_active 0 still gets a share there.
 */
static void node_quotas_follow_the_cpus_items_may_use(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 4);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i, node = cpu_to_node(wqk_last_online_cpu());
	struct wqk_probe *ps[4];

	if (num_online_nodes() < 2 ||
	    cpumask_weight(cpumask_of_node(node)) == num_online_cpus())
		kunit_skip(test, "needs online CPUs on two NUMA nodes");
	wqk_exclude_node(test, node);
	cpumask_copy(attrs->cpumask, cpumask_of_node(node));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	workqueue_set_min_active(wq, 0);

	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		ps[i] = wqk_probe_new(test, t);
		queue_work(wq, &ps[i]->work);
	}
	WQK_WAIT_FINISHED(test, t, ARRAY_SIZE(ps));
	for (i = 0; i < ARRAY_SIZE(ps); i++)
		KUNIT_EXPECT_NE(test, cpu_to_node(ps[i]->cpu), node);
}

#ifdef WQ_HAS_CACHE_SHARD
/* The CPUs the worker of an item queued on @cpu may run on, into @mask. */
static void wqk_strict_worker_cpus(struct kunit *test, struct workqueue_struct *wq,
				   int cpu, struct cpumask *mask)
{
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_work_on(cpu, wq, &p->work);
	WQK_WAIT(test, &p->finished);
	cpumask_copy(mask, p->task->cpus_ptr);
}

/* An unbound workqueue with strict affinity in @scope. */
static struct workqueue_struct *wqk_strict_scope_wq(struct kunit *test,
						    enum wq_affn_scope scope)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);

	attrs->affn_scope = scope;
	attrs->affn_strict = true;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	return wq;
}

/*
 * The cache_shard scope (7.1's) cuts a last-level cache into shards of at
 * most workqueue.cache_shard_size cores (8 unless booted otherwise), SMT
 * siblings together: each CPU's shard lies within its cache pod, holds
 * whole cores, and is the cache pod where the cache has at most 8 cores.
 */
static void cache_shard_pods_cut_caches_into_whole_cores(struct kunit *test)
{
	struct workqueue_struct *shard = wqk_strict_scope_wq(test, WQ_AFFN_CACHE_SHARD);
	struct workqueue_struct *cache = wqk_strict_scope_wq(test, WQ_AFFN_CACHE);
	cpumask_var_t s, c;
	int cpu, other;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&s, GFP_KERNEL));
	if (!alloc_cpumask_var(&c, GFP_KERNEL)) {
		free_cpumask_var(s);
		KUNIT_FAIL(test, "no memory");
		return;
	}
	for_each_online_cpu(cpu) {
		wqk_strict_worker_cpus(test, shard, cpu, s);
		wqk_strict_worker_cpus(test, cache, cpu, c);
		KUNIT_EXPECT_TRUE_MSG(test, cpumask_subset(s, c), "cpu %d", cpu);
		for_each_cpu(other, s) {
			const struct cpumask *core = topology_sibling_cpumask(other);

			KUNIT_EXPECT_TRUE_MSG(test, !IS_ENABLED(CONFIG_SCHED_SMT) ||
					      cpumask_subset(core, s),
					      "cpu %d: a core cut in two", cpu);
		}
		if (cpumask_weight(c) <= 8)
			KUNIT_EXPECT_TRUE_MSG(test, cpumask_equal(s, c), "cpu %d", cpu);
	}
	free_cpumask_var(c);
	free_cpumask_var(s);
}
#endif

static struct kunit_case wqk_unbound_cases[] = {
	KUNIT_CASE(node_quotas_follow_the_cpus_items_may_use),
	KUNIT_CASE(unbound_nice_attribute_applies_to_workers),
	KUNIT_CASE(unbound_highpri_items_run_at_nice_minus_20),
	KUNIT_CASE(unbound_cpumask_attribute_confines_items),
	KUNIT_CASE(apply_attrs_while_items_are_in_flight),
	KUNIT_CASE_PARAM(every_affinity_scope_is_accepted, wqk_scope_gen_params),
#ifdef WQ_HAS_CACHE_SHARD
	KUNIT_CASE(cache_shard_pods_cut_caches_into_whole_cores),
#endif
	{}
};

static struct kunit_suite wqk_unbound_suite = {
	.name = "workqueue_unbound",
	.test_cases = wqk_unbound_cases,
};

kunit_test_suites(&wqk_unbound_suite);
