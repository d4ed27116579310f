# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by make-vmcore and build-crash (bash, set -euo pipefail): apt for
# Debian suites other than the system's own (bullseye's 5.10, trixie's
# 6.12+deb13, sid's 7.x and its crash source). Each suite is read through a
# list of its own under $cache/apt/SUITE, never through /etc/apt: what the
# system resolves (its kernel, crash, libkdumpfile) stays as it is.
# Uses the caller's cache, log and die.
# shellcheck disable=SC2154

suite=
suite_dir=
apt_suite_opts=()
# The Debian architecture of the packages a suite's list holds ("" = the
# system's); another one (arm64 on an x86-64 host) has a list of its own.
suite_arch=

# The suite whose archive holds a kernel named like $1 ("" = the system's).
# Debian's ABI names say it: 5.10.0-NN is Debian 11's, +debNN the others.
kernel_suite() {
	case $1 in
	*5.10.0-* | 5.10 | 5.10-*) echo bullseye ;;
	*+deb13* | 6.12-deb13*) echo trixie ;;
	*+deb14* | 7.[0-9]* | 7.[0-9]*-*) echo sid ;;
	esac
}

# The system's Debian mirror: the first URIs of its deb822 sources or the
# first "deb" line, so a machine behind a local mirror keeps using it.
system_mirror() {
	local uri
	uri=$(sed -n 's/^URIs: *\([^ ]*\/debian\)\/\{0,1\}\( .*\)\{0,1\}$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$uri" ] || uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\)\/\{0,1\} .*/\2/p' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1)
	echo "${uri:-http://deb.debian.org/debian}"
}

# suite_use SUITE [ARCH]: later apt_cache/apt_get calls read that suite's
# list, of ARCH's packages when ARCH is given (never dpkg's own list of
# architectures: the system installs nothing of ARCH).
suite_use() {
	suite=$1
	suite_arch=${2:-}
	apt_suite_opts=()
	[ -n "$suite" ] || return 0
	suite_dir=$cache/apt/$suite${suite_arch:+-$suite_arch}
	mkdir -p "$suite_dir/lists/partial" "$suite_dir/cache/archives/partial"
	local key=/usr/share/keyrings/debian-archive-keyring.gpg mirror
	mirror=$(system_mirror)
	{
		echo "deb [signed-by=$key] $mirror $suite main"
		# crash's newer releases are built from sid's source package.
		[ "$suite" != sid ] || echo "deb-src [signed-by=$key] $mirror $suite main"
		# A stable suite's kernels of another architecture: its point
		# releases and security updates, as the system's sources have them.
		if [ -n "$suite_arch" ] && [ "$suite" != sid ]; then
			echo "deb [signed-by=$key] $mirror $suite-updates main"
			echo "deb [signed-by=$key] ${mirror%/debian}/debian-security $suite-security main"
		fi
	} >"$suite_dir/sources.list.new"
	if ! cmp -s "$suite_dir/sources.list.new" "$suite_dir/sources.list" 2>/dev/null; then
		mv "$suite_dir/sources.list.new" "$suite_dir/sources.list"
		rm -f "$suite_dir/lists/"*_Packages* "$suite_dir/lists/"*_Sources*
	else
		rm -f "$suite_dir/sources.list.new"
	fi
	apt_suite_opts=(-o "Dir::Etc::sourcelist=$suite_dir/sources.list"
		-o Dir::Etc::sourceparts=/nonexistent
		-o "Dir::State::Lists=$suite_dir/lists"
		-o "Dir::Cache=$suite_dir/cache")
	[ -z "$suite_arch" ] || apt_suite_opts+=(-o "APT::Architecture=$suite_arch"
		-o "APT::Architectures=$suite_arch")
	# A list never read yet is read now; an old one is refreshed only when
	# a package is missing from it (apt_refresh).
	compgen -G "$suite_dir/lists/*_Packages*" >/dev/null || apt_refresh
}

apt_cache() {
	apt-cache "${apt_suite_opts[@]}" "$@"
}

apt_get() {
	apt-get "${apt_suite_opts[@]}" "$@"
}

# apt-get update of the current suite's list, or of the system's.
apt_refresh() {
	[ "$(id -u)" = 0 ] || {
		log "warning: not root, cannot run apt-get update${suite:+ for $suite}"
		return 0
	}
	log "apt-get update${suite:+ of $suite (list in $suite_dir)}"
	apt_get update -q >/dev/null 2>&1 || log "warning: apt-get update${suite:+ of $suite} failed"
}
