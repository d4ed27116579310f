#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
triage_schema_check.py SCHEMA FILE: whether FILE (kstack triage --json)
validates against SCHEMA (docs/triage.schema.json), printed as check.sh's
PASS/FAIL lines, the first few errors each with the path of its key.

It runs under Debian's own /usr/bin/python3, for which python3-jsonschema
(scripts/install-deps.sh check) installs the validator; check.sh's
callers say SKIP where it is missing (exit status 3).
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(3)


def where(err):
    return '/'.join(str(p) for p in err.absolute_path) or '(top)'


def main():
    schema = json.load(open(sys.argv[1]))
    cls = jsonschema.Draft202012Validator
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print('FAIL: %s is not a JSON Schema: %s' % (sys.argv[1], e.message))
        return
    try:
        doc = json.load(open(sys.argv[2]))
    except ValueError as e:
        print('FAIL: --json is not one JSON document: %s' % e)
        return
    errs = sorted(cls(schema).iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if not errs:
        print('PASS: --json validates against docs/triage.schema.json')
        return
    for e in errs[:5]:
        print('FAIL: --json at %s: %s' % (where(e), e.message[:300]))
    if len(errs) > 5:
        print('FAIL: --json: %d more schema errors' % (len(errs) - 5))


main()
