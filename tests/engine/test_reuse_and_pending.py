"""R-REUSE (default), H-REUSE-CLASSES and R-PENDING (RULES.md §3).

Trumps are hearts (turn-up 9H) unless a test says otherwise."""

from __future__ import annotations

from .conftest import decl, pending, record, rejected, replay, scores, trick

FOUR_KINGS = ["KS", "KH", "KD", "KC"]
CLASSES = ["H-REUSE-CLASSES"]


# ------------------------------------------------------------------ R-REUSE
def test_r_reuse_marriage_then_four_kings_with_that_king() -> None:
    # marriage K♣ Q♣ 20; four kings reusing K♣: 80 > 20 -> 20 + 80 = 100
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["KS", "KH", "KD"], ["KC"])])
    assert rejected(doc) == {}
    assert scores(doc) == (100, 0)


def test_r_reuse_four_kings_then_marriage_with_one_of_them_is_rejected() -> None:
    # four kings 80; marriage K♣ Q♣ 20 does not score more than 80
    doc = record([decl("Anna", FOUR_KINGS), decl("Anna", ["QC"], ["KC"], "marriage")])
    assert rejected(doc) == {(0, 1): "R-REUSE"}
    assert scores(doc) == (80, 0)


def test_r_reuse_bezique_then_double_bezique() -> None:
    # bezique 40, then the second Q♠ J♦ with the first pair: double bezique 500 -> 540
    doc = record([decl("Anna", ["QS", "JD"]),
                  decl("Anna", ["QS", "JD"], ["QS", "JD"], "double_bezique")])
    assert rejected(doc) == {}
    assert scores(doc) == (540, 0)


def test_r_reuse_sequence_then_marriage_from_it_is_rejected() -> None:
    # trump sequence 250; a double trump marriage (80) reusing its K♥ Q♥ scores less
    doc = record([decl("Anna", ["AH", "10H", "KH", "QH", "JH"]),
                  decl("Anna", ["KH", "QH"], ["KH", "QH"], "double_trump_marriage")])
    assert rejected(doc) == {(0, 1): "R-REUSE"}
    assert scores(doc) == (250, 0)


def test_r_reuse_sequence_k_q_cannot_score_the_marriage_alone() -> None:
    # The K♥ Q♥ inside a sequence never become a pending marriage (R-PENDING), and a
    # declaration with no new card scores only a pending one (R-NEW-CARD).
    doc = record([decl("Anna", ["AH", "10H", "KH", "QH", "JH"]),
                  decl("Anna", [], ["KH", "QH"], "trump_marriage")])
    assert rejected(doc) == {(0, 1): "R-NEW-CARD"}
    assert scores(doc) == (250, 0)


def test_r_reuse_marriage_then_sequence() -> None:
    # marriage K♣ Q♣ 20; sequence A♣ 10♣ J♣ + K♣ Q♣: 100 > 20 -> 120
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["AC", "10C", "JC"], ["KC", "QC"])])
    assert rejected(doc) == {}
    assert scores(doc) == (120, 0)


def test_r_reuse_same_kind_twice_is_rejected() -> None:
    # four kings 80; four kings again with K♣ from the table: same kind
    doc = record([decl("Anna", FOUR_KINGS), decl("Anna", ["KS", "KH", "KD"], ["KC"])])
    assert rejected(doc) == {(0, 1): "R-REUSE"}
    assert scores(doc) == (80, 0)


def test_r_reuse_equal_points_is_not_more() -> None:
    # Spades trumps: K♠ Q♠ trump marriage 40; bezique J♦ + Q♠ is 40, not more than 40.
    doc = record([decl("Anna", ["KS", "QS"]), decl("Anna", ["JD"], ["QS"], "bezique")],
                 turn_up="9S")
    assert rejected(doc) == {(0, 1): "R-REUSE"}
    assert scores(doc) == (40, 0)


def test_r_reuse_bezique_then_four_queens() -> None:
    # bezique 40; four queens with the Q♠: 60 > 40 -> 100
    doc = record([decl("Anna", ["QS", "JD"]), decl("Anna", ["QH", "QD", "QC"], ["QS"])])
    assert scores(doc) == (100, 0)


