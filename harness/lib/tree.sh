#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tree.sh WQ: bring the tree of kernel WQ up to date with the pristine source plus the
# layers of patches/series that WQ takes (stock: test; stock-fixed: test
# stable; rework: test rework; series: the
# patches of test and rework up to and including the one named by
# $SERIES_UPTO, for series-build.sh; stable-series: the same for test and
# stable, for stable-build.sh).
#
# The tree starts as hard links to the pristine source.  The overlay is
# staged in a scratch directory (pristine files, our files copied over, then
# the diffs applied) and only files whose content differs are written, with
# the link broken first, so the pristine source is never modified and
# Kbuild sees new mtimes only where something really changed.  Files the
# previous run overlaid and this one does not are restored.
set -euo pipefail
. "$(dirname "$0")/common.sh"

wq=${1:?usage: tree.sh stock|stock-fixed|rework|series|stable-series}
check_wq "$wq"
layers=$(wq_layers "$wq")

tree=$(treedir "$wq")
manifest=$tree/.overlay-manifest
srcver=$(cat "$SRC/.debian-version")
if [ ! -f "$tree/.source-version" ] ||
   [ "$(cat "$tree/.source-version")" != "$srcver" ]; then
	say "creating tree $wq from $srcver"
	rm -rf "$BUILD/$wq"
	mkdir -p "$BUILD/$wq"
	cp -al "$SRC" "$tree"
	echo "$srcver" >"$tree/.source-version"
	: >"$manifest"
fi

stage=$(mktemp -d)
staged=$(mktemp)
trap 'rm -rf "$stage" "$staged"' EXIT

# stage_pristine PATH: seed the stage with the pristine copy of PATH.
stage_pristine() {
	[ -e "$stage/$1" ] && return 0
	[ -f "$SRC/$1" ] || return 0
	mkdir -p "$stage/$(dirname "$1")"
	cp "$SRC/$1" "$stage/$1"
}

while read -r _name items; do
	for item in $items; do
		case $item in
		*.diff|*.patch)
			for p in $(diff_paths "$TOP/$item"); do
				stage_pristine "$p"
			done
			;;
		esac
		apply_item "$stage" "$item"
	done
done < <(series_lines $layers | sed "/^${SERIES_UPTO:-}\( \|$\)/q")
# The series tree is the rework cut to the step of its patch (the patches
# of make patches); the rework tree is the code as written, every feature in.
[ "$wq" != series ] || strip_features "$stage" "${SERIES_UPTO:-}"

(cd "$stage" && find . -type f | sed 's|^\./||' | sort) >"$staged"

changed=0
while read -r f; do
	if ! cmp -s "$stage/$f" "$tree/$f"; then
		mkdir -p "$tree/$(dirname "$f")"
		cp --remove-destination "$stage/$f" "$tree/$f"
		changed=$((changed + 1))
	fi
done <"$staged"

# Files overlaid last time but not now: back to pristine (or gone).
while read -r f; do
	grep -qxF "$f" "$staged" && continue
	if [ -f "$SRC/$f" ]; then
		cmp -s "$SRC/$f" "$tree/$f" ||
			cp --remove-destination "$SRC/$f" "$tree/$f"
	else
		rm -f "$tree/$f"
	fi
	changed=$((changed + 1))
done <"$manifest"

cp "$staged" "$manifest"
[ "$changed" = 0 ] || say "tree $wq: $changed file(s) updated"
