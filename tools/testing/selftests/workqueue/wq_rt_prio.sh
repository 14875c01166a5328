#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# workqueue.rt_prio=N at boot is the priority of the real-time class: the
# parameter reads N and stays read-only, and every real-time worker
# (kworker/CPU:MR, kworker/uP:MR) runs SCHED_FIFO or SCHED_RR at N.  Needs
# a kernel with WQ_RT booted with "workqueue.rt_prio=N" (the harness's
# isolated boot); skips otherwise.  The range (1 to 99, anything else
# refused) is the KUnit case workqueue_rt.rt_prio_takes_1_to_99_only.

. "$(dirname "$0")/wq_lib.sh"

P=/sys/module/workqueue/parameters/rt_prio
want=$(sed -n 's/.*workqueue\.rt_prio=\([0-9]*\).*/\1/p' /proc/cmdline)

need_twq
ktap_print_header
if [ ! -f "$P" ] || [ -z "$want" ] ||
   ! echo create 2>/dev/null > "$TWQ_DEBUGFS/rt"; then
	ktap_skip_all "needs WQ_RT, booted with workqueue.rt_prio=N"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 3

# rt_worker_ranks: "PID POLICY PRIORITY" of each real-time worker, from
# /proc/PID/stat's fields 41 and 40 (after the name in brackets).
rt_worker_ranks() {
	local pid stat

	for pid in $(rt_worker_pids kworker/); do
		stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
		echo "$pid $(echo "${stat##*) }" | cut -d' ' -f39,38 |
			awk '{ print $2, $1 }')"
	done
}

# all_at PRIO: there are real-time workers, all SCHED_FIFO (1) or
# SCHED_RR (2) at PRIO.
all_at() {
	local n=0 bad=0 pid policy prio

	while read -r pid policy prio; do
		n=$((n + 1))
		case $policy in 1|2) [ "$prio" = "$1" ] && continue ;; esac
		ktap_print_msg "real-time worker $pid: policy $policy, priority $prio"
		bad=1
	done <<EOF
$(rt_worker_ranks)
EOF
	[ $n -gt 0 ] || ktap_print_msg "no real-time worker"
	[ $n -gt 0 ] && [ $bad = 0 ]
}

check "rt_prio reads the value booted with, $want" reads "$P" "$want"
check "rt_prio is read-only" [ "$(stat -c %a "$P")" = 444 ]
check "every real-time worker runs at priority $want" all_at "$want"
ktap_finished
