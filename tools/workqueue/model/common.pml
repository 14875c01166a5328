/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.pml - what the models of kernel/workqueue.c share: the lists,
 * work->data, pwqs, waking workers, queueing, activation, cancelling and
 * flush barriers.  Each inline names the function of kernel/workqueue.c
 * it models; see README.md for what is abstracted away.
 *
 * The including model defines first:
 *   NPOOL NPWQ NWORKER NITEM LMAX NCOLOR  sizes (items are 1..NITEM,
 *                                         barriers FIRST_BARRIER..NITEM)
 *   PWQ_POOL(q) WORKER_POOL(w)            the static links
 *   MAX_ACTIVE(q)                         pwq->max_active
 *   inline pr_item(x), pr_other(me)       names of items and of actors
 *                                         other than the workers
 * and may define QUOTA_TRYINC / QUOTA_DEC / UNLIST_IF_DRAINED (a node
 * quota), PUT_PWQ (pwq release), COLOR_PUT (flush colors),
 * ORDERED_RUNNER_POOL(me, x) (the steps of ordered_runner_pool() in
 * try_to_grab_pending(), before the pool lock) and AFTER_GRAB (steps
 * after try_to_grab_pending() dropped the pool lock: only a bug variant
 * has any); see the defaults below.  Before worker.pml it defines the
 * hooks the queueing and cancelling code calls: on_queued(x),
 * on_queue_busy(x) (PENDING was set already), on_grab(x) (taken off its
 * queue by a cancel).
 *
 * Atomicity: a section under one pool lock is one d_step: what it touches
 * is that lock's, or written without the lock only by the owner of
 * PENDING, so no other process can see it half done.  Lockless reads
 * (get_work_pool(), test_and_set_bit(PENDING)) are steps of their own.
 * A printf starting with "@ " is a code step of a counterexample.
 */

#define NONE	255

/* the lists: a pool's worklist, a pwq's inactive items, a worker's scheduled */
#define WL(p)		(p)
#define INACT(q)	(NPOOL + (q))
#define SCHED(w)	(NPOOL + NPWQ + (w))
#define NLIST		(NPOOL + NPWQ + NWORKER)
#define IS_BARRIER(x)	((x) >= FIRST_BARRIER)

typedef List { byte e[LMAX]; byte n };
List L[NLIST];

/* work->data, per item (index 0 unused) */
bit  pend[NITEM + 1];		/* WORK_STRUCT_PENDING */
byte qpwq[NITEM + 1];		/* the pwq while queued (WORK_STRUCT_PWQ) */
byte lastpool[NITEM + 1];	/* off queue: the pool it was last on */
bit  inact[NITEM + 1];		/* WORK_STRUCT_INACTIVE */
bit  linked[NITEM + 1];		/* WORK_STRUCT_LINKED: a barrier follows */
byte icolor[NITEM + 1];		/* the flush color */
byte disabled[NITEM + 1];	/* the disable depth (off queue) */
byte loc[NITEM + 1];		/* the list its entry is on */
bit  bdone[NITEM + 1];		/* a barrier's barr->done */

/* pool_workqueue */
byte nr_active[NPWQ];
bit  plugged[NPWQ];
byte work_color[NPWQ];
byte nr_in_flight[NPWQ * NCOLOR];
byte flush_colors[NPWQ];	/* bit per color a flush waits for */
byte refcnt[NPWQ];

/* workers: what they run, and the data it had when it started */
byte cur[NWORKER];		/* worker->current_work */
byte cpwq[NWORKER];		/* worker->current_pwq */
bit  cinact[NWORKER];		/* INACTIVE in the data process_one_work() saved */
byte ccolor[NWORKER];		/* worker->current_color */
bit  widle[NWORKER];		/* on the pool's idle list */
bit  wake[NWORKER];		/* wake_up_process() called, not yet running */

/*
 * scratch: written before read within one d_step (only there: pan does not
 * restore hidden variables when it backtracks into an atomic sequence), not
 * part of the state.  "s_z = 0" after a loop that ends an inline: a break
 * must not leave a d_step.
 */
