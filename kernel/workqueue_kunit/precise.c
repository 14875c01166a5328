// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_precise: precise delayed work, where the kernel has it
 * (WQ_HAS_PRECISE_WORK): items queued after a delay in nanoseconds, on
 * an hrtimer.  Elsewhere the suite is one skipped case.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <trace/events/workqueue.h>

#include "probes.h"

#ifdef WQ_HAS_PRECISE_WORK
/**
 * struct wqk_precise - a precise item that records its runs
 * @pw: the item
 * @queued: when it was queued (CLOCK_MONOTONIC)
 * @ran: when its last execution began
 * @runs: executions begun
 * @turn: where its last execution came in @seq's order
 * @seq: a counter shared by the items of a case, or %NULL
 * @in_softirq: the last execution was in softirq context
 * @policy: the executing task's policy (in task context)
 * @cpu: the CPU of the last execution
 * @done: completed at each execution
 */
struct wqk_precise {
	struct precise_work pw;
	ktime_t queued;
	ktime_t ran;
	atomic_t runs;
	int turn;
	atomic_t *seq;
	bool in_softirq;
	int policy;
	int cpu;
	struct completion done;
};

static void wqk_precise_fn(struct work_struct *work)
{
	struct wqk_precise *x = container_of(to_precise_work(work),
					     struct wqk_precise, pw);

	x->ran = ktime_get();
	x->in_softirq = in_serving_softirq();
	x->policy = in_task() ? current->policy : -1;
	x->cpu = raw_smp_processor_id();
	if (x->seq)
		x->turn = atomic_inc_return(x->seq);
	atomic_inc(&x->runs);
	complete(&x->done);
}

static void wqk_precise_cleanup(void *arg)
{
	struct wqk_precise *x = arg;

	cancel_precise_work_sync(&x->pw);
}

/* BH items get an INIT site of their own (see __wqk_probe_new()). */
static struct wqk_precise *__wqk_precise_new(struct kunit *test, bool bh)
{
	struct wqk_precise *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	if (bh)
		INIT_PRECISE_WORK(&x->pw, wqk_precise_fn);
	else
		INIT_PRECISE_WORK(&x->pw, wqk_precise_fn);
	init_completion(&x->done);
	wqk_defer(test, wqk_precise_cleanup, x);
	return x;
}

static struct wqk_precise *wqk_precise_new(struct kunit *test)
{
	return __wqk_precise_new(test, false);
}

static bool wqk_precise_queue(struct wqk_precise *x, int cpu,
			      struct workqueue_struct *wq, u64 delay_ns,
			      u64 slack_ns)
{
	x->queued = ktime_get();
	return queue_precise_work_on(cpu, wq, &x->pw, ns_to_ktime(delay_ns),
				     slack_ns);
}

/* Delays and slacks the never-early case tries: 100 us to 5 ms. */
static const u64 wqk_precise_delays_ns[] = {
	100 * NSEC_PER_USEC, 500 * NSEC_PER_USEC, NSEC_PER_MSEC, 5 * NSEC_PER_MSEC,
};

/*
 * A precise item runs no earlier than its delay, with or without slack,
 * on every kind of workqueue.
 */
static void precise_item_is_never_early(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	int i, slack;

	for (slack = 0; slack < 2; slack++) {
		for (i = 0; i < ARRAY_SIZE(wqk_precise_delays_ns); i++) {
			struct wqk_precise *x = wqk_precise_new(test);
			u64 delay = wqk_precise_delays_ns[i];

			KUNIT_EXPECT_TRUE(test, wqk_precise_queue(x, WORK_CPU_UNBOUND,
								  wq, delay,
								  slack * delay));
			WQK_WAIT(test, &x->done);
			KUNIT_EXPECT_GE_MSG(test, ktime_to_ns(ktime_sub(x->ran, x->queued)),
					    (s64)delay, "delay %llu ns, slack %d",
					    delay, slack);
			KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
		}
	}
}

/*
 * Expect @x's timer to be armed for @delay after a time between @t0 and
 * @t1, with @slack more allowed: its soft expiry is the deadline, its
 * hard expiry the deadline plus the slack.
 */
