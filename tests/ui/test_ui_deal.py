"""The deal screen's state, driven as the table would: every path, including the errors."""

from __future__ import annotations

from typing import Any

import pytest
from ui_helpers import new_match, start_deal

from referee.cards import Rank, Suit, parse_card
from ui.state.app import AppState
from ui.state.deal import DealScreen


def C(code: str) -> Any:
    return parse_card(code)


def pick(ds: DealScreen, seat: int, new: str = "", table: str = "") -> None:
    ds.open_picker(seat)
    on_table = [c.code for c in ds.table(seat)]
    for code in table.split():
        ds.toggle_table(on_table.index(code))
    for code in new.split():
        ds.add_new(C(code))


def test_setup_needs_dealer_and_turn_up(app: AppState) -> None:
    ds = new_match(app)
    assert str(ds.mode) == "setup" and ds.deal_number == 1
    assert ds.setup_dealer == 0
    assert not ds.start_deal()
    assert ds.setup_errors == {"turn_up": "deal.pick_turn_up"}
    ds.set_turn_up_rank(Rank.SEVEN)
    assert not ds.start_deal()
    ds.set_turn_up_suit(Suit.CLUBS)
    ds.set_dealer(5)  # no such seat: ignored
    assert ds.start_deal()
    assert str(ds.mode) == "play"
    assert ds.trumps() is Suit.CLUBS
    assert ds.dealer_seven() == (0, 10)  # the turned-up seven is credited to the dealer
    assert ds.deal_scores() == [10, 0]


