#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test.sh WQ CONFIG...: build and test kernel WQ in each configuration,
# then print the summary; its last line is "N passed, N failed, N skipped".
set -euo pipefail
. "$(dirname "$0")/common.sh"

wq=${1:?usage: test.sh WQ CONFIG...}
shift
check_wq "$wq"
start=$(date +%s)
for cfg in "$@"; do
	"$TOP/harness/prepare.sh" "$wq" "$cfg"
	say "testing $wq-$cfg"
	"$PYTHON" "$TOP/harness/testrun.py" run "$wq" "$cfg"
done
"$TOP/harness/wip.sh"
say "done in $(( $(date +%s) - start ))s"
exec "$PYTHON" "$TOP/harness/testrun.py" summary "$wq" "$@"