static void wqk_expect_timer_range(struct kunit *test, struct wqk_precise *x,
				   ktime_t t0, ktime_t t1, ktime_t delay,
				   u64 slack)
{
	ktime_t soft = hrtimer_get_softexpires(&x->pw.timer);
	ktime_t hard = hrtimer_get_expires(&x->pw.timer);

	KUNIT_EXPECT_TRUE(test, hrtimer_active(&x->pw.timer));
	KUNIT_EXPECT_GE(test, ktime_to_ns(soft), ktime_to_ns(ktime_add(t0, delay)));
	KUNIT_EXPECT_LE(test, ktime_to_ns(soft), ktime_to_ns(ktime_add(t1, delay)));
	KUNIT_EXPECT_EQ_MSG(test, ktime_to_ns(ktime_sub(hard, soft)), (s64)slack,
			    "the timer's range is not the slack granted");
}

/*
 * The slack is a range the caller grants, nothing more: the timer is
 * armed to expire no earlier than the deadline and no later than the
 * deadline plus the slack (soft and hard expiry), whether queued or
 * moved by mod_precise_work_on(), with the slack of the latest call.
 * How late an expiry may come beyond that is the timer's latency, which
 * the bench measures (delay.*); this checks what the item asks for.
 */
static void precise_timer_expires_within_the_slack_granted(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x = wqk_precise_new(test);
	const ktime_t hour = ns_to_ktime(3600ULL * NSEC_PER_SEC);
	const ktime_t minute = ns_to_ktime(60ULL * NSEC_PER_SEC);
	int cpu = wqk_last_online_cpu();
	ktime_t t0, t1;

	t0 = ktime_get();
	KUNIT_EXPECT_TRUE(test, queue_precise_work_on(cpu, wq, &x->pw, hour,
						      3 * NSEC_PER_MSEC));
	t1 = ktime_get();
	wqk_expect_timer_range(test, x, t0, t1, hour, 3 * NSEC_PER_MSEC);

	t0 = ktime_get();
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x->pw, minute, 0));
	t1 = ktime_get();
	wqk_expect_timer_range(test, x, t0, t1, minute, 0);

	t0 = ktime_get();
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x->pw, hour,
						    NSEC_PER_SEC));
	t1 = ktime_get();
	wqk_expect_timer_range(test, x, t0, t1, hour, NSEC_PER_SEC);
	KUNIT_EXPECT_TRUE(test, cancel_precise_work(&x->pw));
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 0);
}

/*
 * Two items queued in the other order run in the order of their
 * deadlines (5 ms and 100 ms: far enough apart for a loaded guest).
 */
static void precise_items_run_in_deadline_order(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	struct wqk_precise *late = wqk_precise_new(test);
	struct wqk_precise *early = wqk_precise_new(test);
	atomic_t seq = ATOMIC_INIT(0);

	late->seq = &seq;
	early->seq = &seq;
	wqk_precise_queue(late, WORK_CPU_UNBOUND, wq, 100 * NSEC_PER_MSEC, 0);
	wqk_precise_queue(early, WORK_CPU_UNBOUND, wq, 5 * NSEC_PER_MSEC, 0);
	WQK_WAIT(test, &late->done);
	WQK_WAIT(test, &early->done);
	KUNIT_EXPECT_EQ(test, early->turn, 1);
	KUNIT_EXPECT_EQ(test, late->turn, 2);
	KUNIT_EXPECT_LT(test, ktime_compare(early->ran, late->ran), 0);
}

static void wqk_dwork_nop(struct work_struct *work)
{
}

/*
 * The same calls on a delayed item and on a precise one, with delays too
 * long to expire meanwhile, return the same: queue, queue again, mod,
 * cancel, cancel again, mod of an idle item, cancel_sync, flush of an
 * idle item, disable, queue while disabled, enable, queue and flush.
 */
