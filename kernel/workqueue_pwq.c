// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a workqueue owns, and how it goes: its pool_workqueues (each links
 * the workqueue to one pool), its per-node quotas of active items and its
 * lockdep map.  kernel/workqueue_lifecycle.c (per-CPU pwqs) and the pwq
 * tables of kernel/workqueue_unbound.c allocate pwqs here; the core's
 * put_pwq() queues the release of a pwq whose last reference is gone, and
 * the workqueue is freed with its last pwq.  This file calls only the core
 * and the histograms.
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. the lockdep map
 *   2. node quotas: allocation (their size: kernel/workqueue_unbound.c)
 *   3. freeing a workqueue
 *   4. pool_workqueues: allocation and release
 */
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "workqueue_impl.h"

/* ------------------------------------------------------------------ */
/* 1. the lockdep map                                                 */
/* ------------------------------------------------------------------ */

#ifdef CONFIG_LOCKDEP
/**
 * wq_init_lockdep - give a new workqueue the lockdep map of its flushes
 * @wq: the workqueue, named
 * @map: the caller's map, or %NULL for one of its own
 *
 * Set before anything can flush or drain the workqueue, the error paths of
 * its creation included.
 *
 * Context: process context.
 */
void wq_init_lockdep(struct workqueue_struct *wq, struct lockdep_map *map)
{
	char *name;

	if (map) {
		wq->lockdep_map = map;
		return;
	}
	lockdep_register_key(&wq->key);
	name = kasprintf(GFP_KERNEL, "(wq_completion)%s", wq->name);
	wq->lockdep_name = name ?: wq->name;
	lockdep_init_map(&wq->__lockdep_map, wq->lockdep_name, &wq->key, 0);
	wq->lockdep_map = &wq->__lockdep_map;
}

static void wq_unregister_lockdep(struct workqueue_struct *wq)
{
	if (wq->lockdep_map == &wq->__lockdep_map)
		lockdep_unregister_key(&wq->key);
}

static void wq_free_lockdep_name(struct workqueue_struct *wq)
{
	if (wq->lockdep_name != wq->name)
		kfree(wq->lockdep_name);
}
#else
void wq_init_lockdep(struct workqueue_struct *wq, struct lockdep_map *map) { }
static void wq_unregister_lockdep(struct workqueue_struct *wq) { }
static void wq_free_lockdep_name(struct workqueue_struct *wq) { }
#endif

/* ------------------------------------------------------------------ */
/* 2. node quotas                                                     */
/* ------------------------------------------------------------------ */

/**
 * wq_alloc_node_nr_active - allocate the per-node quotas of @wq
 * @wq: a new unbound workqueue
 *
 * Context: process context.
 * Return: 0, or -ENOMEM.
 */
int wq_alloc_node_nr_active(struct workqueue_struct *wq)
{
	int node;

	for (node = 0; node <= nr_node_ids; node++) {
		struct wq_node_nr_active *nna;

		nna = kzalloc_node(sizeof(*nna), GFP_KERNEL,
				   node < nr_node_ids ? node : NUMA_NO_NODE);
		if (!nna)
			return -ENOMEM;
		/* until the topology is known (and for ordered ones, always) */
		nna->max = wq->max_active;
		raw_spin_lock_init(&nna->lock);
		INIT_LIST_HEAD(&nna->pending_pwqs);
		wq->node_nr_active[node] = nna;
	}
	return 0;
}

/**
 * wq_free_node_nr_active - free the per-node quotas of @wq
 * @wq: the workqueue
 */
static void wq_free_node_nr_active(struct workqueue_struct *wq)
{
	int node;

	for (node = 0; node <= nr_node_ids; node++)
		kfree(wq->node_nr_active[node]);
}

/* ------------------------------------------------------------------ */
/* 3. freeing a workqueue                                             */
/* ------------------------------------------------------------------ */

/* Free @wq and all it owns: nothing can reach it any more. */
static void free_wq(struct workqueue_struct *wq)
{
	if (wq->flags & WQ_UNBOUND)
		wq_free_node_nr_active(wq);
	wq_free_lockdep_name(wq);
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_free_wq(wq);
#endif
	free_percpu(wq->cpu_pwq);
	free_workqueue_attrs(wq->unbound_attrs);
	kfree(wq);
}

static void rcu_free_wq(struct rcu_head *rcu)
{
	free_wq(container_of(rcu, struct workqueue_struct, rcu));
}

/**
 * discard_wq - free a workqueue whose creation failed
 * @wq: the workqueue, never listed, with no pwq left
 *
 * Context: process context.
 */
void discard_wq(struct workqueue_struct *wq)
{
	wq_unregister_lockdep(wq);
	free_wq(wq);
}

/* ------------------------------------------------------------------ */
/* 4. pool_workqueues: allocation and release                         */
/* ------------------------------------------------------------------ */

static struct kmem_cache *pwq_cache;

/* The slab of pwqs, made by workqueue_init_early(). */
void __init wq_pwq_cache_init(void)
{
	pwq_cache = KMEM_CACHE(pool_workqueue, SLAB_PANIC);
}

