#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot-time CPU isolation as 6.12 sets it up. Needs a kernel booted with
# "isolcpus=domain,N nohz_full=N" for one CPU N (the harness's isolation
# boot); skips otherwise.

. "$(dirname "$0")/wq_lib.sh"

WQ_PARAMS=/sys/module/workqueue/parameters

# mask_of FILE: a sysfs cpumask file as a number (up to 64 CPUs).
mask_of() {
	echo $((0x$(tr -d ',\n' < "$1")))
}

# has_cpu FILE: the cpumask in FILE holds the isolated CPU.
has_cpu() {
	[ $(($(mask_of "$1") & bit)) != 0 ]
}

# lacks_cpu FILE: the cpumask in FILE is not empty and lacks the isolated CPU.
lacks_cpu() {
	local m

	m=$(mask_of "$1")
	[ "$m" != 0 ] && [ $((m & bit)) = 0 ] && return 0
	ktap_print_msg "$1 reads $(cat "$1")"
	return 1
}

# unbound_workers_avoid_cpu: no unbound kworker may run on the isolated CPU.
unbound_workers_avoid_cpu() {
	local pid allowed bad=0

	for pid in $(pids_named kworker/u); do
		allowed=$(sed -n 's/^Cpus_allowed:\t//p' "/proc/$pid/status" 2>/dev/null |
			  tr -d ',')
		[ -n "$allowed" ] || continue
		if [ $((0x$allowed & bit)) != 0 ]; then
			ktap_print_msg "$(cat "/proc/$pid/comm") may run on CPU $cpu ($allowed)"
			bad=1
		fi
	done
	return $bad
}

# delayed_timer_avoids_cpu: a delayed item queued from the isolated CPU
# has its timer on a housekeeping CPU (test_workqueue's timer hook).
delayed_timer_avoids_cpu() {
	local hook=$TWQ_DEBUGFS/timer out timer

	if [ ! -e "$hook" ]; then
		ktap_print_msg "no $hook (CONFIG_TEST_WORKQUEUE)"
		return 1
	fi
	taskset -c "$cpu" sh -c "echo arm > $hook" || return 1
	out=$(cat "$hook")
	ktap_print_msg "delayed item's timer: $out"
	case $out in "from=$cpu timer="*) ;; *) return 1 ;; esac
	timer=${out##*timer=}
	[ "$timer" -ge 0 ] && [ "$timer" != "$cpu" ]
}

# hook_traced EVENT HOOK [VERB]: trace EVENT (events/EVENT) from an empty
# trace on, and write VERB (default: HOOK) to test_workqueue's HOOK from
# the isolated CPU; fails, saying why, without the hook or the event.
hook_traced() {
	local ev=/sys/kernel/tracing/events/$1 hook=$TWQ_DEBUGFS/$2

	if [ ! -e "$hook" ] || [ ! -d "$ev" ]; then
		ktap_print_msg "no $hook or no $1 event"
		return 1
	fi
	echo > /sys/kernel/tracing/trace
	echo 1 > "$ev/enable"
	taskset -c "$cpu" sh -c "echo ${3:-$2} > $hook"
}

# EXP_FUNCS: the functions of the rework's expedited grace-period items.
EXP_FUNCS='wait_rcu_exp_gp|sync_rcu_exp_select_node_cpus'

# exp_gp_items_avoid_cpu: expedited grace periods asked for on the
# isolated CPU run their items on housekeeping CPUs (6.12 ran them on a
# kthread_worker kept off it).  Only where RCU queues them on workqueues.
exp_gp_items_avoid_cpu() {
	local tr=/sys/kernel/tracing all here

	hook_traced workqueue/workqueue_execute_start rcu exp || return 1
	echo 0 > "$tr/events/workqueue/workqueue_execute_start/enable"
	ktap_print_msg "expedited GPs asked for on $(cat "$TWQ_DEBUGFS/rcu")"
	all=$(grep -cE "function ($EXP_FUNCS)\$" "$tr/trace")
	here=$(grep -E "function ($EXP_FUNCS)\$" "$tr/trace" |
	       grep -c "\[$(printf %03d "$cpu")\]")
	ktap_print_msg "$all expedited GP items, $here on CPU $cpu:" \
		$(grep -oE "function ($EXP_FUNCS)\$" "$tr/trace" | sort | uniq -c)
	[ "$all" -gt 0 ] && [ "$here" = 0 ]
}

