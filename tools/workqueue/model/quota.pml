/* SPDX-License-Identifier: GPL-2.0 */
/*
 * quota.pml - model 4: a NUMA node's quota of active items
 * (struct wq_node_nr_active) and the hand-off of a freed slot.
 *
 * An unbound workqueue with two pods on one node: pwq0 on pool0, pwq1 on
 * pool1, one worker each, a node quota of one active item.  Queuer A
 * queues items A1 and A2 on CPU 0; queuer B queues item B on CPU 1 twice;
 * a canceller calls cancel_work(B).  With -DTHREE_PODS, a third pod
 * (pwq2, pool2) where queuer C queues item C.  The pool locks are explicit here:
 * node_quota_dec_locked() drops its pool's lock to hand a slot to another
 * pool, and the lockless steps of node_quota_tryinc_locked(),
 * node_quota_may_pass() and node_quota_next() are steps of their own.
 * A section under nna->lock is one step.
 *
 * Properties:
 *   no_stall      a free slot never stays free while a pwq has an item
 *                 waiting for one (weak fairness)
 *   within_quota  never more items active (on a worklist or running) than
 *                 the quota, nor a count above it
 * Bugs put back:
 *   BUG_HANDOFF_UNLOCKED  hand_slot_to_other_pool() tells "still in line"
 *                         after dropping the other pool's lock (before
 *                         f9a8e3c): no_stall fails
 *   BUG_STALE_WAITER      a cancelled waiter stays in line and a freed slot
 *                         goes to the first pwq in line only (before
 *                         8eb2793): no_stall fails
 *   BUG_RACY_TAKE         node_quota_take_free() reads and writes the count
 *                         in two steps instead of one cmpxchg: within_quota
 *                         fails
 */
#ifdef THREE_PODS
#define NPODS		3
#else
#define NPODS		2
#endif
#define NPOOL		NPODS
#define NPWQ		NPODS
#define NWORKER		NPODS
#define A1		1
#define A2		2
#define IB		3
#define IC		4	/* the third pod's */
#define NITEM		(NPODS + 1)
#define FIRST_BARRIER	(NITEM + 1)	/* no barriers */
#define LMAX		3
#define NCOLOR		1
#define NNA_MAX		1

#define PWQ_POOL(q)	(q)
#define WORKER_POOL(w)	(w)
#define MAX_ACTIVE(q)	NNA_MAX

#define QUEUER_A	NWORKER
#define QUEUER_B	(NWORKER + 1)
#define CANCELLER	(NWORKER + 2)
#define QUEUER_C	(NWORKER + 3)

inline pr_other(me)
{
	if
	:: me == QUEUER_A -> printf("queuer A")
	:: me == QUEUER_B -> printf("queuer B")
	:: me == QUEUER_C -> printf("queuer C")
	:: else -> printf("canceller")
	fi
}

inline pr_item(x)
{
	if
	:: x == A1 -> printf("A1")
	:: x == A2 -> printf("A2")
	:: x == IB -> printf("B")
	:: else -> printf("C")
	fi
}

#define QUOTA_DEC

#include "common.pml"

/* the node's quota */
byte nna_nr;			/* atomic_t nna->nr */
byte line[NPWQ];		/* N: nna->pending_pwqs, first at 0 */
byte nline;
bit  waiting[NPWQ];		/* !list_empty(&pwq->pending_node): P and N */
bit  plock[NPOOL];		/* pool->lock */
hidden byte s_n, s_act2;

#define POOL_FREE(p)	(plock[p] == 0)
#define LOCK(p)		atomic { plock[p] == 0 -> plock[p] = 1 }

/* locals of every process that runs the quota code */
#define QUOTA_LOCALS	bit ok, wt, t, act, any, mp, settled; byte first, nx, rd;

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

/* node_quota_unlist_locked() when the pwq has no inactive item: one N section */
inline unlist_if_drained(q)
{
	if
	:: L[INACT(q)].n == 0 && waiting[q] ->
		line_del(q);
		printf("@     node_quota_unlist_locked(): pwq%d leaves the line\n", q)
	:: else
	fi
}

/*
 * node_quota_tryinc_locked(): pool @q's lock held; into ok.  The fast
 * path reads the line without the N lock, then takes a free slot with a
 * cmpxchg (BUG_RACY_TAKE: a read, then a write).
 */
