#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# compare-builds.sh [-o OUTDIR] [--stderr] OLD NEW [DUMPDIR...]
#
# Runs two builds of kstack over the same vmcores and says whether they
# print the same bytes: every view of VIEWS below, on every dump, three
# ways: `kstack --vmcore DUMP --vmlinux VMLINUX`, `kstack --vmcore DUMP`
# alone, and the crash command of kstack.so inside crash.  A refactor that
# must change no output (issue #37) runs it against its starting commit
# and quotes the summary line: "compare-builds: N cmp runs, D differences".
#
# OLD and NEW are build folders (holding kstack and kstack.so, as build/)
# or git commits: a commit is checked out with `git worktree add --detach`
# into a temporary folder (removed after) and built there with `make
# BUILD=OUTDIR/builds/SHA SAN= all`, once per commit (kept under OUTDIR,
# reused by the next run with the same -o).  Use release builds: an ASan
# kstack.so needs its runtime preloaded into crash and ASan's own reports
# would be compared too; build/san is for the tests.
#
# DUMPDIRs default to every folder under cache/vmcores/ holding a vmcore
# and a manifest (vmcores/README.md: the folder's layout and keys).
#
# For each dump, way and view, OLD and NEW run back to back, and their
# stdout bytes (cmp) and exit statuses are compared; stderr is kept and
# compared only with --stderr (else a difference is printed as a note).
# In crash there is no exit status: all views of a dump run in one crash
# session per build (one command file, `kstack VIEW >FILE` each), the
# output files are compared with cmp, and, in place of the status, whether
# the command printed anything on crash's console (crash's error(), the
# extension's messages; a marker command between views cuts the session's
# log into one piece per view, kept as VIEW.{old,new}.err).  Which crash:
# Debian's crash 8.0.2 (CRASH, default crash) for x86-64 kernels before
# 6.11; for 6.11 and later, and for arm64 (6.1 only), crash 9.0.2 when
# vmcores/build-crash has built it (make check-more), with kstack.so built
# against its defs.h (a build folder's crash-9.0.2/ or crash-9.0.2-arm64/
# subfolder, as `make CRASH_SRC=TREE extension` lays them out; a commit's
# are built here).  A dump no available crash opens is "crash: not
# applicable (why)" and counts nothing.
#
# Output: one line per difference, "DIFF DUMP 'VIEW' WAY: stdout differs
# (first differing line N: old '...' new '...')" or "...: exit OLD->NEW",
# a line per dump, and last "compare-builds: N cmp runs, D differences"
# (a cmp run: one view of one dump one way, its stdout and its status).
# Exit 0 when D is 0, 1 when not, 2 on trouble: a build that fails, a dump
# that OLD cannot open either (its first view exits 2 or more; the views
# are still compared), a crash session that ends without output.
#
# OUTDIR (default: a temporary folder, removed at the end) keeps
# DUMP/WAY/VIEW.{old,new}.{out,err,rc} (WAY: vmlinux, alone, crash) and
# DUMP/crash/session.{old,new}.{cmds,log}.  The environment is fixed:
# TZ=UTC, LC_ALL=C.  Paths must not hold spaces (crash's redirection).
#
# Environment: CRASH (crash 8.0.2), CRASH9_TREE, CRASH9_ARM64_TREE
# (vmcores/build-crash's trees; default crash-9.0.2 and crash-9.0.2-arm64
# under KSTACK_CACHE, /var/cache/kstack or cache/, used only when built),
# VIEW_TIMEOUT (seconds per kstack run, 600), CRASH_TIMEOUT (per crash
# session, 1800), JOBS (make -j, 2).
set -uo pipefail

# The views: kstack's options after --vmcore DUMP [--vmlinux V], and after
# "kstack" in crash (where a long option must not come first and "|" is a
# pipe).  The last one fails on purpose, so that exit statuses on errors
# are compared too.
VIEWS=(
	"-a"
	"-a -H"
	"-D"
	"-a -c"
	"-a -c --all"
	"-a -H --json"
	"-a --folded"
	"-a -H --waits"
	"-a -H -v"
	"-K"
	"-K -v"
	"-F"
	"-F -v"
	"-K --json"
	"-F --json"
	"-p 1"
	"-p 1,2 -H"
	"-p 999999"
)

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TZ=UTC LC_ALL=C
# crash_refused (crash's own words when it cannot open a dump) and
# run_crash (with the ASan runtime preloaded should kstack.so need it).
# shellcheck source-path=SCRIPTDIR/.. source=tests/lib/crash.sh
. "$top/tests/lib/crash.sh"
crash8=${CRASH:-crash}

