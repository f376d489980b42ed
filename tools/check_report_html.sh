#!/usr/bin/env bash
# Renders the page of `xla-index report --html` in a real browser (headless
# Chromium, Debian's `chromium`) and fails when the browser logs a console
# message, parses it as broken XHTML, or renders nothing:
#   1. the page as HTML (--dump-dom): no CONSOLE lines on stderr, and the
#      DOM holds the summary table, every kernel's section with its
#      emitter, the kernel table's emitter column and the pictures;
#   2. the same bytes as .xhtml: Chromium's XML parser must not insert a
#      <parsererror> (the page is meant to be well-formed XML);
#   3. a screenshot of the page must be larger than one of a blank page of
#      the same size (something was drawn).
# Prints one line "report-html: N passed, N failed" (one test case).
#
#   tools/check_report_html.sh [XLA_INDEX_BINARY] [MODULE.hlo]
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:-bazel-bin/tools/xla-index}
module=${2:-xla_index/analysis/testdata/report_fusions.hlo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check_report_html: $*" >&2
  echo "report-html: 0 passed, 1 failed"
  exit 1
}

command -v chromium >/dev/null || fail "chromium is not installed"
"$binary" report "$module" --html="$work/page.html" >/dev/null ||
  fail "xla-index report failed on $module"
cp "$work/page.html" "$work/page.xhtml"

# Headless Chromium with its own profile; the launcher's and D-Bus's noise
# goes to stderr and is ignored except for console messages.
browse() {
  timeout 120 chromium --headless --disable-gpu --no-sandbox \
    --user-data-dir="$work/profile" --enable-logging=stderr --v=0 "$@"
}

browse --dump-dom "file://$work/page.html" >"$work/dom.html" 2>"$work/log" ||
  fail "chromium --dump-dom failed: $(tail -3 "$work/log")"
if grep -q ':CONSOLE' "$work/log"; then
  fail "console messages: $(grep ':CONSOLE' "$work/log")"
fi
[[ -s "$work/dom.html" ]] || fail "empty DOM"
grep -q 'id="summary"' "$work/dom.html" || fail "no summary table in the DOM"
fusions=$(grep -c ' fusion(' "$module")
sections=$(grep -o '<section class="kernel"' "$work/dom.html" | wc -l)
((sections == fusions)) ||
  fail "$sections kernel sections in the DOM for $fusions fusions"
grep -q '<svg' "$work/dom.html" || fail "no picture in the DOM"
# Every kernel names the emitter XLA runs it on, in its section and in the
# kernel table.
emitters=$(grep -o '<p class="emitter">emitter: <b>[^<]' "$work/dom.html" | wc -l)
((emitters == sections)) ||
  fail "$emitters emitter lines in the DOM for $sections kernel sections"
grep -q '<td class="emitter"' "$work/dom.html" ||
  fail "no emitter column in the kernel table"

browse --dump-dom "file://$work/page.xhtml" >"$work/xdom.html" 2>/dev/null ||
  fail "chromium failed on the .xhtml copy"
if grep -q '<parsererror' "$work/xdom.html"; then
  fail "not well-formed XHTML: $(sed -n 's/.*\(error on line[^<]*\).*/\1/p' "$work/xdom.html")"
fi

echo '<!DOCTYPE html><html><body></body></html>' >"$work/blank.html"
for page in page blank; do
  browse --window-size=1200,1600 --screenshot="$work/$page.png" \
    "file://$work/$page.html" >/dev/null 2>&1 ||
    fail "chromium --screenshot failed on $page.html"
done
page_bytes=$(stat -c %s "$work/page.png")
blank_bytes=$(stat -c %s "$work/blank.png")
((page_bytes > 2 * blank_bytes)) ||
  fail "empty render: screenshot of $page_bytes bytes (blank: $blank_bytes)"

echo "check_report_html: $sections kernels rendered, screenshot $page_bytes bytes (blank $blank_bytes)"
echo "report-html: 1 passed, 0 failed"