hidden byte s_z, s_i, s_j, s_k, s_dl, s_mx, s_mn, s_mc, s_w, s_fw, s_kw, s_y, s_col;
hidden byte s_gq, s_gcol, s_gnx, s_fq, s_x, s_fx, s_q;
hidden byte s_ml, s_ti, s_act, s_any, s_gina, s_glk, s_gr, s_fb;

/* ---- printing: one "@ actor: ..." line opens every step ---- */

/* workers are actors 0..NWORKER-1; the model's pr_other() names the rest */
inline pr_actor(me)
{
	if
	:: me < NWORKER -> printf("worker%d (pool%d)", me, WORKER_POOL(me))
	:: else -> pr_other(me)
	fi
}

#define STEP(me)	printf("@ "); pr_actor(me); printf(": ")

/* the pool get_work_pool() names, and the end of the line */
inline pr_pool(p)
{
	if
	:: p == NONE -> printf("no pool (never queued)\n")
	:: else -> printf("pool%d\n", p)
	fi
}

/* ---- lists ---- */

/* the index of @x in its list, into s_i */
inline list_index(x)
{
	assert(loc[x] != NONE);
	s_i = 0;
	do
	:: L[loc[x]].e[s_i] == x -> break
	:: else -> s_i++
	od;
	s_z = 0
}

/* list_del_init(&x->entry) */
inline list_del(x)
{
	list_index(x);
	s_dl = loc[x];
	do
	:: s_i + 1 < L[s_dl].n -> L[s_dl].e[s_i] = L[s_dl].e[s_i + 1]; s_i++
	:: else -> break
	od;
	L[s_dl].n--;
	L[s_dl].e[L[s_dl].n] = 0;
	loc[x] = NONE
}

/* add @x to list @l before its entry number @idx (L[l].n: the tail) */
inline list_insert(l, idx, x)
{
	s_k = idx;
	assert(L[l].n < LMAX && x != 0 && loc[x] == NONE);
	s_j = L[l].n;
	do
	:: s_j > s_k -> L[l].e[s_j] = L[l].e[s_j - 1]; s_j--
	:: else -> break
	od;
	L[l].e[s_k] = x;
	L[l].n++;
	loc[x] = l
}

/*
 * move_linked_works(): @x and the barriers linked behind it go to list
 * @dl before its entry number @di (another list than @x's).
 */
inline move_linked(x, dl, di)
{
	s_mx = x;
	s_mc = di;
	do
	:: s_ml = linked[s_mx];
	   if
	   :: s_ml -> list_index(s_mx); s_mn = L[loc[s_mx]].e[s_i + 1]
	   :: else -> s_mn = 0
	   fi;
	   list_del(s_mx);
	   list_insert(dl, s_mc, s_mx);
	   s_mc++;
	   if
	   :: s_ml -> s_mx = s_mn
	   :: else -> break
	   fi
	od;
	s_z = 0
}

/* ---- work->data ---- */

/* set_work_queued() */
inline set_queued(x, q, ina, col)
{
	qpwq[x] = q;
	pend[x] = 1;
	inact[x] = ina;
	icolor[x] = col
}

/* set_work_off_queue(): last on pool @p; PENDING only if @pending */
inline set_offq(x, p, pending)
{
	qpwq[x] = NONE;
	lastpool[x] = p;
	pend[x] = pending;
	inact[x] = 0;
	linked[x] = 0;
	icolor[x] = 0
}

/* get_work_pool(): a lockless read of work->data */
#define WORK_POOL(x)	(qpwq[x] != NONE -> PWQ_POOL(qpwq[x]) : lastpool[x])

/* ---- workers ---- */

/* find_worker_executing_work(): into s_w */
inline find_runner(p, x)
{
	s_w = NONE;
	s_fw = 0;
	do
	:: s_fw < NWORKER ->
		if
		:: WORKER_POOL(s_fw) == p && cur[s_fw] == x -> s_w = s_fw; break
		:: else -> s_fw++
		fi
	:: else -> break
	od;
	s_z = 0
}

