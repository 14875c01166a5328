#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A freezer cycle (pm_test=freezer): a freezable workqueue holds its items
# while tasks are frozen, a plain one keeps running them.

. "$(dirname "$0")/wq_lib.sh"
need_twq

ktap_print_header
if ! grep -q freezer /sys/power/pm_test 2>/dev/null ||
   ! grep -q freeze /sys/power/state; then
	ktap_skip_all "needs CONFIG_PM_DEBUG and suspend-to-idle"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 4

echo 3 > /sys/module/suspend/parameters/pm_test_delay
echo arm > $TWQ_DEBUGFS/freezer
echo freezer > /sys/power/pm_test
check "freezer cycle completes" sh -c 'echo freeze > /sys/power/state'
echo none > /sys/power/pm_test
outcome=$(cat $TWQ_DEBUGFS/freezer)
ktap_print_msg "freezer: $outcome"
field() { echo "$outcome" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }

check "items were queued for the freeze" [ "$(field fired)" = 1 ]
check "plain workqueue ran its item while frozen" \
	[ "$(field plain_runs)" = 1 ] && [ "$(field plain_runs_frozen)" = 1 ]
check "freezable workqueue ran its item only after the thaw" \
	[ "$(field freezable_runs)" = 1 ] && [ "$(field freezable_runs_frozen)" = 0 ]

ktap_finished
