"""R-SEVEN, R-DEALER-SEVEN, H-SEVEN-EXTRA and H-SEVEN-FREE.

Trumps hearts (turn-up 9H) unless said; Anna deals, so Boris leads trick 1."""

from __future__ import annotations

import pytest

from referee.errors import RecordError

from .conftest import (
    alternate,
    decl,
    record,
    rejected,
    replay,
    ruling,
    scores,
    seven,
    stock,
    trick,
)


# ------------------------------------------------------------------ R-SEVEN
def test_r_seven_first_is_exchanged_for_the_turn_up() -> None:
    doc = record([seven("Anna")])
    assert scores(doc) == (10, 0)
    d = replay(doc).deals[0]
    assert d.turn_up is not None and d.turn_up.code == "7H"
    assert ruling(doc, 0).key == "seven_exchanged"


def test_r_seven_second_is_shown() -> None:
    # exchange 10 (Anna) + shown 10 (Boris)
    doc = record([seven("Anna"), seven("Boris")])
    assert rejected(doc) == {}
    assert scores(doc) == (10, 10)
    assert ruling(doc, 1).key == "seven_shown"


def test_r_seven_each_copy_scores_once() -> None:
    # Two packs: two sevens of trumps. Exchanged + shown = both; a third is impossible.
    doc = record([seven("Anna"), seven("Boris"), seven("Anna")])
    assert rejected(doc) == {(0, 2): "R-PACK"}
    assert scores(doc) == (10, 10)


def test_r_seven_is_a_declaration_after_a_trick_won() -> None:
    doc = record([trick("Boris"), seven("Anna"), trick("Anna"), seven("Anna")],
                 tracking="tricks")
    assert rejected(doc) == {(0, 1): "R-DECLARE-AFTER-TRICK"}
    assert scores(doc) == (10, 0)


def test_r_seven_counts_as_the_tricks_declaration() -> None:
    doc = record([trick("Anna"), decl("Anna", ["QS", "JD"]), seven("Anna")], tracking="tricks")
    assert rejected(doc) == {(0, 2): "R-ONE-PER-TRICK"}
    assert scores(doc) == (40, 0)


def test_r_seven_not_after_the_stock() -> None:
    doc = record([stock(), seven("Anna")])
    assert rejected(doc) == {(0, 1): "R-NO-DECLARE-AFTER-STOCK"}
    doc = record([*alternate(25), seven("Anna")], tracking="tricks")
    assert rejected(doc) == {(0, 25): "R-NO-DECLARE-AFTER-STOCK"}


def test_r_seven_winner_of_trick_24_may_still_exchange() -> None:
    doc = record([*alternate(24), seven("Boris")], tracking="tricks")  # trick 24 is Boris's
    assert rejected(doc) == {}
    assert scores(doc) == (0, 10)


def test_r_seven_exchanged_turn_up_goes_to_the_hand() -> None:
    # Turn-up K♥ exchanged by Anna: she holds it and may lay it; K♥ Q♥ trump marriage 40.
    doc = record([seven("Anna"), decl("Anna", ["KH", "QH"])], turn_up="KH")
    assert scores(doc) == (50, 0)  # 10 + 40


def test_r_seven_shown_seven_is_a_known_copy_until_played() -> None:
    # Cards level. Anna exchanges (7♥ becomes the turn-up); Boris shows the other 7♥.
    # Then Anna plays a 7♥ from her hand: that would be a third copy -> input error.
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}), seven("Anna"),
        trick("Boris", {"Anna": "9C", "Boris": "10C"}), seven("Boris"),
        trick("Anna", {"Boris": "8S", "Anna": "7H"}),  # 7♥ trumps 8♠: Anna's trick
    ]
    with pytest.raises(RecordError) as info:
        replay(record(events, tracking="cards"))
    assert info.value.path == "deals[0].events[4]"


def test_r_seven_shown_seven_may_be_played_by_its_holder() -> None:
    # As above, but Boris (who showed it) leads his 7♥: no copy problem.
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}), seven("Anna"),
        trick("Boris", {"Anna": "9C", "Boris": "10C"}), seven("Boris"),
        trick("Boris", {"Boris": "7H", "Anna": "8S"}),
    ]
    doc = record(events, tracking="cards")
    assert rejected(doc) == {}
    assert scores(doc) == (10, 10)


