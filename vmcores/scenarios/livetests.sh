#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live tool's own /proc tests, run inside the guest: the same scripts
# as on the host (tests/integration/, listed below), under Debian's
# bash-static and the guest's busybox, against the guest's static kstack
# and with real children from a static state_children.  Each script's
# output goes to live/guest-tests/NAME.log and one line "NAME STATUS
# SECONDS" to live/guest-tests/status, which tests/guest/test_guest_live.sh
# reads on the host.  A scenario of its own: the tests' children and
# samplers would disturb the basic scenario's capture.
#
#@ memory: 512
#@ cpus: 2
#@ ready-timeout: 900
#@ capture-proc: no
#@ guest-tests: test_live_states.sh test_background.sh test_triage_live.sh
# What busybox lacks: a setpriv that changes uid (the unprivileged refusal
# of test_live_states) and python3 (the journal socket of test_background),
# each with its libraries.
#@ guest-debs: libc6 libcap-ng0 util-linux:./usr/bin/setpriv zlib1g libexpat1 python3.11-minimal libpython3.11-minimal python3-minimal:./usr/bin/python3
# shellcheck source=vmcores/guest/scenario-lib.sh
. "$SCENARIO_LIB"

# bash's process substitution reads /dev/fd/N, which devtmpfs lacks
# (udev makes the link on a full system).
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
# Debian's /run/lock, where kstack -b takes oled kstack's lock: without
# it kstack warns on stderr, which the journal check counts against it.
mkdir -p /run/lock
out=/capture/guest-tests
mkdir -p "$out"
: >"$out/status"
now() { cut -d' ' -f1 /proc/uptime; }
# shellcheck disable=SC2013 # one script name per word
for t in $(cat /etc/vmcore/guest-tests); do
	echo "guest test $t"
	t0=$(now)
	rc=0
	# A hung script must not hang the guest: the host then reads 143.
	# /usr/bin first: the packages' setpriv before busybox's /bin/setpriv.
	PATH=/usr/bin:/usr/sbin:/bin:/sbin \
	KSTACK=/bin/kstack KSTACK_STATE_CHILDREN=/bin/state-children \
		timeout 400 bash "/kstack/tests/integration/$t" >"$out/$t.log" 2>&1 </dev/null || rc=$?
	secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	echo "$t $rc $secs" >>"$out/status"
	echo "guest test $t: exit $rc in $secs s: $(tail -n 1 "$out/$t.log")"
done
scenario_ready
