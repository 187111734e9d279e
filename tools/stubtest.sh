#!/usr/bin/env bash
# The compiled core's stub (src/sanggong/_core.pyi) against the built module: every name
# it exports typed, with the arguments it takes (mypy's stubtest). Needs the core built and
# importable (pip install -e . or python setup.py build_ext --inplace) and mypy.
#
#   tools/stubtest.sh [extra stubtest arguments]
#
# The allowlist (tools/stubtest_allowlist.txt) holds only what Cython adds to every
# extension module, none of it sanggong's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python - <<'PY'
import sanggong
assert sanggong.IMPLEMENTATION == "cython", f"the compiled core is not loaded ({sanggong.IMPLEMENTATION}): build it first"
PY
exec python -m mypy.stubtest sanggong._core --allowlist "$root/tools/stubtest_allowlist.txt" "$@"
