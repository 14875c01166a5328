#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stable-build.sh [CONFIG]: check that every patch of the stable series
# (layer "stable" of patches/series) builds on its own on stock 6.12: the
# tree "stable-series" (stock's test layer, then the stable patches) is
# brought to each patch in turn and built incrementally with CONFIG
# (default debug), so that after its first build only kernel/workqueue.o
# and the link are redone.  Any compiler warning or error fails.
set -euo pipefail
. "$(dirname "$0")/common.sh"

cfg=${1:-debug}
log=$OUT/stable-build.log
mkdir -p "$OUT"
: >"$log"
n=0
for name in $(series_lines stable | cut -d' ' -f1); do
	n=$((n + 1))
	say "stable patch $n, $name: building stable-series-$cfg"
	SERIES_UPTO=$name "$TOP/harness/lib/tree.sh" stable-series
	if ! "$TOP/harness/lib/build.sh" stable-series "$cfg" >>"$log" 2>&1; then
		die "stable patch $n ($name) does not build: see ${log#"$TOP"/}"
	fi
	if grep -E "$CC_DIAGNOSTICS" "$log"; then
		die "stable patch $n ($name) builds with warnings: see ${log#"$TOP"/}"
	fi
done
say "each of the $n stable patches builds on its own on stock ($cfg)"