/* Free @pwq, with its histograms; nothing can reach it any more. */
static void free_pwq(struct pool_workqueue *pwq)
{
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_free_pwq(pwq);
#endif
	kmem_cache_free(pwq_cache, pwq);
}

/**
 * discard_pwq - free a pwq that was never installed
 * @pwq: the pwq, without references
 *
 * The reference to an unbound pool that alloc_pwq() took over goes with
 * it.
 *
 * Context: wq_pool_mutex (L).
 */
void discard_pwq(struct pool_workqueue *pwq)
{
	WARN_ON_ONCE(pwq->refcnt);
	if (pwq->pool->cpu < 0)
		put_unbound_pool(pwq->pool);
	free_pwq(pwq);
}

static void rcu_free_pwq(struct rcu_head *rcu)
{
	free_pwq(container_of(rcu, struct pool_workqueue, rcu));
}

/*
 * An ordered workqueue runs its pwqs in the order they were linked: each
 * table rebuild links a new pwq, plugged, at the tail of wq->pwqs, so the
 * head is the oldest one left.  Once the pwqs before it are released, the
 * head may run its items.  Rebuilds can follow each other faster than
 * pwqs drain, so several plugged pwqs may wait behind each other.
 */
static void unplug_first_pwq(struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;

	wq_assert_W(wq);
	pwq = list_first_entry_or_null(&wq->pwqs, struct pool_workqueue,
				       pwqs_node);
	if (!pwq || !pwq->plugged)
		return;
	raw_spin_lock_irq(&pwq->pool->lock);
	pwq->plugged = false;
	pwq_activate_inactive_locked(pwq);
	raw_spin_unlock_irq(&pwq->pool->lock);
}

/* Drop @pwq from its node quota's line of waiting pwqs, if it is in it. */
static void pwq_leave_node_quota(struct pool_workqueue *pwq)
{
	if (list_empty(&pwq->pending_node))
		return;
	raw_spin_lock_irq(&pwq->pool->lock);
	node_quota_unlist_locked(pwq);
	raw_spin_unlock_irq(&pwq->pool->lock);
}

/*
 * The last reference to a pwq is gone: unlink it, let go of its unbound
 * pool, and free it (and the workqueue, with its last pwq) after RCU.
 */
static void pwq_release_workfn(struct kthread_work *work)
{
	struct pool_workqueue *pwq = container_of(work, struct pool_workqueue,
						  release_work);
	struct workqueue_struct *wq = pwq->wq;
	struct worker_pool *pool = pwq->pool;
	bool last;

	mutex_lock(&wq->mutex);
#ifdef WQ_HAS_HISTOGRAMS
	/* readers of the histograms find its counts in one place or the other */
	wq_hist_retire_pwq(pwq);
#endif
	list_del_rcu(&pwq->pwqs_node);
	last = list_empty(&wq->pwqs);
	if (!last && wq_is_ordered(wq))
		unplug_first_pwq(wq);
	mutex_unlock(&wq->mutex);

	pwq_leave_node_quota(pwq);
	if (pool->cpu < 0) {
		mutex_lock(&wq_pool_mutex);
		put_unbound_pool(pool);
		mutex_unlock(&wq_pool_mutex);
	}
	call_rcu(&pwq->rcu, rcu_free_pwq);
	/*
	 * The workqueue goes with its last pwq (destroy_workqueue() ran).
	 * Its lockdep class lives as long: a worker that has just run a
	 * flush barrier of it still holds its map when the flusher returns.
	 */
	if (last) {
		wq_unregister_lockdep(wq);
		call_rcu(&wq->rcu, rcu_free_wq);
	}
}

/**
 * alloc_pwq - a new pwq linking @wq and @pool
 * @wq: the workqueue
 * @pool: the pool; the caller's reference to an unbound pool moves to it
 *
 * Context: process context.
 * Return: the pwq without references, or %NULL: each table entry that
 * points at it takes one.
 */
struct pool_workqueue *alloc_pwq(struct workqueue_struct *wq,
				 struct worker_pool *pool)
{
	struct pool_workqueue *pwq;

	pwq = kmem_cache_alloc_node(pwq_cache, GFP_KERNEL | __GFP_ZERO, pool->node);
	if (!pwq)
		return NULL;
	pwq->pool = pool;
	pwq->wq = wq;
	pwq->max_active = wq->max_active;
	INIT_LIST_HEAD(&pwq->inactive_works);
#ifdef WQ_HAS_WAIT_PI
	INIT_LIST_HEAD(&pwq->boosters);
#endif
	INIT_LIST_HEAD(&pwq->pending_node);
	INIT_LIST_HEAD(&pwq->pwqs_node);
	INIT_LIST_HEAD(&pwq->mayday_node);
	kthread_init_work(&pwq->release_work, pwq_release_workfn);
#ifdef WQ_HAS_HISTOGRAMS
	wq_hist_init_pwq(pwq);
#endif
	return pwq;
}
