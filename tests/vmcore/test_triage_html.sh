#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kstack triage --vmcore DUMP --html FILE and -o DIR:
#   - the page: written 0600, exit 0; no <script>, no address of the
#     network (a Content-Security-Policy forbids all but the inline
#     style); opened in Debian's headless Chromium, it renders, every
#     section's heading is in its DOM and so is the panic's message
#     (--json's panic.message); each group of the tasks in D carries
#     the signatures --json's stuck tasks have; a dump with --waits
#     chains (the locks scenarios) draws each chain's boxes;
#   - --html onto a symbolic link is refused and the link's target kept;
#   - -o DIR: DIR made 0700; each of its files the same bytes as its own
#     view run alone (triage.txt, triage.json, triage.html, log.txt
#     --log, cpus.txt --cpus, stacks.txt -a -H, hooks.txt -K then -F,
#     waits.txt -D --waits); run again into the same DIR it is refused
#     and no file changes; a DIR that is a symbolic link is refused, and
#     nothing is written through a link planted in DIR.
# Chromium is `chromium` (install-deps.sh check); without it the DOM
# checks are skipped, and fail under KSTACK_REQUIRE_INPUTS=1.
# KSTACK_VMCORE_DIR picks the dump (default cache/vmcores/oops).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kstack=${KSTACK:-$top/build/kstack}
dir=${KSTACK_VMCORE_DIR:-$top/cache/vmcores/oops}
# shellcheck source=tests/lib/check.sh
. "$top/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -s "$dir/vmcore" ]; then
	skip "no vmcore in $dir (make vmcore-oops): kstack triage --html not tested"
	finish
fi
if "$kstack" --vmcore /dev/null -a 2>&1 | grep -q 'built without libkdumpfile'; then
	skip "this kstack has no --vmcore (built without libkdumpfile)"
	finish
fi
src=(--vmcore "$dir/vmcore")
# as test_triage.sh: a dump whose kallsyms lack data symbols, with its vmlinux
# (into a file first: grep -q stops at its match, and under pipefail
# kstack's SIGPIPE made the test read the arm64 6.1 dump alone)
"$kstack" triage "${src[@]}" >"$tmp/alone.txt" 2>/dev/null
if grep -q 'panic_cpu cannot be read' "$tmp/alone.txt" && [ -e "$dir/vmlinux" ]; then
	src+=(--vmlinux "$dir/vmlinux")
fi
titles=("The machine" "What killed it" "Taint" "Who is stuck" "Every CPU"
	"Who touched the kernel" "The log")

page=$tmp/page.html
"$kstack" triage "${src[@]}" --html "$page" >"$tmp/stdout" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ -s "$page" ] && [ ! -s "$tmp/stdout" ]; then
	pass "--html FILE exits 0, writes the page and nothing on stdout"
else
	fail "--html exited $rc: $(head -2 "$tmp/err")"
fi
mode=$(stat -c %a "$page" 2>/dev/null)
if [ "$mode" = 600 ]; then
	pass "the new page is 0600"
else
	fail "the new page is $mode"
fi
if ! grep -qi '<script' "$page" && ! grep -Eqi '(src|href)="?(https?:)?//' "$page" &&
   grep -q "default-src 'none'" "$page"; then
	pass "the page loads nothing and runs nothing"
else
	fail "the page has a script or an address of the network"
fi

# The DOM as Chromium built it, its text, the panic message
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
	if [ "${KSTACK_REQUIRE_INPUTS:-0}" = 1 ]; then
		fail "chromium is not installed (scripts/install-deps.sh check)"
	else
		skip "chromium is not installed (scripts/install-deps.sh check): the page's DOM not checked"
	fi
else
	HOME=$tmp timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium" --dump-dom "file://$page" \
		>"$tmp/dom.html" 2>"$tmp/chromium.err"
	crc=$?
	"$kstack" triage "${src[@]}" --json 2>/dev/null >"$tmp/triage.json"
	count_checks < <(python3 - "$tmp/dom.html" "$tmp/triage.json" "$crc" \
			 "${titles[@]}" <<'PY'
import html.parser, json, re, sys

dom_file, json_file, crc, titles = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.summaries, self.text, self.tags, self.where = [], [], set(), []
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.where.append(tag)
    def handle_endtag(self, tag):
        while self.where and self.where.pop() != tag:
            pass
    def handle_data(self, data):
        self.text.append(data)
        if self.where and self.where[-1] == 'summary':
            self.summaries.append(data.strip())

dom = open(dom_file, encoding='utf-8', errors='replace').read()
if crc != '0' or '<body' not in dom:
    print('FAIL: headless Chromium did not render the page (exit %s)' % crc)
    sys.exit()
p = Dom()
p.feed(dom)
print('PASS: headless Chromium renders the page: %d bytes of DOM' % len(dom))
if 'script' in p.tags:
    print('FAIL: the DOM has a <script>')
missing = [t for t in titles if t not in p.summaries]
if missing:
    print('FAIL: sections missing from the DOM: %s' % ', '.join(missing))
else:
    print('PASS: the DOM has every section heading (%d)' % len(titles))
text = ''.join(p.text)
triage = json.load(open(json_file))
panic = triage.get('panic') or {}
msg = panic.get('message')
if msg is None:
    print('N/A: the dump has no panic message (a running system)')
elif msg in text:
    print('PASS: the panic message is on the page: %s' % msg)
else:
    print('FAIL: the panic message %r is not on the page' % msg)
# each stuck group's signature, one per state as the JSON's tasks carry it
sigs = {t['signature'] for g in (triage.get('stuck') or {}).get('groups', [])
        for t in g.get('tasks', []) if t.get('signature')}
shown = {m for m in re.findall(r'<code class="signature">([0-9a-f]{12})</code>', dom)}
if not sigs:
    print('N/A: no task is in D: no stuck group to carry a signature')
elif sigs == shown:
    print('PASS: every stuck group carries its signature (%d)' % len(sigs))
else:
    print('FAIL: signatures on the page %s, in the JSON %s' %
          (sorted(shown), sorted(sigs)))
if 'class="chain' in dom:
    print('PASS: the page draws %d wait chain(s)' % dom.count('class="chain'))
PY
)
fi

