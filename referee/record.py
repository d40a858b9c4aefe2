"""The match record (``bezique-match/1``, shared/spec/match-record.md, and ``bezique-match/2``,
docs/match-record-2.md: version 1 plus the optional date ``played``): reading, writing and
replaying.

Reading is strict: an unknown field, card, player or a brisque count that cannot add up is a
:class:`RecordError` naming the place (``deals[1].events[4].new[0]: unknown card "1S"``), and
nothing is half-replayed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from referee.cards import Card, parse_card
from referee.deal import TRACKING_LEVELS
from referee.errors import BeziqueError, InconsistentEventError, InvalidCardError, RecordError
from referee.events import (
    Brisques,
    CarteBlanche,
    CutBonus,
    Declare,
    Event,
    LastTrick,
    Penalty,
    Seven,
    StockExhausted,
    Trick,
    event_type_name,
)
from referee.input_limits import load_json_file
from referee.match import Match
from referee.variants import load_variant, variant_ids

FORMAT_1 = "bezique-match/1"
FORMAT_2 = "bezique-match/2"  # version 1 plus the optional top-level date ``played``
FORMATS = (FORMAT_1, FORMAT_2)
FORMAT = FORMAT_1  # what a record without a date is written as (the simulator, the examples)
# A phone's clock may be off: a record may say it was played up to a day after it is read.
PLAYED_AHEAD = timedelta(days=1)
PLAYED_MIN_YEAR = 1900
_DEAL_FIELDS = {"dealer", "turn_up", "events"}
_EVENT_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required, optional)
    "trick": ({"winner"}, {"cards", "from_table"}),
    "declare": ({"player", "new"}, {"table", "meld"}),
    "seven": ({"player"}, set()),
    "carte_blanche": ({"player"}, set()),
    "cut_bonus": ({"player"}, set()),
    "penalty": ({"player", "offence"}, set()),
    "stock_exhausted": (set(), set()),
    "last_trick": ({"winner"}, set()),
    "brisques": ({"counts"}, set()),
}


@dataclass(frozen=True, slots=True)
class DealRecord:
    dealer: int
    turn_up: Card | None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRecord:
    variant: str
    players: tuple[str, ...]
    tracking: str = "melds"
    house_rules: tuple[str, ...] = ()
    target: int | None = None
    deals: tuple[DealRecord, ...] = field(default=())
    games: int | None = None  # games in the match where each deal is a game (Rubicon …)
    played: datetime | None = None  # when the match was started (UTC); only in version 2


# ------------------------------------------------------------------------------- reading
def _fail(path: str, message: str) -> RecordError:
    return RecordError(path, message)


def _obj(value: Any, path: str, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, f"{what} must be a JSON object, not {_kind(value)}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, f"must be a list, not {_kind(value)}")
    return value


def _str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, f"must be text, not {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {
        dict: "an object",
        list: "a list",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def _fields(obj: Mapping[str, Any], path: str, required: set[str], optional: set[str]) -> None:
    for key in obj:
        if key not in required | optional:
            allowed = ", ".join(sorted(required | optional)) or "none"
            place = f"{path}.{key}" if path else key
            raise _fail(place, f'unknown field "{key}" (allowed: {allowed})')
    for key in sorted(required):
        if key not in obj:
            raise _fail(path or "record", f'missing field "{key}"')


def _card(value: Any, path: str) -> Card:
    try:
        return parse_card(value)
    except InvalidCardError as e:
        raise _fail(path, str(e)) from None


def _cards(value: Any, path: str) -> tuple[Card, ...]:
    return tuple(_card(v, f"{path}[{i}]") for i, v in enumerate(_list(value, path)))


def _player(value: Any, players: Sequence[str], path: str) -> int:
    name = _str(value, path)
    if name not in players:
        raise _fail(path, f'unknown player "{name}" (players: {", ".join(players)})')
    return players.index(name)


def event_from_obj(obj: Any, players: Sequence[str], path: str = "event") -> Event:
    """One event in the record's JSON form → an Event; RecordError names the place."""
    ev = _obj(obj, path, "an event")
    if "type" not in ev:
        raise _fail(path, 'missing field "type"')
    kind = _str(ev["type"], f"{path}.type")
    if kind not in _EVENT_FIELDS:
        raise _fail(
            f"{path}.type", f'unknown event type "{kind}" (known: {", ".join(_EVENT_FIELDS)})'
        )
    required, optional = _EVENT_FIELDS[kind]
    _fields(ev, path, required | {"type"}, optional)
    if kind == "trick":
        winner = _player(ev["winner"], players, f"{path}.winner")
        cards: dict[int, Card] | None = None
        if "cards" in ev:
            raw = _obj(ev["cards"], f"{path}.cards", "cards")
            cards = {}
            for name, card in raw.items():
                seat = _player(name, players, f"{path}.cards")
                cards[seat] = _card(card, f"{path}.cards.{name}")
        from_table: frozenset[int] = frozenset()
        if "from_table" in ev:
            items = _list(ev["from_table"], f"{path}.from_table")
            from_table = frozenset(
                _player(n, players, f"{path}.from_table[{i}]") for i, n in enumerate(items)
            )
            if cards is None:
                raise _fail(f"{path}.from_table", "from_table needs the trick's cards")
        return Trick(winner, cards, from_table)
    if kind == "declare":
        player = _player(ev["player"], players, f"{path}.player")
        new = _cards(ev["new"], f"{path}.new")
        table = _cards(ev.get("table", []), f"{path}.table")
        meld = ev.get("meld")
        if meld is not None:
            meld = _str(meld, f"{path}.meld")
        return Declare(player, new, table, meld)
    if kind == "seven":
        return Seven(_player(ev["player"], players, f"{path}.player"))
    if kind == "carte_blanche":
        return CarteBlanche(_player(ev["player"], players, f"{path}.player"))
    if kind == "cut_bonus":
        return CutBonus(_player(ev["player"], players, f"{path}.player"))
    if kind == "penalty":
        player = _player(ev["player"], players, f"{path}.player")
        return Penalty(player, _str(ev["offence"], f"{path}.offence"))
    if kind == "stock_exhausted":
        return StockExhausted()
    if kind == "last_trick":
        return LastTrick(_player(ev["winner"], players, f"{path}.winner"))
    raw_counts = _obj(ev["counts"], f"{path}.counts", "counts")
    counts: dict[int, int] = {}
    for name, count in raw_counts.items():
        seat = _player(name, players, f"{path}.counts")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0 or count > 10**6:
            raise _fail(f"{path}.counts.{name}", f"must be a whole number ≥ 0, not {count!r}")
        counts[seat] = count
    return Brisques(counts)


