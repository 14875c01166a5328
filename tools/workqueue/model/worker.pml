/* SPDX-License-Identifier: GPL-2.0 */
/*
 * worker.pml - worker_thread(), worker_run_locked(), assign_work_locked()
 * and process_one_work() of kernel/workqueue.c.  Included after common.pml
 * and the model's hooks:
 *   inline on_begin(w, x), on_finish(w, x)   bookkeeping for properties
 *   inline item_function(w)                   the function of cur[w]
 *   WORKER_LOCALS                             what item_function() needs
 *   WORKER_FINISH_STEP(w)                     optional: the end of an item
 *                                             in more than one step
 *   POOL_FREE(p)                              optional: pool p's lock is
 *                                             free (explicit locks)
 * A barrier's function (wq_barrier_func(): done, wake the waiter) runs in
 * the step that starts it.
 */

/* process_one_work() up to the call of the function */
inline worker_begin(w, x)
{
	cpwq[w] = qpwq[x];
	cinact[w] = inact[x];
	ccolor[w] = icolor[x];
	cur[w] = x;
	list_del(x);
	STEP(w);
	printf("process_one_work() starts ");
	pr_item(x);
	printf("\n");
	/* unbound pools: another worker for the rest */
	kick_pool(WORKER_POOL(w));
#ifdef BUG_LATE_CLEAR
	/* PENDING given up only once the function returned */
	set_offq(x, WORKER_POOL(w), 1);
#else
	/* from here on the item may be queued again */
	set_offq(x, WORKER_POOL(w), 0);
#endif
	on_begin(w, x)
}

/* process_one_work() after the function: the pwq's counts */
inline worker_finish(w)
{
	s_fx = cur[w];
	cur[w] = 0;
#ifdef BUG_LATE_CLEAR
	pend[s_fx] = 0;
#endif
	on_finish(w, s_fx);
	if
	:: IS_BARRIER(s_fx)
	:: else ->
		STEP(w);
		pr_item(s_fx);
		printf(" returns, pwq_dec_nr_in_flight_locked(pwq%d)\n", cpwq[w])
	fi;
	pwq_dec_nr_in_flight(cpwq[w], cinact[w], ccolor[w], 0);
	cpwq[w] = 0;
	cinact[w] = 0;
	ccolor[w] = 0
}

/* assign_work_locked(): to @w, or to the worker already running @x */
inline assign_work(x, w)
{
	find_runner(WORKER_POOL(w), x);
	if
	:: s_w != NONE && s_w != w ->
		move_linked(x, SCHED(s_w), L[SCHED(s_w)].n);
		STEP(w);
		printf("assign_work_locked(): ");
		pr_item(x);
		printf(" runs on worker%d: to its scheduled list\n", s_w)
	:: else ->
		move_linked(x, SCHED(w), L[SCHED(w)].n)
	fi
}

/*
 * worker_run_locked() and process_scheduled_works(): the next item of
 * the scheduled list, else of the worklist, else idle.  Returns with
 * cur[w] the item whose function is to run, or 0 and the worker idle.
 */
inline worker_next(w)
{
	do
	:: L[SCHED(w)].n > 0 ->
		s_x = L[SCHED(w)].e[0];
		worker_begin(w, s_x);
		if
		:: IS_BARRIER(s_x) ->
			/* wq_barrier_func() */
			bdone[s_x] = 1;
			printf("@     wq_barrier_func(): the flusher may return\n");
			worker_finish(w)
		:: else -> break
		fi
	:: else ->
		if
		:: L[WL(WORKER_POOL(w))].n > 0 ->
			s_x = L[WL(WORKER_POOL(w))].e[0];
			assign_work(s_x, w)
		:: else ->
			/* worker_enter_idle_locked() */
			widle[w] = 1;
			break
		fi
	od;
	s_z = 0
}

/* a model that holds pool locks across steps says when one is free */
#ifndef POOL_FREE
#define POOL_FREE(p)	1
#endif

#ifndef WORKER_FINISH_STEP
#define WORKER_FINISH_STEP(w)	d_step { worker_finish(w); worker_next(w) }
#endif

proctype worker(byte w)
{
	WORKER_LOCALS
end_idle:
	do
	:: atomic {
		wake[w] && POOL_FREE(WORKER_POOL(w)) ->
		d_step {
			wake[w] = 0;
			widle[w] = 0;	/* worker_leave_idle_locked() */
			worker_next(w)
		}
	   };
	   do
	   :: cur[w] == 0 -> break
	   :: else ->
		item_function(w);
		WORKER_FINISH_STEP(w)
	   od
	od
}

/* the initial state: nothing queued, every worker idle */
inline init_common()
{
	s_i = 0;
	do
	:: s_i <= NITEM -> qpwq[s_i] = NONE; lastpool[s_i] = NONE; loc[s_i] = NONE; s_i++
	:: else -> break
	od;
	s_i = 0;
	do
	:: s_i < NWORKER -> widle[s_i] = 1; s_i++
	:: else -> break
	od
}

inline run_workers()
{
	s_i = 0;
	do
	:: s_i < NWORKER -> run worker(s_i); s_i++
	:: else -> break
	od
}
