# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# nobody_kstack BIN DIR: prints the path of a copy of BIN in DIR that user
# nobody (65534) can run.  The checkout may lie under a 0700 folder (root's
# home, a mktemp -d), where nobody's exec fails with 126 before kstack runs
# and a test of the refusal would test nothing.  DIR must be nobody's to
# reach (a mktemp -d below /tmp, made 0755 here).
# (mkdir and cp, not install -D: a vmcore guest's busybox has no install)
nobody_kstack() {
	mkdir -p "$2/nobody-bin" && cp "$1" "$2/nobody-bin/kstack" &&
		chmod 0755 "$2" "$2/nobody-bin" "$2/nobody-bin/kstack" &&
		echo "$2/nobody-bin/kstack"
}
