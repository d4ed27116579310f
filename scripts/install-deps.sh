#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian 12 packages that building, testing and the demo need.
# Only what is missing is installed, so a ready machine pays one dpkg query.
set -eu
pkgs="gcc make pkg-config zlib1g-dev libcmocka-dev libkdumpfile-dev libdw-dev crash
busybox-static qemu-system-x86 socat cpio xz-utils zstd python3-drgn kexec-tools
makedumpfile time dpkg-dev debhelper lintian clang libclang-rt-dev
qemu-system-arm gcc-aarch64-linux-gnu"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
