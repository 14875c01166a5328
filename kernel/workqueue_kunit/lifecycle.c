// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_lifecycle: creating and destroying workqueues, and their
 * error paths: flags accepted, max_active clamped and long names truncated
 * with 6.12's warnings, a sysfs name clash, destroying right after a
 * flush, the warnings of flush_scheduled_work() and of queue_rcu_work()
 * on a disabled item, items refused by a draining workqueue, and the
 * reports of slow drains and of CPU hogs.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kmsg_dump.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "probes.h"

/*
 * A WQ_SYSFS workqueue whose directory cannot be made (the name is taken)
 * is not created: the caller gets NULL and the kernel goes on.  sysfs
 * dumps the stack of a duplicate name; the log check is told to expect it.
 */
static void sysfs_name_clash_fails_the_second_workqueue(struct kunit *test)
{
	struct workqueue_struct *wq, *dup;
	struct wqk_probe *p;
	char name[16];

	snprintf(name, sizeof(name), "wqk_s%04x", get_random_u32() & 0xffff);
	wq = alloc_workqueue("%s", WQ_SYSFS | WQ_UNBOUND, 0, name);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	pr_info(WQK_EXPECTED_DUMP_BEGIN);
	dup = alloc_workqueue("%s", WQ_SYSFS | WQ_UNBOUND, 0, name);
	pr_info(WQK_EXPECTED_DUMP_END);
	KUNIT_EXPECT_NULL(test, dup);
	if (dup)
		destroy_workqueue(dup);
	p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

/*
 * Callers may create workqueues and apply attributes with the CPU hotplug
 * lock held (padata does, from pcrypt's init): neither takes it again.
 */
static void attrs_apply_with_the_cpu_hotplug_lock_held(struct kunit *test)
{
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	struct workqueue_struct *wq;
	int ret;

	attrs->nice = 3;
	cpus_read_lock();
	wq = alloc_workqueue("wqk_hp%04x", WQ_UNBOUND, 0,
			     get_random_u32() & 0xffff);
	ret = wq ? apply_workqueue_attrs(wq, attrs) : -ENOMEM;
	cpus_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, wqk_run_one(test, wq, WORK_CPU_UNBOUND)->nice, 3);
}

static void wqk_alloc_clamped(void *arg)
{
	const char *name = arg;
	struct workqueue_struct *wq = alloc_workqueue("%s", 0,
						      WQ_MAX_ACTIVE + 1, name);

	if (wq)
		destroy_workqueue(wq);
}

/* An out-of-range max_active is clamped with 6.12's warning, word for word. */
static void max_active_clamp_warns_in_6_12_words(struct kunit *test)
{
	char name[WQK_NAME_LEN], want[128];
	struct wqk_log *log;

	snprintf(name, sizeof(name), "wqk_clamp_%x", get_random_u32() & 0xffff);
	log = wqk_log_of(test, wqk_alloc_clamped, name);
	snprintf(want, sizeof(want),
		 "workqueue: max_active %d requested for %s is out of range, clamping between 1 and %d",
		 WQ_MAX_ACTIVE + 1, name, WQ_MAX_ACTIVE);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "workqueue: max_active"),
			   want);
}

/* 6.12 takes WQ_UNBOUND | WQ_PERCPU as it is: WQ_PERCPU is not checked. */
static void unbound_percpu_flags_are_accepted(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND | WQ_PERCPU, 0);
	struct wqk_probe *p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);

	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

/* Whether the log holds a line containing @text (said before the case). */
static bool wqk_log_seen(const char *text)
{
	struct kmsg_dump_iter iter = { };
	char *buf = kmalloc(WQK_LOG_LEN, GFP_KERNEL);
	bool seen = false;
	size_t len;

	if (!buf)
		return false;
	kmsg_dump_rewind(&iter);
	while (!seen && kmsg_dump_get_line(&iter, false, buf, WQK_LOG_LEN, &len)) {
		buf[min(len, WQK_LOG_LEN - 1)] = '\0';
		seen = strstr(buf, text);
	}
	kfree(buf);
	return seen;
}

