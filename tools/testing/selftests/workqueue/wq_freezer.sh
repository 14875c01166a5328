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

# The hold is an mdelay() of that many seconds; under TCG it has ended
# after a tenth of it (the items fire 100 ms into the freeze).
echo 6 > /sys/module/suspend/parameters/pm_test_delay
echo arm > $TWQ_DEBUGFS/freezer
echo freezer > /sys/power/pm_test
check "freezer cycle completes" sh -c 'echo freeze > /sys/power/state'
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
