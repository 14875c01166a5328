// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_introspect: what the workqueue tells about itself.
 * work_busy(), workqueue_congested(), current_is_workqueue_rescuer(),
 * schedule_on_each_cpu(), work_on_cpu(), execute_in_process_context(),
 * worker descriptions, and the text of dumps and watchdog reports (6.12's
 * words, which people and scripts read), the system workqueues' flags.
 */
#include <linux/cpu.h>
#include <linux/pid.h>
#include <linux/topology.h>

#include "../workqueue_internal.h"
#include "probes.h"

static void work_busy_reports_pending_and_running(struct kunit *test)
{
	struct wqk_probe *blocker, *p = wqk_gated_probe(test, NULL);
	struct workqueue_struct *wq = wqk_blocked_wq(test, &blocker);

	KUNIT_EXPECT_EQ(test, work_busy(&p->work), 0U);
	queue_work(wq, &p->work);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), (unsigned int)WORK_BUSY_PENDING);
	wqk_open(blocker);
	WQK_WAIT(test, &p->started);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), (unsigned int)WORK_BUSY_RUNNING);
	queue_work(wq, &p->work);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work),
			(unsigned int)(WORK_BUSY_PENDING | WORK_BUSY_RUNNING));
	wqk_open(p);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, work_busy(&p->work), 0U);
}

static void workqueue_congested_reports_waiting_items(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_wq_new(test, 0, 1);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	struct wqk_probe *b = wqk_probe_new(test, NULL);
	int cpu = wqk_last_online_cpu();

	KUNIT_EXPECT_FALSE(test, workqueue_congested(cpu, wq));
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	queue_work_on(cpu, wq, &b->work);
	KUNIT_EXPECT_TRUE(test, workqueue_congested(cpu, wq));
	wqk_open(a);
	flush_workqueue(wq);
	KUNIT_EXPECT_FALSE(test, workqueue_congested(cpu, wq));
}

static void normal_workers_are_not_rescuers(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_run_one(test, wq, WORK_CPU_UNBOUND);

	KUNIT_EXPECT_FALSE(test, p->rescuer);
	KUNIT_EXPECT_FALSE(test, current_is_workqueue_rescuer());
}

static atomic_t wqk_each_cpu_runs[NR_CPUS];

static void wqk_count_cpu(struct work_struct *work)
{
	atomic_inc(&wqk_each_cpu_runs[raw_smp_processor_id()]);
}

static void schedule_on_each_cpu_runs_once_per_online_cpu(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu)
		atomic_set(&wqk_each_cpu_runs[cpu], 0);
	/* It takes the hotplug lock itself; no case here races hotplug. */
	KUNIT_EXPECT_EQ(test, schedule_on_each_cpu(wqk_count_cpu), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&wqk_each_cpu_runs[cpu]),
				    cpu_online(cpu) ? 1 : 0, "CPU %d", cpu);
}

static void work_on_cpu_returns_the_value_from_that_cpu(struct kunit *test)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, wqk_cpu_plus,
						  (void *)1000L), cpu + 1000L);
	}
	cpus_read_unlock();
	/* work_on_cpu_safe() takes the hotplug lock itself. */
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, work_on_cpu_safe(cpu, wqk_cpu_plus,
						       (void *)7L), cpu + 7L);
}

struct wqk_ew {
	struct execute_work ew;
	bool ran;
	bool in_interrupt;
	int ret;
	struct completion done;
};

static void wqk_ew_fn(struct work_struct *work)
{
	struct wqk_ew *e = container_of(work, struct wqk_ew, ew.work);

	e->ran = true;
	e->in_interrupt = in_interrupt();
	complete(&e->done);
}

static void execute_in_process_context_runs_directly(struct kunit *test)
{
	struct wqk_ew *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	init_completion(&e->done);
	KUNIT_EXPECT_EQ(test, execute_in_process_context(wqk_ew_fn, &e->ew), 0);
	KUNIT_EXPECT_TRUE(test, e->ran);
}

static void wqk_ew_from_bh(struct wqk_probe *p)
{
	struct wqk_ew *e = p->data;

	e->ret = execute_in_process_context(wqk_ew_fn, &e->ew);
}