def test_r_reuse_four_queens_then_bezique_is_rejected() -> None:
    # four queens 60; bezique with one of them: 40 < 60
    doc = record([decl("Anna", ["QS", "QH", "QD", "QC"]), decl("Anna", ["JD"], ["QS"])])
    assert rejected(doc) == {(0, 1): "R-REUSE"}
    assert scores(doc) == (60, 0)


def test_r_reuse_must_score_more_than_every_combination_the_card_scored_in() -> None:
    # K♥ Q♥ trump marriage 40; four kings with K♥ 80 (> 40).  K♥ has now scored 40 and 80:
    # a double trump marriage (80) is not more than 80 -> rejected.  Total 40 + 80 = 120.
    doc = record([decl("Anna", ["KH", "QH"]), decl("Anna", ["KS", "KD", "KC"], ["KH"]),
                  decl("Anna", ["KH", "QH"], ["KH", "QH"], "double_trump_marriage")])
    assert rejected(doc) == {(0, 2): "R-REUSE"}
    assert scores(doc) == (120, 0)


def test_r_reuse_more_than_every_one_passes() -> None:
    # K♣ Q♣ marriage 20, four kings with K♣ 80, sequence A♣ 10♣ J♣ + K♣ Q♣ 100 > 80 and 20:
    # 20 + 80 + 100 = 200
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["KS", "KD", "KH"], ["KC"]),
                  decl("Anna", ["AC", "10C", "JC"], ["KC", "QC"])])
    assert rejected(doc) == {}
    assert scores(doc) == (200, 0)


def test_r_reuse_marriage_then_double_marriage() -> None:
    # marriage K♣ Q♣ 20; the second K♣ Q♣ with the first: double marriage 40 > 20 -> 60
    doc = record([decl("Anna", ["KC", "QC"]),
                  decl("Anna", ["KC", "QC"], ["KC", "QC"], "double_marriage")])
    assert rejected(doc) == {}
    assert scores(doc) == (60, 0)


# ------------------------------------------------------------------ H-REUSE-CLASSES
def test_h_reuse_classes_four_kings_then_marriage_is_allowed() -> None:
    # different classes (four of a kind / marriages): free reuse -> 80 + 20 = 100
    doc = record([decl("Anna", FOUR_KINGS), decl("Anna", ["QC"], ["KC"], "marriage")],
                 house_rules=CLASSES)
    assert rejected(doc) == {}
    assert scores(doc) == (100, 0)


def test_h_reuse_classes_four_queens_then_bezique_is_allowed() -> None:
    doc = record([decl("Anna", ["QS", "QH", "QD", "QC"]), decl("Anna", ["JD"], ["QS"])],
                 house_rules=CLASSES)
    assert scores(doc) == (100, 0)  # 60 + 40


def test_h_reuse_classes_equal_across_classes_is_allowed() -> None:
    # Spades trumps: trump marriage 40 then bezique 40 with the Q♠ (another class) -> 80
    doc = record([decl("Anna", ["KS", "QS"]), decl("Anna", ["JD"], ["QS"], "bezique")],
                 turn_up="9S", house_rules=CLASSES)
    assert rejected(doc) == {}
    assert scores(doc) == (80, 0)


def test_h_reuse_classes_lower_within_a_class_is_rejected() -> None:
    # trump sequence 250, then a double trump marriage (80, same class) from its K♥ Q♥
    doc = record([decl("Anna", ["AH", "10H", "KH", "QH", "JH"]),
                  decl("Anna", ["KH", "QH"], ["KH", "QH"], "double_trump_marriage")],
                 house_rules=CLASSES)
    assert rejected(doc) == {(0, 1): "H-REUSE-CLASSES"}
    assert scores(doc) == (250, 0)


def test_h_reuse_classes_greater_within_a_class_is_allowed() -> None:
    # marriage 20 -> sequence 100; bezique 40 -> double bezique 500: 20+100+40+500 = 660
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["AC", "10C", "JC"], ["KC", "QC"]),
                  decl("Anna", ["QS", "JD"]),
                  decl("Anna", ["QS", "JD"], ["QS", "JD"], "double_bezique")],
                 house_rules=CLASSES)
    assert rejected(doc) == {}
    assert scores(doc) == (660, 0)


