"""The suite's shared harness: running a call where a crash, a hang or a huge allocation
fails one test instead of the run, and the fuzz tests' budget.

* ``in_child(fn, *args)``: ``fn(*args)`` in a forked child under a memory limit and a
  time limit, its result pickled back (the API fuzz tests, ``tests/test_fuzz_*.py``, and
  the command line's, ``tests/test_fuzz_cli.py``).
* ``run_python(code)``: Python source in a fresh interpreter under the same limits
  (what must not share this process's state: ``tests/test_shoe_attack.py``).
* ``fuzz(...)``: ``@given`` with the fuzz budget, and a ``<test>_long`` twin marked
  ``fuzz``.

A failure raises an ``AssertionError`` subclass named for its kind (``failure``), so that
Hypothesis reports a crash and a wrong answer apart instead of shrinking one into the
other. ``SANGGONG_FUZZ_LOG=<file>`` logs every crash, hang and contract violation seen
(shrinking included) to that file.
"""

from __future__ import annotations

import inspect
import json
import os
import pickle
import select
import signal
import subprocess
import sys
import textwrap
import time
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

import sanggong._kernels

try:
    import resource
except ImportError:  # Windows: no memory limit, and no fork (in_child skips)
    resource = None  # type: ignore[assignment]

with warnings.catch_warnings():  # its first import warns (libcst's mypy_extensions), which
    warnings.simplefilter("ignore")  # filterwarnings=error turns into an INTERNALERROR when
    try:  # Hypothesis writes the patch of a failing example: import it once, quietly, here
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

# --- the fuzz budget ---------------------------------------------------------------------------

QUICK_EXAMPLES = 30  # with the other fuzz files, the default run stays under 90 s for both implementations
LONG_FACTOR = int(os.environ.get("SANGGONG_FUZZ_FACTOR", "50"))
SHRINK = os.environ.get("SANGGONG_FUZZ_SHRINK", "") not in ("", "0")  # the quick run reports failures unshrunk
NO_SHRINK = [p for p in Phase if p not in (Phase.shrink, Phase.explain)]
BASE = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
    print_blob=True,
)

# Hypothesis warns when the repr of a drawn value is huge (an int of 30,000 digits is):
# not a failure of sanggong's, and filterwarnings=error would make it one. A fuzz module
# sets ``pytestmark = LARGE_REPR_IS_FINE``.
LARGE_REPR_IS_FINE = pytest.mark.filterwarnings("ignore:Generating overly large repr:hypothesis.errors.HypothesisWarning")


def fuzz(*given_args: Any, examples: int = QUICK_EXAMPLES, **given_kwargs: Any) -> Callable[[Any], Any]:
    """``@given`` with the suite's budget: the decorated test runs ``examples`` examples
    (reported as found, unshrunk, unless ``SANGGONG_FUZZ_SHRINK=1``), and a twin named
    ``<test>_long``, marked ``fuzz``, runs ``LONG_FACTOR`` times as many, shrinking."""

    def decorate(body: Callable[..., None]) -> Any:
        scope = sys._getframe(1).f_globals
        long_test = settings(BASE, max_examples=examples * LONG_FACTOR)(given(*given_args, **given_kwargs)(body))
        scope[f"{body.__name__}_long"] = pytest.mark.fuzz(long_test)
        quick = settings(BASE, max_examples=examples, phases=list(Phase) if SHRINK else NO_SHRINK)
        return quick(given(*given_args, **given_kwargs)(body))

    return decorate


# --- failures -------------------------------------------------------------------------------------

_FAILURES: dict[str, type[AssertionError]] = {}


def failure(kind: str) -> type[AssertionError]:
    """An AssertionError subclass per kind of failure, so that Hypothesis reports distinct
    failures (a KeyError and a crash) separately instead of shrinking them into one."""
    name = "".join(ch if ch.isalnum() else "_" for ch in kind) or "Failure"
    if name not in _FAILURES:
        _FAILURES[name] = type(name, (AssertionError,), {})
    return _FAILURES[name]


class Violation(Exception):
    """Raised in a child: a call broke the contract. ``kind`` names what it did."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def log(kind: str, message: str) -> None:
    """Append one failure to ``$SANGGONG_FUZZ_LOG`` (when set)."""
    path = os.environ.get("SANGGONG_FUZZ_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"impl": sanggong._kernels.kernels.IMPLEMENTATION, "kind": kind, "message": message[:3000]}) + "\n")


def short(value: Any, limit: int = 300) -> str:
    """A repr that never fails (ints beyond the str limit, sNaN) and stays short."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        if isinstance(value, int):
            text = f"<int of {value.bit_length()} bits>"
        else:
            text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 20] + f"...<{len(text)} chars>"


