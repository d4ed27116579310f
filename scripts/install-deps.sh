#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# install-deps.sh [GROUP...]: install the Debian 12 packages that a make
# target needs, and only those.  Only what is missing is installed, so a
# ready machine pays one dpkg query.
#
#   build   make: the live tool and the crash extension
#   demo    make demo: build, one vmcore made in QEMU, crash reading it
#   check   make check and make check-more: every test, every dump
#   deb     make deb
#   bench   make bench
#   crash9  vmcores/build-crash (make check-more): crash 9's Build-Depends
#   fresh   make check-fresh: a new Debian 12 root to run the README in
#
# install-deps.sh list: the table below (tests/integration/test_deps.sh
# reads it); install-deps.sh missing GROUP...: print what is missing,
# install nothing.
#
# No GROUP: build, demo, check, deb and bench.  This file is the one list of what the
# project needs from Debian: a fresh root (make check-fresh) proves that
# it is enough, and test_deps.sh that each line is used.
set -eu

# GROUPS PACKAGE WORD: WORD is what the tree calls, includes or links of
# the package (a command, a header, a pkg-config name); test_deps.sh
# checks that the tree outside this file names it and that the package
# installs a file of that name.  A WORD @FILE says that FILE builds
# another package with it (its Build-Depends): FILE must call this script
# with the line's group.
table='
build,demo,check,deb,bench	gcc		gcc
build,demo,check,deb,bench	make		make
build,demo,check,deb,bench	pkg-config	pkg-config
build,demo,check,deb,bench	zlib1g-dev	zlib.h
build,demo,check,deb,bench	libkdumpfile-dev libkdumpfile
build,demo,check,deb,bench	libdw-dev	libdw
build,demo,check,deb,bench	crash		crash
demo,check,bench		busybox-static	busybox
demo,check,bench		qemu-system-x86	qemu-system-x86_64
demo,check,bench		socat		socat
demo,check,bench		cpio		cpio
demo,check,bench		xz-utils	xz
demo,check,bench		zstd		zstd
demo,check,bench		python3		python3
check,bench			libcmocka-dev	cmocka.h
check,bench			kexec-tools	kexec
check,bench			makedumpfile	makedumpfile
check,bench			time		/usr/bin/time
bench				python3-drgn	drgn
check				clang		clang
check				libclang-rt-14-dev fuzzer
check				qemu-system-arm	qemu-system-aarch64
check				gcc-aarch64-linux-gnu aarch64-linux-gnu-gcc
check				libc6-dev-arm64-cross aarch64-linux-gnu
check,deb			dpkg-dev	dpkg-buildpackage
check,deb			build-essential	build-essential
check,deb			debhelper	dh
check,deb			lintian		lintian
check,deb			git		git
check				man-db		man
check				prometheus-node-exporter prometheus-node-exporter
check				chromium	chromium
check				python3-jsonschema jsonschema
fresh				debootstrap	debootstrap
crash9				bison		@vmcores/build-crash
crash9				flex		@vmcores/build-crash
crash9				gawk		@vmcores/build-crash
crash9				texinfo		@vmcores/build-crash
crash9				libncurses-dev	@vmcores/build-crash
crash9				zlib1g-dev	@vmcores/build-crash
crash9				liblzo2-dev	@vmcores/build-crash
crash9				libsnappy-dev	@vmcores/build-crash
crash9				libzstd-dev	@vmcores/build-crash
crash9				libmpfr-dev	@vmcores/build-crash
crash9				libgmp-dev	@vmcores/build-crash
crash9				binutils-dev	@vmcores/build-crash
'

only_print=false
case ${1:-} in
list)
	printf '%s\n' "$table" | sed '/^$/d'
	exit 0
	;;
missing)
	only_print=true
	shift
	;;
esac
groups=${*:-build demo check deb bench}

wanted=""
for g in $groups; do
	case $g in
	build | demo | check | deb | bench | crash9 | fresh) ;;
	*)
		echo "install-deps: unknown group '$g'" \
			"(build, demo, check, deb, bench, crash9, fresh)" >&2
		exit 2
		;;
	esac
	wanted="$wanted $(printf '%s\n' "$table" |
		awk -v g="$g" 'NF >= 3 && ("," $1 ",") ~ ("," g ",") { print $2 }')"
done

missing=""
for p in $(printf '%s\n' $wanted | sort -u); do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if $only_print; then
	[ -z "$missing" ] || echo "$missing"
	exit 0
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
