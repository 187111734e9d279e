"""The log-line kernels of verify's fast pass (``render_rounds``, ``check_line``,
``LineTemplate``; ``sanggong._logline``): the compiled core against its pure-Python twin on
the shoes of real games, and the core against arguments made to break it (it raises
ValueError or TypeError, never reads out of bounds)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sanggong import Game, _logline
from sanggong._kernels import twin as _pykernels
from sanggong.records import RoundRecord
from sanggong.rules import PRESETS
from sanggong.verify._fastlog import FastReplay

_core = pytest.importorskip("sanggong._core")

pytestmark = pytest.mark.kernels  # a FastReplay deals and settles through the kernels

KEY = b"operator key"


def _replay(name: str, key: bytes | None = None, seed: int = 11) -> tuple[FastReplay, list[bytes]]:
    """A fast pass from a game's first record, and the game's next lines (a shoe and more)."""
    game = Game(PRESETS[name], seed, key=key)
    lines = [game.play().to_json().encode() for _ in range(40)]
    return FastReplay(PRESETS[name], RoundRecord.from_json(lines[0].decode()), key), lines


def _template(kernels: Any, fast: FastReplay) -> Any:
    """``fast``'s template, made by ``kernels`` (the core's or the twin's)."""
    from sanggong.ranking import tables_for
    from sanggong.records import CARD_JSON as _CARD_JSON

    tables = tables_for(fast.rules.ranking)
    packed = tables.packed_of_triple
    return kernels.LineTemplate(fast.template.ops_line, fast.template.ops_canonical, fast.template.hands,
                                fast.template.consts, fast.words, _CARD_JSON, tables.cls[packed >> 3].astype(np.uint8),
                                tables.rank[packed >> 3].astype(np.uint16), (packed & 7).astype(np.uint8))


def _render(kernels: Any, template: Any, fast: FastReplay, consts: tuple[bytes, ...],
            first_round: int = 7) -> tuple[int, list[bytes], tuple[np.ndarray, ...]]:
    hands, burned, counts, in_shoe = (np.asarray(a) for a in fast.dealt)  # (the core's buffers, as NumPy's)
    rounds = len(hands)
    heads = np.asarray(fast.heads)
    last, cut = np.zeros(rounds, np.uint8), np.arange(rounds, dtype=np.uint16)
    last[-1] = 1
    outputs = (np.zeros(fast.classes.shape, np.uint8), np.zeros(fast.ranks.shape, np.uint16),
               np.zeros(fast.pps.shape, np.uint8))
    out: list[bytes] = []
    missing = kernels.render_rounds(template, consts, hands, burned, counts, heads, in_shoe, last, cut, first_round,
                                    list(fast.tails), *outputs, out)
    return missing, out, outputs


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_core_renders_every_preset_as_its_twin(name: str) -> None:
    """Each round of a shoe, written by both kernels: the same bytes, the same classes,
    ranks and categories; every missing hand text named alike."""
    fast, _ = _replay(name)
    core, twin = _template(_core, fast), _template(_pykernels, fast)
    consts = (b"12", b'{"x":"1"}', b'{"y":"2"}')
    core_result, twin_result = _render(_core, core, fast, consts), _render(_pykernels, twin, fast, consts)
    assert core_result[0] == twin_result[0] == -1
    assert core_result[1] == twin_result[1] and len(core_result[1]) == len(fast.dealt[0])
    for a, b in zip(core_result[2], twin_result[2], strict=True):
        assert np.array_equal(a, b)
    for rendered in core_result[1]:
        line_pieces, canonical_pieces = _logline.unpack(rendered)
        assert _logline.pack(line_pieces, canonical_pieces) == rendered
    tails = list(fast.tails)
    used = sorted({int(c) * 8 + int(p) for c, p in zip(np.asarray(fast.classes).ravel(), np.asarray(fast.pps).ravel(),
                                                       strict=True)})
    fast.tails[used[-1]] = None  # a hand's text not known: both name the first hand that needs it
    try:
        assert _render(_core, core, fast, consts)[0] == _render(_pykernels, twin, fast, consts)[0] >= 0
    finally:
        fast.tails[:] = tails


