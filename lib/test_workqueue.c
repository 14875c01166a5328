// SPDX-License-Identifier: GPL-2.0
/*
 * test_workqueue: load and measurement module for workqueues.
 *
 * Scenarios print their results on the console as one JSON object per
 * line after the tag "TWQ-RESULT ": {"name": ..., "unit": ..., "value": N}
 * or, for distributions, {"name": ..., "unit": ..., "part": K, "hist":
 * [[low, count], ...]} (log2 buckets split in four, long ones in parts).
 * "TWQ-BEGIN name" and "TWQ-DONE name ms" frame each scenario and
 * "TWQ-END" closes a run.  Every scenario runs a fixed amount of work with
 * timeouts, so it stops by itself.
 *
 *   perfwq      the perf-wq workloads 0-5 of the 2010 cmwq overview (short,
 *               medium and long self-requeueing works on legacy
 *               workqueues) beside a fixed CPU-bound competing job
 *   latency     queue-to-start latency per workqueue kind, and of a
 *               SCHED_FIFO kthread_worker, with 0, 1 and 2 nice-0 CPU hogs
 *               per CPU
 *   throughput  items per second and queue_work() cost by path (item
 *               active or left inactive), 1/2/4 queuers, each queuing
 *               batches and woken by the last item of each
 *   flush       cost of flush_work(), flush_workqueue() (the wait, and
 *               the round trip from before queueing) and
 *               schedule_on_each_cpu()
 *   delay       lateness of delayed work, 1 to 100 ms, beside a bare
 *               timer_list's, queued at random phases of the tick; where
 *               the kernel has it, of precise delayed work, 100 us to
 *               5 ms, with 0 and 2 hogs per CPU; timer interrupts per
 *               second while idle with items pending
 *   inversion   a nice-0 task waiting for nice-19 CPU-bound items
 *               (flush_workqueue(), flush_work()) beside nice-0 hogs: time
 *               to completion, mean of 40 repeats
 *   rcu_exp     synchronize_rcu_expedited() latency with 0, 1 and 2 hogs
 *               per CPU, and with an RT thread or per-CPU items holding
 *               the caller's CPU; the real-time threads each kernel keeps
 *   footprint   kworkers, kernel stacks and unreclaimable slab, after boot,
 *               after each scenario and after the idle timeout
 *
 * Interface, under /sys/kernel/debug/test_workqueue/:
 *   run      write "SCENARIO... [scale=tiny|quick|full] [idle_wait_s=N]
 *            [kind=K]... [queuers=N]" ("all" for every scenario; kind=
 *            limits the latency and throughput scenarios to the workqueue
 *            kinds named, e.g. kind=unbound; queuers= the throughput
 *            scenario to runs of at most N queuers, e.g. 1 for the scale
 *            scenario); returns when the run is over.
 *            The module parameter "run" takes the same string at load.
 *   churn    write "start"; reading stops it and reports
 *            "queued=N ran=N mismatched=N": items kept queued on random
 *            online CPUs, for the CPU hotplug selftest.
 *   freezer  write "arm"; read the outcome of the next suspend cycle: a
 *            delayed item on a freezable and on a plain workqueue (and on
 *            a WQ_RT one of each, where the kernel has WQ_RT), timed to
 *            fire while tasks are frozen, and one that asks for an
 *            expedited RCU grace period then.
 *   rt       write "create": a WQ_RT | WQ_SYSFS workqueue, twq_rt, for the
 *            sysfs selftest (EOPNOTSUPP without WQ_RT); read: its name.
 *   timer    write "arm": a delayed item an hour ahead on system_wq from
 *            the writer's CPU; read: "from=CPU timer=CPU", the CPU whose
 *            timer base holds its timer (the isolation selftest).
 *   hist     write "slow": twice an item that sleeps 20 ms on twq_percpu,
 *            for the histogram selftest; read: "twq_percpu read=RET
 *            zeroed=0|1", workqueue_hist_read() of its running histogram.
 *   grow     write "grow": 8 items that sleep 50 ms at once on system_wq
 *            on the writer's CPU, which grows that CPU's pool; read:
 *            "cpu=CPU" (the isolation selftest's culled workers).
 *   rcu      write "exp": three expedited RCU grace periods asked for from
 *            the writer's CPU; read: "cpu=CPU" (the isolation selftest).
 * While loaded it keeps two WQ_SYSFS workqueues for the sysfs selftest,
 * twq_unbound (WQ_UNBOUND) and twq_percpu.
 *
 * Built in (the harness configurations), it also measures what needs
 * symbols not exported to modules (schedule_on_each_cpu(),
 * apply_workqueue_attrs(), nr_context_switches()); as a module those
 * results are left out and the run says so.
 *
 * Map of this file:
 *   1. results: JSON lines, samples, statistics, histograms
 *   2. helpers: thread sets, CPU hogs, footprint counters
 *   3. selftest hooks: churn, freezer
 *   4. perfwq   5. latency   6. throughput   7. flush   8. delay
 *   9. inversion   10. rcu_exp   11. footprint
 *  12. runner, debugfs and module glue
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/freezer.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched/cputime.h>
#include <linux/sched/signal.h>
#include <uapi/linux/sched/types.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/suspend.h>
#include <linux/uaccess.h>
#include <linux/vmstat.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#ifdef WQ_HAS_PRECISE_WORK
#include <linux/workqueue_precise.h>
#endif
#ifdef WQ_HAS_HISTOGRAMS
#include <linux/workqueue_hist.h>
#endif
#include <trace/events/workqueue.h>

#define TWQ_TAG			"TWQ-RESULT "
#define TWQ_HIST_PER_LINE	24
#define TWQ_WAIT		(60 * HZ)	/* a stuck step gives up */

static DEFINE_MUTEX(twq_mutex);		/* one debugfs command at a time */

/**
 * struct twq_scale - how much work each scenario does
 * @name: tiny (smoke test), quick (default benchmark) or full
 * @perfwq_ms: nominal duration of one perf-wq workload
 * @perfwq_job_loops: iterations of the competing job, per CPU
 * @workloads: bit mask of the perf-wq workloads to run
 * @burns: perf-wq burn lengths to run: 1 = L (50 us), 2 = S (1-4 us)
 * @lat_n: latency samples per queuer (one queuer per CPU)
 * @tp_n: items each throughput queuer queues
 * @flush_n: calls per flush measurement
 * @delay_n: samples per delay
 * @inv_chunks: CPU-bound chunks of the inversion scenario
 * @inv_repeats: repeats of each inversion measurement per run
 * @rcu_n: synchronize_rcu_expedited() calls per hog level
 */
struct twq_scale {
	const char *name;
	unsigned int perfwq_ms;
	unsigned long perfwq_job_loops;
	unsigned int workloads;
	unsigned int burns;
	unsigned int lat_n;
	unsigned int tp_n;
	unsigned int flush_n;
	unsigned int delay_n;
	unsigned int inv_chunks;
	unsigned int inv_repeats;
	unsigned int rcu_n;
};

static const struct twq_scale twq_scales[] = {
	{ "tiny", 100, 200000, 0x21, 1, 20, 500, 20, 2, 2, 2, 5 },
	{ "quick", 1500, 60000000, 0x3f, 3, 600, 50000, 200, 100, 16, 40, 1000 },
	{ "full", 6000, 240000000, 0x3f, 3, 2000, 200000, 1000, 400, 32, 80, 1000 },
};

/* ------------------------------------------------------------------ */
/* 1. results                                                          */
/* ------------------------------------------------------------------ */

static __printf(3, 4) void twq_emit(const char *unit, s64 value,
				     const char *fmt, ...)
{
	char name[96];
	va_list args;

	va_start(args, fmt);
	vsnprintf(name, sizeof(name), fmt, args);
	va_end(args);
	pr_info(TWQ_TAG "{\"name\":\"%s\",\"unit\":\"%s\",\"value\":%lld}\n",
		name, unit, value);
}

/**
 * struct twq_samples - values collected concurrently, then sorted
 * @v: the values
 * @cap: room in @v
 * @next: slots taken (may exceed @cap; extra values are dropped)
 */
struct twq_samples {
	s64 *v;
	unsigned int cap;
	atomic_t next;
};

static int twq_samples_init(struct twq_samples *s, unsigned int cap)
{
	s->v = kvcalloc(max(cap, 1U), sizeof(*s->v), GFP_KERNEL);
	s->cap = cap;
	atomic_set(&s->next, 0);
	return s->v ? 0 : -ENOMEM;
}

static void twq_samples_free(struct twq_samples *s)
{
	kvfree(s->v);
	s->v = NULL;
}

static void twq_sample(struct twq_samples *s, s64 v)
{
	unsigned int i = atomic_inc_return(&s->next) - 1;

	if (i < s->cap)
		s->v[i] = v;
}

static unsigned int twq_samples_n(struct twq_samples *s)
{
	return min_t(unsigned int, atomic_read(&s->next), s->cap);
}

static int twq_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* Histogram bucket of @v: four per power of two. */
static unsigned int twq_bucket(s64 v)
{
	unsigned int l;

	if (v < 4)
		return v < 0 ? 0 : v;
	l = ilog2(v);
	return l * 4 + ((v >> (l - 2)) & 3);
}

static s64 twq_bucket_low(unsigned int b)
{
	if (b < 4)
		return b;
	return (s64)(4 + (b & 3)) << (b / 4 - 2);
}

/* Emit the histogram of sorted values @v[0..n), in parts. */
static void twq_emit_hist(const char *name, const char *unit, const s64 *v,
			  unsigned int n)
{
	char buf[TWQ_HIST_PER_LINE * 28 + 8];
	unsigned int i = 0, part = 0;

	while (i < n) {
		int len = 0, in_line = 0;

		while (i < n && in_line < TWQ_HIST_PER_LINE) {
			unsigned int b = twq_bucket(v[i]), c = 0;

			while (i < n && twq_bucket(v[i]) == b) {
				i++;
				c++;
			}
			len += scnprintf(buf + len, sizeof(buf) - len, "%s[%lld,%u]",
					 in_line ? "," : "", twq_bucket_low(b), c);
			in_line++;
		}
		pr_info(TWQ_TAG "{\"name\":\"%s\",\"unit\":\"%s\",\"part\":%u,\"hist\":[%s]}\n",
			name, unit, part++, buf);
	}
}

/*
 * The nearest-rank percentile of sorted @v[0..n), @per_mille of 1000: the
 * smallest value with at least that share of the samples at or below it
 * (rank ceil(n * p), counted from 1).  The p99.9 of 1200 samples is the
 * second largest.
 */
static s64 twq_percentile(const s64 *v, unsigned int n, unsigned int per_mille)
{
	u64 rank = DIV_ROUND_UP_ULL((u64)n * per_mille, 1000);

	return v[clamp_t(u64, rank, 1, n) - 1];
}

/* The samples of @s above @limit. */
static unsigned int twq_count_over(struct twq_samples *s, s64 limit)
{
	unsigned int n = twq_samples_n(s), i, over = 0;

	for (i = 0; i < n; i++)
		over += s->v[i] > limit;
	return over;
}

/*
 * Sort @s and emit NAME.{n,min,p50,p99,p999,max,mean} and NAME's
 * histogram; samples that did not fit are counted as NAME.dropped.
 */
static void twq_emit_stats(struct twq_samples *s, const char *unit,
			   const char *name)
{
	unsigned int n = twq_samples_n(s), i;
	s64 *v = s->v, sum = 0;

	twq_emit("count", n, "%s.n", name);
	if ((unsigned int)atomic_read(&s->next) > s->cap)
		twq_emit("count", atomic_read(&s->next) - s->cap, "%s.dropped",
			 name);
	if (!n)
		return;
	sort(v, n, sizeof(*v), twq_cmp_s64, NULL);
	for (i = 0; i < n; i++)
		sum += v[i];
	twq_emit(unit, v[0], "%s.min", name);
	twq_emit(unit, twq_percentile(v, n, 500), "%s.p50", name);
	twq_emit(unit, twq_percentile(v, n, 990), "%s.p99", name);
	twq_emit(unit, twq_percentile(v, n, 999), "%s.p999", name);
	twq_emit(unit, v[n - 1], "%s.max", name);
	twq_emit(unit, div_s64(sum, n), "%s.mean", name);
	twq_emit_hist(name, unit, v, n);
}

/* ------------------------------------------------------------------ */
/* 2. helpers                                                          */
/* ------------------------------------------------------------------ */

/* A kthread of a scenario: runs @fn, then waits to be stopped. */
struct twq_thread {
	struct task_struct *task;
	int (*fn)(void *data);
	void *data;
	struct completion done;
};

