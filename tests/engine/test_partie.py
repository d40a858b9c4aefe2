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


# ------------------------------------------------------- R-TIE with three or four sides (§6)
def _three(target: int = 500, rules: tuple[str, ...] = ()) -> Any:
    from referee.cards import parse_card
    from referee.match import Match

    m = Match.new("three-hand", ["Anna", "Boris", "Vera"], target=target,
                  house_rules=("H-TARGET", *rules))
    m.start_deal(0, parse_card("9H"))
    return m


def _show(m: Any, seat: int, cards: list[str]) -> None:
    from referee.cards import parse_cards
    from referee.events import Declare

    assert m.apply(Declare(seat, tuple(parse_cards(cards)))).accepted


def _end(m: Any, last_seat: int, counts: tuple[int, int, int] = (8, 8, 8)) -> None:
    from referee.events import Brisques, LastTrick, StockExhausted

    m.apply(StockExhausted())
    m.apply(LastTrick(last_seat))
    m.apply(Brisques(dict(enumerate(counts))))


def test_r_tie_three_sides_last_trick_winner_among_those_that_reached() -> None:
    m = _three()
    _show(m, 0, DOUBLE_BEZIQUE)            # Anna 500
    _show(m, 1, TRUMP_SEQUENCE)            # Boris 250
    _show(m, 1, ["KS", "KS", "KD", "KC"])  # + 80 = 330
    _show(m, 1, ["AS", "AS", "AD", "AC"])  # + 100 = 430
    _end(m, 1)                             # + 10 last trick, brisques 80 each
    res = m.result()
    assert [s.total for s in res.sides] == [580, 520, 80]
    assert res.winner == "Boris" and res.decided_by == "R-TIE"


def test_r_tie_three_sides_last_trick_elsewhere_highest_total_wins() -> None:
    m = _three()
    _show(m, 0, DOUBLE_BEZIQUE)
    _show(m, 1, TRUMP_SEQUENCE)
    _show(m, 1, ["KS", "KS", "KD", "KC"])
    _show(m, 1, ["AS", "AS", "AD", "AC"])
    _end(m, 2)                             # Vera (80 + 10) took the last trick
    res = m.result()
    assert [s.total for s in res.sides] == [580, 510, 90]
    assert res.winner == "Anna" and res.decided_by == "R-TIE"


def _boris_490(m: Any) -> None:
    _show(m, 1, TRUMP_SEQUENCE)            # 250
    _show(m, 1, ["KS", "KS", "KD", "KC"])  # 80
    _show(m, 1, ["AS", "AS", "AD", "AC"])  # 100
    _show(m, 1, ["QH", "QD", "QC", "QC"])  # 60


def test_r_tie_three_sides_equal_highest_totals_the_partie_goes_on() -> None:
    m = _three()
    _show(m, 0, DOUBLE_BEZIQUE)            # Anna 500
    _boris_490(m)
    _end(m, 2, (7, 8, 9))                  # Vera took the last trick
    res = m.result()
    assert [s.total for s in res.sides] == [570, 570, 100]
    assert not res.finished and res.winner is None
    # and the next deal is played
    from referee.cards import parse_card
    m.start_deal(1, parse_card("9S"))


def test_h_tie_higher_three_sides_higher_total_wins() -> None:
    m = _three(rules=("H-TIE-HIGHER",))
    _show(m, 0, DOUBLE_BEZIQUE)
    _show(m, 1, TRUMP_SEQUENCE)
    _show(m, 1, ["KS", "KS", "KD", "KC"])
    _show(m, 1, ["AS", "AS", "AD", "AC"])
    _end(m, 1)
    res = m.result()
    assert [s.total for s in res.sides] == [580, 520, 80]
    assert res.winner == "Anna" and res.decided_by == "H-TIE-HIGHER"


def test_h_tie_higher_three_sides_equal_leaders_the_last_trick_among_them() -> None:
    m = _three(rules=("H-TIE-HIGHER",))
    _show(m, 0, DOUBLE_BEZIQUE)
    _boris_490(m)
    _end(m, 1)
    res = m.result()
    assert [s.total for s in res.sides] == [580, 580, 80]
    assert res.winner == "Boris" and res.decided_by == "R-TIE"


def test_h_tie_higher_three_sides_equal_leaders_last_trick_to_a_third_goes_on() -> None:
    # Vera reached the target too but has less: under H-TIE-HIGHER she cannot win it with
    # the last trick; Anna and Boris are equal, so the partie goes on.
    m = _three(target=300, rules=("H-TIE-HIGHER",))
    _show(m, 0, DOUBLE_BEZIQUE)            # Anna 500
    _boris_490(m)
    _show(m, 2, ["AH", "10H", "KH", "QH", "JH"])  # Vera 250
    _end(m, 2, (7, 8, 9))
    res = m.result()
    assert [s.total for s in res.sides] == [570, 570, 350]
    assert not res.finished


def test_r_tie_four_sides_without_tricks_highest_total_then_goes_on() -> None:
    # joker-multipack with four at the table: four sides, no last trick; the highest total
    # among those that reached wins, equal highest totals go on.
    from referee.cards import parse_card, parse_cards
    from referee.events import Declare, StockExhausted
    from referee.match import Match

    def showing(m: Match, seat: int, cards: str, meld: str) -> None:
        assert m.apply(Declare(seat, tuple(parse_cards(cards.split())), (), meld)).accepted

    for second, finished in (("QH QH QH QH", False), ("JD JD JD JD", True)):
        m = Match.new("joker-multipack", ["A", "B", "C", "D"], target=150,
                      house_rules=["H-TARGET"])
        m.start_deal(3, parse_card("9H"))  # D deals and sits out
        showing(m, 0, "QH QH QH QH", "trump_queens")  # 176
        showing(m, 1, second, "trump_queens" if second.startswith("Q") else "bezique_jacks")
        m.apply(StockExhausted())
        res = m.result()
        assert len(res.sides) == 4
        assert res.finished is finished
        if finished:  # 176 against 164: A has more
            assert [s.total for s in res.sides][:2] == [176, 164]
            assert res.winner == "A" and res.decided_by == "R-TIE"
        else:  # 176 each: the partie goes on
            assert [s.total for s in res.sides][:2] == [176, 176]
