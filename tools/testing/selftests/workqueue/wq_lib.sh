# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the workqueue selftests (POSIX sh, busybox-friendly).

. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

WQ_SYSFS=/sys/devices/virtual/workqueue
TWQ_DEBUGFS=/sys/kernel/debug/test_workqueue

# wq_write FILE VALUE: write VALUE; print the error text, if any.
# (The echo builtin reports failed writes; busybox's printf does not.)
wq_write() {
	( echo "$2" > "$1" ) 2>&1 | sed 's/.*write error: //'
}

# check DESC CMD...: one KTAP result from a command's exit status.
check() {
	local what=$1

	shift
	if "$@"; then
		ktap_test_pass "$what"
	else
		ktap_test_fail "$what"
	fi
}

# readable FILE...: every FILE can be read.
readable() {
	cat "$@" > /dev/null
}

# accepts FILE VALUE EXPECT: the write succeeds and FILE then reads EXPECT.
accepts() {
	local err got

	err=$(wq_write "$1" "$2")
	got=$(cat "$1")
	[ -z "$err" ] && [ "$got" = "$3" ] && return 0
	ktap_print_msg "$1 <- '$2': error '$err', reads '$got', wanted '$3'"
	return 1
}

# reads FILE EXPECT: FILE reads EXPECT.
reads() {
	local got

	got=$(cat "$1")
	[ "$got" = "$2" ] && return 0
	ktap_print_msg "$1 reads '$got', wanted '$2'"
	return 1
}

# rejects FILE VALUE: the write fails with EINVAL and FILE keeps its value.
rejects() {
	local before err after

	before=$(cat "$1")
	err=$(wq_write "$1" "$2")
	after=$(cat "$1")
	[ "$err" = "Invalid argument" ] && [ "$before" = "$after" ] && return 0
	ktap_print_msg "$1 <- '$2': error '$err', '$before' became '$after'"
	return 1
}

# online_cpus: the online CPU numbers, one per line.
online_cpus() {
	local c n

	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${c##*cpu}
		if [ ! -f "$c/online" ] || [ "$(cat "$c/online")" = 1 ]; then
			echo "$n"
		fi
	done
}

# cpu_cycle CPU: take CPU offline and back online; fails if either step does.
cpu_cycle() {
	local f=/sys/devices/system/cpu/cpu$1/online

	echo 0 > "$f" && [ "$(cat "$f")" = 0 ] &&
		echo 1 > "$f" && [ "$(cat "$f")" = 1 ]
}

# cycle_cpus ROUNDS CPU...: cpu_cycle each CPU, ROUNDS times over; fails
# (saying which) if one did not cycle.
cycle_cpus() {
	local rounds=$1 r=0 c status=0

	shift
	while [ $r -lt "$rounds" ]; do
		for c in "$@"; do
			cpu_cycle "$c" || {
				ktap_print_msg "cpu$c did not cycle"
				status=1
			}
		done
		r=$((r + 1))
	done
	return $status
}

# pids_named PREFIX: the PIDs of the tasks whose name starts with PREFIX.
pids_named() {
	local p

	for p in /proc/[0-9]*; do
		case $(cat "$p/comm" 2>/dev/null) in "$1"*) echo "${p#/proc/}" ;; esac
	done
}

# rt_worker_pids PREFIX: the PIDs of the real-time workers whose names
# start with PREFIX (kworker/CPU: for CPU's pool, kworker/ for all): the
# name up to the "-" or "+" of what it runs ends in R, the rescuers
# (kworker/R-NAME) aside.
rt_worker_pids() {
	local pid name

	pids_named "$1" | while read -r pid; do
		name=$(cat "/proc/$pid/comm" 2>/dev/null)
		case ${name%%[-+]*} in kworker/*:*R) echo "$pid" ;; esac
	done
}

# load_twq: load test_workqueue where it is a module; fails if absent.
load_twq() {
	[ -d "$TWQ_DEBUGFS" ] ||
		insmod /lib/modules/test_workqueue.ko 2>/dev/null
	[ -d "$TWQ_DEBUGFS" ]
}

# need_twq: skip the whole program unless test_workqueue is there (built
# in, or loaded here from /lib/modules when built as a module).
need_twq() {
	load_twq && return 0
	ktap_print_header
	ktap_skip_all "no test_workqueue (CONFIG_TEST_WORKQUEUE)"
	exit "$KSFT_SKIP"
}