static void precise_calls_return_what_delayed_work_returns(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x = wqk_precise_new(test);
	struct delayed_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	const unsigned long far = 3600 * HZ;
	const ktime_t pfar = ns_to_ktime(3600ULL * NSEC_PER_SEC);
	bool d[13], p[13];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dw);
	INIT_DELAYED_WORK(dw, wqk_dwork_nop);
	d[0] = queue_delayed_work(wq, dw, far);
	p[0] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[1] = queue_delayed_work(wq, dw, far);
	p[1] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[2] = mod_delayed_work(wq, dw, far);
	p[2] = mod_precise_work(wq, &x->pw, pfar, 0);
	d[3] = cancel_delayed_work(dw);
	p[3] = cancel_precise_work(&x->pw);
	d[4] = cancel_delayed_work(dw);
	p[4] = cancel_precise_work(&x->pw);
	d[5] = mod_delayed_work(wq, dw, far);
	p[5] = mod_precise_work(wq, &x->pw, pfar, 0);
	d[6] = cancel_delayed_work_sync(dw);
	p[6] = cancel_precise_work_sync(&x->pw);
	d[7] = flush_delayed_work(dw);
	p[7] = flush_precise_work(&x->pw);
	d[8] = queue_delayed_work(wq, dw, far) && disable_delayed_work(dw);
	p[8] = queue_precise_work(wq, &x->pw, pfar, 0) && disable_precise_work(&x->pw);
	d[9] = queue_delayed_work(wq, dw, far);
	p[9] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[10] = enable_delayed_work(dw);
	p[10] = enable_precise_work(&x->pw);
	/*
	 * A flush queues the item at once and returns true for having waited
	 * for it, unless its worker ran it first: at nice 0 on a preemptible
	 * uniprocessor the worker it wakes preempts us before flush_work()
	 * looks.  At SCHED_FIFO the CPU's workers wait for our sleep.
	 */
	sched_set_fifo_low(current);
	d[11] = queue_delayed_work(wq, dw, far);
	p[11] = queue_precise_work(wq, &x->pw, pfar, 0);
	d[12] = flush_delayed_work(dw);
	p[12] = flush_precise_work(&x->pw);
	sched_set_normal(current, 0);
	for (i = 0; i < ARRAY_SIZE(d); i++)
		KUNIT_EXPECT_EQ_MSG(test, p[i], d[i], "call %d", i);
	/* the flush ran it at once, and only then */
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
	KUNIT_EXPECT_FALSE(test, precise_work_pending(&x->pw));
	cancel_delayed_work_sync(dw);
}

/* Calls of the delayed and precise families, for a side-by-side run. */
enum wqk_dp_call {
	WQK_DP_QUEUE_ON, WQK_DP_MOD_ON, WQK_DP_PENDING, WQK_DP_DISABLE,
	WQK_DP_DISABLE_SYNC, WQK_DP_ENABLE, WQK_DP_CANCEL_SYNC,
};

/*
 * @call on @cpu of @wq, for the precise item @pw, or for the delayed
 * item @dw if @pw is %NULL, with a delay too long to expire meanwhile.
 */
static bool wqk_dp_call(enum wqk_dp_call call, struct workqueue_struct *wq,
			int cpu, struct delayed_work *dw, struct precise_work *pw)
{
	const ktime_t far = ns_to_ktime(3600ULL * NSEC_PER_SEC);

	switch (call) {
	case WQK_DP_QUEUE_ON:
		return pw ? queue_precise_work_on(cpu, wq, pw, far, 0) :
			    queue_delayed_work_on(cpu, wq, dw, 3600 * HZ);
	case WQK_DP_MOD_ON:
		return pw ? mod_precise_work_on(cpu, wq, pw, far, 0) :
			    mod_delayed_work_on(cpu, wq, dw, 3600 * HZ);
	case WQK_DP_PENDING:
		return pw ? precise_work_pending(pw) : delayed_work_pending(dw);
	case WQK_DP_DISABLE:
		return pw ? disable_precise_work(pw) : disable_delayed_work(dw);
	case WQK_DP_DISABLE_SYNC:
		return pw ? disable_precise_work_sync(pw) :
			    disable_delayed_work_sync(dw);
	case WQK_DP_ENABLE:
		return pw ? enable_precise_work(pw) : enable_delayed_work(dw);
	default:
		return pw ? cancel_precise_work_sync(pw) : cancel_delayed_work_sync(dw);
	}
}