inline nq_tryinc(me, q, fill)
{
	ok = 0;
	atomic {
		wt = waiting[q];	/* under P */
		t = (!wt && nline == 0);
		STEP(me);
		printf("node_quota_tryinc_locked(pwq%d): in line %d, the line is empty %d\n",
		       q, wt, nline == 0)
	};
	if
	:: t ->
#ifdef BUG_RACY_TAKE
		rd = nna_nr;
		atomic {
			if
			:: rd < NNA_MAX -> nna_nr = rd + 1; ok = 1
			:: else
			fi;
			rd = 0;
			STEP(me);
			printf("node_quota_take_free() (read, then write): %d\n", ok)
		}
#else
		atomic {
			if
			:: nna_nr < NNA_MAX -> nna_nr++; ok = 1
			:: else
			fi;
			STEP(me);
			printf("node_quota_take_free() (cmpxchg): %d\n", ok)
		}
#endif
		;
		t = 0
	:: else
	fi;
	if
	:: ok
	:: !ok && wt && nna_nr >= NNA_MAX	/* in line, no slot: wait for a hand-over */
	:: else ->
		d_step {	/* under nna->lock */
			first = (nline > 0 -> line[0] : NONE);
			if
			:: !wt -> line_add_tail(q)
			:: else
			fi;
			if
			:: (fill || first == NONE || first == q) && nna_nr < NNA_MAX ->
				nna_nr++;
				ok = 1
			:: else
			fi;
			if
			:: ok && wt -> line_del(q); line_add_tail(q)
			:: ok && !wt -> line_del(q)
			:: else
			fi;
			STEP(me);
			printf("node_quota_tryinc_locked(pwq%d) under nna->lock: ", q);
			if
			:: ok -> printf("a slot\n")
			:: else -> printf("in line\n")
			fi;
			first = 0
		}
	fi;
	wt = 0
}

/* pwq_activate_first_locked(): pool @q's lock held; into act */
inline nq_activate_first(me, q, fill)
{
	act = 0;
	if
	:: L[INACT(q)].n > 0 ->
		nq_tryinc(me, q, fill);
		if
		:: ok ->
			d_step {
				nr_active[q]++;
				STEP(me);
				printf("pwq_activate_first_locked(pwq%d)\n", q);
				activate_work(q, L[INACT(q)].e[0])
			};
			act = 1
		:: else
		fi;
		ok = 0
	:: else
	fi;
	d_step { unlist_if_drained(q) }
}

/* pwq_activate_inactive_locked() (with @kick) or its _nokick_ form */
inline nq_activate_inactive(me, q, kick)
{
	any = 0;
	do
	:: nq_activate_first(me, q, 1);
	   if
	   :: act -> any = 1; act = 0
	   :: else -> break
	   fi
	od;
	if
	:: kick -> d_step { kick_pool(PWQ_POOL(q)) }
	:: else
	fi
}

/*
 * node_quota_dec_locked(): pool @q's lock held, dropped and retaken to
 * hand the slot to a pwq of another pool (hand_slot_to_other_pool()).
 */
inline nq_dec(me, q, kick)
{
	atomic {
		nna_nr--;	/* then smp_mb__after_atomic() */
		STEP(me);
		printf("node_quota_dec_locked(): slot given back, %d taken\n", nna_nr)
	};
	do
	:: atomic {	/* node_quota_next(), without the N lock */
		nx = (nline > 0 -> line[0] : NONE);
		STEP(me);
		if
		:: nx == NONE -> printf("node_quota_next(): nobody in line\n")
		:: else -> printf("node_quota_next(): pwq%d\n", nx)
		fi;
		if
		:: nx != NONE && PWQ_POOL(nx) != PWQ_POOL(q) ->
			printf("@     hand_slot_to_other_pool(): pool%d's lock dropped\n", PWQ_POOL(q));
			plock[PWQ_POOL(q)] = 0
		:: else
		fi
	   };
	   if
	   :: nx == NONE -> break
	   :: nx != NONE && PWQ_POOL(nx) != PWQ_POOL(q) ->
		atomic {
			plock[PWQ_POOL(nx)] == 0 ->
			plock[PWQ_POOL(nx)] = 1;
			STEP(me);
			printf("hand_slot_to_other_pool(): pool%d locked, node_quota_offer_locked(pwq%d)\n",
			       PWQ_POOL(nx), nx)
		};
		nq_activate_inactive(me, nx, 1);
#ifndef BUG_HANDOFF_UNLOCKED
		settled = any || waiting[nx];
#endif
		atomic {
			plock[PWQ_POOL(nx)] = 0;
			STEP(me);
			printf("hand_slot_to_other_pool(): pool%d's lock dropped\n", PWQ_POOL(nx))
		};
		atomic {
			plock[PWQ_POOL(q)] == 0 ->
			plock[PWQ_POOL(q)] = 1;
			STEP(me);
			printf("hand_slot_to_other_pool(): pool%d locked again\n", PWQ_POOL(q))
		};
#ifdef BUG_HANDOFF_UNLOCKED
		settled = any || waiting[nx];
#endif
		skip
	   :: else ->
		nq_activate_inactive(me, nx, kick);
		settled = any || waiting[nx]
	   fi;
	   atomic {
		any = 0;
		STEP(me);
		printf("node_quota_dec_locked(): settled %d\n", settled)
	   };
#ifdef BUG_STALE_WAITER
	   settled = 0;
	   break
#else
	   if
	   :: settled -> settled = 0; break
	   :: else
	   fi
#endif
	od;
	nx = 0
}

