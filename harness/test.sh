#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test.sh [--torture SECS] WQ CONFIG...: build and test kernel WQ in each
# configuration (or, with --torture, run only the torture test for SECS
# seconds), then print the summary; its last line is
# "N passed, N failed, N skipped".
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

secs=
if [ "${1:-}" = --torture ]; then
	secs=${2:?usage: test.sh --torture SECS WQ CONFIG...}
	shift 2
fi
wq=${1:?usage: test.sh [--torture SECS] WQ CONFIG...}
shift
check_wq "$wq"
start=$(date +%s)
for cfg in "$@"; do
	"$TOP/harness/prepare.sh" "$wq" "$cfg"
	if [ -n "$secs" ]; then
		say "torture test of $wq-$cfg for ${secs}s"
		"$PYTHON" "$TOP/harness/lib/testrun.py" torture "$wq" "$cfg" "$secs"
	else
		say "testing $wq-$cfg"
		"$PYTHON" "$TOP/harness/lib/testrun.py" run "$wq" "$cfg"
	fi
done
say "done in $(( $(date +%s) - start ))s"
if [ -n "$secs" ]; then
	exec "$PYTHON" "$TOP/harness/lib/testrun.py" torture-summary "$wq" "$@"
fi
exec "$PYTHON" "$TOP/harness/lib/testrun.py" summary "$wq" "$@"
