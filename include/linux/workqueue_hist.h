/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-workqueue latency and run-time histograms: how long items wait
 * behind max_active and for a worker, how long they run, and how long
 * flushers wait.  See Documentation/core-api/workqueue.rst, "Histograms".
 */
#ifndef _LINUX_WORKQUEUE_HIST_H
#define _LINUX_WORKQUEUE_HIST_H

#include <linux/types.h>

struct workqueue_struct;

/**
 * enum wq_hist_kind - what a histogram of a workqueue measures
 * @WQ_HIST_QUEUED: from queueing to activation: the time an item waits
 *	behind max_active (0 for items activated when queued)
 * @WQ_HIST_WAITING: from activation to start: the time an active item
 *	waits for a worker to take it
 * @WQ_HIST_RUNNING: run time of the work function, wall clock
 * @WQ_HIST_CPU: run time of the work function on the CPU (not recorded
 *	for WQ_BH items, which run in softirq)
 * @WQ_HIST_FLUSH: the time a flush_work(), cancel_work_sync() or
 *	flush_workqueue() caller waits
 * @WQ_NR_HISTS: the number of kinds
 *
 * The first four come from sampled items, each standing for the items
 * queued since the sample before it on the same pool_workqueue, so that
 * the counts estimate every item; flush waits are all counted.
 */
enum wq_hist_kind {
	WQ_HIST_QUEUED,
	WQ_HIST_WAITING,
	WQ_HIST_RUNNING,
	WQ_HIST_CPU,
	WQ_HIST_FLUSH,
	WQ_NR_HISTS,
};

/*
 * Log2 buckets of microseconds: bucket 0 counts times under 1 us, bucket
 * b (1 <= b < WQ_HIST_BUCKETS - 1) times of [2^(b-1), 2^b) us, and the
 * last one everything from 2^(WQ_HIST_BUCKETS - 2) us (about 4 s) on.
 */
#define WQ_HIST_BUCKETS		24

int workqueue_hist_read(struct workqueue_struct *wq, enum wq_hist_kind kind,
			u64 *buckets);
void workqueue_hist_reset(struct workqueue_struct *wq);
int workqueue_hist_set_period(unsigned int period);

#endif /* _LINUX_WORKQUEUE_HIST_H */