/*
 * kick_pool_locked(): items wait and no worker runs them: wake the first
 * idle one.  Every worker is "not running" here (as in unbound pools):
 * a per-CPU pool wakes one later, when the running one sleeps, which the
 * models cover as an interleaving.
 */
inline kick_pool(p)
{
	if
	:: L[WL(p)].n > 0 ->
		s_kw = 0;
		do
		:: s_kw < NWORKER ->
			if
			:: WORKER_POOL(s_kw) == p && widle[s_kw] ->
				if
				:: !wake[s_kw] ->
					wake[s_kw] = 1;
					printf("@     kick_pool_locked() wakes worker%d\n", s_kw)
				:: else
				fi;
				break
			:: else -> s_kw++
			fi
		:: else -> break
		od
	:: else
	fi;
	s_z = 0
}

/* ---- pwqs: activation and limits ---- */

/* pwq_tryinc_nr_active_locked(): into s_ti */
inline pwq_tryinc(q, fill)
{
	s_ti = 0;
	if
	:: plugged[q]
	:: else ->
#ifdef QUOTA_TRYINC
		QUOTA_TRYINC(q, fill);
#else
		s_ti = (nr_active[q] < MAX_ACTIVE(q));
#endif
		if
		:: s_ti -> nr_active[q]++
		:: else
		fi
	fi
}

#ifndef UNLIST_IF_DRAINED
#define UNLIST_IF_DRAINED(q)	skip
#endif

/* activate_work_locked() */
inline activate_work(q, x)
{
	move_linked(x, WL(PWQ_POOL(q)), L[WL(PWQ_POOL(q))].n);
#ifdef BUG_BARRIER_TAKES_SLOT
	inact[x] = 0;
#else
	if
	:: !IS_BARRIER(x) -> inact[x] = 0
	:: else
	fi;
#endif
	printf("@     activate_work_locked(): ");
	pr_item(x);
	printf(" to pool%d's worklist\n", PWQ_POOL(q))
}

/* pwq_activate_first_locked(): into s_act */
inline pwq_activate_first(q, fill)
{
	s_act = 0;
	if
	:: L[INACT(q)].n > 0 ->
		s_y = L[INACT(q)].e[0];
		if
#ifdef BUG_PLUGGED_BARRIERS_TO_WORKLIST
		:: IS_BARRIER(s_y) -> s_ti = 1
#else
		:: IS_BARRIER(s_y) && !plugged[q] -> s_ti = 1
#endif
		:: else -> pwq_tryinc(q, fill)
		fi;
		if
		:: s_ti -> activate_work(q, s_y); s_act = 1
		:: else
		fi
	:: else
	fi;
	UNLIST_IF_DRAINED(q)
}

/* pwq_activate_inactive_locked() (and its _nokick_ form without @kick) */
inline pwq_activate_inactive(q, kick)
{
	s_any = 0;
	do
	:: pwq_activate_first(q, 1);
	   if
	   :: s_act -> s_any = 1
	   :: else -> break
	   fi
	od;
	if
	:: kick -> kick_pool(PWQ_POOL(q))
	:: else
	fi
}

/* pwq_dec_active_locked() of a per-CPU workqueue */
#ifndef QUOTA_DEC
inline pwq_dec_active(q, kick)
{
	nr_active[q]--;
	pwq_activate_first(q, 0);
	if
	:: s_act && kick -> kick_pool(PWQ_POOL(q))
	:: else
	fi
}
#endif

#ifndef AFTER_GRAB
#define AFTER_GRAB(me, x)	skip
#endif
#ifndef COLOR_PUT
#define COLOR_PUT(q, col)	skip
#endif
#ifndef PUT_PWQ
#define PUT_PWQ(q)	refcnt[q]--
#endif

