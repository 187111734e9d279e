"""The compiled core's limits and table parameters come from their Python sources.

``tools/gen_headers.py`` writes ``csrc/sg_limits.h`` and ``_limits.pxd`` from ``limits.py``,
``csrc/sg_table.h`` from ``_table.TableParams`` and ``_lookups.h`` from ``_spec``; the files
are committed, and the core's C and Cython sources spell none of those numbers or fields
again. These tests regenerate the files in memory and compare them with the committed ones
(a source changed without running the tool fails here), read them against the modules as
Python imports them, look for the old spellings of the limits in the hand-written sources,
and deal at the limits with both implementations.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from sanggong import limits
from sanggong._table import TableParams

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "sanggong"
CSRC = PACKAGE / "csrc"
GENERATED = {CSRC / "sg_limits.h", CSRC / "sg_table.h", CSRC / "sg_table.pxi", PACKAGE / "_limits.pxd"}
GEN_HEADERS = ROOT / "tools" / "gen_headers.py"


def _source_tree() -> None:
    if not (CSRC / "sg_limits.h").exists():
        pytest.skip("no built source tree beside the tests (the generated headers are not installed)")


def _gen_headers() -> ModuleType:
    if not GEN_HEADERS.exists():
        pytest.skip("no tools/gen_headers.py beside the tests")
    spec = importlib.util.spec_from_file_location("_test_gen_headers", GEN_HEADERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_headers_are_what_their_sources_give() -> None:
    """Every generated file, regenerated in memory from its source, is the committed file
    byte for byte (run ``python tools/gen_headers.py`` after changing a source)."""
    _source_tree()
    texts = _gen_headers().outputs()
    assert GENERATED | {PACKAGE / "_lookups.h"} == set(texts)
    for path, text in texts.items():
        assert path.read_bytes() == text.encode("ascii"), f"{path.name} is stale: run python tools/gen_headers.py"


def test_gen_headers_check_finds_a_stale_header(tmp_path: Path) -> None:
    """``--check`` passes on the committed files, writes nothing, and fails naming a file
    whose text differs from its source's (here, a copy of the tools whose table header is
    elsewhere and edited)."""
    _source_tree()
    ok = subprocess.run([sys.executable, str(GEN_HEADERS), "--check"], capture_output=True, text=True)
    assert (ok.returncode, ok.stderr) == (0, "")
    module = _gen_headers()
    texts = module.outputs()
    stale_copy = tmp_path / "sg_table.h"
    stale_copy.write_text(texts[CSRC / "sg_table.h"].replace("int64_t decks;", "int64_t deck;"), encoding="ascii")
    fresh_copy = tmp_path / "sg_limits.h"
    fresh_copy.write_text(texts[CSRC / "sg_limits.h"], encoding="ascii")
    moved = {stale_copy: texts[CSRC / "sg_table.h"], fresh_copy: texts[CSRC / "sg_limits.h"],
             tmp_path / "missing.h": "x"}
    assert module.stale(moved) == [stale_copy, tmp_path / "missing.h"]


def _int_limits() -> dict[str, int]:
    return {name: getattr(limits, name) for name in limits.__all__ if getattr(limits, name) < 2**63}


def test_the_generated_limits_are_limits_py() -> None:
    """Every integer limit that fits 64 bits is in sg_limits.h (those of an int in
    _limits.pxd too) with limits.py's value, and the derived bounds follow from them."""
    _source_tree()
    header = dict(re.findall(r"^#define (SG_\w+)\s+(?:INT64_C\()?(\d+)", (CSRC / "sg_limits.h").read_text(), re.M))
    pxd = dict(re.findall(r"^\s+(SG_\w+)\s+= (\d+)", (PACKAGE / "_limits.pxd").read_text(), re.M))
    for name, value in _int_limits().items():
        assert int(header[f"SG_{name}"]) == value, name
        if value < 2**31:
            assert int(pxd[f"SG_{name}"]) == value, name
    hands = limits.MAX_POSITIONS + 1
    derived = {"SG_MAX_HANDS": hands, "SG_MAX_CARDS": 52 * limits.MAX_DECKS, "SG_MAX_BURNED": limits.MAX_BURN + 1,
               "SG_MAX_ROUND_CARDS": limits.MAX_BURN + 1 + 3 * hands}
    for name, value in derived.items():
        assert int(header[name]) == int(pxd[name]) == value, name
    assert "SG_MAX_SEED" not in header  # (256 bits: Python's alone)


def test_sg_params_is_table_params() -> None:
    """The kernels' struct of a table's parameters has TableParams' fields, in its order,
    each an int64 (so that TableParams.array() is the struct)."""
    _source_tree()
    body = re.search(r"typedef struct \{(.*?)\} sg_params;", (CSRC / "sg_table.h").read_text(), re.S)
    assert body is not None
    assert re.findall(r"int64_t (\w+);", body[1]) == list(TableParams._fields)
    assert re.search(rf"#define SG_N_PARAMS {len(TableParams._fields)}\b", (CSRC / "sg_table.h").read_text())