def test_h_reuse_classes_same_kind_is_still_rejected() -> None:
    doc = record([decl("Anna", FOUR_KINGS), decl("Anna", ["KS", "KH", "KD"], ["KC"])],
                 house_rules=CLASSES)
    assert set(rejected(doc)) == {(0, 1)}
    assert scores(doc) == (80, 0)


# ------------------------------------------------------------------ R-PENDING
KSQSJD = ["KS", "QS", "JD"]


def test_r_pending_seed_example_bezique_then_marriage() -> None:
    # K♠ Q♠ J♦ laid: bezique 40 now, marriage K♠ Q♠ pending; after the next trick won it
    # scores 20 (not a reuse: "more points" does not apply) -> 60
    doc = record([trick("Anna"), decl("Anna", KSQSJD, meld="bezique"),
                  trick("Anna"), pending("Anna", ["KS", "QS"], "marriage")], tracking="tricks")
    assert rejected(doc) == {}
    assert scores(doc) == (60, 0)


def test_r_pending_meld_may_be_left_out_when_scoring_it() -> None:
    doc = record([trick("Anna"), decl("Anna", KSQSJD, meld="bezique"),
                  trick("Anna"), pending("Anna", ["KS", "QS"])], tracking="tricks")
    assert scores(doc) == (60, 0)


def test_r_pending_marriage_scored_first_bezique_later() -> None:
    # marriage 20 now, bezique 40 pending -> 60
    doc = record([trick("Anna"), decl("Anna", KSQSJD, meld="marriage"),
                  trick("Anna"), pending("Anna", ["QS", "JD"], "bezique")], tracking="tricks")
    assert rejected(doc) == {}
    assert scores(doc) == (60, 0)


def test_r_pending_not_after_the_same_trick() -> None:
    doc = record([trick("Anna"), decl("Anna", KSQSJD, meld="bezique"),
                  pending("Anna", ["KS", "QS"])], tracking="tricks")
    assert rejected(doc) == {(0, 2): "R-ONE-PER-TRICK"}
    assert scores(doc) == (40, 0)


def test_r_pending_only_when_that_player_wins_a_trick() -> None:
    doc = record([trick("Anna"), decl("Anna", KSQSJD, meld="bezique"),
                  trick("Boris"), pending("Anna", ["KS", "QS"]),
                  trick("Anna"), pending("Anna", ["KS", "QS"])], tracking="tricks")
    assert rejected(doc) == {(0, 3): "R-DECLARE-AFTER-TRICK"}
    assert scores(doc) == (60, 0)


def test_r_pending_scoring_is_that_tricks_declaration() -> None:
    doc = record([trick("Anna"), decl("Anna", KSQSJD, meld="bezique"),
                  trick("Anna"), pending("Anna", ["KS", "QS"]), decl("Anna", ["KC", "QC"])],
                 tracking="tricks")
    assert rejected(doc) == {(0, 4): "R-ONE-PER-TRICK"}
    assert scores(doc) == (60, 0)


def test_r_pending_scores_once() -> None:
    doc = record([decl("Anna", KSQSJD, meld="bezique"), pending("Anna", ["KS", "QS"]),
                  pending("Anna", ["KS", "QS"])])
    assert rejected(doc) == {(0, 2): "R-NEW-CARD"}
    assert scores(doc) == (60, 0)


def test_r_pending_is_personal() -> None:
    # Boris has no pending combination; the cards are not even on his table.
    doc = record([decl("Anna", KSQSJD, meld="bezique"), pending("Boris", ["KS", "QS"])])
    assert set(rejected(doc)) == {(0, 1)}
    assert scores(doc) == (40, 0)


def test_r_pending_wrong_kind_named_is_rejected() -> None:
    doc = record([decl("Anna", KSQSJD, meld="bezique"),
                  pending("Anna", ["KS", "QS"], "trump_marriage")])
    assert set(rejected(doc)) == {(0, 1)}
    assert scores(doc) == (40, 0)


def test_r_pending_needs_its_cards_on_the_table() -> None:
    # Cards level. Trick 1: Boris 7C, Anna 8C -> Anna; she lays K♠ Q♠ J♦, bezique 40.
    # Trick 2: Anna leads K♠ off the table, Boris 9C -> Anna (spades led, clubs no trump).
    # The pending marriage K♠ Q♠ lost its king: it can no longer score.
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}),
        decl("Anna", KSQSJD, meld="bezique"),
        trick("Anna", {"Anna": "KS", "Boris": "9C"}, from_table=["Anna"]),
        pending("Anna", ["KS", "QS"]),
    ]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {(0, 3): "R-ON-TABLE"}
    assert scores(doc) == (40, 0)


