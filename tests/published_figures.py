"""Published return figures of the family, each as printed with the page it is printed on,
for tests/test_report.py to hold sanggong's exact values against at the printed precision.

The best-known game-math site is the Wizard of Odds (wizardofodds.com). Where the figure
was read on a copy of one of its pages (an older version of the page, mirrored), the copy's
address is given with the page it copies.

``PUBLISHED``: (source key, rule set, bet, figure, value as printed). A figure is one of
``combinations`` (an int), ``probability`` or ``return`` (a decimal string, as printed),
``house_edge`` or ``hit_frequency`` (a percentage string, as printed: "2.41%"),
``house_edge_whole`` (the site's words give a whole percent: "near 3%").
``DIFFERENCES``: the figures that differ, and why (printed in docs/report.md too).
"""

from __future__ import annotations

from fractions import Fraction

from sanggong import MACAU, ONLINE, SAN_GONG, RuleSet

SOURCES = {
    "woo-3cb": ("Wizard of Odds, Three Card Baccarat (Macau rules), Player Bet return table",
                "https://wizardofodds.com/games/three-card-baccarat/ (Last Updated February 28, 2015), as copied at "
                "http://user-casino.com/games/three-card-baccarat/"),
    "wom-3cb": ("Wizard of Macau, 3 Card Baccarat in Macau (the Wizard of Odds' companion site)",
                "http://wizardofmacau.com/games/threecardbaccarat.html"),
    "woo-san-gong": ("Wizard of Odds, San Gong: 'everything has a house edge near 3% except the bets on a pair at 67'",
                     "https://wizardofodds.com/games/san-gong/"),
    "pair-plus": ("Pair Plus pay tables (40-30-6-4-1, 40-30-6-3-1, 40-30-5-4-1) and the 22,100 hands by category",
                  "https://online.casinocity.com/article/a-rare-pair-plus-payout-at-three-card-poker-124535 and "
                  "http://www.threecardpokerplayer.com/hand-odds.htm"),
}

THREE_CARD_BACCARAT = MACAU.replace(decks=1)
"""The published game: one deck, Player 1:1 less 5%, ties push, Tie 20:1, Three Faces 16:1,
dealer totals 8:1 (Macau's preset with one deck; a carried stake is 0 that round, as a push)."""


def pair_plus(straight_flush: int, trips: int, straight: int, flush: int, pair: int) -> RuleSet:
    return ONLINE.replace(decks=1, pair_plus_pays={
        "pair": Fraction(pair), "flush": Fraction(flush), "straight": Fraction(straight),
        "three_of_a_kind": Fraction(trips), "straight_flush": Fraction(straight_flush)})


PAIR_PLUS_ORIGINAL = pair_plus(40, 30, 6, 4, 1)
PAIR_PLUS_COMMON = pair_plus(40, 30, 6, 3, 1)
PAIR_PLUS_5_4 = pair_plus(40, 30, 5, 4, 1)