/* The first line that starts with @prefix and contains @text, or "". */
static const char *wqk_log_line_with(struct kunit *test, struct wqk_log *log,
				     const char *prefix, const char *text)
{
	int i;

	for (i = 0; i < log->nr; i++)
		if (str_has_prefix(log->line[i], prefix) &&
		    strstr(log->line[i], text))
			return log->line[i];
	KUNIT_FAIL(test, "no line starting with \"%s\" and containing \"%s\" in %d lines",
		   prefix, text, log->nr);
	return "";
}

/* 6.12's WQ_NAME_LEN: the longest name is one less. */
#define WQK_WQ_NAME_LEN		32

static void wqk_alloc_named(void *arg)
{
	struct workqueue_struct *wq = alloc_workqueue("%s", 0, 0, (char *)arg);

	if (wq)
		destroy_workqueue(wq);
}

/* A name too long is cut, and 6.12's warning (once a boot) says to what. */
static void long_name_is_truncated_with_6_12_warning(struct kunit *test)
{
	char name[WQK_WQ_NAME_LEN + 16], want[128];
	struct wqk_log *log;

	if (wqk_log_seen("workqueue: name exceeds WQ_NAME_LEN"))
		kunit_skip(test, "the warning was printed before (it is printed once)");
	snprintf(name, sizeof(name), "wqk_trunc_%04x_0123456789abcdefghijklmn",
		 get_random_u32() & 0xffff);
	KUNIT_ASSERT_GE(test, strlen(name), WQK_WQ_NAME_LEN);
	log = wqk_log_of(test, wqk_alloc_named, name);
	snprintf(want, sizeof(want),
		 "workqueue: name exceeds WQ_NAME_LEN. Truncating to: %.*s",
		 WQK_WQ_NAME_LEN - 1, name);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "workqueue: name exceeds"),
			   want);
}

/*
 * flush_scheduled_work() is meant to draw a compile-time warning; this
 * case calls it on purpose.
 */
__diag_push();
__diag_ignore_all("-Wattribute-warning",
		  "the case checks the run-time warning of flush_scheduled_work()");
static void wqk_flush_scheduled(void *unused)
{
	flush_scheduled_work();
}

__diag_pop();

/*
 * flush_scheduled_work() flushes the system workqueue and, as on 6.12,
 * says at run time that this will be prohibited, with a stack dump that
 * names the caller.
 */
static void flush_scheduled_work_warns_with_a_stack_dump(struct kunit *test)
{
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	struct wqk_log *log;

	KUNIT_EXPECT_TRUE(test, schedule_work(&p->work));
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	log = wqk_log_of(test, wqk_flush_scheduled, NULL);
	pr_info(WQK_EXPECTED_WARN_END);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "WARNING: Flushing"),
			   "WARNING: Flushing system-wide workqueues will be prohibited in near future.");
	wqk_log_line(test, log, "Call Trace:");
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 1);
}

struct wqk_rcu_call {
	struct workqueue_struct *wq;
	struct wqk_probe *p;
	bool ret;
};

static void wqk_queue_rcu(void *arg)
{
	struct wqk_rcu_call *c = arg;

	c->ret = queue_rcu_work(c->wq, &c->p->rwork);
}

/*
 * An rcu_work cannot be disabled: queue_rcu_work() on one whose inner item
 * a caller disabled refuses it and, as 6.12 does, warns (once a boot).
 */
static void queue_rcu_work_warns_on_a_disabled_item(struct kunit *test)
{
	struct wqk_rcu_call c = {
		.wq = wqk_wq_new(test, 0, 0),
		.p = wqk_probe_new(test, NULL),
	};
	struct wqk_log *log;

	KUNIT_ASSERT_FALSE(test, disable_work(&c.p->rwork.work));
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	log = wqk_log_of(test, wqk_queue_rcu, &c);
	pr_info(WQK_EXPECTED_WARN_END);
	KUNIT_EXPECT_FALSE(test, c.ret);
	KUNIT_EXPECT_FALSE(test, work_pending(&c.p->rwork.work));
	wqk_log_line_with(test, log, "WARNING: CPU: ", " queue_rcu_work+");
	KUNIT_EXPECT_TRUE(test, enable_work(&c.p->rwork.work));
	rcu_barrier();
	flush_workqueue(c.wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.p->runs), 0);
}

/* The item refused by a draining workqueue was never queued: release it. */
static void wqk_unstick_pending(void *arg)
{
	struct work_struct *work = arg;

	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
}

