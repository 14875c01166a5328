// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit conformance suite for workqueues: what its suites share.
 *
 * Each case of the suite states one behaviour that callers of the 6.12
 * workqueue API rely on.  The suite runs unchanged on stock 6.12 and on
 * the rework; cases for capabilities that stock lacks detect them with a
 * feature macro from <linux/workqueue.h> and skip with a reason.  One file
 * per suite, linked (and so run) in the order of the Makefile; this one
 * has the probe, an instrumented work item, and the helpers more than one
 * suite uses (probes.h declares them).
 *
 * Map of this file:
 *   1. probes: the instrumented work item, its tracker, hooks
 *   2. workqueues, made for a case and destroyed with it; the kinds
 *   3. CPUs, priorities and parameters, hotplug, unbound exclusion
 *   4. threads and waiters: kthreads of a case, calls that wait
 *   5. logs and dumps: reading back what a dump printed, the watchdog
 *   6. rescuers: pools that only their rescuers can serve
 *   7. the real-time class and priority inheritance
 *
 * Nothing here asserts speed: waits have generous timeouts that only matter
 * when a behaviour is broken, and "must not happen" checks are made by the
 * items themselves at the moment they run.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kmsg_dump.h>
#include <linux/kthread.h>
#include <linux/nmi.h>
#include <linux/random.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/wait_bit.h>
#include <uapi/linux/sched/types.h>

#include "../workqueue_internal.h"
#include "probes.h"

/* ------------------------------------------------------------------ */
/* 1. probes                                                           */
/* ------------------------------------------------------------------ */

static void wqk_probe_body(struct wqk_probe *p)
{
	struct wqk_tracker *t = p->tracker;
	u64 cpu0 = task_sched_runtime(current);
	int running = 0;

	p->cpu = raw_smp_processor_id();
	p->nr_allowed = current->nr_cpus_allowed;
	p->task = current;
	p->nice = task_nice(current);
	p->policy = current->policy;
	p->rt_priority = current->rt_priority;
	if (in_task())	/* the comm lock is not softirq-safe */
		get_task_comm(p->comm, current);
	p->in_softirq = in_serving_softirq();
	p->in_interrupt = in_interrupt();
	p->rescuer = current_is_workqueue_rescuer();
	p->current_work = current_work();
	p->ran_at = jiffies;

	if (t) {
		int peak = atomic_read(&t->peak);

		running = atomic_inc_return(&t->running);
		while (running > peak &&
		       !atomic_try_cmpxchg(&t->peak, &peak, running))
			;
		atomic_inc(&t->started);
		wake_up_var(&t->started);
	}
	p->running_at_start = running;
	atomic_inc(&p->runs);
	complete(&p->started);

	if (p->gated)
		wait_for_completion(&p->gate);
	if (p->sleep_ms)
		msleep(p->sleep_ms);
	if (p->burn_us)
		udelay(p->burn_us);
	if (p->hook)
		p->hook(p);

	p->end_nice = task_nice(current);
	p->end_policy = current->policy;
	p->end_rt_priority = current->rt_priority;
	/* more than burn_us when the vCPU was preempted on the host */
	p->cpu_ns = task_sched_runtime(current) - cpu0;
	if (t) {
		atomic_dec(&t->running);
		p->place = atomic_inc_return(&t->finished);
		wake_up_var(&t->finished);
	}
	complete(&p->finished);
}

void wqk_probe_fn(struct work_struct *work)
{
	wqk_probe_body(container_of(work, struct wqk_probe, work));
}

static void wqk_probe_dfn(struct work_struct *work)
{
	wqk_probe_body(container_of(to_delayed_work(work), struct wqk_probe,
				    dwork));
}

static void wqk_probe_rfn(struct work_struct *work)
{
	wqk_probe_body(container_of(to_rcu_work(work), struct wqk_probe,
				    rwork));
}

#ifdef WQ_HAS_PRECISE_WORK
static void wqk_probe_pfn(struct work_struct *work)
{
	wqk_probe_body(container_of(to_precise_work(work), struct wqk_probe,
				    pw));
}
#endif

/* Test teardown: stop requeueing, open the gate, make sure the item is gone. */
static void wqk_probe_cleanup(void *arg)
{
	struct wqk_probe *p = arg;

	WRITE_ONCE(p->stop, true);
	complete_all(&p->gate);
	cancel_work_sync(&p->work);
	cancel_delayed_work_sync(&p->dwork);
	flush_rcu_work(&p->rwork);
#ifdef WQ_HAS_PRECISE_WORK
	cancel_precise_work_sync(&p->pw);
#endif
}

