"""RULES.md §5: penalties, their amounts (from the variant's data), "all points",
H-FALSE-ALL-MATCH, H-PENALTY-TO-OPPONENT and H-EXTRA-CARD-50. Penalties apply only when the
table records them; the referee only proposes.

Trumps hearts (turn-up 9H); Anna deals."""

from __future__ import annotations

import tomllib

import pytest

from referee.data import data_dir
from referee.errors import RecordError

from .conftest import (
    brisques,
    deal,
    decl,
    last,
    penalty,
    record,
    rejected,
    replay,
    result,
    ruling,
    scores,
    stock,
    trick,
)

# RULES.md §5, by hand.
SEED_TABLE = {
    "P-EARLY-DECLARE": 10,
    "P-REVOKE": 20,
    "P-PLAY-BEFORE-DRAW": 30,
    "P-EXTRA-CARD": 60,
    "P-NINE-CARDS": 120,
}


def test_penalty_amounts_in_the_data_are_the_seed_table() -> None:
    with (data_dir() / "variants" / "two-hand.toml").open("rb") as f:
        data = tomllib.load(f)
    assert data["penalties"] == SEED_TABLE | {"P-FALSE-DECLARATION": "all"}


@pytest.mark.parametrize(("offence", "points"), sorted(SEED_TABLE.items()))
def test_penalty_is_deducted_from_the_offender(offence: str, points: int) -> None:
    # Anna: bezique 40, then the penalty.
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", offence)])
    assert rejected(doc) == {}
    assert scores(doc) == (40 - points, 0)


def test_penalty_can_take_a_score_below_zero() -> None:
    assert scores(record([penalty("Boris", "P-NINE-CARDS")])) == (0, -120)


def test_penalty_applies_in_phase_two_as_recorded() -> None:
    doc = record([stock(), penalty("Boris", "P-REVOKE"), last("Anna"), brisques(8, 8)])
    assert scores(doc) == (90, 60)  # Anna 80 + 10; Boris 80 - 20


def test_penalty_unknown_offence_is_an_input_error() -> None:
    with pytest.raises(RecordError) as info:
        replay(record([penalty("Anna", "P-TALKING")]))
    assert info.value.path == "deals[0].events[0]"


def test_penalty_is_only_proposed_by_the_referee() -> None:
    # Tricks level: Anna declares after Boris's trick -> rejected, P-EARLY-DECLARE proposed,
    # but no points change until the table records the penalty.
    doc = record([trick("Boris"), decl("Anna", ["QS", "JD"])], tracking="tricks")
    assert ruling(doc, 1).proposes == "P-EARLY-DECLARE"
    assert scores(doc) == (0, 0)
    doc = record([trick("Boris"), decl("Anna", ["QS", "JD"]), penalty("Anna", "P-EARLY-DECLARE")],
                 tracking="tricks")
    assert scores(doc) == (-10, 0)


# ------------------------------------------------------------------ "all points"
def test_p_false_declaration_wipes_the_deals_points_so_far() -> None:
    # Anna: bezique 40 + marriage 20 = 60, wiped -> 0; Boris's 20 is untouched.
    doc = record([decl("Anna", ["QS", "JD"]), decl("Boris", ["KC", "QC"]),
                  decl("Anna", ["KD", "QD"]), penalty("Anna", "P-FALSE-DECLARATION")])
    assert scores(doc) == (0, 20)


def test_p_false_declaration_later_points_still_count() -> None:
    # 40 wiped; then the trump marriage 40, last trick 10 and 9 brisques 90 -> 140.
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION"),
                  decl("Anna", ["KH", "QH"]), stock(), last("Anna"), brisques(9, 7)])
    assert scores(doc) == (140, 70)


