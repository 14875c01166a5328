// SPDX-License-Identifier: GPL-2.0-only
/*
 * Precise delayed work: struct precise_work and its family
 * (<linux/workqueue_precise.h>), delayed items whose delay runs on a
 * high-resolution timer instead of the timer wheel, so that an item is
 * queued within microseconds of its delay rather than rounded up to the
 * next jiffy and the wheel's granularity.
 *
 * The item is a work_struct like any other once its timer fired: it is
 * queued, flushed, cancelled and disabled through kernel/workqueue.c's
 * functions, to which this file lends only the way to stop its timer
 * (stop_precise_timer(), try_to_grab_pending()'s @stop_timer).
 *
 * Locking letters are those of kernel/workqueue_impl.h.
 */
#include <linux/hrtimer.h>
#include <linux/workqueue_precise.h>

#include "workqueue_impl.h"
#include <trace/events/workqueue.h>

/*
 * Precise delayed work: the delay runs on an hrtimer in hard interrupt
 * mode, whose function queues the item as delayed_work_timer_fn() does
 * (interrupts are off there, on PREEMPT_RT too, and queueing takes only
 * raw locks).  Cancelling steals PENDING by stopping the timer
 * (stop_precise_timer()); a timer whose function runs has queued the
 * item, or is about to, and the item is then grabbed from its queue.
 */
static enum hrtimer_restart precise_work_timer_fn(struct hrtimer *timer)
{
	struct precise_work *pw = container_of(timer, struct precise_work, timer);

	trace_workqueue_precise_expire(&pw->work, hrtimer_get_expires(timer));
	__queue_work(pw->cpu, pw->wq, &pw->work);
	return HRTIMER_NORESTART;
}

/* Stop @work's hrtimer if it is pending; whether it was.  Interrupts off. */
static bool stop_precise_timer(struct work_struct *work)
{
	return hrtimer_try_to_cancel(&to_precise_work(work)->timer) == 1;
}

/**
 * precise_work_init_timer - set up the timer of a precise item
 * @pw: the item, whose work INIT_PRECISE_WORK() set up
 * @onstack: @pw is on the stack (debugobjects track it as such)
 *
 * Context: any.
 */