/*
 * A draining workqueue refuses an item from outside (6.12: WARN_ON_ONCE),
 * and the item keeps PENDING, as on 6.12: it is not queued, and cannot be
 * queued again until its owner sorts it out; it is not silently made idle.
 */
static void refused_item_stays_pending_on_a_draining_workqueue(struct kunit *test)
{
	struct wqk_probe *blocker, *p;
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);
	struct wqk_waiter *w;
	bool queued;

	p = wqk_probe_new(test, NULL);
	wqk_defer(test, wqk_unstick_pending, &p->work);
	w = wqk_waiter_start(test, WQK_DRAIN, wq, NULL);
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	queued = queue_work(wq, &p->work);
	pr_info(WQK_EXPECTED_WARN_END);
	KUNIT_EXPECT_TRUE(test, queued);
	KUNIT_EXPECT_TRUE(test, work_pending(&p->work));
	KUNIT_EXPECT_FALSE(test, queue_work(wq, &p->work));
	wqk_open(blocker);
	WQK_WAIT(test, &w->th->done);
	KUNIT_EXPECT_TRUE(test, work_pending(&p->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), 0);
}

/* More items than the default max_active, queued on one CPU's BH pool. */
#define WQK_BH_BURST		(WQ_DFL_ACTIVE + 8)

struct wqk_bh_item {
	struct work_struct work;
	atomic_t *runs;
};

struct wqk_bh_burst {
	struct workqueue_struct *wq;
	struct wqk_bh_item items[WQK_BH_BURST];
	atomic_t runs;
	int max_active;		/* for wqk_bh_set_max_active() */
};

static void wqk_bh_burst_fn(struct work_struct *work)
{
	atomic_inc(container_of(work, struct wqk_bh_item, work)->runs);
}

/* Queue the burst with BHs off, so that nothing runs yet, and dump it. */
static void wqk_bh_burst_show(void *arg)
{
	struct wqk_bh_burst *b = arg;
	int i;

	local_bh_disable();
	for (i = 0; i < WQK_BH_BURST; i++)
		queue_work(b->wq, &b->items[i].work);
	show_one_workqueue(b->wq);
	local_bh_enable();
}

/* How many items of the dumped burst were active (-1 if not shown). */
static int wqk_bh_burst_active(struct kunit *test, struct wqk_bh_burst *b)
{
	struct wqk_log *log = wqk_log_of(test, wqk_bh_burst_show, b);
	const char *line = wqk_log_line(test, log, "  pwq ");
	const char *active = strstr(line, " active=");
	int n = -1;

	KUNIT_EXPECT_NOT_NULL_MSG(test, active, "%s", line);
	if (active && sscanf(active, " active=%d", &n) != 1)
		n = -1;
	flush_workqueue(b->wq);
	return n;
}

static void wqk_bh_set_max_active(void *arg)
{
	struct wqk_bh_burst *b = arg;

	workqueue_set_max_active(b->wq, b->max_active);
}

/*
 * A BH workqueue has no max_active of its own (6.12 gives it INT_MAX):
 * every item of a burst larger than the default limit is active at once.
 * workqueue_set_max_active() on it warns and changes nothing.
 */
static void bh_workqueue_has_no_max_active_limit(struct kunit *test)
{
	struct wqk_bh_burst *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct wqk_log *log;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->wq = wqk_wq_new(test, WQ_BH, 0);
	for (i = 0; i < WQK_BH_BURST; i++) {
		INIT_WORK(&b->items[i].work, wqk_bh_burst_fn);
		b->items[i].runs = &b->runs;
	}
	KUNIT_EXPECT_EQ(test, wqk_bh_burst_active(test, b), WQK_BH_BURST);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->runs), WQK_BH_BURST);

	b->max_active = 1;
	pr_info(WQK_EXPECTED_WARN_BEGIN);
	log = wqk_log_of(test, wqk_bh_set_max_active, b);
	pr_info(WQK_EXPECTED_WARN_END);
	wqk_log_line_with(test, log, "WARNING: CPU: ", " workqueue_set_max_active+");
	KUNIT_EXPECT_EQ(test, wqk_bh_burst_active(test, b), WQK_BH_BURST);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->runs), 2 * WQK_BH_BURST);
}

/* Busy, not asleep: a sleep would let the flusher run before it ends. */
#define WQK_SHORT_ITEM_US	20

