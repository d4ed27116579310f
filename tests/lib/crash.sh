# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# For test scripts that run crash on a vmcore: source it after check.sh.

# crash_refused OUT DIR: crash did not open DIR's dump at all (crash 8.0.2
# cannot read Linux 6.11+: it says the vmlinux and an ELF dump "do not
# match", and prints nothing at all for a compressed kdump file); prints a
# SKIP line with the reason and returns 0, else 1.
crash_refused() {
	local out=$1 dir=$2 release version
	grep -q '^crash: .* do not match!$' "$out" || ! grep -q '[^[:space:]]' "$out" ||
		return 1
	release=$(sed -n 's/^release: //p' "$dir/manifest" 2>/dev/null)
	version=$(crash --version 2>/dev/null | awk '/^crash / { print $2; exit }')
	echo "SKIP: crash ${version:-?} cannot open this dump of Linux ${release:-?}" \
		"(crash needs 8.0.6 or later for 6.11+); kstack --vmcore reads it"
	return 0
}