# Long enough for a pool's idle timer (5 min, in a 16 s coarse timer-wheel
# level at HZ=250) to fire; the harness boots this run under -icount,
# where idle time costs nothing.
CULL_WAIT_S=${CULL_WAIT_S:-400}

# culled_workers_exit_elsewhere: grow the isolated CPU's pool, wait out
# the idle timeout, wake the CPU, and see where its culled kworkers
# exited (a dying worker renames itself "kworker/dying": they are found
# by PID): 6.12 lets them go where unbound work runs first, so none
# wakes the isolated CPU to exit there.
culled_workers_exit_elsewhere() {
	local tr=/sys/kernel/tracing pids pid line
	local exited=0 here=0

	hook_traced sched/sched_process_exit grow || return 1
	pids=$(pids_named "kworker/$cpu:")
	ktap_print_msg "pool grown: $(echo $pids | wc -w) kworker/$cpu:*"
	sleep "$CULL_WAIT_S"
	# The idle timer is deferrable: an idle nohz_full CPU runs it only
	# once it takes a tick again, which two tasks on it need.
	taskset -c "$cpu" sh -c 'spin() { i=0; while [ $i -lt 10000 ]; do
		i=$((i + 1)); done; }; spin & spin; wait'
	sleep 2
	echo 0 > "$tr/events/sched/sched_process_exit/enable"
	for pid in $pids; do
		line=$(grep "sched_process_exit: .* pid=$pid " "$tr/trace") || continue
		exited=$((exited + 1))
		case $line in *"[$(printf %03d "$cpu")]"*)
			here=$((here + 1))
			ktap_print_msg "exited on CPU $cpu: $line" ;;
		esac
	done
	ktap_print_msg "$exited of them exited, $here on CPU $cpu"
	[ "$exited" -gt 0 ] && [ "$here" = 0 ]
}

ktap_print_header
cpu=$(sed -n 's/.*nohz_full=\([0-9]*\).*/\1/p' /proc/cmdline)
if [ -z "$cpu" ] || ! grep -qE "isolcpus=domain,$cpu( |\$)" /proc/cmdline; then
	ktap_skip_all "boot with isolcpus=domain,N nohz_full=N to run these"
	exit "$KSFT_SKIP"
fi
bit=$((1 << cpu))
# the timer and grow hooks; a check without them fails
load_twq

ktap_set_plan 8
check "nohz_full= turns power_efficient on" \
	reads $WQ_PARAMS/power_efficient Y
check "debug_force_rr_cpu is off without CONFIG_DEBUG_WQ_FORCE_RR_CPU" \
	reads $WQ_PARAMS/debug_force_rr_cpu N
check "cpumask_isolated starts with the isolcpus= CPU" \
	has_cpu $WQ_SYSFS/cpumask_isolated
check "the unbound cpumask leaves the isolated CPU out" \
	lacks_cpu $WQ_SYSFS/cpumask
check "unbound kworkers do not run on the isolated CPU" \
	unbound_workers_avoid_cpu
check "a delayed item's timer leaves the nohz_full CPU" \
	delayed_timer_avoids_cpu
EXP_ELSEWHERE="expedited GP items asked for on the isolated CPU run elsewhere"
if grep -q ' rcu_exp_gp_wq$' /proc/kallsyms; then
	check "$EXP_ELSEWHERE" exp_gp_items_avoid_cpu
else
	# 6.12 runs them on a kthread_worker, or on rcu_gp_wq
	ktap_test_skip "$EXP_ELSEWHERE (no RCU workqueues)"
fi
check "culled kworkers of the isolated CPU exit elsewhere" \
	culled_workers_exit_elsewhere
ktap_finished
