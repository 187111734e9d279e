"""The command line under every preset: ``--rules`` on every subcommand, the ranking-
dependent fields of ``eval``, the ``compare`` subcommand, and the two new table shapes of
``settle`` (a banker game, whose losses can cost more than the stake, and a Dragon/Phoenix
table of two hands)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from cli_run import fails, run

from sanggong import evaluate, settle
from sanggong.cli import main
from sanggong.rules import CHINESE, PRESETS

ALL = list(PRESETS)




# --- compare: hand-worked examples ----------------------------------------------------------

# (first, second) -> the result under each preset, in the order of ALL:
# macau, online, nagaworld, genting, genting_no_commission (the default ranking: points, then
# faces, 3P on top, equal classes tie), prosperity (faces first, then points), san_gong
# (trips > three faces > points, then the highest card by rank and suit) and chinese
# (大三公 face trips > 小三公 trips > 混三公 three faces > points, then the highest card).
COMPARISONS = {
    # both 3P under the default ranking: a tie; K-K-K beats Q-Q-Q on its high card elsewhere
    ("Kh Kd Ks", "Qh Qd Qs"): [0, 0, 0, 0, 0, 0, 1, 1],
    # 5 points each (2P5 each by default): a tie, but for the K high beating the Q high
    ("5c Jd Kh", "Qs Jc 5d"): [0, 0, 0, 0, 0, 0, 1, 1],
    # 2P9 beats 9-9-9 (7 points); where trips is a tier, 9-9-9 wins
    ("Kh Qs 9d", "9c 9h 9s"): [1, 1, 1, 1, 1, 1, -1, -1],
    # 2P2 (two faces, 2 points) against P8: the 8 wins, but for prosperity's faces-first order
    ("Jh Qd 2c", "9c 9d Kh"): [-1, -1, -1, -1, -1, 1, -1, -1],
    # 2-2-2 (6 points) against J-Q-K (3P): the 3P wins, but where trips ranks above three faces
    ("2c 2d 2h", "Jh Qd Ks"): [-1, -1, -1, -1, -1, -1, 1, 1],
    # J-J-J beats 2-2-2 under every ranking (3P, face trips against trips)
    ("Jc Jd Jh", "2c 2d 2h"): [1, 1, 1, 1, 1, 1, 1, 1],
    # P9 against 2P9: the faces decide by default; 9 points each where only points count,
    # then K♥ beats K♦ (hearts above diamonds)
    ("Kh 9d Ts", "9c Kd Qh"): [-1, -1, -1, -1, -1, -1, 1, 1],
    # a hand against itself ties everywhere
    ("Ah 2h 3h", "Ah 2h 3h"): [0, 0, 0, 0, 0, 0, 0, 0],
}
CASES = [(preset, a, b, results[i]) for (a, b), results in COMPARISONS.items() for i, preset in enumerate(ALL)]


def test_the_table_covers_every_preset() -> None:
    assert ALL == ["macau", "online", "nagaworld", "genting", "genting_no_commission", "prosperity", "san_gong",
                   "chinese"]


@pytest.mark.parametrize(("preset", "a", "b", "expected"), CASES, ids=[f"{p}:{a}/{b}" for p, a, b, _ in CASES])
@pytest.mark.kernels
def test_compare_hand_worked(preset: str, a: str, b: str, expected: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", "--rules", preset, a, b], capsys) == f"{expected}\n"
    assert run(["compare", "--rules", preset, b, a], capsys) == f"{-expected}\n"  # antisymmetric


@pytest.mark.parametrize(("a", "b", "expected"), [("Kh Kd Ks", "Qh Qd Qs", 0), ("5c Jd Kh", "Qs Jc 5d", 0),
                                                  ("Kh Qs 9d", "9c 9h 9s", 1)])
@pytest.mark.kernels
def test_compare_defaults_to_the_default_ranking(a: str, b: str, expected: int,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", a, b], capsys) == f"{expected}\n"


@pytest.mark.kernels
def test_compare_takes_six_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", "--rules", "san_gong", "5c", "Jd", "Kh", "Qs", "Jc", "5d"], capsys) == "1\n"
    assert run(["compare", "--rules", "chinese", "K♥ K♦ K♠", "Q♥ Q♦ Q♠"], capsys) == "1\n"


@pytest.mark.kernels
def test_compare_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(["compare", "--rules", "chinese", "--json", "Kh Kd Ks", "Qh Qd Qs"], capsys))
    assert data == {
        "result": 1,
        "a": {"cards": ["Kh", "Kd", "Ks"], "label": "3P trips", "rank": evaluate("Kh Kd Ks", "chinese").rank,
              "tier": "face_trips", "points": 0, "faces": 3, "pair_plus": "three of a kind"},
        "b": {"cards": ["Qh", "Qd", "Qs"], "label": "3P trips", "rank": evaluate("Qh Qd Qs", "chinese").rank,
              "tier": "face_trips", "points": 0, "faces": 3, "pair_plus": "three of a kind"},
        "rules": "chinese",
    }
    assert data["a"]["rank"] > data["b"]["rank"]
    data = json.loads(run(["compare", "--json", "Kh Kd Ks", "Qh Qd Qs"], capsys))
    assert data["result"] == 0 and data["rules"] == "macau"
    assert data["a"]["label"] == data["b"]["label"] == "3P" and data["a"]["rank"] == data["b"]["rank"] == 30
    assert data["a"]["tier"] == "three_faces"
    data = json.loads(run(["compare", "--rules", "san_gong", "--json", "9c 9d 9h", "Kh Qs 9d"], capsys))
    assert data["result"] == 1 and data["a"]["tier"] == "trips" and data["b"]["tier"] is None
    assert data["b"]["label"] == "9"  # san_gong ranks by points alone: no faces in the label


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.kernels
def test_compare_json_matches_the_api(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    from sanggong import compare

    for a, b in COMPARISONS:
        data = json.loads(run(["compare", "--rules", preset, "--json", a, b], capsys))
        assert data["result"] == compare(a, b, rules=preset) and data["rules"] == preset
        for key, cards in (("a", a), ("b", b)):
            hand = evaluate(cards, preset)
            assert (data[key]["label"], data[key]["rank"], data[key]["tier"]) == (hand.label, hand.rank, hand.tier)


@pytest.mark.kernels
def test_compare_and_eval_take_a_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "banker-game.toml"
    CHINESE.replace(name="my banker game").save(table)
    assert run(["compare", "--rules-file", str(table), "Kh Kd Ks", "Qh Qd Qs"], capsys) == "1\n"
    data = json.loads(run(["eval", "--rules-file", str(table), "--json", "Kh", "Kd", "Ks"], capsys))
    assert data["rules"] == "my banker game" and data["label"] == "3P trips" and data["tier"] == "face_trips"


# --- eval under every ranking ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("cards", ["Kh Kd Ks", "Jh Qd Ks", "9c 9h 9s", "Kh Qs 9d", "Ts Jh Qd", "Ah 2h 3h"])
@pytest.mark.kernels
def test_eval_ranks_by_the_preset(preset: str, cards: str, capsys: pytest.CaptureFixture[str]) -> None:
    hand = evaluate(cards, preset)
    data = json.loads(run(["eval", "--rules", preset, "--json", cards], capsys))
    assert data == {"cards": cards.split(), "label": hand.label, "rank": hand.rank, "tier": hand.tier,
                    "points": hand.points, "faces": hand.faces, "pair_plus": hand.pair_plus.label, "rules": preset}
    tier = "" if hand.tier is None else f", tier {hand.tier}"
    assert run(["eval", "--rules", preset, *cards.split()], capsys) == (
        f"{cards}: {hand.label} (rank {hand.rank}{tier}, points {hand.points}, faces {hand.faces}, "
        f"pair plus: {hand.pair_plus.label})\n")


@pytest.mark.kernels
def test_eval_hand_worked(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["eval", "--rules", "chinese", "Kh", "Kd", "Ks"], capsys)
    assert out.startswith("Kh Kd Ks: 3P trips (rank ") and ", tier face_trips, points 0, faces 3," in out
    assert json.loads(run(["eval", "--rules", "chinese", "--json", "7c 7d 7h"], capsys))["label"] == "trips"
    assert json.loads(run(["eval", "--rules", "macau", "--json", "7c 7d 7h"], capsys))["label"] == "1"
    data = json.loads(run(["eval", "--rules", "san_gong", "--json", "Kh Qs 9d"], capsys))
    assert (data["label"], data["tier"]) == ("9", None)
    data = json.loads(run(["eval", "--json", "Kh Qs 9d"], capsys))
    assert (data["label"], data["rank"], data["tier"]) == ("2P9", 29, None)


# --- settle: every preset, and the two new shapes ---------------------------------------------

DEFAULT_SLIP = ["--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", "--bet", "win:1=100"]
SLIPS = {
    "macau": DEFAULT_SLIP, "nagaworld": DEFAULT_SLIP, "genting": DEFAULT_SLIP,
    "genting_no_commission": DEFAULT_SLIP, "prosperity": DEFAULT_SLIP,
    "online": ["--banker", "9c 9h 5h", "--hand", "1=Kh Qs 9d", "--bet", "win:1=100", "--bet", "lose:1=100",
               "--bet", "pair_plus:banker=10"],
    "san_gong": ["--dragon", "Qs Jc 5d", "--phoenix", "5c Jd Kh", "--bet", "dragon=100", "--bet", "phoenix=100",
                 "--bet", "tie=10"],
    "chinese": ["--banker", "Qh Qd 8d", "--hand", "1=Kh Kd Ks", "--hand", "2=2c 7c 3d",
                "--bet", "player:1=100", "--bet", "player:2=100"],
}
SESSION_BETS = dict.fromkeys(ALL, "win:1") | {"san_gong": "dragon", "chinese": "player:1"}


def _api_settlement(preset: str) -> dict[str, object]:
    args = SLIPS[preset]
    options: dict[str, list[str]] = {}
    for option, value in zip(args[::2], args[1::2], strict=True):
        options.setdefault(option, []).append(value)
    banker = (options.get("--banker") or options["--phoenix"])[0]
    hands = {int(k): v for k, _, v in (h.partition("=") for h in options.get("--hand", []))}
    if "--dragon" in options:
        hands[1] = options["--dragon"][0]
    bets = {k: int(v) for k, _, v in (b.partition("=") for b in options["--bet"])}
    result: dict[str, object] = json.loads(json.dumps(settle(PRESETS[preset], banker, hands, bets).to_dict()))
    return result


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.kernels
def test_settle_every_preset(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["settle", "--rules", preset, *SLIPS[preset]], capsys)
    assert out.startswith(f"rules: {preset}; amounts in minor units, 100 = 1.00\n") and "house net" in out
    data = json.loads(run(["settle", "--rules", preset, "--json", *SLIPS[preset]], capsys))
    assert data == _api_settlement(preset)
    staked, returned, carried, net = (Fraction(str(data[k])) for k in ("staked", "returned", "carried", "house_net"))
    assert staked - returned - carried == net


@pytest.mark.kernels
def test_settle_a_banker_game(capsys: pytest.CaptureFixture[str]) -> None:
    """K-K-K (大三公, x6) beats the banker's 8 (x2): 100 + 600 back; 2 points lose to the 8
    and cost the stake x 2: the player pays 100 more than the stake, returned -100."""
    out = run(["settle", "--rules", "chinese", *SLIPS["chinese"]], capsys)
    assert out.splitlines() == [
        "rules: chinese; amounts in minor units, 100 = 1.00",
        "banker:    Qh Qd 8d  8  (pair)",
        "player 1:  Kh Kd Ks  3P trips  (three of a kind)",
        "player 2:  2c 7c 3d  2",
        "bet       stake  outcome  detail  returned  commission  carried",
        "player:1    100  win      x6           700           0        0",
        "player:2    100  lose     x2          -100           0        0",
        "staked 200, returned 600, commission 0, carried 0, house net -400",
    ]
    data = json.loads(run(["settle", "--rules", "chinese", "--json", *SLIPS["chinese"]], capsys))
    assert [(b["outcome"], b["detail"], b["returned"], b["net"]) for b in data["bets"]] == [
        ("win", "x6", 700, 600), ("lose", "x2", -100, -200)]
    assert (data["staked"], data["returned"], data["house_net"]) == (200, 600, -400)
    argv = ["settle", "--rules", "chinese", "--banker", "Qh Qd 8d", "--hand", "2=2c 7c 3d", "--bet", "player:2=1.50",
            "--unit", "major"]
    assert "player:2   1.50  lose     x2         -1.50" in run(argv, capsys)
    data = json.loads(run([*argv, "--json"], capsys))
    assert (data["bets"][0]["returned"], data["bets"][0]["net"], data["house_net"]) == ("-1.50", "-3.00", "3.00")
    assert Decimal(data["staked"]) - Decimal(data["returned"]) == Decimal(data["house_net"])


@pytest.mark.kernels
def test_settle_dragon_and_phoenix(capsys: pytest.CaptureFixture[str]) -> None:
    """Dragon Q-J-5 against Phoenix 5-J-K: 5 points each, the K high wins for Phoenix
    (0.94:1); Tie pays 8:1 on equal points."""
    out = run(["settle", "--rules", "san_gong", *SLIPS["san_gong"]], capsys)
    assert out.splitlines()[:3] == ["rules: san_gong; amounts in minor units, 100 = 1.00", "dragon:   Qs Jc 5d  5", "phoenix:  5c Jd Kh  5"]
    data = json.loads(run(["settle", "--rules", "san_gong", "--json", *SLIPS["san_gong"]], capsys))
    assert [(b["bet"], b["outcome"], b["returned"]) for b in data["bets"]] == [
        ("dragon", "lose", 0), ("phoenix", "win", 194), ("tie", "win", 90)]
    # the Phoenix hand sits where the banker's does: --banker and --hand 1= say the same
    same = json.loads(run(["settle", "--rules", "san_gong", "--json", "--banker", "5c Jd Kh", "--hand", "1=Qs Jc 5d",
                           "--bet", "dragon=100", "--bet", "phoenix=100", "--bet", "tie=10"], capsys))
    assert same == data


@pytest.mark.kernels
def test_settle_the_side_bets(capsys: pytest.CaptureFixture[str]) -> None:
    """Dragon Q-J-5 (5 points) against Phoenix 5-J-K (5): odd on both, no pair; Phoenix
    wins on its K high with 5 points: the 1-6 total pays 1:1, the others lose. The table's
    bets catalogue and its rule file name every side bet."""
    slip = ["--bet", "odd:dragon=100", "--bet", "even:phoenix=100", "--bet", "pair:dragon=100",
            "--bet", "total:1-6=100", "--bet", "total:7-8=100", "--bet", "total:9=100"]
    data = json.loads(run(["settle", "--rules", "san_gong", "--json", "--dragon", "Qs Jc 5d", "--phoenix", "5c Jd Kh",
                           *slip], capsys))
    assert [(b["bet"], b["outcome"], b["returned"], b["odds"]) for b in data["bets"]] == [
        ("odd:dragon", "win", 194, "47/50"), ("even:phoenix", "lose", 0, None), ("pair:dragon", "lose", 0, None),
        ("total:1-6", "win", 200, "1"), ("total:7-8", "lose", 0, None), ("total:9", "lose", 0, None)]
    returned = json.loads(run(["settle", "--rules", "san_gong", "--json", "--dragon", "Jc Qd Kh", "--phoenix",
                               "4c 3d 9h", "--bet", "total:9=100", "--bet", "even:dragon=100"], capsys))
    assert [(b["outcome"], b["returned"]) for b in returned["bets"]] == [("push", 100), ("win", 194)]  # 3P: 0
    rows = {line.split()[0]: line for line in run(["bets", "--rules", "san_gong"], capsys).splitlines()[2:]}
    assert rows["total:9"].endswith("4:1") and rows["total:7-8"].endswith("2:1") and rows["pair:phoenix"].endswith(
        "0.94:1")
    text = run(["rules", "show", "san_gong"], capsys)
    assert "\n[total_pays]\n1-6 = 1\n7-8 = 2\n9 = 4\n" in text and 'total_zero = "winner"' in text


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--phoenix", "5c Jd Kh", "--bet", "total:0=1"],
         "unknown bet 'total:0': no such total bet"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--phoenix", "5c Jd Kh", "--bet", "odd=1"],
         "unknown bet 'odd': no such odd bet"),
        (["--rules", "online", "--banker", "Qs Jc 5d", "--hand", "1=5c Jd Kh", "--bet", "pair_plus:dragon=1"],
         "no such pair_plus bet"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--bet", "dragon=100"], "give --phoenix CARDS"),
        (["--rules", "san_gong", "--phoenix", "Qs Jc 5d", "--bet", "dragon=100"], "give --dragon CARDS"),
        (["--rules", "san_gong", "--bet", "tie=5"], "give --dragon and --phoenix CARDS"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--phoenix", "5c Jd Kh", "--banker", "5c Jd Kh",
          "--bet", "dragon=1"], "--phoenix and --banker"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--hand", "1=Qs Jc 5d", "--phoenix", "5c Jd Kh",
          "--bet", "dragon=1"], "--dragon and --hand 1"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--phoenix", "5c Jd Kh", "--bet", "win:1=1"],
         "unknown bet 'win:1'"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 5d", "--phoenix", "Qs Jd Kh", "--bet", "dragon=1"],
         "the hands hold Qs 2 times"),
        (["--rules", "san_gong", "--dragon", "Qs Jc 1d", "--phoenix", "5c Jd Kh", "--bet", "dragon=1"],
         "'1d' is not a card"),
        (["--rules", "macau", "--dragon", "Qs Jc 5d", "--banker", "5c Jd Kh", "--bet", "win:1=1"],
         "--dragon: only a Dragon/Phoenix table"),
        (["--rules", "chinese", "--phoenix", "5c Jd Kh", "--bet", "player:1=1"], "--phoenix: only a Dragon/Phoenix"),
        (["--rules", "chinese", "--hand", "1=Kh Kd Ks", "--bet", "player:1=1"], "required: --banker"),
        (["--rules", "chinese", "--banker", "Qh Qd 8d", "--hand", "1=Kh Kd Ks", "--bet", "win:1=1"],
         "unknown bet 'win:1'"),
        (["--rules", "chinese", "--banker", "Qh Qd 8d", "--hand", "1=Kh Kd Ks", "--bet", "player:5=1"],
         "unknown bet 'player:5'"),
        (["--rules", "chinese", "--banker", "Qh Qd 8d", "--hand", "1=Kh Kd Ks", "--bet", "player:2=1"],
         "no hand given for position 2"),
        (["--rules", "chinese", "--banker", "Qh Qd 8d", "--hand", "1=Kh Kd Ks", "--bet", "player:1=-5"],
         "must be positive"),
        (["--rules", "chinese", "--banker", "Qh Qd 8d", "--hand", "١=Kh Kd Ks", "--bet", "player:1=1"],
         "is not a position number"),
    ],
)
@pytest.mark.kernels
def test_settle_bad_input(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["settle", *argv], needle, capsys)


# --- deal, verify, analyze, simulate: every preset, small ---------------------------------------


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.kernels
def test_deal_and_verify_every_preset(preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["deal", "--rules", preset, "--rounds", "3", "--seed", "5"], capsys)
    assert out.startswith(f"rules: {preset}, ") and out.count("\nround ") == 3
    log = tmp_path / "log.jsonl"
    log.write_text(run(["deal", "--rules", preset, "--rounds", "3", "--seed", "5", "--json"], capsys), encoding="utf-8")
    assert [json.loads(line)["rules"] for line in log.read_text(encoding="utf-8").splitlines()] == [preset] * 4
    for extra in ([], ["--rules", preset]):  # (3 rounds and their seal)
        assert run(["verify", *extra, str(log)], capsys).startswith(f"ok: 4 records, rules '{preset}'")
    report = json.loads(run(["verify", "--json", str(log)], capsys))
    assert report["ok"] is True and report["replayed"] is True


@pytest.mark.kernels
def test_deal_names_the_hands(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["deal", "--rules", "san_gong", "--rounds", "3", "--seed", "3"], capsys).splitlines()
    assert out[0] == "rules: san_gong, 1 deck, two hands (Dragon and Phoenix), seed 3"
    assert [line.split()[0] for line in out[2:5]] == ["dragon", "phoenix", "phoenix"]
    winners = [line.strip() for line in out if line.strip() in ("dragon wins", "phoenix wins", "tie")]
    assert len(winners) == 3
    out = run(["deal", "--rules", "chinese", "--rounds", "1", "--seed", "3"], capsys).splitlines()
    assert out[0] == "rules: chinese, 1 deck, 4 players against the banker, seed 3"
    assert out[2].split()[0] == "banker" and [line.split()[0] for line in out[3:]] == ["1", "2", "3", "4"]


@pytest.mark.kernels
def test_verify_refuses_a_log_under_another_preset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(run(["deal", "--rules", "chinese", "--rounds", "2", "--seed", "5", "--json"], capsys),
                   encoding="utf-8")
    assert main(["verify", "--rules", "san_gong", str(log)]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and "line 1" in out


# Cards out of the one-deck box for the presets whose suits break ties (every card counts
# apart): their full analysis takes minutes in the pure-Python reference.
REMOVED = " ".join(f"{r}{s}" for s in "cdh" for r in "A23456789TJQK")[: 3 * 30 - 1]


def _small(preset: str) -> list[str]:
    return ["--remove", REMOVED] if PRESETS[preset].ranking.uses_suits else ["--decks", "1"]


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.kernels
def test_analyze_every_preset(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = PRESETS[preset]
    out = run(["analyze", "--rules", preset, *_small(preset)], capsys)
    assert out.startswith(f"rules: {preset}, 1 deck, ") and "house edge" in out and "-0.0000%" not in out
    data = json.loads(run(["analyze", "--rules", preset, "--json", *_small(preset)], capsys))
    assert data["rules"] == preset and [b["bet"] for b in data["bets"]] == list(rules.bets)
    for bet in data["bets"]:
        assert sum(line["combinations"] for line in bet["outcomes"]) == bet["combinations"]


@pytest.mark.kernels
def test_analyze_a_banker_game_is_even(capsys: pytest.CaptureFixture[str]) -> None:
    """Each player against the banker, both paying by the winner's multiplier, from one deck:
    symmetric, so an edge of exactly 0 (printed as 0, never -0) and no "pays" on a loss."""
    out = run(["analyze", "--rules", "chinese", "--remove", REMOVED], capsys)
    assert out.count("house edge 0.0000%") == 1 and out.count("\nplayer:1..4 ") == 1  # the four players' figures, once
    losses = [line for line in out.splitlines() if "lose (x" in line]
    assert losses and all(":1" not in line for line in losses)
    data = json.loads(run(["analyze", "--rules", "chinese", "--json", "--remove", REMOVED], capsys))
    assert all(Fraction(b["ev_exact"]) == 0 for b in data["bets"])


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.kernels
def test_simulate_every_preset(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["simulate", "--rules", preset, "--rounds", "300", "--seed", "1", "--workers", "1"], capsys)
    assert out.startswith(f"rules: {preset}, 300 rounds")
    data = json.loads(run(["simulate", "--rules", preset, "--rounds", "300", "--seed", "1", "--json"], capsys))
    assert data["rules"] == preset and data["rounds"] == 300
    assert [b["bet"] for b in data["bets"]] == list(PRESETS[preset].bets)
    bet = SESSION_BETS[preset]
    sessions = ["simulate", "--rules", preset, "--sessions", "3", "--session-rounds", "20", "--bankroll", "1000",
                "--bet", f"{bet}=100", "--seed", "2"]
    assert run(sessions, capsys).startswith(f"rules: {preset}, 3 sessions of 20 rounds")
    data = json.loads(run([*sessions, "--json"], capsys))
    assert data["sessions"] == 3


def test_the_issues_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """``sanggong simulate --rules chinese --rounds 100000 --seed 1`` and ``sanggong analyze
    --rules san_gong``, at full size. Run once, with the compiled core: the pure-Python
    reference takes minutes over the one-deck count of a ranking whose suits break ties
    (both kernels are run on every preset at small size above)."""
    out = run(["simulate", "--rules", "chinese", "--rounds", "100000", "--seed", "1"], capsys)
    assert out.startswith("rules: chinese, 100,000 rounds")
    assert [line.split()[0] for line in out.splitlines()[3:-2]] == ["player:1", "player:2", "player:3", "player:4"]
    out = run(["analyze", "--rules", "san_gong"], capsys)
    assert out.startswith("rules: san_gong, 1 deck, 52 cards")
    assert out.count("house edge 3.0000%") == 2  # Dragon and Phoenix: 0.94:1 on an even chance


# --- bad input: exit 2, one line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compare", "Kh Kd Ks", "Qh Qd 1s"], "the second hand: '1s' is not a card"),
        (["compare", "Kh Kd", "Qh Qd Qs"], "the first hand: a hand is three cards, got 2"),
        (["compare", "Kh Kd Ks"], "expected two hands"),
        (["compare", "Kh", "Kd", "Ks", "Qh"], "got 4 arguments"),
        (["compare", "--rules", "baccarat", "Kh Kd Ks", "Qh Qd Qs"], "invalid choice: 'baccarat'"),
        (["compare", "--rules-file", "/nonexistent/table.toml", "Kh Kd Ks", "Qh Qd Qs"], "/nonexistent/table.toml"),
        (["compare"], "the following arguments are required: HAND"),
        (["eval", "--rules", "baccarat", "Kh", "Kd", "Ks"], "invalid choice: 'baccarat'"),
        (["eval", "--rules", "chinese", "Kh", "Kd", "Kx"], "'Kx' is not a card"),
        (["deal", "--rules", "san_gong", "--positions", "2"], "--positions 2 with --rules san_gong"),
        (["simulate", "--rules", "san_gong", "--rounds", "5", "--positions", "3"], "--positions 3 with --rules san_gong"),
        (["simulate", "--rules", "chinese", "--rounds", "5", "--bet", "win:1=100"], "unknown bet 'win:1'"),
        (["simulate", "--rules", "san_gong", "--rounds", "5", "--bet", "dragon:1=100"], "unknown bet 'dragon:1'"),
        (["analyze", "--rules", "chinese", "--remove", "Kh Kh"], "cannot remove Kh"),
        (["verify", "--rules", "baccarat", "log.jsonl"], "invalid choice: 'baccarat'"),
    ],
)
@pytest.mark.kernels
def test_bad_input_exits_2_with_one_line(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(argv, needle, capsys)
