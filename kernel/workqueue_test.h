/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hooks of the workqueue implementation for its own tests
 * (kernel/workqueue_kunit/), kept out of workqueue_internal.h, which the
 * scheduler includes.  Not for other kernel code.
 */
#ifndef _KERNEL_WORKQUEUE_TEST_H
#define _KERNEL_WORKQUEUE_TEST_H

#include <linux/completion.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/*
 * Tests can make worker creation fail, to show that WQ_MEM_RECLAIM
 * workqueues make progress through their rescuers.
 */
#define WQ_HAS_WORKER_CREATION_FAULT
void wq_fail_worker_creation(bool fail);

/*
 * Tests can pause a rebuild of a workqueue's table after it switched the
 * first CPU's entry, to queue items while the entries disagree.
 */
#define WQ_HAS_TABLE_SWITCH_PAUSE
void wq_pause_table_switch(struct workqueue_struct *wq,
			   struct completion *paused, struct completion *resume);

#ifdef WQ_HAS_HISTOGRAMS
/*
 * What the sysfs file of histogram @kind of @wq shows (%WQ_NR_HISTS: the
 * worst items), for tests of workqueues without WQ_SYSFS.  @buf is a page.
 */
ssize_t wq_hist_show_kind(struct workqueue_struct *wq, int kind, char *buf);
#endif

#endif /* _KERNEL_WORKQUEUE_TEST_H */
