/* SPDX-License-Identifier: GPL-2.0 */
/*
 * items.pml - model 1: the life of one work item W.
 *
 * A per-CPU workqueue on two CPUs: pwq0 on pool0 (workers 0 and 1), pwq1
 * on pool1 (worker 2); max_active 1 or 2 (chosen at the start).  A queuer
 * calls queue_work_on() twice, each time on CPU 0 or 1; W's function may
 * queue W once more while it runs; a canceller calls cancel_work_sync()
 * (disable_work_sync(), then enable_work()), disable_work_sync() or
 * cancel_work().
 *
 * Properties:
 *   no_reentry    W never runs on two workers at once
 *   cancel_waits  cancel_work_sync() and disable_work_sync() do not return
 *                 while W runs or is pending
 *   no_lost       every queue_work_on() is followed by a run of W or a
 *                 cancel (weak fairness)
 * Bugs put back (spin -DBUG_...):
 *   BUG_REENTRANT          __queue_work() skips the look-up of the pool W
 *                          still runs on (as 58629d4871e8 does for ordered
 *                          workqueues only): no_reentry fails
 *   BUG_CANCEL_NO_DISABLE  __cancel_work_sync() does not disable W while it
 *                          waits (6.9's WORK_OFFQ_CANCELING gone without
 *                          6.10's disable): cancel_waits fails
 *   BUG_LATE_CLEAR         process_one_work() gives up PENDING after the
 *                          function instead of before: no_lost fails
 */
#define NPOOL		2
#define NPWQ		2
#define NWORKER		3
#define W		1	/* the item */
#define BC		2	/* the barrier of cancel_work_sync() */
#define FIRST_BARRIER	2
#define NITEM		2
#define LMAX		3
#define NCOLOR		1
#define NQ		2	/* queue_work_on() calls of the queuer */

#define PWQ_POOL(q)	(q)		/* per-CPU: pwq N on CPU N's pool */
#define WORKER_POOL(w)	((w) / 2)
byte maxact;
#define MAX_ACTIVE(q)	maxact

#define QUEUER		NWORKER
#define CANCELLER	(NWORKER + 1)

inline pr_other(me)
{
	if
	:: me == QUEUER -> printf("queuer")
	:: else -> printf("canceller")
	fi
}

inline pr_item(x)
{
	if
	:: x == W -> printf("W")
	:: else -> printf("the barrier of cancel_work_sync()")
	fi
}

#include "common.pml"

byte nrun;		/* workers in W's function */
bit owed;		/* a queue_work_on() W has not run or been cancelled since */
bit bad_cancel;		/* cancel_work_sync() returned with W running or pending */
byte selfq = 1;		/* queueings W's function may still do */

inline on_grab(x)
{
	skip
}

inline on_begin(w, x)
{
	if
	:: x == W -> nrun++; owed = 0
	:: else
	fi
}

inline on_finish(w, x)
{
	if
	:: x == W -> nrun--
	:: else
	fi
}

inline on_queued(x)
{
	owed = 1
}

/* queue_work_on() found PENDING set: W runs later, that is the promise */
inline on_queue_busy(x)
{
	if
	:: pend[x] -> owed = 1
	:: else
	fi
}

#define WORKER_LOCALS	byte qst, cpu;

/* W's function: it may queue W again, once in the whole run */
inline item_function(w)
{
	if
	:: selfq > 0 ->
		if
		:: cpu = 0
		:: cpu = 1
		fi;
		selfq--;
		queue_percpu(w, cpu, W, qst);
		cpu = 0
	:: skip
	fi
}

#include "worker.pml"

proctype queuer()
{
	byte qst, cpu, n;

	do
	:: n < NQ ->
		if
		:: cpu = 0
		:: cpu = 1
		fi;
		queue_percpu(QUEUER, cpu, W, qst);
		cpu = 0;
		n++
	:: else -> break
	od
}

/*
 * cancel_work_sync(W), disable_work_sync(W) (the same without the final
 * enable_work()) or cancel_work(W)
 */
proctype canceller()
{
	byte gr, gp, gk, gn;
	bit sync, enable;

	if
	:: sync = 1; enable = 1
	:: sync = 1
	:: skip
	fi;
	grab_pending(CANCELLER, W);
	atomic {
		owed = 0;
		STEP(CANCELLER);
		if
		:: sync ->
#ifdef BUG_CANCEL_NO_DISABLE
			release_grabbed(W, 0);
			enable = 0;
			printf("__cancel_work_sync(): release_grabbed_work(), W not disabled\n")
#else
			/* disabled while it waits, so that nobody queues it again */
			release_grabbed(W, 1);
			printf("__cancel_work_sync(): release_grabbed_work(), W disabled\n")
#endif
		:: else ->
			release_grabbed(W, 0);
			printf("cancel_work() returns\n")
		fi
	};
	if
	:: sync ->
		flush_work(CANCELLER, BC, W);
		d_step {
			STEP(CANCELLER);
			if
			:: nrun > 0 || pend[W] ->
				bad_cancel = 1;
				printf("__cancel_work_sync() returns, but W runs or is pending\n")
			:: else ->
				printf("__cancel_work_sync() returns, W idle\n")
			fi
		}
	:: else
	fi;
	if
	:: enable ->
		grab_pending(CANCELLER, W);
		atomic {
			/* a queue_work_on() that found PENDING ours came before it */
			release_grabbed(W, -1);
			owed = 0;
			STEP(CANCELLER);
			printf("enable_work(W) done\n")
		}
	:: else
	fi
}

init {
	atomic {
		d_step { init_common() };
		if
		:: maxact = 1
		:: maxact = 2
		fi;
		run_workers();
		run queuer();
		run canceller()
	}
}

ltl no_reentry { [] (nrun <= 1) }
ltl cancel_waits { [] !bad_cancel }
ltl no_lost { [] <> !owed }
