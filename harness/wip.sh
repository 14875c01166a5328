#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# wip.sh: compile the staged rework (layer rework-wip of patches/series)
# into its own tree with W=1, the debug configuration; any warning or
# error fails.  Writes out/test/wip.json for the test summary.  Without
# rework-wip entries there is nothing to check.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

result=$OUT/test/wip.json
mkdir -p "$OUT/test"
rm -f "$result"
[ -n "$(series_lines rework-wip)" ] || exit 0

"$TOP/harness/lib/tree.sh" wip
"$TOP/harness/lib/build.sh" wip debug prepare >/dev/null
# the rework's C files, and the users of its internal header
objs=$(series_lines rework-wip | tr ' ' '\n' | grep '^kernel/.*\.c$' |
	sed 's/\.c$/.o/' | tr '\n' ' ')
objs="$objs kernel/sched/core.o kernel/async.o"
log=$OUT/test/wip-compile.log
say "compiling the staged rework with W=1: $objs"
status=PASS
# shellcheck disable=SC2086
findings=$(compile_w1 wip debug "$log" $objs) || status=FAIL
# the first 20 of the compiler's complaints go into the summary
"$PYTHON" - "$result" "$status" "$log" "$(head -n 20 <<<"$findings")" <<'PY'
import json, sys
path, status, log, findings = sys.argv[1:]
detail = [l.rstrip() for l in findings.splitlines()]
json.dump([{'name': 'rework-wip: W=1 compile of the staged rework',
            'status': status, 'detail': detail or [log]}], open(path, 'w'))
PY