/* pwq_dec_nr_in_flight_locked(): data's INACTIVE @ina and color @col */
inline pwq_dec_nr_in_flight(q, ina, col, kick)
{
	if
	:: !ina -> pwq_dec_active(q, kick)
	:: else
	fi;
	nr_in_flight[q * NCOLOR + col]--;
	if
	:: (flush_colors[q] & (1 << col)) && nr_in_flight[q * NCOLOR + col] == 0 ->
		flush_colors[q] = flush_colors[q] & ~(1 << col);
		COLOR_PUT(q, col)
	:: else
	fi;
	PUT_PWQ(q)
}

/* ---- queueing ---- */

/* insert_work_locked(): @x on list @l before entry @idx; LINKED is kept */
inline insert_work(q, x, l, idx, ina, col)
{
	set_queued(x, q, ina, col);
	list_insert(l, idx, x);
	refcnt[q]++
}

/* __queue_work() from the locked pool on: nr_in_flight, active or not */
inline queue_insert(q, x)
{
	s_col = work_color[q];
	nr_in_flight[q * NCOLOR + s_col]++;
	s_ti = 0;
	if
	:: L[INACT(q)].n == 0 -> pwq_tryinc(q, 0)
	:: else
	fi;
	if
	:: s_ti ->
		insert_work(q, x, WL(PWQ_POOL(q)), L[WL(PWQ_POOL(q))].n, 0, s_col);
		printf("@     __queue_work(): ");
		pr_item(x);
		printf(" active on pwq%d, pool%d's worklist (color %d)\n", q, PWQ_POOL(q), s_col);
		kick_pool(PWQ_POOL(q))
	:: else ->
		insert_work(q, x, INACT(q), L[INACT(q)].n, 1, s_col);
		printf("@     __queue_work(): ");
		pr_item(x);
		printf(" inactive on pwq%d (color %d)\n", q, s_col)
	fi
}

/*
 * queue_work_on(@cpu, @x) up to claim_work(): test_and_set_bit(PENDING),
 * given back at once if the item is disabled (clear_pending_if_disabled();
 * nobody else writes the data in between, so one step).  Into @st: 1 if
 * the caller owns PENDING now and goes on to __queue_work().
 */
inline claim_step(me, cpu, x, st)
{
	d_step {
		STEP(me);
		printf("queue_work_on(cpu%d, ", cpu);
		pr_item(x);
		if
		:: pend[x] ->
			st = 0;
			printf("): PENDING is set already: returns false\n")
		:: !pend[x] && disabled[x] ->
			st = 0;
			printf("): disabled: returns false\n")
		:: else ->
			pend[x] = 1;
			st = 1;
			printf("): claim_work() sets PENDING\n")
		fi
	}
}

/*
 * queue_work_on(@cpu, @x) on a per-CPU workqueue (pwq N on CPU N):
 * claim_work(), then __queue_work(), whose lock_pool_for_queueing()
 * queues the item behind itself on the pool that still runs it (one step:
 * PENDING is ours, so the item cannot start meanwhile).  The model
 * defines on_queued(x) and on_queue_busy(x) (PENDING was set already).
 * The caller declares byte @st.
 */
inline queue_percpu(me, cpu, x, st)
{
	claim_step(me, cpu, x, st);
	if
	:: st ->
		d_step {
			STEP(me);
			printf("__queue_work()\n");
			s_q = cpu;
#ifndef BUG_REENTRANT
			if
			:: lastpool[x] != NONE && lastpool[x] != PWQ_POOL(s_q) ->
				find_runner(lastpool[x], x);
				if
				:: s_w != NONE ->
					s_q = cpwq[s_w];
					printf("@     lock_pool_for_queueing(): runs on pool%d: queued there\n",
					       lastpool[x])
				:: else
				fi
			:: else
			fi;
#endif
			queue_insert(s_q, x);
			on_queued(x);
			st = 0
		}
	:: else ->
		d_step { on_queue_busy(x) }
	fi
}

/* ---- cancelling ---- */

/*
 * unlink_queued_work_locked(): @x (data: INACTIVE @ina, LINKED @lk) leaves
 * pwq @q; its linked barriers go where the flushers still wait.
 */
