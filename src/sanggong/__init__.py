"""sanggong: the fast, exact engine for Sam Gong (三公), the three-card baccarat of Macau.

>>> import sanggong
>>> sanggong.evaluate("Kh Qs 9d").label
'2P9'
>>> sanggong.IMPLEMENTATION in ("cython", "python")
True
>>> sanggong.compare("Kh Kd Ks", "Qh Qd Qs", rules="chinese"), sanggong.compare("Kh Kd Ks", "Qh Qd Qs")
(1, 0)

Importing the package is cheap: each name of ``__all__`` is imported from its module the
first time it is used (PEP 562), so ``import sanggong`` costs little more than ``import
numpy``, and ``from sanggong import X`` works for every X.

The public names are listed once, in the stub beside this file (``__init__.pyi``): type
checkers and IDEs read it as the package's types, and this module reads it at import to
make ``__all__`` (in the stub's order) and the mapping of each name to its module that
``__getattr__`` imports from (SPEC 1's ``lazy_loader.attach_stub``, in a few lines rather
than a dependency).
"""

import ast as _ast
import os as _os


def _read_stub() -> tuple[list[str], dict[str, str]]:
    """``__all__`` and ``{name: module}`` from the stub: its annotated names (``__version__``,
    ``IMPLEMENTATION``) and its ``from .module import Name as Name`` lines, in order.

    :raises ImportError: the stub holds anything else at its top level, or an import that
        does not re-export a name under its own name.
    """
    path = _os.path.splitext(__file__)[0] + ".pyi"
    tree = _ast.parse(__loader__.get_data(path), path)  # type: ignore[attr-defined]  # (a zip import too)
    names: list[str] = []
    lazy: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, _ast.AnnAssign) and isinstance(node.target, _ast.Name):
            names.append(node.target.id)
        elif isinstance(node, _ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                if alias.asname != alias.name:
                    raise ImportError(f"{path}:{node.lineno}: re-export {alias.name} as {alias.name}")
                names.append(alias.name)
                lazy[alias.name] = node.module
        elif not (isinstance(node, _ast.Expr) and isinstance(node.value, _ast.Constant)):  # a docstring
            raise ImportError(f"{path}:{node.lineno}: the stub holds only names and relative imports")
    return names, lazy


__all__, _LAZY = _read_stub()
del _read_stub


def __getattr__(name: str) -> object:
    """Import a public name from its module on first use (PEP 562) and keep it."""
    module = _LAZY.get(name)
    if module is not None:
        from importlib import import_module

        value = getattr(import_module(f"{__name__}.{module}"), name)
        globals()[name] = value  # later lookups skip this function
        return value
    if name == "IMPLEMENTATION":
        # not kept: it names the kernels in use, which the test suite swaps
        from . import _kernels

        return _kernels.kernels.IMPLEMENTATION
    if name == "__version__":
        from ._about import package_version

        found = package_version()
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
