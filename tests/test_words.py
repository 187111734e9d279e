"""One word, one meaning (docs/architecture.md, "One word, one meaning"): the package's
private names keep each word to its one sense, and the public names that carried a
retired sense stay as deprecated aliases."""

from __future__ import annotations

import warnings

import pytest


@pytest.mark.parametrize(("old", "new"), [("ShoePlan", "ShoeTerms"), ("shoe_plan", "shoe_terms")])
def test_the_shoe_terms_old_names_warn_and_give_the_new(old: str, new: str) -> None:
    import sanggong.shoe as shoe

    with pytest.warns(DeprecationWarning, match=f"sanggong.shoe.{old} is deprecated: use sanggong.shoe.{new}"):
        alias = getattr(shoe, old)
    assert alias is getattr(shoe, new)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(shoe, new) is not None  # the new name: no warning
    with pytest.raises(AttributeError, match="no attribute 'ShoePlans'"):
        _ = shoe.ShoePlans  # type: ignore[attr-defined]
