"""Both implementations of the kernels against what a kernel is, ``_kernels.protocol.Kernels``
(mypy checks their types: ``_kernels.conformance``, run by ``test_typing``): every kernel of
the protocol is in the compiled core and in the twin, with the protocol's parameters (names,
order, defaults), and every kernel the core's stub (``_core.pyi``) declares is in the
protocol. A new kernel is then a pair of like-named entries, the stub's and the
protocol's, before its bodies (the ``.pxi`` and the twin's module of that family)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from sanggong import _core
from sanggong._kernels import protocol
from sanggong._kernels import twin as _pykernels

STUB = Path(_core.__file__).parent / "_core.pyi"

# What the core's stub declares beyond the kernels, and why it is no kernel: the build-time
# tables of the default ranking (read by ``_kernels.default_lookups`` where the core is in
# use, and computed in Python otherwise) and a test's exhaustive count (``test_analysis``).
CORE_ONLY = {"default_lookups", "brute_force_one_deck"}


def _protocol_members() -> dict[str, ast.FunctionDef]:
    tree = ast.parse(Path(protocol.__file__).read_text(encoding="utf-8"))
    (kernels,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Kernels")
    return {n.name: n for n in kernels.body if isinstance(n, ast.FunctionDef)}


def _stub_names() -> set[str]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    names |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    return {n for n in names if not n.startswith("_")}


def _parameters(node: ast.FunctionDef) -> list[tuple[str, str | None]]:
    """(name, default as source) of a protocol method's parameters, ``self`` left out."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults: list[str | None] = [None] * (len(positional) - len(args.defaults)) + [ast.unparse(d) for d in args.defaults]
    out = list(zip([a.arg for a in positional], defaults, strict=True))
    out += [(a.arg, None if d is None else ast.unparse(d)) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    return out[1:]


def _signature(kernel: Callable[..., Any]) -> list[tuple[str, str | None]] | None:
    """(name, default as source) of a kernel's parameters, or None where the runtime does not
    say (a class the core defines in C: its stub alone types it, and mypy checks that)."""
    try:
        signature = inspect.signature(kernel)
    except (TypeError, ValueError):
        return None
    return [(p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
            for p in signature.parameters.values()]


KERNELS = sorted(_protocol_members())


def test_the_protocol_names_every_kernel_of_the_stub() -> None:
    assert _stub_names() - CORE_ONLY == set(KERNELS)


@pytest.mark.parametrize("module", [_core, _pykernels], ids=["cython", "python"])
@pytest.mark.parametrize("name", KERNELS)
def test_every_kernel_is_there_with_the_protocols_parameters(module: ModuleType, name: str) -> None:
    member = _protocol_members()[name]
    assert hasattr(module, name), f"{module.__name__} has no kernel {name}"
    if any(isinstance(d, ast.Name) and d.id == "property" for d in member.decorator_list):
        assert isinstance(getattr(module, name), str)  # IMPLEMENTATION, a module's constant
        return
    found = _signature(getattr(module, name))
    if found is not None:
        assert found == _parameters(member), name


def test_the_parameters_are_read_from_the_runtime_where_they_can_be() -> None:
    """The check above is not empty: the twin says every kernel's parameters, and the core
    those of its functions."""
    twin_checked = [n for n in KERNELS if n != "IMPLEMENTATION" and _signature(getattr(_pykernels, n)) is not None]
    core_checked = [n for n in KERNELS if n != "IMPLEMENTATION" and _signature(getattr(_core, n)) is not None]
    assert len(twin_checked) == len(KERNELS) - 1
    assert {"rank_batch", "settle_batch", "deal_chunk", "simulate_chunk", "play_chunk"} <= set(core_checked)


def test_each_implementation_says_its_name() -> None:
    assert (_core.IMPLEMENTATION, _pykernels.IMPLEMENTATION) == ("cython", "python")