/*
 * The rest of the family returns what delayed work returns too: the _on
 * calls with a CPU, disable nested twice and enabled twice, queue and mod
 * while disabled, disable_..._sync, and _pending() after each; and the
 * _on calls run the item on their CPU.
 */
static void precise_disable_and_on_calls_return_what_delayed_work_returns(struct kunit *test)
{
	static const enum wqk_dp_call calls[] = {
		WQK_DP_QUEUE_ON, WQK_DP_PENDING, WQK_DP_DISABLE, WQK_DP_DISABLE,
		WQK_DP_PENDING, WQK_DP_MOD_ON, WQK_DP_PENDING, WQK_DP_QUEUE_ON,
		WQK_DP_ENABLE, WQK_DP_QUEUE_ON, WQK_DP_PENDING, WQK_DP_ENABLE,
		WQK_DP_QUEUE_ON, WQK_DP_PENDING, WQK_DP_DISABLE_SYNC,
		WQK_DP_PENDING, WQK_DP_ENABLE, WQK_DP_MOD_ON, WQK_DP_PENDING,
		WQK_DP_MOD_ON, WQK_DP_CANCEL_SYNC, WQK_DP_PENDING,
	};
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x = wqk_precise_new(test);
	struct delayed_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	int i, a, b;

	KUNIT_ASSERT_NOT_NULL(test, dw);
	INIT_DELAYED_WORK(dw, wqk_dwork_nop);
	wqk_two_cpus(&a, &b);
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		bool d = wqk_dp_call(calls[i], wq, a, dw, NULL);

		KUNIT_EXPECT_EQ_MSG(test, wqk_dp_call(calls[i], wq, a, NULL, &x->pw), d,
				    "call %d", i);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 0);
	KUNIT_EXPECT_TRUE(test, queue_precise_work_on(a, wq, &x->pw, 100 * NSEC_PER_USEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_EQ(test, x->cpu, a);
	/*
	 * Until its function has returned, the item is still running on @a,
	 * and queued again it would run there (no reentrance), whatever CPU
	 * the call names: let it end first.
	 */
	flush_precise_work(&x->pw);
	KUNIT_EXPECT_FALSE(test, mod_precise_work_on(b, wq, &x->pw, 100 * NSEC_PER_USEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_EQ(test, x->cpu, b);
}

/*
 * mod_precise_work_on() moves a pending item's deadline either way: from
 * an hour to 1 ms (queued no earlier than 1 ms after the mod), and from
 * 10 ms to an hour (nothing queued when the 10 ms are up; the item waits
 * behind a blocker should the 10 ms run out before the mod).
 */
static void mod_precise_work_moves_a_pending_deadline_both_ways(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_precise *x = wqk_precise_new(test);
	struct wqk_precise *y = wqk_precise_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	const ktime_t hour = ns_to_ktime(3600ULL * NSEC_PER_SEC);
	int cpu = wqk_last_online_cpu();

	wqk_precise_queue(x, cpu, wq, ktime_to_ns(hour), 0);
	x->queued = ktime_get();
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x->pw, ms_to_ktime(1), 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(x->ran, x->queued)),
			(s64)NSEC_PER_MSEC);

	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	wqk_precise_queue(y, cpu, wq, 10 * NSEC_PER_MSEC, 0);
	KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &y->pw, hour, 0));
	msleep(WQK_SETTLE_MS);
	wqk_open(blocker);
	flush_workqueue(wq);
	KUNIT_EXPECT_TRUE(test, hrtimer_active(&y->pw.timer));
	KUNIT_EXPECT_TRUE(test, cancel_precise_work(&y->pw));
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&y->runs), 0);
}

/* What workqueue_precise_expire saw of the items of a case. */
struct wqk_expiries {
	struct work_struct *work[4];
	atomic_t nr[4];
	ktime_t expires;	/* of the first item */
	ktime_t now;		/* when its event came */
};