def parse_played(value: Any, now: datetime | None = None) -> datetime:
    """A record's ``played``: an ISO 8601 date-time with a UTC offset, from 1900 to a day after
    ``now`` (default: the clock), → aware UTC; RecordError at ``played`` otherwise."""
    text = _str(value, "played")
    shown = json.dumps(text, ensure_ascii=False) if len(text) <= 40 else "that text"
    try:
        if len(text) > 64:
            raise ValueError(text)
        t = datetime.fromisoformat(text)
        if t.tzinfo is None or t.utcoffset() is None:  # a date alone has no offset either
            raise ValueError(text)
        t = t.astimezone(UTC)
    except (ValueError, OverflowError):
        raise _fail("played", f"not a date-time with an offset: {shown}") from None
    clock = now or datetime.now(UTC)
    if t.year < PLAYED_MIN_YEAR:
        raise _fail("played", f"before {PLAYED_MIN_YEAR}: {shown}")
    if t > clock + PLAYED_AHEAD:
        raise _fail(
            "played",
            f"more than a day in the future: {shown} (the clock here says "
            f"{clock.astimezone(UTC).isoformat(timespec='seconds')})",
        )
    return t


def parse_record(data: Any, *, now: datetime | None = None) -> MatchRecord:
    """A parsed JSON document → MatchRecord (structure only; replay checks the play).
    ``bezique-match/1`` and ``/2`` are read; ``played`` is a field of version 2 only."""
    top = _obj(data, "", "a match record")
    optional = {"tracking", "house_rules", "target", "games"}
    if top.get("format") == FORMAT_2:
        optional.add("played")
    elif top.get("format") == FORMAT_1 and "played" in top:
        raise _fail(
            "played",
            f'unknown field "played" in a {FORMAT_1} record (the date is a field of {FORMAT_2})',
        )
    _fields(top, "", {"format", "variant", "players", "deals"}, optional)
    if top["format"] not in FORMATS:
        raise _fail(
            "format", f'must be "{FORMAT_1}" or "{FORMAT_2}", not {json.dumps(top["format"])}'
        )
    played = parse_played(top["played"], now) if "played" in top else None
    variant = _str(top["variant"], "variant")
    if variant not in variant_ids():
        raise _fail("variant", f'unknown variant "{variant}" (known: {", ".join(variant_ids())})')
    raw_players = _list(top["players"], "players")
    players = tuple(_str(p, f"players[{i}]") for i, p in enumerate(raw_players))
    for i, name in enumerate(players):
        if not name.strip():
            raise _fail(f"players[{i}]", "a player's name must not be empty")
        if name in players[:i]:
            raise _fail(f"players[{i}]", f'"{name}" is listed twice; names must be unique')
    tracking = _str(top.get("tracking", "melds"), "tracking")
    if tracking not in TRACKING_LEVELS:
        raise _fail("tracking", f'unknown tracking "{tracking}" (use {", ".join(TRACKING_LEVELS)})')
    rules_raw = _list(top.get("house_rules", []), "house_rules")
    house_rules = tuple(_str(r, f"house_rules[{i}]") for i, r in enumerate(rules_raw))
    target = top.get("target")
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 0 < target <= 10**9
    ):
        raise _fail("target", f"must be a whole number above 0, not {json.dumps(target)}")
    games = top.get("games")
    if games is not None and (
        isinstance(games, bool) or not isinstance(games, int) or not 0 < games <= 10**4
    ):
        raise _fail("games", f"must be a whole number above 0, not {json.dumps(games)}")
    if games is not None and load_variant(variant).game is None:
        raise _fail("games", f"{variant} is not played in games: give a target instead")
    deals: list[DealRecord] = []
    for d, raw_deal in enumerate(_list(top["deals"], "deals")):
        path = f"deals[{d}]"
        deal = _obj(raw_deal, path, "a deal")
        _fields(deal, path, {"dealer", "events"}, {"turn_up"})
        dealer = _player(deal["dealer"], players, f"{path}.dealer")
        turn_up = None
        if deal.get("turn_up") is not None:
            turn_up = _card(deal["turn_up"], f"{path}.turn_up")
        events = tuple(
            event_from_obj(e, players, f"{path}.events[{i}]")
            for i, e in enumerate(_list(deal["events"], f"{path}.events"))
        )
        deals.append(DealRecord(dealer, turn_up, events))
    if not load_variant(variant).jokers:
        _no_jokers(deals, variant)
    return MatchRecord(variant, players, tracking, house_rules, target, tuple(deals), games, played)


