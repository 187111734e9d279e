"""Count what the "one concept, one place" reshaping is judged by, from the source itself.

    python tools/structure.py            # the figures, one a line
    python tools/structure.py --json     # the same as JSON
    python tools/structure.py --list     # and every private import and long function named

Counted over ``src/sanggong`` (Python, Cython and C sources):

- **import circles**: strongly connected groups of modules of the package that import one
  another (module-level and function-level imports alike; ``TYPE_CHECKING`` imports left
  out, as they never run);
- **import circles, type-only imports counted**: the same with the ``TYPE_CHECKING``
  imports as edges too (a module that names another's type in its annotations knows it:
  such a circle is a tangle of concepts, though no import of it runs);
- **imports back up**: a submodule importing the package root (``from . import X`` where X
  is not a submodule, or ``import sanggong``); **type-only imports back up** the same
  under ``TYPE_CHECKING``;
- **cross-module private imports**: ``from .mod import _name`` (or ``mod._name``
  attribute use on an imported module) where ``mod`` is another module of the package and
  ``_name`` is private by its leading underscore (a private module's own names, such as
  ``_kernels.kernels``, are the private module's interface, and count only when they start
  with an underscore themselves);
- **a private module's names used by public modules** (``_ref.N_OUTCOMES`` in a public
  module: a module that is private by name yet serves as the package's specification);
- **names taken from another package's private modules**: each name a module imports
  from a module that is private by its path (``dealing._writer``, or ``dealing._writer``
  itself taken from ``dealing``) where the module is outside the package that holds the
  private part (``sanggong.verify._fastlog`` may take ``sanggong._spec``'s names, as both
  are within ``sanggong``, but not ``sanggong.dealing._game``'s): a package's private
  modules are its own, and others reach them through its public face;
- **private members used from another module**: ``x._name`` where ``_name`` is a private
  member (a method or attribute of a class: defined in a class body, or assigned as
  ``self._name``) of another module of the package and of none of this module's own
  classes (``reader._seen_lists()``, ``game._shoe``), and ``super()._name`` in a class
  whose base is another module's (a subclass overriding a private method of another
  module's class);
- **largest file** (lines) and **longest function** (lines, Python and Cython ``def`` /
  ``cdef`` / ``cpdef`` by indentation, C functions by their braces).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "sanggong"
SOURCES = ("*.py", "*.pyx", "*.pxi", "*.pxd", "*.h", "*.c", "*.pyi")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _python_modules() -> dict[str, Path]:
    """Every module of the package by name: its ``.py``, or the ``.pyi`` stub of a compiled
    one (``_core``), which a module can import like any other."""
    found = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    for stub in sorted(PACKAGE.rglob("*.pyi")):
        found.setdefault(_module_name(stub), stub)
    return found


def _resolve(module: str, level: int, name: str | None, is_package: bool) -> str:
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, name] if name else base)


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool, modules: set[str]) -> None:
        self.module, self.is_package, self.modules = module, is_package, modules
        self.edges: set[str] = set()
        self.private: list[str] = []
        self.back_up: list[str] = []
        self.type_only = False  # inside ``if TYPE_CHECKING:``
        self.type_edges: set[str] = set()
        self.type_back_up: list[str] = []
        self.aliases: dict[str, str] = {}
        self.private_module_names: set[str] = set()
        self.taken: list[str] = []  # names taken from another package's private modules
        self.classes: dict[str, tuple[str, str]] = {}  # a name imported from another module: (module, name)

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
                (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            if not self.type_only:  # the body's imports are type-only: counted apart
                aside = _Imports(self.module, self.is_package, self.modules)
                aside.type_only = True
                for child in node.body:
                    aside.visit(child)
                self.type_edges |= aside.edges | aside.type_edges
                self.type_back_up += aside.back_up + aside.type_back_up
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "sanggong":
                self.back_up.append(f"{self.module}: import sanggong")
            if alias.name in self.modules:
                self.edges.add(alias.name)
                self.aliases[alias.asname or alias.name.split(".")[-1]] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        target = _resolve(self.module, node.level, node.module, self.is_package)
        if target not in self.modules and not target.startswith("sanggong"):
            return
        for alias in node.names:
            sub = f"{target}.{alias.name}"
            if sub in self.modules:  # from . import records
                self.edges.add(sub)
                self.aliases[alias.asname or alias.name] = sub
                if _foreign_private(sub, self.module):
                    self.taken.append(f"{self.module}: from {target} import {alias.name}")
                continue
            if target in self.modules and target != self.module and _foreign_private(target, self.module):
                self.taken.append(f"{self.module}: from {target} import {alias.name}")
            if target == "sanggong" and self.module != "sanggong":
                self.back_up.append(f"{self.module}: from sanggong import {alias.name}")
                continue
            if target in self.modules and target != self.module:
                self.classes[alias.asname or alias.name] = (target, alias.name)
                self.edges.add(target)
                if alias.name.startswith("_"):
                    self.private.append(f"{self.module}: from {target} import {alias.name}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.aliases:
            target = self.aliases[node.value.id]
            if target != self.module and node.attr.startswith("_") and not node.attr.startswith("__"):
                self.private.append(f"{self.module}: {target}.{node.attr}")
            if target.rsplit(".", 1)[-1].startswith("_") and target.rsplit(".", 1)[-1] not in ("_kernels",) \
                    and not any(part.startswith("_") for part in self.module.split(".")[1:]):
                self.private_module_names.add(f"{target}.{node.attr}")
        self.generic_visit(node)


def _foreign_private(target: str, module: str) -> bool:
    """``target`` is private by its path (a part after the package's name starts with an
    underscore) and ``module`` is outside the package that holds that part."""
    parts = target.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:i])
            return not (module == owner or module.startswith(owner + "."))
    return False


def _class_members(source: str, cls: str, trees: dict[str, ast.AST], modules: set[str]) -> set[str]:
    """The private members of class ``cls`` imported from ``source`` (the module that
    defines it, ``source`` or one of its submodules)."""
    out: set[str] = set()
    for module in modules:
        if module != source and not module.startswith(source + "."):
            continue
        for node in ast.walk(trees[module]):
            if isinstance(node, ast.ClassDef) and node.name == cls:
                out |= _members(node)
    return out


def _members(tree: ast.AST) -> set[str]:
    """The private members a module defines: the private names defined or assigned in its
    class bodies, and the private attributes it assigns on ``self`` or ``cls``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    out.add(item.name)
                elif isinstance(item, ast.Assign | ast.AnnAssign):
                    for target in item.targets if isinstance(item, ast.Assign) else [item.target]:
                        for name in ast.walk(target):
                            if isinstance(name, ast.Name):
                                out.add(name.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            out.add(node.attr)
    return {name for name in out if name.startswith("_") and not name.startswith("__")}


def _member_uses(module: str, tree: ast.AST, own: set[str], others: dict[str, str],
                 modules_aliased: set[str], imported: dict[str, set[str]]) -> list[str]:
    """The uses of other modules' private members in a module (see the module's doc):
    ``others`` maps a private member's name to a module that defines it, ``imported`` a
    class this module imports from another to its private members (an object made by
    calling it is that class's, whatever members this module's own classes have)."""
    out: list[str] = []
    classes = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    foreign_based: list[ast.ClassDef] = [
        node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
        and any(isinstance(b, ast.Name) and b.id not in classes and b.id not in ("object", "Exception", "ValueError",
                                                                                "TypeError", "NamedTuple", "Protocol")
                for b in node.bases)]
    made: dict[str, set[str]] = {}  # a local name made by calling a class of another module: its members
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and \
                node.value.func.id in imported:
            made[node.targets[0].id] = imported[node.value.func.id]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in modules_aliased:
            continue  # (a module's private name: the cross-module private imports count it)
        if isinstance(value, ast.Name) and node.attr in made.get(value.id, ()):
            out.append(f"{module}: {value.id}.{node.attr} (an instance of another module's class)")
            continue
        is_super = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"
        if is_super:
            if node.attr in others and any(node in ast.walk(c) for c in foreign_based):
                out.append(f"{module}: super().{node.attr} ({others[node.attr]}'s)")
            continue
        if node.attr not in own and node.attr in others:
            out.append(f"{module}: .{node.attr} ({others[node.attr]}'s)")
    return out


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


_C_FUNCTION = re.compile(r"^[A-Za-z_][\w \t\*]*\b(\w+)\s*\([^;]*\)\s*\{?\s*$")
_PY_FUNCTION = re.compile(r"^(\s*)(?:async\s+)?(?:def|cdef|cpdef)\s+(?:[\w\[\]\*\.]+\s+)*?(\w+)\s*\(")


def _functions(path: Path) -> list[tuple[str, int]]:
    """(name, lines) of every function of a source file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[tuple[str, int]] = []
    if path.suffix in (".h", ".c"):
        depth, start, name = 0, None, ""
        for i, line in enumerate(lines):
            if depth == 0 and start is None:
                match = _C_FUNCTION.match(line)
                if match and not line.lstrip().startswith(("#", "typedef", "struct", "enum", "//", "return")):
                    start, name = i, match[1]
            opened, closed = line.count("{"), line.count("}")
            if start is not None and depth == 0 and opened == 0 and "{" not in line and i > start + 1:
                start = None  # a declaration, not a definition
                continue
            depth += opened - closed
            if start is not None and depth == 0 and (opened or closed):
                out.append((name, i - start + 1))
                start = None
        return out
    for i, line in enumerate(lines):
        match = _PY_FUNCTION.match(line)
        if not match or (line.rstrip().endswith(":") is False and "(" not in line):
            continue
        indent = len(match[1])
        end = i + 1
        for j in range(i + 1, len(lines)):
            text = lines[j]
            if text.strip() and not text.lstrip().startswith("#") and len(text) - len(text.lstrip()) <= indent \
                    and not text.lstrip().startswith((")", "]", "}")):
                break
            end = j + 1
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        out.append((match[2], end - i))
    return out


def _tracked() -> list[Path]:
    """The package's source files as git tracks them (generated files are not sources:
    the Cython output ``_core.c`` is not tracked, and the committed headers of
    ``tools/gen_headers.py``, such as ``_tables.h``, say on their first line that they
    are generated)."""
    listed = subprocess.run(["git", "ls-files", "--", "src/sanggong"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    suffixes = {pattern[1:] for pattern in SOURCES}
    return [ROOT / f for f in listed if Path(f).suffix in suffixes and not _generated(ROOT / f)]


def _generated(path: Path) -> bool:
    """A file written by one of the tools (its first line says so)."""
    with path.open(encoding="utf-8", errors="replace") as f:
        return "Generated by tools/gen_" in f.readline()


def _visit_all() -> tuple[dict[str, _Imports], dict[str, ast.Module], set[str]]:
    """Every module of the package read once: its import visitor, its syntax tree, and the
    package's module names."""
    modules = _python_modules()
    names = set(modules)
    trees = {module: ast.parse(path.read_text(encoding="utf-8")) for module, path in modules.items()}
    visitors = {}
    for module, path in modules.items():
        visitor = _Imports(module, path.name == "__init__.py", names)
        visitor.visit(trees[module])
        visitors[module] = visitor
    return visitors, trees, names