static int twq_thread_main(void *arg)
{
	struct twq_thread *th = arg;

	th->fn(th->data);
	complete(&th->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/**
 * struct twq_threads - the kthreads of one scenario step
 * @th: the threads
 * @n: threads started
 * @cap: room in @th
 */
struct twq_threads {
	struct twq_thread *th;
	unsigned int n;
	unsigned int cap;
};

static int twq_threads_init(struct twq_threads *ts, unsigned int cap)
{
	ts->th = kcalloc(cap, sizeof(*ts->th), GFP_KERNEL);
	ts->n = 0;
	ts->cap = cap;
	return ts->th ? 0 : -ENOMEM;
}

/* Start @fn(@data) on @cpu (any CPU if negative) at @nice. */
static int twq_thread_start(struct twq_threads *ts, int (*fn)(void *),
			    void *data, int cpu, int nice, const char *name)
{
	struct twq_thread *th;

	if (WARN_ON_ONCE(ts->n >= ts->cap))
		return -ENOSPC;
	th = &ts->th[ts->n];
	th->fn = fn;
	th->data = data;
	init_completion(&th->done);
	if (cpu >= 0)
		th->task = kthread_create_on_cpu(twq_thread_main, th, cpu, name);
	else
		th->task = kthread_create(twq_thread_main, th, "%s", name);
	if (IS_ERR(th->task))
		return PTR_ERR(th->task);
	get_task_struct(th->task);
	set_user_nice(th->task, nice);
	wake_up_process(th->task);
	ts->n++;
	return 0;
}

/*
 * Waits of a scenario that timed out.  A scenario's figures rest on every
 * wait having ended in time; the runner reports SCENARIO.timeouts when
 * one did not, and the harness flags the boot's figures.
 */
static atomic_t twq_timeouts;

static void twq_timed_out(void)
{
	atomic_inc(&twq_timeouts);
}

/* Wait until every thread's function returned; false on timeout. */
static bool twq_threads_wait(struct twq_threads *ts)
{
	unsigned int i;

	for (i = 0; i < ts->n; i++) {
		if (!wait_for_completion_timeout(&ts->th[i].done, TWQ_WAIT)) {
			twq_timed_out();
			return false;
		}
	}
	return true;
}

static void twq_threads_stop(struct twq_threads *ts)
{
	unsigned int i;

	for (i = 0; i < ts->n && ts->th; i++) {
		kthread_stop(ts->th[i].task);
		put_task_struct(ts->th[i].task);
	}
	kfree(ts->th);
	ts->th = NULL;
	ts->n = 0;
}

static int twq_nth_online_cpu(unsigned int i)
{
	return cpumask_nth(i % num_online_cpus(), cpu_online_mask);
}

/*
 * CPU work of a fixed size: rounds of a xorshift, a few instructions each.
 * Scenarios burn CPU with it rather than with udelay(): under -icount a
 * delay loop yields its vCPU at every PAUSE, waits for the other vCPUs'
 * turns and lasts far longer than asked (a 50 us udelay() beside busy
 * vCPUs took 2.5 ms), by an amount that varies from boot to boot; a fixed
 * loop costs the same instructions every time.  twq_spin_per_us, measured
 * once at load with the machine quiet, converts microseconds of burn into
 * rounds: under -icount that is a microsecond of instructions.
 */
static unsigned long twq_spin_per_us = 100;
static u64 twq_spin_sink;

static noinline u64 twq_spin(u64 x, unsigned long rounds)
{
	x |= 1;
	while (rounds--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static void __init twq_spin_calibrate(void)
{
	unsigned long best = ULONG_MAX, i;
	const unsigned long rounds = 100000;

	for (i = 0; i < 5; i++) {
		u64 t0 = ktime_get_ns();

		WRITE_ONCE(twq_spin_sink, twq_spin(t0, rounds));
		best = min_t(unsigned long, best, ktime_get_ns() - t0);
	}
	twq_spin_per_us = max(1UL, rounds * NSEC_PER_USEC / max(best, 1UL));
	pr_info("burns: %lu rounds of the spin loop per microsecond\n",
		twq_spin_per_us);
}

/* Burn @us microseconds' worth of CPU work, preemptible between slices. */
static void twq_burn_us(unsigned int us)
{
	u64 x = current->pid;

	while (us) {
		unsigned int step = min(us, 100U);

		x = twq_spin(x, step * twq_spin_per_us);
		us -= step;
		cond_resched();
	}
	WRITE_ONCE(twq_spin_sink, x);
}

/* A nice-0 CPU hog: spins until stopped, yielding only when asked to. */
static int twq_hog_fn(void *data)
{
	while (!kthread_should_stop()) {
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/*
 * The same without PAUSE: cpu_relax() makes QEMU end the translation block
 * and, under -icount, pass to the next vCPU, so a vCPU full of PAUSE hogs
 * runs several times slower on the host.  For scenarios that run long
 * beside hogs and do not time single wakeups.
 */
static int twq_spin_hog_fn(void *data)
{
	u64 x = current->pid;

	while (!kthread_should_stop()) {
		x = twq_spin(x, 1000);
		cond_resched();
	}
	WRITE_ONCE(twq_spin_sink, x);
	return 0;
}

/* Start @per_cpu hogs on each CPU of @cpus (stopped with kthread_stop()). */
static int twq_hogs_start_on(struct twq_threads *ts, const struct cpumask *cpus,
			     unsigned int per_cpu, int (*fn)(void *data))
{
	unsigned int cpu, i;
	int ret;

	ret = twq_threads_init(ts, max(per_cpu * cpumask_weight(cpus), 1U));
	if (ret)
		return ret;
	for_each_cpu(cpu, cpus) {
		for (i = 0; i < per_cpu; i++) {
			struct task_struct *t;

			t = kthread_create_on_cpu(fn, NULL, cpu, "twq_hog/%u");
			if (IS_ERR(t))
				return PTR_ERR(t);
			get_task_struct(t);
			set_user_nice(t, 0);
			wake_up_process(t);
			ts->th[ts->n++].task = t;
		}
	}
	return 0;
}

/* Start @per_cpu hogs on every online CPU (stopped with kthread_stop()). */
static int twq_hogs_start(struct twq_threads *ts, unsigned int per_cpu,
			  int (*fn)(void *data))
{
	return twq_hogs_start_on(ts, cpu_online_mask, per_cpu, fn);
}

/*
 * CPU time @t has run, including the current slice when @t is running.
 * As a module only what the scheduler last accounted (task_sched_runtime()
 * is not exported): up to a tick short.
 */
static u64 twq_task_cpu_ns(struct task_struct *t)
{
#if IS_BUILTIN(CONFIG_TEST_WORKQUEUE)
	return task_sched_runtime(t);
#else
	return t->se.sum_exec_runtime;
#endif
}

/*
 * item_tax=N (built in: test_workqueue.item_tax=N on the command line):
 * every item any worker starts costs N more rounds of the spin loop, spent
 * outside the item's function by a probe on the workqueue_execute_start
 * tracepoint.
 * It stands for a workqueue that costs more per item, identically on
 * either kernel, so that a bench run with it on one side shows which rows
 * move when the workqueue's cost moves.  Built in only: the tracepoint is
 * not exported to modules.
 */
#if IS_BUILTIN(CONFIG_TEST_WORKQUEUE)
static unsigned int twq_item_tax;
module_param_named(item_tax, twq_item_tax, uint, 0444);

static void twq_tax_probe(void *data, struct work_struct *work)
{
	WRITE_ONCE(twq_spin_sink, twq_spin((unsigned long)work, twq_item_tax));
}

static void twq_tax_start(void)
{
	if (twq_item_tax &&
	    !WARN_ON_ONCE(register_trace_workqueue_execute_start(twq_tax_probe, NULL)))
		pr_info("every item costs %u spin rounds more (item_tax)\n",
			twq_item_tax);
}
#else
static void twq_tax_start(void)
{
}
#endif

static unsigned int twq_count_kworkers(void)
{
	struct task_struct *g, *p;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_process_thread(g, p)
		if (str_has_prefix(p->comm, "kworker/"))
			n++;
	rcu_read_unlock();
	return n;
}

/* Context switches so far (as a module: of the tasks alive now). */
static u64 twq_context_switches(void)
{
#if IS_BUILTIN(CONFIG_TEST_WORKQUEUE)
	return nr_context_switches();
#else
	struct task_struct *g, *p;
	u64 n = 0;

	rcu_read_lock();
	for_each_process_thread(g, p)
		n += p->nvcsw + p->nivcsw;
	rcu_read_unlock();
	return n;
#endif
}

/* Peak kworker count while a step runs, sampled by a kthread. */
struct twq_peak {
	struct task_struct *task;
	unsigned int peak;
};

static int twq_peak_fn(void *data)
{
	struct twq_peak *pk = data;

	while (!kthread_should_stop()) {
		pk->peak = max(pk->peak, twq_count_kworkers());
		usleep_range(5000, 6000);
	}
	return 0;
}

static void twq_peak_start(struct twq_peak *pk)
{
	pk->peak = twq_count_kworkers();
	pk->task = kthread_run(twq_peak_fn, pk, "twq_peak");
	if (IS_ERR(pk->task))
		pk->task = NULL;
}

static unsigned int twq_peak_stop(struct twq_peak *pk)
{
	if (pk->task)
		kthread_stop(pk->task);
	return max(pk->peak, twq_count_kworkers());
}

/* ------------------------------------------------------------------ */
/* 3. selftest hooks: churn, freezer                                   */
/* ------------------------------------------------------------------ */

#define TWQ_CHURN_ITEMS	48

struct twq_churn_item {
	struct delayed_work dwork;
	struct workqueue_struct *wq;
	atomic_long_t queued;
	atomic_long_t ran;
};

static struct twq_churn {
	struct workqueue_struct *wq[3];
	struct twq_churn_item items[TWQ_CHURN_ITEMS];
	struct task_struct *task;
} *churn;

static void twq_churn_fn(struct work_struct *work)
{
	struct twq_churn_item *it = container_of(to_delayed_work(work),
						 struct twq_churn_item, dwork);

	if (atomic_long_inc_return(&it->ran) % 8 == 0)
		usleep_range(100, 300);
}

static int twq_random_online_cpu(void)
{
	int cpu = cpumask_nth(get_random_u32_below(num_online_cpus()),
			      cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

/* Requeue whatever is idle, on random CPUs, until stopped. */
static int twq_churn_thread(void *arg)
{
	struct twq_churn *c = arg;
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		struct twq_churn_item *it = &c->items[i++ % TWQ_CHURN_ITEMS];
		int cpu = twq_random_online_cpu();
		bool queued;

		if (i % 3)
			queued = queue_work_on(cpu, it->wq, &it->dwork.work);
		else
			queued = queue_delayed_work_on(cpu, it->wq, &it->dwork,
						       get_random_u32_below(3));
		if (queued)
			atomic_long_inc(&it->queued);
		if (i % TWQ_CHURN_ITEMS == 0)
			usleep_range(500, 1000);
	}
	return 0;
}

static void twq_churn_free(struct twq_churn *c)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(c->wq); i++)
		if (c->wq[i])
			destroy_workqueue(c->wq[i]);
	kfree(c);
}

static int twq_churn_start(void)
{
	static const unsigned int flags[] = { 0, WQ_UNBOUND, WQ_HIGHPRI };
	struct twq_churn *c;
	int i;

	if (churn)
		return -EBUSY;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(c->wq); i++) {
		c->wq[i] = alloc_workqueue("twq_churn%d", flags[i], 0, i);
		if (!c->wq[i])
			goto err_free;
	}
	for (i = 0; i < TWQ_CHURN_ITEMS; i++) {
		INIT_DELAYED_WORK(&c->items[i].dwork, twq_churn_fn);
		c->items[i].wq = c->wq[i % ARRAY_SIZE(c->wq)];
	}
	c->task = kthread_run(twq_churn_thread, c, "twq_churn");
	if (IS_ERR(c->task))
		goto err_free;
	churn = c;
	return 0;

err_free:
	twq_churn_free(c);
	return -ENOMEM;
}

/* Stop queueing, run what is pending and report; then free. */
static int twq_churn_stop(char *buf, size_t len)
{
	struct twq_churn *c = churn;
	long queued = 0, ran = 0;
	int i, lost = 0;

	if (!c)
		return scnprintf(buf, len, "idle\n");
	kthread_stop(c->task);
	for (i = 0; i < TWQ_CHURN_ITEMS; i++)
		flush_delayed_work(&c->items[i].dwork);
	for (i = 0; i < ARRAY_SIZE(c->wq); i++)
		flush_workqueue(c->wq[i]);
	for (i = 0; i < TWQ_CHURN_ITEMS; i++) {
		long q = atomic_long_read(&c->items[i].queued);
		long r = atomic_long_read(&c->items[i].ran);

		queued += q;
		ran += r;
		if (q != r)
			lost++;
	}
	churn = NULL;
	twq_churn_free(c);
	return scnprintf(buf, len, "queued=%ld ran=%ld mismatched=%d\n",
			 queued, ran, lost);
}

/*
 * The items are queued once the freeze has begun, and fire a little after
 * it, when kernel threads and freezable workqueues are frozen too (that
 * takes milliseconds), well inside the pm_test=freezer hold: its delay is
 * an mdelay() of seconds, which under TCG can end after a tenth of that.
 */
#define TWQ_FREEZE_POLL		(HZ / 100 ?: 1)
#define TWQ_FREEZE_DELAY	(HZ / 10 ?: 1)

struct twq_freeze_item {
	struct workqueue_struct *wq;
	struct delayed_work dwork;
	bool exp_gp;
	atomic_t runs;
	atomic_t runs_frozen;	/* runs while the freezer was active */
};

/*
 * The workqueues of a freezer cycle, each with one delayed item; exp_gp's
 * asks for an expedited RCU grace period, which must complete while tasks
 * are frozen (its items never are).
 */
static const struct {
	const char *name;
	unsigned int flags;
	bool exp_gp;
} twq_freeze_wqs[] = {
	{ "freezable", WQ_FREEZABLE },
	{ "plain", 0 },
	{ "exp_gp", 0, true },
#ifdef WQ_HAS_RT_CLASS
	{ "rt_freezable", WQ_RT | WQ_FREEZABLE },
	{ "rt_plain", WQ_RT },
#endif
};

static struct twq_freezer {
	struct twq_freeze_item items[ARRAY_SIZE(twq_freeze_wqs)];
	struct notifier_block nb;
	struct delayed_work starter;	/* on a plain workqueue: never frozen */
	bool armed;
	bool fired;
} *freezer;

static void twq_freeze_fn(struct work_struct *work)
{
	struct twq_freeze_item *it = container_of(to_delayed_work(work),
						  struct twq_freeze_item, dwork);

	/* counted as frozen only if it completed before the thaw */
	if (it->exp_gp)
		synchronize_rcu_expedited();
	if (static_key_enabled(&freezer_active))
		atomic_inc(&it->runs_frozen);
	atomic_inc(&it->runs);
}

/* Wait for the freeze to begin, then queue the items. */
static void twq_freeze_start_fn(struct work_struct *work)
{
	struct twq_freezer *fz = container_of(to_delayed_work(work),
					      struct twq_freezer, starter);
	int i;

	if (!static_key_enabled(&freezer_active)) {
		queue_delayed_work(system_unbound_wq, &fz->starter, TWQ_FREEZE_POLL);
		return;
	}
	fz->fired = true;
	for (i = 0; i < ARRAY_SIZE(fz->items); i++)
		queue_delayed_work(fz->items[i].wq, &fz->items[i].dwork,
				   TWQ_FREEZE_DELAY);
}

static int twq_pm_notify(struct notifier_block *nb, unsigned long action,
			 void *unused)
{
	struct twq_freezer *fz = container_of(nb, struct twq_freezer, nb);

	if (action != PM_SUSPEND_PREPARE || !fz->armed)
		return NOTIFY_DONE;
	fz->armed = false;
	queue_delayed_work(system_unbound_wq, &fz->starter, TWQ_FREEZE_POLL);
	return NOTIFY_OK;
}

static void twq_freezer_free(void)
{
	struct twq_freezer *fz = freezer;
	int i;

	if (!fz)
		return;
	if (fz->nb.notifier_call)
		unregister_pm_notifier(&fz->nb);
	/* it requeues itself until a freeze begins: stop it first */
	disable_delayed_work_sync(&fz->starter);
	for (i = 0; i < ARRAY_SIZE(fz->items); i++) {
		if (!fz->items[i].wq)
			continue;
		cancel_delayed_work_sync(&fz->items[i].dwork);
		destroy_workqueue(fz->items[i].wq);
	}
	kfree(fz);
	freezer = NULL;
}

static int twq_freezer_arm(void)
{
	char name[32];
	int i, ret;

	twq_freezer_free();
	freezer = kzalloc(sizeof(*freezer), GFP_KERNEL);
	if (!freezer)
		return -ENOMEM;
	INIT_DELAYED_WORK(&freezer->starter, twq_freeze_start_fn);
	for (i = 0; i < ARRAY_SIZE(freezer->items); i++) {
		struct twq_freeze_item *it = &freezer->items[i];

		snprintf(name, sizeof(name), "twq_%s", twq_freeze_wqs[i].name);
		it->wq = alloc_workqueue(name, twq_freeze_wqs[i].flags, 0);
		if (!it->wq) {
			twq_freezer_free();
			return -ENOMEM;
		}
		INIT_DELAYED_WORK(&it->dwork, twq_freeze_fn);
		it->exp_gp = twq_freeze_wqs[i].exp_gp;
	}
	freezer->armed = true;
	freezer->nb.notifier_call = twq_pm_notify;
	ret = register_pm_notifier(&freezer->nb);
	if (ret) {
		freezer->nb.notifier_call = NULL;
		twq_freezer_free();
	}
	return ret;
}

static int twq_freezer_show(char *buf, size_t len)
{
	struct twq_freezer *fz = freezer;
	int i, n;

	if (!fz)
		return scnprintf(buf, len, "idle\n");
	n = scnprintf(buf, len, "fired=%d", fz->fired);
	for (i = 0; i < ARRAY_SIZE(fz->items); i++) {
		struct twq_freeze_item *it = &fz->items[i];

		flush_delayed_work(&it->dwork);
		n += scnprintf(buf + n, len - n, " %s_runs=%d %s_runs_frozen=%d",
			       twq_freeze_wqs[i].name, atomic_read(&it->runs),
			       twq_freeze_wqs[i].name,
			       atomic_read(&it->runs_frozen));
	}
	return n + scnprintf(buf + n, len - n, "\n");
}

/* ------------------------------------------------------------------ */
/* 4. perfwq                                                           */
/* ------------------------------------------------------------------ */

/*
 * A work class of the perf-wq table: burn L or S microseconds split
 * around a sleep of 0..2*mean_sleep, then requeue after 0..2*mean_resched;
 * factor scales the cycle count to the workload duration.
 */
struct twq_pw_class {
	const char *name;
	unsigned int burn_l, burn_s, mean_sleep_ms, mean_resched_ms, factor;
};

static const struct twq_pw_class twq_pw_classes[] = {
	{ "sht", 50, 1, 1, 10, 3 },
	{ "med", 50, 2, 10, 50, 2 },
	{ "lng", 50, 4, 100, 250, 1 },
};

/* nr_wqs workqueues, each with nr[class] works of each class. */
struct twq_pw_group {
	u8 nr_wqs;
	u8 nr[ARRAY_SIZE(twq_pw_classes)];
};

static const struct twq_pw_group twq_pw_workloads[6][4] = {
	{ { 12, { 4, 0, 0 } }, { 2, { 2, 2, 0 } }, { 4, { 0, 2, 1 } }, { 8, { 0, 0, 1 } } },
	{ { 8, { 4, 0, 0 } }, { 2, { 2, 2, 0 } }, { 4, { 0, 2, 1 } }, { 8, { 0, 0, 1 } } },
	{ { 4, { 4, 0, 0 } }, { 2, { 2, 2, 0 } }, { 4, { 0, 2, 1 } }, { 8, { 0, 0, 1 } } },
	{ { 2, { 4, 0, 0 } }, { 2, { 2, 2, 0 } }, { 4, { 0, 2, 1 } }, { 8, { 0, 0, 1 } } },
	{ { 2, { 4, 0, 0 } }, { 2, { 0, 2, 0 } }, { 4, { 0, 2, 1 } }, { 8, { 0, 0, 1 } } },
	{ { 2, { 0, 2, 0 } }, { 4, { 0, 2, 1 } }, { 8, { 0, 0, 1 } } },
};

struct twq_pw_work {
	struct delayed_work dwork;
	struct workqueue_struct *wq;
	const struct twq_pw_class *cls;
	unsigned int burn_us;
	struct rnd_state rnd;
	unsigned int cycles_left;
	unsigned int cycles_done;
	u64 cpu_ns;
	u64 start_ns;
	u64 end_ns;
	atomic_t *remaining;
};

static void twq_pw_fn(struct work_struct *work)
{
	struct twq_pw_work *w = container_of(to_delayed_work(work),
					     struct twq_pw_work, dwork);
	const struct twq_pw_class *c = w->cls;
	unsigned int sleep, part, delay;
	u64 cpu0 = twq_task_cpu_ns(current);

	sleep = c->mean_sleep_ms * (prandom_u32_state(&w->rnd) % 200) / 100;
	part = sleep * (prandom_u32_state(&w->rnd) % 100) / 100;
	msleep(part);
	twq_burn_us(w->burn_us);
	msleep(sleep - part);

	w->cycles_done++;
	w->cpu_ns += twq_task_cpu_ns(current) - cpu0;
	if (--w->cycles_left) {
		delay = c->mean_resched_ms * (prandom_u32_state(&w->rnd) % 200) / 100;
		queue_delayed_work(w->wq, &w->dwork, msecs_to_jiffies(delay));
		return;
	}
	w->end_ns = ktime_get_ns();
	if (atomic_dec_and_test(w->remaining))
		wake_up_var(w->remaining);
}

/*
 * The competing job: a fixed number of loop iterations per CPU.  What the
 * workqueue costs the job is the time its CPU spent on something else
 * while the job ran: the job thread's wall time minus its own CPU time.
 * Under -icount the job's own share is a fixed instruction count, so all
 * of the difference between two kernels is in that steal.
 */
struct twq_job {
	unsigned long loops;
	u64 seed;
	u64 end_ns;
	u64 wall_ns;
	u64 cpu_ns;
};

static int twq_job_fn(void *data)
{
	struct twq_job *j = data;
	u64 t0 = ktime_get_ns(), cpu0 = twq_task_cpu_ns(current);
	u64 x = j->seed;
	unsigned long done;

	for (done = 0; done < j->loops; done += 0x10000) {
		x = twq_spin(x, min(j->loops - done, 0x10000UL));
		cond_resched();
	}
	WRITE_ONCE(j->seed, x);
	j->cpu_ns = twq_task_cpu_ns(current) - cpu0;
	j->end_ns = ktime_get_ns();
	j->wall_ns = j->end_ns - t0;
	return 0;
}

struct twq_pw_run {
	struct workqueue_struct *wqs[32];
	unsigned int nr_wqs;
	struct twq_pw_work *works;
	unsigned int nr_works;
	atomic_t remaining;
};

static void twq_pw_teardown(struct twq_pw_run *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_works; i++)
		cancel_delayed_work_sync(&r->works[i].dwork);
	for (i = 0; i < r->nr_wqs; i++)
		destroy_workqueue(r->wqs[i]);
	kfree(r->works);
}

/* Create the workqueues and works of workload @wl; queue nothing yet. */
static int twq_pw_setup(struct twq_pw_run *r, unsigned int wl, bool burn_l,
			unsigned int dur_ms)
{
	const struct twq_pw_group *g;
	unsigned int i, c, k, seed = 0;

	memset(r, 0, sizeof(*r));
	for (g = twq_pw_workloads[wl]; g < twq_pw_workloads[wl] + 4 && g->nr_wqs; g++)
		for (c = 0; c < ARRAY_SIZE(twq_pw_classes); c++)
			r->nr_works += g->nr_wqs * g->nr[c];
	r->works = kcalloc(r->nr_works, sizeof(*r->works), GFP_KERNEL);
	if (!r->works)
		return -ENOMEM;

	k = 0;
	for (g = twq_pw_workloads[wl]; g < twq_pw_workloads[wl] + 4 && g->nr_wqs; g++) {
		for (i = 0; i < g->nr_wqs; i++) {
			struct workqueue_struct *wq;

			wq = alloc_workqueue("twq-pw%02u", __WQ_LEGACY | WQ_MEM_RECLAIM,
					     1, r->nr_wqs);
			if (!wq)
				return -ENOMEM;
			r->wqs[r->nr_wqs++] = wq;
			for (c = 0; c < ARRAY_SIZE(twq_pw_classes); c++) {
				const struct twq_pw_class *cls = &twq_pw_classes[c];
				unsigned int n;

				for (n = 0; n < g->nr[c]; n++, k++) {
					struct twq_pw_work *w = &r->works[k];

					INIT_DELAYED_WORK(&w->dwork, twq_pw_fn);
					w->wq = wq;
					w->cls = cls;
					w->burn_us = burn_l ? cls->burn_l : cls->burn_s;
					w->cycles_left = max(1U, dur_ms /
						(cls->mean_sleep_ms + cls->mean_resched_ms) /
						cls->factor);
					w->remaining = &r->remaining;
					prandom_seed_state(&w->rnd, ++seed * 7919 + wl);
				}
			}
		}
	}
	atomic_set(&r->remaining, r->nr_works);
	return 0;
}

static void twq_pw_report(struct twq_pw_run *r, const char *tag, u64 start)
{
	unsigned int c, i;

	for (c = 0; c < ARRAY_SIZE(twq_pw_classes); c++) {
		const struct twq_pw_class *cls = &twq_pw_classes[c];
		u64 cycles = 0, last = 0, cpu = 0;
		bool any = false;

		for (i = 0; i < r->nr_works; i++) {
			if (r->works[i].cls != cls)
				continue;
			any = true;
			cycles += r->works[i].cycles_done;
			cpu += r->works[i].cpu_ns;
			last = max(last, r->works[i].end_ns);
		}
		if (!any)
			continue;
		twq_emit("count", cycles, "perfwq.%s.%s.cycles", tag, cls->name);
		twq_emit("ns", cpu, "perfwq.%s.%s.item_cpu", tag, cls->name);
		twq_emit("ns", last > start ? last - start : 0, "perfwq.%s.%s.time",
			 tag, cls->name);
	}
}

/* Run workload @wl with burn L or S beside the competing job. */
static int twq_pw_workload(const struct twq_scale *sc, unsigned int wl, bool burn_l)
{
	struct twq_job *jobs;
	struct twq_threads ts;
	struct twq_pw_run r;
	struct twq_peak pk;
	u64 start, ctx0, job_end = 0, steal = 0;
	char tag[16];
	unsigned int i, cpu;
	int ret;

	snprintf(tag, sizeof(tag), "wl%u.%c", wl, burn_l ? 'L' : 'S');
	jobs = kcalloc(nr_cpu_ids, sizeof(*jobs), GFP_KERNEL);
	ret = jobs ? twq_pw_setup(&r, wl, burn_l, sc->perfwq_ms) : -ENOMEM;
	if (!ret)
		ret = twq_threads_init(&ts, num_online_cpus());
	if (ret)
		goto out;

	ctx0 = twq_context_switches();
	twq_peak_start(&pk);
	start = ktime_get_ns();
	for_each_online_cpu(cpu) {
		jobs[cpu].loops = sc->perfwq_job_loops;
		jobs[cpu].seed = cpu + 1;
		twq_thread_start(&ts, twq_job_fn, &jobs[cpu], cpu, 0, "twq_job/%u");
	}
	for (i = 0; i < r.nr_works; i++) {
		r.works[i].start_ns = start;
		queue_delayed_work_on(twq_nth_online_cpu(i), r.works[i].wq,
				      &r.works[i].dwork, 0);
	}
	if (!wait_var_event_timeout(&r.remaining, !atomic_read(&r.remaining),
				    msecs_to_jiffies(20 * sc->perfwq_ms) + TWQ_WAIT))
		twq_emit("count", atomic_read(&r.remaining), "perfwq.%s.unfinished", tag);
	if (!twq_threads_wait(&ts))
		twq_emit("count", 1, "perfwq.%s.job_unfinished", tag);
	for_each_online_cpu(cpu) {
		job_end = max(job_end, jobs[cpu].end_ns);
		steal += jobs[cpu].wall_ns - min(jobs[cpu].cpu_ns, jobs[cpu].wall_ns);
	}

	twq_emit("ns", job_end - start, "perfwq.%s.job_time", tag);
	twq_emit("ns", steal, "perfwq.%s.job_steal", tag);
	twq_pw_report(&r, tag, start);
	twq_emit("count", twq_peak_stop(&pk), "perfwq.%s.peak_kworkers", tag);
	twq_emit("count", twq_context_switches() - ctx0, "perfwq.%s.context_switches", tag);
	twq_threads_stop(&ts);
out:
	if (jobs)
		twq_pw_teardown(&r);
	kfree(jobs);
	return ret;
}

/*
 * What the job threads of a workload cost on their own: a sixteenth of one
 * job's loop timed with interrupts off, the least of four tries, scaled to
 * the whole loop and to every online CPU.  Under -icount the clock counts
 * the instructions of all vCPUs, and with this CPU's interrupts off the
 * others can only add to the loop's own (the tries still differ by a few
 * hundredths of a percent from boot to boot).  The harness takes the least
 * of all boots as the job's own instructions: a workload's job_time minus
 * that is what ran outside the job while it ran (job_outside in the
 * report): the items' burns, the workqueue's own work, ticks, scheduling.
 */
static u64 twq_job_alone_ns(const struct twq_scale *sc)
{
	u64 best = U64_MAX, t0, t1;
	unsigned long flags;
	int i;

	for (i = 0; i < 4; i++) {
		local_irq_save(flags);
		t0 = ktime_get_ns();
		WRITE_ONCE(twq_spin_sink, twq_spin(t0, sc->perfwq_job_loops / 16));
		t1 = ktime_get_ns();
		local_irq_restore(flags);
		best = min(best, t1 - t0);
		cond_resched();
	}
	return best * 16 * num_online_cpus();
}

static int twq_scenario_perfwq(const struct twq_scale *sc)
{
	unsigned int wl, b;
	int ret = 0;

	twq_emit("ns", twq_job_alone_ns(sc), "perfwq.job_alone");
	for (b = 0; b < 2 && !ret; b++) {
		if (!(sc->burns & BIT(b)))
			continue;
		for (wl = 0; wl < ARRAY_SIZE(twq_pw_workloads) && !ret; wl++)
			if (sc->workloads & BIT(wl))
				ret = twq_pw_workload(sc, wl, b == 0);
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* 5. latency                                                          */
/* ------------------------------------------------------------------ */

enum twq_kind {
	TWQ_PERCPU,
	TWQ_HIGHPRI,
	TWQ_UNBOUND,
	TWQ_ORDERED,
	TWQ_BH,
	TWQ_RT,			/* WQ_RT, where the kernel has it */
	TWQ_FIFO_KTHREAD,	/* reference: a SCHED_FIFO kthread_worker */
	TWQ_NR_KINDS,
};

static const char * const twq_kind_names[TWQ_NR_KINDS] = {
	"percpu", "highpri", "unbound", "ordered", "bh", "rt", "fifo_kthread",
};

#ifdef WQ_HAS_RT_CLASS
#define TWQ_RT_FLAGS	WQ_RT
#else
#define TWQ_RT_FLAGS	0	/* unused: the kind is not available */
#endif

/* The kinds a run measures ("kind=NAME" in the command; all by default). */
static unsigned long twq_kinds = BIT(TWQ_NR_KINDS) - 1;
/* The most queuers of a throughput run ("queuers=N"; all by default). */
static unsigned int twq_max_queuers = UINT_MAX;

/* Selected, and the kernel has it (WQ_RT only where it exists). */
static bool twq_kind_selected(enum twq_kind kind)
{
#ifndef WQ_HAS_RT_CLASS
	if (kind == TWQ_RT)
		return false;
#endif
	return twq_kinds & BIT(kind);
}

/*
 * Where a scenario queues its items: a workqueue, or SCHED_FIFO
 * kthread_workers: one shared, or one bound to each CPU of a mask (as the
 * per-CPU RT pools serve their CPUs), picked by the CPU an item is for.
 */
struct twq_target {
	enum twq_kind kind;
	struct workqueue_struct *wq;
	struct kthread_worker *kw;
	struct kthread_worker **cpu_kw;
};

/* A SCHED_FIFO kthread_worker, bound to @cpu unless it is negative. */
static struct kthread_worker *twq_fifo_worker(int cpu)
{
	struct kthread_worker *kw;

	if (cpu < 0)
		kw = kthread_create_worker(0, "twq_fifo");
	else
		kw = kthread_create_worker_on_cpu(cpu, 0, "twq_fifo/%u", cpu);
	if (!IS_ERR(kw))
		sched_set_fifo(kw->task);
	return kw;
}

/* One kthread_worker per CPU of @cpus. */
static int twq_fifo_workers_on(struct twq_target *t, const struct cpumask *cpus)
{
	int cpu;

	t->cpu_kw = kcalloc(nr_cpu_ids, sizeof(*t->cpu_kw), GFP_KERNEL);
	if (!t->cpu_kw)
		return -ENOMEM;
	for_each_cpu(cpu, cpus) {
		struct kthread_worker *kw = twq_fifo_worker(cpu);

		if (IS_ERR(kw))
			return PTR_ERR(kw);
		t->cpu_kw[cpu] = kw;
	}
	return 0;
}

/*
 * Set @t up for @kind; for the kthread_worker kind, one worker per CPU of
 * @spread if it is given, else one for all.
 */
static int twq_target_init(struct twq_target *t, enum twq_kind kind,
			   const struct cpumask *spread)
{
	static const unsigned int flags[] = {
		[TWQ_PERCPU] = 0, [TWQ_HIGHPRI] = WQ_HIGHPRI,
		[TWQ_UNBOUND] = WQ_UNBOUND, [TWQ_BH] = WQ_BH,
		[TWQ_RT] = TWQ_RT_FLAGS,
	};

	memset(t, 0, sizeof(*t));
	t->kind = kind;
	if (kind == TWQ_FIFO_KTHREAD && spread)
		return twq_fifo_workers_on(t, spread);
	if (kind == TWQ_FIFO_KTHREAD) {
		t->kw = twq_fifo_worker(-1);
		if (IS_ERR(t->kw))
			return PTR_ERR(t->kw);
		return 0;
	}
	if (kind == TWQ_ORDERED)
		t->wq = alloc_ordered_workqueue("twq_%s", 0, twq_kind_names[kind]);
	else
		t->wq = alloc_workqueue("twq_%s", flags[kind], 0, twq_kind_names[kind]);
	return t->wq ? 0 : -ENOMEM;
}

static void twq_target_destroy(struct twq_target *t)
{
	int cpu;

	if (!IS_ERR_OR_NULL(t->kw))
		kthread_destroy_worker(t->kw);
	for (cpu = 0; t->cpu_kw && cpu < nr_cpu_ids; cpu++)
		if (!IS_ERR_OR_NULL(t->cpu_kw[cpu]))
			kthread_destroy_worker(t->cpu_kw[cpu]);
	kfree(t->cpu_kw);
	if (t->wq)
		destroy_workqueue(t->wq);
}

/* An item that can go to either kind of target. */
struct twq_item {
	struct work_struct work;
	struct kthread_work kwork;
	u64 queued_ns;
	struct twq_samples *lat;
	atomic_t *left;		/* items of its batch still to run */
	struct completion done;
};

static void twq_item_ran(struct twq_item *it)
{
	if (it->lat)
		twq_sample(it->lat, ktime_get_ns() - it->queued_ns);
	/* the last item of a batch wakes the queuer, once */
	if (it->left && atomic_dec_and_test(it->left))
		wake_up_var(it->left);
	complete(&it->done);
}

static void twq_item_fn(struct work_struct *work)
{
	twq_item_ran(container_of(work, struct twq_item, work));
}

static void twq_item_kfn(struct kthread_work *kwork)
{
	twq_item_ran(container_of(kwork, struct twq_item, kwork));
}

/* BH items get their own lockdep class (see INIT_WORK()). */
static void twq_item_init(struct twq_item *it, enum twq_kind kind)
{
	if (kind == TWQ_BH)
		INIT_WORK(&it->work, twq_item_fn);
	else
		INIT_WORK(&it->work, twq_item_fn);
	kthread_init_work(&it->kwork, twq_item_kfn);
	init_completion(&it->done);
}

/* Queue @it on @t from CPU @cpu; false if it was still pending. */
static bool twq_item_queue(struct twq_target *t, struct twq_item *it, int cpu)
{
	switch (t->kind) {
	case TWQ_FIFO_KTHREAD:
		return kthread_queue_work(t->cpu_kw ? t->cpu_kw[cpu] : t->kw,
					  &it->kwork);
	case TWQ_UNBOUND:
	case TWQ_ORDERED:
		return queue_work(t->wq, &it->work);
	default:
		return queue_work_on(cpu, t->wq, &it->work);
	}
}

/*
 * Latency queuers run on the first half of the online CPUs and dispatch to
 * the second half, which the hogs keep busy: per-CPU kinds are queued on a
 * CPU of that half, unbound kinds are confined to it, and the reference
 * has a SCHED_FIFO kthread_worker on each of its CPUs, so that queuer i
 * hands its items to CPU i of that half for the per-CPU kinds (RT
 * included) and the reference alike.  The queuer's own CPU never serves
 * the item, so each kind has one dispatch path (a remote wakeup), as when
 * a caller hands work to other CPUs.  A first item per queuer, untimed,
 * lets each kind set up what it sets up on first use.
 *
 * The queuers take turns (@turn): one sample is in flight at a time.  Under
 * -icount the vCPUs run one after the other and every instruction of any
 * of them is time, so a sample whose dispatch overlapped another queuer's
 * counted that dispatch too; how often that happened depended on the
 * random gaps, not on the kind, and decided the p99 rows.
 */
static DEFINE_MUTEX(twq_lat_turn);

struct twq_lat_queuer {
	struct twq_target *target;
	struct twq_item item;
	struct mutex *turn;	/* held while one sample is in flight */
	unsigned int n;
	int target_cpu;
	struct rnd_state rnd;
};

/* Queue one item at a time, at random gaps, and wait for it to run. */
static int twq_lat_queuer_fn(void *data)
{
	struct twq_lat_queuer *q = data;
	struct twq_samples *lat = q->item.lat;
	unsigned int i;

	/* i == 0 is the untimed first item */
	for (i = 0; i <= q->n; i++) {
		unsigned int gap = 50 + prandom_u32_state(&q->rnd) % 150;
		bool done;

		q->item.lat = i ? lat : NULL;
		reinit_completion(&q->item.done);
		mutex_lock(q->turn);
		q->item.queued_ns = ktime_get_ns();
		twq_item_queue(q->target, &q->item, q->target_cpu);
		done = wait_for_completion_timeout(&q->item.done, TWQ_WAIT);
		mutex_unlock(q->turn);
		if (!done) {
			twq_timed_out();
			break;
		}
		usleep_range(gap, gap + 20);
	}
	return 0;
}

/* Keep the workers of unbound kinds and the kthread_worker on @mask. */
static int twq_target_confine(struct twq_target *t, const struct cpumask *mask)
{
	if (t->kw)
		return set_cpus_allowed_ptr(t->kw->task, mask);
	if (t->cpu_kw)
		return 0;	/* bound already */
#if IS_BUILTIN(CONFIG_TEST_WORKQUEUE)
	if (t->kind == TWQ_UNBOUND || t->kind == TWQ_ORDERED) {
		struct workqueue_attrs *attrs = alloc_workqueue_attrs();
		int ret;

		if (!attrs)
			return -ENOMEM;
		cpumask_copy(attrs->cpumask, mask);
		attrs->ordered = t->kind == TWQ_ORDERED;
		ret = apply_workqueue_attrs(t->wq, attrs);
		free_workqueue_attrs(attrs);
		return ret;
	}
#endif
	return 0;
}

/* The second half of the online CPUs (all of them on one CPU). */
static void twq_lat_targets(struct cpumask *mask, unsigned int *nr_queuers)
{
	unsigned int nr = num_online_cpus(), i;

	*nr_queuers = max(nr / 2, 1U);
	cpumask_clear(mask);
	for (i = nr > 1 ? *nr_queuers : 0; i < nr; i++)
		cpumask_set_cpu(twq_nth_online_cpu(i), mask);
}

static int twq_lat_run(const struct twq_scale *sc, enum twq_kind kind,
		       unsigned int hogs, const struct cpumask *targets,
		       unsigned int nq)
{
	struct twq_threads hog_ts = {}, ts = {};
	struct twq_samples lat = {};
	struct twq_lat_queuer *qs;
	struct twq_target t;
	char name[48];
	unsigned int i;
	int ret;

	qs = kcalloc(nq, sizeof(*qs), GFP_KERNEL);
	if (!qs)
		return -ENOMEM;
	ret = twq_target_init(&t, kind, targets);
	if (ret)
		goto out_threads;
	ret = twq_target_confine(&t, targets);
	if (!ret)
		ret = twq_samples_init(&lat, nq * sc->lat_n);
	if (!ret)
		ret = twq_threads_init(&ts, nq);
	if (!ret)
		ret = twq_hogs_start(&hog_ts, hogs, twq_hog_fn);
	if (ret)
		goto out_threads;

	for (i = 0; i < nq; i++) {
		struct twq_lat_queuer *q = &qs[i];

		q->target = &t;
		q->turn = &twq_lat_turn;
		q->n = sc->lat_n;
		q->target_cpu = cpumask_nth(i % cpumask_weight(targets), targets);
		/* every kind sees the same gaps: same queuers, same timing */
		prandom_seed_state(&q->rnd, i * 31 + hogs);
		twq_item_init(&q->item, kind);
		q->item.lat = &lat;
		twq_thread_start(&ts, twq_lat_queuer_fn, q, twq_nth_online_cpu(i), 0,
				 "twq_lat/%u");
	}
	twq_threads_wait(&ts);
	snprintf(name, sizeof(name), "latency.%s.hogs%u", twq_kind_names[kind], hogs);
	twq_emit_stats(&lat, "ns", name);
out_threads:
	twq_threads_stop(&ts);
	twq_threads_stop(&hog_ts);
	twq_samples_free(&lat);
	twq_target_destroy(&t);
	kfree(qs);
	return ret;
}

static int twq_scenario_latency(const struct twq_scale *sc)
{
	unsigned int hogs, kind, nq;
	cpumask_var_t targets;
	int ret = 0;

	if (!zalloc_cpumask_var(&targets, GFP_KERNEL))
		return -ENOMEM;
	cpus_read_lock();
	twq_lat_targets(targets, &nq);
	cpus_read_unlock();
	for (hogs = 0; hogs <= 2 && !ret; hogs++)
		for (kind = 0; kind < TWQ_NR_KINDS && !ret; kind++)
			if (twq_kind_selected(kind))
				ret = twq_lat_run(sc, kind, hogs, targets, nq);
	free_cpumask_var(targets);
	return ret;
}

/* ------------------------------------------------------------------ */
/* 6. throughput                                                       */
/* ------------------------------------------------------------------ */

#define TWQ_TP_BATCH	256

/*
 * A throughput queuer queues a batch of distinct items back to back,
 * timing each queue call, then sleeps until the last item of the batch
 * wakes it; no spinning on items still pending.  One wakeup per batch:
 * waking the queuer for every item (as this did first) made the result
 * depend on how often that wakeup preempted a worker sharing its CPU,
 * which the scheduler decides from the two tasks' lag, not on what the
 * workqueue costs.
 *
 * Each call's cost is filed by the path it took: "active" if the item
 * went to a pool (and maybe woke a worker), "inactive" if it waited
 * behind max_active, as WORK_STRUCT_INACTIVE shows right after the call.
 * The two paths differ by a wakeup, and with several queuers on a
 * workqueue of limited max_active each holds about half the calls: the
 * median of all calls then only said on which side of the gap between
 * them the middle call fell, not what either path costs.  An item
 * activated in the few nanoseconds between the call's end and the test
 * is counted as active, on either kernel alike.  A path that fewer than
 * one call in TWQ_TP_MIN_SHARE takes is left out of the results: its
 * count is the outcome of a few dozen races (the first items of a batch
 * finding the last ones of the previous batch still active) and its
 * percentiles would rest on that few samples.
 */
#define TWQ_TP_MIN_SHARE	100

enum twq_tp_path { TWQ_TP_ACTIVE, TWQ_TP_INACTIVE, TWQ_TP_NR_PATHS };

static const char * const twq_tp_path_names[TWQ_TP_NR_PATHS] = {
	"active", "inactive",
};

struct twq_tp_queuer {
	struct twq_target *target;
	struct twq_item batch[TWQ_TP_BATCH];
	struct twq_samples *cost;	/* [TWQ_TP_NR_PATHS] */
	atomic_t left;
	unsigned int n;
	int cpu;
};

static int twq_tp_queuer_fn(void *data)
{
	struct twq_tp_queuer *q = data;
	unsigned int queued = 0, i;

	while (queued < q->n) {
		unsigned int nr = min(q->n - queued, (unsigned int)TWQ_TP_BATCH);

		atomic_set(&q->left, nr);
		for (i = 0; i < nr; i++) {
			struct work_struct *w = &q->batch[i].work;
			u64 t0 = ktime_get_ns(), t1;
			enum twq_tp_path path;

			twq_item_queue(q->target, &q->batch[i], q->cpu);
			t1 = ktime_get_ns();
			path = test_bit(WORK_STRUCT_INACTIVE_BIT, work_data_bits(w)) ?
			       TWQ_TP_INACTIVE : TWQ_TP_ACTIVE;
			twq_sample(&q->cost[path], t1 - t0);
		}
		queued += nr;
		if (!wait_var_event_timeout(&q->left, !atomic_read(&q->left),
					    TWQ_WAIT)) {
			twq_timed_out();
			break;
		}
	}
	return 0;
}

static int twq_tp_run(const struct twq_scale *sc, enum twq_kind kind,
		      unsigned int nq)
{
	struct twq_samples cost[TWQ_TP_NR_PATHS] = {};
	struct twq_tp_queuer *qs;
	struct twq_threads ts;
	struct twq_target t;
	unsigned int i, j, total = nq * sc->tp_n;
	char name[48];
	u64 start, end;
	int ret;

	qs = kvcalloc(nq, sizeof(*qs), GFP_KERNEL);
	if (!qs)
		return -ENOMEM;
	ret = twq_target_init(&t, kind, NULL);
	if (ret)
		goto out_cost;
	for (i = 0; i < TWQ_TP_NR_PATHS && !ret; i++)
		ret = twq_samples_init(&cost[i], total);
	if (!ret)
		ret = twq_threads_init(&ts, nq);
	if (ret)
		goto out_cost;

	for (i = 0; i < nq; i++) {
		qs[i].target = &t;
		qs[i].cost = cost;
		qs[i].n = sc->tp_n;
		qs[i].cpu = twq_nth_online_cpu(i);
		for (j = 0; j < TWQ_TP_BATCH; j++) {
			twq_item_init(&qs[i].batch[j], kind);
			qs[i].batch[j].left = &qs[i].left;
		}
	}
	start = ktime_get_ns();
	for (i = 0; i < nq; i++)
		twq_thread_start(&ts, twq_tp_queuer_fn, &qs[i], qs[i].cpu, 0, "twq_tp/%u");
	twq_threads_wait(&ts);	/* each waits for its last batch to run */
	end = ktime_get_ns();
	twq_threads_stop(&ts);

	snprintf(name, sizeof(name), "throughput.%s.q%u", twq_kind_names[kind], nq);
	twq_emit("items/s", div64_u64((u64)total * NSEC_PER_SEC,
				      max(end - start, 1ULL)), "%s.rate", name);
	twq_emit("count", total, "%s.items", name);
	for (i = 0; i < TWQ_TP_NR_PATHS; i++) {
		char path[sizeof(name) + 24];	/* NAME.queue_cost.PATH */

		if ((u64)twq_samples_n(&cost[i]) * TWQ_TP_MIN_SHARE < total)
			continue;
		snprintf(path, sizeof(path), "%s.queue_cost.%s", name,
			 twq_tp_path_names[i]);
		twq_emit_stats(&cost[i], "ns", path);
	}
out_cost:
	for (i = 0; i < TWQ_TP_NR_PATHS; i++)
		twq_samples_free(&cost[i]);
	twq_target_destroy(&t);
	kvfree(qs);
	return ret;
}

static int twq_scenario_throughput(const struct twq_scale *sc)
{
	static const unsigned int queuers[] = { 1, 2, 4 };
	unsigned int kind, i;
	int ret = 0;

	for (kind = 0; kind < TWQ_FIFO_KTHREAD && !ret; kind++)
		for (i = 0; i < ARRAY_SIZE(queuers) && !ret; i++)
			if (twq_kind_selected(kind) && queuers[i] <= twq_max_queuers)
				ret = twq_tp_run(sc, kind, queuers[i]);
	return ret;
}

/* ------------------------------------------------------------------ */
/* 7. flush                                                            */
/* ------------------------------------------------------------------ */

static void twq_nop_fn(struct work_struct *work)
{
}

/*
 * The item to flush is queued on another CPU than the flusher's.  On the
 * flusher's own CPU, whether the worker woken for it preempts the
 * flusher, or the flusher woken by the item's end preempts the worker
 * before it idles, is the scheduler's call from the two tasks' lag: runs
 * of one kernel settled on either pattern (3.0 or 4.3 us per flush), on
 * stock as on the rework.
 */
/*
 * @n rounds of queueing @w on @cpu and waiting for it with flush_work()
 * (or flush_workqueue() if @whole): flush.NAME times the wait alone,
 * from after queue_work_on() returned; flush.queue_NAME the round trip
 * from before it (queueing, the item running on the other CPU, the
 * flusher woken).
 */
static int twq_flush_rounds(struct workqueue_struct *wq, struct work_struct *w,
			    unsigned int cpu, unsigned int n, bool whole,
			    const char *name)
{
	struct twq_samples wait, round;
	char full[40];
	unsigned int i;

	if (twq_samples_init(&wait, n))
		return -ENOMEM;
	if (twq_samples_init(&round, n)) {
		twq_samples_free(&wait);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		u64 tq = ktime_get_ns(), t0, t1;

		queue_work_on(cpu, wq, w);
		t0 = ktime_get_ns();
		if (whole)
			flush_workqueue(wq);
		else
			flush_work(w);
		t1 = ktime_get_ns();
		twq_sample(&wait, t1 - t0);
		twq_sample(&round, t1 - tq);
	}
	snprintf(full, sizeof(full), "flush.%s", name);
	twq_emit_stats(&wait, "ns", full);
	snprintf(full, sizeof(full), "flush.queue_%s", name);
	twq_emit_stats(&round, "ns", full);
	twq_samples_free(&wait);
	twq_samples_free(&round);
	return 0;
}

static int twq_scenario_flush(const struct twq_scale *sc)
{
	struct workqueue_struct *wq = alloc_workqueue("twq_flush", 0, 0);
	struct work_struct w;
	unsigned int cpu;
	int ret;

	if (!wq)
		return -ENOMEM;
	INIT_WORK_ONSTACK(&w, twq_nop_fn);
	/* the flusher stays on its CPU; the item goes to another one */
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids)
		cpu = raw_smp_processor_id();
	ret = twq_flush_rounds(wq, &w, cpu, sc->flush_n, false, "flush_work");
	if (!ret)
		ret = twq_flush_rounds(wq, &w, cpu, sc->flush_n, true,
				       "flush_workqueue");
	migrate_enable();
	destroy_work_on_stack(&w);

#if IS_BUILTIN(CONFIG_TEST_WORKQUEUE)
	if (!ret) {
		struct twq_samples s;
		unsigned int i, n = max(sc->flush_n / 4, 1U);

		ret = twq_samples_init(&s, n);
		for (i = 0; !ret && i < n; i++) {
			u64 t0 = ktime_get_ns();

			schedule_on_each_cpu(twq_nop_fn);
			twq_sample(&s, ktime_get_ns() - t0);
		}
		if (!ret)
			twq_emit_stats(&s, "ns", "flush.schedule_on_each_cpu");
		twq_samples_free(&s);
	}
#else
	pr_info("flush: schedule_on_each_cpu() is not exported; built in only\n");
#endif
	destroy_workqueue(wq);
	return ret;
}

/* ------------------------------------------------------------------ */
/* 8. delay                                                            */
/* ------------------------------------------------------------------ */

static const unsigned int twq_delays_ms[] = { 1, 2, 5, 10, 50, 100 };

/*
 * One delay, served in turn by delayed work and by a bare timer_list with
 * the same expiry (add_timer_global(), as queue_delayed_work() arms its
 * timer): the timer's lateness is the timer wheel's share, the rest is
 * the workqueue's.  Each is queued at a random phase of the tick: queued
 * right after a tick every time, both would measure the wheel at one
 * fixed phase.
 */
struct twq_delay_item {
	struct delayed_work dwork;
	struct timer_list timer;
	struct workqueue_struct *wq;
	unsigned int ms, n;
	u64 due_ns;
	struct twq_samples late;
	struct twq_samples timer_late;
	struct completion done;
};

static void twq_delay_fn(struct work_struct *work)
{
	struct twq_delay_item *d = container_of(to_delayed_work(work),
						struct twq_delay_item, dwork);

	twq_sample(&d->late, (s64)(ktime_get_ns() - d->due_ns));
	complete(&d->done);
}

static void twq_delay_timer_fn(struct timer_list *t)
{
	struct twq_delay_item *d = from_timer(d, t, timer);

	twq_sample(&d->timer_late, (s64)(ktime_get_ns() - d->due_ns));
	complete(&d->done);
}

/* Sleep a random time of up to two ticks: the next start has any phase. */
static void twq_delay_random_phase(void)
{
	unsigned int us = 100 + get_random_u32_below(2 * jiffies_to_usecs(1));

	usleep_range(us, us + 10);
}

/* Start one wait of @d's delay (by the timer if @timer) and wait for it. */
static bool twq_delay_once(struct twq_delay_item *d, bool timer)
{
	unsigned long delay = msecs_to_jiffies(d->ms);

	twq_delay_random_phase();
	reinit_completion(&d->done);
	d->due_ns = ktime_get_ns() + (u64)d->ms * NSEC_PER_MSEC;
	if (timer) {
		d->timer.expires = jiffies + delay;
		add_timer_global(&d->timer);
	} else {
		queue_delayed_work(d->wq, &d->dwork, delay);
	}
	if (wait_for_completion_timeout(&d->done, TWQ_WAIT))
		return true;
	twq_timed_out();
	return false;
}

/* One delay: delayed work, then the bare timer, repeated. */
static int twq_delay_thread(void *data)
{
	struct twq_delay_item *d = data;
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (!twq_delay_once(d, false) || !twq_delay_once(d, true))
			break;
	return 0;
}

#ifdef WQ_HAS_PRECISE_WORK
/*
 * Precise delayed work (rework only): lateness of a precise item of
 * 100 us to 5 ms, queued at a random phase of the tick, with 0 and 2 hogs
 * per CPU.  Rows "delay.precise.<delay>[.hogs2].lateness".
 */
static const unsigned int twq_precise_delays_us[] = { 100, 500, 1000, 5000 };

struct twq_precise_item {
	struct precise_work pw;
	u64 due_ns;
	struct twq_samples *late;
	struct completion done;
};

static void twq_precise_fn(struct work_struct *work)
{
	struct twq_precise_item *p = container_of(to_precise_work(work),
						  struct twq_precise_item, pw);

	twq_sample(p->late, (s64)(ktime_get_ns() - p->due_ns));
	complete(&p->done);
}

static int twq_precise_run(const struct twq_scale *sc,
			   struct workqueue_struct *wq, unsigned int us,
			   unsigned int hogs)
{
	struct twq_threads hog_ts = {};
	struct twq_samples late = {};
	struct twq_precise_item p = { .late = &late };
	char name[48];
	unsigned int i;
	int ret;

	INIT_PRECISE_WORK_ONSTACK(&p.pw, twq_precise_fn);
	init_completion(&p.done);
	ret = twq_samples_init(&late, sc->delay_n) ?:
	      twq_hogs_start(&hog_ts, hogs, twq_hog_fn);
	for (i = 0; i < sc->delay_n && !ret; i++) {
		twq_delay_random_phase();
		reinit_completion(&p.done);
		p.due_ns = ktime_get_ns() + (u64)us * NSEC_PER_USEC;
		queue_precise_work(wq, &p.pw, ns_to_ktime((u64)us * NSEC_PER_USEC), 0);
		if (!wait_for_completion_timeout(&p.done, TWQ_WAIT)) {
			twq_timed_out();
			break;
		}
	}
	cancel_precise_work_sync(&p.pw);
	destroy_precise_work_on_stack(&p.pw);
	twq_threads_stop(&hog_ts);
	if (us % 1000)
		snprintf(name, sizeof(name), "delay.precise.%uus%s.lateness", us,
			 hogs ? ".hogs2" : "");
	else
		snprintf(name, sizeof(name), "delay.precise.%ums%s.lateness",
			 us / 1000, hogs ? ".hogs2" : "");
	if (!ret)
		twq_emit_stats(&late, "ns", name);
	twq_samples_free(&late);
	return ret;
}

static int twq_precise_delays(const struct twq_scale *sc,
			      struct workqueue_struct *wq)
{
	unsigned int i, hogs;
	int ret = 0;

	for (hogs = 0; hogs <= 2 && !ret; hogs += 2)
		for (i = 0; i < ARRAY_SIZE(twq_precise_delays_us) && !ret; i++)
			ret = twq_precise_run(sc, wq, twq_precise_delays_us[i], hogs);
	return ret;
}
#else
static int twq_precise_delays(const struct twq_scale *sc,
			      struct workqueue_struct *wq)
{
	return 0;
}
#endif

/*
 * Wakeups while idle with items pending: 32 items due over 0.1 to 1 s
 * (evenly, each at a random offset within its share), and the local timer
 * interrupts of every CPU per second until the last one has run; the same
 * span with nothing pending first.  Each kind starts from a settled
 * guest: threads that just exited leave RCU callbacks that keep every
 * CPU's tick for tens of ms, and the fair server's timers of their last
 * wakeups fire about 950 ms later.  Rows "delay.idle_wakeups.<kind>":
 * none, delayed (the timer wheel), and where the kernel has it precise
 * (an hrtimer each) and precise_slack10ms (each allows 10 ms of slack,
 * which lets the hrtimers coalesce).
 */
#define TWQ_IDLE_ITEMS	32

enum twq_idle_kind {
	TWQ_IDLE_NONE,
	TWQ_IDLE_DELAYED,
	TWQ_IDLE_PRECISE,
	TWQ_IDLE_PRECISE_SLACK,
	TWQ_IDLE_KINDS,
};

static const char * const twq_idle_names[TWQ_IDLE_KINDS] = {
	"none", "delayed", "precise", "precise_slack10ms",
};

struct twq_idle_set;

struct twq_idle_item {
	struct delayed_work dwork;
#ifdef WQ_HAS_PRECISE_WORK
	struct precise_work pw;
#endif
	struct twq_idle_set *set;
};

struct twq_idle_set {
	atomic_t left;
	struct completion done;
	struct twq_idle_item items[TWQ_IDLE_ITEMS];
};

static void twq_idle_ran(struct twq_idle_set *set)
{
	if (atomic_dec_and_test(&set->left))
		complete(&set->done);
}

static void twq_idle_dwork_fn(struct work_struct *work)
{
	twq_idle_ran(container_of(to_delayed_work(work), struct twq_idle_item,
				  dwork)->set);
}

/* Local timer interrupts of every CPU so far (0 where not known). */
static u64 twq_timer_irqs(void)
{
	u64 n = 0;
#ifdef CONFIG_X86_LOCAL_APIC
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(irq_stat, cpu).apic_timer_irqs;
#endif
	return n;
}

#ifdef WQ_HAS_PRECISE_WORK
static void twq_idle_precise_fn(struct work_struct *work)
{
	twq_idle_ran(container_of(to_precise_work(work), struct twq_idle_item,
				  pw)->set);
}

static void twq_idle_init_precise(struct twq_idle_item *it)
{
	INIT_PRECISE_WORK(&it->pw, twq_idle_precise_fn);
}

static void twq_idle_queue_precise(struct workqueue_struct *wq,
				   struct twq_idle_item *it, unsigned int ms,
				   u64 slack_ns)
{
	queue_precise_work(wq, &it->pw, ms_to_ktime(ms), slack_ns);
}

static void twq_idle_cancel_precise(struct twq_idle_item *it)
{
	cancel_precise_work_sync(&it->pw);
}

#define TWQ_IDLE_LAST	TWQ_IDLE_PRECISE_SLACK
#else
static void twq_idle_init_precise(struct twq_idle_item *it)
{
}

static void twq_idle_queue_precise(struct workqueue_struct *wq,
				   struct twq_idle_item *it, unsigned int ms,
				   u64 slack_ns)
{
}

static void twq_idle_cancel_precise(struct twq_idle_item *it)
{
}

#define TWQ_IDLE_LAST	TWQ_IDLE_DELAYED
#endif

/* Arm every item of @set as @kind wants: the delays 0.1 to 1 s. */
static void twq_idle_arm(struct workqueue_struct *wq, struct twq_idle_set *set,
			 enum twq_idle_kind kind)
{
	const unsigned int share = 900 / TWQ_IDLE_ITEMS;
	unsigned int i, ms;

	for (i = 0; i < TWQ_IDLE_ITEMS; i++) {
		struct twq_idle_item *it = &set->items[i];

		ms = 100 + i * share + get_random_u32_below(share);
		if (kind == TWQ_IDLE_DELAYED)
			queue_delayed_work(wq, &it->dwork, msecs_to_jiffies(ms));
		else
			twq_idle_queue_precise(wq, it, ms,
					       kind == TWQ_IDLE_PRECISE_SLACK ?
					       10 * NSEC_PER_MSEC : 0);
	}
}

/* One kind: its row, timer interrupts per second of the span. */
static int twq_idle_run(struct workqueue_struct *wq, struct twq_idle_set *set,
			enum twq_idle_kind kind)
{
	u64 irqs, t0, span;

	rcu_barrier();
	msleep(1100);
	atomic_set(&set->left, TWQ_IDLE_ITEMS);
	reinit_completion(&set->done);
	t0 = ktime_get_ns();
	irqs = twq_timer_irqs();
	if (kind == TWQ_IDLE_NONE) {
		msleep(1000);
	} else {
		twq_idle_arm(wq, set, kind);
		if (!wait_for_completion_timeout(&set->done, TWQ_WAIT)) {
			twq_timed_out();
			return -ETIMEDOUT;
		}
	}
	irqs = twq_timer_irqs() - irqs;
	span = ktime_get_ns() - t0;
	twq_emit("per s", div64_u64(irqs * NSEC_PER_SEC, span),
		 "delay.idle_wakeups.%s", twq_idle_names[kind]);
	return 0;
}

static int twq_idle_wakeups(struct workqueue_struct *wq)
{
	struct twq_idle_set *set = kzalloc(sizeof(*set), GFP_KERNEL);
	enum twq_idle_kind kind;
	unsigned int i;
	int ret = 0;

	if (!set)
		return -ENOMEM;
	init_completion(&set->done);
	for (i = 0; i < TWQ_IDLE_ITEMS; i++) {
		set->items[i].set = set;
		INIT_DELAYED_WORK(&set->items[i].dwork, twq_idle_dwork_fn);
		twq_idle_init_precise(&set->items[i]);
	}
	for (kind = TWQ_IDLE_NONE; kind <= TWQ_IDLE_LAST && !ret; kind++)
		ret = twq_idle_run(wq, set, kind);
	for (i = 0; i < TWQ_IDLE_ITEMS; i++) {
		cancel_delayed_work_sync(&set->items[i].dwork);
		twq_idle_cancel_precise(&set->items[i]);
	}
	kfree(set);
	return ret;
}

static int twq_scenario_delay(const struct twq_scale *sc)
{
	struct twq_delay_item *ds;
	struct workqueue_struct *wq;
	struct twq_threads ts;
	unsigned int i;
	char name[40];
	int ret = -ENOMEM;

	ds = kcalloc(ARRAY_SIZE(twq_delays_ms), sizeof(*ds), GFP_KERNEL);
	wq = alloc_workqueue("twq_delay", 0, 0);
	if (!ds || !wq || twq_threads_init(&ts, ARRAY_SIZE(twq_delays_ms)))
		goto out;
	/* all set up first: the cleanup cancels every one of them */
	for (i = 0; i < ARRAY_SIZE(twq_delays_ms); i++) {
		INIT_DELAYED_WORK(&ds[i].dwork, twq_delay_fn);
		timer_setup(&ds[i].timer, twq_delay_timer_fn, 0);
	}
	for (i = 0; i < ARRAY_SIZE(twq_delays_ms); i++) {
		struct twq_delay_item *d = &ds[i];

		init_completion(&d->done);
		d->wq = wq;
		d->ms = twq_delays_ms[i];
		d->n = sc->delay_n;
		if (twq_samples_init(&d->late, d->n) ||
		    twq_samples_init(&d->timer_late, d->n))
			goto out_threads;
		twq_thread_start(&ts, twq_delay_thread, d, -1, 0, "twq_delay");
	}
	twq_threads_wait(&ts);
	for (i = 0; i < ARRAY_SIZE(twq_delays_ms); i++) {
		snprintf(name, sizeof(name), "delay.%ums.lateness", twq_delays_ms[i]);
		twq_emit_stats(&ds[i].late, "ns", name);
		snprintf(name, sizeof(name), "delay.%ums.timer_lateness",
			 twq_delays_ms[i]);
		twq_emit_stats(&ds[i].timer_late, "ns", name);
	}
	/* before the precise rows, whose hogs leave the tail above */
	ret = twq_idle_wakeups(wq) ?: twq_precise_delays(sc, wq);
out_threads:
	twq_threads_stop(&ts);
	for (i = 0; i < ARRAY_SIZE(twq_delays_ms); i++) {
		cancel_delayed_work_sync(&ds[i].dwork);
		timer_shutdown_sync(&ds[i].timer);
		twq_samples_free(&ds[i].late);
		twq_samples_free(&ds[i].timer_late);
	}
out:
	if (wq)
		destroy_workqueue(wq);
	kfree(ds);
	return ret;
}

/* ------------------------------------------------------------------ */
/* 9. inversion                                                        */
/* ------------------------------------------------------------------ */

/*
 * Seed 003's shape: a job split into CPU-bound chunks on an unbound
 * workqueue whose workers run at nice 19, waited for by a nice-0 task
 * beside one nice-0 hog per CPU: how long the waiter waits.  Two ways of
 * waiting: flush_workqueue() (inversion.flush_time) and flush_work() on
 * each chunk in queueing order (inversion.flush_work.flush_time).
 *
 * The waiter is a kthread pinned to the first online CPU, and the
 * workqueue's pods are NUMA nodes, strictly: the chunks run on the CPUs of
 * the waiter's node, the same ones every repeat (left to the scheduler,
 * they ran on 2 to 4 CPUs from one repeat to the next).  The hogs run for
 * TWQ_INV_SETTLE_MS before the first repeat, and one untimed round creates
 * the workers that the timed ones then find idle, so a repeat does not
 * depend on how fast a nice-19 manager creates workers beside the hogs.
 * Each way repeats inv_repeats times per boot; its row is the mean of the
 * repeats (with the boot's .p50, .min and .max), and .workers and .cpus
 * give the median number of distinct workers and CPUs the chunks of a
 * repeat ran on.
 */
#define TWQ_INV_CHUNK_US	2000
#define TWQ_INV_SETTLE_MS	100

#if IS_BUILTIN(CONFIG_TEST_WORKQUEUE)
struct twq_inv_chunk {
	struct work_struct work;
	unsigned int burn_us;
	pid_t pid;
	int cpu;
};

/**
 * struct twq_inv - one way of waiting for the chunks
 * @name: the rows' name
 * @wq: the nice-19 unbound workqueue
 * @chunks: the chunks, @n of them
 * @n: chunks per repeat
 * @per_item: wait with flush_work() on each chunk, else flush_workqueue()
 * @rt_waiter: the waiter runs SCHED_FIFO (at the lowest priority)
 * @cpu: the CPU the chunks are queued on, or -1 for any
 * @chunk_us: the burn of one chunk
 * @time_ns: the last repeat's wait
 */
struct twq_inv {
	const char *name;
	struct workqueue_struct *wq;
	struct twq_inv_chunk *chunks;
	unsigned int n;
	bool per_item;
	bool rt_waiter;
	int cpu;
	unsigned int chunk_us;
	u64 time_ns;
};

static void twq_inv_fn(struct work_struct *work)
{
	struct twq_inv_chunk *c = container_of(work, struct twq_inv_chunk, work);

	c->pid = current->pid;
	c->cpu = raw_smp_processor_id();
	twq_burn_us(c->burn_us);
}

/* The waiter: queue every chunk, then wait for them in @inv's way. */
static int twq_inv_waiter(void *data)
{
	struct twq_inv *inv = data;
	unsigned int i;
	u64 t0;

	if (inv->rt_waiter)
		sched_set_fifo_low(current);
	t0 = ktime_get_ns();
	for (i = 0; i < inv->n; i++) {
		INIT_WORK(&inv->chunks[i].work, twq_inv_fn);
		inv->chunks[i].burn_us = inv->chunk_us;
		if (inv->cpu >= 0)
			queue_work_on(inv->cpu, inv->wq, &inv->chunks[i].work);
		else
			queue_work(inv->wq, &inv->chunks[i].work);
	}
	if (inv->per_item) {
		for (i = 0; i < inv->n; i++)
			flush_work(&inv->chunks[i].work);
	} else {
		flush_workqueue(inv->wq);
	}
	inv->time_ns = ktime_get_ns() - t0;
	return 0;
}

/* Distinct workers (by PID) and CPUs that ran the chunks of a repeat. */
static void twq_inv_spread(struct twq_inv *inv, unsigned int *workers,
			   unsigned int *cpus)
{
	struct cpumask seen_cpus;
	unsigned int i, j;

	cpumask_clear(&seen_cpus);
	*workers = 0;
	for (i = 0; i < inv->n; i++) {
		for (j = 0; j < i && inv->chunks[j].pid != inv->chunks[i].pid; j++)
			;
		*workers += j == i;
		if (inv->chunks[i].cpu >= 0 && inv->chunks[i].cpu < nr_cpu_ids)
			cpumask_set_cpu(inv->chunks[i].cpu, &seen_cpus);
	}
	*cpus = cpumask_weight(&seen_cpus);
}

/* One repeat: the waiter on the first online CPU at nice 0. */
static int twq_inv_once(struct twq_inv *inv)
{
	struct twq_threads ts;
	int ret = twq_threads_init(&ts, 1);

	if (!ret)
		ret = twq_thread_start(&ts, twq_inv_waiter, inv,
				       cpumask_first(cpu_online_mask), 0, "twq_inv/%u");
	if (!ret && !twq_threads_wait(&ts))
		ret = -ETIMEDOUT;
	twq_threads_stop(&ts);
	return ret;
}

/*
 * Emit the repeats in @s: NAME is their mean (@mean) or median, with
 * NAME.{n,p50,min,max}.
 */
static void twq_emit_repeats(struct twq_samples *s, const char *unit,
			     const char *name, bool mean)
{
	unsigned int n = twq_samples_n(s), i;
	s64 sum = 0;

	twq_emit("count", n, "%s.n", name);
	if (!n)
		return;
	sort(s->v, n, sizeof(*s->v), twq_cmp_s64, NULL);
	for (i = 0; i < n; i++)
		sum += s->v[i];
	twq_emit(unit, mean ? div_s64(sum, n) : twq_percentile(s->v, n, 500),
		 "%s", name);
	if (mean)
		twq_emit(unit, twq_percentile(s->v, n, 500), "%s.p50", name);
	twq_emit(unit, s->v[0], "%s.min", name);
	twq_emit(unit, s->v[n - 1], "%s.max", name);
}

static int twq_inv_run(const struct twq_scale *sc, struct twq_inv *inv)
{
	struct twq_samples t = {}, w = {}, c = {};
	char name[64];
	unsigned int i, workers, cpus;
	int ret;

	ret = twq_samples_init(&t, sc->inv_repeats) ?:
	      twq_samples_init(&w, sc->inv_repeats) ?:
	      twq_samples_init(&c, sc->inv_repeats);
	for (i = 0; i < sc->inv_repeats && !ret; i++) {
		ret = twq_inv_once(inv);
		if (ret)
			break;
		twq_inv_spread(inv, &workers, &cpus);
		twq_sample(&t, inv->time_ns);
		twq_sample(&w, workers);
		twq_sample(&c, cpus);
	}
	if (!ret) {
		twq_emit_repeats(&t, "ns", inv->name, true);
		snprintf(name, sizeof(name), "%s.workers", inv->name);
		twq_emit_repeats(&w, "count", name, false);
		snprintf(name, sizeof(name), "%s.cpus", inv->name);
		twq_emit_repeats(&c, "count", name, false);
	}
	twq_samples_free(&t);
	twq_samples_free(&w);
	twq_samples_free(&c);
	return ret;
}

static struct workqueue_struct *twq_inv_wq(void)
{
	struct workqueue_attrs *attrs = alloc_workqueue_attrs();
	struct workqueue_struct *wq = alloc_workqueue("twq_nice19", WQ_UNBOUND, 0);

	if (attrs && wq) {
		attrs->nice = 19;
		/* the chunks stay on the waiter's node: the same CPUs every time */
		attrs->affn_scope = WQ_AFFN_NUMA;
		attrs->affn_strict = true;
		if (!apply_workqueue_attrs(wq, attrs)) {
			free_workqueue_attrs(attrs);
			return wq;
		}
	}
	if (wq)
		destroy_workqueue(wq);
	free_workqueue_attrs(attrs);
	return NULL;
}

/*
 * The RT waiter: a SCHED_FIFO task flushes one CPU-bound item of a plain
 * per-CPU workqueue, queued on a CPU that TWQ_INV_RT_HOGS more nice-0
 * hogs share with the item's nice-0 worker: the item gets a share of that
 * CPU, unless its waiter's priority reaches it.
 */
#define TWQ_INV_RT_HOGS		8
#define TWQ_INV_RT_ITEM_US	20000

static int twq_inv_rt_waiter(const struct twq_scale *sc,
			     struct twq_inv_chunk *chunk)
{
	struct twq_inv way = {
		.name = "inversion.rt_waiter.flush_time", .chunks = chunk, .n = 1,
		.per_item = true, .rt_waiter = true, .chunk_us = TWQ_INV_RT_ITEM_US,
		.cpu = twq_nth_online_cpu(num_online_cpus() - 1),
	};
	struct twq_threads hogs;
	int ret;

	way.wq = alloc_workqueue("twq_inv_rt", 0, 0);
	if (!way.wq)
		return -ENOMEM;
	ret = twq_hogs_start_on(&hogs, cpumask_of(way.cpu), TWQ_INV_RT_HOGS,
				twq_spin_hog_fn);
	if (!ret) {
		msleep(TWQ_INV_SETTLE_MS);
		ret = twq_inv_run(sc, &way);
	}
	twq_threads_stop(&hogs);
	destroy_workqueue(way.wq);
	return ret;
}

static int twq_scenario_inversion(const struct twq_scale *sc)
{
	struct twq_inv ways[] = {
		{ .name = "inversion.flush_time" },
		{ .name = "inversion.flush_work.flush_time", .per_item = true },
	};
	struct twq_inv_chunk *chunks;
	struct workqueue_struct *wq;
	struct twq_threads hogs;
	unsigned int i;
	int ret = -ENOMEM;

	chunks = kcalloc(sc->inv_chunks, sizeof(*chunks), GFP_KERNEL);
	wq = twq_inv_wq();
	if (!chunks || !wq)
		goto out;
	for (i = 0; i < ARRAY_SIZE(ways); i++) {
		ways[i].wq = wq;
		ways[i].chunks = chunks;
		ways[i].n = sc->inv_chunks;
		ways[i].cpu = -1;
		ways[i].chunk_us = TWQ_INV_CHUNK_US;
	}
	ret = twq_inv_once(&ways[0]);	/* untimed: creates the workers */
	if (!ret)
		ret = twq_hogs_start(&hogs, 1, twq_spin_hog_fn);
	if (ret)
		goto out;
	msleep(TWQ_INV_SETTLE_MS);
	for (i = 0; i < ARRAY_SIZE(ways) && !ret; i++)
		ret = twq_inv_run(sc, &ways[i]);
	if (!ret)
		ret = twq_inv_rt_waiter(sc, chunks);
	twq_emit("count", sc->inv_chunks, "inversion.chunks");
	twq_threads_stop(&hogs);
out:
	kfree(chunks);
	if (wq)
		destroy_workqueue(wq);
	return ret;
}
#else
static int twq_scenario_inversion(const struct twq_scale *sc)
{
	pr_info("inversion: apply_workqueue_attrs() is not exported; built in only\n");
	return 0;
}
#endif

/* ------------------------------------------------------------------ */
/* 10. rcu_exp                                                         */
/* ------------------------------------------------------------------ */

/*
 * synchronize_rcu_expedited() from a nice-0 task, with 0, 1 and 2 nice-0
 * hogs per CPU: the latency RCU left workqueues for in 5.19.  On stock
 * its grace periods run on RCU's kthread_workers (SCHED_FIFO with
 * CONFIG_RCU_EXP_KTHREAD), on the rework on workqueues (WQ_RT with it).
 * Before timing, the threads each kernel keeps for it: real-time threads
 * in all, real-time kworkers among them, and RCU's own "rcu_exp" ones.
 * Each hog level starts with an untimed grace period.  Beside the
 * percentiles, the grace periods that took over a millisecond: under hogs
 * a waiter woken while a hog it shares its CPU with has just started its
 * slice waits for that slice (EEVDF), on either kernel, about 2 times in
 * 1000 at one hog per CPU.  A maximum over fewer grace periods than that
 * says whether the wait happened to come, not how long it lasts, so the
 * quick scale times 1000 a level as the full one does (a few seconds of
 * guest time); the count of them is reported beside it.
 */
static bool twq_task_is_rt(struct task_struct *p)
{
	return p->policy == SCHED_FIFO || p->policy == SCHED_RR;
}

static void twq_emit_rt_threads(void)
{
	unsigned int rt = 0, rt_kworkers = 0, rcu_exp = 0;
	struct task_struct *g, *p;

	rcu_read_lock();
	for_each_process_thread(g, p) {
		rt += twq_task_is_rt(p);
		rt_kworkers += twq_task_is_rt(p) && str_has_prefix(p->comm, "kworker/");
		rcu_exp += str_has_prefix(p->comm, "rcu_exp");
	}
	rcu_read_unlock();
	twq_emit("count", rt, "rcu_exp.rt_threads");
	twq_emit("count", rt_kworkers, "rcu_exp.rt_kworkers");
	twq_emit("count", rcu_exp, "rcu_exp.rcu_exp_kthreads");
}

/* Time @n expedited grace periods from %current into @lat, at random gaps. */
static void twq_rcu_time_gps(struct twq_samples *lat, unsigned int n,
			     struct rnd_state *rnd)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int gap = 100 + prandom_u32_state(rnd) % 400;
		u64 t0 = ktime_get_ns();

		synchronize_rcu_expedited();
		twq_sample(lat, ktime_get_ns() - t0);
		usleep_range(gap, gap + 50);
	}
}

static void twq_rcu_emit(struct twq_samples *lat, const char *name)
{
	twq_emit("count", twq_count_over(lat, NSEC_PER_MSEC), "%s.over_1ms", name);
	twq_emit_stats(lat, "ns", name);
}

/*
 * The hostile neighbours of a caller's CPU, one at a time on the last
 * online CPU: "rthog", a SCHED_FIFO 50 thread spinning there while the
 * caller is a SCHED_FIFO 60 thread of that CPU; "wqhog", per-CPU items
 * that spin there 5 ms each without sleeping (requeued back to back, each
 * under the CPU-intensive threshold) while the caller is a nice-0 thread
 * of that CPU.  6.12's kthread_workers may run anywhere; a grace period
 * must not need the held CPU on the rework either.
 */
struct twq_rcu_neighbour {
	struct twq_samples lat;
	unsigned int n;
	struct rnd_state rnd;
	int caller_prio;		/* SCHED_FIFO priority, 0: nice 0 */
	struct work_struct spin;	/* wqhog's item */
	struct workqueue_struct *wq;
	int cpu;
	bool stop;
};

static void twq_set_fifo(struct task_struct *t, int prio)
{
	struct sched_attr attr = {
		.size = sizeof(attr), .sched_policy = SCHED_FIFO,
		.sched_priority = prio,
	};

	WARN_ON_ONCE(sched_setattr_nocheck(t, &attr));
}

static int twq_rcu_caller_fn(void *data)
{
	struct twq_rcu_neighbour *nb = data;

	if (nb->caller_prio)
		twq_set_fifo(current, nb->caller_prio);
	synchronize_rcu_expedited();	/* untimed, as at every level */
	twq_rcu_time_gps(&nb->lat, nb->n, &nb->rnd);
	return 0;
}

static void twq_rcu_spin_fn(struct work_struct *work)
{
	struct twq_rcu_neighbour *nb = container_of(work, struct twq_rcu_neighbour, spin);
	u64 until = ktime_get_ns() + 5 * NSEC_PER_MSEC, x = 0;

	while (ktime_get_ns() < until)
		x = twq_spin(x, 100);
	WRITE_ONCE(twq_spin_sink, x);
	if (!READ_ONCE(nb->stop))
		queue_work_on(nb->cpu, nb->wq, work);
}

/* Start @nb's neighbour; @rt: the RT thread, else the per-CPU items. */
static int twq_rcu_neighbour_start(struct twq_rcu_neighbour *nb, bool rt,
				   struct twq_threads *hog)
{
	int ret;

	if (!rt) {
		nb->wq = alloc_workqueue("twq_rcu_hog", 0, 0);
		if (!nb->wq)
			return -ENOMEM;
		INIT_WORK_ONSTACK(&nb->spin, twq_rcu_spin_fn);
		queue_work_on(nb->cpu, nb->wq, &nb->spin);
		return 0;
	}
	ret = twq_hogs_start_on(hog, cpumask_of(nb->cpu), 1, twq_spin_hog_fn);
	if (!ret)
		twq_set_fifo(hog->th[0].task, 50);
	return ret;
}

static void twq_rcu_neighbour_stop(struct twq_rcu_neighbour *nb,
				   struct twq_threads *hog)
{
	twq_threads_stop(hog);
	if (nb->wq) {
		WRITE_ONCE(nb->stop, true);
		cancel_work_sync(&nb->spin);
		destroy_work_on_stack(&nb->spin);
		destroy_workqueue(nb->wq);
	}
}

static int twq_rcu_exp_neighbour(const struct twq_scale *sc, bool rt,
				 struct rnd_state *rnd)
{
	struct twq_rcu_neighbour nb = {
		.n = sc->rcu_n, .rnd = *rnd, .caller_prio = rt ? 60 : 0,
		.cpu = cpumask_last(cpu_online_mask),
	};
	struct twq_threads hog = {}, caller = {};
	int ret;

	ret = twq_samples_init(&nb.lat, sc->rcu_n) ?:
	      twq_threads_init(&caller, 1) ?:
	      twq_rcu_neighbour_start(&nb, rt, &hog) ?:
	      twq_thread_start(&caller, twq_rcu_caller_fn, &nb, nb.cpu, 0,
			       "twq_rcu_caller/%u");
	if (!ret && !twq_threads_wait(&caller))
		ret = -ETIMEDOUT;
	twq_threads_stop(&caller);
	twq_rcu_neighbour_stop(&nb, &hog);
	if (!ret)
		twq_rcu_emit(&nb.lat, rt ? "rcu_exp.rthog" : "rcu_exp.wqhog");
	twq_samples_free(&nb.lat);
	return ret;
}

static int twq_scenario_rcu_exp(const struct twq_scale *sc)
{
	struct rnd_state rnd;
	unsigned int hogs;
	char name[32];
	int ret = 0;

	twq_emit_rt_threads();
	prandom_seed_state(&rnd, 4099);
	for (hogs = 0; hogs <= 2 && !ret; hogs++) {
		struct twq_threads hog_ts = {};
		struct twq_samples lat = {};

		ret = twq_samples_init(&lat, sc->rcu_n) ?:
		      twq_hogs_start(&hog_ts, hogs, twq_hog_fn);
		/* untimed: what either kernel sets up on first use */
		if (!ret) {
			synchronize_rcu_expedited();
			twq_rcu_time_gps(&lat, sc->rcu_n, &rnd);
		}
		twq_threads_stop(&hog_ts);
		snprintf(name, sizeof(name), "rcu_exp.hogs%u", hogs);
		if (!ret)
			twq_rcu_emit(&lat, name);
		twq_samples_free(&lat);
	}
	if (!ret && num_online_cpus() > 1)
		ret = twq_rcu_exp_neighbour(sc, true, &rnd) ?:
		      twq_rcu_exp_neighbour(sc, false, &rnd);
	return ret;
}

/* ------------------------------------------------------------------ */
/* 11. footprint                                                       */
/* ------------------------------------------------------------------ */

static void twq_emit_footprint(const char *when)
{
	twq_emit("count", twq_count_kworkers(), "footprint.%s.kworkers", when);
	twq_emit("kB", global_node_page_state(NR_KERNEL_STACK_KB),
		 "footprint.%s.kernel_stack", when);
	twq_emit("kB", global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) *
		 (PAGE_SIZE / 1024), "footprint.%s.slab_unreclaimable", when);
}

/* ------------------------------------------------------------------ */
/* 12. runner, debugfs and module glue                                 */
/* ------------------------------------------------------------------ */

struct twq_scenario {
	const char *name;
	int (*fn)(const struct twq_scale *sc);
};

static const struct twq_scenario twq_scenarios[] = {
	{ "perfwq", twq_scenario_perfwq },
	{ "latency", twq_scenario_latency },
	{ "throughput", twq_scenario_throughput },
	{ "flush", twq_scenario_flush },
	{ "delay", twq_scenario_delay },
	{ "inversion", twq_scenario_inversion },
	{ "rcu_exp", twq_scenario_rcu_exp },
	{ "footprint", NULL },	/* sampled around the others */
};

static bool twq_booted_footprint;

/* Run the scenarios in bit mask @mask at @sc, idling @idle_s at the end. */
static int twq_run(unsigned long mask, const struct twq_scale *sc,
		   unsigned int idle_s)
{
	bool footprint = mask & BIT(ARRAY_SIZE(twq_scenarios) - 1);
	unsigned int i;
	int ret = 0;

	if (footprint && !twq_booted_footprint) {
		twq_emit_footprint("boot");
		twq_booted_footprint = true;
	}
	for (i = 0; i < ARRAY_SIZE(twq_scenarios) && !ret; i++) {
		const struct twq_scenario *s = &twq_scenarios[i];
		u64 t0 = ktime_get_ns();
		char when[32];

		if (!s->fn || !(mask & BIT(i)))
			continue;
		pr_info("TWQ-BEGIN %s scale=%s\n", s->name, sc->name);
		atomic_set(&twq_timeouts, 0);
		ret = s->fn(sc);
		if (atomic_read(&twq_timeouts))
			twq_emit("count", atomic_read(&twq_timeouts), "%s.timeouts",
				 s->name);
		pr_info("TWQ-DONE %s %llu ms%s\n", s->name,
			div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC),
			ret ? " (failed)" : "");
		if (footprint) {
			snprintf(when, sizeof(when), "after_%s", s->name);
			twq_emit_footprint(when);
		}
	}
	if (footprint && idle_s && !ret) {
		pr_info("TWQ-BEGIN idle %us\n", idle_s);
		ssleep(idle_s);
		twq_emit_footprint("after_idle");
	}
	pr_info("TWQ-END%s\n", ret ? " (failed)" : "");
	return ret;
}

