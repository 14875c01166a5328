#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# series-build.sh [CONFIG]: check that every patch of the `make patches`
# series builds on its own: the tree "series" is brought to each patch in
# turn (the patches before it plus that one) and built incrementally with
# CONFIG (default debug).  Any compiler warning or error fails.
set -euo pipefail
. "$(dirname "$0")/common.sh"

cfg=${1:-debug}
log=$OUT/series-build.log
mkdir -p "$OUT"
: >"$log"
n=0
for name in $(series_lines test rework | cut -d' ' -f1); do
	n=$((n + 1))
	say "patch $n, $name: building series-$cfg"
	SERIES_UPTO=$name "$TOP/harness/lib/tree.sh" series
	if ! "$TOP/harness/lib/build.sh" series "$cfg" >>"$log" 2>&1; then
		die "patch $n ($name) does not build: see ${log#$TOP/}"
	fi
	if grep -E "$CC_DIAGNOSTICS" "$log"; then
		die "patch $n ($name) builds with warnings: see ${log#$TOP/}"
	fi
done
say "each of the $n patches builds on its own ($cfg)"
