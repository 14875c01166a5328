#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# python.sh SCRIPT [ARGS...]: run a harness Python script with the
# interpreter common.sh picks, for the make targets that start one
# directly (run, profile): the choice is made in one place.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

exec "$PYTHON" "$@"