inline unlink_queued(q, x, ina, lk)
{
	if
	:: lk -> list_index(x); s_gnx = L[loc[x]].e[s_i + 1]
	:: else -> s_gnx = 0
	fi;
	list_del(x);
#if defined(BUG_MISSING_WAKEUP)
	/* 6.12: an inactive item's barriers to the worklist, nobody woken */
	if
	:: lk && ina ->
		move_linked(s_gnx, WL(PWQ_POOL(q)), L[WL(PWQ_POOL(q))].n);
		printf("@     unlink (6.12): the barriers to pool%d's worklist, no wake-up\n", PWQ_POOL(q))
	:: else
	fi
#elif defined(BUG_BARRIERS_TO_WORKLIST)
	/* before 37eb149: an inactive item's barriers run at once */
	if
	:: lk && ina ->
		move_linked(s_gnx, WL(PWQ_POOL(q)), L[WL(PWQ_POOL(q))].n);
		printf("@     unlink (before 37eb149): the barriers to pool%d's worklist\n", PWQ_POOL(q));
		kick_pool(PWQ_POOL(q))
	:: else
	fi
#else
#ifdef BUG_ACTIVE_BARRIERS_LEFT
	/* before 93b3214: only an inactive item's barriers are moved */
#define RUNNER_TAKES_BARRIERS(ina)	(ina)
#else
#define RUNNER_TAKES_BARRIERS(ina)	1
#endif
	if
	:: !lk
#ifndef BUG_PLUGGED_BARRIERS_TO_WORKLIST
	:: lk && ina && plugged[q] ->
		printf("@     unlink: plugged pwq%d, the barriers keep their place\n", q)
#endif
	:: else ->
		find_runner(PWQ_POOL(q), x);
		if
		:: s_w != NONE && RUNNER_TAKES_BARRIERS(ina) ->
			if
			:: L[SCHED(s_w)].n == 0 || L[SCHED(s_w)].e[0] != s_gnx ->
				move_linked(s_gnx, SCHED(s_w), 0);
				printf("@     unlink: the barriers first on worker%d, which runs it\n", s_w)
			:: else
			fi
		:: s_w == NONE && ina ->
			move_linked(s_gnx, WL(PWQ_POOL(q)), L[WL(PWQ_POOL(q))].n);
			printf("@     unlink: nothing runs it, the barriers to pool%d's worklist\n", PWQ_POOL(q));
			kick_pool(PWQ_POOL(q))
		:: else ->
			printf("@     unlink: the barriers stay where they are\n")
		fi
	fi
#endif
}

/*
 * try_to_grab_pending() under the lock of pool @p, which get_work_pool()
 * named: take @x off its queue if it is queued there, on pwq @k, the one
 * get_work_pwq() peeked; the data then names pool @n: the pool
 * ordered_runner_pool() found running @x before the lock (else @p), but
 * @p if one of its workers runs @x now (find_worker_executing_work()
 * under the lock: a run on the grabbed pool is the newest, any run on an
 * older pwq ended before it started; the peek's pointer check passes an
 * ABA, the run ending and @x starting on @p and being queued there again
 * since the look-up).  BUG_PEEKED_RUNNER_WINS: the data names the pool
 * found before the lock even so (before a6d23bc).  Into s_gr; writes @n.
 */