static void execute_in_process_context_defers_from_softirq(struct kunit *test)
{
	struct wqk_ew *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct wqk_probe *p = wqk_bh_probe_new(test, NULL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	init_completion(&e->done);
	p->data = e;
	p->hook = wqk_ew_from_bh;
	queue_work(system_bh_wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_EQ(test, e->ret, 1);
	WQK_WAIT(test, &e->done);
	KUNIT_EXPECT_FALSE(test, e->in_interrupt);
	flush_work(&e->ew.work);
}

static void wqk_describe(struct wqk_probe *p)
{
	char *buf = p->data;

	set_worker_desc("wqk-desc-%d", 42);
	wq_worker_comm(buf, 64, current);
}

static void worker_names_show_set_worker_desc(struct kunit *test)
{
	struct workqueue_struct *wq = wqk_kind_wq(test);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	p->data = buf;
	p->hook = wqk_describe;
	queue_work(wq, &p->work);
	flush_work(&p->work);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "kworker/"), "%s", buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "+wqk-desc-42"), "%s", buf);
}

/* What a worker showed of itself while it ran an item (wqk_record_desc()). */
struct wqk_desc {
	char comm[64];
	bool describe;		/* call set_worker_desc() instead */
};

static void wqk_record_desc(struct wqk_probe *p)
{
	struct wqk_desc *d = p->data;

	if (d->describe)
		set_worker_desc("wqk-desc-%d", 7);
	else
		wq_worker_comm(d->comm, sizeof(d->comm), current);
}

/*
 * Run @p on @cpu's pool of @wq and check the description its worker
 * showed: "+@name" at the end.
 */
static void wqk_expect_desc(struct kunit *test, struct workqueue_struct *wq,
			    struct wqk_probe *p, int cpu, const char *name)
{
	struct wqk_desc *d = p->data;
	const char *plus;

	d->describe = false;
	queue_work_on(cpu, wq, &p->work);
	flush_work(&p->work);
	plus = strrchr(d->comm, '+');
	KUNIT_EXPECT_NOT_NULL_MSG(test, plus, "%s", d->comm);
	if (plus)
		KUNIT_EXPECT_STREQ(test, plus + 1, name);
}

/*
 * ps shows the workqueue of the item a worker runs.  A worker copies the
 * name only when it changes, so check the cases where it must: an item
 * of another workqueue, an item of the same one after set_worker_desc(),
 * and a new workqueue in the memory of a destroyed one (which the
 * allocator hands back at once, most of the time).
 */
static void worker_desc_follows_each_item(struct kunit *test)
{
	struct wqk_desc *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct wqk_probe *p = wqk_probe_new(test, NULL);
	char a[WQK_NAME_LEN], b[WQK_NAME_LEN];
	struct workqueue_struct *wqa = wqk_named_wq(test, a);
	struct workqueue_struct *wqb = wqk_named_wq(test, b);
	struct workqueue_struct *gone, *reborn;
	int cpu = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_NOT_NULL(test, d);
	p->data = d;
	p->hook = wqk_record_desc;
	wqk_expect_desc(test, wqa, p, cpu, a);
	wqk_expect_desc(test, wqb, p, cpu, b);
	wqk_expect_desc(test, wqa, p, cpu, a);

	d->describe = true;
	queue_work_on(cpu, wqa, &p->work);
	flush_work(&p->work);
	wqk_expect_desc(test, wqa, p, cpu, a);

	gone = alloc_workqueue("wqk_desc_gone", 0, 1);
	KUNIT_ASSERT_NOT_NULL(test, gone);
	wqk_expect_desc(test, gone, p, cpu, "wqk_desc_gone");
	destroy_workqueue(gone);
	reborn = alloc_workqueue("wqk_desc_reborn", 0, 1);
	KUNIT_ASSERT_NOT_NULL(test, reborn);
	wqk_defer(test, wqk_destroy_wq_action, reborn);
	wqk_expect_desc(test, reborn, p, cpu, "wqk_desc_reborn");
}