/* pwq_dec_active_locked() of an unbound pwq: pool @q's lock held */
inline nq_dec_active(me, q, kick)
{
	atomic {	/* node_quota_may_pass(), without the N lock */
		nr_active[q]--;
		mp = (nline == 1 && line[0] == q && nna_nr <= NNA_MAX)
	};
	act = 0;
	if
	:: mp ->
		d_step {
			pass_slot(q);
			act = s_act2;
			STEP(me);
			printf("pwq_pass_slot_locked(pwq%d): %d\n", q, act)
		};
		mp = 0
	:: else
	fi;
	if
	:: act && kick -> d_step { kick_pool(PWQ_POOL(q)) }; act = 0
	:: act && !kick -> act = 0
	:: else -> nq_dec(me, q, kick)
	fi
}

/* pwq_pass_slot_locked(): into s_act2 */
inline pass_slot(q)
{
	s_act2 = 0;
	do
	:: L[INACT(q)].n > 0 && !s_act2 ->
		s_act2 = 1;
		activate_work(q, L[INACT(q)].e[0])
	:: else -> break
	od;
	if
	:: s_act2 -> nr_active[q]++
	:: else
	fi;
	unlist_if_drained(q)
}

/* common.pml's, for barriers, which this model has none of */
inline pwq_dec_active(q, kick)
{
	assert(0)
}

inline on_begin(w, x)
{
	skip
}

inline on_finish(w, x)
{
	skip
}

/* process_one_work() after the function, with the quota's steps */
inline quota_finish(w)
{
	atomic {
		plock[WORKER_POOL(w)] == 0 ->
		plock[WORKER_POOL(w)] = 1;
		d_step {
			fq = cpwq[w];
			fina = cinact[w];
			STEP(w);
			pr_item(cur[w]);
			printf(" returns\n");
			cur[w] = 0;
			cpwq[w] = 0;
			cinact[w] = 0
		}
	};
	if
	:: !fina -> nq_dec_active(w, fq, 0)
	:: else
	fi;
	d_step {
		nr_in_flight[fq]--;
		refcnt[fq]--;
		fq = 0;
		fina = 0;
		worker_next(w);
		plock[WORKER_POOL(w)] = 0
	}
}

#define WORKER_LOCALS		QUOTA_LOCALS byte fq; bit fina;
#define WORKER_FINISH_STEP(w)	quota_finish(w)
inline item_function(w)
{
	skip
}

#include "worker.pml"

/* queue_work_on(@cpu, @x): pwq N on CPU N; its pool's lock around the quota */
inline queue_quota(me, cpu, x)
{
	claim_step(me, cpu, x, st);
	if
	:: st ->
		atomic {
			plock[cpu] == 0 ->
			plock[cpu] = 1;
			nr_in_flight[cpu]++;
			t = (L[INACT(cpu)].n == 0);
			STEP(me);
			printf("__queue_work() on pwq%d\n", cpu)
		};
		ok = 0;
		if
		:: t -> nq_tryinc(me, cpu, 0)
		:: else
		fi;
		d_step {
			STEP(me);
			if
			:: ok ->
				nr_active[cpu]++;
				insert_work(cpu, x, WL(cpu), L[WL(cpu)].n, 0, 0);
				pr_item(x);
				printf(" active\n");
				kick_pool(cpu)
			:: else ->
				insert_work(cpu, x, INACT(cpu), L[INACT(cpu)].n, 1, 0);
				pr_item(x);
				printf(" inactive\n")
			fi;
			ok = 0;
			t = 0;
			st = 0;
			plock[cpu] = 0
		}
	:: else
	fi
}

