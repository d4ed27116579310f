#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks every signature in kstack --json documents (one per line, on
# stdin) against the rule as docs/signature.md writes it in Python: the
# documented rule and the C code must agree, task by task.  Prints one
# PASS/FAIL line per check.
import json
import re
import sys

doc = sys.argv[1]
code = open(doc).read().split("```python\n")[1].split("```")[0]
env = {}
exec(code, env)
signature = env["signature"]

tasks = bad = groups = badg = 0
seen = set()
for line in sys.stdin:
    d = json.loads(line)
    for g in d["groups"]:
        stack = "".join(f + "\n" for f in g["stack"])
        states = {t["state"] for t in g["tasks"]}
        for t in g["tasks"]:
            tasks += 1
            want = signature(t["state"], stack)
            if t.get("signature") != want:
                bad += 1
                if bad <= 3:
                    print("FAIL: PID %d: signature %s, the rule gives %s"
                          % (t["pid"], t.get("signature"), want))
            seen.add(want)
        groups += 1
        want = signature(states.pop(), stack) if len(states) == 1 else None
        if g.get("signature", "absent") != want:
            badg += 1
            print("FAIL: group of %d: signature %s, want %s"
                  % (len(g["tasks"]), g.get("signature", "absent"), want))
if tasks and not bad:
    print("PASS: %d tasks' signatures follow docs/signature.md (%d distinct)"
          % (tasks, len(seen)))
elif not tasks:
    print("FAIL: no task in the JSON")
if groups and not badg:
    print("PASS: %d groups' signatures follow docs/signature.md" % groups)
