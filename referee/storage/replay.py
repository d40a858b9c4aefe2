"""The one place storage talks to the engine: events in the record's JSON form go in, a
replayed :class:`~referee.match.Match` and its rulings come out. Scores are never computed
here; they are read off the replay.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import parse_card
from referee.errors import BeziqueError, InconsistentEventError, RecordError
from referee.events import Event, Seven
from referee.match import Match
from referee.record import event_from_obj, event_to_obj
from referee.rulings import Ruling
from referee.storage.errors import StorageInputError


@dataclass(frozen=True, slots=True)
class Header:
    """A match's settings, as stored."""

    variant: str
    players: tuple[str, ...]
    tracking: str
    house_rules: tuple[str, ...]
    target: int | None
    games: int | None = None  # games in the match where each deal is a game (Rubicon …)


@dataclass(frozen=True, slots=True)
class DealStart:
    """A ``deal`` log entry: the deal row's id, dealer seat and turn-up code."""

    seq: int
    deal_id: int
    dealer: int
    turn_up: str | None


@dataclass(frozen=True, slots=True)
class EventEntry:
    """An ``event`` log entry with its JSON payload."""

    seq: int
    deal_id: int
    payload: Mapping[str, Any]


Step = DealStart | EventEntry


@dataclass(frozen=True, slots=True)
class Scored:
    """An accepted declaration or seven, for the statistics cache."""

    seq: int
    deal_id: int
    seat: int
    meld: str
    points: int


@dataclass
class Replayed:
    """A match replayed from its effective log, with what the caches need."""

    match: Match
    deal_ids: list[int]
    scored: list[Scored]


def new_match(h: Header) -> Match:
    """An empty match; a bad setting is a StorageInputError naming the field."""
    try:
        return Match.new(h.variant, h.players, h.tracking, h.house_rules, h.target, h.games)
    except BeziqueError as exc:
        raise StorageInputError("match", str(exc)) from exc


def start_deal(m: Match, dealer: int, turn_up: str | None, where: str = "deal") -> None:
    try:
        card = parse_card(turn_up) if turn_up is not None else None
        m.start_deal(dealer, card)
    except BeziqueError as exc:
        raise StorageInputError(where, str(exc)) from exc


def parse_event(m: Match, obj: Any, where: str = "event") -> Event:
    """The engine's event for a JSON object; StorageInputError names the field."""
    try:
        return event_from_obj(obj, list(m.players), where)
    except RecordError as exc:
        raise StorageInputError(exc.path or where, exc.detail) from exc
    except BeziqueError as exc:
        raise StorageInputError(where, str(exc)) from exc


def apply(m: Match, event: Event, where: str = "event") -> Ruling:
    """Apply to the current deal; an event contradicting the facts records nothing."""
    try:
        return m.apply(event)
    except InconsistentEventError as exc:
        raise StorageInputError(where, str(exc)) from exc
    except BeziqueError as exc:
        raise StorageInputError(where, str(exc)) from exc


def canonical(m: Match, event: Event) -> str:
    """The event as stored: the record's JSON, canonical spelling, stable key order."""
    return json.dumps(event_to_obj(event, list(m.players)), ensure_ascii=False)


def scored_of(seq: int, deal_id: int, event: Event, ruling: Ruling) -> Scored | None:
    """The statistics row for an accepted declaration or seven, if it scored."""
    if not ruling.accepted or not ruling.points:
        return None
    player = getattr(event, "player", None)
    if player is None:
        return None
    if isinstance(event, Seven):
        meld = "seven"
    else:
        named = ruling.meld or getattr(event, "meld", None)
        if named is None:
            return None
        meld = str(named)
    return Scored(seq, deal_id, int(player), meld, int(ruling.points))


def _log_place(step: Step) -> str:
    return f"log entry {step.seq}"


def replay(h: Header, steps: Iterable[Step], where: Callable[[Step], str] = _log_place) -> Replayed:
    """Replay effective log entries in order; ``where`` names a step in error messages."""
    m = new_match(h)
    deal_ids: list[int] = []
    scored: list[Scored] = []
    for step in steps:
        if isinstance(step, DealStart):
            start_deal(m, step.dealer, step.turn_up, where(step))
            deal_ids.append(step.deal_id)
            continue
        place = where(step)
        event = parse_event(m, step.payload, place)
        ruling = apply(m, event, place)
        row = scored_of(step.seq, step.deal_id, event, ruling)
        if row is not None:
            scored.append(row)
    return Replayed(m, deal_ids, scored)


def seat_scores(m: Match, deal_index: int) -> list[int]:
    """Each seat's points in one deal: its side's score (partners share a team's). Where
    each deal is a game, its points as the game counts them (GameScore.counted, before the
    fractions are dropped): brisques that do not count are not a player's best deal (QA P22)."""
    game = m.game(deal_index) if m.variant.game is not None else None
    if game is not None:
        scores = [game.counted(side)[0] for side in range(len(m.side_names))]
    else:
        scores = m.deals[deal_index].scores()
    return [scores[m.setup.side_of[seat]] for seat in range(len(m.players))]


def winner_seats(m: Match) -> tuple[bool, str | None, list[int]]:
    """(finished, winner side name, seats on the winning side)."""
    res = m.result()
    if not res.finished or res.winner is None:
        return False, None, []
    side = m.side_names.index(res.winner)
    return True, res.winner, [s for s in range(len(m.players)) if m.setup.side_of[s] == side]


def players_from(obj: Sequence[str]) -> tuple[str, ...]:
    return tuple(str(p) for p in obj)