def test_p_false_declaration_does_not_wipe_brisques_and_last_trick() -> None:
    # "brisques and the last trick, scored at the end of the deal, still count": even when
    # the table records the penalty after them, only the 40 of the bezique is wiped:
    # 40 + 10 + 90 - 40 = 100.
    doc = record([decl("Anna", ["QS", "JD"]), stock(), last("Anna"), brisques(9, 7),
                  penalty("Anna", "P-FALSE-DECLARATION")])
    assert scores(doc) == (100, 70)


def test_p_false_declaration_does_not_touch_earlier_deals() -> None:
    first = deal([decl("Anna", ["KH", "QH"]), last("Anna"), brisques(8, 8)])  # 40+10+80 = 130
    second = deal([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION")],
                  dealer="Boris")
    res = result(record(deals=[first, second]))
    assert res["sides"][0]["deal_scores"] == [130, 0]
    assert res["sides"][0]["total"] == 130


def test_p_false_declaration_proposed_on_a_copy_that_cannot_exist() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), decl("Boris", ["QS", "JD"]),
                  decl("Boris", ["QS", "QH", "QD", "QC"])])
    assert ruling(doc, 2).proposes == "P-FALSE-DECLARATION"
    assert scores(doc) == (40, 40)  # nothing applied yet


def test_p_false_declaration_penalty_with_nothing_scored_is_zero() -> None:
    assert scores(record([penalty("Anna", "P-FALSE-DECLARATION")])) == (0, 0)


# ------------------------------------------------------------------ H-FALSE-ALL-MATCH
def test_h_false_all_match_sets_the_match_total_to_zero() -> None:
    first = deal([decl("Anna", ["KH", "QH"]), last("Anna"), brisques(8, 8)])  # Anna 130
    second = deal([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION"),
                   decl("Anna", ["KC", "QC"])], dealer="Boris")
    res = result(record(deals=[first, second], house_rules=["H-FALSE-ALL-MATCH"]))
    # At the penalty Anna has 130 + 40 = 170; set to 0: the second deal absorbs -170, so it
    # reads 40 - 170 + 20 = -110, and the total 130 - 110 = 20 (the marriage after it).
    assert res["sides"][0]["deal_scores"] == [130, -110]
    assert res["sides"][0]["total"] == 20
    assert res["sides"][1]["deal_scores"] == [80, 0]


def test_h_false_all_match_default_wipes_only_the_deal() -> None:
    first = deal([decl("Anna", ["KH", "QH"]), last("Anna"), brisques(8, 8)])
    second = deal([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION"),
                   decl("Anna", ["KC", "QC"])], dealer="Boris")
    res = result(record(deals=[first, second]))
    assert res["sides"][0]["deal_scores"] == [130, 20]
    assert res["sides"][0]["total"] == 150


# ------------------------------------------------------------------ H-PENALTY-TO-OPPONENT
@pytest.mark.parametrize(("offence", "points"), sorted(SEED_TABLE.items()))
def test_h_penalty_to_opponent(offence: str, points: int) -> None:
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", offence)],
                 house_rules=["H-PENALTY-TO-OPPONENT"])
    assert scores(doc) == (40, points)


# ------------------------------------------------------------------ H-EXTRA-CARD-50
@pytest.mark.parametrize(("rules", "points"), [((), 60), (("H-EXTRA-CARD-50",), 50)])
def test_h_extra_card_50(rules: tuple[str, ...], points: int) -> None:
    assert scores(record([penalty("Boris", "P-EXTRA-CARD")], house_rules=rules)) == (0, -points)


def test_h_extra_card_50_changes_nothing_else() -> None:
    doc = record([penalty("Boris", "P-NINE-CARDS")], house_rules=["H-EXTRA-CARD-50"])
    assert scores(doc) == (0, -120)


# ----------------------------------------- H-PENALTY-TO-OPPONENT with a false declaration
def test_h_penalty_to_opponent_false_declaration_wipes_and_gives_the_amount() -> None:
    # RULES.md §5: Anna's 60 of the deal are wiped as usual and Boris receives the 60 wiped.
    doc = record([decl("Anna", ["QS", "JD"]), decl("Boris", ["KC", "QC"]),
                  decl("Anna", ["KD", "QD"]), penalty("Anna", "P-FALSE-DECLARATION")],
                 house_rules=["H-PENALTY-TO-OPPONENT"])
    assert scores(doc) == (0, 20 + 60)
    assert ruling(doc, 3).key == "penalty_wiped_to_opponents"
    assert ruling(doc, 3).points == -60


