#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# -o FILE for every kind of FILE (docs/kstack.8, live/output_file.c): a
# regular file is replaced whole and keeps its mode and owner; a FIFO, a
# character device and /dev/stdout are written as streams and stay what
# they are; a symbolic link is refused unless --follow-symlink; a hard
# link, a directory and a block device are refused.  Runs on the fixture
# /proc tree, so it needs no privilege except for the device nodes.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# ks ARGS...: kstack -Z on the fixtures; the exit status in $rc
ks() {
	rc=0
	timeout 30 "$kstack" --proc-root "$tmp/proc" -Z "$@" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
}
is_sample() { grep -q 'Cmd: zom\\tbie' "$1"; }
lacks_old() { ! grep -q '^old$' "$1"; }
check() {	# check WHAT COMMAND...
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what (exit $rc: $(head -1 "$tmp/stderr"))"; fi
}

# ---------------------------------------------------------------------------
# /dev/stdout, /dev/stderr, /dev/fd/N and /dev/null by those very names, in
# a mount namespace of our own with a /dev of our own: a kstack that
# replaced its -o FILE would otherwise replace them for the whole machine.
if [ "${1:-}" = --dev-part ]; then
	tmp=$2
	mount -t tmpfs -o mode=0755 tmpfs /dev
	ln -s /proc/self/fd /dev/fd
	ln -s /proc/self/fd/1 /dev/stdout
	ln -s /proc/self/fd/2 /dev/stderr
	mknod -m 0666 /dev/null c 1 3
	ks -o /dev/stdout
	check "/dev/stdout: exit 0, the sample on stdout" is_sample "$tmp/stdout"
	check "/dev/stdout: still a link" [ -L /dev/stdout ]
	ks -o /dev/stderr
	check "/dev/stderr: the sample on stderr" is_sample "$tmp/stderr"
	check "/dev/stderr: still a link" [ -L /dev/stderr ]
	exec 7>"$tmp/fd7"
	ks -o /dev/fd/7
	exec 7>&-
	check "/dev/fd/7: the sample in the file behind fd 7" is_sample "$tmp/fd7"
	ks -o /dev/null
	check "/dev/null: exit 0" [ "$rc" = 0 ]
	check "/dev/null: still the null device ($(stat -c '%F %t:%T' /dev/null))" \
		[ "$(stat -c '%F %t:%T' /dev/null)" = "character special file 1:3" ]
	echo "$passed $failed" >"$tmp/dev-counts"
	exit 0
fi

