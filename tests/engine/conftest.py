"""Helpers for the two-hand engine tests: build match records as the spec writes them
(shared/spec/match-record.md), replay them through the public reader, and read the result.

Every record goes through ``parse_record`` + ``replay_record``, the path a record written by
someone else takes, so the reader is exercised by every test.

Players are always Anna (seat 0) and Boris (seat 1). With Anna dealing, Boris leads the first
trick (R-LEAD).

The card-level deal simulator at the bottom is an independent oracle: it deals two shuffled
packs, plays legal tricks and works out trick winners, brisques and the last trick with its own
code (not the engine's), so tests can compare the engine with it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from referee.match import Match
from referee.record import parse_record, replay_record

settings.register_profile(
    "engine",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("engine")

A, B = "Anna", "Boris"
PLAYERS = (A, B)
REPO = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
SHARED = REPO.parent / "shared"

Event = dict[str, Any]


# ------------------------------------------------------------------------------ events
def decl(player: str, new: Iterable[str], table: Iterable[str] = (), meld: str | None = None
         ) -> Event:
    ev: Event = {"type": "declare", "player": player, "new": list(new)}
    table = list(table)
    if table:
        ev["table"] = table
    if meld is not None:
        ev["meld"] = meld
    return ev


def pending(player: str, table: Iterable[str], meld: str | None = None) -> Event:
    """Scoring a pending combination: no new card, exactly its cards from the table."""
    ev: Event = {"type": "declare", "player": player, "new": [], "table": list(table)}
    if meld is not None:
        ev["meld"] = meld
    return ev


def trick(winner: str, cards: dict[str, str] | None = None,
          from_table: Sequence[str] | None = None) -> Event:
    ev: Event = {"type": "trick", "winner": winner}
    if cards is not None:
        ev["cards"] = dict(cards)
    if from_table is not None:
        ev["from_table"] = list(from_table)
    return ev


def tricks(*winners: str) -> list[Event]:
    return [trick(w) for w in winners]


def seven(player: str) -> Event:
    return {"type": "seven", "player": player}


def penalty(player: str, offence: str) -> Event:
    return {"type": "penalty", "player": player, "offence": offence}


def stock() -> Event:
    return {"type": "stock_exhausted"}


def last(winner: str) -> Event:
    return {"type": "last_trick", "winner": winner}


def brisques(anna: int, boris: int) -> Event:
    return {"type": "brisques", "counts": {A: anna, B: boris}}


# ------------------------------------------------------------------------------ records
def deal(events: Sequence[Event], dealer: str = A, turn_up: str | None = "9H") -> dict[str, Any]:
    d: dict[str, Any] = {"dealer": dealer, "events": list(events)}
    if turn_up is not None:
        d["turn_up"] = turn_up
    return d


def record(
    events: Sequence[Event] = (),
    *,
    tracking: str = "melds",
    house_rules: Sequence[str] = (),
    target: int | None = None,
    turn_up: str | None = "9H",
    dealer: str = A,
    deals: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A bezique-match/1 document. Default trumps: hearts (turn-up 9H, no dealer's seven)."""
    doc: dict[str, Any] = {
        "format": "bezique-match/1",
        "variant": "two-hand",
        "players": list(PLAYERS),
        "tracking": tracking,
        "house_rules": list(house_rules),
        "deals": list(deals) if deals is not None else [deal(events, dealer, turn_up)],
    }
    if target is not None:
        doc["target"] = target
    return doc


def replay(doc: dict[str, Any]) -> Match:
    """Replay a record document (a deep copy, so the caller's dict is never shared)."""
    return replay_record(parse_record(json.loads(json.dumps(doc))))


def result(doc: dict[str, Any]) -> dict[str, Any]:
    return replay(doc).result().to_json()


def scores(doc: dict[str, Any], deal_index: int = 0) -> tuple[int, int]:
    """(Anna, Boris) points in one deal."""
    sides = result(doc)["sides"]
    return sides[0]["deal_scores"][deal_index], sides[1]["deal_scores"][deal_index]


def rejected(doc: dict[str, Any]) -> dict[tuple[int, int], str]:
    """(deal, event) → rule of every rejected event."""
    return {(r["deal"], r["event"]): r["rule"] for r in result(doc)["rejected"]}


def ruling(doc: dict[str, Any], event: int, deal_index: int = 0) -> Any:
    return replay(doc).deals[deal_index].log[event][1]


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


# Tricks that take a tricks-level deal to the end of the stock (24) and of the deal (32).
def alternate(n: int, first: str = A) -> list[Event]:
    other = B if first == A else A
    return [trick(first if i % 2 == 0 else other) for i in range(n)]