proctype queuer_a()
{
	QUOTA_LOCALS
	byte st;

	queue_quota(QUEUER_A, 0, A1);
	queue_quota(QUEUER_A, 0, A2)
}

proctype queuer_c()
{
	QUOTA_LOCALS
	byte st;

	queue_quota(QUEUER_C, 2, IC)
}

proctype queuer_b()
{
	QUOTA_LOCALS
	byte st;

	queue_quota(QUEUER_B, 1, IB);
	queue_quota(QUEUER_B, 1, IB)
}

/*
 * cancel_work(B): try_to_grab_pending() with its pool's lock explicit.
 * gq: the pwq get_work_pwq() peeked, read with get_work_pool() in one
 * step (where the two reads disagree the check under the lock fails);
 * ordered_runner_pool() returns the grabbed pool at once here.
 */
proctype canceller()
{
	QUOTA_LOCALS
	byte gr, gp, gq;
	bit gina;

	do
	:: atomic {
		STEP(CANCELLER);
		printf("try_to_grab_pending(B): ");
		if
		:: !pend[IB] -> pend[IB] = 1; gr = 0; printf("PENDING was clear, it is ours\n")
		:: else -> gr = 2; printf("PENDING is set\n")
		fi
	   };
	   if
	   :: gr == 0 -> break
	   :: else
	   fi;
	   atomic {
		gp = WORK_POOL(IB);
		gq = qpwq[IB];
		STEP(CANCELLER);
		printf("get_work_pool(): ");
		pr_pool(gp)
	   };
	   if
	   :: gp == NONE -> gr = 2
	   :: else ->
		LOCK(gp);
		d_step {
			STEP(CANCELLER);
			if
			:: qpwq[IB] != NONE && qpwq[IB] == gq && PWQ_POOL(qpwq[IB]) == gp ->
				gina = inact[IB];
				printf("try_to_grab_pending() takes B off pwq%d\n", gq);
				list_del(IB);
#ifndef BUG_STALE_WAITER
				unlist_if_drained(gq);
#endif
				set_offq(IB, gp, 1);
				gr = 1
			:: else ->
				printf("try_to_grab_pending(): not queued on pool%d: -EAGAIN\n", gp);
				gr = 2
			fi
		};
		if
		:: gr == 1 && !gina -> nq_dec_active(CANCELLER, gq, 1)
		:: else
		fi;
		d_step {
			if
			:: gr == 1 -> nr_in_flight[gq]--; refcnt[gq]--
			:: else
			fi;
			plock[gp] = 0;
			gp = 0;
			gq = 0;
			gina = 0
		}
	   fi;
	   if
	   :: gr == 1 -> break
	   :: else
	   fi
	od;
	atomic {
		release_grabbed(IB, 0);
		gr = 0;
		STEP(CANCELLER);
		printf("cancel_work(B) returns\n")
	}
}

init {
	atomic {
		d_step { init_common() };
		run_workers();
		run queuer_a();
		run queuer_b();
		run canceller();
#ifdef THREE_PODS
		run queuer_c();
#endif
		skip
	}
}

#ifdef THREE_PODS
#define WAITERS		(L[INACT(0)].n > 0 || L[INACT(1)].n > 0 || L[INACT(2)].n > 0)
#define ACTIVE		(L[WL(0)].n + L[WL(1)].n + L[WL(2)].n + \
			 (cur[0] != 0) + (cur[1] != 0) + (cur[2] != 0))
#else
#define WAITERS		(L[INACT(0)].n > 0 || L[INACT(1)].n > 0)
#define ACTIVE		(L[WL(0)].n + L[WL(1)].n + (cur[0] != 0) + (cur[1] != 0))
#endif
ltl no_stall { [] <> !(nna_nr < NNA_MAX && WAITERS) }
ltl within_quota { [] (nna_nr <= NNA_MAX && ACTIVE <= NNA_MAX) }