usage() {
	sed -n '4,4s/^# /usage: /p' "$0" >&2
	echo "see the header of $0" >&2
	exit 2
}
die() { echo "compare-builds: $*" >&2; exit 2; }
say() { echo "$*"; }

outdir='' keep=0 cmp_stderr=0
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || usage; outdir=$2; keep=1; shift 2 ;;
	--stderr) cmp_stderr=1; shift ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || usage
old_arg=$1 new_arg=$2
shift 2

view_timeout=${VIEW_TIMEOUT:-600}
crash_timeout=${CRASH_TIMEOUT:-1800}
jobs=${JOBS:-2}

# A file name for each view: "-a -H --json" -> a_H_json.
view_names=()
for v in "${VIEWS[@]}"; do
	n=$(sed 's/--*//g; s/ /_/g; s/[^A-Za-z0-9_,.=]/-/g' <<<"$v")
	for m in "${view_names[@]}"; do
		[ "$m" != "$n" ] || die "two views are both named $n: edit VIEWS"
	done
	view_names+=("$n")
done

t_start=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }

if [ -n "$outdir" ]; then
	mkdir -p "$outdir" || die "cannot make $outdir"
	outdir=$(cd "$outdir" && pwd)
else
	outdir=$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX") || die "no temporary folder"
