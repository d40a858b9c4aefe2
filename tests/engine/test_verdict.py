"""The partie's verdict in words (RULES.md §6, issue 15): the one rule that decided and its
facts, a tie that goes on, and, mid-deal, that the partie ends with this deal."""

from __future__ import annotations

from typing import Any

from referee.cards import parse_card, parse_cards
from referee.events import Brisques, Declare, LastTrick, StockExhausted
from referee.match import Match

DOUBLE_BEZIQUE = ["QS", "QS", "JD", "JD"]
TRUMP_SEQUENCE = ["AH", "10H", "KH", "QH", "JH"]


def _match(players: tuple[str, ...] = ("Anna", "Boris"), variant: str = "two-hand",
           target: int = 500, rules: tuple[str, ...] = ()) -> Match:
    m = Match.new(variant, list(players), target=target, house_rules=("H-TARGET", *rules))
    m.start_deal(0, parse_card("9H"))
    return m


def _show(m: Match, seat: int, cards: list[str], meld: str | None = None) -> None:
    assert m.apply(Declare(seat, tuple(parse_cards(cards)), (), meld)).accepted


def _end(m: Match, last: int, counts: dict[int, int]) -> None:
    m.apply(StockExhausted())
    m.apply(LastTrick(last))
    m.apply(Brisques(counts))


def _both_reach(m: Match) -> None:
    _show(m, 0, DOUBLE_BEZIQUE)                   # Anna 500
    _show(m, 1, TRUMP_SEQUENCE)                   # Boris 250
    _show(m, 1, ["AS", "AS", "AD", "AC"])         # + 100
    _show(m, 1, ["KS", "KS", "KD", "KC"])         # + 80 = 430


def test_verdict_r_target_one_side_reached() -> None:
    m = _match()
    _show(m, 0, DOUBLE_BEZIQUE)
    _end(m, 1, {0: 8, 1: 8})
    v = m.verdict()
    assert v.finished and v.winner == 0 and v.rule == "R-TARGET" and v.reason == "reached"
    assert v.render() == "Anna reached the target of 500 with 580 and wins the partie"
    assert "Anna" in v.render("ru") and "580" in v.render("ru")


def test_verdict_r_tie_says_who_took_the_last_trick() -> None:
    m = _match()
    _both_reach(m)
    _end(m, 1, {0: 8, 1: 8})
    v = m.verdict()
    assert v.winner == 1 and v.rule == "R-TIE" and v.reason == "last_trick"
    assert v.last_trick == 1 and v.reached == (0, 1)
    assert "Boris took the last trick" in v.render()
    assert "Anna and Boris reached the target of 500" in v.render()
    assert "Anna и Boris" in v.render("ru")
    assert m.result().verdict == v
    assert m.result().to_json()["verdict"]["reason"] == "last_trick"


def test_verdict_h_tie_higher_says_the_higher_total_decided() -> None:
    m = _match(rules=("H-TIE-HIGHER",))
    _both_reach(m)
    _end(m, 1, {0: 8, 1: 8})
    v = m.verdict()
    assert v.winner == 0 and v.rule == "H-TIE-HIGHER" and v.reason == "higher_first"
    assert "the higher total wins: Anna with 580" in v.render()


def test_verdict_r_tie_three_sides_highest_total_when_the_last_trick_is_elsewhere() -> None:
    m = _match(("Anna", "Boris", "Vera"), "three-hand")
    _both_reach(m)
    _end(m, 2, {0: 8, 1: 8, 2: 8})
    v = m.verdict()
    assert v.winner == 0 and v.rule == "R-TIE" and v.reason == "higher_total"
    assert "none of them took the last trick" in v.render()


def test_verdict_r_tie_equal_totals_the_partie_goes_on() -> None:
    m = _match(("Anna", "Boris", "Vera"), "three-hand")
    _show(m, 0, DOUBLE_BEZIQUE)                   # Anna 500
    _both_reach_boris_490 = [TRUMP_SEQUENCE, ["KS", "KS", "KD", "KC"],
                             ["AS", "AS", "AD", "AC"], ["QH", "QD", "QC", "QC"]]
    for cards in _both_reach_boris_490:
        _show(m, 1, cards)
    _end(m, 2, {0: 7, 1: 8, 2: 9})
    v = m.verdict()
    assert not v.finished and v.reason == "goes_on" and v.rule == "R-TIE"
    assert "the partie goes on with another deal" in v.render()
    assert "570" in v.render()
    # the next deal starts with both over the target: it ends with that deal
    m.start_deal(1, parse_card("9S"))
    v = m.verdict()
    assert v.ends_with_this_deal and v.deal == 1 and v.reached == (0, 1)


def test_verdict_mid_deal_a_side_passes_the_target_ends_with_this_deal() -> None:
    m = _match()
    assert m.verdict().reason == "in_progress" and not m.verdict().ends_with_this_deal
    assert m.verdict().render() == "No side has reached the target of 500 yet"
    _show(m, 0, DOUBLE_BEZIQUE)
    v = m.verdict()
    assert not v.finished and v.ends_with_this_deal and v.rule == "R-CLAIM-AT-END"
    assert v.render() == ("Anna passed the target of 500: the partie ends with this deal, "
                          "decided when it is over")
    _end(m, 1, {0: 8, 1: 8})
    assert m.verdict().finished


def test_verdict_triple_bezique_cites_the_combination() -> None:
    m = Match.new("three-hand", ["A", "B", "C"])
    m.start_deal(0, parse_card("9D"))
    _show(m, 1, ["QS", "JD"] * 3, "triple_bezique")
    v = m.verdict()
    assert v.reason == "meld_this_deal" and v.ends_with_this_deal
    assert "triple bezique" in v.render()
    _end(m, 0, {0: 8, 1: 8, 2: 8})
    v = m.verdict()
    assert v.finished and v.winner == 1 and v.rule == "C-TRIPLE-BEZIQUE" and v.reason == "meld"
    assert m.result().decided_by == "C-TRIPLE-BEZIQUE"
    assert "whatever the totals" in v.render()


def test_verdict_texts_exist_in_both_languages() -> None:
    import tomllib

    from referee.data import data_dir
    from referee.verdict import REASONS

    for lang in ("en", "ru"):
        with (data_dir() / "i18n" / f"rulings.{lang}.toml").open("rb") as f:
            messages: dict[str, Any] = tomllib.load(f)["messages"]
        assert all(f"verdict_{r}" in messages for r in REASONS), lang
