// SPDX-License-Identifier: GPL-2.0
/*
 * workqueue_stress: random queue, cancel and flush from racing
 * threads, each item run exactly once per queue not undone by a cancel;
 * workqueues allocated while the unbound cpumask changes.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/random.h>

#include "probes.h"

#define WQK_STRESS_ITEMS	24
#define WQK_STRESS_OPS		1500

/**
 * struct wqk_stress_item - one item raced on by the stress threads
 * @dwork: the item, queued both directly and with a delay
 * @wq: the one workqueue it is ever queued on
 * @expected: successful queues minus successful cancels
 * @ran: executions
 *
 * Every queue that returns true and is not undone by a cancel that returns
 * true must be matched by exactly one execution.
 */
struct wqk_stress_item {
	struct delayed_work dwork;
	struct workqueue_struct *wq;
	atomic_t expected;
	atomic_t ran;
};

static void wqk_stress_fn(struct work_struct *work)
{
	struct wqk_stress_item *it = container_of(to_delayed_work(work),
						  struct wqk_stress_item, dwork);

	if (atomic_inc_return(&it->ran) % 4 == 0)
		usleep_range(10, 50);
}

static int wqk_random_cpu(void)
{
	int cpu = cpumask_nth(get_random_u32_below(num_online_cpus()),
			      cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/* One random operation on @it, keeping its books. */
static void wqk_stress_op(struct wqk_stress_item *it)
{
	unsigned long delay = get_random_u32_below(3);
	int cpu = wqk_random_cpu();

	switch (get_random_u32_below(12)) {
	case 0 ... 3:
		if (queue_work_on(cpu, it->wq, &it->dwork.work))
			atomic_inc(&it->expected);
		break;
	case 4:
		if (queue_delayed_work_on(cpu, it->wq, &it->dwork, delay))
			atomic_inc(&it->expected);
		break;
	case 5:
		/*
		 * Not mod_delayed_work_on(): it returns false both when it
		 * queued an idle item and when it found the item disabled by
		 * a racing cancel_delayed_work_sync(), so it cannot be
		 * booked.
		 */
		if (queue_delayed_work_on(cpu, it->wq, &it->dwork, 0))
			atomic_inc(&it->expected);
		break;
	case 6 ... 7:
		if (cancel_delayed_work(&it->dwork))
			atomic_dec(&it->expected);
		break;
	case 8:
		if (cancel_delayed_work_sync(&it->dwork))
			atomic_dec(&it->expected);
		break;
	case 9:
		flush_delayed_work(&it->dwork);
		break;
	case 10:
		flush_work(&it->dwork.work);
		break;
	default:
		if (get_random_u32_below(8) == 0)
			flush_workqueue(it->wq);
		break;
	}
}

static void wqk_stress_thread(struct wqk_thread *th)
{
	struct wqk_stress_item *items = th->data;
	int i;

	for (i = 0; i < WQK_STRESS_OPS; i++) {
		wqk_stress_op(&items[get_random_u32_below(WQK_STRESS_ITEMS)]);
		if (i % 16 == 0)
			cond_resched();
	}
}

static void wqk_stress_cleanup(void *arg)
{
	struct wqk_stress_item *items = arg;
	int i;

	for (i = 0; i < WQK_STRESS_ITEMS; i++)
		cancel_delayed_work_sync(&items[i].dwork);
}

static void racing_queue_cancel_flush_runs_each_item_exactly_once(struct kunit *test)
{
	struct workqueue_struct *wqs[] = {
		wqk_wq_new(test, 0, 0),
		wqk_wq_new(test, WQ_UNBOUND, 0),
		wqk_wq_new(test, WQ_HIGHPRI, 0),
		wqk_ordered_new(test),
	};
	struct wqk_stress_item *items;
	struct wqk_thread *ths[NR_CPUS];
	int i, cpu, n = 0;

	items = kunit_kcalloc(test, WQK_STRESS_ITEMS, sizeof(*items), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	for (i = 0; i < WQK_STRESS_ITEMS; i++) {
		INIT_DELAYED_WORK(&items[i].dwork, wqk_stress_fn);
		items[i].wq = wqs[i % ARRAY_SIZE(wqs)];
	}
	wqk_defer(test, wqk_stress_cleanup, items);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ths[n] = wqk_thread_run(test, wqk_stress_thread, items, n, cpu);
		n++;
	}
	cpus_read_unlock();
	for (i = 0; i < n; i++)
		WQK_WAIT(test, &ths[i]->done);

	for (i = 0; i < WQK_STRESS_ITEMS; i++)
		flush_delayed_work(&items[i].dwork);
	for (i = 0; i < ARRAY_SIZE(wqs); i++)
		flush_workqueue(wqs[i]);
	for (i = 0; i < WQK_STRESS_ITEMS; i++) {
		KUNIT_EXPECT_FALSE(test, delayed_work_pending(&items[i].dwork));
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&items[i].ran),
				    atomic_read(&items[i].expected), "item %d", i);
	}
}

