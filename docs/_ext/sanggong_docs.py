"""sanggong's own Sphinx extension: what the documentation generates from the package.

Directives
----------
``sanggong-limits``
    The table of every limit of :mod:`sanggong.limits`: name, value and the reason (the
    constant's docstring), read from the module when the page is built.
``sanggong-presets``
    The pay tables and every field of each rule set in ``sanggong.PRESETS``, side by
    side, read from the presets when the page is built.
``sanggong-console``
    Shell commands (one a line) run when the page is built, in a temporary directory
    that the page's blocks share, with ``sanggong`` meaning this interpreter's
    ``python -m sanggong``; shown as a console session with their real output. A command
    whose exit status is not the expected one (``:returncode:``, default 0) fails the
    build. ``:head: N`` keeps the first N lines of each command's output.

References
----------
A ``missing-reference`` handler, run after intersphinx, resolves what autodoc writes but
Sphinx cannot find by name alone:

1. an object documented under another name (``sanggong.rules.RuleSet`` in a signature
   is the documented ``sanggong.RuleSet``): resolved by object identity;
2. a bare class name from an import made only for type checkers (``RuleSet``), when
   exactly one documented class bears it;
3. a name of the standard library or NumPy that no inventory resolved (always, offline):
   rendered as plain text, but only if it really imports from there.

Anything else stays unresolved, and the nitpicky build fails on it.

Checks
------
Every name in ``sanggong.__all__`` must be documented as ``sanggong.<name>``: the build
warns (and so, with ``-W``, fails) for any that is not.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import inspect
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import types
from fractions import Fraction
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from sanggong._presentation import pay_text

logger = logging.getLogger(__name__)

_MISSING = object()

# --- small node builders ------------------------------------------------------------------

_LITERAL = re.compile(r"``(.+?)``")


def _inline(text: str) -> list[nodes.Node]:
    """Docstring text as inline nodes: ``double back-quoted`` parts as literals."""
    out: list[nodes.Node] = []
    pos = 0
    for match in _LITERAL.finditer(text):
        if match.start() > pos:
            out.append(nodes.Text(text[pos : match.start()]))
        out.append(nodes.literal(match[1], match[1]))
        pos = match.end()
    if pos < len(text):
        out.append(nodes.Text(text[pos:]))
    return out


def _xref(target: str, text: str, reftype: str = "data") -> addnodes.pending_xref:
    ref = addnodes.pending_xref("", refdomain="py", reftype=reftype, reftarget=target, refexplicit=True)
    ref += nodes.literal(text, text)
    return ref


def _table(
    header: list[str], rows: list[list[list[nodes.Node]]], widths: list[int], align_right: frozenset[int] = frozenset()
) -> nodes.table:
    table = nodes.table(classes=["sanggong-generated"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)

    def row(cells: list[list[nodes.Node]]) -> nodes.row:
        out = nodes.row()
        for i, cell in enumerate(cells):
            entry = nodes.entry(classes=["text-right"] if i in align_right else [])
            entry += nodes.paragraph("", "", *cell)
            out += entry
        return out

    thead = nodes.thead()
    thead += row([[nodes.Text(h)] for h in header])
    group += thead
    tbody = nodes.tbody()
    for cells in rows:
        tbody += row(cells)
    group += tbody
    return table


# --- sanggong-limits ----------------------------------------------------------------------

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_limit(name: str, value: int) -> str:
    """A limit as people read it: 10¹⁵, 64 KiB, 2²⁵⁶ − 1, 1,024."""
    if name.endswith("_BYTES"):
        for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
            if value >= size and value % size == 0:
                return f"{value // size:,} {unit}"
        return f"{value:,} bytes"
    if value >= 10**6:
        for base in (10, 2):
            exponent = 1
            while base**exponent < value:
                exponent += 1
            power = f"{base}{str(exponent).translate(_SUPERSCRIPT)}"
            if value == base**exponent:
                return power
            if value == base**exponent - 1:
                return f"{power} − 1"
    return f"{value:,}"


class LimitsTable(SphinxDirective):
    """The table of ``sanggong.limits``, generated from the module."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module("sanggong.limits")
        self.env.note_dependency(inspect.getsourcefile(module) or "")
        analyzer = ModuleAnalyzer.for_module(module.__name__)
        docs = analyzer.find_attr_docs()
        rows = []
        for name in module.__all__:
            value = getattr(module, name)
            doc = " ".join(" ".join(docs.get(("", name), [])).split())
            if not doc:
                logger.warning("sanggong.limits.%s has no docstring to show in the limits table", name,
                               location=self.get_location())
            shown = format_limit(name, value).replace(" ", "\u00a0")  # one line: 64 KiB, 2²⁵⁶ − 1
            rows.append([[_xref(f"sanggong.limits.{name}", name)], [nodes.Text(shown)], _inline(doc)])
        return [_table(["limit", "value", "what it bounds, and why"], rows, [26, 12, 62], frozenset({1}))]


