#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# docs.sh: build the rework tree's Documentation/core-api with Sphinx
# (make SPHINXDIRS=core-api htmldocs, output in build/rework/obj-docs) and
# fail on any warning or error in it.
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$TOP/harness/deps.sh" python3-sphinx python3-sphinx-rtd-theme
"$TOP/harness/tree.sh" rework
obj=$(objdir rework docs)
log=$obj/htmldocs.log
mkdir -p "$obj"
say "make SPHINXDIRS=core-api htmldocs"
kmake rework docs SPHINXDIRS=core-api htmldocs >"$log" 2>&1 ||
	{ tail -20 "$log"; die "htmldocs failed: see ${log#$TOP/}"; }
if grep -E 'WARNING|ERROR|warning:|error:' "$log"; then
	die "htmldocs warnings: see ${log#$TOP/}"
fi
say "htmldocs: clean (${obj#$TOP/}/Documentation/output/core-api/)"
