#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# patches.sh: write the overlay as a git format-patch series with a cover
# letter into out/patches/, one patch per line of patches/series (commit
# message patches/NAME.msg), and check that it applies with git am to the
# pristine tree.  Then the stable series (layer "stable": fixes for 6.12's
# own kernel/workqueue.c, git format-patch files with their messages):
# applied with git am to the pristine tree and written again with its own
# cover letter (patches/stable/cover.txt) and recipients
# (patches/stable/recipients) into out/patches-stable/, ready for
# git send-email.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

"$TOP/harness/lib/fetch.sh"
git_dir=$BUILD/pristine.git
srcver=$(cat "$SRC/.debian-version")
tag=pristine-$(echo "$srcver" | tr '~:' '__')
out=$OUT/patches
export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-$(git -C "$TOP" config user.name || echo "Workqueue Rework Team")}
export GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-$(git -C "$TOP" config user.email || echo wq-rework@localhost)}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
g() { git --git-dir="$git_dir" "$@"; }

# The pristine tree as one commit, made once per source version.
if ! g rev-parse -q --verify "refs/tags/$tag" >/dev/null 2>&1; then
	say "recording the pristine tree in git (once)"
	rm -rf "$git_dir"
	git init -q --bare "$git_dir"
	g --work-tree="$SRC" add -f -A -- . ':!.debian-version' ':!.fallback'
	g --work-tree="$SRC" commit -q -m "Linux $srcver (Debian linux-source-6.12)"
	g tag "$tag"
fi
base=$tag

# worktree DIR: a fresh checkout of the pristine commit at DIR.
worktree() {
	g worktree remove --force "$1" 2>/dev/null || rm -rf "$1"
	g worktree prune
	g worktree add -q --detach "$1" "$base"
}

# Each patch is the tree after it, made afresh from the pristine one (the
# items of every patch up to it, the rework cut to that step by
# strip_features), less the tree before it.
wt=$BUILD/patches-wt
worktree "$wt"
done_items=()
while read -r name items; do
	# shellcheck disable=SC2206
	done_items+=($items)
	git -C "$wt" read-tree -u --reset "$base"
	git -C "$wt" clean -q -f -d -x
	for item in "${done_items[@]}"; do
		apply_item "$wt" "$item"
	done
	strip_features "$wt" "$name"
	[ -f "$TOP/patches/$name.msg" ] || die "patches/$name.msg is missing"
	git -C "$wt" add -f -A
	git -C "$wt" commit -q -F "$TOP/patches/$name.msg"
done < <(series_lines test rework)

# fill_cover LETTER TEXT: the subject (first line) and blurb (the rest) of
# TEXT into the cover letter LETTER of git format-patch.
fill_cover() {
	"$PYTHON" - "$1" "$2" <<'PY'
import sys
path, cover = sys.argv[1], sys.argv[2]
subject, _, blurb = open(cover).read().partition('\n')
text = open(path).read()
text = text.replace('*** SUBJECT HERE ***', subject.strip())
text = text.replace('*** BLURB HERE ***', blurb.strip())
open(path, 'w').write(text)
PY
}

rm -rf "$out"
git -C "$wt" format-patch -q --cover-letter --thread -o "$out" "$base..HEAD"
fill_cover "$out"/0000-cover-letter.patch "$TOP/patches/cover.txt"

say "checking that the series applies with git am"
am=$BUILD/patches-am
worktree "$am"
# shellcheck disable=SC2046
git -C "$am" am -q $(ls "$out"/*.patch | grep -v 0000-cover-letter)
[ -z "$(git -C "$am" diff --stat HEAD "$(git -C "$wt" rev-parse HEAD)")" ] ||
	die "git am result differs from the series"
g worktree remove --force "$am"
say "$(ls "$out" | wc -l) files in ${out#$TOP/}"

say "the stable series: git am on the pristine tree"
st_out=$OUT/patches-stable
st=$BUILD/patches-stable-wt
worktree "$st"
# shellcheck disable=SC2046
git -C "$st" am -q $(series_lines stable | cut -d' ' -f2- | tr ' ' '\n' |
	sed "s|^|$TOP/|") || die "the stable series does not apply with git am"
recipients=()
while read -r kind addr; do
	case $kind in
	to:) recipients+=("--to=$addr") ;;
	cc:) recipients+=("--cc=$addr") ;;
	esac
done < <(grep -v '^#' "$TOP/patches/stable/recipients")
rm -rf "$st_out"
git -C "$st" format-patch -q --cover-letter --thread "${recipients[@]}" \
	-o "$st_out" "$base..HEAD"
fill_cover "$st_out"/0000-cover-letter.patch "$TOP/patches/stable/cover.txt"
g worktree remove --force "$st"
say "$(ls "$st_out" | wc -l) files in ${st_out#$TOP/}"