/*
 * Parse "SCENARIO... [scale=S] [idle_wait_s=N] [kind=K]... [queuers=N]"
 * and run it.
 */
static int twq_run_command(char *cmd)
{
	const struct twq_scale *sc = &twq_scales[1];
	unsigned long mask = 0, kinds = 0;
	unsigned int idle_s = 0, max_q = UINT_MAX, i;
	char *tok;
	int kind;

	while ((tok = strsep(&cmd, " \t\n,")) != NULL) {
		if (!*tok)
			continue;
		if (str_has_prefix(tok, "scale=")) {
			for (i = 0; i < ARRAY_SIZE(twq_scales); i++)
				if (!strcmp(tok + 6, twq_scales[i].name))
					break;
			if (i == ARRAY_SIZE(twq_scales))
				return -EINVAL;
			sc = &twq_scales[i];
		} else if (str_has_prefix(tok, "idle_wait_s=")) {
			if (kstrtouint(tok + 12, 10, &idle_s))
				return -EINVAL;
		} else if (str_has_prefix(tok, "queuers=")) {
			if (kstrtouint(tok + 8, 10, &max_q) || !max_q)
				return -EINVAL;
		} else if (str_has_prefix(tok, "kind=")) {
			kind = match_string(twq_kind_names, TWQ_NR_KINDS, tok + 5);
			if (kind < 0)
				return -EINVAL;
			kinds |= BIT(kind);
		} else if (!strcmp(tok, "all")) {
			mask = BIT(ARRAY_SIZE(twq_scenarios)) - 1;
		} else {
			for (i = 0; i < ARRAY_SIZE(twq_scenarios); i++)
				if (!strcmp(tok, twq_scenarios[i].name))
					break;
			if (i == ARRAY_SIZE(twq_scenarios))
				return -EINVAL;
			mask |= BIT(i);
		}
	}
	if (!mask)
		return -EINVAL;
	twq_kinds = kinds ?: BIT(TWQ_NR_KINDS) - 1;
	twq_max_queuers = max_q;
	return twq_run(mask, sc, idle_s);
}

