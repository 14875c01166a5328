/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ordered.pml - model 3: an ordered workqueue across one rebuild.
 *
 * The workqueue has pwq0 on pool0 (worker 0); a rebuild
 * (install_wq_table(): an attribute or cpumask write) links pwq1 on pool1
 * (worker 1), plugged, and switches the table entries of CPU 0, CPU 1
 * and dfl_pwq to it one at a time, each put of pwq0 after its switch.
 * When pwq0's last reference goes, pwq_release_workfn() (the release
 * worker) unlinks it and unplugs pwq1.  max_active is 1 on each pwq (the
 * node quota of an ordered workqueue is left out: plugging is what orders
 * the pwqs).
 *
 * Scenario "queue" (default): queuer 1 queues I1 from CPU 0; once that
 * call returned, queuer 2 queues I2 from CPU 1; the rebuild runs at any
 * point.  Properties:
 *   one_at_a_time  never two items of the workqueue running
 *   in_order       I2 does not start before I1 ran
 * Bugs put back:
 *   BUG_CPU_ENTRY  __queue_work() takes the queuing CPU's table entry, as
 *                  6.12 does (c24c716): in_order fails
 *   BUG_NO_PLUG    the new pwq is not plugged: one_at_a_time fails
 *
 * Scenario "requeue" (-DSCEN_REQUEUE): I1 runs on pwq0 when the rebuild
 * starts; a queuer queues I1 again from CPU 0, a flusher calls
 * flush_work(I1), a canceller cancel_work_sync(I1).  Properties:
 *   one_at_a_time  as above
 *   flush_no_early flush_work(I1) returns only once the runs of I1 going
 *                  on or queued at its call ended (or were cancelled)
 *   cancel_waits   cancel_work_sync(I1) returns with I1 neither running
 *                  nor pending
 *   returns        the flusher and the canceller return (weak fairness)
 * With -DREQUEUE_TWICE the queuer queues I1 once more after its first
 * call returned (an instance on pwq1 may start, and another be queued
 * behind it, while the canceller looks).
 * With -DLINK_THEN_CANCEL (e929cb8's shape) the flusher calls
 * flush_work(I1) once I1 was queued again, and the canceller starts once
 * the flusher's barrier is in place.
 * Bugs put back:
 *   BUG_PLUGGED_BARRIERS_TO_WORKLIST  the barriers of the cancelled
 *                  instance in plugged pwq1 go to pool1's worklist (before
 *                  e929cb8): flush_no_early fails
 *   BUG_FLUSH_GIVES_UP_ON_MOVED  insert_flush_barrier() returns false
 *                  when locate_work_locked() finds I1 queued on another
 *                  pool than the one it read (6.12's start_flush_work()):
 *                  a flusher that read pool0 before a rebuild, while I1
 *                  starts on pool0 and is queued again on pwq1, returns
 *                  during the run: flush_no_early fails
 *   BUG_NAME_RUNNER_LATE  try_to_grab_pending() makes the data name the
 *                  pool it took I1 from (pool1), and the pool running I1
 *                  only once the lock is dropped (point_at_ordered_runner(),
 *                  2b46cee): a flush_work() that reads the data in between
 *                  finds nothing on pool1 and returns during the run:
 *                  flush_no_early fails
 *   BUG_ONLY_QUEUED_MOVES  locate_work_locked() sets moved only for I1
 *                  queued on another pool, not for I1 off queue with the
 *                  data naming another pool (before a6d23bc): a flusher
 *                  that read pool1 while I1 was queued on pwq1 locks pool1
 *                  after a cancel took I1 off and named pool0, which runs
 *                  it, finds nothing there and returns during the run:
 *                  flush_no_early fails (window 3)
 *   BUG_PEEKED_RUNNER_WINS  try_to_grab_pending() names the pool
 *                  ordered_runner_pool() found running I1 before the lock
 *                  even when a worker of the grabbed pool runs I1 by then
 *                  (before a6d23bc): with -DREQUEUE_TWICE the run on pool0
 *                  ends, I1 starts on pool1 and is queued on pwq1 again
 *                  before the canceller locks pool1, the peek still
 *                  matches, the data names pool0 and the flushes find
 *                  nothing there: cancel_waits and flush_no_early fail
 *                  (window 4)
 *   BUG_FORGET_RUNNER  no ordered_runner_pool(): the cancelled item names
 *                  pwq1's pool, not the pool running it (before 2b46cee,
 *                  and 6.12): cancel_waits fails
 *   BUG_612_CANCEL  6.12's try_to_grab_pending() (the barriers to the
 *                  worklist, nobody woken) and unplug_oldest_pwq() (a
 *                  wake-up only if an item was activated): returns fails
 */