def import_graphs(visitors: dict[str, _Imports] | None = None) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``(runtime, typed)``: each module of the package -> the modules of the package it
    imports, at run time, and with the ``TYPE_CHECKING`` imports too (the package's face,
    ``sanggong``, left out: it imports everything lazily by name)."""
    graph: dict[str, set[str]] = defaultdict(set)
    typed: dict[str, set[str]] = defaultdict(set)
    for module, visitor in (visitors if visitors is not None else _visit_all()[0]).items():
        graph[module] |= {m for m in visitor.edges if m != module}
        typed[module] |= {m for m in visitor.edges | visitor.type_edges if m != module}
    graph.pop("sanggong", None)
    typed.pop("sanggong", None)
    return graph, typed


def measure() -> dict[str, object]:
    private: list[str] = []
    back_up: list[str] = []
    type_back_up: list[str] = []
    spec_uses: dict[str, set[str]] = defaultdict(set)
    taken: list[str] = []
    member_uses: list[str] = []
    visitors, trees, names = _visit_all()
    members = {module: _members(tree) for module, tree in trees.items()}
    for module, visitor in visitors.items():
        private += visitor.private
        back_up += visitor.back_up
        type_back_up += visitor.type_back_up
        taken += visitor.taken
        for used in visitor.private_module_names:
            spec_uses[used].add(module)
        others = {name: other for other in sorted(members, reverse=True) if other != module
                  for name in members[other]}
        imported = {name: _class_members(source, cls, trees, names) for name, (source, cls) in visitor.classes.items()}
        member_uses += _member_uses(module, trees[module], members[module], others, set(visitor.aliases),
                                    {name: found for name, found in imported.items() if found})
    graph, typed = import_graphs(visitors)
    files = _tracked()
    sizes = sorted(((len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(ROOT))) for p in files),
                   reverse=True)
    functions = sorted(((n, f"{p.relative_to(ROOT)}:{name}") for p in files if p.suffix != ".pyi"
                        for name, n in _functions(p)), reverse=True)
    circles = _circles(graph)
    typed_circles = _circles(typed)
    return {
        "import circles": len(circles), "circles": circles,
        "import circles, type-only imports counted": len(typed_circles), "typed_circles": typed_circles,
        "imports back up": len(back_up), "back_up": back_up,
        "type-only imports back up": len(type_back_up), "type_back_up": type_back_up,
        "cross-module private imports": len(private), "private": private,
        "largest file": {"lines": sizes[0][0], "file": sizes[0][1]}, "files over 800 lines": [f for n, f in sizes if n > 800],
        "longest function": {"lines": functions[0][0], "function": functions[0][1]},
        "functions over 120 lines": [f"{f} ({n})" for n, f in functions if n > 120],
        "source files": len(files),
        "public modules using a private module's names": len({m for users in spec_uses.values() for m in users}),
        "private-module names used by public modules": len(spec_uses),
        "names taken from another package's private modules": len(taken), "taken": taken,
        "private members used from another module": len(member_uses), "member_uses": member_uses,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--list", action="store_true", help="name every private import and long function")
    args = parser.parse_args()
    figures = measure()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for key in ("import circles", "import circles, type-only imports counted", "imports back up",
                "type-only imports back up", "cross-module private imports",
                "public modules using a private module's names", "private-module names used by public modules",
                "names taken from another package's private modules", "private members used from another module",
                "source files"):
        print(f"{key}: {figures[key]}")
    print(f"largest file: {figures['largest file']['lines']} lines, {figures['largest file']['file']}")  # type: ignore[index]
    print(f"files over 800 lines: {len(figures['files over 800 lines'])}")  # type: ignore[arg-type]
    print(f"longest function: {figures['longest function']['lines']} lines, "  # type: ignore[index]
          f"{figures['longest function']['function']}")  # type: ignore[index]
    print(f"functions over 120 lines: {len(figures['functions over 120 lines'])}")  # type: ignore[arg-type]
    if args.list:
        for key in ("circles", "typed_circles", "back_up", "type_back_up", "private", "taken", "member_uses",
                    "files over 800 lines",
                    "functions over 120 lines"):
            for item in figures[key]:  # type: ignore[attr-defined]
                print(f"  {key}: {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