static void wqk_expire_probe(void *data, struct work_struct *work, ktime_t expires)
{
	struct wqk_expiries *e = data;
	int i;

	for (i = 0; i < ARRAY_SIZE(e->work); i++) {
		if (work != e->work[i])
			continue;
		if (!i) {
			e->expires = expires;
			e->now = ktime_get();
		}
		atomic_inc(&e->nr[i]);
	}
}

static void wqk_expire_probe_off(void *arg)
{
	unregister_trace_workqueue_precise_expire(wqk_expire_probe, arg);
	tracepoint_synchronize_unregister();
}

/*
 * workqueue:workqueue_precise_expire records each expiry with the time it
 * was due, no earlier than queueing plus the delay, and never after its
 * own time: once for an item queued with 1 ms; not for a delay of 0, nor
 * for a timer cancelled, nor for one that flush_precise_work() stopped.
 */
static void precise_expiry_is_traced_with_its_due_time(struct kunit *test)
{
	struct wqk_expiries *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 0);
	struct wqk_precise *x[4];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < ARRAY_SIZE(x); i++) {
		x[i] = wqk_precise_new(test);
		e->work[i] = &x[i]->pw.work;
	}
	KUNIT_ASSERT_EQ(test, register_trace_workqueue_precise_expire(wqk_expire_probe, e), 0);
	wqk_defer(test, wqk_expire_probe_off, e);
	wqk_precise_queue(x[0], WORK_CPU_UNBOUND, wq, NSEC_PER_MSEC, 0);
	wqk_precise_queue(x[1], WORK_CPU_UNBOUND, wq, 0, 0);
	wqk_precise_queue(x[2], WORK_CPU_UNBOUND, wq, 3600ULL * NSEC_PER_SEC, 0);
	wqk_precise_queue(x[3], WORK_CPU_UNBOUND, wq, 3600ULL * NSEC_PER_SEC, 0);
	KUNIT_EXPECT_TRUE(test, cancel_precise_work(&x[2]->pw));
	/* it may run before the flush looks, and return false (see above) */
	flush_precise_work(&x[3]->pw);
	WQK_WAIT(test, &x[0]->done);
	WQK_WAIT(test, &x[1]->done);
	WQK_WAIT(test, &x[3]->done);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->nr[0]), 1);
	for (i = 1; i < ARRAY_SIZE(x); i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&e->nr[i]), 0, "item %d", i);
	KUNIT_EXPECT_GE(test, ktime_to_ns(e->expires),
			ktime_to_ns(x[0]->queued) + (s64)NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, ktime_to_ns(e->now), ktime_to_ns(e->expires));
}

/* The calls whose kernel-doc says "Context: any", and where to make them. */
struct wqk_any_context {
	struct hrtimer timer;
	struct workqueue_struct *wq;
	struct wqk_precise *x[3];
	bool ret[4];
	struct completion done;
};

/*
 * Queue x[0] for 100 us; queue x[1] for an hour and move it to 100 us;
 * queue x[2] for an hour and cancel it; disable the idle x[2], enable it.
 */
static void wqk_any_context_calls(struct wqk_any_context *c)
{
	const ktime_t soon = ns_to_ktime(100 * NSEC_PER_USEC);
	const ktime_t hour = ns_to_ktime(3600ULL * NSEC_PER_SEC);

	c->ret[0] = queue_precise_work(c->wq, &c->x[0]->pw, soon, 0);
	c->ret[1] = queue_precise_work(c->wq, &c->x[1]->pw, hour, 0) &&
		    mod_precise_work(c->wq, &c->x[1]->pw, soon, 0);
	c->ret[2] = queue_precise_work(c->wq, &c->x[2]->pw, hour, 0) &&
		    cancel_precise_work(&c->x[2]->pw);
	c->ret[3] = !disable_precise_work(&c->x[2]->pw) &&
		    enable_precise_work(&c->x[2]->pw);
}

