/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Precise delayed work: a workqueue item queued after a delay in
 * nanoseconds, served by a high-resolution timer instead of the timer
 * wheel.  See Documentation/core-api/workqueue.rst, "Precise delays".
 */
#ifndef _LINUX_WORKQUEUE_PRECISE_H
#define _LINUX_WORKQUEUE_PRECISE_H

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>

/**
 * struct precise_work - an item queued when a high-resolution timer expires
 * @work: the item; its function gets &@work (to_precise_work() finds this)
 * @timer: the timer, armed in hard interrupt mode while the delay runs
 * @wq: the workqueue the item goes to when @timer expires
 * @cpu: the CPU it goes to, or %WORK_CPU_UNBOUND
 *
 * Like &struct delayed_work, with a delay in nanoseconds (a &ktime_t) and
 * an optional slack the caller grants: the item is queued no earlier than
 * the delay and, the slack permitting, together with other timers.
 */
struct precise_work {
	struct work_struct work;
	struct hrtimer timer;
	struct workqueue_struct *wq;
	int cpu;
};

void precise_work_init_timer(struct precise_work *pw, bool onstack);
void destroy_precise_work_on_stack(struct precise_work *pw);

#define INIT_PRECISE_WORK(_pw, _func)					\
	do {								\
		struct precise_work *__pw = (_pw);			\
									\
		INIT_WORK(&__pw->work, (_func));			\
		precise_work_init_timer(__pw, false);			\
	} while (0)

#define INIT_PRECISE_WORK_ONSTACK(_pw, _func)				\
	do {								\
		struct precise_work *__pw = (_pw);			\
									\
		INIT_WORK_ONSTACK(&__pw->work, (_func));		\
		precise_work_init_timer(__pw, true);			\
	} while (0)

static inline struct precise_work *to_precise_work(struct work_struct *work)
{
	return container_of(work, struct precise_work, work);
}

static inline bool precise_work_pending(struct precise_work *pw)
{
	return work_pending(&pw->work);
}

bool queue_precise_work_on(int cpu, struct workqueue_struct *wq,
			   struct precise_work *pw, ktime_t delay, u64 slack_ns);
bool mod_precise_work_on(int cpu, struct workqueue_struct *wq,
			 struct precise_work *pw, ktime_t delay, u64 slack_ns);
bool flush_precise_work(struct precise_work *pw);
bool cancel_precise_work(struct precise_work *pw);
bool cancel_precise_work_sync(struct precise_work *pw);
bool disable_precise_work(struct precise_work *pw);
bool disable_precise_work_sync(struct precise_work *pw);
bool enable_precise_work(struct precise_work *pw);

/**
 * queue_precise_work - queue_precise_work_on() the local CPU (or its pod)
 * @wq: the workqueue
 * @pw: the item
 * @delay: time to wait; 0 or less queues at once
 * @slack_ns: how much later than @delay the item may be queued
 *
 * Context: any.
 * Return: %false if @pw was already pending (or is disabled).
 */
static inline bool queue_precise_work(struct workqueue_struct *wq,
				      struct precise_work *pw, ktime_t delay,
				      u64 slack_ns)
{
	return queue_precise_work_on(WORK_CPU_UNBOUND, wq, pw, delay, slack_ns);
}

/**
 * mod_precise_work - mod_precise_work_on() the local CPU (or its pod)
 * @wq: the workqueue
 * @pw: the item
 * @delay: time to wait; 0 or less queues at once
 * @slack_ns: how much later than @delay the item may be queued
 *
 * Context: any.
 * Return: %true if @pw was pending and got the new delay.
 */
static inline bool mod_precise_work(struct workqueue_struct *wq,
				    struct precise_work *pw, ktime_t delay,
				    u64 slack_ns)
{
	return mod_precise_work_on(WORK_CPU_UNBOUND, wq, pw, delay, slack_ns);
}

#endif /* _LINUX_WORKQUEUE_PRECISE_H */
