#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Download Debian's linux-source-6.12 (the pinned version, else the newest
# 6.12 with a warning) and unpack it once into $SRC.
set -euo pipefail
. "$(dirname "$0")/common.sh"

pin=$(grep -v '^#' "$TOP/harness/lib/linux-source.pin" | head -n1)
pkg=${pin%%=*}
want=${pin#*=}

if [ -f "$SRC/.debian-version" ]; then
	have=$(cat "$SRC/.debian-version")
	[ "$have" = "$want" ] && exit 0
	[ -f "$SRC/.fallback" ] && [ "$(cat "$SRC/.fallback")" = "$want" ] && {
		warn "using $pkg $have: pinned $want is not available"
		exit 0
	}
fi

dl=$BUILD/download
mkdir -p "$dl"
version=$want
deb=$(ls "$dl/${pkg}_${want//:/%3a}_all.deb" 2>/dev/null || true)
if [ -z "$deb" ]; then
	say "downloading $pkg=$want"
	if ! (cd "$dl" && apt-get download "$pkg=$want" 2>/dev/null); then
		apt-get update -q >/dev/null 2>&1 || true
		(cd "$dl" && apt-get download "$pkg=$want" 2>/dev/null) || {
			version=$(apt-cache madison "$pkg" | awk '{print $3}' |
				  sort -V | tail -n1)
			[ -n "$version" ] || die "no $pkg package in the apt sources"
			warn "$pkg=$want is gone; falling back to $version"
			(cd "$dl" && apt-get download "$pkg=$version")
		}
	fi
	deb=$(ls "$dl/${pkg}_${version//:/%3a}_all.deb")
fi

say "unpacking $(basename "$deb")"
tmp=$BUILD/src/.unpack
rm -rf "$tmp"
mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" |
	tar -x -O --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ -C "$tmp" --strip-components=1
echo "$version" >"$tmp/.debian-version"
[ "$version" = "$want" ] || echo "$want" >"$tmp/.fallback"
rm -rf "$SRC"
mv "$tmp" "$SRC"
