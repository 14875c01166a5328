#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh WQ CONFIG [TARGETS...]: configure (configs/CONFIG.config, see
# configure in common.sh) and build one kernel.
set -euo pipefail
. "$(dirname "$0")/common.sh"

wq=${1:?usage: build.sh WQ CONFIG [TARGETS...]}
cfg=${2:?usage: build.sh WQ CONFIG [TARGETS...]}
shift 2
[ $# -gt 0 ] || set -- bzImage modules
check_wq "$wq"
configure "$wq" "$cfg"

say "building $wq-$cfg"
start=$(date +%s)
kmake "$wq" "$cfg" "$@"
check_shadows "$(objdir "$wq" "$cfg")"
say "built $wq-$cfg in $(( $(date +%s) - start ))s"