#ifdef BUG_612_CANCEL
#define BUG_MISSING_WAKEUP
#define BUG_FORGET_RUNNER
#endif

#define NPOOL		2
#define NPWQ		2
#define NWORKER		2
#define I1		1
#define I2		2
#define BF		3	/* the barrier of flush_work(I1) */
#define BC		4	/* the barrier of cancel_work_sync(I1) */
#define FIRST_BARRIER	3
#define NITEM		4
#define LMAX		3
#define NCOLOR		1

#define PWQ_POOL(q)	(q)
#define WORKER_POOL(w)	(w)
#define MAX_ACTIVE(q)	1

#define REBUILD		NWORKER
#define RELEASER	(NWORKER + 1)
#define QUEUER(n)	(NWORKER + 2 + (n))
#define FLUSHER		(NWORKER + 4)
#define CANCELLER	(NWORKER + 5)

inline pr_other(me)
{
	if
	:: me == REBUILD -> printf("rebuild")
	:: me == RELEASER -> printf("pwq release worker")
	:: me == FLUSHER -> printf("flusher")
	:: me == CANCELLER -> printf("canceller")
	:: else -> printf("queuer%d", me - QUEUER(0) + 1)
	fi
}

/* the runs of the item a flush_work() waits for: bits 1 to 3 of need */
inline pr_need()
{
	if
	:: need == 0 -> printf("nothing")
	:: need == 2 -> printf("its first queueing")
	:: need == 4 -> printf("its second queueing")
	:: need == 8 -> printf("its third queueing")
	:: need == 6 -> printf("its first and second queueings")
	:: else -> printf("its second and third queueings")
	fi
}

inline pr_item(x)
{
	if
	:: x == I1 -> printf("I1")
	:: x == I2 -> printf("I2")
	:: x == BF -> printf("the barrier of flush_work(I1)")
	:: else -> printf("the barrier of cancel_work_sync(I1)")
	fi
}

#define PUT_PWQ(q)		put_pwq(q)
#if defined(BUG_NAME_RUNNER_LATE)
#define AFTER_GRAB(me, x)	point_at_runner(me, x)
#elif !defined(BUG_FORGET_RUNNER)
#define ORDERED_RUNNER_POOL(me, x)	ordered_runner_pool(me, x)
#endif

#include "common.pml"

byte tbl[3];			/* cpu_pwq of CPU 0 and 1, and dfl_pwq */
#define DFL		2
bit  onlist[NPWQ];		/* on wq->pwqs: pwq0 first */
bit  relreq[NPWQ];		/* release work queued (refcnt reached 0) */
bit  wq_mutex;			/* held by the rebuild */
hidden byte s_rq;

/* put_pwq_locked(): the last reference queues the release work */
inline put_pwq(q)
{
	refcnt[q]--;
	if
	:: refcnt[q] == 0 ->
		relreq[q] = 1;
		printf("@     put_pwq_locked(): last reference to pwq%d, release work queued\n", q)
	:: else
	fi
}

/* for the properties */
byte nrun;			/* items running */
byte fin[NITEM + 1];		/* runs that ended, per item */
bit  q1done;			/* queuer 1's call returned */
bit  bad_order;
#define I_QUEUED	1
#define I_RUNNING	2
#define I_DONE		3
#define I_CANCELLED	4
byte inst[4];			/* I1's instances, in queueing order (1..3) */
byte nins;
byte need;
bit  bad_flush, bad_cancel, flushed, cancelled;

inline on_queued(x)
{
	if
	:: x == I1 -> nins++; inst[nins] = I_QUEUED
	:: else
	fi
}

inline on_queue_busy(x)
{
	skip
}

inline on_grab(x)
{
	inst[nins] = I_CANCELLED
}

inline on_begin(w, x)
{
	if
	:: !IS_BARRIER(x) ->
		nrun++;
		if
		:: x == I2 && fin[I1] == 0 ->
			bad_order = 1;
			printf("@     I2 starts before I1 ran\n")
		:: else
		fi
	:: else
	fi;
	if
	:: x == I1 -> inst[nins] = I_RUNNING
	:: else
	fi
}

inline on_finish(w, x)
{
	if
	:: !IS_BARRIER(x) -> nrun--; fin[x]++
	:: else
	fi;
	if
	:: x == I1 && inst[nins] == I_RUNNING -> inst[nins] = I_DONE
	:: x == I1 && inst[nins] != I_RUNNING -> inst[nins - 1] = I_DONE
	:: else
	fi
}

#define WORKER_LOCALS
inline item_function(w)
{
	skip
}

#include "worker.pml"

