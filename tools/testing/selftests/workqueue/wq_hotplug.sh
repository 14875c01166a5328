#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Take CPUs offline and back online in a loop while test_workqueue keeps
# items queued on random CPUs: every item queued must run exactly once.

. "$(dirname "$0")/wq_lib.sh"
need_twq

ROUNDS=${WQ_HOTPLUG_ROUNDS:-4}

ktap_print_header
cpus=$(online_cpus | grep -v '^0$')
if [ -z "$cpus" ]; then
	ktap_skip_all "needs a second CPU"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 3

echo start > $TWQ_DEBUGFS/churn
ok=true
# shellcheck disable=SC2086
cycle_cpus "$ROUNDS" $cpus || ok=false
check "CPUs go offline and online under load ($ROUNDS rounds)" $ok
churned=$(cat $TWQ_DEBUGFS/churn)
ktap_print_msg "churn: $churned"
field() { echo "$churned" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
queued=$(field queued)
mismatched=$(field mismatched)
check "items were queued during the loop" [ "${queued:-0}" -gt 0 ]
check "every queued item ran exactly once" [ "$mismatched" = 0 ]

ktap_finished