def _no_jokers(deals: Sequence[DealRecord], variant: str) -> None:
    """A joker in a variant that has none is no card of its pack."""
    for d, deal in enumerate(deals):
        if deal.turn_up is not None and deal.turn_up.is_joker:
            raise _fail(f"deals[{d}].turn_up", f"{variant} has no jokers")
        for i, ev in enumerate(deal.events):
            groups: list[tuple[str, Sequence[Card]]] = []
            if isinstance(ev, Declare):
                groups = [("new", ev.new), ("table", ev.table)]
            elif isinstance(ev, Trick) and ev.cards:
                groups = [("cards", list(ev.cards.values()))]
            for name, cards in groups:
                for k, card in enumerate(cards):
                    if card.is_joker:
                        raise _fail(
                            f"deals[{d}].events[{i}].{name}[{k}]", f"{variant} has no jokers"
                        )


def load_record(path: str | Path) -> MatchRecord:
    """Read a record file (a regular file within MAX_RECORD_BYTES); RecordError names the file
    and the place."""
    return parse_record(load_json_file(Path(path)))


# ------------------------------------------------------------------------------- replay
def replay_record(record: MatchRecord) -> Match:
    """Replay a whole record; any malformed part raises RecordError naming its place."""
    try:
        match = Match.new(
            record.variant,
            record.players,
            record.tracking,
            record.house_rules,
            record.target,
            record.games,
        )
    except BeziqueError as e:
        place = (
            "house_rules"
            if "house rule" in str(e)
            else ("players" if "players" in str(e) or "player names" in str(e) else "record")
        )
        raise RecordError(place, str(e)) from None
    for d, deal in enumerate(record.deals):
        try:
            match.start_deal(deal.dealer, deal.turn_up)
        except BeziqueError as e:
            raise RecordError(f"deals[{d}]", str(e)) from None
        for i, event in enumerate(deal.events):
            try:
                match.apply(event)
            except InconsistentEventError as e:
                raise RecordError(f"deals[{d}].events[{i}]", str(e)) from None
    return match


