/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flushwq.pml - model 2a: flush_workqueue() and the flush colors.
 *
 * A per-CPU workqueue on two CPUs (pwq N on pool N, one worker each,
 * max_active 1), two or three flush colors, chosen at the start (the
 * code has 16: with two, a second flusher finds every color in use and
 * waits for the oldest closing; with three, both flushers close a color
 * of their own).  Queuer A queues item A on
 * CPU 0, then again on CPU 0 or 1; queuer B queues item B on CPU 1; two
 * flushers call flush_workqueue() at any point.
 *
 * Properties:
 *   flush_no_early  a flusher returns only once every item queued before
 *                   its call has run (and close_flush_color_locked()'s
 *                   WARN_ON_ONCE() never fires)
 *   flushes_return  every flusher returns (weak fairness)
 * Bugs put back:
 *   BUG_OWN_COLOR       a flusher is let go when the color its closing
 *                       closed drains, before older colors did:
 *                       flush_no_early fails
 *   BUG_NO_CLOSING_REF  close_flush_color_locked() without the closing's
 *                       own reference on the color (the count starts at 0,
 *                       no put at the end): flushes_return fails
 */
#define NPOOL		2
#define NPWQ		2
#define NWORKER		2
#define IA		1
#define IB		2
#define FIRST_BARRIER	3	/* no barriers */
#define NITEM		2
#define LMAX		2
#define NCOLOR		3	/* the arrays; ncolor colors are used */
#define NFLUSH		2

#define PWQ_POOL(q)	(q)
#define WORKER_POOL(w)	(w)
#define MAX_ACTIVE(q)	1

#define QUEUER_A	NWORKER
#define QUEUER_B	(NWORKER + 1)
#define FLUSHER(f)	(NWORKER + 2 + (f))

inline pr_other(me)
{
	if
	:: me == QUEUER_A -> printf("queuer A")
	:: me == QUEUER_B -> printf("queuer B")
	:: else -> printf("flusher%d", me - FLUSHER(0))
	fi
}

inline pr_item(x)
{
	if
	:: x == IA -> printf("A")
	:: else -> printf("B")
	fi
}

#define COLOR_PUT(q, col)	color_put_locked(col)

#include "common.pml"

/* the workqueue's flush state: W = wq->mutex, F = wq->flush_lock */
bit  wq_mutex;			/* held by a flusher */
byte flush_seq;			/* W: closings so far */
byte flushed_seq;		/* F: closings drained, in order */
byte drained_colors;		/* F: drained out of order */
byte nr_pwqs_to_flush[NCOLOR];
byte fseq[NFLUSH];		/* flush_waiter->seq */
bit  fon[NFLUSH];		/* on wq->flushers */
bit  fdone[NFLUSH];		/* its completion */
hidden byte s_f;

/* for the properties */
byte ins[NITEM + 1];		/* queueings of each item */
byte fin[NITEM + 1];		/* runs of each item that ended */
byte need[NFLUSH * NITEM];	/* queueings before each flusher's call */
bit  bad_flush;
byte nflushed;

byte ncolor;			/* NR_FLUSH_COLORS: 2 or 3, chosen at the start */
#define SEQ_COLOR(s)	((s) % ncolor)

/* wake_flushers_locked() */
inline wake_flushers(col)
{
	s_f = 0;
	do
	:: s_f < NFLUSH ->
		if
#ifdef BUG_OWN_COLOR
		:: fon[s_f] && (flushed_seq >= fseq[s_f] ||
				SEQ_COLOR(fseq[s_f] + ncolor - 1) == col) ->
#else
		:: fon[s_f] && flushed_seq >= fseq[s_f] ->
#endif
			fon[s_f] = 0;
			fdone[s_f] = 1;
			printf("@     wake_flushers_locked(): flusher%d may return\n", s_f)
		:: else
		fi;
		s_f++
	:: else -> break
	od;
	s_z = 0
}

/* flush_color_put() once the count of @col is 0: the F section */
inline color_drained(col)
{
	drained_colors = drained_colors | (1 << col);
	do
	:: drained_colors & (1 << SEQ_COLOR(flushed_seq)) ->
		drained_colors = drained_colors & ~(1 << SEQ_COLOR(flushed_seq));
		flushed_seq++
	:: else -> break
	od;
	printf("@     flush_color_put(): color %d drained, flushed_seq %d\n", col, flushed_seq);
	wake_flushers(col)
}

/*
 * flush_color_put() from a pool-locked step: the decrement and the F
 * section in one step.  F sections of different colors commute (the
 * drained bits and flushed_seq end the same either way), so nothing is
 * lost by not interleaving them.
 */
inline color_put_locked(col)
{
	nr_pwqs_to_flush[col]--;
	if
	:: nr_pwqs_to_flush[col] == 0 -> color_drained(col)
	:: else
	fi
}