static char *twq_run_param;
module_param_named(run, twq_run_param, charp, 0444);
MODULE_PARM_DESC(run, "scenarios to run at load: \"SCENARIO... [scale=tiny|quick|full] [idle_wait_s=N] [kind=K]... [queuers=N]\"");

static struct dentry *twq_dir;
static struct workqueue_struct *twq_sysfs_wq[2];

/* Copy a short command from user space, NUL-terminated. */
static int twq_get_cmd(char *buf, size_t size, const char __user *ubuf,
		       size_t count)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

static ssize_t twq_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char cmd[128];
	int ret = twq_get_cmd(cmd, sizeof(cmd), ubuf, count);

	if (ret)
		return ret;
	mutex_lock(&twq_mutex);
	ret = twq_run_command(cmd);
	mutex_unlock(&twq_mutex);
	return ret ? ret : count;
}

/*
 * The selftest hooks, churn, freezer, rt, timer, hist, grow and rcu:
 * writing the verb starts one, reading reports its outcome (for churn,
 * stopping it first).
 */
struct twq_hook {
	const char *verb;
	int (*start)(void);
	int (*report)(char *buf, size_t len);
};

static const struct twq_hook twq_churn_hook = {
	.verb = "start", .start = twq_churn_start, .report = twq_churn_stop,
};

