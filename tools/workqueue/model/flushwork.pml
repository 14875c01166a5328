/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flushwork.pml - model 2b: flush_work() barriers, linked behind a queued
 * item or first on the worker running it, and cancelled while linked.
 *
 * An unbound workqueue with two pods of one NUMA node: pwq0 on pool0
 * (workers 0 and 1), pwq1 on pool1 (worker 2), sharing the node's quota
 * of 1 or 2 active items (chosen at the start).  The quota is taken and
 * handed on in one step here (quota.pml checks the hand-off itself).
 * Queuer W queues W on CPU 0 twice (the second time maybe while it runs);
 * queuer X queues X on CPU 1 (it may hold the node's only slot); a
 * flusher calls flush_work(W); a canceller calls cancel_work(W).
 *
 * Properties:
 *   flush_no_early  flush_work(W) returns only once the runs of W going
 *                   on or queued at its call ended (or the queued one was
 *                   cancelled)
 *   flush_returns   flush_work(W) returns (weak fairness)
 * Bugs put back:
 *   BUG_BARRIERS_TO_WORKLIST  the barriers of a cancelled inactive W go to
 *                             the worklist even while W runs (before
 *                             37eb149): flush_no_early fails
 *   BUG_ACTIVE_BARRIERS_LEFT  the barriers of a cancelled active W stay on
 *                             the worklist while W runs (before 93b3214):
 *                             flush_no_early fails
 *   BUG_MISSING_WAKEUP        6.12's try_to_grab_pending(): the barriers of
 *                             a cancelled inactive W go to the worklist and
 *                             nobody is woken: flush_returns fails
 */
#define NPOOL		2
#define NPWQ		2
#define NWORKER		3
#define W		1
#define X		2
#define BF		3	/* the barrier of flush_work() */
#define FIRST_BARRIER	3
#define NITEM		3
#define LMAX		4
#define NCOLOR		1

#define PWQ_POOL(q)	(q)		/* one pod per CPU: pwq N on pool N */
#define WORKER_POOL(w)	((w) / 2)

#define QUEUER_W	NWORKER
#define QUEUER_X	(NWORKER + 1)
#define FLUSHER		(NWORKER + 2)
#define CANCELLER	(NWORKER + 3)

inline pr_other(me)
{
	if
	:: me == QUEUER_W -> printf("queuer W")
	:: me == QUEUER_X -> printf("queuer X")
	:: me == FLUSHER -> printf("flusher")
	:: else -> printf("canceller")
	fi
}

/* the runs of the item a flush_work() waits for: bits 1 and 2 of need */
inline pr_need()
{
	if
	:: need == 0 -> printf("nothing")
	:: need == 2 -> printf("its first queueing")
	:: need == 4 -> printf("its second queueing")
	:: else -> printf("both queueings")
	fi
}

inline pr_item(x)
{
	if
	:: x == W -> printf("W")
	:: x == X -> printf("X")
	:: else -> printf("the barrier of flush_work(W)")
	fi
}

/* the node's quota (struct wq_node_nr_active) */
byte nna_nr, nna_max;
byte line[NPWQ];		/* nna->pending_pwqs, first at 0 */
byte nline;
bit  waiting[NPWQ];		/* !list_empty(&pwq->pending_node) */

#define QUOTA_TRYINC(q, fill)	quota_tryinc(q, fill)
#define QUOTA_DEC
#define UNLIST_IF_DRAINED(q)	unlist_if_drained(q)
#define MAX_ACTIVE(q)		nna_max

#include "common.pml"

hidden byte s_n, s_nq;
hidden byte s_settled, s_kick;

inline line_del(q)
{
	s_n = 0;
	do
	:: line[s_n] == q -> break
	:: else -> s_n++
	od;
	do
	:: s_n + 1 < nline -> line[s_n] = line[s_n + 1]; s_n++
	:: else -> break
	od;
	nline--;
	line[nline] = 0;
	waiting[q] = 0
}

inline line_add_tail(q)
{
	line[nline] = q;
	nline++;
	waiting[q] = 1
}

/* node_quota_tryinc_locked(), in one step: into s_ti */
inline quota_tryinc(q, fill)
{
	if
	:: !waiting[q] && nline == 0 && nna_nr < nna_max -> s_ti = 1
	:: else ->
		s_ti = 0;
		if
		:: !waiting[q] -> line_add_tail(q); s_n = 1
		:: else -> s_n = 0	/* it was waiting already */
		fi;
		if
		:: (fill || line[0] == q) && nna_nr < nna_max -> s_ti = 1
		:: else
		fi;
		if
		:: s_ti && !s_n -> line_del(q); line_add_tail(q)	/* to the back */
		:: s_ti && s_n -> line_del(q)
		:: else
		fi
	fi;
	if
	:: s_ti -> nna_nr++
	:: else
	fi
}

/* pwq_unlist_if_drained_locked() */
inline unlist_if_drained(q)
{
	if
	:: L[INACT(q)].n == 0 && waiting[q] -> line_del(q)
	:: else
	fi
}

/* pwq_pass_slot_locked(): into s_act */
inline pass_slot(q)
{
	s_act = 0;
	do
	:: L[INACT(q)].n > 0 && !s_act ->
		s_y = L[INACT(q)].e[0];
		s_act = !IS_BARRIER(s_y);
		activate_work(q, s_y)
	:: else -> break
	od;
	if
	:: s_act -> nr_active[q]++
	:: else
	fi;
	unlist_if_drained(q)
}

/*
 * pwq_dec_active_locked() of an unbound pwq: keep the slot if alone in
 * line (node_quota_may_pass()), else node_quota_dec_locked(): the slot
 * goes to the first pwq in line that activates an item, or stays in line.
 * The other pool's lock is taken in the same step (hand_slot_to_other_pool()).
 */
inline pwq_dec_active(q, kick)
{
	nr_active[q]--;
	s_act = 0;
	if
	:: nline == 1 && line[0] == q && nna_nr <= nna_max -> pass_slot(q)
	:: else
	fi;
	if
	:: s_act && kick -> kick_pool(PWQ_POOL(q))
	:: s_act && !kick
	:: else ->
		nna_nr--;
		do
		:: nline > 0 ->
			s_nq = line[0];
			s_kick = kick || PWQ_POOL(s_nq) != PWQ_POOL(q);
			pwq_activate_inactive(s_nq, s_kick);
			s_settled = s_any || waiting[s_nq];
			if
			:: s_settled -> break
			:: else
			fi
		:: else -> break
		od;
		s_z = 0
	fi
}

/* the instances of W: 1, 2 in queueing order; what each became */
#define I_QUEUED	1
#define I_RUNNING	2
#define I_DONE		3
#define I_CANCELLED	4
byte inst[3];
byte nins;			/* instances queued so far */
byte need;			/* bit per instance flush_work() waits for */
bit  bad_flush;
bit  flushed;

inline on_queued(x)
{
	if
	:: x == W -> nins++; inst[nins] = I_QUEUED
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
	:: x == W -> inst[nins] = I_RUNNING
	:: else
	fi
}

/* the run that ends is the one that started last that is still running */
inline on_finish(w, x)
{
	if
	:: x == W && inst[nins] == I_RUNNING -> inst[nins] = I_DONE
	:: x == W && inst[nins] != I_RUNNING -> inst[nins - 1] = I_DONE
	:: else
	fi
}

#define WORKER_LOCALS
inline item_function(w)
{
	skip
}

#include "worker.pml"

proctype queuer_w()
{
	byte qst;

	queue_percpu(QUEUER_W, 0, W, qst);
	queue_percpu(QUEUER_W, 0, W, qst)
}

proctype queuer_x()
{
	byte qst;

	queue_percpu(QUEUER_X, 1, X, qst)
}

proctype flusher()
{
	byte gp, gr;

	d_step {
		need = ((inst[1] == I_QUEUED || inst[1] == I_RUNNING) -> 2 : 0) |
		       ((inst[2] == I_QUEUED || inst[2] == I_RUNNING) -> 4 : 0);
		STEP(FLUSHER);
		printf("flush_work(W) called: it waits for ");
		pr_need();
		printf("\n")
	}
	flush_work(FLUSHER, BF, W);
	d_step {
		STEP(FLUSHER);
		if
		:: ((need & 2) && inst[1] < I_DONE) || ((need & 4) && inst[2] < I_DONE) ->
			bad_flush = 1;
			printf("flush_work(W) returns, but W runs or waits\n")
		:: else ->
			printf("flush_work(W) returns\n")
		fi;
		flushed = 1
	}
}

proctype canceller()
{
	byte gp, gr, gk, gn;

	grab_pending(CANCELLER, W);
	atomic {
		release_grabbed(W, 0);
		STEP(CANCELLER);
		printf("cancel_work(W) returns\n")
	}
}

init {
	atomic {
		d_step { init_common() };
		if
		:: nna_max = 1
		:: nna_max = 2
		fi;
		run_workers();
		run queuer_w();
		run queuer_x();
		run flusher();
		run canceller()
	}
}

ltl flush_no_early { [] !bad_flush }
ltl flush_returns { <> flushed }