struct wqk_probe *__wqk_probe_new(struct kunit *test,
				  struct wqk_tracker *t, bool bh)
{
	struct wqk_probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->test = test;
	p->tracker = t;
	p->cpu = -1;
	if (bh)
		INIT_WORK(&p->work, wqk_probe_fn);
	else
		INIT_WORK(&p->work, wqk_probe_fn);
	INIT_DELAYED_WORK(&p->dwork, wqk_probe_dfn);
	INIT_RCU_WORK(&p->rwork, wqk_probe_rfn);
#ifdef WQ_HAS_PRECISE_WORK
	INIT_PRECISE_WORK(&p->pw, wqk_probe_pfn);
#endif
	init_completion(&p->gate);
	init_completion(&p->started);
	init_completion(&p->finished);
	wqk_defer(test, wqk_probe_cleanup, p);
	return p;
}

struct wqk_probe *wqk_probe_new(struct kunit *test,
				struct wqk_tracker *t)
{
	return __wqk_probe_new(test, t, false);
}

struct wqk_probe *wqk_bh_probe_new(struct kunit *test,
				   struct wqk_tracker *t)
{
	return __wqk_probe_new(test, t, true);
}

struct wqk_probe *wqk_gated_probe(struct kunit *test,
				  struct wqk_tracker *t)
{
	struct wqk_probe *p = wqk_probe_new(test, t);

	p->gated = true;
	return p;
}

void wqk_open(struct wqk_probe *p)
{
	complete_all(&p->gate);
}

struct wqk_tracker *wqk_tracker_new(struct kunit *test)
{
	struct wqk_tracker *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

void wqk_wait_count(struct kunit *test, atomic_t *count, int n,
		    const char *what)
{
	long left = wait_var_event_timeout(count, atomic_read(count) >= n,
					   WQK_TIMEOUT);

	KUNIT_ASSERT_GT_MSG(test, left, 0, "only %d of %d items %s",
			    atomic_read(count), n, what);
}

struct wqk_probe *__wqk_run_one(struct kunit *test,
				struct workqueue_struct *wq, int cpu,
				bool bh)
{
	struct wqk_probe *p = __wqk_probe_new(test, NULL, bh);

	KUNIT_EXPECT_TRUE(test, queue_work_on(cpu, wq, &p->work));
	WQK_WAIT(test, &p->finished);
	flush_work(&p->work);
	return p;
}

struct wqk_probe *wqk_run_one(struct kunit *test,
			      struct workqueue_struct *wq, int cpu)
{
	return __wqk_run_one(test, wq, cpu, false);
}

void wqk_spin_until_other_started(struct wqk_probe *p)
{
	struct wqk_probe *other = p->data;
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (!completion_done(&other->started) &&
	       time_before(jiffies, deadline)) {
		cpu_relax();
		cond_resched();
	}
}

void wqk_requeue_until_stopped(struct wqk_probe *p)
{
	if (!READ_ONCE(p->stop)) {
		usleep_range(200, 400);
		queue_work(p->wq, &p->work);
	}
}

void wqk_requeue_chain(struct wqk_probe *p)
{
	int len = (long)p->data;

	if (atomic_read(&p->runs) < len && !READ_ONCE(p->stop))
		KUNIT_EXPECT_TRUE(p->test, queue_work(p->wq, &p->work));
}

/* ------------------------------------------------------------------ */
/* 2. workqueues                                                       */
/* ------------------------------------------------------------------ */

void wqk_defer(struct kunit *test, kunit_action_t *fn, void *arg)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fn, arg), 0);
}

void wqk_destroy_wq_action(void *wq)
{
	destroy_workqueue(wq);
}

struct workqueue_struct *wqk_wq_new(struct kunit *test,
				    unsigned int flags, int max_active)
{
	struct workqueue_struct *wq;

	wq = alloc_workqueue("wqk_%lx", flags, max_active,
			     get_random_u32() & 0xffffUL);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	return wq;
}

struct workqueue_struct *wqk_ordered_new(struct kunit *test)
{
	struct workqueue_struct *wq;

	wq = alloc_ordered_workqueue("wqk_ord_%x", 0, get_random_u32() & 0xffff);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	return wq;
}

struct workqueue_struct *wqk_blocked_wq(struct kunit *test,
					struct wqk_probe **blocker)
{
	struct workqueue_struct *wq = wqk_ordered_new(test);

	*blocker = wqk_gated_probe(test, NULL);
	queue_work(wq, &(*blocker)->work);
	WQK_WAIT(test, &(*blocker)->started);
	return wq;
}

KUNIT_DEFINE_ACTION_WRAPPER(wqk_free_attrs_action, free_workqueue_attrs,
			    struct workqueue_attrs *);