static void wqk_short_item(struct work_struct *work)
{
	udelay(WQK_SHORT_ITEM_US);
}

#define WQK_BARRIER_ROUNDS	50

/*
 * A flush_work() barrier belongs to its workqueue until it has run: a
 * destroy right after the flush must find nothing in flight (6.12 counts
 * the barrier in its target's color, so the drain waits for it).  A busy
 * workqueue at destroy is a WARN the log check catches.
 */
static void destroy_right_after_flush_work_finds_it_idle(struct kunit *test)
{
	struct work_struct work;
	int i;

	INIT_WORK_ONSTACK(&work, wqk_short_item);
	for (i = 0; i < WQK_BARRIER_ROUNDS; i++) {
		struct workqueue_struct *wq = alloc_workqueue("wqk_bar%d", 0, 0, i);

		KUNIT_ASSERT_NOT_NULL(test, wq);
		queue_work(wq, &work);
		flush_work(&work);
		destroy_workqueue(wq);
	}
	destroy_work_on_stack(&work);
}

#define WQK_RR_ITEMS	6

struct wqk_rr {
	struct workqueue_struct *wq;
	struct wqk_probe *p[WQK_RR_ITEMS];
	int from[WQK_RR_ITEMS];
};

/* Queue the items one at a time, each from a known CPU, and wait for it. */
static void wqk_queue_rr_items(void *arg)
{
	struct wqk_rr *rr = arg;
	int i;

	for (i = 0; i < WQK_RR_ITEMS; i++) {
		rr->from[i] = get_cpu();
		queue_work(rr->wq, &rr->p[i]->work);
		put_cpu();
		wait_for_completion_timeout(&rr->p[i]->finished, WQK_TIMEOUT);
	}
}

/*
 * workqueue.debug_force_rr_cpu sends unbound items round the allowed CPUs
 * instead of to the queueing CPU's pod, saying so once a boot in 6.12's
 * words: with one-CPU strict pods, items run away from the CPU that
 * queued them (never, without it).
 */
static void forced_round_robin_spreads_unbound_items(struct kunit *test)
{
	const char *text = "workqueue: round-robin CPU selection forced, expect performance impact";
	struct wqk_rr *rr = kunit_kzalloc(test, sizeof(*rr), GFP_KERNEL);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);
	bool said = wqk_log_seen(text);
	struct wqk_log *log;
	int i, away = 0;

	KUNIT_ASSERT_NOT_NULL(test, rr);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	rr->wq = wqk_wq_new(test, WQ_UNBOUND, 0);
	attrs->affn_scope = WQ_AFFN_CPU;
	attrs->affn_strict = true;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(rr->wq, attrs), 0);
	for (i = 0; i < WQK_RR_ITEMS; i++)
		rr->p[i] = wqk_probe_new(test, NULL);
	wqk_set_param(test, "debug_force_rr_cpu", "1");
	log = wqk_log_of(test, wqk_queue_rr_items, rr);
	for (i = 0; i < WQK_RR_ITEMS; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&rr->p[i]->runs), 1);
		away += rr->p[i]->cpu != rr->from[i];
	}
	KUNIT_EXPECT_GE(test, away, 1);
	if (!said)
		KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "workqueue: round-robin"),
				   text);
}

struct wqk_drain_chain {
	struct workqueue_struct *wq;
	struct wqk_probe *p;
};

static void wqk_drain_chain(void *arg)
{
	struct wqk_drain_chain *d = arg;

	queue_work(d->wq, &d->p->work);
	drain_workqueue(d->wq);
}

/*
 * drain_workqueue() that needs many flushes says so in 6.12's words, at
 * the 10th try (then every 100th up to 1000): a chain of 14 runs, each
 * sleeping so that one flush sees one run, takes 13 tries.
 */
static void slow_drain_is_reported_at_the_10th_try(struct kunit *test)
{
	struct wqk_drain_chain *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	char name[WQK_NAME_LEN], want[128];
	struct wqk_log *log;
	int i, reports = 0;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->wq = wqk_named_wq(test, name);
	d->p = wqk_probe_new(test, NULL);
	d->p->wq = d->wq;
	d->p->sleep_ms = 20;
	d->p->data = (void *)14L;
	d->p->hook = wqk_requeue_chain;
	log = wqk_log_of(test, wqk_drain_chain, d);
	snprintf(want, sizeof(want),
		 "workqueue %s: drain_workqueue() isn't complete after 10 tries",
		 name);
	for (i = 0; i < log->nr; i++) {
		if (!strstr(log->line[i], "isn't complete after"))
			continue;
		reports++;
		KUNIT_EXPECT_STREQ(test, log->line[i], want);
	}
	KUNIT_EXPECT_EQ(test, reports, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->p->runs), 14);
}