def test_h_penalty_to_opponent_false_declaration_three_sides_each_receive() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION")],
                 house_rules=["H-PENALTY-TO-OPPONENT"])
    doc["variant"] = "three-hand"
    doc["players"] = ["Anna", "Boris", "Vera"]
    res = replay(doc).result()
    assert [s.total for s in res.sides] == [0, 40, 40]


def test_h_penalty_to_opponent_with_h_false_all_match_gives_the_match_total() -> None:
    first = deal([decl("Anna", ["KH", "QH"]), last("Anna"), brisques(8, 8)])  # Anna 130
    second = deal([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION")],
                  dealer="Boris")
    res = result(record(deals=[first, second],
                        house_rules=["H-FALSE-ALL-MATCH", "H-PENALTY-TO-OPPONENT"]))
    # Anna's 130 + 40 = 170 go to 0 and Boris receives 170.
    assert [s["total"] for s in res["sides"]] == [0, 80 + 170]


def test_h_penalty_to_opponent_false_declaration_on_a_negative_balance_gives_nothing() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-NINE-CARDS"),
                  penalty("Anna", "P-FALSE-DECLARATION")],
                 house_rules=["H-PENALTY-TO-OPPONENT"])
    # P-NINE-CARDS gives Boris 120; Anna keeps 40, then her 40 are wiped and Boris gets 40.
    assert scores(doc) == (0, 160)


# ---------------------------------------------- a false declaration on a negative balance
def test_p_false_declaration_on_a_negative_balance_leaves_it() -> None:
    # RULES.md §5: "a false declaration never raises a score": 40 − 120 = −80 stays −80.
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-NINE-CARDS"),
                  penalty("Anna", "P-FALSE-DECLARATION")])
    assert scores(doc) == (-80, 0)
    assert ruling(doc, 2).points == 0


def test_p_false_declaration_at_zero_leaves_it() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-EARLY-DECLARE"),
                  penalty("Anna", "P-EXTRA-CARD"), penalty("Anna", "P-FALSE-DECLARATION")])
    # 40 − 10 − 60 = −30; the wipe leaves −30.
    assert scores(doc) == (-30, 0)


def test_h_false_all_match_on_a_negative_total_leaves_it() -> None:
    first = deal([penalty("Anna", "P-NINE-CARDS"), last("Anna"), brisques(8, 8)])  # −30
    second = deal([decl("Anna", ["QS", "JD"]), penalty("Anna", "P-FALSE-DECLARATION")],
                  dealer="Boris")
    res = result(record(deals=[first, second], house_rules=["H-FALSE-ALL-MATCH"]))
    # At the penalty Anna's total is −30 + 40 = 10: set to 0.
    assert res["sides"][0]["total"] == 0
    first = deal([penalty("Anna", "P-NINE-CARDS"), last("Anna"), brisques(2, 14)])  # −90
    res = result(record(deals=[first, second], house_rules=["H-FALSE-ALL-MATCH"]))
    assert res["sides"][0]["total"] == -90 + 40  # −50 is not raised to 0


# ------------------------------------------------------------ the four-hand team is wiped
def test_p_false_declaration_four_hand_wipes_the_teams_points() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), decl("Vera", ["KC", "QC"]),
                  decl("Boris", ["KD", "QD"]), penalty("Vera", "P-FALSE-DECLARATION")])
    doc["variant"] = "four-hand"
    doc["players"] = ["Anna", "Boris", "Vera", "Gleb"]
    res = replay(doc).result()
    assert [s.total for s in res.sides] == [0, 20]  # Anna & Vera's 60 wiped
