"""The Match API the app uses: ``Match.options`` (what cards could be declared as now, with
points), ``verify``/``can`` (no change), ``apply`` and ``Match.new``'s checks."""

from __future__ import annotations

import pytest

from referee.cards import parse_card, parse_cards
from referee.errors import BeziqueError
from referee.events import Declare, Seven, Trick
from referee.match import Match


def _match(turn_up: str = "9H", tracking: str = "melds", rules: tuple[str, ...] = ()) -> Match:
    m = Match.new("two-hand", ["Anna", "Boris"], tracking, rules)
    m.start_deal(0, parse_card(turn_up))
    return m


def _opts(m: Match, player: int, new: str, table: str = "") -> list[tuple[str, int, bool]]:
    return [(o.meld, o.points, o.ruling.accepted)
            for o in m.options(player, parse_cards(new.split()), parse_cards(table.split()))]


def test_options_k_q_spades_j_diamonds_two_readings_best_first() -> None:
    # Hearts trumps: bezique 40 or marriage 20 (the other pending).
    assert _opts(_match(), 0, "KS QS JD") == [("bezique", 40, True), ("marriage", 20, True)]


def test_options_in_spades_trumps_the_marriage_is_a_trump_marriage() -> None:
    got = _opts(_match("9S"), 0, "KS QS JD")
    assert sorted(got) == [("bezique", 40, True), ("trump_marriage", 40, True)]


def test_options_one_combination() -> None:
    assert _opts(_match(), 1, "QS JD") == [("bezique", 40, True)]
    assert _opts(_match(), 1, "AH 10H KH QH JH")[0] == ("trump_sequence", 250, True)


def test_options_nothing_to_declare() -> None:
    assert _opts(_match(), 0, "AS 9C") == []


def test_options_building_on_the_table() -> None:
    m = _match()
    m.apply(Declare(0, tuple(parse_cards(["QS", "JD"]))))
    assert ("four_queens", 60, True) in _opts(m, 0, "QH QD QC", "QS")


def test_options_show_a_reuse_that_is_not_allowed_last() -> None:
    m = _match()
    m.apply(Declare(0, tuple(parse_cards(["KS", "KH", "KD", "KC"]))))
    got = m.options(0, parse_cards(["QC"]), parse_cards(["KC"]))
    assert [(o.meld, o.points, o.ruling.accepted, o.ruling.rule) for o in got] == [
        ("marriage", 20, False, "R-REUSE")]


def test_options_pending_combination() -> None:
    m = _match()
    m.apply(Declare(0, tuple(parse_cards(["KS", "QS", "JD"])), meld="bezique"))
    assert _opts(m, 0, "", "KS QS") == [("marriage", 20, True)]
    assert _opts(m, 1, "", "KS QS") == [("marriage", 20, False)]  # not Boris's: R-NEW-CARD


def test_options_r_new_card_table_cards_never_pending_together_are_refused_not_unknown() -> None:
    # K♠ scored in four kings, Q♠ in a bezique: K♠ Q♠ is a marriage, but one laid from the
    # table alone (R-NEW-CARD), so the picker shows it refused with its rule.
    m = _match()
    m.apply(Declare(0, tuple(parse_cards(["KS", "KH", "KD", "KC"]))))
    m.apply(Declare(0, tuple(parse_cards(["QS", "JD"]))))
    got = m.options(0, [], parse_cards(["KS", "QS"]))
    assert [(o.meld, o.ruling.accepted, o.ruling.rule) for o in got] == [
        ("marriage", False, "R-NEW-CARD")]


def test_options_timing_is_in_the_ruling() -> None:
    m = _match(tracking="tricks")
    m.apply(Trick(1))
    assert _opts(m, 0, "QS JD") == [("bezique", 40, False)]
    assert _opts(m, 1, "QS JD") == [("bezique", 40, True)]


def test_options_change_nothing() -> None:
    m = _match()
    before = m.result()
    _opts(m, 0, "KS QS JD")
    assert m.result() == before and m.deals[0].log == []


def test_verify_and_can_change_nothing() -> None:
    m = _match()
    ev = Declare(0, tuple(parse_cards(["QS", "JD"])))
    assert m.can(ev) and m.verify(ev).points == 40
    assert m.deals[0].log == [] and m.totals() == [0, 0]
    m.apply(ev)
    assert m.totals() == [40, 0]


def test_apply_records_a_rejected_event_without_points() -> None:
    m = _match()
    m.apply(Seven(0))
    m.apply(Seven(1))
    r = m.apply(Seven(0))  # a third seven of trumps (R-PACK)
    assert not r.accepted and r.rule == "R-PACK"
    assert m.totals() == [10, 10]
    assert len(m.deals[0].log) == 3


@pytest.mark.parametrize(("players", "tracking", "target"), [
    (["Anna"], "melds", None),
    (["Anna", "Boris", "Carl"], "melds", None),
    (["Anna", "Anna"], "melds", None),
    (["Anna", ""], "melds", None),
    (["Anna", "Boris"], "all", None),
    (["Anna", "Boris"], "melds", 0),
    (["Anna", "Boris"], "melds", -5),
])
def test_match_new_rejects_bad_settings(players: list[str], tracking: str,
                                        target: int | None) -> None:
    with pytest.raises(BeziqueError):
        Match.new("two-hand", players, tracking, (), target)


def test_match_start_deal_needs_a_turn_up() -> None:
    m = Match.new("two-hand", ["Anna", "Boris"])
    with pytest.raises(BeziqueError):
        m.start_deal(0, None)
    with pytest.raises(BeziqueError):
        m.start_deal(2, parse_card("9H"))


def test_match_apply_before_a_deal_is_an_error() -> None:
    with pytest.raises(BeziqueError):
        Match.new("two-hand", ["Anna", "Boris"]).apply(Seven(0))