# --- sanggong-presets ---------------------------------------------------------------------


def _odds(value: Fraction | None) -> str:
    """A pay as the package writes one everywhere (``7.5:1``); a dash where there is none."""
    return "—" if value is None else pay_text(value)


def _field_docs(cls: type) -> dict[str, str]:
    """``:param name: text`` of a class docstring, as {name: one-line text}."""
    doc = inspect.getdoc(cls) or ""
    out: dict[str, str] = {}
    for match in re.finditer(r"^:param (\w+):(.*(?:\n(?!:)[ \t]+.*)*)", doc, re.M):
        out[match[1]] = " ".join(match[2].split())
    return out


def _value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, frozenset):
        return ", ".join(sorted(value)) or "(none)"
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return str(value)


class PresetsTable(SphinxDirective):
    """Pay tables (``:what: pays``) or every field (``:what: fields``) of every preset."""

    has_content = False
    option_spec = {"what": lambda arg: directives.choice(arg, ("pays", "fields"))}

    def run(self) -> list[nodes.Node]:
        import sanggong
        from sanggong import rules as rules_module
        from sanggong.rules import PAIR_PLUS_CATEGORIES, RuleSet

        self.env.note_dependency(inspect.getsourcefile(rules_module) or "")

        presets = sanggong.PRESETS
        names = list(presets)
        if self.options.get("what", "fields") == "pays":
            keys: list[str] = []
            for rules in presets.values():
                keys += [k for k in rules.pays if k not in keys]
            rows = []
            for key in keys:
                rows.append([[nodes.literal(key, key)], *([nodes.Text(_odds(r.pays.get(key)))] for r in presets.values())])
            for category in PAIR_PLUS_CATEGORIES:
                label = f"pair_plus: {category}"
                rows.append([[nodes.literal(label, label)],
                             *([nodes.Text(_odds(r.pair_plus_pays.get(category)))] for r in presets.values())])
            totals = list(dict.fromkeys(key for r in presets.values() for key in r.total_pays))
            for key in totals:
                label = f"total: {key}"
                rows.append([[nodes.literal(label, label)],
                             *([nodes.Text(_odds(r.total_pays.get(key)))] for r in presets.values())])
            for label, get in (("commission", lambda r: f"{float(r.commission) * 100:g}%" if r.commission else "none"),
                               ("commission_bets", lambda r: _value(r.commission_bets)),
                               ("rounding", lambda r: r.rounding)):
                rows.append([[nodes.literal(label, label)], *([nodes.Text(get(r))] for r in presets.values())])
            width = max(10, 60 // len(names))
            return [_table(["odds of each bet kind", *names], rows, [30] + [width] * len(names))]
        docs = _field_docs(RuleSet)
        rows = []
        for field in dataclasses.fields(RuleSet):
            values = [getattr(r, field.name) for r in presets.values()]
            if field.name in ("pays", "pair_plus_pays", "multipliers", "total_pays"):
                values = [", ".join(f"{k} {v}" for k, v in value.items()) or "(none)" for value in values]
            elif field.name == "ranking":
                values = [f"{v.order}; tiers {', '.join(v.tiers) or '(none)'}; high card {v.high_card}"
                          for v in values]
            rows.append([
                [nodes.literal(field.name, field.name)],
                _inline(docs.get(field.name, "")) or [nodes.Text("—")],
                *([nodes.Text(_value(v))] for v in values),
            ])
        width = max(10, 40 // len(names))
        return [_table(["field", "meaning", *names], rows, [22, 44] + [width] * len(names))]


# --- sanggong-console ---------------------------------------------------------------------

# One temporary root per build, made before any parallel reader forks: a directory for
# each page below it, and a bin directory with a ``sanggong`` command that runs this
# interpreter's ``python -m sanggong`` (so the pages show what this checkout prints).
_CONSOLE_ROOT: dict[str, str] = {}


def _make_console_root(app: Sphinx) -> None:
    root = tempfile.mkdtemp(prefix="sanggong-docs-")
    bin_dir = os.path.join(root, ".bin")
    os.mkdir(bin_dir)
    script = os.path.join(bin_dir, "sanggong")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m sanggong "$@"\n')
    os.chmod(script, 0o755)
    _CONSOLE_ROOT["root"] = root


def _console_dir(env: BuildEnvironment) -> str:
    """The page's working directory, shared by its console blocks."""
    path = os.path.join(_CONSOLE_ROOT["root"], env.docname.replace("/", "__"))
    os.makedirs(path, exist_ok=True)
    return path


class ConsoleDirective(SphinxDirective):
    """Commands run at build time, shown with their output."""

    has_content = True
    option_spec = {
        "returncode": directives.nonnegative_int,
        "head": directives.positive_int,
    }

    def run(self) -> list[nodes.Node]:
        cwd = _console_dir(self.env)
        bin_dir = os.path.join(_CONSOLE_ROOT["root"], ".bin")
        env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
               "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8", "COLUMNS": "100"}
        commands = [line for line in self.content if line.strip()]
        shown: list[str] = []
        for k, command in enumerate(commands):
            last = k == len(commands) - 1
            expected = self.options.get("returncode", 0) if last else 0
            try:
                done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300, check=False)
            except subprocess.TimeoutExpired:
                raise self.error(f"sanggong-console: {command!r} ran for more than 300 s") from None
            output = done.stdout.decode("utf-8", "replace")
            if done.returncode != expected:
                raise self.error(f"sanggong-console: {command!r} exited with status {done.returncode}, "
                                 f"expected {expected}; it printed:\n{output}")
            shown.append(f"$ {command}")
            lines = output.rstrip("\n").split("\n") if output.strip() else []
            head = self.options.get("head")
            if head and len(lines) > head:
                lines = [*lines[:head], "..."]
            shown += lines
        text = "\n".join(shown)
        block = nodes.literal_block(text, text, language="console")
        self.set_source_info(block)
        return [block]