PUBLISHED: list[tuple[str, RuleSet, str, str, object]] = [
    # Three Card Baccarat, the Player Bet return table
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "combinations:win", 195907080),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "combinations:carried", 15356240),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "combinations:lose", 195907080),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "combinations:total", 407170400),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "probability:win", "0.481143"),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "probability:carried", "0.037715"),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "return:win", "0.457086"),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "return:total", "-0.024057"),
    ("woo-3cb", THREE_CARD_BACCARAT, "win:1", "house_edge", "2.41%"),
    # Dealer Total bets: combinations out of 22,100, pays 8, return
    *[("woo-3cb", THREE_CARD_BACCARAT, f"point:{n}", "combinations:win", c) for n, c in
      enumerate((2384, 2212, 2164, 2212, 2164, 2212, 2164, 2212, 2164, 2212))],
    *[("woo-3cb", THREE_CARD_BACCARAT, f"point:{n}", "probability:win", p) for n, p in
      enumerate(("0.107873", "0.100090", "0.097919", "0.100090", "0.097919", "0.100090", "0.097919", "0.100090",
                 "0.097919", "0.100090"))],
    *[("woo-3cb", THREE_CARD_BACCARAT, f"point:{n}", "return:total", r) for n, r in
      enumerate(("-0.029140", "-0.099186", "-0.118733", "-0.099186", "-0.118733", "-0.099186", "-0.118733",
                 "-0.099186", "-0.118733", "-0.099186"))],
    # the companion site's summary
    ("wom-3cb", THREE_CARD_BACCARAT, "win:1", "hit_frequency", "48.11%"),
    ("wom-3cb", THREE_CARD_BACCARAT, "win:1", "house_edge", "2.41%"),
    ("wom-3cb", THREE_CARD_BACCARAT, "tie:1", "hit_frequency", "3.77%"),
    ("wom-3cb", THREE_CARD_BACCARAT, "tie:1", "house_edge", "20.80%"),
    ("wom-3cb", THREE_CARD_BACCARAT, "three_faces", "hit_frequency", "1.00%"),
    ("wom-3cb", THREE_CARD_BACCARAT, "three_faces", "house_edge", "83.08%"),
    # San Gong (Dragon and Phoenix): the page's words (sanggong's Tie is its own: not published)
    *[("woo-san-gong", SAN_GONG, bet, "house_edge_whole", "3%") for bet in
      ("dragon", "phoenix", "odd:dragon", "odd:phoenix", "even:dragon", "even:phoenix", "total:1-6", "total:7-8",
       "total:9")],
    ("woo-san-gong", SAN_GONG, "pair:dragon", "house_edge_whole", "67%"),
    ("woo-san-gong", SAN_GONG, "pair:phoenix", "house_edge_whole", "67%"),
    # Pair Plus: the hands by category, and the three pay tables' edges
    *[("pair-plus", PAIR_PLUS_ORIGINAL, "pair_plus:1", f"combinations:win ({category})", c) for category, c in
      (("straight flush", 48), ("three of a kind", 52), ("straight", 720), ("flush", 1096), ("pair", 3744))],
    ("pair-plus", PAIR_PLUS_ORIGINAL, "pair_plus:1", "combinations:lose", 16440),
    ("pair-plus", PAIR_PLUS_ORIGINAL, "pair_plus:1", "house_edge", "2.32%"),
    ("pair-plus", PAIR_PLUS_COMMON, "pair_plus:1", "house_edge", "7.28%"),
    ("pair-plus", PAIR_PLUS_5_4, "pair_plus:1", "house_edge", "5.57%"),
]

TIE_PAIRS_MISSING = 17_680
"""The one difference: the published Player Bet counts 15,356,240 tying deals of the
407,170,400; an independent card-by-card count (tests/test_report.py) finds 15,373,920, as
sanggong does: 17,680 more. The published table gives those deals to the Player and the
Dealer, 8,840 each (195,907,080 against 195,898,240). Every figure that follows from the tie
count moves with it: the Player's and the Tie's probabilities, the Player's return to the
sixth place (-0.024057 against -0.024056), and the Tie's hit frequency and edge at the
printed two places (3.77% against 3.78%, 20.80% against 20.71%). The Player's house edge at
the printed two places (2.41%) and every other figure agree."""

DIFFERENCES = {
    ("woo-3cb", "win:1", "combinations:win"), ("woo-3cb", "win:1", "combinations:carried"),
    ("woo-3cb", "win:1", "combinations:lose"), ("woo-3cb", "win:1", "probability:win"),
    ("woo-3cb", "win:1", "probability:carried"), ("woo-3cb", "win:1", "return:win"),
    ("woo-3cb", "win:1", "return:total"), ("wom-3cb", "tie:1", "hit_frequency"), ("wom-3cb", "tie:1", "house_edge"),
}
"""The published figures that differ from sanggong's, all by the tie count above."""
