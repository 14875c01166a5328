#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A freezer cycle (pm_test=freezer): a freezable workqueue holds its items
# while tasks are frozen, a plain one keeps running them; WQ_RT changes
# neither (where the kernel has it); an expedited RCU grace period asked
# for while tasks are frozen completes before the thaw.

. "$(dirname "$0")/wq_lib.sh"
need_twq

ktap_print_header
if ! grep -q freezer /sys/power/pm_test 2>/dev/null ||
   ! grep -q freeze /sys/power/state; then
	ktap_skip_all "needs CONFIG_PM_DEBUG and suspend-to-idle"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 7

# The hold between freeze and thaw is an mdelay() of that many seconds,
# run by the CPU of the writer.  The items fire 100 ms into the freeze.
# Under TCG the guest's TSC is unstable, so each CPU calibrates a delay
# loop against the timer, and on a CPU whose calibration went wrong the
# hold has ended after a tenth of its time, or after 7 ms.  A cycle counts
# only if it kept tasks frozen for HOLD_CS centiseconds by the guest's
# clock; the CPUs take turns until one does.
echo 6 > /sys/module/suspend/parameters/pm_test_delay
HOLD_CS=30

# uptime_cs: the guest's uptime in centiseconds.
uptime_cs() {
	local up

	read -r up _ < /proc/uptime
	echo $((${up%.*} * 100 + 1${up#*.} - 100))
}

# freeze_cycle CPU: arm the items and run a freezer cycle from CPU; fails
# if the cycle fails or its hold ended too early.
freeze_cycle() {
	local t0 t1

	echo arm > $TWQ_DEBUGFS/freezer
	t0=$(uptime_cs)
	taskset -c "$1" sh -c 'echo freeze > /sys/power/state' || return 1
	t1=$(uptime_cs)
	[ $((t1 - t0)) -ge $HOLD_CS ] && return 0
	ktap_print_msg "CPU $1: the cycle took $(((t1 - t0) * 10)) ms, the hold ended early"
	return 1
}

# freeze_held: a freezer cycle, from each online CPU in turn, that held.
freeze_held() {
	local cpu

	for cpu in $(online_cpus); do
		freeze_cycle "$cpu" && return 0
	done
	return 1
}

echo freezer > /sys/power/pm_test
check "freezer cycle completes" freeze_held
echo none > /sys/power/pm_test
outcome=$(cat $TWQ_DEBUGFS/freezer)
ktap_print_msg "freezer: $outcome"
field() { echo " $outcome" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }

# held_for_the_thaw KIND: KIND's item ran once, and not while frozen.
held_for_the_thaw() {
	[ "$(field "$1_runs")" = 1 ] && [ "$(field "$1_runs_frozen")" = 0 ]
}

# ran_while_frozen KIND: KIND's item ran once, while tasks were frozen.
ran_while_frozen() {
	[ "$(field "$1_runs")" = 1 ] && [ "$(field "$1_runs_frozen")" = 1 ]
}

check "items were queued for the freeze" [ "$(field fired)" = 1 ]
check "plain workqueue ran its item while frozen" ran_while_frozen plain
check "freezable workqueue ran its item only after the thaw" \
	held_for_the_thaw freezable
check "an expedited RCU grace period asked for while frozen completes" \
	ran_while_frozen exp_gp
if [ -z "$(field rt_plain_runs)" ]; then
	ktap_test_skip "WQ_RT workqueue ran its item while frozen (no WQ_RT)"
	ktap_test_skip "WQ_RT | WQ_FREEZABLE workqueue ran its item only after the thaw (no WQ_RT)"
else
	check "WQ_RT workqueue ran its item while frozen" ran_while_frozen rt_plain
	check "WQ_RT | WQ_FREEZABLE workqueue ran its item only after the thaw" \
		held_for_the_thaw rt_freezable
fi

ktap_finished