# --html onto a symbolic link: refused, its target kept
echo keep >"$tmp/target"
ln -s "$tmp/target" "$tmp/link.html"
if ! "$kstack" triage "${src[@]}" --html "$tmp/link.html" 2>"$tmp/err" &&
   [ "$(cat "$tmp/target")" = keep ] && grep -q 'symbolic link' "$tmp/err"; then
	pass "--html refuses a symbolic link and leaves its target"
else
	fail "--html wrote through a symbolic link, or said nothing"
fi

# -o DIR: each file the bytes of its own view
out=$tmp/bundle
"$kstack" triage "${src[@]}" -o "$out" >"$tmp/stdout" 2>"$tmp/err"
rc=$?
mode=$(stat -c %a "$out" 2>/dev/null)
if [ "$rc" -eq 0 ] && [ "$mode" = 700 ] && [ ! -s "$tmp/stdout" ]; then
	pass "-o DIR exits 0 and makes DIR 0700"
else
	fail "-o DIR exited $rc, DIR mode $mode: $(head -2 "$tmp/err")"
fi
view() {
	local name=$1
	shift
	"$kstack" "$@" 2>/dev/null >"$tmp/view.$name"
	if cmp -s "$tmp/view.$name" "$out/$name"; then
		pass "$name is the bytes of kstack $*"
	else
		fail "$name differs from kstack $*"
	fi
}
view triage.txt triage "${src[@]}"
view triage.json triage "${src[@]}" --json
if cmp -s "$page" "$out/triage.html"; then
	pass "triage.html is the bytes of --html FILE"
else
	fail "triage.html differs from --html FILE"
fi
view log.txt "${src[@]}" --log
view cpus.txt "${src[@]}" --cpus
view stacks.txt "${src[@]}" -a -H
view waits.txt "${src[@]}" -D --waits
{ "$kstack" "${src[@]}" -K; "$kstack" "${src[@]}" -F; } 2>/dev/null >"$tmp/view.hooks"
if cmp -s "$tmp/view.hooks" "$out/hooks.txt"; then
	pass "hooks.txt is the bytes of -K, then of -F"
else
	fail "hooks.txt differs from -K then -F"
fi
n=$(find "$out" -mindepth 1 | wc -l)
if [ "$n" = 8 ]; then
	pass "DIR has the 8 files and nothing else"
else
	fail "DIR has $n entries"
fi

# again into the same DIR: refused, nothing changed
sums=$(cd "$out" && sha256sum -- *)
if ! "$kstack" triage "${src[@]}" -o "$out" 2>"$tmp/err" &&
   grep -q 'already' "$tmp/err" && [ "$(cd "$out" && sha256sum -- *)" = "$sums" ]; then
	pass "-o DIR with a bundle in it is refused and changes nothing"
else
	fail "-o DIR into a bundle: $(head -1 "$tmp/err")"
fi
# DIR a symbolic link, and a link planted in DIR: refused
mkdir "$tmp/real"
ln -s "$tmp/real" "$tmp/dirlink"
if ! "$kstack" triage "${src[@]}" -o "$tmp/dirlink" 2>/dev/null &&
   [ -z "$(ls -A "$tmp/real")" ]; then
	pass "-o DIR refuses a DIR that is a symbolic link"
else
	fail "-o DIR wrote through a symbolic link to a directory"
fi
mkdir "$tmp/planted"
ln -s "$tmp/target" "$tmp/planted/log.txt"
if ! "$kstack" triage "${src[@]}" -o "$tmp/planted" 2>/dev/null &&
   [ "$(cat "$tmp/target")" = keep ] && [ "$(ls -A "$tmp/planted")" = log.txt ]; then
	pass "-o DIR with a link planted in it is refused before any file is written"
else
	fail "-o DIR wrote beside or through a planted link"
fi
finish