static const struct twq_hook twq_freezer_hook = {
	.verb = "arm", .start = twq_freezer_arm, .report = twq_freezer_show,
};

/*
 * The rt hook: "create" makes twq_rt, a WQ_RT | WQ_SYSFS workqueue, for the
 * sysfs selftest (only on demand: the first RT workqueue gives every CPU an
 * RT worker, which the bench's footprint should not count).  -EOPNOTSUPP
 * where the kernel has no WQ_RT.
 */
static struct workqueue_struct *twq_rt_wq;

static int twq_rt_create(void)
{
#ifdef WQ_HAS_RT_CLASS
	if (!twq_rt_wq)
		twq_rt_wq = alloc_workqueue("twq_rt", WQ_RT | WQ_SYSFS, 0);
	return twq_rt_wq ? 0 : -ENOMEM;
#else
	return -EOPNOTSUPP;
#endif
}

static int twq_rt_show(char *buf, size_t len)
{
	return scnprintf(buf, len, "%s\n", twq_rt_wq ? "twq_rt" : "none");
}

static const struct twq_hook twq_rt_hook = {
	.verb = "create", .start = twq_rt_create, .report = twq_rt_show,
};

/*
 * The timer hook: "arm" queues a delayed item an hour ahead on the system
 * workqueue from the writer's CPU (WORK_CPU_UNBOUND); reading reports
 * that CPU and the CPU whose timer base holds the item's timer, then
 * cancels the item.  With nohz_full= the timer belongs on a housekeeping
 * CPU (wq_isolation.sh).
 */