void precise_work_init_timer(struct precise_work *pw, bool onstack)
{
	if (onstack)
		hrtimer_init_on_stack(&pw->timer, CLOCK_MONOTONIC,
				      HRTIMER_MODE_REL_HARD);
	else
		hrtimer_init(&pw->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	pw->timer.function = precise_work_timer_fn;
	pw->cpu = WORK_CPU_UNBOUND;
}
EXPORT_SYMBOL_GPL(precise_work_init_timer);

/**
 * destroy_precise_work_on_stack - end the life of an on-stack precise item
 * @pw: the item, idle
 *
 * Context: any.
 */
void destroy_precise_work_on_stack(struct precise_work *pw)
{
	destroy_work_on_stack(&pw->work);
	destroy_hrtimer_on_stack(&pw->timer);
}
EXPORT_SYMBOL_GPL(destroy_precise_work_on_stack);

/* Queue @pw after @delay, with @slack_ns; the caller owns PENDING. */
static void __queue_precise_work(int cpu, struct workqueue_struct *wq,
				 struct precise_work *pw, ktime_t delay,
				 u64 slack_ns)
{
	WARN_ON_ONCE(!wq || pw->timer.function != precise_work_timer_fn ||
		     hrtimer_is_queued(&pw->timer) || !list_empty(&pw->work.entry));
	if (delay <= 0) {
		__queue_work(cpu, wq, &pw->work);
		return;
	}
	pw->wq = wq;
	pw->cpu = cpu;
	hrtimer_start_range_ns(&pw->timer, delay, slack_ns, HRTIMER_MODE_REL_HARD);
}

/**
 * queue_precise_work_on - queue an item on a CPU after a precise delay
 * @cpu: the CPU, or %WORK_CPU_UNBOUND
 * @wq: the workqueue
 * @pw: the item
 * @delay: time to wait; 0 or less queues at once
 * @slack_ns: how much later than @delay the item may be queued, so that
 *	the timer can expire with others (0: as close to @delay as the
 *	clock allows)
 *
 * The item is never queued before @delay has passed.
 *
 * Context: any.
 * Return: %false if @pw was already pending (or is disabled), %true if it
 * was queued.
 */
bool queue_precise_work_on(int cpu, struct workqueue_struct *wq,
			   struct precise_work *pw, ktime_t delay, u64 slack_ns)
{
	guard(irqsave)();
	if (!claim_work(&pw->work))
		return false;
	__queue_precise_work(cpu, wq, pw, delay, slack_ns);
	return true;
}
EXPORT_SYMBOL_GPL(queue_precise_work_on);

/**
 * mod_precise_work_on - (re)queue a precise item with a new delay
 * @cpu: the CPU, or %WORK_CPU_UNBOUND
 * @wq: the workqueue
 * @pw: the item
 * @delay: time to wait; 0 or less queues at once
 * @slack_ns: how much later than @delay the item may be queued
 *
 * Queues an idle item, or moves a pending one to the new delay.
 *
 * Context: any.
 * Return: %false if @pw was idle and is queued now (or is disabled),
 * %true if it was pending and got the new delay.
 */
bool mod_precise_work_on(int cpu, struct workqueue_struct *wq,
			 struct precise_work *pw, ktime_t delay, u64 slack_ns)
{
	unsigned long irq_flags;
	bool ret = grab_pending(&pw->work, stop_precise_timer, &irq_flags);

	if (!clear_pending_if_disabled(&pw->work))
		__queue_precise_work(cpu, wq, pw, delay, slack_ns);
	local_irq_restore(irq_flags);
	return ret;
}
EXPORT_SYMBOL_GPL(mod_precise_work_on);

/**
 * flush_precise_work - run a precise item now and wait for it
 * @pw: the item
 *
 * A pending timer is stopped and the item queued at once.
 *
 * Context: process context, may sleep.
 * Return: %true if it waited, %false if @pw was idle.
 */
bool flush_precise_work(struct precise_work *pw)
{
	/*
	 * A stopped timer leaves PENDING to us: nobody else can queue it.
	 * Stop and queue with interrupts off, as flush_delayed_work() does,
	 * so that no flusher of the item on this CPU runs in between and
	 * finds it neither pending on a timer nor queued.  A hard-interrupt
	 * timer's cancel only spins while its function runs elsewhere.
	 */
	scoped_guard(irqsave) {
		if (hrtimer_cancel(&pw->timer))
			__queue_work(pw->cpu, pw->wq, &pw->work);
	}
	return flush_work(&pw->work);
}
EXPORT_SYMBOL_GPL(flush_precise_work);

/**
 * cancel_precise_work - cancel a precise item's timer or queueing
 * @pw: the item
 *
 * Context: any.
 * Return: %true if @pw was pending.
 */
bool cancel_precise_work(struct precise_work *pw)
{
	return __cancel_work(&pw->work, stop_precise_timer, false);
}
EXPORT_SYMBOL_GPL(cancel_precise_work);

/**
 * cancel_precise_work_sync - cancel a precise item and wait for it
 * @pw: the item
 *
 * Context: process context, may sleep.
 * Return: %true if @pw was pending.
 */
bool cancel_precise_work_sync(struct precise_work *pw)
{
	return __cancel_work_sync(&pw->work, stop_precise_timer, false);
}
EXPORT_SYMBOL_GPL(cancel_precise_work_sync);

/**
 * disable_precise_work - disable_work() for a precise item
 * @pw: the item
 *
 * Context: any.
 * Return: %true if @pw was pending.
 */
bool disable_precise_work(struct precise_work *pw)
{
	return __cancel_work(&pw->work, stop_precise_timer, true);
}
EXPORT_SYMBOL_GPL(disable_precise_work);

/**
 * disable_precise_work_sync - disable_work_sync() for a precise item
 * @pw: the item
 *
 * Context: process context, may sleep.
 * Return: %true if @pw was pending.
 */
bool disable_precise_work_sync(struct precise_work *pw)
{
	return __cancel_work_sync(&pw->work, stop_precise_timer, true);
}
EXPORT_SYMBOL_GPL(disable_precise_work_sync);

/**
 * enable_precise_work - enable_work() for a precise item
 * @pw: the item
 *
 * Context: any.
 * Return: %true if @pw can be queued again.
 */
bool enable_precise_work(struct precise_work *pw)
{
	return enable_work(&pw->work);
}
EXPORT_SYMBOL_GPL(enable_precise_work);