struct workqueue_attrs *wqk_attrs_new(struct kunit *test)
{
	struct workqueue_attrs *attrs = alloc_workqueue_attrs();

	KUNIT_ASSERT_NOT_NULL(test, attrs);
	wqk_defer(test, wqk_free_attrs_action, attrs);
	return attrs;
}

struct workqueue_struct *__wqk_named_wq(struct kunit *test, char *name,
					unsigned int flags)
{
	struct workqueue_struct *wq;

	snprintf(name, WQK_NAME_LEN, "wqk_dump_%x", get_random_u32() & 0xffff);
	wq = alloc_workqueue("%s", flags, 1, name);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	wqk_defer(test, wqk_destroy_wq_action, wq);
	return wq;
}

struct workqueue_struct *wqk_named_wq(struct kunit *test, char *name)
{
	return __wqk_named_wq(test, name, 0);
}

static const enum wqk_kind wqk_kinds[] = {
	WQK_PERCPU, WQK_HIGHPRI, WQK_UNBOUND, WQK_ORDERED, WQK_MEM_RECLAIM,
};

static void wqk_kind_desc(const enum wqk_kind *kind, char *desc)
{
	static const char * const names[] = {
		[WQK_PERCPU] = "percpu", [WQK_HIGHPRI] = "highpri",
		[WQK_UNBOUND] = "unbound", [WQK_ORDERED] = "ordered",
		[WQK_MEM_RECLAIM] = "mem_reclaim",
	};

	strscpy(desc, names[*kind], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_kind_array, wqk_kinds, wqk_kind_desc);

/* KUNIT_ARRAY_PARAM()'s generator, for the suites of the other files */
const void *wqk_kind_gen_params(const void *prev, char *desc)
{
	return wqk_kind_array_gen_params(prev, desc);
}

static const bool wqk_bools[] = { false, true };

static void wqk_highpri_desc(const bool *highpri, char *desc)
{
	strscpy(desc, *highpri ? "highpri" : "normal", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wqk_highpri_array, wqk_bools, wqk_highpri_desc);

const void *wqk_highpri_gen_params(const void *prev, char *desc)
{
	return wqk_highpri_array_gen_params(prev, desc);
}

struct workqueue_struct *wqk_kind_wq(struct kunit *test)
{
	const enum wqk_kind *kind = test->param_value;

	switch (*kind) {
	case WQK_HIGHPRI:
		return wqk_wq_new(test, WQ_HIGHPRI, 0);
	case WQK_UNBOUND:
		return wqk_wq_new(test, WQ_UNBOUND, 0);
	case WQK_ORDERED:
		return wqk_ordered_new(test);
	case WQK_MEM_RECLAIM:
		return wqk_wq_new(test, WQ_MEM_RECLAIM, 0);
	default:
		return wqk_wq_new(test, 0, 0);
	}
}

bool wqk_is_ordered_kind(struct kunit *test)
{
	const enum wqk_kind *kind = test->param_value;

	return *kind == WQK_ORDERED;
}

/* ------------------------------------------------------------------ */
/* 3. CPUs, priorities and parameters                                  */
/* ------------------------------------------------------------------ */

void wqk_two_cpus(int *a, int *b)
{
	int cpu;

	*a = cpumask_first(cpu_online_mask);
	*b = cpumask_next(*a, cpu_online_mask);
	if (*b >= nr_cpu_ids)
		*b = *a;
	for_each_online_cpu(cpu) {
		if (cpu_to_node(cpu) != cpu_to_node(*a)) {
			*b = cpu;
			break;
		}
	}
}

int wqk_last_online_cpu(void)
{
	return cpumask_last(cpu_online_mask);
}

long wqk_cpu_plus(void *arg)
{
	return raw_smp_processor_id() + (long)arg;
}

void wqk_pin_self(struct kunit *test, int cpu, int nice)
{
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	set_user_nice(current, nice);
}

int wqk_set_prio(int policy, int prio)
{
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;
	struct sched_attr attr = {
		.size = sizeof(attr), .sched_policy = policy,
		.sched_priority = rt ? prio : 0,
		.sched_nice = rt ? 0 : prio,
	};

	if (policy == SCHED_DEADLINE) {
		attr.sched_nice = 0;
		attr.sched_runtime = NSEC_PER_MSEC;
		attr.sched_deadline = 100 * NSEC_PER_MSEC;
		attr.sched_period = attr.sched_deadline;
	}
	return sched_setattr_nocheck(current, &attr);
}

/* A parameter wqk_set_param() changed, and the value it had. */
struct wqk_param {
	const struct kernel_param *kp;
	char *old;
};

const struct kernel_param *wqk_find_param(const char *name)
{
	const struct kernel_param *kp;
	char full[64];

	snprintf(full, sizeof(full), "workqueue.%s", name);
	for (kp = __start___param; kp < __stop___param; kp++)
		if (!strcmp(kp->name, full))
			return kp;
	return NULL;
}

static int wqk_param_write(const struct kernel_param *kp, const char *val)
{
	int ret;

	kernel_param_lock(NULL);
	ret = kp->ops->set(val, kp);
	kernel_param_unlock(NULL);
	return ret;
}

static void wqk_param_restore(void *arg)
{
	struct wqk_param *wp = arg;

	wqk_param_write(wp->kp, wp->old);
}

void wqk_set_param(struct kunit *test, const char *name, const char *val)
{
	struct wqk_param *wp = kunit_kzalloc(test, sizeof(*wp), GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, wp);
	wp->kp = wqk_find_param(name);
	if (!wp->kp)
		kunit_skip(test, "no parameter workqueue.%s", name);
	wp->old = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wp->old);
	kernel_param_lock(NULL);
	len = wp->kp->ops->get(wp->old, wp->kp);
	kernel_param_unlock(NULL);
	KUNIT_ASSERT_GT(test, len, 0);
	strim(wp->old);
	KUNIT_ASSERT_EQ(test, wqk_param_write(wp->kp, val), 0);
	wqk_defer(test, wqk_param_restore, wp);
}

int wqk_hotplug_victim(struct kunit *test)
{
	int cpu;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	cpu = wqk_last_online_cpu();
	if (!cpu_is_hotpluggable(cpu))
		kunit_skip(test, "CPU %d is not hotpluggable", cpu);
	return cpu;
}

static void wqk_cpu_up_action(void *arg)
{
	int cpu = (long)arg;

	if (!cpu_online(cpu))
		add_cpu(cpu);
}

void wqk_take_cpu_down(struct kunit *test, int cpu)
{
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	wqk_defer(test, wqk_cpu_up_action, (void *)(long)cpu);
}

void wqk_unexclude_cpus(void *unused)
{
	cpumask_var_t none;

	if (!zalloc_cpumask_var(&none, GFP_KERNEL))
		return;
	cpus_read_lock();
	workqueue_unbound_exclude_cpumask(none);
	cpus_read_unlock();
	free_cpumask_var(none);
}

void wqk_exclude_cpus(struct kunit *test, const struct cpumask *cpus)
{
	cpumask_var_t mask;
	int ret;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_copy(mask, cpus);
	cpus_read_lock();
	ret = workqueue_unbound_exclude_cpumask(mask);
	cpus_read_unlock();
	free_cpumask_var(mask);
	KUNIT_ASSERT_EQ(test, ret, 0);
	wqk_defer(test, wqk_unexclude_cpus, NULL);
}

/* A workqueue like wqk_node_slot_held()'s: unbound, one pwq per CPU. */
static struct workqueue_struct *wqk_cpu_scope_wq(struct kunit *test, int max_active)
{
	struct workqueue_struct *wq = wqk_wq_new(test, WQ_UNBOUND, max_active);
	struct workqueue_attrs *attrs = wqk_attrs_new(test);

	attrs->affn_scope = WQ_AFFN_CPU;
	KUNIT_ASSERT_EQ(test, apply_workqueue_attrs(wq, attrs), 0);
	return wq;
}

struct workqueue_struct *wqk_node_slot_held(struct kunit *test,
					    int *a, int *b,
					    struct wqk_probe **hold)
{
	struct workqueue_struct *wq;
	int cpu;

	*a = *b = -1;
	for_each_online_cpu(cpu) {
		if (*a < 0)
			*a = cpu;
		else if (*b < 0 && cpu_to_node(cpu) == cpu_to_node(*a))
			*b = cpu;
	}
	if (*b < 0)
		kunit_skip(test, "needs two online CPUs on one NUMA node");
	wq = wqk_cpu_scope_wq(test, 1);
	*hold = wqk_gated_probe(test, NULL);
	queue_work_on(*a, wq, &(*hold)->work);
	WQK_WAIT(test, &(*hold)->started);
	return wq;
}

void wqk_kick_cpu_scope_pool(struct kunit *test, int cpu)
{
	struct workqueue_struct *other = wqk_cpu_scope_wq(test, 0);
	struct wqk_probe *p = wqk_probe_new(test, NULL);

	queue_work_on(cpu, other, &p->work);
	WQK_WAIT(test, &p->finished);
}

void wqk_ordered_requeue_behind_rebuild(struct kunit *test,
					struct workqueue_struct *wq,
					struct wqk_probe *a)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs to exclude one");
	queue_work(wq, &a->work);
	WQK_WAIT(test, &a->started);
	wqk_exclude_cpus(test, cpumask_of(wqk_last_online_cpu()));
	KUNIT_ASSERT_TRUE(test, queue_work(wq, &a->work));
}

