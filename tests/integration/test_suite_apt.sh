#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-vmcore's kernels of other Debian suites, without the network: which
# suite a kernel argument names, which package of that suite's list a kernel
# line resolves to (make-vmcore's own newest_of_line() on a package list
# given here), and that a suite's apt options read only its own list under
# the cache, never the system's sources.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2034 # suite-apt.sh's inputs
cache=$tmp/cache
log() { :; }
die() { echo "die: $*"; exit 1; }
# shellcheck source=vmcores/suite-apt.sh
. "$top/vmcores/suite-apt.sh"
eval "$(sed -n '/^newest_of_line() {/,/^}/p' "$top/vmcores/make-vmcore")"
if ! declare -F newest_of_line >/dev/null; then
	fail "no newest_of_line() in vmcores/make-vmcore"
	finish
fi

for pair in 5.10:bullseye 5.10-rt:bullseye linux-image-5.10.0-32-cloud-amd64:bullseye \
	6.12+deb13:trixie linux-image-6.12.117+deb13-amd64:trixie 7.2:sid 7.2-amd64:sid \
	linux-image-7.2.13+deb14-cloud-amd64:sid default: 6.12: linux-image-6.1.0-56-cloud-amd64:; do
	arg=${pair%:*} want=${pair##*:}
	got=$(kernel_suite "$arg")
	if [ "$got" = "$want" ]; then
		pass "kernel_suite $arg: ${want:-the system lists}"
	else
		fail "kernel_suite $arg: '$got', not '$want'"
	fi
done

# A suite's list as apt-cache pkgnames would print it (prefix-filtered).
pkgnames='linux-image-5.10.0-30-cloud-amd64
linux-image-5.10.0-32-cloud-amd64
linux-image-5.10.0-32-cloud-amd64-dbg
linux-image-5.10.0-32-amd64
linux-image-5.10.0-32-rt-amd64-unsigned
linux-image-5.10.0-9-cloud-amd64
linux-image-7.2.9+deb14-cloud-amd64
linux-image-7.2.13+deb14-cloud-amd64
linux-image-7.2.13+deb14-cloud-amd64-dbg
linux-image-7.2.13+deb14-amd64
linux-image-7.20.1+deb14-cloud-amd64
linux-image-6.12.117+deb13-cloud-amd64
linux-image-6.12.117+deb12-cloud-amd64'
apt_cache() { [ "$1" = pkgnames ] && grep "^$2" <<<"$pkgnames"; }
for pair in 5.10:linux-image-5.10.0-32-cloud-amd64 5.10-amd64:linux-image-5.10.0-32-amd64 \
	5.10-rt: 7.2:linux-image-7.2.13+deb14-cloud-amd64 \
	7.2-generic:linux-image-7.2.13+deb14-amd64 \
	6.12+deb13:linux-image-6.12.117+deb13-cloud-amd64; do
	arg=${pair%%:*} want=${pair#*:}
	got=$(newest_of_line "$arg")
	if [ "$got" = "$want" ]; then
		pass "newest_of_line $arg: ${want:-none}"
	else
		fail "newest_of_line $arg: '$got', not '$want'"
	fi
done
unset -f apt_cache

# The options: only the suite's own list, in the cache; no update without
# a reason (a list is there already).
apt_refresh() { echo refreshed >"$tmp/refreshed"; }
mkdir -p "$cache/apt/sid/lists"
suite_use sid
: >"$cache/apt/sid/lists/x_dists_sid_main_binary-amd64_Packages.lz4"
rm -f "$tmp/refreshed"
suite_use sid
opts=" ${apt_suite_opts[*]} "
case $opts in
*" Dir::Etc::sourcelist=$cache/apt/sid/sources.list "*" Dir::Etc::sourceparts=/nonexistent "*" Dir::State::Lists=$cache/apt/sid/lists "*" Dir::Cache=$cache/apt/sid/cache "*)
	pass "sid's apt options name only its list under the cache" ;;
*) fail "sid's apt options: $opts" ;;
esac
[ ! -e "$tmp/refreshed" ] && pass "an existing list is not refreshed" ||
	fail "suite_use refreshed a list that was there"
if grep -qx "deb \[signed-by=[^]]*\] $(system_mirror) sid main" "$cache/apt/sid/sources.list" &&
	grep -q '^deb-src .* sid main$' "$cache/apt/sid/sources.list"; then
	pass "sid's sources.list: the system's mirror, deb and deb-src"
else
	fail "sid's sources.list: $(cat "$cache/apt/sid/sources.list")"
fi
# Another architecture's packages (arm64 guests): a list of its own, even
# for the system's suite, with apt told the architecture, never dpkg.
mkdir -p "$cache/apt/bookworm-arm64/lists"
: >"$cache/apt/bookworm-arm64/lists/x_dists_bookworm_main_binary-arm64_Packages.lz4"
suite_use bookworm arm64
opts=" ${apt_suite_opts[*]} "
case $opts in
*" Dir::State::Lists=$cache/apt/bookworm-arm64/lists "*" Dir::Cache=$cache/apt/bookworm-arm64/cache "*" APT::Architecture=arm64 "*" APT::Architectures=arm64 "*)
	pass "bookworm arm64: a list of its own, APT::Architecture=arm64" ;;
*) fail "bookworm arm64's apt options: $opts" ;;
esac
if grep -qx "deb \[signed-by=[^]]*\] $(system_mirror) bookworm main" "$cache/apt/bookworm-arm64/sources.list" &&
	grep -q ' bookworm-updates main$' "$cache/apt/bookworm-arm64/sources.list" &&
	grep -q '/debian-security bookworm-security main$' "$cache/apt/bookworm-arm64/sources.list"; then
	pass "bookworm arm64's sources.list: the suite, its updates and security"
else
	fail "bookworm arm64's sources.list: $(cat "$cache/apt/bookworm-arm64/sources.list")"
fi
suite_use sid
case " ${apt_suite_opts[*]} " in
*APT::Architecture*) fail "sid after arm64 kept the architecture: ${apt_suite_opts[*]}" ;;
*) pass "a suite without ARCH is the system's architecture again" ;;
esac
suite_use ""
[ ${#apt_suite_opts[@]} -eq 0 ] && pass "the system's suite: apt's own options" ||
	fail "the system's suite got options: ${apt_suite_opts[*]}"
finish
