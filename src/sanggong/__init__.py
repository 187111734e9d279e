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

import os as _os


def _read_stub() -> tuple[list[str], dict[str, str]]:
    """``__all__`` and ``{name: module}`` from the stub: its annotated names (``__version__``,
    ``IMPLEMENTATION``) and its ``from .module import Name as Name`` lines, in order.

    Read line by line (``ast`` would cost a few ms at every start): the stub is written in
    the one form below, each statement on one line, and any other line is refused here
    rather than misread (tests/test_startup.py reads the stub with ``ast`` too, and
    compares).

    :raises ImportError: a line that is not a blank line, a comment, a one-line docstring,
        ``name: annotation`` or ``from .module import Name as Name, ...`` (each name
        re-exported under its own name), named with its number.
    """
    path = _os.path.splitext(__file__)[0] + ".pyi"
    text = __loader__.get_data(path).decode("utf-8")  # type: ignore[attr-defined]  # (a zip import too)
    names: list[str] = []
    lazy: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.rstrip()
        if not line or line.startswith("#") or (len(line) >= 6 and line.startswith('"""') and line.endswith('"""')
                                                and '"""' not in line[3:-3]):
            continue
        head, imports, imported = line.partition(" import ")
        if imports and head.startswith("from ."):
            module = head.removeprefix("from .")
            items = [item.strip().split(" ") for item in imported.split(",")]
            if not all(part.isidentifier() for part in module.split(".")) or any(
                    len(item) != 3 or item[1] != "as" or item[0] != item[2] or not item[0].isidentifier()
                    for item in items):
                raise ImportError(f"{path}:{number}: from .module import Name as Name, ...: each name "
                                  f"re-exported under its own name")
            names.extend(name for name, _, _ in items)
            lazy.update((name, module) for name, _, _ in items)
            continue
        name, colon, annotation = line.partition(":")
        if not (colon and name.isidentifier() and annotation.strip() and "=" not in annotation):
            raise ImportError(f"{path}:{number}: the stub holds only names (name: type), one-line docstrings "
                              f"and relative imports (from .module import Name as Name), each on one line")
        names.append(name)
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
