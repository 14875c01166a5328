#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: build kernels A and B (default stock and rework) with the perf
# configuration, boot them alternately running the test_workqueue
# scenarios, and write out/bench/report.md, summary.json and the plots.
# Settings: see harness/bench.py (A, B, ROUNDS, CLOCK, BENCH, SCENARIOS).
set -euo pipefail
. "$(dirname "$0")/common.sh"

A=${A:-stock}
B=${B:-rework}
check_wq "$A"
check_wq "$B"
"$TOP/harness/prepare.sh" "$A" perf
[ "$B" = "$A" ] || "$TOP/harness/prepare.sh" "$B" perf
export A B
status=0
"$PYTHON" "$TOP/harness/bench.py" run || status=$?
"$PYTHON" "$TOP/harness/bench.py" report
exit $status