@pytest.mark.parametrize("signed", ["no", "key", "unchecked"])
def test_the_core_checks_a_line_as_its_twin(signed: str) -> None:
    """A game's own line is accepted by both (its quoted hash), and a line changed
    anywhere (a byte, a hash digit, an HMAC digit, a byte more or fewer) by neither."""
    fast, lines = _replay("macau", KEY if signed != "no" else None)
    fast.key = KEY if signed == "key" else None
    fast.mac = {"no": 0, "key": 1, "unchecked": 2}[signed]
    accepted = fast.run(iter(enumerate(lines[1:], start=2)), lambda carried, bets: True)
    assert accepted[0] == len(lines) - 1  # (the pass's own loop takes the game's lines)
    fast, lines = _replay("macau", KEY if signed != "no" else None)
    fast.key, fast.mac = (KEY if signed == "key" else None), {"no": 0, "key": 1, "unchecked": 2}[signed]
    line = lines[1]
    slip = fast._slip(line[line.find(b',"money":"') + 10:line.find(b',"results":')])
    assert slip is not None
    codes = fast._shoe_codes(slip[1])
    settled = fast._settled(slip, (b"", codes[1]), 1)
    owns = ((slip[2], settled[3], settled[5], fast.prev, settled[1]), (settled[4], slip[3], settled[0], settled[2],
                                                                         fast.prev))
    rendered = fast.shoe_rounds[1]
    hashed = b'"%s"' % RoundRecord.from_json(line.decode()).hash.encode()
    for kernels in (_core, _pykernels):
        assert kernels.check_line(line, rendered, *owns, fast.mac, fast.key) == hashed
    refused = [line[:-1], line + b" ", line[:1] + b" " + line[1:], line.replace(b'"round":2,', b'"round":3,')]
    at = line.find(b'"hash":"') + 8
    refused.append(line[:at] + (b"0" if line[at:at + 1] != b"0" else b"1") + line[at + 1:])
    if signed != "no":
        at = line.find(b'"hmac":"') + 8
        other_digit = line[:at] + (b"0" if line[at:at + 1] != b"0" else b"1") + line[at + 1:]
        refused.append(line[:at] + b"G" + line[at + 1:])  # (never a hex digest)
        if signed == "key":
            refused.append(other_digit)
        else:  # an HMAC left unchecked: any 64 hex digits pass
            assert [kernels.check_line(other_digit, rendered, *owns, fast.mac, fast.key)
                    for kernels in (_core, _pykernels)] == [hashed, hashed]
    for bad in refused:
        assert [kernels.check_line(bad, rendered, *owns, fast.mac, fast.key) for kernels in (_core, _pykernels)] == \
            [None, None], bad


