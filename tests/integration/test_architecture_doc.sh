#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# docs/architecture.md is drawn from the tree: every file, folder and
# function of ours it names is there (a moved or renamed file fails here
# until the document follows).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"

count_checks < <(python3 "$top/tests/lib/doc_names.py" "$top" "$top/docs/architecture.md")
count_checks < <(python3 "$top/tests/lib/doc_names.py" "$top" "$top/README.md")
finish
