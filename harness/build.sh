#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh WQ CONFIG [TARGETS...]: configure and build one kernel.
#
# The .config is allnoconfig (or the fragment's "# base:" targets, such as
# defconfig) plus the merged fragment configs/CONFIG.config (with its
# includes); it is regenerated only when the fragment changes and every
# assignment in the fragment is checked to have survived Kconfig.
set -euo pipefail
. "$(dirname "$0")/common.sh"

wq=${1:?usage: build.sh WQ CONFIG [TARGETS...]}
cfg=${2:?usage: build.sh WQ CONFIG [TARGETS...]}
shift 2
[ $# -gt 0 ] || set -- bzImage modules
check_wq "$wq"
obj=$(objdir "$wq" "$cfg")
mkdir -p "$obj"

"$PYTHON" "$TOP/harness/kconfig.py" merge "$cfg" | write_if_changed "$obj/fragment.config"
# The series tree changes its Kconfig files from patch to patch: configure
# it every time, and options that only a later patch adds may be missing.
if [ "$wq" = series ] || [ ! -f "$obj/.config" ] ||
   [ "$obj/fragment.config" -nt "$obj/.config" ]; then
	say "configuring $wq-$cfg"
	base=$("$PYTHON" "$TOP/harness/kconfig.py" base "$cfg")
	if [ -z "$base" ]; then
		kmake "$wq" "$cfg" KCONFIG_ALLCONFIG="$obj/fragment.config" allnoconfig
	else
		# shellcheck disable=SC2086
		kmake "$wq" "$cfg" $base
		(cd "$obj" && "$(treedir "$wq")/scripts/kconfig/merge_config.sh" \
			-m -O . .config fragment.config >/dev/null)
		kmake "$wq" "$cfg" olddefconfig
	fi
	if ! "$PYTHON" "$TOP/harness/kconfig.py" check "$cfg" "$obj/.config"; then
		[ "$wq" = series ] || { rm -f "$obj/.config"; die "configs/$cfg.config does not hold"; }
		warn "series-$cfg: configs/$cfg.config options not in the tree yet"
	fi
fi

say "building $wq-$cfg"
start=$(date +%s)
kmake "$wq" "$cfg" "$@"
say "built $wq-$cfg in $(( $(date +%s) - start ))s"