# --- limits ---------------------------------------------------------------------------------------

MEMORY = 3 << 30  # bytes of address space a child may take beyond what it has when it starts
SANITIZED = "ASAN_OPTIONS" in os.environ  # tools/sanitize.sh: ASan reserves terabytes of shadow, and slows malloc
INT_DIGITS = sys.get_int_max_str_digits()  # the interpreter's default, which children run with


def vm_bytes() -> int:
    """This process's address space (VmSize), or 0 where /proc does not say."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _limit_memory(memory: int) -> None:
    if resource is None or not vm_bytes():
        return
    limit = vm_bytes() + memory
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


# --- a call in a forked child ---------------------------------------------------------------------


def in_child(fn: Callable[..., Any], /, *args: Any, timeout: float = 20.0, memory: int = MEMORY,
             where: str | None = None, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` in a forked child under a memory limit (``memory`` bytes
    more than now) and a time limit of ``timeout`` seconds; returns its result (pickled
    back). A crash (a signal), a hang, a ``Violation`` or any other exception in the
    child fails here with a failure class named after it; ``where`` names the call in
    the message (default: ``fn`` and its arguments). Under the sanitizers the time is four
    times as long (as ``in_source``'s: the instrumented core and malloc run slower, and a
    command that takes seconds, ``sanggong report``, is not a hang)."""
    if not hasattr(os, "fork"):
        pytest.skip("needs os.fork")
    if SANITIZED:
        timeout *= 4
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(r)
            sys.set_int_max_str_digits(INT_DIGITS)
            _limit_memory(memory)
            try:
                data = pickle.dumps(("ok", fn(*args, **kwargs)))
            except Violation as exc:
                data = pickle.dumps(("violation", exc.kind, str(exc)))
            except BaseException as exc:  # noqa: BLE001 - everything is reported
                text = "".join(traceback.format_exception(exc))
                data = pickle.dumps(("raised", type(exc).__name__, text))
            with os.fdopen(w, "wb") as out:
                out.write(data)
        except BaseException:  # noqa: BLE001
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    chunks, deadline, hung = [], time.monotonic() + timeout, False
    with os.fdopen(r, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                hung = True
                break
            ready, _, _ = select.select([pipe], [], [], left)
            if ready:
                chunk = os.read(pipe.fileno(), 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    if hung:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if where is None:
        where = f"{getattr(fn, '__name__', fn)}({', '.join(short(a) for a in args)}" + "".join(
            f", {k}={short(v)}" for k, v in kwargs.items()) + ")"
    if hung:
        message = f"HANG: {where} took more than {timeout} s"
        log("hang", message)
        raise failure("Hang")(message)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        message = f"CRASH: {where} killed the process with {name}"
        log(f"crash {name}", message)
        raise failure(f"Crash_{name}")(message)
    if not chunks:
        raise failure("ChildLost")(f"{where}: the child exited with status {os.WEXITSTATUS(status)} and no report")
    payload = pickle.loads(b"".join(chunks))
    if payload[0] == "ok":
        return payload[1]
    if payload[0] == "violation":
        log(payload[1], payload[2])
        raise failure(payload[1])(payload[2])
    log(f"check raised {payload[1]}", payload[2])
    raise failure(f"CheckRaised{payload[1]}")(f"{where}:\n{payload[2]}")


# --- source in a fresh interpreter ----------------------------------------------------------------


def run_python(code: str, timeout: float, memory: int | None = None) -> subprocess.CompletedProcess[str] | None:
    """Run the Python source ``code`` in a fresh interpreter (under ``memory`` bytes of
    address space more than an interpreter starts with); None when it ran past
    ``timeout`` seconds (and was killed). Under the sanitizers the time is four times as
    long, and the memory limit counts from the address space the child has once it runs
    (ASan's shadow included). Elsewhere than Linux: the time limit alone."""
    if SANITIZED:
        timeout *= 4
    prelude = ""
    if memory is not None and sys.platform == "linux":  # the limit of in_child's, as source: nothing else imported
        prelude = f"import resource\n{inspect.getsource(vm_bytes)}{inspect.getsource(_limit_memory)}_limit_memory({memory})\n"
    try:
        return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every leaf of a JSON value with its path (keys and indexes): where a fuzzer edits a record."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in leaves(v, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in leaves(v, (*path, i))]
    return [(path, value)]