inline grab_locked(x, p, k, n)
{
	s_gr = 0;
	if
	:: qpwq[x] != NONE && qpwq[x] == k && PWQ_POOL(qpwq[x]) == p ->
		s_gq = qpwq[x];
		s_gina = inact[x];
		s_glk = linked[x];
		s_gcol = icolor[x];
		printf("try_to_grab_pending() takes ");
		pr_item(x);
		if
		:: s_gina -> printf(" off pwq%d's inactive list\n", s_gq)
		:: else -> printf(" off pool%d's worklist\n", p)
		fi;
		/*
		 * try_to_grab_pending(): find_worker_executing_work() under
		 * the lock: a run here is the newest, the older one has ended
		 */
		find_runner(p, x);
		if
		:: s_w != NONE && n != p ->
#ifdef BUG_PEEKED_RUNNER_WINS
			printf("@     try_to_grab_pending(): worker%d of pool%d runs it, pool%d is named still\n",
			       s_w, p, n)
#else
			n = p;
			printf("@     try_to_grab_pending(): worker%d of pool%d runs it, the newest run\n",
			       s_w, p)
#endif
		:: else
		fi;
		unlink_queued(s_gq, x, s_gina, s_glk);
		UNLIST_IF_DRAINED(s_gq);
		/* off queue before the counts, naming the pool that runs it */
		set_offq(x, n, 1);
		if
		:: n != p ->
			printf("@     set_work_off_queue(): the data names pool%d, which ordered_runner_pool() found running it\n",
			       n)
		:: else
		fi;
		on_grab(x);
		pwq_dec_nr_in_flight(s_gq, s_gina, s_gcol, 1);
		s_gr = 1
	:: qpwq[x] != NONE && qpwq[x] != k && PWQ_POOL(qpwq[x]) == p ->
		printf("try_to_grab_pending(): queued on pool%d, but not on the pwq peeked: -EAGAIN\n", p)
	:: else ->
		printf("try_to_grab_pending(): not queued on pool%d: -EAGAIN\n", p)
	fi
}

/* release_grabbed_work(): PENDING goes, the disable depth moves by @delta */
inline release_grabbed(x, delta)
{
	disabled[x] = disabled[x] + delta;
	pend[x] = 0
}

/*
 * grab_pending(): loop on try_to_grab_pending() until PENDING is ours.
 * get_work_pool() and the peek, get_work_pwq(), are two lockless reads of
 * the data, one step here: where they disagree, the check under the pool
 * lock fails (-EAGAIN), so reading both at once loses only retries.
 * Then ordered_runner_pool() (ORDERED_RUNNER_POOL: an ordered
 * workqueue's steps; any other's returns the grabbed pool at once), then
 * the pool-locked section.  The caller declares byte gr, gp, gk (the
 * peeked pwq), gn (the pool the data is to name).  gr: 1 if it was
 * queued, 0 if idle.  The step after it must not be a d_step (a break
 * cannot jump into one).
 */
inline grab_pending(me, x)
{
	do
	:: atomic {
		STEP(me);
		printf("try_to_grab_pending(");
		pr_item(x);
		if
		:: !pend[x] ->
			pend[x] = 1;
			gr = 0;
			printf("): PENDING was clear, it is ours\n")
		:: else ->
			gr = 2;
			printf("): PENDING is set\n")
		fi
	   }
	   if
	   :: gr == 0 -> break
	   :: else
	   fi;
	   d_step {	/* get_work_pool(), get_work_pwq(), without a lock */
		gp = WORK_POOL(x);
		gk = qpwq[x];
		gn = gp;
		STEP(me);
		printf("get_work_pool(): ");
		pr_pool(gp)
	   }
#ifdef ORDERED_RUNNER_POOL
	   ORDERED_RUNNER_POOL(me, x);
#endif
	   d_step {
		STEP(me);
		if
		:: gp != NONE -> grab_locked(x, gp, gk, gn); gr = s_gr
		:: else ->
			gr = 2;
			printf("try_to_grab_pending(): no pool yet: -EAGAIN\n")
		fi;
		gp = 0;
		gk = 0;
		gn = 0
	   }
	   if
	   :: gr == 1 ->
		AFTER_GRAB(me, x);
		break
	   :: else
	   fi
	od
}

/* ---- flush barriers ---- */

/* insert_wq_barrier_locked(): @b behind @x, or first on @w if it runs there */
inline insert_barrier(q, b, x, w)
{
	bdone[b] = 0;
	if
	:: w != NONE ->
		s_col = ccolor[w];
		linked[b] = 0;
		nr_in_flight[q * NCOLOR + s_col]++;
		insert_work(q, b, SCHED(w), 0, 1, s_col);
		printf("@     insert_wq_barrier_locked(): barrier first on worker%d, which runs ", w);
		pr_item(x);
		printf("\n")
	:: else ->
		s_col = icolor[x];
		linked[b] = linked[x];
		linked[x] = 1;
		nr_in_flight[q * NCOLOR + s_col]++;
		list_index(x);
		insert_work(q, b, loc[x], s_i + 1, 1, s_col);
		printf("@     insert_wq_barrier_locked(): barrier linked behind queued ");
		pr_item(x);
		printf(" on pwq%d\n", q)
	fi
}