# How the limits were spelled in the core before they were generated: the cards of 64
# decks, bounds compared with 64, 16 or 17, arrays or constants of 17 hands or 65 burned
# cards (the sources before hold 22 such lines; the shifts of 16 and 64 bits are not limits).
STRAY = re.compile(
    r"\b3328\b|\b52\s*\*\s*64\b|(?<![<>])(?:<=?|>=?)(?![<>])\s*(?:64|16|17)\b(?!\s*[-+*/<])|\[\s*(?:17|65|116)\s*\]"
    r"|\b64\s*\+\s*1\b|\b(?:1\s*\+\s*)?64\s*\+\s*3\s*\*|=\s*(?:17|65|116|3328)\b"
)


def _code(text: str, suffix: str) -> str:
    """The code of a C or Cython source, without its comments and strings."""
    if suffix == ".h":
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m[0].count("\n"), text, flags=re.S)
        return re.sub(r"//.*", "", text)
    text = re.sub(r'"""(?:.|\n)*?"""', lambda m: "\n" * m[0].count("\n"), text)
    return "\n".join(re.sub(r"#.*", "", re.sub(r"f?\"[^\"\n]*\"", '""', line)) for line in text.splitlines())


def test_no_limit_is_spelled_again_in_the_core() -> None:
    """The hand-written C and Cython sources of the core name the limits (SG_MAX_DECKS,
    SG_MAX_HANDS, ...), never their numbers."""
    sources = [p for p in (*CSRC.glob("*.h"), *CSRC.glob("*.pxi"), PACKAGE / "_core.pyx", PACKAGE / "_core.pxd")
               if p not in GENERATED]
    if not sources:
        pytest.skip("no source tree beside the tests")
    found = [f"{path.name}:{n}: {line.strip()}" for path in sources
             for n, line in enumerate(_code(path.read_text(encoding="utf-8"), path.suffix).splitlines(), 1)
             if STRAY.search(line)]
    assert not found, "\n".join(found)


def _deal(impl: ModuleType, table: TableParams, rounds: int = 3) -> np.ndarray:
    hands = np.zeros((rounds, table.positions + 1, 3), np.uint8)
    width = table.burn_first + 1
    impl.deal_chunk(np.random.PCG64(1), table.array(), hands, np.zeros((rounds, width), np.uint8),
                    np.zeros(rounds, np.uint8), np.zeros(rounds, np.uint8), np.zeros(rounds, np.int64),
                    np.zeros(rounds, np.uint16), np.zeros(rounds, np.uint8), np.zeros(rounds, np.uint16))
    return hands


def test_the_kernels_deal_at_the_limits_and_refuse_beyond() -> None:
    """A table of limits.MAX_DECKS decks, MAX_POSITIONS positions and MAX_BURN burns is
    dealt, by the compiled core as by the reference, card for card; one more of any of
    them is refused by both. (Both implementations in one test: they are compared.)"""
    from sanggong import _core
    from sanggong._kernels import twin as _pykernels

    decks, positions, burn = limits.MAX_DECKS, limits.MAX_POSITIONS, limits.MAX_BURN
    hands = positions + 1
    later = burn + 1 + 3 * hands  # a later round's cards, before the cut card at its earliest
    table = TableParams(decks=decks, positions=positions, fresh_deck=0, burn_first=burn, burn_per_round=burn,
                        head_card=1, head_card_burned=1, one_at_a_time=0, cut_low=later, cut_high=later + 10)
    dealt = _deal(_core, table)
    assert dealt.shape == (3, hands, 3)
    assert np.array_equal(dealt, _deal(_pykernels, table))
    for impl in (_core, _pykernels):
        for change in ({"decks": decks + 1}, {"positions": positions + 1}, {"burn_first": burn + 1},
                       {"burn_per_round": burn + 1}):
            with pytest.raises(ValueError, match="do not describe a table"):
                _deal(impl, table._replace(**change))


@pytest.mark.kernels
def test_the_draws_cover_the_largest_shoe(impl: ModuleType) -> None:
    """A box of 52 * MAX_DECKS cards is drawn from; one card more, or a batch of
    MAX_DECKS + 1 decks, is refused with the limit named."""
    n = 52 * limits.MAX_DECKS
    deck = np.arange(n, dtype=np.uint8) % 52
    out = np.zeros(5, np.uint8)
    impl.draw(np.random.PCG64(2), deck, n - 5, 5, out)
    assert sorted(out.tolist()) == sorted(deck[n - 5 :].tolist())
    with pytest.raises(ValueError, match=f"at most {n} cards"):
        impl.draw(np.random.PCG64(2), np.zeros(n + 1, np.uint8), 0, 1, out)
    with pytest.raises(ValueError, match=f"decks must be in 1..{limits.MAX_DECKS}"):
        impl.deal_fresh_batch(np.random.PCG64(2), limits.MAX_DECKS + 1, np.zeros((1, 3), np.uint8))
