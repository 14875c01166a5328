/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hooks of the workqueue implementation for its own tests
 * (kernel/workqueue_kunit.c), kept out of workqueue_internal.h, which the
 * scheduler includes.  Not for other kernel code.
 */
#ifndef _KERNEL_WORKQUEUE_TEST_H
#define _KERNEL_WORKQUEUE_TEST_H

#include <linux/types.h>

/*
 * Tests can make worker creation fail, to show that WQ_MEM_RECLAIM
 * workqueues make progress through their rescuers.
 */
#define WQ_HAS_WORKER_CREATION_FAULT
void wq_fail_worker_creation(bool fail);

#endif /* _KERNEL_WORKQUEUE_TEST_H */