/*
 * A running item with a flush_work() barrier behind it, and inactive
 * items where runs of one function fold and a barrier breaks the run:
 *   in-flight: PID:fn BAR(PID)
 *   inactive: 2*fn BAR(PID), fn
 */
static void dump_lists_items_with_runs_and_barriers(struct kunit *test)
{
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *a = wqk_gated_probe(test, NULL), *b[3];
	struct wqk_waiter *fa, *fb;
	int cpu = wqk_last_online_cpu(), i;
	struct wqk_log *log;
	const char *line;
	char want[128];

	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	for (i = 0; i < ARRAY_SIZE(b); i++) {
		b[i] = wqk_probe_new(test, NULL);
		queue_work_on(cpu, wq, &b[i]->work);
	}
	fa = wqk_waiter_start(test, WQK_FLUSH_WORK, NULL, a);
	fb = wqk_waiter_start(test, WQK_FLUSH_WORK, NULL, b[1]);

	log = wqk_log_of(test, wqk_show_one, wq);
	snprintf(want, sizeof(want), "workqueue %s: flags=0x", name);
	wqk_log_line(test, log, want);
	line = wqk_log_line(test, log, "  pwq ");
	snprintf(want, sizeof(want), " cpus=%d ", cpu);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want), "%s", line);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, " nice=0 active=1 refcnt="),
				  "%s", line);
	KUNIT_EXPECT_EQ(test, wqk_pwq_line_pool(line), wqk_cpu_pool_id(cpu, 2));
	snprintf(want, sizeof(want), "    in-flight: %d:wqk_probe_fn BAR(%d)",
		 task_pid_nr(a->task), task_pid_nr(fa->th->task));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    in-flight:"), want);
	snprintf(want, sizeof(want),
		 "    inactive: 2*wqk_probe_fn BAR(%d), wqk_probe_fn",
		 task_pid_nr(fb->th->task));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    inactive:"), want);

	wqk_open(a);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&fa->th->done,
							  WQK_TIMEOUT), 0UL);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&fb->th->done,
							  WQK_TIMEOUT), 0UL);
}

/*
 * The pool of a busy CPU: "hung=0s" while nothing waits for a worker,
 * then the idle workers as " idle: PID PID".
 */
static void dump_shows_busy_pool_with_idle_workers(struct kunit *test)
{
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu(), pool;
	struct wqk_log *log;
	const char *line, *rest;
	char want[64];

	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	log = wqk_log_of(test, wqk_show_all, NULL);
	wqk_open(a);

	/* other workqueues may be busy too: our pwq follows our name */
	snprintf(want, sizeof(want), "workqueue %s:", name);
	pool = wqk_pwq_line_pool(wqk_log_line_after(test, log, want, "  pwq "));
	KUNIT_ASSERT_GE(test, pool, 0);
	snprintf(want, sizeof(want), "pool %d:", pool);
	line = wqk_log_line(test, log, want);
	rest = strstr(line, " hung=");
	KUNIT_ASSERT_NOT_NULL_MSG(test, rest, "%s", line);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(rest, " hung=0s workers="),
			      "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "idle workers"), "%s", line);
	rest = strstr(line, " idle: ");
	if (rest)	/* then only PIDs */
		KUNIT_EXPECT_EQ_MSG(test, strspn(rest + 7, "0123456789 "),
				    strlen(rest + 7), "%s", line);
}

static void wqk_nop_a(struct work_struct *work) { }
static void wqk_nop_b(struct work_struct *work) { }

/*
 * 200 waiting items of two alternating functions make an "inactive:"
 * line of some 3000 characters, more than a printk record holds: it goes
 * on in further lines, and not one item is lost.
 */
