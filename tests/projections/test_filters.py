"""A statistics filter no game could match is an error naming the accepted forms."""

from __future__ import annotations

import pytest

from projections.filters import FilterError, check_filters
from projections.views import Filters


@pytest.mark.parametrize(
    ("filters", "says"),
    [
        (Filters(since="yesterday"), "since 'yesterday' is not a date: use an ISO 8601 date"),
        (Filters(until="2026-13-01"), "until '2026-13-01' is not a date"),
        (Filters(since="2026-01-01 10:00"), "2026-03-14T09:30"),
        (Filters(variant={"foo": "bar"}), "no installed ruleset has a variant option 'foo'"),
        (Filters(ruleset="province", variant={"foo": "bar"}), "province has no variant option 'foo'; its"),
        (Filters(ruleset="province", variant={"end_check": "never"}), "is one of: end_of_turn"),
        (Filters(ruleset="dynasties", variant={"victory_vt": "lots"}), "is a whole number"),
        (Filters(ruleset="chess"), "there is no ruleset 'chess' (installed: "),
        (Filters(mode="online"), "digital or physical"),
    ],
)
def test_a_filter_nothing_could_match_is_refused_with_the_accepted_forms(filters: Filters, says: str) -> None:
    with pytest.raises(FilterError, match=None) as raised:
        check_filters(filters)
    assert says in str(raised.value)


@pytest.mark.parametrize(
    "filters",
    [
        Filters(since="2026", until="2026-03"),
        Filters(since="2026-03-14T09", until="2026-03-14T09:30:05"),
        Filters(variant={"end_check": "END_OF_ROUND"}),
        Filters(ruleset="dynasties", variant={"victory_vt": "120", "map": "anything"}),
        Filters(ruleset="dominion", variant={"expansions": "base,empires"}),
    ],
)
def test_every_accepted_form_passes(filters: Filters) -> None:
    assert check_filters(filters) == filters
