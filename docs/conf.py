"""Sphinx configuration of sanggong's documentation.

Build it with ``bash tools/build_docs.sh [OUT]`` (HTML with ``-W --keep-going -n``, then
the doctest builder), or by hand, from the repository's root::

    sphinx-build -W --keep-going -n -b html docs OUT/html
    sphinx-build -W --keep-going -n -b doctest docs OUT/doctest

Pages are Markdown (MyST). Code examples are ``{doctest}`` blocks: the doctest builder
runs every one of them. Command-line examples are ``{sanggong-console}`` blocks, whose
output is produced by running the command when the page is built, and the tables of
limits and presets are generated from the package (``docs/_ext/sanggong_docs.py``), so
none of them can drift from the code.
"""

from __future__ import annotations

import doctest
import os
import sys
import tomllib
from pathlib import Path

import sanggong

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent / "benchmarks"))  # the figures drawn from the benchmarks' own code
sys.path.insert(0, str(DOCS.parent / "examples"))  # the tutorials' examples (docs/tutorials/learning.md)

project = "sanggong"
author = "The sanggong developers"
copyright = "the sanggong developers"  # noqa: A001 (Sphinx's name for it)
release = sanggong.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
    "sphinxarg.ext",
    "matplotlib.sphinxext.plot_directive",
    "sanggong_docs",
]

# --- figures: drawn by the package's own code while the pages are built ---------------------
plot_include_source = False
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 110)]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
language = "en"

# No "smart" dashes or quotes: option names (--rules) and shell quoting in command-line
# help and examples must stay as typed.
smartquotes = False

# Warnings are errors (tools/build_docs.sh passes -W -n): every reference must resolve.
nitpicky = True

# --- MyST ---------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "substitution"]
# Figures the pages state about the package itself, from where the package keeps them (never
# typed into a page): the wheels' size budget, which the wheels workflow checks every wheel
# against (tools/check_wheel.sh), and the time the set-up command's simulation takes.
with open(DOCS.parent / "pyproject.toml", "rb") as _f:
    _wheel_budget = tomllib.load(_f)["tool"]["sanggong"]["wheel"]["max-bytes"]
myst_substitutions = {
    "wheel_budget": f"{_wheel_budget / 1000:.0f} kB",
    # 100 million online rounds on the two cores of the development machine: 1.6 s of rounds
    # at 64 M rounds/s (docs/performance.md), and the start and the exact analysis
    "simulate_time": "2 to 3.5 s",
}
myst_heading_anchors = 3

# --- autodoc and napoleon -----------------------------------------------------------------
# Docstrings use reST fields (:param:, :raises:, :ivar:); napoleon also reads Google- and
# NumPy-style sections, should a docstring use them.
autodoc_default_options = {"member-order": "bysource", "undoc-members": True}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_class_signature = "mixed"
python_use_unqualified_type_names = True
# Type aliases shown by name in signatures (sanggong_docs puts them back: see there).
sanggong_type_aliases = [
    "sanggong.settlement.HandLike",
    "sanggong.CardsLike",
    "sanggong.CardLike",
    "sanggong.money.Money",
    "numpy.typing.ArrayLike",
]
napoleon_google_docstring = True
napoleon_numpy_docstring = True
napoleon_use_ivar = True

# --- intersphinx: online only -------------------------------------------------------------
# The build must pass with no network (CI here has none), and intersphinx cannot fetch the
# Python and NumPy inventories without one. So the mapping is switched on only where the
# network is known to be there: on Read the Docs (which sets READTHEDOCS=True), or when
# SANGGONG_DOCS_INTERSPHINX=1. Offline, references to the standard library and NumPy
# (int, Fraction, numpy.ndarray, ...) are rendered as plain text by sanggong_docs'
# fallback, which accepts a name only if it imports from the standard library or NumPy,
# so a misspelt or undocumented sanggong name still fails the nitpicky build. Online, the
# fallback runs after intersphinx, only for names its inventories lack.
_online = os.environ.get("READTHEDOCS") == "True" or os.environ.get("SANGGONG_DOCS_INTERSPHINX") == "1"
intersphinx_mapping = (
    {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
    }
    if _online
    else {}
)
intersphinx_timeout = 30

# --- doctest ------------------------------------------------------------------------------
# The pages' {doctest} blocks are the doctests of this build. The >>> examples inside the
# docstrings shown by autodoc are not run here: they need their module's namespace, and
# the test suite runs them (tests/test_doctests.py, for the modules it lists).
doctest_test_doctest_blocks = ""
doctest_default_flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.DONT_ACCEPT_TRUE_FOR_1
# Each page's examples run in a fresh temporary directory (some write files), removed after.
doctest_global_setup = """
import os as _os, shutil as _shutil, tempfile as _tempfile
_docs_cwd, _docs_tmp = _os.getcwd(), _tempfile.mkdtemp(prefix="sanggong-doctest-")
_os.chdir(_docs_tmp)
import sanggong
"""
doctest_global_cleanup = """
_os.chdir(_docs_cwd)
_shutil.rmtree(_docs_tmp, ignore_errors=True)
"""

# --- HTML ---------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"sanggong {release}"
html_static_path: list[str] = []