# ------------------------------------------------------------------ R-DEALER-SEVEN
@pytest.mark.parametrize(("dealer", "turn_up", "expect"), [
    ("Anna", "7H", (10, 0)),
    ("Boris", "7S", (0, 10)),
    ("Anna", "8H", (0, 0)),   # an eight: nothing
    ("Boris", "AS", (0, 0)),
])
def test_r_dealer_seven_scores_ten_to_the_dealer(dealer: str, turn_up: str,
                                                 expect: tuple[int, int]) -> None:
    assert scores(record([], dealer=dealer, turn_up=turn_up)) == expect


@pytest.mark.parametrize(("dealer", "turn_up", "shown", "points"), [
    ("Anna", "7H", "7♥", 10), ("Boris", "7S", "7♠", 10), ("Anna", "8H", "", None),
    ("Boris", "AS", "", None),
])
def test_r_dealer_seven_is_a_ruling_in_words_with_its_rule(
    dealer: str, turn_up: str, shown: str, points: int | None
) -> None:
    """Issue 22: a screen says the turned-up seven as it says any ruling (the viewer's last
    ruling before any entry), in the engine's words."""
    doc = record([], dealer=dealer, turn_up=turn_up)
    said = replay(doc).deals[0].dealer_seven()
    if points is None:
        assert said is None
        return
    assert said is not None and said.accepted and said.rule == "R-DEALER-SEVEN"
    assert said.points == points == sum(scores(doc))
    assert said.text("en") == f"{dealer} deals and turns up the {shown}: {points}"
    assert said.text("ru") == f"{dealer} сдаёт, козырем открыта 7{shown[1]} — {points}"


def test_r_dealer_seven_is_no_ruling_where_the_variant_gives_it_nothing() -> None:
    from referee.match import Match

    m = Match.new("rubicon", ["Anna", "Boris"])
    m.start_deal(0, None)
    assert m.current.dealer_seven() is None


def test_r_dealer_seven_then_only_one_seven_is_left_to_show() -> None:
    # Turn-up 7♥: dealer Anna 10. Boris shows the other 7♥ (nothing to exchange): 10.
    # A further seven would be a third copy.
    doc = record([seven("Boris"), seven("Anna")], turn_up="7H")
    assert rejected(doc) == {(0, 1): "R-PACK"}
    assert scores(doc) == (10, 10)
    assert ruling(doc, 0).key == "seven_shown"


# ------------------------------------------------------------------ H-SEVEN-EXTRA
@pytest.mark.parametrize(("rules", "expect"), [((), 0), (("H-SEVEN-EXTRA",), 10)])
def test_h_seven_extra_trick_won_with_the_seven_of_trumps(rules: tuple[str, ...],
                                                           expect: int) -> None:
    # Boris leads 8♠, Anna trumps with 7♥ and wins.
    doc = record([trick("Anna", {"Boris": "8S", "Anna": "7H"})], tracking="cards",
                 house_rules=rules)
    assert scores(doc) == (expect, 0)


def test_h_seven_extra_not_for_a_trick_lost_with_it() -> None:
    doc = record([trick("Boris", {"Boris": "AH", "Anna": "7H"})], tracking="cards",
                 house_rules=["H-SEVEN-EXTRA"])
    assert scores(doc) == (0, 0)


def test_h_seven_extra_not_for_a_plain_seven() -> None:
    # 7♣ led by Boris wins (Anna 9♠ neither follows nor trumps): clubs are not trumps.
    doc = record([trick("Boris", {"Boris": "7C", "Anna": "9S"})], tracking="cards",
                 house_rules=["H-SEVEN-EXTRA"])
    assert scores(doc) == (0, 0)


def test_h_seven_extra_exchange_still_scores() -> None:
    doc = record([seven("Anna")], house_rules=["H-SEVEN-EXTRA"])
    assert scores(doc) == (10, 0)


# ------------------------------------------------------------------ H-SEVEN-FREE
@pytest.mark.parametrize(("rules", "expect", "rej"), [
    ((), (10, 0), {(0, 2): "R-ONE-PER-TRICK"}),
    (("H-SEVEN-FREE",), (50, 0), {}),  # exchange 10 + bezique 40
])
def test_h_seven_free_exchange_besides_the_declaration(
    rules: tuple[str, ...], expect: tuple[int, int], rej: dict[tuple[int, int], str]
) -> None:
    doc = record([trick("Anna"), seven("Anna"), decl("Anna", ["QS", "JD"])],
                 tracking="tricks", house_rules=rules)
    assert rejected(doc) == rej
    assert scores(doc) == expect