static void dump_lines_have_no_length_limit(struct kunit *test)
{
	enum { NR = 200 };
	/* before the workqueue: freed after its destruction drains them */
	struct work_struct *w = kunit_kcalloc(test, NR, sizeof(*w), GFP_KERNEL);
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe *a = wqk_gated_probe(test, NULL);
	int cpu = wqk_last_online_cpu(), i, seen = 0;
	struct wqk_log *log;
	bool inactive = false;

	KUNIT_ASSERT_NOT_NULL(test, w);
	queue_work_on(cpu, wq, &a->work);
	WQK_WAIT(test, &a->started);
	for (i = 0; i < NR; i++) {
		INIT_WORK(&w[i], i % 2 ? wqk_nop_b : wqk_nop_a);
		queue_work_on(cpu, wq, &w[i]);
	}
	log = wqk_log_of(test, wqk_show_one, wq);
	wqk_open(a);
	flush_workqueue(wq);

	for (i = 0; i < log->nr; i++) {
		const char *p = log->line[i];

		inactive |= str_has_prefix(p, "    inactive:");
		while (inactive && (p = strstr(p, "wqk_nop_"))) {
			seen++;
			p++;
		}
	}
	KUNIT_EXPECT_TRUE(test, inactive);
	KUNIT_EXPECT_EQ(test, seen, NR);
}

struct wqk_bh_dump {
	struct workqueue_struct *wq;
	struct wqk_probe *p[3];
	int cpu;
};

/* With softirqs off here, the items wait on this CPU's pool. */
static void wqk_show_waiting_bh(void *arg)
{
	struct wqk_bh_dump *d = arg;
	int i;

	local_bh_disable();
	d->cpu = smp_processor_id();
	for (i = 0; i < ARRAY_SIZE(d->p); i++)
		queue_work_on(d->cpu, d->wq, &d->p[i]->work);
	show_one_workqueue(d->wq);
	local_bh_enable();
}

/*
 * Items waiting on a BH pool: the pool shows as "bh" or "bh-hi" instead
 * of a nice level, and three items of one function as "3*fn".
 */
static void dump_names_bh_pools(struct kunit *test)
{
	const bool *highpri = test->param_value;
	struct wqk_bh_dump *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct wqk_log *log;
	const char *line;
	char want[32];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->wq = wqk_wq_new(test, WQ_BH | (*highpri ? WQ_HIGHPRI : 0), 0);
	for (i = 0; i < ARRAY_SIZE(d->p); i++)
		d->p[i] = wqk_bh_probe_new(test, NULL);
	log = wqk_log_of(test, wqk_show_waiting_bh, d);
	flush_workqueue(d->wq);

	line = wqk_log_line(test, log, "  pwq ");
	snprintf(want, sizeof(want), " cpus=%d ", d->cpu);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want), "%s", line);
	/* POOL_BH | POOL_DISASSOCIATED: BH pools are never bound to a CPU */
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, " flags=0x5 "), "%s", line);
	snprintf(want, sizeof(want), " %s active=3 ", *highpri ? "bh-hi" : "bh");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want), "%s", line);
	KUNIT_EXPECT_NULL_MSG(test, strstr(line, "nice="), "%s", line);
	KUNIT_EXPECT_EQ(test, wqk_pwq_line_pool(line),
			wqk_cpu_pool_id(d->cpu, *highpri));
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "    pending:"),
			   "    pending: 3*wqk_probe_fn");
}

static void watchdog_reports_a_stuck_percpu_pool(struct kunit *test)
{
	wqk_expect_stall_report(test, -1, 0);
}

/*
 * touch_softlockup_watchdog() excuses the CPU it runs on: a thread that
 * keeps touching another CPU's watchdog does not hide the stall.
 */
static void watchdog_touch_elsewhere_does_not_hide_a_stall(struct kunit *test)
{
	int other = cpumask_first(cpu_online_mask);

	if (other == wqk_last_online_cpu())
		kunit_skip(test, "needs two online CPUs");
	wqk_expect_stall_report(test, other, 0);
}

/*
 * Per-CPU pools carry their CPU's NUMA node, as the dump shows it
 * ("cpus=C node=N"), whatever was known of nodes when the pools were
 * set up at early boot.
 */