/* ------------------------------------------------------------------ */
/* 4. threads and waiters                                              */
/* ------------------------------------------------------------------ */

static int wqk_thread_main(void *arg)
{
	struct wqk_thread *th = arg;

	WRITE_ONCE(th->running, true);
	th->fn(th);
	complete(&th->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void wqk_thread_stop(void *arg)
{
	struct wqk_thread *th = arg;

	kthread_stop(th->task);
	put_task_struct(th->task);
}

struct wqk_thread *wqk_thread_run(struct kunit *test,
				  void (*fn)(struct wqk_thread *),
				  void *data, int index, int cpu)
{
	struct wqk_thread *th = kunit_kzalloc(test, sizeof(*th), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, th);
	th->fn = fn;
	th->data = data;
	th->index = index;
	init_completion(&th->done);
	if (cpu >= 0)
		th->task = kthread_create_on_cpu(wqk_thread_main, th, cpu,
						 "wqk_thread/%u");
	else
		th->task = kthread_create(wqk_thread_main, th, "wqk_thread");
	KUNIT_ASSERT_FALSE(test, IS_ERR(th->task));
	get_task_struct(th->task);
	wqk_defer(test, wqk_thread_stop, th);
	wake_up_process(th->task);
	return th;
}

bool wqk_wait_blocked(struct wqk_thread *th)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (time_before(jiffies, deadline)) {
		if (READ_ONCE(th->running) && !completion_done(&th->done) &&
		    (READ_ONCE(th->task->__state) & TASK_UNINTERRUPTIBLE))
			return true;
		usleep_range(1000, 2000);
	}
	return false;
}

#if defined(WQ_HAS_WAIT_PI) || defined(WQ_HAS_HISTOGRAMS)
void wqk_queue_for(enum wqk_wait_op op, struct workqueue_struct *wq,
		   struct wqk_probe *p, int cpu)
{
	switch (op) {
	case WQK_FLUSH_DELAYED:
	case WQK_CANCEL_DELAYED_SYNC:
	case WQK_DISABLE_DELAYED_SYNC:
		queue_delayed_work_on(cpu, wq, &p->dwork, 0);
		break;
	case WQK_FLUSH_RCU:
		queue_rcu_work(wq, &p->rwork);
		break;
#ifdef WQ_HAS_PRECISE_WORK
	case WQK_FLUSH_PRECISE:
	case WQK_CANCEL_PRECISE_SYNC:
	case WQK_DISABLE_PRECISE_SYNC:
		queue_precise_work_on(cpu, wq, &p->pw, 0, 0);
		break;
#endif
	default:
		queue_work_on(cpu, wq, &p->work);
	}
}
#endif

bool wqk_wait_call(enum wqk_wait_op op, struct workqueue_struct *wq,
		   struct wqk_probe *p)
{
	switch (op) {
	case WQK_FLUSH_WORKQUEUE:
		flush_workqueue(wq);
		return true;
	case WQK_FLUSH_WORK:
		return flush_work(&p->work);
	case WQK_FLUSH_DELAYED:
		return flush_delayed_work(&p->dwork);
	case WQK_CANCEL_SYNC:
		return cancel_work_sync(&p->work);
	case WQK_CANCEL_DELAYED_SYNC:
		return cancel_delayed_work_sync(&p->dwork);
	case WQK_DISABLE_SYNC:
		return disable_work_sync(&p->work);
	case WQK_DRAIN:
		drain_workqueue(wq);
		return true;
	case WQK_FLUSH_RCU:
		return flush_rcu_work(&p->rwork);
	case WQK_DISABLE_DELAYED_SYNC:
		return disable_delayed_work_sync(&p->dwork);
#ifdef WQ_HAS_PRECISE_WORK
	case WQK_FLUSH_PRECISE:
		return flush_precise_work(&p->pw);
	case WQK_CANCEL_PRECISE_SYNC:
		return cancel_precise_work_sync(&p->pw);
	case WQK_DISABLE_PRECISE_SYNC:
		return disable_precise_work_sync(&p->pw);
#endif
	}
	return false;
}

void wqk_waiter_fn(struct wqk_thread *th)
{
	struct wqk_waiter *w = th->data;

	if (w->set_prio && WARN_ON(wqk_set_prio(w->policy, w->prio)))
		return;
	w->ret = wqk_wait_call(w->op, w->wq, w->p);
	if (w->p)
		w->probe_finished = completion_done(&w->p->finished);
}

struct wqk_waiter *wqk_waiter_start(struct kunit *test,
				    enum wqk_wait_op op,
				    struct workqueue_struct *wq,
				    struct wqk_probe *p)
{
	struct wqk_waiter *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->op = op;
	w->wq = wq;
	w->p = p;
	w->th = wqk_thread_run(test, wqk_waiter_fn, w, 0, -1);
	KUNIT_ASSERT_TRUE_MSG(test, wqk_wait_blocked(w->th),
			      "waiter returned without waiting");
	KUNIT_EXPECT_FALSE(test, completion_done(&w->th->done));
	return w;
}

/* ------------------------------------------------------------------ */
/* 5. logs and dumps                                                   */
/* ------------------------------------------------------------------ */

KUNIT_DEFINE_ACTION_WRAPPER(wqk_kvfree_action, kvfree, const void *);

/* Drop a "[time] " prefix at @line, if there is one. */
static void wqk_log_unstamp(char *line)
{
	char *end = line[0] == '[' ? strstr(line, "] ") : NULL;

	if (end)
		memmove(line, end + 2, strlen(end + 2) + 1);
}

/*
 * Trailing newlines and the "[time] " prefixes off a record, also those
 * of the lines of a multi-line record after its first.
 */
static void wqk_log_chomp(char *line, size_t len)
{
	char *nl = line;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	wqk_log_unstamp(line);
	while ((nl = strchr(nl, '\n')))
		wqk_log_unstamp(++nl);
}

struct wqk_log *wqk_log_of(struct kunit *test, void (*dump)(void *),
			   void *arg)
{
	struct kmsg_dump_iter iter = { };
	struct wqk_log *log = kvzalloc(sizeof(*log), GFP_KERNEL);
	char marker[48], *buf;
	bool seen = false;
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, log);
	wqk_defer(test, wqk_kvfree_action, log);
	buf = log->next;
	snprintf(marker, sizeof(marker), "wqk: dump %08x follows",
		 get_random_u32());
	pr_info("%s\n", marker);
	dump(arg);
	kmsg_dump_rewind(&iter);
	while (log->nr < WQK_LOG_LINES &&
	       kmsg_dump_get_line(&iter, false, buf, WQK_LOG_LEN, &len)) {
		buf[min(len, WQK_LOG_LEN - 1)] = '\0';
		if (seen) {
			wqk_log_chomp(buf, strlen(buf));
			strscpy(log->line[log->nr++], buf, WQK_LOG_LEN);
		}
		seen |= !!strstr(buf, marker);
	}
	KUNIT_ASSERT_TRUE_MSG(test, seen, "marker not found in the log");
	return log;
}

