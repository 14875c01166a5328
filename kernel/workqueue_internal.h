/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workqueue internals shared with the scheduler (sleep, wake and tick
 * hooks) and with async.c (current_wq_worker()).  Everything else about
 * the implementation is private to kernel/workqueue*.c, see
 * kernel/workqueue_impl.h.
 */
#ifndef _KERNEL_WORKQUEUE_INTERNAL_H
#define _KERNEL_WORKQUEUE_INTERNAL_H

#include <linux/workqueue.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/stddef.h>

struct worker_pool;
struct pool_workqueue;
#ifdef WQ_HAS_WAIT_PI
struct wq_barrier;
#endif

/**
 * struct worker - one execution context of a worker pool
 * @entry: on the pool's idle list while idle (P)
 * @hentry: in the pool's busy hash while running an item (P)
 * @current_work: the item being run, or %NULL (P)
 * @current_func: its function (P)
 * @current_pwq: the pool_workqueue it was queued on (P)
 * @current_at: task runtime when the item started, for CPU-hog detection (X)
 * @current_color: the item's flush color (X)
 * @sleeping: the scheduler told us the worker blocked (X)
 * @last_func: function of the previous item, for PSI (X)
 * @scheduled: items this worker runs next, in order (P)
 * @task: the kthread, %NULL for the softirq worker of a BH pool (I)
 * @pool: the pool the worker is attached to (A; P to read)
 * @node: entry in the pool's list of workers (A)
 * @last_active: jiffies when the worker last went idle (P)
 * @flags: WORKER_* (P; WORKER_UNBOUND and WORKER_REBOUND also under A alone
 *	while the worker is on no list of its pool; the worker itself reads
 *	them unlocked, see Lockless reads)
 * @id: worker number within the pool (I)
 * @desc: set_worker_desc() text, or the workqueue name (P)
 * @desc_id: the name_id of the workqueue whose name @desc holds, 0 when
 *	set_worker_desc() wrote it (X)
 * @rescue_wq: the workqueue a rescuer serves, %NULL for normal workers (I)
 * @rank: the scheduling rank decided for its task (P; X for a rescuer
 *	between its pools)
 * @boosted: @rank is above the worker's own, lent by waiters of its item (P)
 * @rank_want: the rank to give the task when it is applied: a @rank
 *	decided for another task, which gets it from wq_apply_ranks() (Q)
 * @rank_rr: @rank_want is the worker's own: SCHED_RR if real-time (Q)
 * @rank_node: on wq_rank_pending while @rank_want waits to be applied (Q)
 * @waiting: the flush_work() barrier the worker itself waits on, if any
 *	(P; set and cleared by the worker)
 * @hist_flags: the item being run is sampled for the histograms, or its
 *	pwq wants them allocated (X; see kernel/workqueue_hist.c)
 * @hist_weight: the items the sampled item stands for (X)
 * @hist_queued: when it was queued (X)
 * @hist_active: when it became active (X)
 * @hist_start: when it started (X)
 * @hist_cpu: the CPU time the scheduler had charged the task then (X)
 * @hist_switches: the task's context switches then (X)
 *
 * Locking letters are those of the legend in kernel/workqueue_impl.h.
 */
struct worker {
	union {
		struct list_head	entry;
		struct hlist_node	hentry;
	};
	struct work_struct	*current_work;
	work_func_t		current_func;
	struct pool_workqueue	*current_pwq;
	u64			current_at;
	unsigned int		current_color;
	int			sleeping;
	work_func_t		last_func;
	struct list_head	scheduled;
	struct task_struct	*task;
	struct worker_pool	*pool;
	struct list_head	node;
	unsigned long		last_active;
	unsigned int		flags;
	int			id;
	char			desc[WORKER_DESC_LEN];
	u64			desc_id;
	struct workqueue_struct	*rescue_wq;
	int			rank;
#ifdef WQ_HAS_WAIT_PI
	bool			boosted;
	int			rank_want;
	bool			rank_rr;
	struct list_head	rank_node;
	struct wq_barrier	*waiting;
#endif
#ifdef WQ_HAS_HISTOGRAMS
	unsigned int		hist_flags;
	unsigned int		hist_weight;
	u64			hist_queued;
	u64			hist_active;
	u64			hist_start;
	u64			hist_cpu;
	unsigned long		hist_switches;
#endif
};

/* Scheduler hooks, called for tasks with PF_WQ_WORKER. */
void wq_worker_sleeping(struct task_struct *task);
void wq_worker_running(struct task_struct *task);
void wq_worker_tick(struct task_struct *task);
work_func_t wq_worker_last_func(struct task_struct *task);

#ifdef WQ_HAS_RT_CLASS
/* The SCHED_FIFO priority of the WQ_RT class (workqueue.rt_prio). */
extern int wq_rt_prio;
#endif

/**
 * current_wq_worker - the worker %current is, if it is one
 *
 * Context: any; only a task can be a worker.
 * Return: the worker, or %NULL when %current is not a workqueue worker.
 */
static inline struct worker *current_wq_worker(void)
{
	bool worker = in_task() && (current->flags & PF_WQ_WORKER);

	return worker ? kthread_data(current) : NULL;
}

#endif /* _KERNEL_WORKQUEUE_INTERNAL_H */
