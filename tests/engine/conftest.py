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
from collections import Counter
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


seven_event = seven


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


def _best_meld(cards: Sequence[str], trumps: str) -> tuple[str, list[str], int] | None:
    """The most valuable two-hand combination (RULES.md §4) among ``cards``, by this oracle's
    own table; None when there is none."""
    have = Counter(cards)
    found: list[tuple[int, str, list[str]]] = []
    if have["QS"] >= 2 and have["JD"] >= 2:
        found.append((500, "double_bezique", ["QS", "QS", "JD", "JD"]))
    seq = [r + trumps for r in ("A", "10", "K", "Q", "J")]
    if all(have[c] for c in seq):
        found.append((250, "trump_sequence", seq))
    for rank, meld, points in (("A", "four_aces", 100), ("K", "four_kings", 80),
                               ("Q", "four_queens", 60), ("J", "four_jacks", 40)):
        of_rank = [c for c in cards if c[:-1] == rank]
        if len(of_rank) >= 4:
            found.append((points, meld, sorted(of_rank)[:4]))
    if have["QS"] and have["JD"]:
        found.append((40, "bezique", ["QS", "JD"]))
    for suit in SUITS:
        if have["K" + suit] and have["Q" + suit]:
            trump = suit == trumps
            found.append((40 if trump else 20, "trump_marriage" if trump else "marriage",
                          ["K" + suit, "Q" + suit]))
    if not found:
        return None
    points, meld, chosen = max(found, key=lambda f: f[0])
    return meld, chosen, points


class SimulatedDeal:
    """A legal two-hand deal at ``cards`` level, played at random by a seeded generator."""

    def __init__(self, seed: int, dealer: int = 0, must_win: bool = False,
                 illegal: str | None = None, declare: bool = False) -> None:
        """``illegal``: None, or "revoke" (at the first phase-2 trick where the follower can,
        they neither follow suit nor trump though able) or "underplay" (they follow suit
        low though able to win: illegal only under H-MUST-WIN).

        ``declare``: after each trick won in phase 1 the winner exchanges or shows a seven of
        trumps, or lays the best combination found among the cards of the hand not yet on the
        table (all new cards, so no reuse question arises); declared cards are then played off
        the table (``from_table``) when chosen."""
        rng = random.Random(seed)
        self.illegal_at: int | None = None  # the trick number of the illegal play
        self.offender: int | None = None
        pack = FULL_PACK * 2
        rng.shuffle(pack)
        self.turn_up = pack[16]
        self.trumps = suit_of(self.turn_up)
        turn_up_now = self.turn_up
        seven = "7" + self.trumps
        sevens_declared = 0
        hands = [pack[0:8], pack[8:16]]
        if dealer == 0:
            hands = [pack[8:16], pack[0:8]]  # the non-dealer is dealt first; order is cosmetic
        tables: list[list[str]] = [[], []]  # declared cards, still part of the hands
        stock_cards = pack[17:]  # 47 face-down cards; the turn-up is drawn last
        self.events: list[Event] = []
        self.brisques = [0, 0]
        self.tricks_won = [0, 0]
        self.declared = [0, 0]  # points declared (melds and sevens)
        self.winners: list[int] = []
        leader = 1 - dealer  # R-LEAD: the non-dealer leads
        for number in range(1, 33):
            if number == 25:
                tables = [[], []]  # R-PHASE2: the declared cards go back into the hands
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
            off_table: list[str] = []
            for seat, card in ((leader, lead), (follower, follow)):
                hands[seat].remove(card)
                if card in tables[seat]:
                    in_hand_only = hands[seat].count(card) + 1 - tables[seat].count(card)
                    if in_hand_only == 0 or rng.random() < 0.5:
                        tables[seat].remove(card)
                        off_table.append(PLAYERS[seat])
            winner = follower if beats(follow, lead, self.trumps) else leader
            self.winners.append(winner)
            self.tricks_won[winner] += 1
            self.brisques[winner] += sum(1 for c in (lead, follow) if c[:-1] in ("A", "10"))
            self.events.append(
                trick(PLAYERS[winner], {PLAYERS[leader]: lead, PLAYERS[follower]: follow},
                      from_table=off_table or None)
            )
            if declare and number <= 24:
                free = Counter(hands[winner]) - Counter(tables[winner])
                found = _best_meld(list(free.elements()), self.trumps)
                # Two sevens of trumps exist: with a turned-up seven one is left to show;
                # otherwise the first is exchanged and the second shown (each scores once).
                may_seven = sevens_declared == 0 or (sevens_declared == 1
                                                     and self.turn_up[0] != "7")
                if free[seven] and may_seven:
                    if sevens_declared == 0 and self.turn_up[0] != "7":
                        hands[winner].remove(seven)  # exchanged: the seven is the turn-up now
                        hands[winner].append(turn_up_now)
                        turn_up_now = seven
                    sevens_declared += 1
                    self.declared[winner] += 10
                    self.events.append(seven_event(PLAYERS[winner]))
                elif found is not None:
                    meld, cards, points = found
                    tables[winner].extend(cards)
                    self.declared[winner] += points
                    self.events.append(decl(PLAYERS[winner], cards, meld=meld))
            if number <= 24:
                hands[winner].append(stock_cards.pop(0))
                if number < 24:
                    hands[1 - winner].append(stock_cards.pop(0))
                else:
                    hands[1 - winner].append(turn_up_now)  # the loser takes the turn-up
            leader = winner
        assert not stock_cards and not hands[0] and not hands[1]
        self.last_winner = self.winners[-1]
        self.dealer = dealer

    def expected_scores(self) -> tuple[int, int]:
        """Declared points + 10 a brisque + 10 for the last trick + the dealer's seven."""
        return (
            self.declared[0] + 10 * self.brisques[0] + 10 * (self.last_winner == 0)
            + 10 * (self.turn_up[0] == "7" and self.dealer == 0),
            self.declared[1] + 10 * self.brisques[1] + 10 * (self.last_winner == 1)
            + 10 * (self.turn_up[0] == "7" and self.dealer == 1),
        )

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
