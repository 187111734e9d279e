"""Every ranking the package can be given (585: test_eval_paths counts them), in one order
for the tests that sweep or sample them."""

from __future__ import annotations

import itertools

from sanggong.ranking import HIGH_CARDS, ORDERS, TIERS, Ranking

EVERY_RANKING = [
    Ranking(order=order, tiers=tiers, high_card=high)
    for order in ORDERS
    for k in range(len(TIERS) + 1)
    for tiers in itertools.permutations(TIERS, k)
    for high in HIGH_CARDS
]