static struct delayed_work twq_timer_dwork;
static int twq_timer_from = -1;

static void twq_timer_fn(struct work_struct *work)
{
}

static int twq_timer_arm(void)
{
	cancel_delayed_work_sync(&twq_timer_dwork);
	twq_timer_from = get_cpu();
	queue_delayed_work(system_wq, &twq_timer_dwork, 3600 * HZ);
	put_cpu();
	return 0;
}

static int twq_timer_show(char *buf, size_t len)
{
	int timer_cpu = -1, ret;

	if (delayed_work_pending(&twq_timer_dwork))
		timer_cpu = READ_ONCE(twq_timer_dwork.timer.flags) & TIMER_CPUMASK;
	ret = scnprintf(buf, len, "from=%d timer=%d\n", twq_timer_from, timer_cpu);
	cancel_delayed_work_sync(&twq_timer_dwork);
	return ret;
}

static const struct twq_hook twq_timer_hook = {
	.verb = "arm", .start = twq_timer_arm, .report = twq_timer_show,
};

/*
 * The hist hook: "slow" runs twq_hist_slow_fn(), which sleeps 20 ms, on
 * twq_percpu, twice on the writer's CPU, one after the other (the first
 * item of a pwq gets its histograms allocated, the second is timed), for
 * the histogram selftest; reading reports workqueue_hist_read() of it.
 */