const char *wqk_log_line_after(struct kunit *test, struct wqk_log *log,
			       const char *after, const char *prefix)
{
	int i = 0;

	while (after && i < log->nr && !str_has_prefix(log->line[i], after))
		i++;
	for (i += !!after; i < log->nr; i++)
		if (str_has_prefix(log->line[i], prefix))
			return log->line[i];
	KUNIT_FAIL(test, "no line starting with \"%s\" after \"%s\" in %d lines",
		   prefix, after ?: "", log->nr);
	return "";
}

const char *wqk_log_line(struct kunit *test, struct wqk_log *log,
			 const char *prefix)
{
	return wqk_log_line_after(test, log, NULL, prefix);
}

void wqk_show_one(void *wq)
{
	show_one_workqueue(wq);
}

void wqk_show_all(void *unused)
{
	show_all_workqueues();
}

int wqk_pwq_line_pool(const char *line)
{
	int id;

	return sscanf(line, " pwq %d:", &id) == 1 ? id : -1;
}

int wqk_cpu_pool_id(int cpu, int kind)
{
	return cpu * 4 + kind;
}

#ifdef WQ_HAS_RT_CLASS
/*
 * The ID of @cpu's real-time pool: the RT pools come after the four pools
 * of every possible CPU, in CPU order (workqueue_init_early()).
 */