static void percpu_pools_know_their_cpus_node(struct kunit *test)
{
	char name[WQK_NAME_LEN];
	struct workqueue_struct *wq = wqk_named_wq(test, name);
	struct wqk_probe **ps;
	struct wqk_log *log;
	int cpu, i, seen = 0, n = 0;

	ps = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ps);
	for_each_online_cpu(cpu) {
		ps[n] = wqk_gated_probe(test, NULL);
		queue_work_on(cpu, wq, &ps[n]->work);
		WQK_WAIT(test, &ps[n]->started);
		n++;
	}
	log = wqk_log_of(test, wqk_show_one, wq);
	for (i = 0; i < n; i++)
		wqk_open(ps[i]);
	for (i = 0; i < log->nr; i++) {
		int id, node;

		if (sscanf(log->line[i], " pwq %d: cpus=%d node=%d", &id, &cpu,
			   &node) != 3)
			continue;
		seen++;
		KUNIT_EXPECT_EQ_MSG(test, node, cpu_to_node(cpu), "%s",
				    log->line[i]);
	}
	KUNIT_EXPECT_EQ(test, seen, n);
	flush_workqueue(wq);
}

/* The flags a caller passes to alloc_workqueue(), as dumps show them. */
#define WQK_PUBLIC_FLAGS	(WQ_BH | WQ_UNBOUND | WQ_FREEZABLE | WQ_MEM_RECLAIM | \
				 WQ_HIGHPRI | WQ_CPU_INTENSIVE | WQ_SYSFS | \
				 WQ_POWER_EFFICIENT | WQ_PERCPU)

/*
 * The system workqueues carry the flags 6.12 creates them with, as the
 * dump of a busy one shows: the per-CPU ones have no WQ_PERCPU bit (0x100),
 * which 6.12 does not set on them.
 */
static void system_workqueues_have_6_12_flags(struct kunit *test)
{
	const struct {
		struct workqueue_struct *wq;
		const char *name;
		unsigned int flags;
	} sys[] = {
		{ system_wq, "events", 0 },
		{ system_percpu_wq, "events", 0 },
		{ system_highpri_wq, "events_highpri", WQ_HIGHPRI },
		{ system_long_wq, "events_long", 0 },
		{ system_unbound_wq, "events_unbound", WQ_UNBOUND },
		{ system_freezable_wq, "events_freezable", WQ_FREEZABLE },
	};
	char want[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(sys); i++) {
		struct wqk_probe *p = wqk_gated_probe(test, NULL);
		unsigned int flags = ~0U;
		struct wqk_log *log;
		const char *line;
		int n;

		/* only a busy workqueue is shown */
		queue_work(sys[i].wq, &p->work);
		WQK_WAIT(test, &p->started);
		log = wqk_log_of(test, wqk_show_one, sys[i].wq);
		wqk_open(p);
		snprintf(want, sizeof(want), "workqueue %s: flags=", sys[i].name);
		line = wqk_log_line(test, log, want);
		n = sscanf(line + strlen(want), "%x", &flags);
		KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s", line);
		KUNIT_EXPECT_EQ_MSG(test, flags & WQK_PUBLIC_FLAGS, sys[i].flags,
				    "%s", line);
		flush_work(&p->work);
	}
}

#ifdef CONFIG_LOCKDEP
#define WQK_EXPECTED_LEAK_BEGIN	"workqueue_kunit: expected leak report begins\n"
#define WQK_EXPECTED_LEAK_END	"workqueue_kunit: expected leak report ends\n"

static struct lock_class_key wqk_leak_key;
static struct lockdep_map wqk_leak_map =
	STATIC_LOCKDEP_MAP_INIT("wqk_leak", &wqk_leak_key);

/*
 * Return holding wqk_leak_map.  Taken as a trylock, it depends on nothing
 * the worker holds; the next item gives it back.
 */
static void wqk_leak_hook(struct wqk_probe *p)
{
	lock_map_acquire_try(&wqk_leak_map);
}

static void wqk_unleak_hook(struct wqk_probe *p)
{
	lock_map_release(&wqk_leak_map);
}

struct wqk_leak {
	struct workqueue_struct *wq;
	struct wqk_probe *leaker, *giver;
	int cpu;
};

/*
 * The giver waits behind the leaker (max_active 1) off the worklist, so
 * no other worker is woken for it: the leaker's worker, which does not
 * sleep after the leaker, activates it and runs it next.
 */
