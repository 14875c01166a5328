#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The workqueue torture test (CONFIG_WQ_TORTURE_TEST=m) for
# WQ_TORTURE_SECS seconds (default 30), with CPU hotplug, allocation
# faults (failslab, through each torture thread's fail-nth) and, where
# the kernel has the knob, random failures of pool growth; then
# kmemleak, where the kernel has it.  WQ_TORTURE_PARAMS adds module
# parameters.  Not in run_all.sh's default list: the harness runs it in
# a boot of its own.

. "$(dirname "$0")/wq_lib.sh"

DBG=/sys/kernel/debug
SECS=${WQ_TORTURE_SECS:-30}
STOP_SECS=120
GROWTH=$DBG/workqueue/fail_pool_growth
KMEMLEAK=$DBG/kmemleak

# find_module NAME: the path of module NAME in the initramfs or the tree.
find_module() {
	for m in /lib/modules/$1.ko /lib/modules/$(uname -r)/kernel/kernel/$1.ko; do
		[ -f "$m" ] && { echo "$m"; return 0; }
	done
	return 1
}

# faults_on: allocation faults for tasks that ask (fail-nth), quietly,
# GFP_KERNEL included; pool growth fails at random where it can.
faults_on() {
	if [ -d "$DBG/failslab" ]; then
		echo N > "$DBG/failslab/ignore-gfp-wait"
		echo 0 > "$DBG/failslab/verbose"
	fi
	if [ -d "$GROWTH" ]; then
		echo 0 > "$GROWTH/verbose"
		echo -1 > "$GROWTH/times"
		echo 5 > "$GROWTH/probability"
	fi
}

faults_off() {
	[ -d "$GROWTH" ] && echo 0 > "$GROWTH/probability"
	[ -d "$DBG/failslab" ] && echo Y > "$DBG/failslab/ignore-gfp-wait"
}

# kmemleak_new: suspected leaks found since kmemleak_clear, after two
# scans (an object must be unreferenced through a whole scan period).
kmemleak_new() {
	echo scan > "$KMEMLEAK"
	sleep 6
	echo scan > "$KMEMLEAK"
	grep -c 'unreferenced object' "$KMEMLEAK"
}

# unload: rmmod the module.  A torture thread stuck in the kernel (in a
# flush that never returns, say) keeps rmmod waiting for good: after
# STOP_SECS, show the blocked tasks (SysRq w) and fail, so that the guest
# still ends in time instead of at the harness's timeout.
unload() {
	local i=0 pid

	rmmod workqueue_torture &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		if [ $i -ge "$STOP_SECS" ]; then
			echo w > /proc/sysrq-trigger
			return 1
		fi
		sleep 1
		i=$((i + 1))
	done
	wait "$pid"
}

# last PATTERN: the last kernel message with PATTERN in it.
last() {
	dmesg | grep -- "$1" | tail -n 1
}

# succeeded: the module's verdict.
succeeded() {
	last 'wq-torture:--- End of test:' | grep -q SUCCESS
}

# every_op_ran: no operation count of the last statistics is 0.
every_op_ran() {
	last 'wq-torture: ops:' | grep -qvE ':0( |$)'
}

# hotplug_ran: CPUs came online at least once (torture_onoff's count).
hotplug_ran() {
	last 'wq-torture: hotplug: onoff:' | grep -qv 'onoff: 0/'
}

ktap_print_header
wqt=$(find_module workqueue_torture)
tor=$(find_module torture)
if [ -z "$wqt" ] || [ -z "$tor" ]; then
	ktap_set_plan 0
	ktap_skip_all "no workqueue_torture module (CONFIG_WQ_TORTURE_TEST=m)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 7

[ -e "$KMEMLEAK" ] && echo clear > "$KMEMLEAK"
faults_on
insmod "$tor" 2>/dev/null
check "the torture module loads" insmod "$wqt" stat_interval=10 $WQ_TORTURE_PARAMS
sleep "$SECS"
check "the module stops (no torture thread hangs)" unload
faults_off
dmesg | grep -- 'wq-torture:' | tail -n 5 | while read -r line; do
	ktap_print_msg "$line"
done
check "the ledger holds: End of test: SUCCESS" succeeded
check "every kind of operation ran" every_op_ran

if [ -f /sys/devices/system/cpu/cpu1/online ]; then
	check "CPUs went off and on line" hotplug_ran
else
	ktap_test_skip "CPUs went off and on line (one CPU)"
fi

if [ -d "$DBG/failslab" ]; then
	hit=$(last 'wq-torture: faults:' | grep -o 'hit [0-9]*' | cut -d' ' -f2)
	check "allocation faults were injected ($hit)" [ "${hit:-0}" -gt 0 ]
else
	ktap_test_skip "allocation faults were injected (no CONFIG_FAILSLAB)"
fi

if [ -e "$KMEMLEAK" ]; then
	n=$(kmemleak_new)
	[ "$n" = 0 ] || cat "$KMEMLEAK"
	check "kmemleak finds no leak ($n)" [ "$n" = 0 ]
else
	ktap_test_skip "kmemleak finds no leak (no CONFIG_DEBUG_KMEMLEAK)"
fi
[ -e "$DBG/workqueue/pool_growth_faults" ] &&
	ktap_print_msg "pool growth faults: $(cat "$DBG/workqueue/pool_growth_faults")"
ktap_finished