static int wqk_rt_pool_id(int cpu)
{
	int other, before = 0;

	for_each_possible_cpu(other)
		before += other < cpu;
	return 4 * num_possible_cpus() + before;
}
#endif

/* A pool held up on purpose until the watchdog reports it. */
struct wqk_stall {
	struct workqueue_struct *wq;
	struct wqk_probe *hog;
	struct wqk_probe *next;
	int cpu;
	bool reported;
	char report[128];	/* the start of the report's line */
	char hog_line[32];	/* the line before the hog's stack */
	char line[WQK_LOG_LEN];
};

/*
 * Whether the watchdog's report is complete: the line that introduces the
 * hog's stack, printed after the report line and the dump, has been
 * printed since @since (us).
 */
static bool wqk_stall_reported(struct wqk_stall *st, u64 since)
{
	struct kmsg_dump_iter iter = { };
	size_t len;

	kmsg_dump_rewind(&iter);
	while (kmsg_dump_get_line(&iter, false, st->line, WQK_LOG_LEN, &len)) {
		unsigned long sec, usec;
		bool recent;

		st->line[min(len, WQK_LOG_LEN - 1)] = '\0';
		recent = sscanf(st->line, "[%lu.%lu]", &sec, &usec) == 2 &&
			 sec * USEC_PER_SEC + usec >= since;
		wqk_log_chomp(st->line, strlen(st->line));
		if (recent && !strcmp(st->line, st->hog_line))
			return true;
	}
	return false;
}

