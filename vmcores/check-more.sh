#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-more: the vmcore tests against a second kernel flavour. The
# basic scenario on the generic (or rt) kernel exercises a different config,
# module set and struct layout than the cloud kernel `make check` uses.
#
# KSTACK_MORE_FLAVOUR  generic (default), rt, or any make-vmcore KERNEL_PACKAGE
# KSTACK_MORE_DIR      output folder (default cache/vmcores/basic-<flavour>)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
flavour=${KSTACK_MORE_FLAVOUR:-generic}
out=${KSTACK_MORE_DIR:-$top/cache/vmcores/basic-$flavour}

# The guest's live capture needs the static tool; a missing one only costs
# kstack-a.txt, which the tests report as a SKIP.
make -s -C "$top" static >/dev/null 2>&1 ||
	echo "check-more: make static failed; the vmcore is made without the live tool" >&2
"$top/vmcores/make-vmcore" "$flavour" basic "$out"

failed=0
ran=0
for t in "$top"/tests/vmcore/*.sh; do
	[ -x "$t" ] || continue
	echo "=== $(basename "$t") on $out"
	ran=$((ran + 1))
	if ! KSTACK_VMCORE_DIR=$out "$t"; then
		failed=$((failed + 1))
	fi
done
echo "check-more: $((ran - failed)) of $ran vmcore test scripts passed on $flavour"
[ "$failed" -eq 0 ]