def test_r_pending_cards_inside_the_scored_one_never_pend() -> None:
    # double bezique 500: its beziques never become pending.
    doc = record([decl("Anna", ["QS", "QS", "JD", "JD"]), pending("Anna", ["QS", "JD"])])
    assert rejected(doc) == {(0, 1): "R-NEW-CARD"}
    assert scores(doc) == (500, 0)


def test_r_pending_kind_already_scored_by_its_cards_does_not_pend() -> None:
    # K♠ Q♠ marriage 20.  Then J♦ and a second K♠ with the Q♠ from the table: the bezique
    # (40 > 20) scores; the marriage of the new K♠ with that Q♠ would make the Q♠ score a
    # second marriage, so it is not pending and the new K♠ is idle -> rejected.
    doc = record([decl("Anna", ["KS", "QS"]), decl("Anna", ["KS", "JD"], ["QS"], "bezique")])
    assert rejected(doc) == {(0, 1): "R-NEW-CARD"}
    # Without the idle K♠ the bezique scores: 20 + 40 = 60.
    doc = record([decl("Anna", ["KS", "QS"]), decl("Anna", ["JD"], ["QS"], "bezique")])
    assert scores(doc) == (60, 0)


def test_r_pending_is_not_a_reuse_even_after_a_greater_one() -> None:
    # K♠ Q♠ J♦: bezique 40, marriage pending.  Next: four queens with Q♠ (60 > 40).
    # Then the pending marriage K♠ Q♠ still scores 20 though Q♠ scored 60 since.
    doc = record([decl("Anna", KSQSJD, meld="bezique"),
                  decl("Anna", ["QH", "QD", "QC"], ["QS"], "four_queens"),
                  pending("Anna", ["KS", "QS"], "marriage")])
    assert rejected(doc) == {}
    assert scores(doc) == (120, 0)  # 40 + 60 + 20


def test_r_pending_dies_with_its_card_even_if_a_copy_is_laid_later() -> None:
    # Cards level, hearts trumps. Trick 1 Anna: K♠ Q♠ J♦, bezique 40, marriage K♠ Q♠ pending.
    # Trick 2: Anna leads that K♠ off the table (9♣ no spade, no trump: Anna's trick) and lays
    # four kings with the other K♠ (80). Trick 3 Anna (8♦ over 7♦): the pending marriage is
    # dead -- its K♠ was played; the K♠ on the table now is another card, which scored in
    # four kings and could not join a marriage anyway (20 < 80, R-REUSE). 40 + 80 = 120.
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}),
        decl("Anna", KSQSJD, meld="bezique"),
        trick("Anna", {"Anna": "KS", "Boris": "9C"}, from_table=["Anna"]),
        decl("Anna", ["KS", "KH", "KD", "KC"]),
        trick("Anna", {"Anna": "8D", "Boris": "7D"}),
        pending("Anna", ["KS", "QS"]),
    ]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {(0, 5): "R-ON-TABLE"}
    assert scores(doc) == (120, 0)
    assert replay(doc).deals[0].pending_of(0) == []


def test_r_pending_survives_when_an_identical_copy_is_played_instead() -> None:
    # As above, but the four kings come first: K♠ K♥ K♦ K♣ (80), then K♠ Q♠ J♦ with a second
    # K♠ (bezique 40, marriage pending). Anna then plays a K♠ off the table: the engine lets
    # the one in four kings go (the player's better choice), so the marriage still scores 20.
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}),
        decl("Anna", ["KS", "KH", "KD", "KC"]),
        trick("Anna", {"Boris": "7D", "Anna": "8D"}),
        decl("Anna", KSQSJD, meld="bezique"),
        trick("Anna", {"Anna": "KS", "Boris": "9C"}, from_table=["Anna"]),
        pending("Anna", ["KS", "QS"]),
    ]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {}
    assert scores(doc) == (140, 0)  # 80 + 40 + 20
