"""R-REFORM, H-REUSE-CLASSES and R-PENDING over several packs: a record names table cards by
face, and the referee picks the copies (referee/copy_choice.py). A declaration is accepted
whenever some choice the rules allow exists: a re-formed marriage takes the copy that scored
the marriage, not one that scored a sequence; a pending combination holds a copy that has
not scored its kind. Hand-written records of the cases the simulator found (ENGINE-COPY-
CHOICE-REFORM in docs/simulation.md: six-pack seed 7, eight-pack seeds 11 / 13 / 23, and
eight-pack seed 188)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from referee.cards import parse_cards
from referee.copy_choice import choose_copies
from referee.events import Declare
from referee.match import Match
from referee.record import parse_record, replay_record

Event = dict[str, Any]


def decl(new: str, table: str = "", meld: str | None = None) -> Event:
    ev: Event = {"type": "declare", "player": "Boris", "new": new.split()}
    if table:
        ev["table"] = table.split()
    if meld:
        ev["meld"] = meld
    return ev


def won(tracking: str, boris: str = "9C", from_table: bool = False) -> list[Event]:
    """A trick Boris wins (he leads; Anna plays an off-suit seven): nothing below tricks
    tracking, the winner with tricks, the cards with cards tracking."""
    if tracking == "melds":
        return []
    ev: Event = {"type": "trick", "winner": "Boris"}
    if tracking == "cards":
        ev["cards"] = {"Boris": boris, "Anna": "7D"}
        if from_table:
            ev["from_table"] = ["Boris"]
    return [ev]


def replay(variant: str, tracking: str, events: Sequence[Event]) -> Match:
    return replay_record(parse_record({
        "format": "bezique-match/1", "variant": variant, "players": ["Anna", "Boris"],
        "tracking": tracking, "house_rules": ["H-REUSE-CLASSES"],
        "deals": [{"dealer": "Anna", "events": list(events)}],
    }))


def rulings(m: Match) -> list[tuple[bool, str, str]]:
    return [(r.accepted, r.rule, r.key) for ev, r in m.deals[0].log if isinstance(ev, Declare)]


def marriage_then_sequence(tracking: str, trumps: bool = False) -> list[Event]:
    """A spade marriage (K♠ Q♠), then a spade sequence on new cards: two copies each of K♠
    and Q♠ on the table, one that scored the marriage, one the sequence. Plain spades (a
    heart marriage fixes trumps first: 40, 20, 150) or trump spades (the spade marriage
    fixes them: 40, 250)."""
    first = [] if trumps else [*won(tracking), decl("KH QH", meld="marriage")]
    return [*first, *won(tracking), decl("KS QS", meld="marriage"),
            *won(tracking), decl("AS 10S KS QS JS", meld="sequence")]


@pytest.mark.parametrize("variant", ["six-pack", "eight-pack"])
@pytest.mark.parametrize("tracking", ["melds", "tricks"])
@pytest.mark.parametrize(("laid", "kept"), [("QS", "KS"), ("KS", "QS")])
@pytest.mark.parametrize(("trumps", "points"), [(False, 40 + 20 + 150 + 20),
                                                (True, 40 + 250 + 40)])
def test_r_reform_under_reuse_classes_a_re_formed_marriage_takes_the_copy_that_scored_it(
        variant: str, tracking: str, laid: str, kept: str, trumps: bool, points: int) -> None:
    """Below cards tracking the table keeps the played copies: the re-formed marriage is
    built on the K (Q) that scored the marriage (re-form, trusted), not on the one that
    scored the sequence, which H-REUSE-CLASSES would refuse (a marriage is not greater).
    The simulator's seeds: six-pack 7 (K♥, trump sequence), six-pack 17 (K♦), eight-pack 11
    (Q♠), 13 (K♠), 23 (K♣ then Q♣)."""
    m = replay(variant, tracking, [*marriage_then_sequence(tracking, trumps),
                                   *won(tracking), decl(laid, kept, "marriage")])
    assert m.result().rejected == ()
    assert rulings(m)[-1] == (True, "R-REFORM", "declared_reformed_unchecked")
    assert m.deals[0].scores()[1] == points


@pytest.mark.parametrize(("played", "laid", "kept"), [("QS", "QS", "KS"), ("KS", "KS", "QS")])
def test_r_reform_with_cards_tracking_takes_the_copy_whose_marriage_lost_a_card(
        played: str, laid: str, kept: str) -> None:
    """With cards tracking a card of the marriage is played off the table; the new marriage
    takes the partner left behind (re-formable), not the copy of the sequence."""
    events = [*marriage_then_sequence("cards"), *won("cards", played, from_table=True),
              decl(laid, kept, "marriage")]
    m = replay("six-pack", "cards", events)
    assert m.result().rejected == ()
    assert rulings(m)[-1] == (True, "R-REFORM", "declared_reformed")


def test_h_reuse_classes_still_refuses_a_marriage_no_copy_allows() -> None:
    """The choice never makes an illegal reuse legal: with no marriage copy re-formable
    (nothing played), the only K♠ copies scored a marriage or the sequence, and the new
    marriage is refused (H-REUSE-CLASSES / R-REFORM not seen)."""
    m = replay("six-pack", "cards", [*marriage_then_sequence("cards"), *won("cards"),
                                     decl("QS", "KS", "marriage")])
    assert [r.rule for r in m.result().rejected] == ["H-REUSE-CLASSES"]


def four_queens_twice(tracking: str) -> list[Event]:
    """Trumps ♣ by a marriage (K♣ Q♣, 40), a trump sequence on new cards (250), then four
    queens on both Q♣ copies (60): one Q♣ scored the trump marriage, the other the trump
    sequence, and both four queens."""
    return [*won(tracking), decl("KC QC", meld="marriage"),
            *won(tracking), decl("AC 10C KC QC JC", meld="trump_sequence"),
            *won(tracking), decl("QH QD", "QC QC", "four_queens")]


@pytest.mark.parametrize("variant", ["six-pack", "eight-pack"])
@pytest.mark.parametrize("tracking", ["melds", "tricks"])
def test_r_pending_a_marriage_laid_with_a_re_formed_four_holds_a_copy_not_scored_in_it(
        variant: str, tracking: str) -> None:
    """Seed 188's situation: four queens re-formed (Q♥ Q♦ new, Q♣ Q♣ from the table) with a
    new K♣ that forms a trump marriage with a table Q♣, pending. The pending marriage holds
    the Q♣ that has not scored a trump marriage (it scored the sequence: a pending
    combination is not a reuse), not the one a re-form would allow, so K♣ is not idle and
    the pending marriage scores on the next trick."""
    m = replay(variant, tracking, [
        *four_queens_twice(tracking),
        *won(tracking), decl("QH QD KC", "QC QC", "four_queens"),
        *won(tracking), decl("", "QC KC", "trump_marriage"),
    ])
    assert m.result().rejected == ()
    assert rulings(m)[-2:] == [(True, "R-REFORM", "declared_reformed_unchecked_pending"),
                               (True, "R-PENDING", "pending_scored")]
    assert m.deals[0].scores()[1] == 40 + 250 + 60 + 60 + 40


def test_copy_choice_takes_the_first_allowed_copies_of_each_card() -> None:
    """Per card, the first copies the rule allows in the order of preference; the order of
    preference alone when a card has too few allowed copies (the ruling names the same copy
    as before)."""
    ks1, ks2, ks3, qs = (*parse_cards(["KS", "KS", "KS"]), *parse_cards(["QS"]))
    pool = [(ks1, "a"), (ks2, "b"), (ks3, "c"), (qs, "d")]
    rank = {"a": 2, "b": 0, "c": 1, "d": 0}

    def choose(need: dict[Any, int], allowed: Any) -> list[str] | None:
        got = choose_copies(pool, need, face=lambda x: x[0], prefer=lambda x: rank[x[1]],
                            allowed=allowed)
        return None if got is None else [x[1] for x in got]

    assert choose({ks1: 2}, None) == ["b", "c"]
    assert choose({ks1: 2}, lambda x: x[1] != "b") == ["c", "a"]
    assert choose({ks1: 1, qs: 1}, lambda x: x[1] not in "bd") == ["b", "d"]
    assert choose({ks1: 4}, None) is None
