#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# docs.sh: build the rework tree's Documentation/core-api with Sphinx
# (make SPHINXDIRS=core-api htmldocs, output in build/rework/obj-docs) and
# fail on any warning or error about the workqueue documentation or the
# kernel-doc it pulls from our files.  Pristine 6.12 gives three warnings
# of its own in this build (dot(1) missing, symbol-namespaces.rst:101,
# the RCU/index toctree entry); they are listed, not counted.
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$TOP/harness/deps.sh" python3-sphinx python3-sphinx-rtd-theme
"$TOP/harness/lib/tree.sh" rework
obj=$(objdir rework docs)
log=$obj/htmldocs.log
mkdir -p "$obj"
say "make SPHINXDIRS=core-api htmldocs"
kmake rework docs SPHINXDIRS=core-api htmldocs >"$log" 2>&1 ||
	{ tail -20 "$log"; die "htmldocs failed: see ${log#$TOP/}"; }
warnings=$(grep -E 'WARNING|ERROR|warning:|error:' "$log" || true)
if echo "$warnings" | grep -i workqueue; then
	die "htmldocs warnings: see ${log#$TOP/}"
fi
[ -z "$warnings" ] || printf 'not from our files:\n%s\n' "$warnings"
say "htmldocs: clean (${obj#$TOP/}/Documentation/output/core-api/)"