# ------------------------------------------------------------------------------- writing
def event_to_obj(event: Event, players: Sequence[str]) -> dict[str, Any]:
    """An Event → the record's JSON object for it (players by name)."""
    obj: dict[str, Any] = {"type": event_type_name(event)}
    if isinstance(event, Trick):
        obj["winner"] = players[event.winner]
        if event.cards is not None:
            obj["cards"] = {players[s]: c.code for s, c in sorted(event.cards.items())}
        if event.from_table:
            obj["from_table"] = [players[s] for s in sorted(event.from_table)]
    elif isinstance(event, Declare):
        obj["player"] = players[event.player]
        obj["new"] = [c.code for c in event.new]
        if event.table:
            obj["table"] = [c.code for c in event.table]
        if event.meld is not None:
            obj["meld"] = event.meld
    elif isinstance(event, Seven | CarteBlanche | CutBonus):
        obj["player"] = players[event.player]
    elif isinstance(event, Penalty):
        obj["player"] = players[event.player]
        obj["offence"] = event.offence
    elif isinstance(event, LastTrick):
        obj["winner"] = players[event.winner]
    elif isinstance(event, Brisques):
        obj["counts"] = {players[s]: n for s, n in sorted(event.counts.items())}
    return obj


def record_of(match: Match) -> MatchRecord:
    """Export what the engine holds (every event, rejected ones included, as recorded)."""
    deals = tuple(
        DealRecord(deal.dealer, deal.original_turn_up, tuple(deal.events)) for deal in match.deals
    )
    default_target = match.variant.target(len(match.players))
    return MatchRecord(
        match.variant.id,
        match.players,
        match.tracking,
        tuple(sorted(match.house_rules)),
        None if match.target in (default_target, 0) else match.target,
        deals,
        None if match.games is None or match.games == match.variant.games else match.games,
    )


def played_text(t: datetime) -> str:
    """``played`` as written: UTC to the second, ``2026-12-02T14:05:00+00:00``."""
    return t.astimezone(UTC).replace(microsecond=0).isoformat()


def record_to_obj(record: MatchRecord, format: str | None = None) -> dict[str, Any]:
    """The record's JSON object: ``bezique-match/2`` with ``played`` when the record has a
    date, else version 1; ``format=FORMAT_1`` writes version 1 (the date left out) for tools
    that read only that."""
    if format is None:
        format = FORMAT_2 if record.played is not None else FORMAT_1
    if format not in FORMATS:
        raise ValueError(f'unknown record format "{format}" (known: {", ".join(FORMATS)})')
    obj: dict[str, Any] = {
        "format": format,
        "variant": record.variant,
        "players": list(record.players),
        "tracking": record.tracking,
        "house_rules": list(record.house_rules),
    }
    if record.target is not None:
        obj["target"] = record.target
    if record.games is not None:
        obj["games"] = record.games
    if format == FORMAT_2 and record.played is not None:
        obj["played"] = played_text(record.played)
    obj["deals"] = []
    for deal in record.deals:
        d: dict[str, Any] = {"dealer": record.players[deal.dealer]}
        if deal.turn_up is not None:
            d["turn_up"] = deal.turn_up.code
        d["events"] = [event_to_obj(e, record.players) for e in deal.events]
        obj["deals"].append(d)
    return obj


def dump_record(record: MatchRecord) -> str:
    return json.dumps(record_to_obj(record), ensure_ascii=False, indent=1)
