#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# wqdump.sh [SCENARIO...]: build stock and rework with configs/dwarf.config,
# install drgn (PyPI, pinned, in a virtualenv under build/) once, and run
# harness/lib/wqdump.py: tools/workqueue/wq_dump.py on both kernels, compared.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

DRGN_VERSION=0.3.0
"$TOP/harness/deps.sh" python3-venv
for wq in stock rework; do
	"$TOP/harness/prepare.sh" "$wq" dwarf
done
venv=$BUILD/drgn-$DRGN_VERSION
if [ ! -x "$venv/bin/drgn" ]; then
	say "installing drgn $DRGN_VERSION"
	"$PYTHON" -m venv "$venv"
	"$venv/bin/pip" install -q "drgn==$DRGN_VERSION"
fi
DRGN=$venv/bin/drgn exec "$PYTHON" "$TOP/harness/lib/wqdump.py" "$@"
