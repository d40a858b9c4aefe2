"""Correcting an entry from the app, driven as the table would (no page): the entries list,
the player and cards of an entry changed or the entry deleted, the preview before confirming,
the list of changes after, the match playing on from the corrected log."""

from __future__ import annotations

from typing import Any

from ui_helpers import new_match, start_deal

from referee.cards import Rank, Suit, parse_card
from referee.events import Declare, Trick
from ui.i18n import Translator
from ui.state import correction as corr
from ui.state.app import AppState
from ui.state.deal import DealScreen


def C(code: str) -> Any:
    return parse_card(code)


def declare(ds: DealScreen, seat: int, *codes: str, table: tuple[str, ...] = ()) -> None:
    ds.record(Declare(seat, tuple(C(c) for c in codes), tuple(C(c) for c in table)))


def _played(app: AppState) -> DealScreen:
    """Deal 1: Boris's bezique (really Anna's), Anna's marriage of clubs."""
    ds = new_match(app)
    start_deal(ds)
    declare(ds, 1, "QS", "JD")
    declare(ds, 0, "KC", "QC")
    return ds


def _open(app: AppState, deal: int = 0, index: int = 0) -> corr.CorrectionScreen:
    corr.open_entries(app, app.session)
    assert app.screen == "entries"
    line = corr.entry_lines(app.session, app.lang)[deal][index]  # type: ignore[arg-type]
    assert corr.open_correction(app, line)
    assert app.screen == "correction"
    cs = app.correction
    assert isinstance(cs, corr.CorrectionScreen)
    return cs


def _texts(app: AppState, lines: list[corr.ChangeLine]) -> list[str]:
    t = Translator(app.lang)
    return [t(line.key, **line.args) for line in lines]


def test_the_entries_list_every_entry_of_each_deal_with_its_ruling(app: AppState) -> None:
    _played(app)
    deals = corr.entry_lines(app.session, "en")  # type: ignore[arg-type]
    assert [len(d) for d in deals] == [2]
    assert "Boris declares bezique" in deals[0][0].text
    assert [line.status for line in deals[0]] == ["counts", "counts"]


def test_correcting_a_beziques_player_previews_then_lists_the_changes(app: AppState) -> None:
    ds = _played(app)
    cs = _open(app)
    assert cs.can_change_player() and cs.can_change_cards() and not cs.can_confirm()
    cs.set_player(0)
    assert cs.can_confirm()
    preview = _texts(app, cs.changes)
    assert "Anna: 20 → 60 in all" in preview and "Boris: 40 → 0 in all" in preview
    assert ds.totals() == [20, 40]  # nothing stored yet
    assert corr.confirm(app)
    assert cs.done is not None and _texts(app, cs.done) == preview
    assert cs.totals() == [("Anna", 60), ("Boris", 0)]
    assert ds.totals() == [60, 0]  # the deal screen plays on from the corrected log
    assert ds.ruling is None  # its last ruling may be one the correction changed
    line = corr.entry_lines(app.session, "en")[0][0]  # type: ignore[arg-type]
    assert line.status == "corrected" and line.first == "Boris: Q♠ J♦"
    assert "Anna declares bezique" in line.text


def test_that_marriage_was_in_trumps_through_the_deal_screens_picker(app: AppState) -> None:
    ds = _played(app)
    declare(ds, 0, "KH", "QH")  # a later entry: Anna's table then holds K♥ Q♥
    cs = _open(app, 0, 1)
    cs.open_picker()
    p = cs.picking.picker
    assert p is not None and p.new == [C("KC"), C("QC")]
    assert cs.picking.table(0) == []  # Anna's table as it was before this entry
    cs.picking.clear_picker()
    cs.picking.add_new(C("KH"))
    cs.picking.add_new(C("QH"))
    options = cs.picking.options()
    assert [o.meld for o in options if o.accepted] == ["trump_marriage"]
    cs.picking.declare("trump_marriage")
    assert cs.picking.picker is None
    assert cs.draft == Declare(0, (C("KH"), C("QH")), (), "trump_marriage")
    assert "Anna: 60 → 80 in all" in _texts(app, cs.changes)
    assert corr.confirm(app) and ds.totals() == [80, 40]


def test_deleting_an_entry_previews_and_keeps_it_visible_as_deleted(app: AppState) -> None:
    ds = _played(app)
    cs = _open(app)
    cs.delete()
    assert cs.deleting and cs.changes[-1].key == "correction.change.deleted"
    assert corr.confirm(app)
    assert ds.totals() == [20, 0]
    lines = corr.entry_lines(app.session, "en")[0]  # type: ignore[arg-type]
    assert [line.status for line in lines] == ["deleted", "counts"]
    assert not lines[0].correctable and lines[0].first == "Boris: Q♠ J♦"