inline on_queued(x)
{
	ins[x]++
}

inline on_queue_busy(x)
{
	skip
}

inline on_grab(x)
{
	skip
}

inline on_begin(w, x)
{
	skip
}

inline on_finish(w, x)
{
	fin[x]++
}

#define WORKER_LOCALS
inline item_function(w)
{
	skip
}

#include "worker.pml"

proctype queuer_a()
{
	byte qst, cpu;

	queue_percpu(QUEUER_A, 0, IA, qst);
	if
	:: cpu = 0
	:: cpu = 1
	fi;
	queue_percpu(QUEUER_A, cpu, IA, qst);
	cpu = 0
}

proctype queuer_b()
{
	byte qst;

	queue_percpu(QUEUER_B, 1, IB, qst)
}

/*
 * __flush_workqueue(): enqueue_flusher_locked(), then wait; again if it
 * had no closing of its own
 */
proctype flusher(byte f)
{
	bit own, zero;
	byte col, q;

	d_step {
		need[f * NITEM + IA - 1] = ins[IA];
		need[f * NITEM + IB - 1] = ins[IB];
		STEP(FLUSHER(f));
		printf("flush_workqueue(): A queued %d times, B %d times so far\n", ins[IA], ins[IB])
	}
	do
	:: atomic {
		wq_mutex == 0 ->
		d_step {
			wq_mutex = 1;
			/* enqueue_flusher_locked(), under F */
			own = (flush_seq + 1 - flushed_seq < ncolor);
			fseq[f] = (own -> flush_seq : flushed_seq) + 1;
			fon[f] = 1;
			STEP(FLUSHER(f));
			printf("enqueue_flusher_locked(): waits for closing %d", fseq[f]);
			if
			:: own -> printf(", its own\n")
			:: else -> printf(", every color in use: the oldest\n")
			fi
		}
	   };
	   if
	   :: own ->
		d_step {
			/* close_flush_color_locked() */
			col = SEQ_COLOR(flush_seq);
#ifdef BUG_NO_CLOSING_REF
			nr_pwqs_to_flush[col] = 0;
#else
			nr_pwqs_to_flush[col] = 1;
#endif
			q = 0
		};
		do
		:: q < NPWQ ->
			d_step {	/* under pwq q's pool lock */
				if
				:: nr_in_flight[q * NCOLOR + SEQ_COLOR(flush_seq + 1)] ||
				   (flush_colors[q] & (1 << col)) ->
					bad_flush = 1;
					printf("@     WARN_ON_ONCE(): the next color is in use\n")
				:: else
				fi;
				STEP(FLUSHER(f));
				printf("close_flush_color_locked(): pwq%d has %d items of color %d, now color %d\n",
				       q, nr_in_flight[q * NCOLOR + col], col, SEQ_COLOR(flush_seq + 1));
				if
				:: nr_in_flight[q * NCOLOR + col] ->
					flush_colors[q] = flush_colors[q] | (1 << col);
					nr_pwqs_to_flush[col]++
				:: else
				fi;
				work_color[q] = SEQ_COLOR(flush_seq + 1);
				q++
			}
		:: else -> break
		od;
		atomic {
			flush_seq++;
			q = 0;
#ifndef BUG_NO_CLOSING_REF
			/* flush_color_put() of the closing's own reference */
			nr_pwqs_to_flush[col]--;
			zero = (nr_pwqs_to_flush[col] == 0);
#endif
			STEP(FLUSHER(f));
			printf("close_flush_color_locked() done, flush_color_put(%d)\n", col)
		};
		if
		:: zero ->
			d_step {
				STEP(FLUSHER(f));
				printf("flush_color_put()\n");
				color_drained(col);
				zero = 0
			}
		:: else
		fi
	   :: else
	   fi;
	   wq_mutex = 0;
	   atomic {
		fdone[f] ->		/* wait_for_completion() */
		fdone[f] = 0;
		col = 0
	   };
	   if
	   :: own -> break
	   :: else
	   fi
	od;
	atomic {
		own = 0;
		STEP(FLUSHER(f));
		if
		:: fin[IA] < need[f * NITEM + IA - 1] || fin[IB] < need[f * NITEM + IB - 1] ->
			bad_flush = 1;
			printf("flush_workqueue() returns, but A ran %d of %d times, B %d of %d\n",
			       fin[IA], need[f * NITEM + IA - 1], fin[IB], need[f * NITEM + IB - 1])
		:: else ->
			printf("flush_workqueue() returns\n")
		fi;
		nflushed++
	}
}

init {
	atomic {
		d_step { init_common() };
		if
		:: ncolor = 2
		:: ncolor = 3
		fi;
		run_workers();
		run queuer_a();
		run queuer_b();
		run flusher(0);
		run flusher(1)
	}
}

ltl flush_no_early { [] !bad_flush }
ltl flushes_return { <> (nflushed == NFLUSH) }
