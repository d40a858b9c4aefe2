"""Correcting an entry where it happened (issue 15): the rest of the match is replayed on top
of the correction and the engine lists what changed — totals per side per deal, later rulings
that flip, proposed penalties, the winner."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cards import parse_card
from referee.correction_diff import (
    CorrectionError,
    Edit,
    correction_diff,
    match_before,
    preview,
    replay_corrected,
)
from referee.errors import RecordError
from referee.events import Brisques, Declare, Event, LastTrick, StockExhausted
from referee.match import Match
from referee.record import load_record, replay_record

ANNA, BORIS = 0, 1


def d(player: int, new: tuple[str, ...], table: tuple[str, ...] = ()) -> Declare:
    return Declare(player, tuple(parse_card(c) for c in new), tuple(parse_card(c) for c in table))


def played(deals: list[list[Event]], target: int | None = None) -> Match:
    """A two-hand match (hearts trumps) with these events, one list per deal."""
    m = Match.new("two-hand", ["Anna", "Boris"], target=target)
    for i, events in enumerate(deals):
        m.start_deal(i % 2, parse_card("9H"))
        for ev in events:
            m.apply(ev)
    return m


def ending(last: int = ANNA) -> list[Event]:
    return [StockExhausted(), LastTrick(last), Brisques({0: 8, 1: 8})]


def test_correcting_a_beziques_player_moves_its_points_between_sides() -> None:
    before = played([[d(BORIS, ("QS", "JD")), d(ANNA, ("KC", "QC"))]])
    after, diff = preview(before, Edit(0, 0, d(ANNA, ("QS", "JD"))))
    assert after.totals() == [before.totals()[0] + 40, before.totals()[1] - 40]
    assert [(t.side, t.before, t.after) for t in diff.deal_totals] == [
        ("Anna", 20, 60),
        ("Boris", 40, 0),
    ]
    assert [(t.side, t.changed) for t in diff.totals] == [("Anna", True), ("Boris", True)]
    assert diff.ruling_before.accepted and diff.ruling_after is not None
    assert diff.ruling_after.accepted and diff.rulings == () and not diff.winner_changed


def test_a_correction_that_makes_the_cards_a_bezique_flips_a_later_reuse_to_rejected() -> None:
    # Anna's K♠ Q♠ marriage lets her reuse Q♠ in a bezique (R-REUSE: another kind, more
    # points). If the first entry really was Q♠ J♦ (a bezique), the later one reuses Q♠ in
    # the same kind, which R-REUSE forbids.
    before = played([[d(ANNA, ("KS", "QS")), d(ANNA, ("JD",), ("QS",))]])
    assert before.deals[0].log[1][1].accepted
    _, diff = preview(before, Edit(0, 0, d(ANNA, ("QS", "JD"))))
    assert len(diff.flips) == 1
    flip = diff.flips[0]
    assert (flip.deal, flip.event) == (0, 1)
    assert flip.before.accepted and not flip.after.accepted
    assert flip.after.rule == "R-REUSE"
    # the marriage's 20 and the reused bezique's 40 become one bezique of 40
    assert [(t.before, t.after) for t in diff.deal_totals] == [(60, 40)]


def test_giving_a_bezique_to_the_right_player_makes_her_later_reuse_accepted() -> None:
    # Spades trumps: Anna's sequence reuses "her" Q♠, but the bezique was recorded as Boris's.
    m = Match.new("two-hand", ["Anna", "Boris"])
    m.start_deal(1, parse_card("9S"))
    m.apply(d(BORIS, ("QS", "JD")))
    m.apply(d(ANNA, ("AS", "10S", "KS", "JS"), ("QS",)))
    assert m.deals[0].log[1][1].rule == "R-ON-TABLE"
    _, diff = preview(m, Edit(0, 0, d(ANNA, ("QS", "JD"))))
    assert [(f.before.accepted, f.after.accepted, f.after.rule) for f in diff.flips] == [
        (False, True, "R-REUSE")
    ]
    assert diff.totals[0].after == 40 + 250 and diff.totals[1].after == 0


def test_a_correction_that_changes_who_reaches_the_target_changes_the_winner() -> None:
    deal1 = [d(BORIS, ("AS", "AH", "AD", "AC")), d(ANNA, ("QS", "JD")), *ending(BORIS)]
    before = played([deal1], target=150)
    assert before.result().winner == "Boris"
    _, diff = preview(before, Edit(0, 0, d(ANNA, ("AS", "AH", "AD", "AC"))))
    assert diff.winner_changed
    assert (diff.verdict_before.winner, diff.verdict_after.winner) == ("Boris", "Anna")
    assert diff.verdict_after.decided_by == "R-TARGET"


def test_deleting_an_entry_lines_the_later_ones_up_and_can_end_the_partie_undecided() -> None:
    deal1 = [d(BORIS, ("AS", "AH", "AD", "AC")), d(ANNA, ("KC", "QC")), *ending(BORIS)]
    before = played([deal1], target=150)
    after, diff = preview(before, Edit(0, 0, None))
    assert diff.ruling_after is None and diff.edit.deletes
    assert len(after.deals[0].log) == len(before.deals[0].log) - 1
    assert diff.rulings == ()  # the later entries are ruled as before, one place up
    assert diff.verdict_before.winner == "Boris" and not diff.verdict_after.finished


def test_deleting_a_card_the_pack_could_not_hold_withdraws_the_proposed_penalty() -> None:
    # Two packs hold two Q♠: the third one declared is ruled R-PACK and proposes
    # P-FALSE-DECLARATION. Deleting the earlier (mistaken) bezique makes it possible.
    before = played(
        [[d(ANNA, ("QS", "JD")), d(BORIS, ("QS", "JD")), d(ANNA, ("KS", "QS"))]]
    )
    assert before.deals[0].log[2][1].proposes == "P-FALSE-DECLARATION"
    _, diff = preview(before, Edit(0, 1, None))
    assert [(p.penalty, p.player, p.added) for p in diff.penalties] == [
        ("P-FALSE-DECLARATION", ANNA, False)
    ]
    assert [(f.deal, f.event, f.after.accepted) for f in diff.flips] == [(0, 1, True)]


def test_a_correction_in_an_earlier_deal_keeps_the_later_deals_and_their_places() -> None:
    before = played([[d(ANNA, ("KC", "QC")), *ending()], [d(BORIS, ("QS", "JD"))]])
    after, diff = preview(before, Edit(0, 0, d(BORIS, ("KC", "QC"))))
    assert len(after.deals) == 2 and after.deals[1].log[0][1].points == 40
    assert {t.deal for t in diff.deal_totals} == {0}


def test_a_correction_that_contradicts_a_later_entry_is_refused_naming_it() -> None:
    # brisques that no longer add up cannot be "ruled": the correction is refused.
    before = played([[d(ANNA, ("KC", "QC")), StockExhausted(), Brisques({0: 8, 1: 8})]])
    with pytest.raises(CorrectionError) as err:
        replay_corrected(before, Edit(0, 2, Brisques({0: 9, 1: 9})))
    assert err.value.deal == 0 and err.value.event == 2


def test_a_correction_of_an_entry_that_does_not_exist_is_refused() -> None:
    before = played([[d(ANNA, ("KC", "QC"))]])
    with pytest.raises(CorrectionError):
        preview(before, Edit(0, 5, None))
    with pytest.raises(CorrectionError):
        preview(before, Edit(3, 0, None))


def test_a_correction_that_changes_nothing_says_so() -> None:
    before = played([[d(ANNA, ("KC", "QC"))]])
    after = replay_corrected(before, Edit(0, 0, d(ANNA, ("QC", "KC"))))
    assert not correction_diff(before, after, Edit(0, 0, d(ANNA, ("QC", "KC")))).changes_anything


def test_the_match_before_a_correction_is_left_untouched() -> None:
    before = played([[d(BORIS, ("QS", "JD"))]])
    totals = before.totals()
    preview(before, Edit(0, 0, d(ANNA, ("QS", "JD"))))
    assert before.totals() == totals and before.deals[0].log[0][0].player == BORIS


def test_the_match_before_an_entry_holds_the_tables_as_they_were_then() -> None:
    deal2 = [d(BORIS, ("QS", "JD")), d(ANNA, ("KS", "QS"))]
    m = played([[d(ANNA, ("KC", "QC")), *ending()], deal2])
    then = match_before(m, 1, 1)
    assert len(then.deals) == 2 and len(then.deals[1].log) == 1
    assert [c.code for c in then.deals[1].table(BORIS)] == ["QS", "JD"]
    assert then.deals[1].table(ANNA) == [] and m.deals[1].table(ANNA) != []


RECORDS = sorted(
    [
        *Path(__file__).resolve().parents[1].joinpath("variants", "records").glob("*.json"),
        *Path(__file__).resolve().parents[1].joinpath("joker", "records").glob("*.json"),
        # the two-hand records, not their *.expected.json results
        *Path(__file__).resolve().parent.joinpath("records").glob("two-hand-*[!d].json"),
    ]
)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_entry_of_every_variant_can_be_deleted_or_is_refused_by_name(path: Path) -> None:
    try:
        m = replay_record(load_record(path))
    except RecordError:
        pytest.skip("an error record")
    for d, deal in enumerate(m.deals):
        for i in range(len(deal.log)):
            try:
                after, diff = preview(m, Edit(d, i, None))
            except CorrectionError as exc:
                assert exc.deal is not None
                continue
            assert len(after.deals[d].log) == len(deal.log) - 1
            assert sum(t.after for t in diff.totals) == sum(after.totals())