def _cleanup(app: Sphinx, exception: BaseException | None) -> None:
    _IDENTITY.clear()
    if "root" in _CONSOLE_ROOT:
        shutil.rmtree(_CONSOLE_ROOT.pop("root"), ignore_errors=True)


# --- references ---------------------------------------------------------------------------

_ALIASES = {"np": "numpy", "npt": "numpy.typing",
            # a signature autodoc could not evaluate (an annotation naming sanggong.seeds.SeedLike,
            # whose union names NumPy's types only for the type checker) keeps its names bare
            "Executor": "concurrent.futures.Executor"}
# (gymnasium and pettingzoo: the [rl] extra's, named by sanggong.envs' signatures; no inventory offline)
_EXTERNAL_ROOTS = set(sys.stdlib_module_names) | {"builtins", "numpy", "gymnasium", "pettingzoo"}
_CONSTANTS = {"None", "True", "False", "Ellipsis", "NotImplemented"}


def _import(path: str, module: str | None = None) -> Any:
    """The object a dotted name means (from ``module`` first, then absolute), or _MISSING."""
    head, _, rest = path.partition(".")
    if head in _ALIASES:
        path = _ALIASES[head] + ("." + rest if rest else "")
    candidates = [f"{module}.{path}", path] if module else [path]
    for candidate in candidates:
        parts = candidate.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj: Any = importlib.import_module(".".join(parts[:cut]))
            except Exception:  # noqa: BLE001 (any failure: not a module)
                continue
            try:
                for attr in parts[cut:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                break
            return obj
    if "." not in path and hasattr(builtins, path):
        return getattr(builtins, path)
    return _MISSING


_IDENTITY: dict[str, Any] = {}  # for one build, in one process: never pickled with the env


def _identity_map(env: BuildEnvironment) -> dict[int, str]:
    """id(object) -> the name it is documented under, for classes, functions and type
    aliases (whose identity means something; small ints and strings are shared)."""
    if "map" in _IDENTITY:
        return _IDENTITY["map"]
    out: dict[int, str] = {}
    keep: list[Any] = []
    for name, entry in sorted(env.domains["py"].objects.items(), key=lambda item: (len(item[0]), item[0])):
        if entry.objtype not in ("class", "function", "data", "exception"):
            continue
        obj = _import(name)
        if obj is _MISSING:
            continue
        if inspect.isclass(obj) or inspect.isfunction(obj) or isinstance(obj, types.UnionType):
            out.setdefault(id(obj), name)  # shortest name first: sanggong.X before sanggong.mod.X
            keep.append(obj)
    _IDENTITY.update(map=out, keep=keep)  # keep: the ids stay those of live objects
    return out


def _ref(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element, name: str) -> nodes.Node:
    entry = env.domains["py"].objects[name]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, name)