static enum hrtimer_restart wqk_any_context_timer_fn(struct hrtimer *timer)
{
	struct wqk_any_context *c = container_of(timer, struct wqk_any_context,
						 timer);

	wqk_any_context_calls(c);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static void wqk_any_context_cleanup(void *arg)
{
	hrtimer_cancel(&((struct wqk_any_context *)arg)->timer);
}

/*
 * "Context: any": queueing, moving, cancelling, disabling and enabling
 * precise items from a hard-interrupt hrtimer callback, and under a raw
 * spinlock with interrupts off, return what they return in process
 * context, and the items run once each (x[2] never); lockdep and the
 * atomic-sleep checks of the debug configurations watch the calls.
 */
static void precise_calls_of_any_context_work_in_hard_irq_and_under_a_raw_lock(struct kunit *test)
{
	static DEFINE_RAW_SPINLOCK(lock);
	unsigned long flags;
	int i, k;

	for (i = 0; i < 2; i++) {
		struct wqk_any_context *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, c);
		c->wq = wqk_wq_new(test, 0, 0);
		for (k = 0; k < ARRAY_SIZE(c->x); k++)
			c->x[k] = wqk_precise_new(test);
		init_completion(&c->done);
		hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		c->timer.function = wqk_any_context_timer_fn;
		wqk_defer(test, wqk_any_context_cleanup, c);
		if (i) {
			raw_spin_lock_irqsave(&lock, flags);
			wqk_any_context_calls(c);
			raw_spin_unlock_irqrestore(&lock, flags);
		} else {
			hrtimer_start(&c->timer, 0, HRTIMER_MODE_REL_HARD);
			WQK_WAIT(test, &c->done);
		}
		WQK_WAIT(test, &c->x[0]->done);
		WQK_WAIT(test, &c->x[1]->done);
		for (k = 0; k < ARRAY_SIZE(c->ret); k++)
			KUNIT_EXPECT_TRUE_MSG(test, c->ret[k], "%s: call %d",
					      i ? "raw lock" : "hard irq", k);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->x[2]->runs), 0);
	}
}

/*
 * An item on the stack (INIT_PRECISE_WORK_ONSTACK()) runs, and is
 * destroyed idle (destroy_precise_work_on_stack()): debugobjects, in the
 * debug configurations, report any misuse in the log.
 */
static void onstack_precise_item_runs_and_is_destroyed(struct kunit *test)
{
	struct wqk_precise x = { };

	init_completion(&x.done);
	INIT_PRECISE_WORK_ONSTACK(&x.pw, wqk_precise_fn);
	x.queued = ktime_get();
	KUNIT_EXPECT_TRUE(test, queue_precise_work(system_wq, &x.pw,
						   100 * NSEC_PER_USEC, 0));
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&x.done, WQK_TIMEOUT), 0UL);
	/* idle before it goes, whatever happened */
	cancel_precise_work_sync(&x.pw);
	destroy_precise_work_on_stack(&x.pw);
	KUNIT_EXPECT_EQ(test, atomic_read(&x.runs), 1);
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(x.ran, x.queued)),
			(s64)(100 * NSEC_PER_USEC));
}

/*
 * A zero or negative delay queues at once, no timer armed: queueing with
 * 0, -1 ns and KTIME_MIN, and moving a pending item's delay to 0.
 */
static void precise_zero_or_negative_delay_queues_at_once(struct kunit *test)
{
	static const s64 delays[] = { 0, -1, KTIME_MIN };
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	struct wqk_precise *x[ARRAY_SIZE(delays) + 1];
	int cpu = wqk_last_online_cpu(), i, n = ARRAY_SIZE(delays);

	/* max_active 1: the items wait behind the blocker, seen queued */
	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	for (i = 0; i < ARRAY_SIZE(x); i++) {
		x[i] = wqk_precise_new(test);
		if (i < n) {
			KUNIT_EXPECT_TRUE(test, queue_precise_work_on(cpu, wq, &x[i]->pw,
								      delays[i], 0));
		} else {
			wqk_precise_queue(x[i], cpu, wq, 3600ULL * NSEC_PER_SEC, 0);
			KUNIT_EXPECT_TRUE(test, mod_precise_work_on(cpu, wq, &x[i]->pw, 0, 0));
		}
		KUNIT_EXPECT_FALSE_MSG(test, hrtimer_active(&x[i]->pw.timer), "item %d", i);
		KUNIT_EXPECT_TRUE_MSG(test, work_busy(&x[i]->pw.work) & WORK_BUSY_PENDING,
				      "item %d", i);
	}
	wqk_open(blocker);
	for (i = 0; i < ARRAY_SIZE(x); i++) {
		WQK_WAIT(test, &x[i]->done);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&x[i]->runs), 1, "item %d", i);
	}
}

