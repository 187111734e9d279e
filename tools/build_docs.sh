#!/usr/bin/env bash
# Build the documentation as CI and Read the Docs do, offline: the HTML with warnings as
# errors and every cross-reference checked (-W --keep-going -n), then every code example of
# the pages run by the doctest builder.
#
#   bash tools/build_docs.sh [OUTPUT_DIR]
#
# OUTPUT_DIR defaults to a new temporary directory (the HTML is OUTPUT_DIR/html). Needs
# sanggong installed with its docs extra: pip install '.[docs]'. No network is needed:
# without READTHEDOCS=True (or SANGGONG_DOCS_INTERSPHINX=1) intersphinx fetches nothing
# (see docs/conf.py).
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/sanggong-docs.XXXXXX")}"
mkdir -p "$out"

python - <<'PY'
import importlib.util, sys
missing = [m for m in ("sphinx", "furo", "myst_parser", "sphinxarg", "sanggong") if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"build_docs.sh: missing {', '.join(missing)}: pip install '.[docs]'")
PY

# The front page shows the README's two set-up commands: they must be the same.
grep -E "^pip install " README.md | while IFS= read -r cmd; do
    grep -qxF "$cmd" docs/index.md || { echo "build_docs.sh: docs/index.md lacks the README's command: $cmd" >&2; exit 1; }
done

# The build writes nothing into the tree: a page's example that writes a file (docs/rules.md
# saves rule files) runs in a temporary directory (docs/conf.py), and no file it leaves may
# turn up here, least of all be committed.
untracked_before="$(git ls-files --others --exclude-standard 2>/dev/null || true)"

start=$SECONDS
echo "::: docs: html -> $out/html"
# -E: read every page afresh (the generated tables and command outputs come from the
# package as it is now); the doctest builder then reuses what this run read.
python -m sphinx -E -W --keep-going -n -q -b html -d "$out/doctrees" docs "$out/html"
html=$((SECONDS - start))

# The site is the project's own: it never points at the steering documents.
if grep -rlE "RULES\.md|shared/" "$out/html" --include='*.html' >/dev/null; then
    echo "build_docs.sh: the HTML mentions RULES.md or shared/:" >&2
    grep -rlE "RULES\.md|shared/" "$out/html" --include='*.html' >&2
    exit 1
fi

# Every figure of the plot directive is a file of its own (its :filename-prefix:, see
# tests/test_docs_plots.py), and no page shows one twice.
python - "$out/html" <<'PY'
import pathlib, re, sys
html = pathlib.Path(sys.argv[1])
figures = set()
for page in html.rglob("*.html"):
    shown = re.findall(r'<img[^>]+src="([^"]*_images/[^"]+\.png)"', page.read_text(encoding="utf-8"))
    twice = sorted({s for s in shown if shown.count(s) > 1})
    if twice:
        sys.exit(f"build_docs.sh: {page.relative_to(html)} shows a figure twice: {', '.join(twice)}")
    figures.update(pathlib.PurePosixPath(s).name for s in shown)
print(f"docs: {len(figures)} figures")
PY

echo "::: docs: doctest"
python -m sphinx -W --keep-going -n -q -b doctest -d "$out/doctrees" docs "$out/doctest"
total=$((SECONDS - start))

untracked_after="$(git ls-files --others --exclude-standard 2>/dev/null || true)"
if [ "$untracked_after" != "$untracked_before" ]; then
    echo "build_docs.sh: the build left files in the tree:" >&2
    diff <(echo "$untracked_before") <(echo "$untracked_after") | grep '^>' >&2 || true
    exit 1
fi

python - "$out/doctest/output.txt" "$html" "$total" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
tests = int(re.search(r"^\s*(\d+) tests$", text, re.M)[1])
failed = int(re.search(r"^\s*(\d+) failures in tests$", text, re.M)[1])
print(f"docs: html in {sys.argv[2]} s, html and doctests in {sys.argv[3]} s")
print(f"doctest: {tests - failed} passed, {failed} failed")
PY
