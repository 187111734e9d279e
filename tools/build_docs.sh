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

echo "::: docs: doctest"
python -m sphinx -W --keep-going -n -q -b doctest -d "$out/doctrees" docs "$out/doctest"
total=$((SECONDS - start))

python - "$out/doctest/output.txt" "$html" "$total" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
tests = int(re.search(r"^\s*(\d+) tests$", text, re.M)[1])
failed = int(re.search(r"^\s*(\d+) failures in tests$", text, re.M)[1])
print(f"docs: html in {sys.argv[2]} s, html and doctests in {sys.argv[3]} s")
print(f"doctest: {tests - failed} passed, {failed} failed")
PY