/* On a BH workqueue the item runs in softirq context. */
static void precise_item_on_bh_workqueue_runs_in_softirq(struct kunit *test)
{
	struct wqk_precise *x = __wqk_precise_new(test, true);

	KUNIT_EXPECT_TRUE(test, wqk_precise_queue(x, WORK_CPU_UNBOUND,
						  system_bh_wq, NSEC_PER_MSEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_TRUE(test, x->in_softirq);
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(x->ran, x->queued)),
			(s64)NSEC_PER_MSEC);
}

#ifdef WQ_HAS_RT_CLASS
/* On an RT workqueue the item runs on a SCHED_RR worker, as the class. */
static void precise_item_on_rt_workqueue_runs_sched_rr(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_RT, 0);
	struct wqk_precise *x = wqk_precise_new(test);

	KUNIT_EXPECT_TRUE(test, wqk_precise_queue(x, WORK_CPU_UNBOUND, wq,
						  NSEC_PER_MSEC, 0));
	WQK_WAIT(test, &x->done);
	KUNIT_EXPECT_EQ(test, x->policy, SCHED_RR);
}
#endif

#ifdef WQ_HAS_RT_CLASS
/* A SCHED_FIFO 50 spinner that arms a precise item on its own CPU. */
struct wqk_precise_hog {
	struct wqk_precise *x;
	struct workqueue_struct *wq;
	bool told;		/* the item ran before the spinner's time was up */
};

static void wqk_precise_hog_fn(struct wqk_thread *th)
{
	struct wqk_precise_hog *h = th->data;
	unsigned long until = jiffies + msecs_to_jiffies(WQK_RT_HOG_MS);

	if (WARN_ON(wqk_set_prio(SCHED_FIFO, 50)))
		return;
	wqk_precise_queue(h->x, WORK_CPU_UNBOUND, h->wq, NSEC_PER_MSEC, 0);
	while (!completion_done(&h->x->done) && time_before(jiffies, until))
		cpu_relax();
	h->told = completion_done(&h->x->done);
}

/*
 * The timer waits in hard interrupt mode: armed by a SCHED_FIFO 50 task
 * that then spins on its CPU, it still queues the item (on an unbound RT
 * workqueue kept off that CPU), which runs while the task spins; a timer
 * expiring in softirq would wait for the spinner on PREEMPT_RT.
 */
static void precise_expiry_is_hard_irq_under_an_rt_hog(struct kunit *test)
{
	struct wqk_precise_hog *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	int cpu = wqk_last_online_cpu();
	struct wqk_thread *th;

	KUNIT_ASSERT_NOT_NULL(test, h);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a CPU besides the spinner's");
	h->x = wqk_precise_new(test);
	h->wq = wqk_wq_new(test, WQ_RT | WQ_UNBOUND, 0);
	cpumask_andnot(attrs->cpumask, cpu_online_mask, cpumask_of(cpu));
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(h->wq, attrs), 0);
	th = wqk_thread_run(test, wqk_precise_hog_fn, h, 0, cpu);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_TRUE(test, h->x->pw.timer.is_hard);
	KUNIT_EXPECT_TRUE_MSG(test, h->told, "the item waited for the spinner");
	KUNIT_EXPECT_EQ(test, atomic_read(&h->x->runs), 1);
}
#endif

struct wqk_precise_arm {
	struct wqk_precise *x;
	struct workqueue_struct *wq;
	int cpu;
};

