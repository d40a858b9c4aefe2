"""Issue 15, the penalties: the amount the engine would apply, shown before it is applied
(Match.penalty_preview changes nothing and agrees with the penalty applied), and the
penalties that can have happened now (Match.penalty_options), RULES.md §5."""

from __future__ import annotations

import pytest

from referee.cards import parse_card, parse_cards
from referee.events import Brisques, Declare, LastTrick, Penalty, StockExhausted, Trick
from referee.match import Match


def _match(tracking: str = "melds", rules: tuple[str, ...] = (),
           variant: str = "two-hand", players: tuple[str, ...] = ("Anna", "Boris")) -> Match:
    m = Match.new(variant, list(players), tracking=tracking, house_rules=rules)
    m.start_deal(0, parse_card("9H"))
    return m


def _declare(m: Match, seat: int, cards: str, table: str = "") -> bool:
    return m.apply(Declare(seat, tuple(parse_cards(cards.split())),
                           tuple(parse_cards(table.split())))).accepted


def _scores(m: Match) -> list[int]:
    return [s.total for s in m.result().sides]


@pytest.mark.parametrize("rules", [(), ("H-PENALTY-TO-OPPONENT",), ("H-FALSE-ALL-MATCH",),
                                   ("H-FALSE-ALL-MATCH", "H-PENALTY-TO-OPPONENT")])
@pytest.mark.parametrize("offence", ["P-FALSE-DECLARATION", "P-EXTRA-CARD", "P-REVOKE"])
def test_penalty_preview_changes_nothing_and_is_what_is_applied(
    rules: tuple[str, ...], offence: str,
) -> None:
    m = _match(rules=rules)
    assert _declare(m, 0, "QS JD")       # 40
    assert _declare(m, 0, "KH QH")       # 40
    assert _declare(m, 1, "KC QC")       # 20
    before = _scores(m)
    events = len(m.current.log) if m.current else 0
    preview = m.penalty_preview(0, offence)
    assert _scores(m) == before and m.current is not None and len(m.current.log) == events
    m.apply(Penalty(0, offence))
    after = _scores(m)
    assert [a - b for a, b in zip(after, before, strict=True)] == list(preview.changes)


def test_penalty_preview_false_declaration_shows_the_points_wiped() -> None:
    m = _match()
    assert _declare(m, 0, "QS QS JD JD")  # 500
    assert _declare(m, 0, "KH QH")        # 40
    p = m.penalty_preview(0, "P-FALSE-DECLARATION")
    assert p.wipes and p.amount == 540 and p.changes == (-540, 0)
    assert p.offender_change == -540


def test_penalty_preview_h_extra_card_50_names_the_house_rule() -> None:
    m = _match(rules=("H-EXTRA-CARD-50",))
    p = m.penalty_preview(1, "P-EXTRA-CARD")
    assert p.amount == 50 and p.changes == (0, -50)
    assert p.rules == ("P-EXTRA-CARD", "H-EXTRA-CARD-50")


def test_penalty_preview_three_hand_to_opponents_each_side_receives() -> None:
    m = _match(rules=("H-PENALTY-TO-OPPONENT",), variant="three-hand",
               players=("Anna", "Boris", "Vera"))
    assert m.penalty_preview(2, "P-NINE-CARDS").changes == (120, 120, 0)


def test_penalty_preview_unknown_offence_or_seat_is_an_error_and_changes_nothing() -> None:
    from referee.errors import BeziqueError

    m = _match()
    with pytest.raises(BeziqueError):
        m.penalty_preview(0, "P-TALKING")
    with pytest.raises(BeziqueError):
        m.penalty_preview(5, "P-REVOKE")
    assert m.current is not None and m.current.log == []


def _offered(m: Match, seat: int) -> list[str]:
    return [o.offence for o in m.penalty_options(seat)]


def test_p_revoke_is_offered_only_in_the_last_tricks() -> None:
    m = _match(tracking="tricks")
    assert "P-REVOKE" not in _offered(m, 0)
    assert "P-NINE-CARDS" not in _offered(m, 0)
    assert {"P-EARLY-DECLARE", "P-PLAY-BEFORE-DRAW", "P-EXTRA-CARD"} <= set(_offered(m, 0))
    for k in range(25):  # trick 25 is the first of phase 2
        m.apply(Trick(k % 2))
    offered = _offered(m, 0)
    assert "P-REVOKE" in offered and "P-NINE-CARDS" in offered
    assert "P-EARLY-DECLARE" not in offered and "P-EXTRA-CARD" not in offered


def test_p_revoke_offered_after_stock_exhausted_with_melds_tracking() -> None:
    m = _match()
    assert "P-REVOKE" not in _offered(m, 1)
    m.apply(StockExhausted())
    assert "P-REVOKE" in _offered(m, 1)


def test_p_revoke_offered_once_the_deal_closes_without_stock_exhausted() -> None:
    m = _match()
    m.apply(LastTrick(0))
    assert "P-REVOKE" in _offered(m, 1)
    m.apply(Brisques({0: 8, 1: 8}))
    assert "P-REVOKE" in _offered(m, 1)


def test_p_false_declaration_offered_once_the_player_declared() -> None:
    m = _match()
    assert "P-FALSE-DECLARATION" not in _offered(m, 0)
    assert _declare(m, 0, "QS JD")
    assert "P-FALSE-DECLARATION" in _offered(m, 0)
    assert "P-FALSE-DECLARATION" not in _offered(m, 1)


def test_proposed_penalty_comes_first_and_is_heavy() -> None:
    # An impossible third Q♣ (two packs) is refused under R-PACK and proposes a false
    # declaration: offered first, with its cost, and heavy (a wipe) so the app confirms.
    m = _match()
    assert _declare(m, 0, "QS QS JD JD")  # 500
    assert _declare(m, 0, "QC QH QD QC")  # four queens 60: both Q♣ are on the table
    r = m.apply(Declare(0, tuple(parse_cards(["KC", "QC"]))))
    assert not r.accepted and r.rule == "R-PACK" and r.proposes == "P-FALSE-DECLARATION"
    options = m.penalty_options(0)
    first = options[0]
    assert first.offence == "P-FALSE-DECLARATION" and first.proposed_at == (2,)
    assert first.effect.amount == 560 and first.heavy
    assert not next(o for o in options if o.offence == "P-EARLY-DECLARE").heavy


def test_proposed_revoke_is_offered_with_the_trick_that_proves_it() -> None:
    # A proposal outside its usual moment is still offered (the referee saw it).
    m = _match(tracking="tricks")
    m.apply(Trick(1))
    r = m.apply(Declare(0, tuple(parse_cards(["QS", "JD"]))))
    assert r.proposes == "P-EARLY-DECLARE"
    options = m.penalty_options(0)
    assert options[0].offence == "P-EARLY-DECLARE" and options[0].proposed_at == (1,)
    assert options[0].effect.changes == (-10, 0)


def test_joker_variant_offers_its_own_penalties() -> None:
    m = Match.new("joker-multipack", ["A", "B"])
    m.start_deal(0, parse_card("9H"))
    assert set(_offered(m, 0)) == {"P-EARLY-DECLARE", "P-PLAY-BEFORE-DRAW", "P-EXTRA-CARD"}