/*
 * ordered_runner_pool(), in try_to_grab_pending() before the lock of pool
 * gp: if the peek found @x queued (gk), look for a run of @x on the pools
 * of the other pwqs on wq->pwqs, one pool lock at a time; the data is to
 * name the pool found running it (gn; else gp, as read), unless a worker
 * of gp runs @x once gp is locked (grab_locked()).  The caller declares
 * byte rq.
 */
inline ordered_runner_pool(me, x)
{
	rq = 0;
	do
	:: gk != NONE && rq < NPWQ ->
		d_step {
			if
			:: onlist[rq] && PWQ_POOL(rq) != gp ->
				find_runner(PWQ_POOL(rq), x);
				STEP(me);
				printf("ordered_runner_pool(): pool%d ", PWQ_POOL(rq));
				if
				:: s_w != NONE ->
					gn = PWQ_POOL(rq);
					printf("runs it: the data is to name it\n");
					rq = NPWQ
				:: else ->
					printf("does not run it\n");
					rq++
				fi
			:: else -> rq++
			fi
		}
	:: else -> break
	od;
	rq = 0
}

#ifdef BUG_NAME_RUNNER_LATE
/*
 * Before the fix: point_at_ordered_runner() (2b46cee), after
 * try_to_grab_pending() dropped the lock of the pool it took @x from,
 * which the data names meanwhile: look for a run of @x on the pools of
 * the other pwqs, one pool lock at a time, and name it.  The caller
 * declares byte rq, gn (here the grabbed pool).
 */
inline point_at_runner(me, x)
{
	gn = lastpool[x];
	rq = 0;
	do
	:: rq < NPWQ ->
		d_step {
			if
			:: onlist[rq] && PWQ_POOL(rq) != gn ->
				find_runner(PWQ_POOL(rq), x);
				STEP(me);
				printf("point_at_ordered_runner(): pool%d ", PWQ_POOL(rq));
				if
				:: s_w != NONE ->
					lastpool[x] = PWQ_POOL(rq);
					printf("runs it: named in its data\n");
					rq = NPWQ
				:: else ->
					printf("does not run it\n");
					rq++
				fi
			:: else -> rq++
			fi
		}
	:: else -> break
	od;
	rq = 0;
	gn = 0
}
#endif

/*
 * queue_work_on(@cpu, @x) on the ordered workqueue: claim_work(), then
 * __queue_work(): the pwq read from dfl_pwq (BUG_CPU_ENTRY: from the
 * CPU's entry) without a lock, then under its pool's lock, again if that
 * pwq lost its last reference meanwhile.  lock_pool_for_queueing() does
 * not look for a run elsewhere: the order keeps runs apart.  The caller
 * declares byte st, qq.
 */
inline queue_ordered(me, cpu, x)
{
	claim_step(me, cpu, x, st);
	if
	:: st ->
		do
		:: atomic {
#ifdef BUG_CPU_ENTRY
			qq = tbl[cpu];
#else
			qq = tbl[DFL];
#endif
			STEP(me);
			printf("__queue_work(): rcu_dereference() reads pwq%d\n", qq)
		   };
		   d_step {
			STEP(me);
			if
			:: refcnt[qq] == 0 ->
				printf("__queue_work(): pwq%d has no reference left: again\n", qq)
			:: else ->
				printf("__queue_work() on pwq%d\n", qq);
				queue_insert(qq, x);
				on_queued(x);
				st = 0
			fi
		   };
		   if
		   :: st == 0 -> break
		   :: else
		   fi
		od;
		qq = 0
	:: else ->
		d_step { on_queue_busy(x) }
	fi
}

/* install_wq_table() under wq->mutex: link pwq1, switch the entries */
proctype rebuild()
{
	byte c;

	atomic {
		wq_mutex = 1;
		onlist[1] = 1;
#ifndef BUG_NO_PLUG
		plugged[1] = 1;
#endif
		STEP(REBUILD);
		printf("install_wq_table(): pwq1 linked");
		if
		:: plugged[1] -> printf(", plugged\n")
		:: else -> printf(", not plugged\n")
		fi
	};
	do
	:: c < 3 ->
		/* set_table_entry(): a reference to pwq1, the entry, a put of pwq0 */
		d_step {
			refcnt[1]++;
			tbl[c] = 1;
			STEP(REBUILD);
			if
			:: c < 2 -> printf("set_table_entry(): CPU %d's entry is pwq1\n", c)
			:: else -> printf("set_table_entry(): dfl_pwq is pwq1\n")
			fi
		};
		d_step {
			STEP(REBUILD);
			printf("put_pwq_unlocked(pwq0)\n");
			put_pwq(0)
		};
		c++
	:: else -> break
	od;
	atomic {
		c = 0;
		wq_mutex = 0;
		STEP(REBUILD);
		printf("install_wq_table() done\n")
	}
}

