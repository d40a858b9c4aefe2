"""RULES.md §3 timing and card rules: R-DECLARE-AFTER-TRICK, R-ONE-PER-TRICK, R-NEW-CARD,
R-ON-TABLE, R-NO-DECLARE-AFTER-STOCK and R-PACK (copies at every tracking level).

Trumps are hearts (turn-up 9H) unless a test says otherwise; Anna deals, Boris leads."""

from __future__ import annotations

import pytest

from referee.errors import RecordError

from .conftest import (
    alternate,
    brisques,
    decl,
    last,
    pending,
    record,
    rejected,
    replay,
    ruling,
    scores,
    seven,
    stock,
    trick,
    tricks,
)

BEZIQUE = ["QS", "JD"]


# ------------------------------------------------------------------ R-DECLARE-AFTER-TRICK
def test_r_declare_after_trick_winner_may_declare() -> None:
    doc = record([trick("Anna"), decl("Anna", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {}
    assert scores(doc) == (40, 0)


def test_r_declare_after_trick_before_any_trick_is_rejected() -> None:
    doc = record([decl("Anna", BEZIQUE), trick("Anna")], tracking="tricks")
    assert rejected(doc) == {(0, 0): "R-DECLARE-AFTER-TRICK"}
    assert ruling(doc, 0).proposes == "P-EARLY-DECLARE"
    assert scores(doc) == (0, 0)


def test_r_declare_after_trick_loser_may_not_declare() -> None:
    doc = record([trick("Boris"), decl("Anna", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {(0, 1): "R-DECLARE-AFTER-TRICK"}
    assert ruling(doc, 1).proposes == "P-EARLY-DECLARE"
    assert scores(doc) == (0, 0)


def test_r_declare_after_trick_only_right_after_winning_it() -> None:
    # Anna won trick 1 but Boris won trick 2: her right has passed.
    doc = record([trick("Anna"), trick("Boris"), decl("Anna", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {(0, 2): "R-DECLARE-AFTER-TRICK"}


def test_r_declare_after_trick_is_not_checked_with_melds_tracking() -> None:
    # Tricks are not recorded: who may declare when is not checked (spec, tracking).
    doc = record([decl("Anna", BEZIQUE), decl("Boris", ["KC", "QC"])])
    assert rejected(doc) == {}
    assert scores(doc) == (40, 20)


# ------------------------------------------------------------------ R-ONE-PER-TRICK
def test_r_one_per_trick_second_declaration_is_rejected() -> None:
    doc = record([trick("Anna"), decl("Anna", BEZIQUE), decl("Anna", ["KC", "QC"])],
                 tracking="tricks")
    assert rejected(doc) == {(0, 2): "R-ONE-PER-TRICK"}
    assert scores(doc) == (40, 0)


def test_r_one_per_trick_one_declaration_for_each_trick_won() -> None:
    # 40 (bezique) + 20 (marriage of clubs) = 60
    doc = record([trick("Anna"), decl("Anna", BEZIQUE), trick("Anna"), decl("Anna", ["KC", "QC"])],
                 tracking="tricks")
    assert rejected(doc) == {}
    assert scores(doc) == (60, 0)


def test_r_one_per_trick_rejected_declaration_does_not_use_up_the_right() -> None:
    # A rejected (false) declaration changes nothing: the next one after the same trick scores.
    doc = record([trick("Anna"), decl("Anna", ["KC", "QD"]), decl("Anna", BEZIQUE)],
                 tracking="tricks")
    assert set(rejected(doc)) == {(0, 1)}
    assert scores(doc) == (40, 0)


def test_r_one_per_trick_a_seven_is_the_tricks_declaration() -> None:
    doc = record([trick("Anna"), seven("Anna"), decl("Anna", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {(0, 2): "R-ONE-PER-TRICK"}
    assert scores(doc) == (10, 0)


# ------------------------------------------------------------------ R-NEW-CARD
def test_r_new_card_declaration_with_no_new_card_is_rejected() -> None:
    # Q♠ J♦ already scored as a bezique; declaring them again with nothing new is no pending.
    doc = record([decl("Anna", BEZIQUE), pending("Anna", BEZIQUE, "bezique")])
    assert rejected(doc) == {(0, 1): "R-NEW-CARD"}
    assert scores(doc) == (40, 0)


def test_r_new_card_empty_declaration_is_rejected() -> None:
    doc = record([decl("Anna", [])])
    assert rejected(doc) == {(0, 0): "R-NEW-CARD"}


def test_r_new_card_one_new_card_with_table_cards_scores() -> None:
    # bezique 40; then four queens Q♥ Q♦ Q♣ new + Q♠ from the table: 60 > 40, so 40 + 60 = 100.
    doc = record([decl("Anna", BEZIQUE), decl("Anna", ["QH", "QD", "QC"], ["QS"], "four_queens")])
    assert rejected(doc) == {}
    assert scores(doc) == (100, 0)


def test_r_new_card_laid_card_in_no_combination_is_rejected() -> None:
    doc = record([decl("Anna", ["KC", "QC", "9D"], meld="marriage")])
    assert rejected(doc) == {(0, 0): "R-NEW-CARD"}
    assert scores(doc) == (0, 0)


def test_r_new_card_table_card_in_no_combination_is_rejected() -> None:
    doc = record([decl("Anna", BEZIQUE), decl("Anna", ["KC", "QC"], ["JD"], "marriage")])
    assert rejected(doc) == {(0, 1): "R-NEW-CARD"}
    assert scores(doc) == (40, 0)


# ------------------------------------------------------------------ R-ON-TABLE
def test_r_on_table_table_card_must_be_on_the_players_table() -> None:
    # Q♠ is not on Anna's table.
    doc = record([decl("Anna", ["QH", "QD", "QC"], ["QS"], "four_queens")])
    assert rejected(doc) == {(0, 0): "R-ON-TABLE"}


def test_r_on_table_opponents_declared_cards_are_not_yours() -> None:
    doc = record([decl("Boris", BEZIQUE), decl("Anna", ["QH", "QD", "QC"], ["QS"], "four_queens")])
    assert rejected(doc) == {(0, 1): "R-ON-TABLE"}
    assert scores(doc) == (0, 40)


def test_r_on_table_declared_cards_stay_and_may_be_built_on() -> None:
    # K♣ Q♣ marriage 20, stays on the table; later four kings with K♣ from it: 80 > 20.
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["KS", "KH", "KD"], ["KC"])])
    assert rejected(doc) == {}
    assert scores(doc) == (100, 0)


def test_r_on_table_played_card_leaves_the_table_at_cards_level() -> None:
    # Boris leads (Anna deals). Trick 1: Boris 7C, Anna 8C -> Anna. She declares K♣ Q♣ (20).
    # Trick 2: Anna leads K♣ from the table, Boris 9S -> Anna (K♣ led, 9♠ no trump, not clubs).
    # Four kings then cannot use K♣: it has left her table.
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}),
        decl("Anna", ["KC", "QC"]),
        trick("Anna", {"Anna": "KC", "Boris": "9S"}, from_table=["Anna"]),
        decl("Anna", ["KS", "KH", "KD"], ["KC"], "four_kings"),
    ]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {(0, 3): "R-ON-TABLE"}
    assert scores(doc) == (20, 0)
    assert [c.code for c in replay(doc).deals[0].table(0)] == ["QC"]


# ------------------------------------------------------------------ R-NO-DECLARE-AFTER-STOCK
def test_r_no_declare_after_stock_melds() -> None:
    doc = record([decl("Anna", BEZIQUE), stock(), decl("Boris", ["KC", "QC"]), seven("Anna")])
    assert rejected(doc) == {(0, 2): "R-NO-DECLARE-AFTER-STOCK", (0, 3): "R-NO-DECLARE-AFTER-STOCK"}
    assert scores(doc) == (40, 0)


def test_r_no_declare_after_stock_winner_of_trick_24_may_declare() -> None:
    # 24 tricks alternate Anna/Boris: trick 24 is Boris's; he declares before the last draw.
    doc = record([*alternate(24), decl("Boris", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {}
    assert scores(doc) == (0, 40)


def test_r_no_declare_after_stock_first_trick_of_phase_two_ends_declarations() -> None:
    doc = record([*alternate(24), trick("Anna"), decl("Anna", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {(0, 25): "R-NO-DECLARE-AFTER-STOCK"}
    assert scores(doc) == (0, 0)


def test_r_no_declare_after_stock_pending_cannot_score_in_phase_two() -> None:
    # K♠ Q♠ J♦ after trick 24: bezique 40, marriage pending; trick 25 begins phase 2.
    events = [*alternate(23), trick("Anna"), decl("Anna", ["KS", "QS", "JD"], meld="bezique"),
              trick("Anna"), pending("Anna", ["KS", "QS"])]
    doc = record(events, tracking="tricks")
    assert rejected(doc) == {(0, 26): "R-NO-DECLARE-AFTER-STOCK"}
    assert scores(doc) == (40, 0)


# ------------------------------------------------------------------ R-PACK
def test_r_pack_two_copies_of_a_card_may_be_declared() -> None:
    # Each player lays one Q♠ and one J♦: 2 packs hold 2 copies of each.
    doc = record([decl("Anna", BEZIQUE), decl("Boris", BEZIQUE)])
    assert scores(doc) == (40, 40)


def test_r_pack_third_copy_on_the_tables_is_rejected() -> None:
    doc = record([decl("Anna", BEZIQUE), decl("Boris", BEZIQUE),
                  decl("Anna", ["QS", "QH", "QD", "QC"], meld="four_queens")])
    assert rejected(doc) == {(0, 2): "R-PACK"}
    assert ruling(doc, 2).proposes == "P-FALSE-DECLARATION"
    assert scores(doc) == (40, 40)


def test_r_pack_double_bezique_with_one_copy_on_the_other_table_is_rejected() -> None:
    doc = record([decl("Boris", ["QS", "QH", "QD", "QC"]),
                  decl("Anna", ["QS", "QS", "JD", "JD"])])
    assert rejected(doc) == {(0, 1): "R-PACK"}
    assert scores(doc) == (0, 60)


def test_r_pack_the_turn_up_is_a_copy() -> None:
    # Turn-up Q♠ (spades trumps): only one other Q♠ exists outside the stock's turn-up.
    doc = record([decl("Anna", BEZIQUE), decl("Boris", BEZIQUE)], turn_up="QS")
    assert rejected(doc) == {(0, 1): "R-PACK"}
    assert scores(doc) == (40, 0)


@pytest.mark.parametrize(
    ("turn_up", "events", "ok"),
    [
        # K♥ K♥ Q♥ Q♥ = double trump marriage, 80, when no K♥ is visible elsewhere.
        ("9H", [], True),
        # The turn-up K♥ is one copy: two more K♥ would be three.
        ("KH", [], False),
        # Anna exchanged the seven for the turn-up K♥: it is in her hand now, still a copy.
        ("KH", [seven("Anna")], False),
    ],
)
def test_r_pack_turn_up_and_exchanged_turn_up(turn_up: str, events: list[dict[str, object]],
                                              ok: bool) -> None:
    doc = record([*events, decl("Boris", ["KH", "KH", "QH", "QH"])], turn_up=turn_up)
    n = len(events)
    if ok:
        assert rejected(doc) == {}
        assert scores(doc)[1] == 80
    else:
        assert rejected(doc) == {(0, n): "R-PACK"}
        assert scores(doc)[1] == 0


def test_r_pack_exchanged_turn_up_may_be_declared_by_its_holder() -> None:
    # Anna exchanges 7♥ for the turn-up K♥ (10), then lays K♥ K♥ Q♥ Q♥: one K♥ is the
    # exchanged turn-up in her hand, the other her own: 10 + 80 = 90.
    doc = record([seven("Anna"), decl("Anna", ["KH", "KH", "QH", "QH"])], turn_up="KH")
    assert rejected(doc) == {}
    assert scores(doc) == (90, 0)


def test_r_pack_played_cards_count_at_cards_level() -> None:
    # Trick 1: Boris leads Q♠, Anna plays Q♠: equal cards, the one led wins (R-RANK) -> Boris.
    # Both Q♠ are played: a bezique is then impossible (R-PACK).
    events = [trick("Boris", {"Boris": "QS", "Anna": "QS"}), decl("Boris", BEZIQUE)]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {(0, 1): "R-PACK"}
    assert ruling(doc, 1).proposes == "P-FALSE-DECLARATION"


def test_r_pack_one_played_copy_leaves_one() -> None:
    events = [trick("Boris", {"Boris": "QS", "Anna": "7C"}), decl("Boris", BEZIQUE)]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {}
    assert scores(doc) == (0, 40)


def test_r_pack_played_cards_do_not_count_below_cards_level() -> None:
    # With tricks tracking the cards played are unknown: both players' beziques stand.
    doc = record([trick("Boris"), decl("Boris", BEZIQUE), trick("Anna"), decl("Anna", BEZIQUE)],
                 tracking="tricks")
    assert scores(doc) == (40, 40)


def test_r_pack_third_copy_played_is_an_input_error() -> None:
    events = [
        trick("Boris", {"Boris": "AS", "Anna": "AS"}),
        trick("Boris", {"Boris": "AS", "Anna": "7C"}),
    ]
    with pytest.raises(RecordError) as info:
        replay(record(events, tracking="cards"))
    assert info.value.path == "deals[0].events[1]"
    assert "R-PACK" in str(info.value) or "no other copy" in str(info.value)


def test_r_pack_played_then_declared_card_exceeds_copies() -> None:
    # One Q♠ played; Anna has laid the other in a bezique; Boris cannot lay a third.
    events = [
        trick("Anna", {"Boris": "QS", "Anna": "AS"}),
        decl("Anna", BEZIQUE),
        trick("Boris", {"Anna": "7C", "Boris": "8C"}),
        decl("Boris", ["QS", "QH", "QD", "QC"], meld="four_queens"),
    ]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {(0, 3): "R-PACK"}
    assert scores(doc) == (40, 0)


def test_r_declare_after_trick_tricks_of_other_suits_do_not_matter() -> None:
    # Sanity: three tricks in a row for Anna, a declaration after each of them.
    doc = record([*tricks("Anna"), decl("Anna", BEZIQUE), *tricks("Anna"),
                  decl("Anna", ["KC", "QC"]), *tricks("Anna"), decl("Anna", ["KD", "QD"])],
                 tracking="tricks")
    assert scores(doc) == (80, 0)  # 40 + 20 + 20


def test_r_no_declare_after_stock_marked_after_trick_24_with_tricks_tracking() -> None:
    # stock_exhausted is optional with tricks tracking, but when given after trick 24 it says
    # the last card has been drawn: a declaration after it comes too late.
    doc = record([*alternate(24), stock(), decl("Boris", BEZIQUE)], tracking="tricks")
    assert rejected(doc) == {(0, 25): "R-NO-DECLARE-AFTER-STOCK"}
    assert scores(doc) == (0, 0)
    # ... and it changes nothing else: the deal plays on to trick 32 as before.
    doc = record([*alternate(24), stock(), *alternate(8), {"type": "brisques",
                  "counts": {"Anna": 8, "Boris": 8}}], tracking="tricks")
    assert scores(doc) == (80, 90)  # trick 32 is Boris's: +10


def test_r_new_card_scored_combination_needs_a_new_card_of_its_own() -> None:
    # Anna's table: K♥ Q♥ (40), K♦ Q♦ (20), K♣ Q♣ (20), Q♠ J♦ (40) = 120.  Four queens from
    # those four table queens has no new card; adding a K♠ (which only forms a marriage with
    # the table Q♠, to be pending) does not make it a new declaration -> rejected.
    base = [decl("Anna", ["KH", "QH"]), decl("Anna", ["KD", "QD"]), decl("Anna", ["KC", "QC"]),
            decl("Anna", BEZIQUE)]
    doc = record([*base, decl("Anna", ["KS"], ["QS", "QH", "QD", "QC"], "four_queens")])
    assert rejected(doc) == {(0, 4): "R-NEW-CARD"}
    assert scores(doc) == (120, 0)
    # With a new queen of its own the four queens score (60 > 40, 20): 120 + 60 = 180.
    doc = record([*base, decl("Anna", ["QC"], ["QS", "QH", "QD"], "four_queens")])
    assert rejected(doc) == {}
    assert scores(doc) == (180, 0)


def test_r_no_declare_after_stock_implied_by_the_last_trick_and_brisques() -> None:
    # A melds record that leaves stock_exhausted out: the last trick and the brisques come
    # after the stock ran out, so declarations and sevens after them come too late.
    doc = record([decl("Anna", BEZIQUE), last("Anna"), decl("Boris", ["KC", "QC"]),
                  brisques(8, 8), seven("Boris")])
    assert rejected(doc) == {(0, 2): "R-NO-DECLARE-AFTER-STOCK",
                             (0, 4): "R-NO-DECLARE-AFTER-STOCK"}
    assert scores(doc) == (130, 80)  # Anna 40 + 10 + 80; Boris 80


def test_r_no_declare_after_stock_h_last_trick_24_bonus_does_not_end_declarations() -> None:
    # Under H-LAST-TRICK-24 the bonus is for trick 24, whose winner may still declare.
    doc = record([last("Boris"), decl("Boris", BEZIQUE), stock(), brisques(8, 8)],
                 house_rules=["H-LAST-TRICK-24"])
    assert rejected(doc) == {}
    assert scores(doc) == (80, 130)  # Boris 10 + 40 + 80