#define TWQ_HIST_SLOW_MS	20

static void twq_hist_slow_fn(struct work_struct *work)
{
	msleep(TWQ_HIST_SLOW_MS);
}

static int twq_hist_slow(void)
{
	struct work_struct work;
	int cpu = raw_smp_processor_id(), i;

	INIT_WORK_ONSTACK(&work, twq_hist_slow_fn);
	for (i = 0; i < 2; i++) {
		queue_work_on(cpu, twq_sysfs_wq[1], &work);
		flush_work(&work);
	}
	destroy_work_on_stack(&work);
	return 0;
}

/*
 * "twq_percpu read=RET zeroed=0|1": what workqueue_hist_read() returns for
 * its running histogram, and whether the buckets came back zeroed ("read=
 * none" where the kernel has no histograms).
 */
static int twq_hist_show(char *buf, size_t len)
{
#ifdef WQ_HAS_HISTOGRAMS
	u64 buckets[WQ_HIST_BUCKETS];
	bool zeroed = true;
	int ret, b;

	memset(buckets, 0xff, sizeof(buckets));
	ret = workqueue_hist_read(twq_sysfs_wq[1], WQ_HIST_RUNNING, buckets);
	for (b = 0; b < WQ_HIST_BUCKETS; b++)
		zeroed &= !buckets[b];
	return scnprintf(buf, len, "twq_percpu read=%d zeroed=%d\n", ret, zeroed);
#else
	return scnprintf(buf, len, "twq_percpu read=none\n");
#endif
}

