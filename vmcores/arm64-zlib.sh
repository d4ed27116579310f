#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# arm64-zlib.sh: prints a folder holding arm64's zlib (usr/include/zlib.h,
# usr/lib/aarch64-linux-gnu/libz.a), for the static kstack of arm64 guests
# (make static-arm64).  zlib1g-dev of arm64 is downloaded through a list of
# its own (suite-apt.sh), never through dpkg's architectures: nothing of
# arm64 is installed on the host.  Kept in KSTACK_CACHE, as make-vmcore's
# downloads are.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
if [ -n "${KSTACK_CACHE:-}" ]; then
	cache=$KSTACK_CACHE
elif mkdir -p /var/cache/kstack 2>/dev/null && [ -w /var/cache/kstack ]; then
	cache=/var/cache/kstack
else
	cache=$top/cache
fi
log() { echo "arm64-zlib: $*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source-path=SCRIPTDIR source=suite-apt.sh
. "$here/suite-apt.sh"
suite_use "$(. /etc/os-release && echo "$VERSION_CODENAME")" arm64
ver=$(apt_cache policy zlib1g-dev 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
{ [ -n "$ver" ] && [ "$ver" != "(none)" ]; } || die "apt-cache knows no arm64 zlib1g-dev"
root=$cache/sysroot/zlib1g-dev_${ver//:/_}_arm64
if [ ! -f "$root/.complete" ]; then
	mkdir -p "$cache/sysroot"
	tmp=$(mktemp -d "$cache/sysroot/.dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	log "downloading zlib1g-dev $ver (arm64)"
	(cd "$tmp" && apt_get download -q -o APT::Sandbox::User=root "zlib1g-dev=$ver" >/dev/null) ||
		die "apt-get download zlib1g-dev=$ver failed"
	dpkg-deb -x "$tmp"/zlib1g-dev_*.deb "$tmp/root"
	[ -f "$tmp/root/usr/lib/aarch64-linux-gnu/libz.a" ] || die "no libz.a in zlib1g-dev $ver"
	touch "$tmp/root/.complete"
	rm -rf "$root"
	mv "$tmp/root" "$root"
fi
echo "$root"
