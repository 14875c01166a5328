#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# prepare.sh WQ CONFIG...: everything a guest boot needs, built
# incrementally: packages, source, tree, kernels and their initramfs.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

wq=${1:?usage: prepare.sh WQ CONFIG...}
shift
"$TOP/harness/deps.sh"
"$TOP/harness/lib/fetch.sh"
"$TOP/harness/lib/tree.sh" "$wq"
for cfg in "$@"; do
	"$TOP/harness/lib/build.sh" "$wq" "$cfg"
	"$TOP/harness/lib/initramfs.sh" "$wq" "$cfg"
done