/*
 * pwq_release_workfn() on the release worker, under wq->mutex: unlink
 * the pwq, then unplug_first_pwq(): the first pwq left may run.
 */
proctype releaser()
{
end_rel:
	do
	:: atomic {
		(relreq[0] || relreq[1]) && !wq_mutex ->
		d_step {
			s_rq = (relreq[0] -> 0 : 1);
			relreq[s_rq] = 0;
			onlist[s_rq] = 0;
			STEP(RELEASER);
			printf("pwq_release_workfn(pwq%d): unlinked\n", s_rq);
			s_rq = (onlist[0] -> 0 : 1);
			if
			:: onlist[s_rq] && plugged[s_rq] ->
				plugged[s_rq] = 0;
				printf("@     unplug_first_pwq(): pwq%d unplugged\n", s_rq);
#ifdef BUG_612_CANCEL
				/* 6.12: a wake-up only for an activated item */
				pwq_activate_inactive(s_rq, 0);
				if
				:: s_any -> kick_pool(PWQ_POOL(s_rq))
				:: else
				fi
#else
				pwq_activate_inactive(s_rq, 1)
#endif
			:: else
			fi
		}
	   }
	od
}

#ifndef SCEN_REQUEUE

proctype queuer1()
{
	byte st, qq;

	queue_ordered(QUEUER(0), 0, I1);
	q1done = 1
}

proctype queuer2()
{
	byte st, qq;

	q1done;
	queue_ordered(QUEUER(1), 1, I2)
}

init {
	atomic {
		d_step {
			init_common();
			onlist[0] = 1;
			refcnt[0] = 3	/* three table entries */
		};
		run_workers();
		run releaser();
		run rebuild();
		run queuer1();
		run queuer2()
	}
}

ltl one_at_a_time { [] (nrun <= 1) }
ltl in_order { [] !bad_order }

#else

proctype queuer1()
{
	byte st, qq;

	queue_ordered(QUEUER(0), 0, I1);
#ifdef REQUEUE_TWICE
	queue_ordered(QUEUER(0), 0, I1)
#endif
}

/* instance @i of I1 is queued or runs: flush_work() waits for it */
#define NEEDS(i)	((inst[i] == I_QUEUED || inst[i] == I_RUNNING) -> (1 << (i)) : 0)
#define UNDONE(i)	((need & (1 << (i))) && inst[i] < I_DONE)

proctype flusher()
{
	byte gp, gr;

	atomic {
#ifdef LINK_THEN_CANCEL
		nins == 2 ->
#endif
		need = NEEDS(1) | NEEDS(2) | NEEDS(3);
		STEP(FLUSHER);
		printf("flush_work(I1) called: it waits for ");
		pr_need();
		printf("\n")
	}
	flush_work(FLUSHER, BF, I1);
	d_step {
		STEP(FLUSHER);
		if
		:: UNDONE(1) || UNDONE(2) || UNDONE(3) ->
			bad_flush = 1;
			printf("flush_work(I1) returns, but I1 runs or waits\n")
		:: else ->
			printf("flush_work(I1) returns\n")
		fi;
		flushed = 1
	}
}

proctype canceller()
{
	byte gp, gr, gk, gn, rq;

#ifdef LINK_THEN_CANCEL
	loc[BF] != NONE || bdone[BF] || flushed;
#endif
	grab_pending(CANCELLER, I1);
	atomic {
		release_grabbed(I1, 1);
		STEP(CANCELLER);
		printf("cancel_work_sync(): release_grabbed_work(): disabled, PENDING clear\n")
	};
	flush_work(CANCELLER, BC, I1);
	d_step {
		STEP(CANCELLER);
		if
		:: nrun > 0 || pend[I1] ->
			bad_cancel = 1;
			printf("cancel_work_sync(I1) returns, but I1 runs or is pending\n")
		:: else ->
			printf("cancel_work_sync(I1) returns\n")
		fi;
		cancelled = 1
	}
}

/* I1 queued on pwq0 before the rebuild, and about to run */
init {
	atomic {
		d_step {
			init_common();
			onlist[0] = 1;
			refcnt[0] = 3;
			printf("@ initially: I1 queued on pwq0\n");
			queue_insert(0, I1);
			nins = 1;
			inst[1] = I_QUEUED
		};
		run_workers();
		run releaser();
		run rebuild();
		run queuer1();
		run flusher();
		run canceller()
	}
}

ltl one_at_a_time { [] (nrun <= 1) }
ltl flush_no_early { [] !bad_flush }
ltl cancel_waits { [] !bad_cancel }
ltl returns { <> (flushed && cancelled) }

#endif