def resolve_missing(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element) -> nodes.Node | None:
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"]
    objects = env.domains["py"].objects
    module = node.get("py:module")
    obj = _import(target, module)
    if obj is not _MISSING:
        name = _identity_map(env).get(id(obj))
        if name is not None:
            return _ref(app, env, node, contnode, name)
    if "." not in target:
        matches = [n for n, e in objects.items() if n.rsplit(".", 1)[-1] == target and e.objtype in ("class", "type")]
        if len(matches) > 1:  # the same class under two names: the shortest, if it is the public one
            matches = [n for n in matches if n == f"sanggong.{target}"]
        if len(matches) == 1:
            return _ref(app, env, node, contnode, matches[0])
    if target in _CONSTANTS:
        return contnode
    if obj is not _MISSING:
        home = getattr(obj, "__module__", None) if not isinstance(obj, types.ModuleType) else obj.__name__
        resolved_from = (target if "." in target else "builtins").split(".")[0]
        resolved_from = _ALIASES.get(resolved_from, resolved_from).split(".")[0]
        roots = {resolved_from, (home or "").split(".")[0]}
        if resolved_from in _EXTERNAL_ROOTS and not (roots & {"sanggong"}):
            return contnode
    return None


# --- type aliases in signatures ----------------------------------------------------------
# autodoc expands a type alias into its union (``Money`` becomes ``int | Decimal | Fraction``,
# numpy's ``ArrayLike`` a union of seven private types), and ``autodoc_type_aliases`` does
# not survive a union with the alias in it (``Money | None``) in Sphinx 8 and 9. So each
# alias named in ``sanggong_type_aliases`` is put back in the signatures by its text.

_NDARRAY = re.compile(r"~numpy\.ndarray\[~?tuple\[~?typing\.Any, \.\.\.\], ~numpy\.dtype\[([^\[\]]+)\]\]")


