"""RULES.md §6: R-TARGET, R-CLAIM-AT-END, R-TIE, H-TIE-HIGHER, H-TARGET.

Trumps hearts (turn-up 9H); melds tracking: a deal ends with its brisques."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import alternate, brisques, deal, decl, last, record, result, stock, trick

DOUBLE_BEZIQUE = ["QS", "QS", "JD", "JD"]          # 500
TRUMP_SEQUENCE = ["AH", "10H", "KH", "QH", "JH"]   # 250
FOUR_ACES = ["AS", "AS", "AD", "AC"]               # 100


def _big_deal(anna_brisques: int) -> dict[str, Any]:
    # Anna: 500 + 250 + 100 = 850, last trick 10, brisques 10 each.
    return deal([decl("Anna", DOUBLE_BEZIQUE), decl("Anna", TRUMP_SEQUENCE),
                 decl("Anna", FOUR_ACES), stock(), last("Anna"),
                 brisques(anna_brisques, 16 - anna_brisques)])


def test_r_target_reached_exactly_wins() -> None:
    # 850 + 10 + 14 x 10 = 1000 >= 1000
    res = result(record(deals=[_big_deal(14)]))
    assert res["sides"][0]["total"] == 1000
    assert res["finished"] is True
    assert res["winner"] == "Anna"


def test_r_target_not_reached_goes_on() -> None:
    # 850 + 10 + 130 = 990 < 1000
    res = result(record(deals=[_big_deal(13)]))
    assert res["sides"][0]["total"] == 990
    assert res["finished"] is False
    assert res["winner"] is None


def test_r_target_is_1000_in_two_hand() -> None:
    assert result(record([]))["target"] == 1000


def test_r_target_counts_over_deals() -> None:
    # 990 in deal 1, then 20 (marriage) + 10 + 80 in deal 2 -> 1100
    second = deal([decl("Anna", ["KC", "QC"]), last("Anna"), brisques(8, 8)], dealer="Boris")
    res = result(record(deals=[_big_deal(13), second]))
    assert res["sides"][0]["deal_scores"] == [990, 110]
    assert res["sides"][0]["total"] == 1100
    assert res["sides"][1]["deal_scores"] == [30, 80]
    assert res["winner"] == "Anna"


# ------------------------------------------------------------------ R-CLAIM-AT-END
def test_r_claim_at_end_not_mid_deal() -> None:
    # Target 500: the double bezique reaches it mid-deal; the partie is won only at the end.
    events = [decl("Anna", DOUBLE_BEZIQUE)]
    res = result(record(events, target=500, house_rules=["H-TARGET"]))
    assert res["sides"][0]["total"] == 500
    assert res["finished"] is False and res["winner"] is None
    res = result(record([*events, stock(), last("Boris"), brisques(8, 8)], target=500,
                        house_rules=["H-TARGET"]))
    assert res["finished"] is True and res["winner"] == "Anna"


def test_r_claim_at_end_tricks_level_needs_the_last_trick() -> None:
    events = [trick("Anna"), decl("Anna", DOUBLE_BEZIQUE), *alternate(30)]
    res = result(record(events, tracking="tricks", target=500, house_rules=["H-TARGET"]))
    assert res["finished"] is False  # 31 tricks played
    res = result(record([*events, trick("Boris"), brisques(8, 8)], tracking="tricks",
                        target=500, house_rules=["H-TARGET"]))
    assert res["finished"] is True and res["winner"] == "Anna"


# ------------------------------------------------------------------ R-TIE / H-TIE-HIGHER
def _both_reach(last_winner: str) -> list[dict[str, Any]]:
    # Anna 500 + 80 = 580 (+10 if she takes the last trick);
    # Boris 250 + 100 + 80 + 80 = 510 (+10 if he does). Target 500: both reach it.
    return [decl("Anna", DOUBLE_BEZIQUE), decl("Boris", TRUMP_SEQUENCE),
            decl("Boris", FOUR_ACES), decl("Boris", ["KS", "KS", "KD", "KC"]), stock(),
            last(last_winner), brisques(8, 8)]


@pytest.mark.parametrize(("last_winner", "winner", "totals"), [
    ("Boris", "Boris", [580, 520]),   # the last trick decides, not the higher total
    ("Anna", "Anna", [590, 510]),
])
def test_r_tie_last_trick_winner_wins(last_winner: str, winner: str, totals: list[int]) -> None:
    res = result(record(_both_reach(last_winner), target=500, house_rules=["H-TARGET"]))
    assert [s["total"] for s in res["sides"]] == totals
    assert res["finished"] is True
    assert res["winner"] == winner


def test_h_tie_higher_higher_total_wins() -> None:
    res = result(record(_both_reach("Boris"), target=500,
                        house_rules=["H-TARGET", "H-TIE-HIGHER"]))
    assert [s["total"] for s in res["sides"]] == [580, 520]
    assert res["winner"] == "Anna"


def test_h_tie_higher_equal_totals_fall_back_to_the_last_trick() -> None:
    # Anna: 500 + 10 (last trick) + 80 = 590.
    # Boris: 250 + 100 + 80 + four queens 60 + marriage K♦ Q♦ 20 + 80 = 590.
    events = [decl("Anna", DOUBLE_BEZIQUE), decl("Boris", TRUMP_SEQUENCE),
              decl("Boris", FOUR_ACES), decl("Boris", ["KS", "KS", "KD", "KC"]),
              decl("Boris", ["QH", "QD", "QC", "QC"]), decl("Boris", ["KD", "QD"]), stock(),
              last("Anna"), brisques(8, 8)]
    res = result(record(events, target=500, house_rules=["H-TARGET", "H-TIE-HIGHER"]))
    assert [s["total"] for s in res["sides"]] == [590, 590]
    assert res["rejected"] == []
    assert res["winner"] == "Anna"


def test_r_tie_one_reaching_wins_whoever_took_the_last_trick() -> None:
    events = [decl("Anna", DOUBLE_BEZIQUE), stock(), last("Boris"), brisques(8, 8)]
    res = result(record(events, target=500, house_rules=["H-TARGET"]))
    assert res["winner"] == "Anna"  # Boris 90 < 500


# ------------------------------------------------------------------ H-TARGET
@pytest.mark.parametrize(("target", "finished"), [(580, True), (581, False)])
def test_h_target_any_number(target: int, finished: bool) -> None:
    # Anna: 500 + 80 = 580
    events = [decl("Anna", DOUBLE_BEZIQUE), stock(), last("Boris"), brisques(8, 8)]
    res = result(record(events, target=target, house_rules=["H-TARGET"]))
    assert res["target"] == target
    assert res["finished"] is finished
