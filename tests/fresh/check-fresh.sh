#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-fresh.sh [--ref REF] [--only TEST]
#
# The README's two commands on a new Debian 12 machine, as root: a root
# made by debootstrap (Debian's required and important packages, and the
# git and make that the README has a new machine install first), with
# this machine's apt sources (bookworm, -updates, -security) and the
# settings by which its apt reaches them, and nothing else.  The tree at REF (default HEAD)
# is cloned into it and run there in a mount namespace of its own, with
# /proc, /sys and /dev of this machine: `make demo`, then the test command
# as CI runs it (CI=true bash .ci/run).  Every download happens inside,
# from nothing: the root's own /var/cache/kstack starts empty.
#
# --only "TEST...": after `make demo`, only those test scripts, with make
# check's packages and its ASan build, a SKIP counted as a failure (how a
# failure is shown on an old commit, or a fix tried, without the whole
# run).
#
# It prints each phase's time, the packages the commands installed, and
# the test command's verdict; it exits 0 only when both commands pass.
#
# Environment: KSTACK_FRESH_DIR (default /var/cache/kstack/fresh): the
# debootstrap root kept as base-bookworm+git+make.tar.gz, each run's root and its
# logs (logs/); KSTACK_FRESH_MIRROR (default http://deb.debian.org/debian);
# KEEP_ROOT=1 keeps the run's root (several GB of dumps) afterwards.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
ref=HEAD
only=
while [ $# -gt 0 ]; do
	case $1 in
	--ref) ref=${2:?--ref needs a commit}; shift 2 ;;
	--only) only=${2:?--only needs a test script}; shift 2 ;;
	*) sed -n '4,25s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done

log() { echo "check-fresh: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts), as the README's commands do"
command -v debootstrap >/dev/null || die "debootstrap is missing (scripts/install-deps.sh fresh)"
commit=$(git -C "$top" rev-parse --verify "$ref^{commit}") || die "no commit '$ref' in $top"

dir=${KSTACK_FRESH_DIR:-/var/cache/kstack/fresh}
mirror=${KSTACK_FRESH_MIRROR:-http://deb.debian.org/debian}
# what the README has a new machine install before its two commands
includes=git,make
base=$dir/base-bookworm+${includes//,/+}.tar.gz
root=$dir/root
logs=$dir/logs
mkdir -p "$dir" "$logs"

stamp() { date +%s; }
took() { echo "$(($(stamp) - $1)) s"; }

# The kept base: made once, so that each run starts from the same bytes.
make_base() {
	local tmp=$dir/base.tmp t0
	t0=$(stamp)
	rm -rf "$tmp"
	log "debootstrap bookworm into $tmp (required and important packages, git and make)"
	debootstrap --include=$includes bookworm "$tmp" "$mirror" >"$logs/debootstrap.log" 2>&1 ||
		{ tail -20 "$logs/debootstrap.log" >&2; die "debootstrap failed (log: $logs/debootstrap.log)"; }
	# a new machine's apt sources: the suite, its updates and security
	rm -f "$tmp/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/debian.sources "$tmp/etc/apt/sources.list.d/" 2>/dev/null ||
		printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
			"$mirror" "$mirror" >"$tmp/etc/apt/sources.list"
	rm -rf "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*_Packages
	tar -C "$tmp" -czf "$base.part" . && mv "$base.part" "$base"
	rm -rf "$tmp"
	log "base made in $(took "$t0")"
}

[ -s "$base" ] || make_base

# Processes still running with the root as theirs (a guest, a sampler).
kill_inside() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
	done
	return 0
}
cleanup() {
	kill_inside
	[ "${KEEP_ROOT:-0}" = 1 ] || rm -rf "$root"
}

t0=$(stamp)
kill_inside
rm -rf "$root"
rm -f "$logs/demo.log" "$logs/test.log" "$logs/packages-"*.txt
mkdir -p "$root"
tar -C "$root" -xzf "$base"
trap cleanup EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf"
# how this machine's apt reaches its mirror (a snapshot mirror's expired
# Release files, a proxy): a new machine here has the same settings
apt-config dump | grep -E '^Acquire::(Check-|https?::|Retries)' \
	>"$root/etc/apt/apt.conf.d/99check-fresh-host" || true
git clone -q --no-local "$top" "$root/root/kstack"
git -C "$root/root/kstack" checkout -q "$commit"
dpkg_list() { chroot "$root" dpkg-query -W -f='${Package}\n' | sort; }
dpkg_list >"$logs/packages-before.txt"
log "root at $commit ready in $(took "$t0"): $(wc -l <"$logs/packages-before.txt") packages"

# Runs a shell command in the root as a login of root would, in a mount
# namespace whose mounts vanish with it.  The root is entered with
# pivot_root, not chroot: the kernel refuses a chrooted process a new
# mount or user namespace (unshare -m, unshare -U), which tests make.
inside() {
	unshare --mount --propagation private -- /bin/sh -c '
		set -e
		mount --bind "$0" "$0"
		for d in proc sys dev; do mount --rbind "/$d" "$0/$d"; done
		cd "$0"
		mkdir -p .oldroot
		pivot_root . .oldroot
		umount -l /.oldroot
		rmdir /.oldroot
		exec /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			CI=true /bin/bash -c "cd /root/kstack && $1"' "$root" "$1"
}

rc=0
t=$(stamp)
log "make demo"
inside 'make demo' >"$logs/demo.log" 2>&1 || rc=$?
demo_time=$(took "$t")
log "make demo: exit $rc in $demo_time (log: $logs/demo.log)"
dpkg_list >"$logs/packages-demo.txt"

if [ "$rc" = 0 ]; then
	t=$(stamp)
	if [ -n "$only" ]; then
		# as make check runs them: its packages, the ASan build, every
		# input required (a SKIP fails)
		log "$only (the ASan build, as make check runs it)"
		inside "scripts/install-deps.sh check && make BUILD=build/san SAN=1 all >/dev/null &&
			for t in $only; do KSTACK=\$PWD/build/san/kstack KSTACK_BUILD=\$PWD/build/san \
			KSTACK_REQUIRE_INPUTS=1 bash \$t >\$t.out 2>&1; r=\$?; cat \$t.out;
			! grep -q '^SKIP' \$t.out && [ \$r = 0 ] || fail=1; done; [ -z \"\$fail\" ]" \
			>"$logs/test.log" 2>&1 || rc=$?
	else
		log "CI=true bash .ci/run"
		inside 'bash .ci/run' >"$logs/test.log" 2>&1 || rc=$?
	fi
	test_time=$(took "$t")
	log "test: exit $rc in $test_time (log: $logs/test.log)"
fi
dpkg_list >"$logs/packages-after.txt"

echo "== check-fresh at $commit"
echo "make demo: $demo_time"
[ -n "${test_time:-}" ] && echo "${only:-CI=true bash .ci/run}: $test_time, exit $rc"
echo "installed by make demo ($(comm -13 "$logs/packages-before.txt" "$logs/packages-demo.txt" | wc -l)):" \
	"$(comm -13 "$logs/packages-before.txt" "$logs/packages-demo.txt" | tr '\n' ' ')"
echo "installed in all ($(comm -13 "$logs/packages-before.txt" "$logs/packages-after.txt" | wc -l) packages)"
pat='^(FAIL|SKIP|failed|skipped):|^suites:'
[ -z "$only" ] || pat="$pat|^[0-9]+ passed, [0-9]+ failed"
grep -h -E "$pat" "$logs/test.log" 2>/dev/null | tail -40 || true
echo "total: $(took "$t0")"
exit "$rc"