def _alias_texts(app: Sphinx) -> list[tuple[str, str]]:
    from sphinx.util.typing import stringify_annotation

    cache = getattr(app, "_sanggong_alias_texts", None)
    if cache is None:
        cache = []
        for name in app.config.sanggong_type_aliases:
            obj = _import(name)
            if obj is _MISSING:
                raise ValueError(f"sanggong_type_aliases: {name} does not import")
            for mode in ("smart", "fully-qualified-except-typing"):
                expansion = stringify_annotation(obj, mode)  # type: ignore[arg-type]
                cache.append((expansion, ("~" if mode == "smart" else "") + name))
        cache.sort(key=lambda item: -len(item[0]))  # HandLike (CardsLike | HandValue) first
        app._sanggong_alias_texts = cache  # type: ignore[attr-defined]
    return cache


def _with_aliases(app: Sphinx, text: str | None) -> str | None:
    if not text:
        return text
    for expansion, alias in _alias_texts(app):
        text = text.replace(expansion, alias)
    return _NDARRAY.sub(r"~numpy.typing.NDArray[\1]", text)


def restore_aliases(app: Sphinx, what: str, name: str, obj: Any, options: Any, signature: str | None,
                    return_annotation: str | None) -> tuple[str | None, str | None]:
    return _with_aliases(app, signature), _with_aliases(app, return_annotation)


# --- napoleon, but not on attribute docstrings ---------------------------------------------
# napoleon reads the first line of an attribute's or property's docstring as "type:
# description" (Google style), so "Number of face cards (J, Q, K): 0..3." would become a
# type. sanggong writes such lines as plain sentences: napoleon reads every other docstring.