static const struct twq_hook twq_hist_hook = {
	.verb = "slow", .start = twq_hist_slow, .report = twq_hist_show,
};

/*
 * The grow hook: "grow" queues TWQ_GROW_ITEMS items that each sleep
 * TWQ_GROW_MS on the system workqueue, all at once on the writer's CPU,
 * and waits for them.  Each item that sleeps lets the next start, so that
 * CPU's normal pool grows a worker for about each; five idle minutes
 * later it culls the extra ones (wq_isolation.sh watches where they
 * exit).  Reading reports the CPU.
 */
#define TWQ_GROW_ITEMS	8
#define TWQ_GROW_MS	50

static int twq_grow_cpu = -1;

static void twq_grow_fn(struct work_struct *work)
{
	msleep(TWQ_GROW_MS);
}

static int twq_grow(void)
{
	struct work_struct *works;
	int cpu = raw_smp_processor_id(), i;

	works = kcalloc(TWQ_GROW_ITEMS, sizeof(*works), GFP_KERNEL);
	if (!works)
		return -ENOMEM;
	for (i = 0; i < TWQ_GROW_ITEMS; i++) {
		INIT_WORK(&works[i], twq_grow_fn);
		queue_work_on(cpu, system_wq, &works[i]);
	}
	for (i = 0; i < TWQ_GROW_ITEMS; i++)
		flush_work(&works[i]);
	kfree(works);
	twq_grow_cpu = cpu;
	return 0;
}

static int twq_grow_show(char *buf, size_t len)
{
	return scnprintf(buf, len, "cpu=%d\n", twq_grow_cpu);
}

static const struct twq_hook twq_grow_hook = {
	.verb = "grow", .start = twq_grow, .report = twq_grow_show,
};

/*
 * The rcu hook: "exp" asks for TWQ_EXP_GPS expedited grace periods, one
 * after the other, from the writer's CPU; reading reports that CPU (the
 * isolation selftest traces where their items run).
 */
#define TWQ_EXP_GPS	3

static int twq_exp_cpu = -1;

static int twq_exp_gps(void)
{
	int i;

	twq_exp_cpu = raw_smp_processor_id();
	for (i = 0; i < TWQ_EXP_GPS; i++)
		synchronize_rcu_expedited();
	return 0;
}

static int twq_exp_show(char *buf, size_t len)
{
	return scnprintf(buf, len, "cpu=%d\n", twq_exp_cpu);
}

static const struct twq_hook twq_rcu_hook = {
	.verb = "exp", .start = twq_exp_gps, .report = twq_exp_show,
};

static ssize_t twq_hook_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct twq_hook *hook = file->private_data;
	char cmd[16];
	int ret = twq_get_cmd(cmd, sizeof(cmd), ubuf, count);

	if (ret)
		return ret;
	mutex_lock(&twq_mutex);
	ret = sysfs_streq(cmd, hook->verb) ? hook->start() : -EINVAL;
	mutex_unlock(&twq_mutex);
	return ret ? ret : count;
}

static ssize_t twq_hook_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	const struct twq_hook *hook = file->private_data;
	char buf[320];
	int len;

	if (*ppos)
		return 0;
	mutex_lock(&twq_mutex);
	len = hook->report(buf, sizeof(buf));
	mutex_unlock(&twq_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations twq_run_fops = {
	.owner = THIS_MODULE,
	.write = twq_run_write,
};

static const struct file_operations twq_hook_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = twq_hook_write,
	.read = twq_hook_read,
};

static void twq_sysfs_wqs_free(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(twq_sysfs_wq); i++)
		if (twq_sysfs_wq[i])
			destroy_workqueue(twq_sysfs_wq[i]);
	if (twq_rt_wq)
		destroy_workqueue(twq_rt_wq);
}

static int __init twq_init(void)
{
	twq_spin_calibrate();
	twq_sysfs_wq[0] = alloc_workqueue("twq_unbound", WQ_UNBOUND | WQ_SYSFS, 0);
	twq_sysfs_wq[1] = alloc_workqueue("twq_percpu", WQ_SYSFS, 0);
	if (!twq_sysfs_wq[0] || !twq_sysfs_wq[1]) {
		twq_sysfs_wqs_free();
		return -ENOMEM;
	}
	twq_dir = debugfs_create_dir("test_workqueue", NULL);
	debugfs_create_file("run", 0200, twq_dir, NULL, &twq_run_fops);
	debugfs_create_file("churn", 0600, twq_dir, (void *)&twq_churn_hook,
			    &twq_hook_fops);
	debugfs_create_file("freezer", 0600, twq_dir, (void *)&twq_freezer_hook,
			    &twq_hook_fops);
	debugfs_create_file("rt", 0600, twq_dir, (void *)&twq_rt_hook,
			    &twq_hook_fops);
	INIT_DELAYED_WORK(&twq_timer_dwork, twq_timer_fn);
	debugfs_create_file("timer", 0600, twq_dir, (void *)&twq_timer_hook,
			    &twq_hook_fops);
	debugfs_create_file("hist", 0600, twq_dir, (void *)&twq_hist_hook,
			    &twq_hook_fops);
	debugfs_create_file("grow", 0600, twq_dir, (void *)&twq_grow_hook,
			    &twq_hook_fops);
	debugfs_create_file("rcu", 0600, twq_dir, (void *)&twq_rcu_hook,
			    &twq_hook_fops);
	twq_tax_start();

	if (twq_run_param) {
		char *cmd = kstrdup(twq_run_param, GFP_KERNEL);

		if (cmd)
			twq_run_command(cmd);
		kfree(cmd);
	}
	return 0;
}

static void __exit twq_exit(void)
{
	char buf[96];

	debugfs_remove_recursive(twq_dir);
	mutex_lock(&twq_mutex);
	twq_churn_stop(buf, sizeof(buf));
	twq_freezer_free();
	mutex_unlock(&twq_mutex);
	cancel_delayed_work_sync(&twq_timer_dwork);
	twq_sysfs_wqs_free();
}

module_init(twq_init);
module_exit(twq_exit);
MODULE_DESCRIPTION("Workqueue load and measurement module");
MODULE_LICENSE("GPL");
