from __future__ import annotations

import numpy as np
import pytest

from sanggong import Card, Rank, Suit, parse_card, parse_cards

RANK_WORDS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}


def test_code_layout_is_rank_major() -> None:
    for rank in Rank:
        for suit in Suit:
            card = Card.of(rank, suit)
            assert card.code == 4 * (rank - 1) + suit
            assert (card.rank, card.suit) == (rank, suit)
    assert [Card(c) for c in range(52)] == sorted(Card.of(r, s) for r in Rank for s in Suit)


def test_every_card_round_trips_through_text() -> None:
    for code in range(52):
        card = Card(code)
        text = str(card)
        assert len(text) == 2
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.parse(text.upper()) == card
        assert Card.parse(card.pretty) == card
        assert RANK_WORDS[text[0]] == card.rank


@pytest.mark.parametrize(
    ("text", "code"),
    [("Ac", 0), ("ks", 51), ("K♥", 50), ("10h", 38), ("Th", 38), ("tH", 38), ("10♠", 39),
     ("q♡", 46), (" 9d ", 33), ("J♣", 40), ("2♢", 5)],
)
def test_parse_forms(text: str, code: int) -> None:
    assert Card.parse(text).code == code


def test_points_and_faces_follow_rules() -> None:
    for card in map(Card, range(52)):
        rank = int(card.rank)
        assert card.points == (rank if rank <= 9 else 0)
        assert card.is_face == (rank in (11, 12, 13))  # J, Q, K only: a ten is not a face
        assert card.rank.points == card.points and card.rank.is_face == card.is_face


@pytest.mark.parametrize("bad", ["1h", "Kx", "", "   ", "11h", "K", "h", "KhQ", "0s", "10", "Kh,", "🂡"])
def test_bad_card_strings_name_the_value(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a card") as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [-1, 52, 1000])
def test_bad_codes(bad: int) -> None:
    with pytest.raises(ValueError, match=f"card code {bad} is out of range"):
        Card(bad)
    with pytest.raises(ValueError, match=str(bad)):
        parse_card(bad)


@pytest.mark.parametrize("bad", [True, 1.0, None, b"Kh", object()])
def test_non_cards_are_type_errors(bad: object) -> None:
    with pytest.raises(TypeError, match="not"):
        parse_card(bad)  # type: ignore[arg-type]


def test_card_rejects_non_int_codes() -> None:
    with pytest.raises(TypeError, match="1.0"):
        Card(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Card.parse(5)  # type: ignore[arg-type]


def test_parse_cards_forms() -> None:
    expected = (Card.parse("Kh"), Card.parse("Qs"), Card.parse("9d"))
    assert parse_cards("Kh Qs 9d") == expected
    assert parse_cards("Kh,Qs, 9d") == expected
    assert parse_cards("KhQs9d") == expected
    assert parse_cards("K♥ Q♠ 9♦") == expected
    assert parse_cards(["Kh", Card(47), np.int64(33)]) == expected
    assert parse_cards(np.array([50, 47, 33])) == expected
    assert parse_cards(Card(50)) == (Card(50),)
    assert parse_cards(50) == (Card(50),)
    assert parse_cards("10h10s") == (Card(38), Card(39))


@pytest.mark.parametrize("bad", ["", " , ", "Kh Qx 9d", "KhQx9d", "Kh 1s"])
def test_parse_cards_errors_name_the_token(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_cards(bad)
    message = str(info.value)
    assert "no cards" in message or "is not a card" in message
    if bad.strip(" ,"):
        token = next(t for t in ("KhQx9d", "Qx", "1s") if t in bad)
        assert repr(token) in message


def test_every_spelling_of_every_card_parses_to_its_rank_and_suit() -> None:
    """Card.parse and parse_cards read a card by a look-up table; every spelling of every
    rank and suit (written out here, not taken from the package) gives the card of that
    rank and suit, alone, with others, with and without separators, and every other
    two-character token is refused as before."""
    ranks = {"A": 1, "a": 1, "T": 10, "t": 10, "10": 10, "J": 11, "j": 11, "Q": 12, "q": 12, "K": 13, "k": 13}
    ranks |= {str(n): n for n in range(2, 10)}
    suits = {"c": 0, "C": 0, "♣": 0, "♧": 0, "d": 1, "D": 1, "♦": 1, "♢": 1,
             "h": 2, "H": 2, "♥": 2, "♡": 2, "s": 3, "S": 3, "♠": 3, "♤": 3}
    spelled = {r + s: Card.of(rank, suit) for r, rank in ranks.items() for s, suit in suits.items()}
    assert len(spelled) == 19 * 16
    for text, card in spelled.items():
        assert Card.parse(text) == card == parse_card(text) and (card.rank, card.suit) == (
            Rank(ranks[text[:-1]]), Suit(suits[text[-1]]))
        assert parse_cards(f" {text} ") == (card,)
    texts = list(spelled)
    cards = tuple(spelled.values())
    assert parse_cards(" ".join(texts)) == cards
    assert parse_cards(",".join(texts)) == cards
    assert parse_cards("".join(texts)) == cards
    alphabet = "".join(sorted({c for text in spelled for c in text} | set("1bxZ0 ")))
    for a in alphabet:
        for b in alphabet:
            if a + b not in spelled and (a + b).strip() and " " not in a + b:
                with pytest.raises(ValueError, match=r"is not a card|holds no cards"):
                    Card.parse(a + b)
    assert [parse_card(code) for code in range(52)] == [Card(code) for code in range(52)]