/* Arm the timer from the CPU this thread runs on. */
static void wqk_precise_arm_here(struct wqk_thread *th)
{
	struct wqk_precise_arm *a = th->data;

	/* long enough for the CPU to go down first */
	wqk_precise_queue(a->x, a->cpu, a->wq, NSEC_PER_SEC, 0);
}

/*
 * An item whose timer was armed on a CPU that goes offline before it
 * expires still runs, once.
 */
static void precise_item_survives_its_cpu_going_offline(struct kunit *test)
{
	int cpu = wqk_hotplug_victim(test);
	struct wqk_precise_arm *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct wqk_thread *th;

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->x = wqk_precise_new(test);
	a->wq = wqk_wq_new(test, 0, 0);
	a->cpu = cpu;
	th = wqk_thread_run(test, wqk_precise_arm_here, a, 0, cpu);
	WQK_WAIT(test, &th->done);
	KUNIT_EXPECT_TRUE(test, precise_work_pending(&a->x->pw));
	wqk_take_cpu_down(test, cpu);
	WQK_WAIT(test, &a->x->done);
	msleep(WQK_SETTLE_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->x->runs), 1);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
}

/*
 * A workqueue destroyed right after its precise item's timer fired runs
 * the item first, as it does any queued item.
 */
static void destroy_runs_a_precise_item_whose_timer_fired(struct kunit *test)
{
	struct workqueue_struct *wq = alloc_workqueue("wqk_precise", 0, 1);
	struct wqk_precise *x = wqk_precise_new(test);
	struct wqk_probe *blocker = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu();

	KUNIT_ASSERT_NOT_NULL(test, wq);
	queue_work_on(cpu, wq, &blocker->work);
	WQK_WAIT(test, &blocker->started);
	wqk_precise_queue(x, cpu, wq, 200 * NSEC_PER_USEC, 0);
	/* the timer fires; the item waits behind the blocker (max_active 1) */
	while (hrtimer_active(&x->pw.timer))
		usleep_range(100, 200);
	wqk_open(blocker);
	destroy_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->runs), 1);
}

static struct kunit_case wqk_precise_cases[] = {
	KUNIT_CASE_PARAM(precise_item_is_never_early, wqk_kind_gen_params),
	KUNIT_CASE(precise_items_run_in_deadline_order),
	KUNIT_CASE(precise_timer_expires_within_the_slack_granted),
	KUNIT_CASE(precise_calls_return_what_delayed_work_returns),
	KUNIT_CASE(precise_disable_and_on_calls_return_what_delayed_work_returns),
	KUNIT_CASE(mod_precise_work_moves_a_pending_deadline_both_ways),
	KUNIT_CASE(precise_expiry_is_traced_with_its_due_time),
	KUNIT_CASE(onstack_precise_item_runs_and_is_destroyed),
	KUNIT_CASE(precise_calls_of_any_context_work_in_hard_irq_and_under_a_raw_lock),
	KUNIT_CASE(precise_zero_or_negative_delay_queues_at_once),
	KUNIT_CASE(precise_item_on_bh_workqueue_runs_in_softirq),
#ifdef WQ_HAS_RT_CLASS
	KUNIT_CASE(precise_item_on_rt_workqueue_runs_sched_rr),
	KUNIT_CASE(precise_expiry_is_hard_irq_under_an_rt_hog),
#endif
	KUNIT_CASE(precise_item_survives_its_cpu_going_offline),
	KUNIT_CASE(destroy_runs_a_precise_item_whose_timer_fired),
	{}
};
#else
WQK_ABSENT_CASE(precise_work_is_absent, "needs WQ_HAS_PRECISE_WORK (no precise_work in this tree)")

static struct kunit_case wqk_precise_cases[] = {
	KUNIT_CASE(precise_work_is_absent),
	{}
};
#endif

static struct kunit_suite wqk_precise_suite = {
	.name = "workqueue_precise",
	.test_cases = wqk_precise_cases,
};

kunit_test_suites(&wqk_precise_suite);