def test_h_seven_free_exchange_after_the_declaration() -> None:
    doc = record([trick("Anna"), decl("Anna", ["QS", "JD"]), seven("Anna")],
                 tracking="tricks", house_rules=["H-SEVEN-FREE"])
    assert rejected(doc) == {}
    assert scores(doc) == (50, 0)


def test_h_seven_free_only_the_exchange_is_free() -> None:
    # The second (shown) seven is the trick's declaration as usual.
    doc = record([trick("Anna"), seven("Anna"), trick("Anna"), decl("Anna", ["QS", "JD"]),
                  seven("Anna")], tracking="tricks", house_rules=["H-SEVEN-FREE"])
    assert rejected(doc) == {(0, 4): "R-ONE-PER-TRICK"}
    assert scores(doc) == (50, 0)


def test_h_seven_free_still_needs_a_trick_won() -> None:
    doc = record([trick("Boris"), seven("Anna")], tracking="tricks",
                 house_rules=["H-SEVEN-FREE"])
    assert rejected(doc) == {(0, 1): "R-DECLARE-AFTER-TRICK"}


# ------------------------------------------------------------------ H-SEVEN-TWENTY
def test_h_seven_twenty_exchanged_seven_scores_twenty() -> None:
    doc = record([seven("Anna")], house_rules=["H-SEVEN-TWENTY"])
    assert scores(doc) == (20, 0)
    assert ruling(doc, 0).rule == "H-SEVEN-TWENTY"
    assert ruling(doc, 0).points == 20


def test_h_seven_twenty_shown_seven_still_scores_ten() -> None:
    doc = record([seven("Anna"), seven("Boris")], house_rules=["H-SEVEN-TWENTY"])
    assert rejected(doc) == {}
    assert scores(doc) == (20, 10)
    assert ruling(doc, 1).rule == "R-SEVEN"


def test_h_seven_twenty_turned_up_seven_is_shown_for_ten() -> None:
    # The turn-up is the seven: the dealer scores 10 (R-DEALER-SEVEN); the seven declared
    # later cannot be exchanged, so it is shown for 10.
    doc = record([seven("Boris")], turn_up="7H", house_rules=["H-SEVEN-TWENTY"])
    assert scores(doc) == (10, 10)
    assert ruling(doc, 0).key == "seven_shown"


def test_h_seven_twenty_off_by_default() -> None:
    doc = record([seven("Anna")])
    assert scores(doc) == (10, 0)
    assert ruling(doc, 0).rule == "R-SEVEN"


def test_h_seven_twenty_with_h_seven_free() -> None:
    doc = record([trick("Anna"), seven("Anna"), decl("Anna", ["QS", "JD"])],
                 tracking="tricks", house_rules=["H-SEVEN-TWENTY", "H-SEVEN-FREE"])
    assert rejected(doc) == {}
    assert scores(doc) == (60, 0)  # exchange 20 + bezique 40


def test_h_seven_twenty_in_three_hand() -> None:
    doc = record([seven("Anna")], house_rules=["H-SEVEN-TWENTY"])
    doc["variant"] = "three-hand"
    doc["players"] = ["Anna", "Boris", "Vera"]
    assert replay(doc).result().sides[0].total == 20


# --------------------------------------------- what a screen may offer (issue 21): the engine's
def test_r_pack_the_seven_is_open_until_every_copy_is_accounted_for() -> None:
    """Two packs, two sevens of trumps: open before either, after one, closed after both, so
    no seven button is offered once the engine would refuse it for R-PACK."""
    open_after = [replay(record(list(evs))).deals[0].seven_open() for evs in (
        [], [seven("Anna")], [seven("Anna"), seven("Boris")],
    )]
    assert open_after == [True, True, False]


def test_r_pack_a_turned_up_seven_is_one_copy_accounted_for() -> None:
    d = replay(record([seven("Boris")], turn_up="7H")).deals[0]
    assert not d.seven_open()  # the dealer's turn-up and Boris's shown seven: both copies


def test_r_no_declare_after_stock_closes_the_seven_and_every_declaration() -> None:
    d = replay(record([stock()])).deals[0]
    assert not d.declarations_open() and not d.seven_open()
    assert replay(record([])).deals[0].declarations_open()


def test_r_nt_trumps_no_seven_before_trumps_are_known() -> None:
    doc = record([], turn_up=None)
    doc["variant"] = "no-trump"
    assert not replay(doc).deals[0].seven_open()