#define WQK_ALLOC_RACE_ROUNDS	60

struct wqk_alloc_race {
	int victim;
	struct completion go;
	bool allowed_victim;
};

/* At a random moment of the allocation: exclude the victim from unbound work. */
static void wqk_exclude_victim_soon(struct wqk_thread *th)
{
	struct wqk_alloc_race *r = th->data;
	cpumask_var_t mask;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	cpumask_set_cpu(r->victim, mask);
	wait_for_completion(&r->go);
	udelay(get_random_u32_below(3000));
	cpus_read_lock();
	workqueue_unbound_exclude_cpumask(mask);
	cpus_read_unlock();
	free_cpumask_var(mask);
}

/* The executing worker may be put on the victim CPU. */
static void wqk_note_victim_allowed(struct wqk_probe *p)
{
	struct wqk_alloc_race *r = p->data;

	if (cpumask_test_cpu(r->victim, current->cpus_ptr))
		WRITE_ONCE(r->allowed_victim, true);
}

/* Whether an item of @wq, queued from each online CPU, may run on the victim. */
static bool wqk_wq_may_use_victim(struct kunit *test,
				  struct workqueue_struct *wq,
				  struct wqk_alloc_race *r)
{
	int cpu;

	WRITE_ONCE(r->allowed_victim, false);
	for_each_online_cpu(cpu) {
		struct wqk_probe *p = wqk_probe_new(test, NULL);

		p->data = r;
		p->hook = wqk_note_victim_allowed;
		queue_work_on(cpu, wq, &p->work);
		if (!wait_for_completion_timeout(&p->finished, WQK_TIMEOUT))
			return true;
		if (p->cpu == r->victim)
			return true;
	}
	return READ_ONCE(r->allowed_victim);
}

/*
 * An unbound workqueue allocated while the unbound cpumask changes (as a
 * cpuset partition changes it) ends up with the new mask, wherever in the
 * allocation the change falls: none is set up with the old mask and left
 * out of the update.  Each round excludes a CPU from unbound work at a
 * random moment of an alloc_workqueue(); no worker of the new workqueue
 * may then run there.
 */
static void alloc_during_cpumask_change_gets_the_new_mask(struct kunit *test)
{
	struct wqk_alloc_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	int round, stale = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	r->victim = wqk_last_online_cpu();
	wqk_defer(test, wqk_unexclude_cpus, NULL);
	for (round = 0; round < WQK_ALLOC_RACE_ROUNDS; round++) {
		struct workqueue_struct *wq;
		struct wqk_thread *th;

		init_completion(&r->go);
		th = wqk_thread_run(test, wqk_exclude_victim_soon, r, round,
				    cpumask_first(cpu_online_mask));
		complete(&r->go);
		wq = alloc_workqueue("wqk_race%d", WQ_UNBOUND, 0, round);
		KUNIT_ASSERT_NOT_NULL(test, wq);
		WQK_WAIT(test, &th->done);
		if (wqk_wq_may_use_victim(test, wq, r))
			stale++;
		destroy_workqueue(wq);
		wqk_unexclude_cpus(NULL);
	}
	KUNIT_EXPECT_EQ_MSG(test, stale, 0,
			    "%d of %d workqueues kept CPU %d after its exclusion",
			    stale, WQK_ALLOC_RACE_ROUNDS, r->victim);
}

static struct kunit_case wqk_stress_cases[] = {
	KUNIT_CASE_SLOW(racing_queue_cancel_flush_runs_each_item_exactly_once),
	KUNIT_CASE_SLOW(alloc_during_cpumask_change_gets_the_new_mask),
	{}
};

static struct kunit_suite wqk_stress_suite = {
	.name = "workqueue_stress",
	.test_cases = wqk_stress_cases,
};

kunit_test_suites(&wqk_stress_suite);