tmp=$(mktemp -d)
reader=
cleanup() {
	[ -n "$reader" ] && kill "$reader" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
"$top/tests/fixtures/make-proc-tree.sh" "$tmp/proc"
d=$tmp/out
mkdir "$d"

no_temp_files() { [ -z "$(cd "$d" && ls -A | grep -E '\.[A-Za-z0-9]{6}$' || true)" ]; }

# --- regular files ---------------------------------------------------------
ks -o "$d/new"
check "new file: exit 0" [ "$rc" = 0 ]
check "new file: holds the sample" is_sample "$d/new"
check "new file: mode 0600, got $(stat -c %a "$d/new")" [ "$(stat -c %a "$d/new")" = 600 ]

echo old >"$d/reg"
chmod 0644 "$d/reg"
chown 65534:65534 "$d/reg" 2>/dev/null && owner=65534:65534 || owner=$(stat -c %u:%g "$d/reg")
ks -o "$d/reg"
check "existing file: exit 0" [ "$rc" = 0 ]
check "existing file: replaced" is_sample "$d/reg"
check "existing file: old content gone" lacks_old "$d/reg"
check "existing file: keeps mode 0644, got $(stat -c %a "$d/reg")" [ "$(stat -c %a "$d/reg")" = 644 ]
check "existing file: keeps owner $owner, got $(stat -c %u:%g "$d/reg")" [ "$(stat -c %u:%g "$d/reg")" = "$owner" ]
chmod 0640 "$d/reg"
ks -o "$d/reg"
check "existing 0640 file: keeps 0640, got $(stat -c %a "$d/reg")" [ "$(stat -c %a "$d/reg")" = 640 ]
chmod 4755 "$d/reg"
ks -o "$d/reg"
check "set-id bits are not carried over, got $(stat -c %a "$d/reg")" [ "$(stat -c %a "$d/reg")" = 755 ]

# --- symbolic links --------------------------------------------------------
echo precious >"$d/target"
chmod 0644 "$d/target"
ln -s target "$d/link"
ks -o "$d/link"
check "symlink: refused, exit 4" [ "$rc" = 4 ]
check "symlink: message" grep -q "$d/link is a symbolic link: refusing to write through it (--follow-symlink" "$tmp/stderr"
check "symlink: still a link" [ -L "$d/link" ]
check "symlink: target untouched" [ "$(cat "$d/target")" = precious ]
ks -o "$d/link" --follow-symlink
check "--follow-symlink: exit 0" [ "$rc" = 0 ]
check "--follow-symlink: the link stays a link" [ -L "$d/link" ]
check "--follow-symlink: the target holds the sample" is_sample "$d/target"
check "--follow-symlink: the target keeps 0644" [ "$(stat -c %a "$d/target")" = 644 ]
ln -s nowhere "$d/dangling"
ks -o "$d/dangling" --follow-symlink
check "--follow-symlink to nothing: exit 4" [ "$rc" = 4 ]
check "--follow-symlink to nothing: nothing made" [ ! -e "$d/nowhere" ]

# --- hard links ------------------------------------------------------------
echo one >"$d/hard1"
ln "$d/hard1" "$d/hard2"
ino=$(stat -c %i "$d/hard1")
ks -o "$d/hard1"
check "hard link: refused, exit 4" [ "$rc" = 4 ]
check "hard link: message" grep -q "$d/hard1 has 2 hard links: refusing" "$tmp/stderr"
not_split() { [ "$(stat -c %i "$d/hard1")" = "$ino" ] && [ "$(stat -c %h "$d/hard2")" = 2 ]; }
check "hard link: not split" not_split
check "hard link: content unchanged" [ "$(cat "$d/hard2")" = one ]

# --- streams ---------------------------------------------------------------
mkfifo "$d/fifo"
cat "$d/fifo" >"$tmp/from-fifo" &
reader=$!
ks -o "$d/fifo"
# a FIFO replaced by a file leaves the reader waiting on the old one
for _ in $(seq 50); do
	kill -0 "$reader" 2>/dev/null || break
	sleep 0.1
done
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
reader=
check "FIFO: exit 0" [ "$rc" = 0 ]
check "FIFO: the reader got the sample" is_sample "$tmp/from-fifo"
check "FIFO: still a FIFO" [ -p "$d/fifo" ]
# Device nodes of our own, never the system's: a kstack that replaced its
# -o FILE would have replaced /dev/null for everybody on the machine.
if mknod "$d/null" c 1 3 2>/dev/null && echo x 2>/dev/null >"$d/null" &&
	mknod "$d/full" c 1 7 && ! echo x 2>/dev/null >"$d/full"; then
	ks -o "$d/null"
	check "null device node: exit 0" [ "$rc" = 0 ]
	check "null device node: still the null device ($(stat -c '%F %t:%T' "$d/null"))" \
		[ "$(stat -c '%F %t:%T' "$d/null")" = "character special file 1:3" ]
	ks -o "$d/full"
	check "full device node: write error, exit 4" [ "$rc" = 4 ]
	check "full device node: message" grep -q "writing $d/full: No space left on device" "$tmp/stderr"
	check "full device node: still a character device" [ -c "$d/full" ]
else
	echo "SKIP: cannot make working device nodes here (needs root, a dev-capable mount)"
fi

# --- refused kinds ---------------------------------------------------------
mkdir "$d/dir"
ks -o "$d/dir"
check "directory: refused, exit 4" [ "$rc" = 4 ]
check "directory: message" grep -q "$d/dir is a directory" "$tmp/stderr"
if mknod "$d/blk" b 7 200 2>/dev/null; then
	ks -o "$d/blk"
	check "block device: refused, exit 4" [ "$rc" = 4 ]
	check "block device: still one" [ -b "$d/blk" ]
else
	echo "SKIP: mknod not permitted: no block device case"
fi
ks -o "$tmp/no/such/dir/file"
check "missing directory: exit 4" [ "$rc" = 4 ]

check "no temporary file left behind" no_temp_files

# #27: the directory renamed back and forth while kstack writes into it.
# The temporary file is made, renamed and removed relative to the
# directory's fd, so it goes where the directory goes and never stays.
mkdir "$tmp/rd"
( while :; do mv -T "$tmp/rd" "$tmp/rd2" 2>/dev/null; mv -T "$tmp/rd2" "$tmp/rd" 2>/dev/null; done ) &
mover=$!
written=0
for _ in $(seq 100); do
	timeout 30 "$kstack" --proc-root "$tmp/proc" -Z -o "$tmp/rd/out.txt" >/dev/null 2>&1 &&
		written=$((written + 1))
done
kill "$mover"
wait "$mover" 2>/dev/null
sleep 0.2	# a mv of the killed loop may still be under way
left=$(ls -A "$tmp/rd" "$tmp/rd2" 2>/dev/null | grep -c '^out\.txt\.' || true)
check "renamed directory: no temporary file left ($left)" [ "$left" = 0 ]
check "renamed directory: samples written ($written of 100)" [ "$written" -gt 0 ]

if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	rc=0
	unshare -m --propagation private bash "$self" --dev-part "$tmp" || rc=$?
	if [ -s "$tmp/dev-counts" ]; then
		read -r p f <"$tmp/dev-counts"
		passed=$((passed + p))
		failed=$((failed + f))
	else
		fail "the /dev part did not finish (exit $rc)"
	fi
else
	echo "SKIP: no private mount namespace: /dev/stdout, /dev/stderr, /dev/null not tested"
fi
finish
