#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: build kernels A and B (default stock and rework; any of stock,
# stock-fixed and rework) with the configurations the scenarios need (perf;
# rcuexp for rcu_exp), boot them alternately running the test_workqueue
# scenarios, and write out/bench/report.md, summary.json and the plots.
# Settings: see harness/bench.py (A, B, ROUNDS, CLOCK, BENCH, SCENARIOS).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

A=${A:-stock}
B=${B:-rework}
check_wq "$A"
check_wq "$B"
export A B
configs=$("$PYTHON" "$TOP/harness/bench.py" configs)
# shellcheck disable=SC2086
"$TOP/harness/prepare.sh" "$A" $configs
# shellcheck disable=SC2086
[ "$B" = "$A" ] || "$TOP/harness/prepare.sh" "$B" $configs
status=0
"$PYTHON" "$TOP/harness/bench.py" run || status=$?
"$PYTHON" "$TOP/harness/bench.py" report
exit $status