def test_the_core_refuses_what_it_cannot_read() -> None:
    """Arguments made to break the core are refused by a ValueError or TypeError."""
    fast, lines = _replay("macau")
    template = _template(_core, fast)
    hands, burned, counts, in_shoe = (np.asarray(a) for a in fast.dealt)  # (the core's buffers, as NumPy's)
    rounds = len(hands)
    heads, last, cut = np.asarray(fast.heads), np.zeros(rounds, np.uint8), np.zeros(rounds, np.uint16)
    outputs = (np.zeros(fast.classes.shape, np.uint8), np.zeros(fast.ranks.shape, np.uint16),
               np.zeros(fast.pps.shape, np.uint8))
    consts = (b"1", b"{}", b"{}")

    def render(**changes: Any) -> Any:
        args = {"template": template, "consts": consts, "hands": hands, "burned": burned, "burn_counts": counts,
                "head_cards": heads, "round_in_shoe": in_shoe, "last": last, "cut_card": cut, "first_round": 1,
                "tails": list(fast.tails), "classes": outputs[0], "ranks": outputs[1], "pps": outputs[2], "out": []}
        args.update(changes)
        return _core.render_rounds(*args.values())

    assert render() == -1
    bad_cards = hands.copy()
    bad_cards[-1, -1, -1] = 52
    bad_burned = burned.copy()
    bad_burned[0, 0] = 200
    cases = [
        {"hands": bad_cards}, {"burned": bad_burned}, {"burn_counts": np.full(rounds, burned.shape[1] + 1, np.uint8)},
        {"head_cards": np.full(rounds, 60, np.uint8)}, {"last": last[:-1]}, {"cut_card": cut[1:]},
        {"hands": hands[:, :-1].copy()}, {"classes": outputs[0][:-1]}, {"consts": consts[:2]},
        {"consts": (b"1", "{}", b"{}")}, {"tails": [3 if t is not None else None for t in fast.tails]},
    ]
    for changes in cases:
        with pytest.raises((ValueError, TypeError)):
            render(**changes)
    tails = [b"x" if t is not None else None for t in fast.tails]
    tails[int(outputs[0][0, 0]) * 8 + int(outputs[2][0, 0])] = None
    assert render(tails=tails) == 0  # (the first hand's text not known: named, nothing written)
    ops = template.ops_line
    words, cards = fast.words, __import__("sanggong.records", fromlist=["CARD_JSON"]).CARD_JSON
    arrays = (np.zeros(140608, np.uint8), np.zeros(140608, np.uint16), np.zeros(140608, np.uint8))
    for bad in ([(b"a", _logline.HAND + 9), (b"", _logline.END)], [(b"a", _logline.END), (b"", _logline.END)],
                [(b"a", _logline.CONST + 3), (b"", _logline.END)], [("a", _logline.ROUND), (b"", _logline.END)],
                [(b"a", _logline.WIN), (b"", _logline.END)], []):
        with pytest.raises((ValueError, TypeError)):
            _core.LineTemplate(bad, ops, template.hands, 3, words, cards, *arrays)
    with pytest.raises(ValueError):
        _core.LineTemplate(ops, ops, template.hands, 3, words, cards, arrays[0][:-1], *arrays[1:])
    with pytest.raises(ValueError):
        _core.LineTemplate(ops, ops, template.hands, 3, words, cards, arrays[0], arrays[1], arrays[2] + 8)
    with pytest.raises(ValueError):
        _core.LineTemplate(ops, ops, 65, 3, words, cards, *arrays)
    out: list[bytes] = []
    render(out=out)
    rendered = out[0]
    owns = ((b"",) * 5, (b"",) * 5)
    rng = np.random.default_rng(5)
    garbage = [b"", rendered[:7], rendered[:-1], rendered + b"x", b"\xff" * 64, rendered[:8] + b"\xff" * 40]
    garbage += [bytes(rng.integers(0, 256, int(rng.integers(0, 300)), dtype=np.uint8)) for _ in range(300)]
    for packed in garbage:
        with pytest.raises(ValueError):
            _core.check_line(lines[0], packed, *owns, 0, None)
    with pytest.raises(ValueError):
        _core.check_line(lines[0], rendered, owns[0][:4], owns[1], 0, None)  # holes that do not match
    with pytest.raises(TypeError):
        _core.check_line(lines[0], rendered, (b"",) * 4 + ("",), owns[1], 0, None)
    signed, signed_lines = _replay("macau", KEY)
    with pytest.raises(TypeError):
        _core.check_line(signed_lines[1], _logline.pack(*_logline.unpack(signed.shoe_rounds[1])), *owns, 1,
                         "key")  # (a key is bytes)


def test_pack_and_unpack() -> None:
    for line, canonical in [((b"",), (b"",)), ((b"a", b"bc", b""), (b"xyz",)), ((b"%s" * 50,) * 7, (b"\x00",) * 6)]:
        assert _logline.unpack(_logline.pack(line, canonical)) == (line, canonical)
    with pytest.raises(ValueError):
        _logline.unpack(_logline.pack((b"a",), (b"b",)) + b"c")