fi
case $outdir in *[[:space:]]*) die "OUTDIR must not hold spaces (crash's redirection): $outdir" ;; esac
src_tmp=
cleanup() {
	if [ -n "$src_tmp" ]; then
		git -C "$top" worktree remove --force "$src_tmp/tree" >/dev/null 2>&1
		rm -rf "$src_tmp"
		git -C "$top" worktree prune >/dev/null 2>&1
	fi
	[ "$keep" = 1 ] || rm -rf "$outdir"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# ------------------------------------------------------------------ dumps
dumps=()
if [ $# -gt 0 ]; then
	for d in "$@"; do
		[ -s "$d/vmcore" ] || die "no vmcore in $d"
		dumps+=("$(cd "$d" && pwd)")
	done
else
	for d in "$top"/cache/vmcores/*/; do
		d=${d%/}
		[ -s "$d/vmcore" ] || continue
		if [ ! -s "$d/manifest" ]; then
			say "note: $(basename "$d"): a vmcore without a manifest (still being made?), left out"
			continue
		fi
		dumps+=("$d")
	done
	[ ${#dumps[@]} -gt 0 ] || die "no dump under $top/cache/vmcores (make check makes them; or name DUMPDIRs)"
fi
for d in "${dumps[@]}"; do
	case $d in *[[:space:]]*) die "a dump folder's path must not hold spaces (crash's command file): $d" ;; esac
done

# Where vmcores/build-crash keeps its trees (it is not run here: building
# crash takes half an hour).
crash9_tree() { # SUFFIX ("" or -arm64)
	local c
	for c in ${KSTACK_CACHE:-} /var/cache/kstack "$top/cache"; do
		if [ -x "$c/crash-9.0.2$1/crash" ] && [ -f "$c/crash-9.0.2$1/.complete" ]; then
			echo "$c/crash-9.0.2$1"
			return 0
		fi
	done
	return 1
}
crash9_x86=${CRASH9_TREE:-$(crash9_tree "")}
crash9_arm64=${CRASH9_ARM64_TREE:-$(crash9_tree -arm64)}

manifest() { sed -n "s/^$2: //p" "$1/manifest" 2>/dev/null | head -n 1; }

dump_arch() {
	local d=$1
	if [ -s "$d/manifest" ]; then
		if grep -qE '^(kernel_package|kernel_arg|qemu): .*(arm64|aarch64)' "$d/manifest"; then
			echo arm64
		else
			echo x86_64
		fi
	elif readelf -h "$d/vmcore" 2>/dev/null | grep -q '^ *Machine: *AArch64$'; then
		echo arm64
	else
		echo x86_64
	fi
}

# Which crash opens a dump: "KIND" (crash8, crash9, crash9-arm64) or
# "na:WHY".  What is known not to open is not started.
crash_for() {
	local d=$1 arch release maj min
	arch=$(dump_arch "$d")
	release=$(manifest "$d" release)
	IFS=.-+ read -r maj min _ <<<"${release:-0.0}"
	[[ $maj =~ ^[0-9]+$ ]] || maj=0
	[[ $min =~ ^[0-9]+$ ]] || min=0
	if [ ! -e "$d/vmlinux" ]; then
		echo "na:no vmlinux in the folder, crash needs one"
	elif [ "$arch" = arm64 ]; then
		if [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 12 ]; }; then
			echo "na:crash 9.0.2 cannot open Debian's arm64 $release (vmcores/README.md: 52-bit VA, five levels, or PHYS_OFFSET moved)"
		elif [ -z "$crash9_arm64" ]; then
			echo "na:an arm64 dump needs crash 9.0.2 built for ARM64, not built here (vmcores/build-crash --target ARM64; make check-more builds it)"
		else
			echo crash9-arm64
		fi
	elif [ "$maj" -ge 7 ]; then
		echo "na:crash 9.0.2 cannot open Linux $release (module_num_gpl_syms), no newer crash"
	elif [ "$maj" -eq 6 ] && [ "$min" -ge 11 ]; then
		if [ -n "$crash9_x86" ]; then
			echo crash9
		else
			echo "na:crash 8.0.2 cannot open Linux $release and crash 9.0.2 is not built (vmcores/build-crash; make check-more builds it)"
		fi
	elif command -v "$crash8" >/dev/null; then
		echo crash8
	else
		echo "na:no crash binary ($crash8)"
	fi
}

crash_kinds=() need_crash9=0 need_crash9_arm64=0
for d in "${dumps[@]}"; do
	kind=$(crash_for "$d")
	crash_kinds+=("$kind")
	case $kind in
	crash9) need_crash9=1 ;;
	crash9-arm64) need_crash9_arm64=1 ;;
	esac
done

# ----------------------------------------------------------------- builds
# so_of BUILD KIND: the kstack.so that KIND's crash loads.
so_of() {
	case $2 in
	crash8) echo "$1/kstack.so" ;;
	crash9) echo "$1/$(basename "$crash9_x86")/kstack.so" ;;
	crash9-arm64) echo "$1/$(basename "$crash9_arm64")/kstack.so" ;;
	esac
}

# build_commit SHA: OUTDIR/builds/SHA with kstack, kstack.so and the crash
# 9 extensions the dumps need; what is there already is kept.
build_commit() {
	local sha=$1 dir=$outdir/builds/$1 log=$outdir/builds/$1.log
	local -a want=()
	[ -x "$dir/kstack" ] && [ -s "$dir/kstack.so" ] || want+=(all)
	[ "$need_crash9" = 0 ] || [ -s "$(so_of "$dir" crash9)" ] || want+=(crash9)
	[ "$need_crash9_arm64" = 0 ] || [ -s "$(so_of "$dir" crash9-arm64)" ] || want+=(crash9-arm64)
	[ ${#want[@]} -gt 0 ] || return 0
	mkdir -p "$outdir/builds"
	src_tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-builds-src.XXXXXX") || return 1
	local t0 w ok=0
	t0=$(date +%s.%N)
	if git -C "$top" worktree add --detach "$src_tmp/tree" "$sha" >"$log" 2>&1; then
		ok=1
		for w in "${want[@]}"; do
			case $w in
			all) nice make -C "$src_tmp/tree" -j"$jobs" BUILD="$dir" SAN= all ;;
			crash9) nice make -C "$src_tmp/tree" -j"$jobs" SAN= CRASH_SRC="$crash9_x86" \
				BUILD="$dir/$(basename "$crash9_x86")" extension ;;
			crash9-arm64) nice make -C "$src_tmp/tree" -j"$jobs" SAN= CRASH_SRC="$crash9_arm64" \
				BUILD="$dir/$(basename "$crash9_arm64")" extension ;;
			esac >>"$log" 2>&1 || { ok=0; break; }
		done
	fi
	git -C "$top" worktree remove --force "$src_tmp/tree" >>"$log" 2>&1
	rm -rf "$src_tmp"
	src_tmp=
	if [ "$ok" != 1 ]; then
		echo "compare-builds: building ${sha:0:12} (${want[*]}) failed; the end of $log:" >&2
		tail -n 15 "$log" | sed 's/^/  | /' >&2
		return 1
	fi
	say "built ${sha:0:12} (${want[*]}) in $(elapsed "$t0") s: $dir"
}

# resolve VAR ARG: VAR = the build folder of a folder or a commit.
resolve() {
	local arg=$2 sha
	if [ -d "$arg" ]; then
		if [ ! -x "$arg/kstack" ] || [ ! -s "$arg/kstack.so" ]; then
			die "$arg holds no kstack and kstack.so (make all builds them)"
		fi
		printf -v "$1" '%s' "$(cd "$arg" && pwd)"
	elif sha=$(git -C "$top" rev-parse --verify -q "$arg^{commit}"); then
		build_commit "$sha" || exit 2
		printf -v "$1" '%s' "$outdir/builds/$sha"
	else
		die "$arg is neither a build folder nor a commit"
	fi
}
old='' new=''
resolve old "$old_arg"
resolve new "$new_arg"
for b in "$old" "$new"; do
	if [ -n "$(asan_runtime "$b/kstack.so")" ]; then
		say "note: $b is a sanitizer build; release builds are what this compares (ASan's reports would be compared too)"
	fi
done
say "compare-builds: OLD $old_arg ($old), NEW $new_arg ($new), ${#dumps[@]} dumps, ${#VIEWS[@]} views"

# ------------------------------------------------------------- comparing
runs=0 diffs=0 trouble=0

# first_diff A B: "first differing line N: old '...' new '...'"
first_diff() {
	local a=$1 b=$2 r byte line
	r=$(cmp -- "$a" "$b" 2>&1)
	case $r in
	*" differ: byte "*) byte=${r##* differ: byte }; byte=$((${byte%%,*} - 1)) ;;
	*"EOF on "*" after byte "*) byte=${r##* after byte }; byte=${byte%%[!0-9]*} ;;
	*) byte=0 ;;
	esac
	line=$(($(head -c "$byte" "$a" | tr -dc '\n' | wc -c) + 1))
	printf 'first differing line %d: old %s new %s' "$line" \
		"$(quote_line "$a" "$line")" "$(quote_line "$b" "$line")"
}
quote_line() {
	if [ "$(wc -l <"$1")" -lt "$2" ] && [ "$(sed -n "$2p" "$1" | wc -c)" -eq 0 ]; then
		printf '<EOF>'
	else
		printf "'%s'" "$(sed -n "$2p" "$1" | cut -c 1-100 | tr -c '[:print:]' '?')"
	fi
}

# compare DUMP VIEW WAY PREFIX: PREFIX.{old,new}.{out,err,rc}
compare() {
	local dump=$1 view=$2 way=$3 p=$4 ro rn
	runs=$((runs + 1))
	if ! cmp -s "$p.old.out" "$p.new.out"; then
		say "DIFF $dump '$view' $way: stdout differs ($(first_diff "$p.old.out" "$p.new.out"))"
		diffs=$((diffs + 1))
	fi
	ro=$(cat "$p.old.rc") rn=$(cat "$p.new.rc")
	if [ "$ro" != "$rn" ]; then
		if [ "$way" = crash ]; then
			say "DIFF $dump '$view' $way: console messages $ro->$rn"
		else
			say "DIFF $dump '$view' $way: exit $ro->$rn"
		fi
		diffs=$((diffs + 1))
	fi
	if ! cmp -s "$p.old.err" "$p.new.err"; then
		if [ "$cmp_stderr" = 1 ]; then
			say "DIFF $dump '$view' $way: stderr differs ($(first_diff "$p.old.err" "$p.new.err"))"
			diffs=$((diffs + 1))
		else
			say "note: $dump '$view' $way: stderr differs ($(first_diff "$p.old.err" "$p.new.err"))"
		fi
	fi
}

# run_kstack BUILD PREFIX VMCORE VMLINUX VIEW
run_kstack() {
	local bin=$1/kstack p=$2 vmcore=$3 vmlinux=$4 view=$5
	local -a args=(--vmcore "$vmcore") opts
	[ -z "$vmlinux" ] || args+=(--vmlinux "$vmlinux")
	read -r -a opts <<<"$view"
	timeout "$view_timeout" "$bin" "${args[@]}" "${opts[@]}" </dev/null >"$p.out" 2>"$p.err"
	echo $? >"$p.rc"
}

# kstack_way DUMPDIR NAME WAY VMLINUX
kstack_way() {
	local d=$1 name=$2 way=$3 vmlinux=$4 i p dir=$outdir/$2/$3
	mkdir -p "$dir"
	for i in "${!VIEWS[@]}"; do
		p=$dir/${view_names[$i]}
		run_kstack "$old" "$p.old" "$d/vmcore" "$vmlinux" "${VIEWS[$i]}"
		run_kstack "$new" "$p.new" "$d/vmcore" "$vmlinux" "${VIEWS[$i]}"
		if [ "$i" = 0 ] && [ "$(cat "$p.old.rc")" -ge 2 ]; then
			say "TROUBLE $name $way: OLD cannot open the dump ('${VIEWS[0]}' exits $(cat "$p.old.rc"):" \
				"$(head -n 1 "$p.old.err" | cut -c 1-200)); its views are compared all the same"
			trouble=$((trouble + 1))
		fi
		compare "$name" "${VIEWS[$i]}" "$way" "$p"
	done
}

# crash_session WHICH(old|new) BUILD KIND DUMPDIR DIR: one crash run with
# every view, each view's console lines cut out of the log by markers.
marker=@@compare-builds@@
crash_session() {
	local which=$1 build=$2 kind=$3 d=$4 dir=$5 i so cmds log
	so=$(so_of "$build" "$kind")
	cmds=$dir/session.$which.cmds log=$dir/session.$which.log
	{
		echo "extend $so"
		for i in "${!VIEWS[@]}"; do
			echo "!echo $marker $i"
			echo "kstack ${VIEWS[$i]} >$dir/${view_names[$i]}.$which.out"
		done
		echo "!echo $marker end"
		echo quit
	} >"$cmds"
	rm -f "$dir"/*."$which".out
	case $kind in
	crash8) CRASH=$crash8 ;;
	crash9) CRASH=$crash9_x86/crash ;;
	crash9-arm64) CRASH=$crash9_arm64/crash ;;
	esac
	KSTACK_SO=$so run_crash "$d/vmlinux" "$d/vmcore" "$cmds" "$log" "$crash_timeout"
	# VIEW.WHICH.err: the view's console lines; .rc: whether there were any
	awk -v m="$marker" -v dir="$dir" -v which="$which" -v names="${view_names[*]}" '
		BEGIN { n = split(names, name, " "); cur = "" }
		$1 == m { cur = ($2 == "end") ? "" : dir "/" name[$2 + 1] "." which ".err";
			  if (cur != "") printf "" > cur; next }
		cur != "" { print > cur }' "$log"
	for i in "${!VIEWS[@]}"; do
		local p=$dir/${view_names[$i]}.$which
		[ -e "$p.out" ] || : >"$p.out"
		[ -e "$p.err" ] || : >"$p.err"
		if [ -s "$p.err" ]; then echo printed >"$p.rc"; else echo none >"$p.rc"; fi
	done
	grep -q "^$marker end\$" "$log"
}

crash_way() {
	local d=$1 name=$2 kind=$3 dir=$outdir/$2/crash i why
	if [ "${kind%%:*}" = na ]; then
		say "$name crash: not applicable (${kind#na:})"
		return
	fi
	mkdir -p "$dir"
	if ! crash_session old "$old" "$kind" "$d" "$dir"; then
		CRASH=$crash8
		case $kind in crash9) CRASH=$crash9_x86/crash ;; crash9-arm64) CRASH=$crash9_arm64/crash ;; esac
		if why=$(crash_refused "$dir/session.old.log" "$d"); then
			say "$name crash: not applicable (${why#N/A: })"
			return
		fi
		say "TROUBLE $name crash: the session with OLD did not reach its end; the end of $dir/session.old.log:"
		tail -n 8 "$dir/session.old.log" | sed 's/^/  | /'
		trouble=$((trouble + 1))
		return
	fi
	crash_session new "$new" "$kind" "$d" "$dir" ||
		say "note: $name crash: the session with NEW did not reach its end ($dir/session.new.log)"
	for i in "${!VIEWS[@]}"; do
		compare "$name" "${VIEWS[$i]}" crash "$dir/${view_names[$i]}"
	done
}

declare -A seen=()
for j in "${!dumps[@]}"; do
	d=${dumps[$j]}
	name=$(basename "$d")
	# two folders of one name (dumps of two trees) keep apart in OUTDIR
	nth=2
	while [ -n "${seen[$name]:-}" ]; do name=$(basename "$d")-$nth; nth=$((nth + 1)); done
	seen[$name]=1
	t0=$(date +%s.%N)
	r0=$runs d0=$diffs
	ways=()
	if [ -e "$d/vmlinux" ]; then
		kstack_way "$d" "$name" vmlinux "$d/vmlinux"
		ways+=(vmlinux)
	else
		say "$name vmlinux: not applicable (no vmlinux in the folder)"
	fi
	kstack_way "$d" "$name" alone ""
	ways+=(alone)
	r1=$runs
	crash_way "$d" "$name" "${crash_kinds[$j]}"
	[ "$runs" = "$r1" ] || ways+=("crash(${crash_kinds[$j]})")
	say "$name: ${ways[*]}: $((runs - r0)) cmp runs, $((diffs - d0)) differences, $(elapsed "$t0") s"
done

say "compare-builds: ${#dumps[@]} dumps in $(elapsed "$t_start") s; outputs in $outdir$([ "$keep" = 1 ] || echo ' (removed)')"
[ "$trouble" -eq 0 ] || say "compare-builds: $trouble trouble(s) above: exit 2"
say "compare-builds: $runs cmp runs, $diffs differences"
[ "$trouble" -eq 0 ] || exit 2
[ "$diffs" -eq 0 ]