/* Hold the CPU without sleeping until the watchdog's report is complete. */
static void wqk_hog_until_reported(struct wqk_probe *p)
{
	struct wqk_stall *st = p->data;
	u64 since = div_u64(local_clock(), NSEC_PER_USEC);
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (!READ_ONCE(p->stop) && time_before(jiffies, deadline) &&
	       !st->reported) {
		mdelay(20);
		cond_resched();
		st->reported = wqk_stall_reported(st, since);
	}
}

static void wqk_stall_pool(void *arg)
{
	struct wqk_stall *st = arg;

	pr_info(WQK_EXPECTED_LOCKUP_BEGIN);
	queue_work_on(st->cpu, st->wq, &st->hog->work);
	if (wait_for_completion_timeout(&st->hog->started, WQK_TIMEOUT))
		queue_work_on(st->cpu, st->wq, &st->next->work);
	wait_for_completion_timeout(&st->hog->finished, 2 * WQK_TIMEOUT);
	flush_work(&st->next->work);
	pr_info(WQK_EXPECTED_LOCKUP_END);
}

/* Touch the softlockup (and so the workqueue) watchdog of this CPU. */
static void wqk_touch_until_reported(struct wqk_thread *th)
{
	struct wqk_stall *st = th->data;
	unsigned long deadline = jiffies + 2 * WQK_TIMEOUT;

	while (!READ_ONCE(st->reported) && time_before(jiffies, deadline)) {
		touch_softlockup_watchdog();
		msleep(20);
	}
}

void wqk_expect_stall_report(struct kunit *test, int toucher_cpu,
			     unsigned int flags)
{
	struct wqk_stall *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	const char *line, *dump, *hogs, *tail;
	unsigned int secs = 0;
	struct wqk_log *log;
	char what[32];
	int node, i, id;

	KUNIT_ASSERT_NOT_NULL(test, st);
	wqk_set_param(test, "watchdog_thresh", "1");
	wqk_set_param(test, "cpu_intensive_thresh_us", "60000000");
	st->wq = wqk_wq_new(test, flags, 0);
	st->hog = wqk_probe_new(test, NULL);
	st->next = wqk_probe_new(test, NULL);
	st->cpu = wqk_last_online_cpu();
	st->hog->data = st;
	st->hog->hook = wqk_hog_until_reported;
	id = wqk_cpu_pool_id(st->cpu, 2);
	/* flags=0x0 nice=0; the RT pool's flags are its own */
	snprintf(what, sizeof(what), "flags=0x0 nice=0");
#ifdef WQ_HAS_RT_CLASS
	if (flags & WQ_RT) {
		id = wqk_rt_pool_id(st->cpu);
		snprintf(what, sizeof(what), "fifo=%d", wq_rt_prio);
	}
#endif
	snprintf(st->hog_line, sizeof(st->hog_line), "pool %d:", id);
	node = cpu_to_node(st->cpu);
	if (node == NUMA_NO_NODE)
		snprintf(st->report, sizeof(st->report),
			 "BUG: workqueue lockup - pool cpus=%d flags=", st->cpu);
	else
		snprintf(st->report, sizeof(st->report),
			 "BUG: workqueue lockup - pool cpus=%d node=%d flags=",
			 st->cpu, node);
	if (toucher_cpu >= 0)
		wqk_thread_run(test, wqk_touch_until_reported, st, 0,
			       toucher_cpu);

	log = wqk_log_of(test, wqk_stall_pool, st);
	line = wqk_log_line(test, log, "BUG: workqueue lockup - pool");
	/* then, in 6.12's order, the dump and the stacks of the hogs */
	dump = wqk_log_line(test, log, "Showing busy workqueues and worker pools:");
	hogs = wqk_log_line(test, log,
			    "Showing backtraces of running workers in stalled CPU-bound worker pools:");
	KUNIT_EXPECT_TRUE(test, line < dump && dump < hogs);
	for (i = 0; i < log->nr && strcmp(log->line[i], st->hog_line); i++)
		;
	KUNIT_EXPECT_TRUE_MSG(test, i < log->nr && hogs < log->line[i],
			      "no \"%s\" after the hogs' heading", st->hog_line);
	KUNIT_EXPECT_TRUE(test, st->reported);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(line, st->report), "%s", line);
	/* "flags=0x0 nice=0 stuck for Ns!", or "flags=0x.. fifo=N stuck ..." */
	tail = strstr(line, " stuck for ");
	KUNIT_EXPECT_TRUE_MSG(test, tail && tail - strlen(what) > line &&
			      !strncmp(tail - strlen(what), what, strlen(what)),
			      "no \"%s stuck for\" in: %s", what, line);
	if (tail)
		sscanf(tail + strlen(" stuck for "), "%us!", &secs);
	KUNIT_EXPECT_GE_MSG(test, secs, 1U, "%s", line);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->next->runs), 1);
}

