#!/usr/bin/env bash
# The test suite against a compiled core built with AddressSanitizer and
# UndefinedBehaviorSanitizer (gcc, Linux). Exits non-zero on a failing test and on any
# sanitizer report, from pytest's process or from any process a test starts.
#
#   tools/sanitize.sh [extra pytest arguments]
#
# It builds from a copy of the working tree (tracked and untracked files, never ignored
# ones) and installs into a throwaway virtual environment; the repository, its build/
# and its in-place build are left alone. Needs gcc with its sanitizer runtimes
# (libasan, libubsan: Debian's gcc brings them) and binutils' nm.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
echo "::: sanitize.sh: pytest under AddressSanitizer + UBSan, core built with SANGGONG_SANITIZE=1 from $root"
start_time=$SECONDS

# The runtime preloaded below must be the one of the compiler that builds the core:
# gcc's, whatever CC says.
export CC=gcc
unset LDSHARED
asan_rt="$(gcc -print-file-name=libasan.so)"
cxx_rt="$(gcc -print-file-name=libstdc++.so.6)"
for f in "$asan_rt" "$cxx_rt"; do
    [[ -f "$f" ]] || { echo "sanitize.sh: gcc does not find $f" >&2; exit 2; }
done
command -v nm >/dev/null || { echo "sanitize.sh: nm (binutils) is needed" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/sanggong-sanitize.XXXXXX")"
mkdir "$work/logs"
# On every exit: print the sanitizer reports (see log_path below) and fail if there are
# any, whatever the tests said; then remove the throwaway tree.
finish() {
    local status=$? f
    shopt -s nullglob
    local reports=("$work"/logs/*)
    for f in "${reports[@]}"; do
        echo "::: sanitizer report $(basename "$f"):"
        cat "$f"
    done
    if ((${#reports[@]})); then
        echo "sanitize.sh: ${#reports[@]} sanitizer report(s), see above" >&2
        ((status)) || status=1
    fi
    rm -rf "$work"
    echo "::: sanitize.sh: exit $status after $((SECONDS - start_time)) s"
    exit "$status"
}
trap finish EXIT

# A fresh source tree: what `git ls-files` calls the working tree, uncommitted edits
# included, but no ignored file, so no build/, no *.so and no generated _core.c (the
# headers of tools/gen_headers.py are committed sources). pip builds a local directory in place (in its build/), and setuptools skips
# compiling an extension whose built file looks newer than its sources; Cython likewise
# keeps a _core.c newer than _core.pyx. In a copy without them nothing can be reused:
# _core.c is generated anew and every object compiled with the sanitizer flags. (Deleting
# build/ in the repository instead would remove a developer's in-place build.)
# Build isolation stays on: the build requirements come from pyproject.toml as for any
# install. pip never caches a wheel built from a local directory.
git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 \
    || { echo "sanitize.sh: $root is not a git work tree" >&2; exit 2; }
mkdir "$work/src"
git -C "$root" ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' f; do  # (a tracked file deleted in the work tree is left out)
          if [[ -e "$root/$f" || -L "$root/$f" ]]; then printf '%s\0' "$f"; fi
      done \
    | tar -C "$root" --null -T - -cf - | tar -C "$work/src" -xf -

python3 -m venv "$work/venv"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
echo "::: SANGGONG_SANITIZE=1 pip install '.[test]' (from a copy in $work/src)"
(cd "$work/src" && SANGGONG_SANITIZE=1 python -m pip install --quiet --disable-pip-version-check '.[test]')

echo "::: the installed core must be instrumented"
# (found without importing it: without the preload below it cannot load)
platlib="$(python -c 'import sysconfig; print(sysconfig.get_path("platlib"))')"
cores=("$platlib"/sanggong/_core.*.so)
[[ ${#cores[@]} == 1 && -f "${cores[0]}" ]] || { echo "sanitize.sh: no single sanggong/_core.*.so in $platlib" >&2; exit 1; }
core="${cores[0]}"
echo "$core"
undefined="$(nm -D --undefined-only "$core")"  # (not piped into grep -q: pipefail and SIGPIPE)
grep -qw __asan_init <<<"$undefined" \
    || { echo "sanitize.sh: $core has no AddressSanitizer instrumentation" >&2; exit 1; }
grep -q '__ubsan_handle_.*_abort' <<<"$undefined" \
    || { echo "sanitize.sh: $core has no (non-recovering) UBSan instrumentation" >&2; exit 1; }
ldd "$core" | grep -E 'lib(a|ub)san' || true

# Python itself is not instrumented, so the ASan runtime has to be in the process from
# the start (it must come first in the library list; loading it with the extension is too
# late): LD_PRELOAD. libubsan needs no preload; the extension pulls it in. libstdc++ is
# preloaded after it so that ASan's __cxa_throw interceptor finds the real one when it
# starts: without it the first C++ exception in any extension (matplotlib's ft2font
# throws one on import) stops the process with "CHECK failed ... real___cxa_throw".
# detect_leaks=0: CPython does not free everything at exit (interned strings, static
# types, module state) and numpy keeps caches, so LeakSanitizer would report thousands of
# intended "leaks" and fail every run; leaks are not what this run looks for.
# allocator_may_return_null=1: an impossible allocation returns NULL, as without ASan,
# and CPython and numpy turn that into MemoryError, instead of ASan aborting on a
# request the program handles.
# detect_stack_use_after_return=1: the kernels keep decks and scratch blocks on the stack.
# log_path: every report goes to a file, so that one from a subprocess a test starts (the
# command line, a Dask worker) fails the run too, even where the test would not notice,
# and one from pytest's own process is not lost in pytest's capture of fd 2 when the
# process aborts. UBSan's log_path is ignored when gcc's ASan runtime is loaded too
# (libasan's exported copy of __sanitizer_set_report_path takes libubsan's call), so a
# .pth file in the throwaway venv sets libubsan's own at every interpreter's start.
logs="$work/logs"
export SANGGONG_UBSAN_LOG="$logs/ubsan"
cat > "$platlib/sanggong_sanitize_ubsan.pth" <<'PTH'
import os, ctypes; _p = os.environ.get("SANGGONG_UBSAN_LOG"); _p and ctypes.CDLL("libubsan.so.1").__sanitizer_set_report_path(_p.encode())
PTH
export LD_PRELOAD="$asan_rt:$cxx_rt${LD_PRELOAD:+:$LD_PRELOAD}"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:allocator_may_return_null=1:detect_stack_use_after_return=1:log_path=$logs/asan"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:report_error_type=1"
# Python objects from malloc, not pymalloc's arenas, so that ASan sees their bounds too.
export PYTHONMALLOC=malloc
unset SANGGONG_NO_EXTENSIONS  # the compiled core is what this run tests
# ... and only its half of the suite: the reference's half runs no instrumented code, and
# under PYTHONMALLOC=malloc with ASan's allocator it would take most of the run's time
export SANGGONG_TEST_IMPLS=cython

cd "$root"
python - <<'PY'
import os, sanggong
assert sanggong.IMPLEMENTATION == "cython", "the instrumented core did not load"
assert sanggong.__file__.startswith(os.environ["VIRTUAL_ENV"]), sanggong.__file__
print("sanggong", sanggong.__version__, "implementation:", sanggong.IMPLEMENTATION, "from", os.path.dirname(sanggong.__file__))
PY

echo "::: pytest -p no:cacheprovider $* (under the sanitizers)"
pytest -p no:cacheprovider "$@"