# ------------------------------------------------------------------------------ oracle
RANKS = ["7", "8", "9", "J", "Q", "K", "10", "A"]  # trick order, low → high (R-RANK)
SUITS = ["S", "H", "D", "C"]
FULL_PACK = [r + s for s in SUITS for r in RANKS]


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1])


def beats(card: str, best: str, trumps: str) -> bool:
    """Whether ``card`` played after ``best`` takes the trick from it (R-RANK)."""
    if suit_of(card) == suit_of(best):
        return rank_of(card) > rank_of(best)
    return suit_of(card) == trumps


def legal_follow(hand: Sequence[str], lead: str, trumps: str, must_win: bool) -> list[str]:
    """R-PHASE2 (and H-MUST-WIN): the cards a follower may play in the last eight tricks."""
    same = [c for c in hand if suit_of(c) == suit_of(lead)]
    if same:
        if must_win:
            winning = [c for c in same if beats(c, lead, trumps)]
            return winning or same
        return same
    trumps_held = [c for c in hand if suit_of(c) == trumps]
    return trumps_held or list(hand)


class SimulatedDeal:
    """A legal two-hand deal at ``cards`` level, played at random by a seeded generator."""

    def __init__(self, seed: int, dealer: int = 0, must_win: bool = False,
                 illegal: str | None = None) -> None:
        """``illegal``: None, or "revoke" (at the first phase-2 trick where the follower can,
        they neither follow suit nor trump though able) or "underplay" (they follow suit
        low though able to win: illegal only under H-MUST-WIN)."""
        rng = random.Random(seed)
        self.illegal_at: int | None = None  # the trick number of the illegal play
        self.offender: int | None = None
        pack = FULL_PACK * 2
        rng.shuffle(pack)
        self.turn_up = pack[16]
        self.trumps = suit_of(self.turn_up)
        hands = [pack[0:8], pack[8:16]]
        if dealer == 0:
            hands = [pack[8:16], pack[0:8]]  # the non-dealer is dealt first; order is cosmetic
        stock_cards = pack[17:]  # 47 face-down cards; the turn-up is drawn last
        self.events: list[Event] = []
        self.brisques = [0, 0]
        self.tricks_won = [0, 0]
        self.winners: list[int] = []
        leader = 1 - dealer  # R-LEAD: the non-dealer leads
        for number in range(1, 33):
            lead = rng.choice(hands[leader])
            follower = 1 - leader
            if number <= 24:
                follow = rng.choice(hands[follower])
            else:
                hand = hands[follower]
                legal = legal_follow(hand, lead, self.trumps, must_win)
                wrong: list[str] = []
                if illegal == "revoke":
                    wrong = [c for c in hand if c not in legal_follow(hand, lead, self.trumps,
                                                                      False)]
                elif illegal == "underplay":
                    same = [c for c in hand if suit_of(c) == suit_of(lead)]
                    if any(beats(c, lead, self.trumps) for c in same):
                        wrong = [c for c in same if not beats(c, lead, self.trumps)]
                if wrong and self.illegal_at is None:
                    follow = rng.choice(wrong)
                    self.illegal_at, self.offender = number, follower
                else:
                    follow = rng.choice(legal)
            hands[leader].remove(lead)
            hands[follower].remove(follow)
            winner = follower if beats(follow, lead, self.trumps) else leader
            self.winners.append(winner)
            self.tricks_won[winner] += 1
            self.brisques[winner] += sum(1 for c in (lead, follow) if c[:-1] in ("A", "10"))
            self.events.append(
                trick(PLAYERS[winner], {PLAYERS[leader]: lead, PLAYERS[follower]: follow})
            )
            if number <= 24:
                hands[winner].append(stock_cards.pop(0))
                if number < 24:
                    hands[1 - winner].append(stock_cards.pop(0))
                else:
                    hands[1 - winner].append(self.turn_up)  # the loser takes the turn-up
            leader = winner
        assert not stock_cards and not hands[0] and not hands[1]
        self.last_winner = self.winners[-1]
        self.dealer = dealer

    def record(self, house_rules: Sequence[str] = (), extra: Sequence[Event] = ()
               ) -> dict[str, Any]:
        return record(
            [*self.events, *extra],
            tracking="cards",
            house_rules=house_rules,
            turn_up=self.turn_up,
            dealer=PLAYERS[self.dealer],
        )


@pytest.fixture
def simulated() -> SimulatedDeal:
    return SimulatedDeal(seed=7)