def test_declare_with_picker_options_and_score(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    pick(ds, 1, "QS JD")
    opts = ds.options()
    assert [(o.meld, o.points, o.accepted) for o in opts] == [("bezique", 40, True)]
    view = ds.declare("bezique")
    assert view is not None and view.accepted and view.points == 40
    assert ds.picker is None
    assert ds.deal_scores() == [0, 40]
    assert [c.code for c in ds.table(1)] == sorted(["QS", "JD"], key=lambda c: C(c))
    assert "bezique" in view.text and view.rule


def test_rejected_reuse_shows_ruling_and_is_undoable(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    pick(ds, 1, "QS JD")
    ds.declare("bezique")
    pick(ds, 1, "KS", "QS")
    opts = ds.options()
    assert [(o.meld, o.accepted, o.rule) for o in opts] == [("marriage", False, "R-REUSE")]
    view = ds.declare("marriage")
    assert view is not None and not view.accepted
    assert view.rule == "R-REUSE"
    assert view.rule_title and view.rule_title != "R-REUSE"
    assert "R-REUSE" not in view.text  # the id is shown once, beside the words
    assert view.why  # the rule in plain words, from the rules reference
    assert ds.deal_scores() == [0, 40]
    assert ds.can_undo() and not ds.can_redo()
    assert ds.undo()
    assert ds.ruling is None
    assert ds.can_redo()
    assert ds.last_entry() is not None
    assert ds.redo()
    assert ds.last_entry()[1].rule == "R-REUSE"  # type: ignore[index]


def test_false_declaration_proposes_a_penalty_the_table_can_apply(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    pick(ds, 0, "KC QC")
    ds.declare(None)
    pick(ds, 0, "QD")
    assert ds.options() == []
    view = ds.declare(None)
    assert view is not None and not view.accepted
    assert view.proposes == "P-FALSE-DECLARATION" and view.player == 0
    assert ds.deal_scores() == [20, 0]
    proposed = ds.proposed_penalty()
    assert proposed is not None and proposed.points == -20  # the cost, shown before applying
    assert ds.accept_proposed() is None  # a wipe-out asks to be confirmed first
    assert ds.penalty_confirm is not None and ds.deal_scores() == [20, 0]
    applied = ds.confirm_penalty()
    assert applied is not None and applied.accepted
    assert ds.deal_scores() == [0, 0]  # "all points of the deal" wiped


def test_accept_proposed_without_a_proposal_does_nothing(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.accept_proposed() is None
    ds.seven(0)
    assert ds.ruling is not None and ds.ruling.proposes is None
    assert ds.accept_proposed() is None
    ds.dismiss_ruling()
    assert ds.ruling is None


def test_sevens_exchange_then_show(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    first = ds.seven(1)
    second = ds.seven(0)
    assert first is not None and first.accepted and first.points == 10
    assert second is not None and second.accepted
    assert ds.deal_scores() == [10, 10]


def test_penalty_panel(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ids = [p for p, _ in ds.penalties()]
    assert "P-REVOKE" in ids
    ds.open_penalty(9)
    assert ds.penalty_for is None
    ds.open_penalty(1)
    assert ds.penalty_for == 1
    ds.close_penalty()
    assert ds.penalty_for is None
    ds.open_penalty(1)
    view = ds.penalty(1, "P-REVOKE")
    assert view is not None and view.accepted
    assert ds.penalty_for is None
    assert ds.deal_scores() == [0, -20]


def test_unknown_offence_is_an_error_notice_not_a_crash(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.penalty(0, "P-NOTHING") is None
    assert ds.notice is not None and ds.notice.error
    assert ds.deal_scores() == [0, 0]


def test_phase_two_blocks_declarations(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.phase() == 1
    ds.stock_exhausted()
    assert ds.phase() == 2
    pick(ds, 0, "KC QC")
    view = ds.declare(None)
    assert view is not None and view.rule == "R-NO-DECLARE-AFTER-STOCK"
    assert ds.stock_exhausted() is None  # twice: the engine refuses, the screen says why
    assert ds.notice is not None and ds.notice.key == "error.engine"


def test_tricks_tracking_pending_combination_scores_on_next_trick(app: AppState) -> None:
    ds = new_match(app, tracking="tricks")
    start_deal(ds)
    assert ds.stock_left() == 24
    pick(ds, 0, "KS QS JD")
    early = ds.declare("bezique")
    assert early is not None and not early.accepted
    assert early.proposes == "P-EARLY-DECLARE"
    ds.trick(0)
    assert ds.stock_left() == 23 and ds.tricks_played() == 1
    pick(ds, 0, "KS QS JD")
    view = ds.declare("bezique")
    assert view is not None and view.accepted
    pending = ds.pending(0)
    assert [(p.meld, p.points) for p in pending] == [("marriage", 20)]
    assert not pending[0].ready  # one declaration per trick: it waits for the next trick
    ds.trick(1)
    assert not ds.pending(0)[0].ready
    ds.trick(0)
    assert ds.pending(0)[0].ready
    scored = ds.score_pending(0, 0)
    assert scored is not None and scored.accepted and scored.points == 20
    assert ds.pending(0) == []
    assert ds.score_pending(0, 3) is None


def test_picker_edits_and_limits(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.declare(None) is None  # no picker open
    ds.open_picker(7)
    assert ds.picker is None
    ds.open_picker(0)
    assert ds.declare(None) is None
    assert ds.notice is not None and ds.notice.key == "picker.chosen_none"
    ds.add_new(C("AS"))
    ds.add_new(C("AS"))
    ds.add_new(C("AS"))  # two packs: a third copy is refused
    assert ds.picker is not None and ds.picker.new == [C("AS"), C("AS")]
    ds.remove_new(0)
    ds.remove_new(5)
    assert ds.picker.new == [C("AS")]
    ds.toggle_table(0)  # nothing on the table
    assert ds.picker.table_idx == set()
    ds.clear_picker()
    assert ds.picker.new == [] and ds.options() == []
    ds.close_picker()
    assert ds.picker is None


def test_end_of_deal_checks_the_brisques_and_last_trick(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    pick(ds, 1, "QS JD")
    ds.declare(None)
    ds.open_end()
    assert str(ds.mode) == "end"
    assert ds.brisques_expected() == 16
    assert not ds.finish_deal()
    assert set(ds.end_errors) == {"last_trick", "brisques"}
    ds.set_last_trick(0)
    ds.step_brisques(0, 20)  # clamped to the pack's total
    assert ds.end_counts[0] == 16
    ds.set_brisques(0, "nine")
    assert ds.end_errors["brisques"] == "end.brisques_mismatch"
    ds.set_brisques(0, "9")
    ds.step_brisques(1, 7)
    ds.step_brisques(1, -100)
    assert ds.end_counts[1] == 0
    ds.step_brisques(1, 7)
    ds.step_brisques(5, 1)
    assert ds.brisques_sum() == 16
    assert ds.finish_deal()
    assert str(ds.mode) == "summary"
    assert ds.deal_scores() == [100, 110]
    assert ds.totals() == [100, 110]
    assert dict(ds.breakdown(0)) == {"R-BRISQUE": 90, "R-LAST-TRICK": 10}
    assert dict(ds.breakdown(1)) == {"bezique": 40, "R-BRISQUE": 70}
    ds.next_deal()
    assert str(ds.mode) == "setup" and ds.deal_number == 2
    assert ds.setup_dealer == 1  # the next player deals by default
    ds.cancel_end()


def test_cancel_end_returns_to_play(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.open_end()
    ds.cancel_end()
    assert str(ds.mode) == "play"


def test_undo_back_through_the_deal_start(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.undo()
    assert str(ds.mode) == "setup"
    assert not ds.undo()
    assert ds.redo()
    assert str(ds.mode) == "play"


def test_reaching_the_target_finishes_the_match(app: AppState) -> None:
    ds = new_match(app, target="100")
    start_deal(ds)
    pick(ds, 1, "QS JD")
    ds.declare(None)
    ds.open_end()
    ds.set_last_trick(1)
    ds.set_brisques(0, "2")
    ds.set_brisques(1, "14")
    assert ds.finish_deal()
    assert str(ds.mode) == "finished"
    result = ds.match.result()
    assert result.winner == "Boris" and result.decided_by == "R-TARGET"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rulings_follow_the_language(app: AppState, lang: str) -> None:
    ds = new_match(app)
    start_deal(ds)
    app.set_language(lang)
    view = ds.seven(0)
    assert view is not None
    if lang == "ru":
        assert any("а" <= ch <= "я" for ch in view.text)
    app.set_language("en" if lang == "ru" else "ru")
    assert ds.ruling is not None and ds.ruling.text != view.text


def test_the_session_copy_equals_a_reload_from_storage(app: AppState, store: Any) -> None:
    """Recording applies the event locally; the result must be what storage replays."""
    ds = new_match(app, tracking="tricks")
    start_deal(ds)
    ds.trick(0)
    pick(ds, 0, "KS QS JD")
    ds.declare("bezique")
    ds.trick(1)
    ds.seven(1)
    pick(ds, 1, "QD")
    ds.declare(None)  # rejected: recorded as such
    ds.trick(0)
    ds.score_pending(0, 0)
    ds.penalty(1, "P-REVOKE")
    session = app.session
    assert session is not None
    session.flush()
    fresh = store.load_match(session.match_id)
    assert fresh.result().to_json() == session.match.result().to_json()
    assert [str(e) for e in fresh.current.events] == [str(e) for e in session.match.current.events]
    assert (session.can_undo, session.can_redo) == (
        store.can_undo(session.match_id),
        store.can_redo(session.match_id),
    )


def test_a_failed_write_is_reported_and_the_stored_truth_comes_back(
    app: AppState, store: Any, monkeypatch: Any
) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.seven(0)
    assert app.session is not None
    app.session.flush()

    def broken(*_a: Any, **_k: Any) -> Any:
        raise OSError("disk full")

    monkeypatch.setattr(store, "record", broken)
    shown = ds.seven(1)  # applied at once; the write fails in the background
    assert shown is not None and ds.deal_scores() == [10, 10]
    monkeypatch.undo()
    assert ds.undo() is False  # the next action finds the failure ...
    assert ds.notice is not None and ds.notice.key == "error.storage"
    assert "disk full" in str(ds.notice.args["why"])
    assert ds.deal_scores() == [10, 0]  # ... and the screen shows what storage holds
    assert ds.undo()  # storage is fine again
    assert ds.deal_scores() == [0, 0]


def test_cards_tracking_records_each_trick_with_its_cards(app: AppState) -> None:
    ds = new_match(app, tracking="cards")
    start_deal(ds)  # Anna deals, so Boris leads (R-LEAD)
    ds.open_trick()
    assert ds.trick_open
    assert not ds.record_trick()
    assert ds.trick_errors == {"cards": "trick.pick_cards", "winner": "trick.pick_winner"}
    ds.set_trick_rank(1, Rank.ACE)
    ds.set_trick_suit(1, Suit.SPADES)
    ds.set_trick_rank(0, Rank.SEVEN)
    ds.set_trick_suit(0, Suit.SPADES)
    assert ds.trick_card(1) == C("AS")
    ds.set_trick_winner(0)  # wrong: the ace led wins
    assert not ds.record_trick()
    assert ds.notice is not None and ds.notice.key == "error.engine"
    assert ds.trick_open and ds.tricks_played() == 0
    ds.set_trick_winner(1)
    assert ds.record_trick()
    assert not ds.trick_open and ds.tricks_played() == 1
    assert ds.stock_left() == 23
    pick(ds, 1, "QS JD")
    view = ds.declare("bezique")
    assert view is not None and view.accepted
    # the next trick: Boris leads the Q♠ from his table
    ds.open_trick()
    ds.toggle_from_table(1)
    ds.set_trick_rank(1, Rank.QUEEN)
    ds.set_trick_suit(1, Suit.SPADES)
    ds.set_trick_rank(0, Rank.KING)
    ds.set_trick_suit(0, Suit.SPADES)
    ds.set_trick_winner(0)
    assert ds.record_trick()
    assert [c.code for c in ds.table(1)] == ["JD"]  # the queen left the table
    ds.close_trick()


def test_a_change_from_another_device_is_noticed_and_reloaded(app: AppState, store: Any) -> None:
    """Two devices on one match: the second, not yet aware of the first's entry, shows the
    engine's ruling on its own copy; storage rules otherwise, and the next action says so and
    shows what is stored."""
    ds_a = new_match(app)
    start_deal(ds_a)
    other = AppState(store, lang="en")
    assert other.resume()
    ds_b = other.deal
    assert ds_b is not None
    ds_a.stock_exhausted()  # device A: phase 2 begins
    assert app.session is not None
    app.session.flush()
    pick(ds_b, 0, "KC QC")  # device B still thinks it is phase 1
    shown = ds_b.declare(None)
    assert shown is not None and shown.accepted
    assert ds_b.undo() is False
    assert ds_b.notice is not None and ds_b.notice.key == "table.stale"
    assert ds_b.phase() == 2  # B now shows what storage holds
    assert ds_b.deal_scores() == [0, 0]