static atomic_t wqk_cadence_runs;

/* A function of its own: the hog reports count per function, per boot. */
static void wqk_cadence_hog(struct work_struct *work)
{
	mdelay(40);
	atomic_inc(&wqk_cadence_runs);
}

static void wqk_run_cadence_hog(void *arg)
{
	struct work_struct *work = arg;
	int i;

	for (i = 0; i < 9; i++) {
		queue_work_on(wqk_last_online_cpu(), system_wq, work);
		flush_work(work);
	}
}

/*
 * An item that hogs its CPU past cpu_intensive_thresh_us is reported in
 * 6.12's words, from the cpu_intensive_warning_thresh-th time on and then
 * backing off: with a threshold of 1, at the 1st, 2nd, 4th and 8th time
 * of 9.
 */
static void cpu_hog_reports_back_off_as_in_6_12(struct kunit *test)
{
	static const int counts[] = { 1, 2, 4, 8 };
	struct work_struct *work = kunit_kzalloc(test, sizeof(*work), GFP_KERNEL);
	char want[160];
	struct wqk_log *log;
	int i, n = 0;

	if (!IS_ENABLED(CONFIG_WQ_CPU_INTENSIVE_REPORT))
		kunit_skip(test, "needs CONFIG_WQ_CPU_INTENSIVE_REPORT");
	if (wqk_log_seen("workqueue: wqk_cadence_hog hogged CPU"))
		kunit_skip(test, "the function was reported before in this boot");
	KUNIT_ASSERT_NOT_NULL(test, work);
	wqk_set_param(test, "cpu_intensive_thresh_us", "10000");
	wqk_set_param(test, "cpu_intensive_warning_thresh", "1");
	INIT_WORK(work, wqk_cadence_hog);
	atomic_set(&wqk_cadence_runs, 0);
	log = wqk_log_of(test, wqk_run_cadence_hog, work);
	KUNIT_ASSERT_EQ(test, atomic_read(&wqk_cadence_runs), 9);
	for (i = 0; i < log->nr; i++) {
		if (!strstr(log->line[i], "wqk_cadence_hog hogged CPU"))
			continue;
		if (n < ARRAY_SIZE(counts)) {
			snprintf(want, sizeof(want),
				 "workqueue: wqk_cadence_hog hogged CPU for >10000us %d times, consider switching to WQ_UNBOUND",
				 counts[n]);
			KUNIT_EXPECT_STREQ(test, log->line[i], want);
		}
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(counts));
}

static struct kunit_case wqk_lifecycle_cases[] = {
	KUNIT_CASE(destroy_right_after_flush_work_finds_it_idle),
	KUNIT_CASE(unbound_percpu_flags_are_accepted),
	KUNIT_CASE(max_active_clamp_warns_in_6_12_words),
	KUNIT_CASE(attrs_apply_with_the_cpu_hotplug_lock_held),
	KUNIT_CASE(sysfs_name_clash_fails_the_second_workqueue),
	KUNIT_CASE(long_name_is_truncated_with_6_12_warning),
	KUNIT_CASE(flush_scheduled_work_warns_with_a_stack_dump),
	KUNIT_CASE(queue_rcu_work_warns_on_a_disabled_item),
	KUNIT_CASE(refused_item_stays_pending_on_a_draining_workqueue),
	KUNIT_CASE(bh_workqueue_has_no_max_active_limit),
	KUNIT_CASE(forced_round_robin_spreads_unbound_items),
	KUNIT_CASE(slow_drain_is_reported_at_the_10th_try),
	KUNIT_CASE(cpu_hog_reports_back_off_as_in_6_12),
	{}
};

static struct kunit_suite wqk_lifecycle_suite = {
	.name = "workqueue_lifecycle",
	.test_cases = wqk_lifecycle_cases,
};

kunit_test_suites(&wqk_lifecycle_suite);