def _use_napoleon_except_on_attributes(app: Sphinx) -> None:
    from sphinx.ext import napoleon

    app.setup_extension("sphinx.ext.napoleon")
    listeners = app.events.listeners.get("autodoc-process-docstring", [])
    found = [listener for listener in listeners if listener.handler is napoleon._process_docstring]
    if not found:
        logger.warning("sanggong_docs: napoleon's docstring handler was not found; attribute docstrings may be misread")
        return
    for listener in found:
        app.disconnect(listener.id)

    def process(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
        if what not in ("attribute", "property", "data"):
            napoleon._process_docstring(app, what, name, obj, options, lines)

    app.connect("autodoc-process-docstring", process, priority=found[0].priority)


# --- the rules document ---------------------------------------------------------------------
# A docstring that names the project's rules document by its file name links to the rules
# page of this site instead.

_RULES_FILE = re.compile(r"``RULES\.md``|RULES\.md")


def link_rules_document(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    lines[:] = [_RULES_FILE.sub(":doc:`the rules </rules>`", line) for line in lines]


# --- checks -------------------------------------------------------------------------------


def check_public_names(app: Sphinx, env: BuildEnvironment) -> None:
    import sanggong

    objects = env.domains["py"].objects
    for name in sanggong.__all__:
        if f"sanggong.{name}" not in objects:
            logger.warning("sanggong.%s (in sanggong.__all__) is not documented in the API reference", name)


# --- sanggong-report -----------------------------------------------------------------------
# The benchmark report run when the documentation is built (html only), at a reduced size
# (``--hands 2e6 --repeats 3 --chunks 4``: about a minute), its sections as tables and the
# hand-evaluation figures as a bar chart.

_REPORT_ARGS = ["--json", "--hands", "2e6", "--reference-hands", "2e4", "--repeats", "3", "--rounds", "2e5",
                "--chunks", "4"]


def _run_report(srcdir: str) -> dict[str, Any]:
    import json
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(srcdir), "benchmarks", "report.py")
    done = subprocess.run([sys.executable, script, *_REPORT_ARGS], capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"benchmarks/report.py failed:\n{done.stderr[-2000:]}")
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def three_figures(number: float) -> str:
    """A measurement to three significant figures, as the README quotes them (a timing
    on a shared machine is not known better): 0.277, 14,900, 24.1 M.

    >>> three_figures(0.27731), three_figures(14947.3), three_figures(24_123_456.7), three_figures(1.0)
    ('0.277', '14,900', '24.1 M', '1')
    """
    if number == 0:
        return "0"
    rounded = float(f"{number:.3g}")
    for scale, suffix in ((1e9, " G"), (1e6, " M")):
        if abs(rounded) >= scale:
            return f"{rounded / scale:.3g}{suffix}"
    return f"{rounded:,.10g}"


def _figure_rows(section: dict[str, Any]) -> list[list[list[nodes.Node]]]:
    rows = []
    for name, value in section.items():
        number, unit = (value, "ns/hand") if not isinstance(value, list) else value
        text = f"{three_figures(number)} {unit}" if unit != "x" else f"{three_figures(number)}x"
        rows.append([[nodes.Text(name)], [nodes.Text(text)]])
    return rows


class ReportDirective(SphinxDirective):
    """Run ``benchmarks/report.py`` now and show what it measured (html builds only)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        if self.env.app.builder.name != "html":
            return [nodes.paragraph(text="(The report runs when the HTML pages are built.)")]
        data = _run_report(self.env.srcdir)
        meta = data["meta"]
        out: list[nodes.Node] = [nodes.paragraph(text=(
            f"Measured while this page was built: sanggong {meta['sanggong']}, Python {meta['python']}, "
            f"NumPy {meta['numpy']}, {meta['machine']}, {meta['cpus']} CPUs; {meta['hands']:,} hands, "
            f"medians of {meta['repeats']} runs, {meta['chunks']} simulation chunks a contender."))]
        ns = {name: [value, "ns/hand"] for name, value in data["ns_per_hand"].items()}
        ratios = {name: [value, "x"] for name, value in data["ratios"].items()}
        sections = [("hand evaluation", {**ns, **ratios}), ("every preset's ranking against the default's",
                    data["rankings"]), ("shuffling and dealing, one core", data["dealing"]),
                    ("exact analysis of every bet, one core", data["analysis"]),
                    ("simulation, every bet settled every round", data["simulation"]),
                    ("round loops against the best plain-C loop (benchmarks/yardstick.c)",
                     data.get("yardstick_rounds", {})),
                    ("evaluation against the best plain-C loop (benchmarks/yardstick_eval.c)",
                     data.get("evaluation_yardstick", {})),
                    ("a Macau shoe as it is dealt (8 decks, 7 positions), one core", data.get("shoe", {}))]
        for title, section in sections:
            if section:  # (a yardstick needs a C compiler where the pages are built)
                out.append(_table([title, "measured"], _figure_rows(section), [60, 30]))
        figure = self._chart(ns)
        if figure is not None:
            out.append(figure)
        return out

    def _chart(self, ns: dict[str, list[Any]]) -> nodes.Node | None:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return nodes.paragraph(text="(matplotlib is not installed: no chart.)")
        names = [n for n in ns if "reference" not in n]
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(names) + 1))
        ax.barh(names, [ns[n][0] for n in names], color="#3b6ea5")
        ax.set_xlabel("ns per hand (lower is faster)")
        ax.invert_yaxis()
        fig.tight_layout()
        path = os.path.join(self.env.srcdir, "_generated_report.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        self.env.note_dependency(path)
        return nodes.image(uri="_generated_report.png", alt="hand evaluation, ns per hand")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("sanggong_type_aliases", [], "env", list)
    _use_napoleon_except_on_attributes(app)
    app.connect("autodoc-process-signature", restore_aliases)
    app.connect("autodoc-process-docstring", link_rules_document)
    app.add_directive("sanggong-limits", LimitsTable)
    app.add_directive("sanggong-presets", PresetsTable)
    app.add_directive("sanggong-console", ConsoleDirective)
    app.add_directive("sanggong-report", ReportDirective)
    # after intersphinx (priority 500): only what its inventories lack comes here
    app.connect("missing-reference", resolve_missing, priority=900)
    app.connect("env-check-consistency", check_public_names)
    app.connect("builder-inited", _make_console_root)
    app.connect("build-finished", _cleanup)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