/* ------------------------------------------------------------------ */
/* 6. rescuers                                                         */
/* ------------------------------------------------------------------ */

#ifdef WQ_HAS_WORKER_CREATION_FAULT
void wqk_creation_fault_off(void *unused)
{
	wq_fail_worker_creation(false);
}

void wqk_starve_pool(struct kunit *test, int cpu, unsigned int flags)
{
	struct workqueue_struct *plain = wqk_wq_new(test, flags, 0);
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i, started;

	wq_fail_worker_creation(true);
	wqk_defer(test, wqk_creation_fault_off, NULL);
	for (i = 0; i < WQK_RESCUE_BLOCKERS; i++)
		queue_work_on(cpu, plain, &wqk_gated_probe(test, t)->work);
	do {
		started = atomic_read(&t->started);
		msleep(WQK_SETTLE_MS);
	} while (started != atomic_read(&t->started));
	if (started == WQK_RESCUE_BLOCKERS)
		kunit_skip(test, "the pool had %d idle workers or more", started);
}

void wqk_queue_rescued(struct kunit *test, struct workqueue_struct *wq,
		       int cpu, struct wqk_probe **ps)
{
	struct wqk_tracker *t = wqk_tracker_new(test);
	int i;

	for (i = 0; i < WQK_RESCUED; i++) {
		ps[i] = wqk_probe_new(test, t);
		ps[i]->sleep_ms = 5;
		queue_work_on(cpu, wq, &ps[i]->work);
	}
	WQK_WAIT_FINISHED(test, t, WQK_RESCUED);
}
#endif

/* ------------------------------------------------------------------ */
/* 7. the real-time class and priority inheritance                     */
/* ------------------------------------------------------------------ */

#if defined(WQ_HAS_RT_CLASS) || defined(WQ_HAS_WAIT_PI)
static void wqk_turn_hook(struct wqk_probe *p)
{
	struct wqk_turn *t = p->data;

	t->saw = atomic_fetch_inc(t->next);
}

void wqk_turns_new(struct kunit *test, struct wqk_tracker *t,
		   struct wqk_probe **ps, struct wqk_turn *turns,
		   atomic_t *next, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		turns[i] = (struct wqk_turn){ .next = next, .saw = -1 };
		ps[i] = wqk_probe_new(test, t);
		ps[i]->hook = wqk_turn_hook;
		ps[i]->data = &turns[i];
	}
}

bool wqk_rank_is(int policy, int rt_priority, int nice,
		 int want_policy, int want)
{
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;

	return policy == want_policy && (rt ? rt_priority : nice) == want;
}

bool wqk_task_reaches(struct task_struct *task, int policy, int prio)
{
	unsigned long deadline = jiffies + WQK_TIMEOUT;

	while (time_before(jiffies, deadline)) {
		if (wqk_rank_is(READ_ONCE(task->policy), READ_ONCE(task->rt_priority),
				task_nice(task), policy, prio))
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

void wqk_rt_hog_hook(struct wqk_probe *p)
{
	unsigned long until = jiffies + msecs_to_jiffies(WQK_RT_HOG_MS);
	bool *told = p->data;

	while (!READ_ONCE(p->stop) && time_before(jiffies, until))
		cpu_relax();
	*told = READ_ONCE(p->stop);
}

void wqk_queue_all(struct workqueue_struct *wq, int cpu,
		   struct wqk_probe **ps, int n)
{
	int i;

	for (i = 0; i < n; i++)
		queue_work_on(cpu, wq, &ps[i]->work);
}
#endif

MODULE_DESCRIPTION("KUnit conformance suite for workqueues");
MODULE_LICENSE("GPL");
