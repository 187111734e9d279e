"""The documentation's figures: every plot directive names its own file, so that no figure is
drawn under another's name; and the figures the pages state about the package itself come
from where the package keeps them.

The plot directive names a figure it is not told to name ``<page>-<n>``, n counting the
directives of the page's document; MyST parses each ``{eval-rst}`` block as a document of its
own, so every such figure of a page was ``<page>-1``: the second overwrote the first's file
and the page showed the first twice. A name given (``:filename-prefix:``) counts nothing.
(Static: the build itself, tools/build_docs.sh, checks the pages it writes. The directive
stays in an ``{eval-rst}`` block: MyST cannot run it as a ``{plot}`` fence.)"""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"

# a directive in a MyST fence (```{plot}), or in reST (.. plot::, in an {eval-rst} block or a docstring)
_MYST = re.compile(r"^(?P<fence>`{3,}|:{3,})\{plot\}[^\n]*\n(?P<body>.*?)^(?P=fence)\s*$", re.M | re.S)
_REST = re.compile(r"^(?P<indent>[ \t]*)\.\. plot::[^\n]*\n(?P<body>(?:(?P=indent)[ \t]+[^\n]*\n|[ \t]*\n)*)", re.M)
_PREFIX = re.compile(r"^[ \t]*:filename-prefix:[ \t]*(\S+)[ \t]*$", re.M)


def _plots() -> list[tuple[str, str | None]]:
    """Every plot directive of the pages: (where, the file name it gives, or None)."""
    found = []
    for page in sorted(DOCS.rglob("*.md")) + sorted(DOCS.rglob("*.rst")):
        text = page.read_text(encoding="utf-8")
        for pattern in (_MYST, _REST):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                named = _PREFIX.search(match["body"])
                found.append((f"{page.relative_to(DOCS)}:{line}", named[1] if named else None))
    return found


def test_every_figure_is_named_and_no_two_share_a_name() -> None:
    plots = _plots()
    unnamed = [where for where, name in plots if name is None]
    assert not unnamed, f"plot directives without :filename-prefix: (their figures can share a file): {unnamed}"
    names = [name for _, name in plots]
    shared = sorted({n for n in names if names.count(n) > 1})
    assert not shared, f"figures drawn under one file name: {shared}"


def test_at_least_six_distinct_figures() -> None:
    """The tutorials show a figure of each kind the package draws: shoes (EV by count, pay
    design), simulation (convergence, bankrolls), detection and analysis."""
    names = {name for _, name in _plots() if name is not None}
    assert len(names) >= 6, sorted(names)
    pages = {where.partition(":")[0] for where, _ in _plots()}
    assert {"tutorials/shoe.md", "tutorials/simulation.md", "tutorials/analysis.md"} <= pages


def test_the_pattern_finds_both_spellings() -> None:
    """The test reads what it means to read: a MyST fence and an {eval-rst} block, named or not."""
    text = ("```{plot}\n:filename-prefix: a\n\nx = 1\n```\n\n```{eval-rst}\n.. plot::\n\n   x = 2\n```\n"
            "```{eval-rst}\n.. plot::\n   :filename-prefix: b\n\n   x = 3\n```\n")
    myst = [_PREFIX.search(m["body"]) for m in _MYST.finditer(text)]
    rest = [_PREFIX.search(m["body"]) for m in _REST.finditer(text)]
    assert [m[1] if m else None for m in myst] == ["a"]
    assert [m[1] if m else None for m in rest] == [None, "b"]


# --- figures the pages state about the package itself ---------------------------------------------

_WHEEL_SIZE = re.compile(r"\d[\d.,]*\s*(?:[kKM]i?B|bytes)\b[^.\n]{0,40}\bwheel|\bwheels?\b[^.\n]{0,60}\d[\d.,]*\s*(?:[kKM]i?B)\b")


def test_no_page_types_in_the_wheels_size() -> None:
    """The wheels' size is the budget the wheels workflow checks every wheel against
    (pyproject.toml's [tool.sanggong.wheel] max-bytes), which the pages read through
    docs/conf.py's ``wheel_budget``: a size typed into a page (once "at most 560 kB" with
    the budget at 795 kB and the wheel at 722) goes stale with the next kernel."""
    typed = [f"{page.relative_to(DOCS)}: {m[0]!r}" for page in sorted(DOCS.rglob("*.md"))
             for m in _WHEEL_SIZE.finditer(page.read_text(encoding="utf-8"))]
    assert not typed, typed
    assert "{{ wheel_budget }}" in (DOCS / "installation.md").read_text(encoding="utf-8")
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert '["tool"]["sanggong"]["wheel"]["max-bytes"]' in conf and '"wheel_budget":' in conf


def test_the_pages_state_the_set_up_commands_time_one_way() -> None:
    """The set-up command's time is one figure (docs/conf.py's ``simulate_time``), not one per
    page (they once said "about 3 s" and "2 to 3.5 s")."""
    for name in ("index.md", "installation.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        assert "{{ simulate_time }}" in text, name