def test_undo_on_the_deal_screen_takes_the_correction_back(app: AppState) -> None:
    ds = _played(app)
    cs = _open(app)
    cs.set_player(0)
    corr.confirm(app)
    assert ds.undo()
    assert ds.totals() == [20, 40]
    assert ds.redo() and ds.totals() == [60, 0]


def test_a_correction_that_flips_a_later_ruling_says_so_before_confirming(
    app: AppState,
) -> None:
    # Spades trumps: Anna's sequence reuses "her" Q♠, but the bezique was noted as Boris's.
    ds = new_match(app)
    start_deal(ds, Rank.NINE, Suit.SPADES)
    declare(ds, 1, "QS", "JD")
    declare(ds, 0, "AS", "10S", "KS", "JS", table=("QS",))
    assert not ds.ruling or not ds.ruling.accepted
    cs = _open(app)
    cs.set_player(0)
    flips = [line for line in cs.changes if line.kind == "flip"]
    assert [(f.key, f.args["deal"], f.args["entry"]) for f in flips] == [
        ("correction.change.now_accepted", 1, 2)
    ]
    assert "Anna: 0 → 290 in all" in _texts(app, cs.changes)


def test_a_correction_that_cannot_be_made_is_explained_and_stores_nothing(
    app: AppState,
) -> None:
    # With cards tracking the cards decide who won the trick (R-RANK): giving it to the
    # other player contradicts them, so the correction is refused.
    ds = new_match(app, tracking="cards")
    start_deal(ds)
    assert ds.record(Trick(0, {0: C("AS"), 1: C("7S")})) is not None
    cs = _open(app)
    length = len(app.store.history(cs.session.match_id))
    cs.set_player(1)
    assert cs.notice is not None and cs.notice.key == "correction.refused"
    assert "R-RANK" in str(cs.notice.args["why"])
    assert not cs.can_confirm() and not corr.confirm(app)
    assert len(app.store.history(cs.session.match_id)) == length


def test_the_correction_screen_speaks_russian(app: AppState) -> None:
    _played(app)
    app.set_language("ru")
    cs = _open(app)
    cs.set_player(0)
    texts = _texts(app, cs.changes)
    assert "Anna: 20 → 60 всего" in texts
    assert any(text.startswith("Было:") for text in texts)


def test_a_correction_from_the_history_reloads_the_open_match(app: AppState) -> None:
    ds = _played(app)
    assert app.session is not None
    assert app.view_match(app.session.match_id)  # a second session on the same match
    corr.open_entries(app, app.viewed)
    line = corr.entry_lines(app.viewed, "en")[0][0]  # type: ignore[arg-type]
    assert corr.open_correction(app, line)
    cs = app.correction
    assert isinstance(cs, corr.CorrectionScreen)
    cs.set_player(0)
    assert corr.confirm(app)
    assert ds.totals() == [60, 0]  # the other session (the deal screen's) was reloaded


def _finish(ds: DealScreen, last: int) -> None:
    ds.stock_exhausted()
    ds.open_end()
    ds.set_last_trick(last)
    for _ in range(8):
        ds.step_brisques(0, 1)
        ds.step_brisques(1, 1)
    assert ds.finish_deal(), ds.end_errors


def test_a_correction_that_changes_the_winner_says_who_wins_now(app: AppState) -> None:
    ds = new_match(app, target="150")
    start_deal(ds)
    declare(ds, 1, "AS", "AH", "AD", "AC")  # the four aces were Anna's
    declare(ds, 0, "QS", "JD")
    _finish(ds, last=1)
    assert ds.match.result().winner == "Boris"
    cs = _open(app)
    cs.set_player(0)
    winner = [line for line in cs.changes if line.kind == "winner"]
    assert _texts(app, winner) == ["Winner: Boris (R-TARGET) → Anna (R-TARGET)"]
    assert corr.confirm(app) and ds.match.result().winner == "Anna"


def test_a_correction_in_an_earlier_deal_lists_that_deals_scores(app: AppState) -> None:
    ds = _played(app)
    _finish(ds, last=0)
    ds.next_deal()
    start_deal(ds, dealer=1)
    declare(ds, 1, "KD", "QD")
    cs = _open(app)
    cs.set_player(0)
    texts = _texts(app, cs.changes)
    assert "Deal 1, Anna: 110 → 150" in texts and "Deal 1, Boris: 120 → 80" in texts
    assert corr.confirm(app)
    assert ds.deal_scores() == [0, 20]  # the deal being played is untouched