static void wqk_leak_run(void *arg)
{
	struct wqk_leak *l = arg;

	pr_info(WQK_EXPECTED_LEAK_BEGIN);
	queue_work_on(l->cpu, l->wq, &l->leaker->work);
	if (wait_for_completion_timeout(&l->leaker->started, WQK_TIMEOUT))
		queue_work_on(l->cpu, l->wq, &l->giver->work);
	wqk_open(l->leaker);
	/* the giver's own report (lock=1->0) comes after its function */
	flush_work(&l->giver->work);
	pr_info(WQK_EXPECTED_LEAK_END);
}

/*
 * An item that returns holding a lock is reported in 6.12's two lines,
 * which log parsers match: the worker's name and PID, then the preempt
 * count, the lock and RCU depths before and after, and the function.
 */
static void leaked_lock_is_reported_in_6_12_words(struct kunit *test)
{
	struct wqk_leak l = {
		.wq = wqk_wq_new(test, 0, 1), .cpu = wqk_last_online_cpu(),
		.leaker = wqk_gated_probe(test, NULL),
		.giver = wqk_probe_new(test, NULL),
	};
	char *want = kunit_kzalloc(test, WQK_LOG_LEN, GFP_KERNEL);
	struct wqk_log *log;

	KUNIT_ASSERT_NOT_NULL(test, want);
	l.leaker->hook = wqk_leak_hook;
	l.giver->hook = wqk_unleak_hook;
	log = wqk_log_of(test, wqk_leak_run, &l);
	KUNIT_ASSERT_EQ(test, completion_done(&l.giver->finished), true);
	KUNIT_ASSERT_PTR_EQ(test, l.giver->task, l.leaker->task);
	snprintf(want, WQK_LOG_LEN,
		 "BUG: workqueue leaked atomic, lock or RCU: %s[%d]\n"
		 "     preempt=0x%08x lock=0->1 RCU=0->0 workfn=%ps",
		 l.leaker->comm, task_pid_nr(l.leaker->task), 0, wqk_probe_fn);
	KUNIT_EXPECT_STREQ(test, wqk_log_line(test, log, "BUG: workqueue leaked"),
			   want);
}
#else
WQK_ABSENT_CASE(leaked_lock_is_reported_in_6_12_words, "needs CONFIG_LOCKDEP")
#endif

static struct kunit_case wqk_introspect_cases[] = {
	KUNIT_CASE(work_busy_reports_pending_and_running),
	KUNIT_CASE(workqueue_congested_reports_waiting_items),
	KUNIT_CASE_PARAM(normal_workers_are_not_rescuers, wqk_kind_gen_params),
	KUNIT_CASE(schedule_on_each_cpu_runs_once_per_online_cpu),
	KUNIT_CASE(work_on_cpu_returns_the_value_from_that_cpu),
	KUNIT_CASE(execute_in_process_context_runs_directly),
	KUNIT_CASE(execute_in_process_context_defers_from_softirq),
	KUNIT_CASE_PARAM(worker_names_show_set_worker_desc, wqk_kind_gen_params),
	KUNIT_CASE(worker_desc_follows_each_item),
	KUNIT_CASE(dump_lists_items_with_runs_and_barriers),
	KUNIT_CASE(dump_shows_busy_pool_with_idle_workers),
	KUNIT_CASE(dump_lines_have_no_length_limit),
	KUNIT_CASE_SLOW(watchdog_reports_a_stuck_percpu_pool),
	KUNIT_CASE_SLOW(watchdog_touch_elsewhere_does_not_hide_a_stall),
	KUNIT_CASE(percpu_pools_know_their_cpus_node),
	KUNIT_CASE(leaked_lock_is_reported_in_6_12_words),
	KUNIT_CASE_PARAM(dump_names_bh_pools, wqk_highpri_gen_params),
	KUNIT_CASE(system_workqueues_have_6_12_flags),
	{}
};

static struct kunit_suite wqk_introspect_suite = {
	.name = "workqueue_introspect",
	.test_cases = wqk_introspect_cases,
};

kunit_test_suites(&wqk_introspect_suite);