/*
 * insert_flush_barrier() under the lock of pool @p: locate_work_locked(),
 * then the barrier @b.  locate_work_locked(): moved if the data names
 * another pool than @p (the pool id it holds: queued on another pool's
 * pwq, or off queue naming another pool, as a cancel names the pool that
 * runs the item); else the pwq it is queued on, or the worker of @p
 * running it.  Into s_fb: 1 if there was something to wait for, 0 if
 * not, 2 if moved (read the pool again).  Bugs put back: moved only for
 * an item queued on another pool (BUG_ONLY_QUEUED_MOVES, before a6d23bc),
 * or never, such an item being nothing to wait for
 * (BUG_FLUSH_GIVES_UP_ON_MOVED, 6.12); off queue, both look for a run
 * on @p whatever pool the data names.
 */
inline flush_barrier_locked(b, x, p)
{
	s_fb = 0;
	s_w = NONE;
	/* locate_work_locked(): *moved from work_last_pool_id(), then pwq or runner */
	if
#if defined(BUG_FLUSH_GIVES_UP_ON_MOVED)
	:: qpwq[x] != NONE && PWQ_POOL(qpwq[x]) != p ->
		printf("@     locate_work_locked(): queued on pwq%d, not on pool%d: no wait\n",
		       qpwq[x], p)
#elif defined(BUG_ONLY_QUEUED_MOVES)
	:: qpwq[x] != NONE && PWQ_POOL(qpwq[x]) != p ->
		s_fb = 2;
		printf("@     locate_work_locked(): queued on pwq%d, not on pool%d: moved, again\n",
		       qpwq[x], p)
#else
	:: WORK_POOL(x) != NONE && WORK_POOL(x) != p ->
		s_fb = 2;
		if
		:: qpwq[x] != NONE ->
			printf("@     locate_work_locked(): queued on pwq%d, not on pool%d: moved, again\n",
			       qpwq[x], p)
		:: else ->
			printf("@     locate_work_locked(): off queue, the data names pool%d, not pool%d: moved, again\n",
			       lastpool[x], p)
		fi
#endif
	:: else ->
		if
		:: qpwq[x] != NONE -> s_fq = qpwq[x]; s_fb = 1
		:: else ->
			find_runner(p, x);
			if
			:: s_w != NONE -> s_fq = cpwq[s_w]; s_fb = 1
			:: else
			fi
		fi;
		if
		:: s_fb -> insert_barrier(s_fq, b, x, s_w)
		:: else ->
			printf("@     locate_work_locked(): not queued, not running on pool%d: no wait\n",
			       p)
		fi
	fi
}

/*
 * __flush_work() of @x with barrier @b: insert_flush_barrier():
 * get_work_pool() without a lock, the barrier under the pool's, both
 * again while locate_work_locked() finds the data naming another pool
 * (moved); then wait_for_barrier().  The caller declares byte gp, gr.
 */
inline flush_work(me, b, x)
{
	do
	:: d_step {
		gp = WORK_POOL(x);
		STEP(me);
		printf("__flush_work(");
		pr_item(x);
		printf("): get_work_pool(): ");
		pr_pool(gp)
	   }
	   d_step {
		STEP(me);
		printf("insert_flush_barrier()\n");
		if
		:: gp != NONE -> flush_barrier_locked(b, x, gp); gr = s_fb
		:: else ->
			gr = 0;
			printf("@     never queued: nothing to wait for\n")
		fi;
		gp = 0
	   }
	   if
	   :: gr == 2
	   :: else -> break
	   fi
	od;
	if
	:: gr ->
		bdone[b];	/* wait_for_barrier() */
		gr = 0
	:: else
	fi
}
