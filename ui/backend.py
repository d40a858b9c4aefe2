"""The one place the UI touches the engine (referee/) and the storage layer (referee.storage).

Screens and state classes call these functions, never the engine's modules directly, so a
renamed engine function changes one file. Nothing here decides a rule: it forwards, converts
and reads data files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from referee import rulings
from referee.cards import Card, Suit, parse_card
from referee.record import event_to_obj
from referee.variants import load_variant
from referee.variants import variant_ids as _variant_ids

TRACKING_LEVELS: tuple[str, ...] = ("melds", "tricks", "cards")


class StoreLike(Protocol):
    notice: Any


@dataclass(frozen=True)
class VariantInfo:
    """What the new-match form needs to know about a variant."""

    id: str
    player_counts: tuple[int, ...]
    targets: dict[int, int]
    partnerships_at: frozenset[int]
    house_rules: tuple[str, ...]
    turn_up: bool


VARIANT_ORDER = ("two-hand", "three-hand", "four-hand", "no-trump")


def variant_ids() -> list[str]:
    """Variants the engine knows, the common ones first."""
    ids = list(_variant_ids())
    return sorted(ids, key=lambda v: (VARIANT_ORDER.index(v) if v in VARIANT_ORDER else 99, v))


@cache
def variant_info(variant: str) -> VariantInfo:
    v = load_variant(variant)
    return VariantInfo(
        id=v.id,
        player_counts=tuple(v.player_counts),
        targets=dict(v.targets_by_players),
        partnerships_at=frozenset(v.partnerships_at),
        house_rules=tuple(v.house_rules_available),
        turn_up=v.turn_up,
    )


def meld_name(meld: str, lang: str) -> str:
    return rulings.meld_name(meld, lang)


def rule_title(rule: str, lang: str) -> str:
    return rulings.rule_title(rule, lang)


def ruling_text(ruling: Any, lang: str) -> str:
    render = getattr(ruling, "render", None)
    if callable(render):
        return str(render(lang))
    return str(getattr(ruling, "message", ""))


def card(code: str) -> Card:
    return parse_card(code)


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def rule_explanation(rule: str, lang: str) -> str:
    """The rule's text in plain words, when the engine's data has one (else empty)."""
    texts = _rule_texts(lang)
    return texts.get(rule, "") or _rule_texts("en").get(rule, "")


@cache
def _rule_texts(lang: str) -> dict[str, str]:
    """Rule texts from the engine's data files (``[texts]`` in rulings.<lang>.toml, or
    ``rules.<lang>.toml``); a missing file just means no "why" line."""
    from referee.data import data_dir, load_toml

    out: dict[str, str] = {}
    for rel, section in ((f"i18n/rules.{lang}.toml", None), (f"i18n/rulings.{lang}.toml", "texts")):
        if not (data_dir() / rel).exists():
            continue
        data = load_toml(rel)
        node = data.get(section, {}) if section else data
        for key, value in node.items():
            if isinstance(value, str):
                out[key] = value
            elif isinstance(value, dict):
                text = value.get("text") or value.get("summary") or value.get("explanation")
                if isinstance(text, str):
                    out[key] = text
    return out


def rule_ids() -> list[str]:
    """Every rule, house rule and penalty id the engine's data names, R- first."""
    from referee.data import load_toml

    ids: set[str] = set(load_toml("i18n/rulings.en.toml").get("rules", {}))
    ids |= set(_rule_texts("en"))
    for vid in variant_ids():
        v = load_variant(vid)
        ids |= set(v.house_rules_available) | {str(k) for k in v.penalties}
    order = {"R": 0, "H": 1, "P": 2}
    return sorted(ids, key=lambda r: (order.get(r[:1], 3), r))


def rule_source(rule: str, lang: str) -> str:
    """Where a reading comes from (a seed or a rulebook), when the data says."""
    return _rule_sources(lang).get(rule, "") or _rule_sources("en").get(rule, "")


@cache
def _rule_sources(lang: str) -> dict[str, str]:
    from referee.data import data_dir, load_toml

    out: dict[str, str] = {}
    for rel in (f"i18n/rules.{lang}.toml", f"i18n/rulings.{lang}.toml"):
        if not (data_dir() / rel).exists():
            continue
        data = load_toml(rel)
        for key, value in data.get("sources", {}).items():
            out[key] = str(value)
        for key, value in data.items():
            if isinstance(value, dict) and isinstance(value.get("source"), str):
                out[key] = value["source"]
    return out


# --- storage ---------------------------------------------------------------------------------
def open_store(db_url: str | None = None) -> Any:
    """The storage layer's database (the embedded SQLite file unless a URL is given)."""
    from referee.storage import Store

    return Store.open(url=db_url)


@dataclass(frozen=True)
class MatchSummary:
    """A match as a line on the home or history screen."""

    id: int
    variant: str
    players: tuple[str, ...]
    sides: tuple[str, ...]
    totals: tuple[int, ...]
    deals: int
    target: int
    finished: bool
    winner: str | None
    created: str


def summarize(store: Any, match_id: int) -> MatchSummary:
    info = store.match_info(match_id)
    m = store.load_match(match_id)
    r = m.result()
    return MatchSummary(
        id=match_id,
        variant=str(info.variant),
        players=tuple(info.players),
        sides=tuple(s.name for s in r.sides),
        totals=tuple(int(s.total) for s in r.sides),
        deals=len(m.deals),
        target=int(m.target),
        finished=bool(r.finished),
        winner=r.winner,
        created=info.created_at.strftime("%Y-%m-%d %H:%M") if info.created_at else "",
    )


def unfinished_match(store: Any) -> MatchSummary | None:
    match_id = store.unfinished_match()
    return None if match_id is None else summarize(store, int(match_id))


def list_matches(store: Any) -> list[MatchSummary]:
    return [summarize(store, int(info.id)) for info in store.list_matches()]


def export_match(store: Any, match_id: int, folder: Path) -> Path:
    """Write the match record (bezique-match/1 JSON) to a file and return its path."""
    record = store.export_match(match_id)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"bezique-match-{match_id}.json"
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def player_stats(store: Any) -> list[Any]:
    return list(store.player_stats())


def create_match(
    store: Any,
    *,
    variant: str,
    players: list[str],
    tracking: str,
    house_rules: list[str],
    target: int,
) -> int:
    return int(
        store.create_match(
            variant=variant,
            players=players,
            tracking=tracking,
            house_rules=house_rules,
            target=target,
        )
    )


# --- one match, as the screens see it -----------------------------------------------------------
class MatchSession:
    """A match opened from storage: the replayed engine Match plus record/undo/redo.

    Events go to storage in the match record's JSON form; after every change the match is
    re-read from storage, so what the screen shows is what a restart would show.
    """

    def __init__(self, store: Any, match_id: int) -> None:
        self.store = store
        self.match_id = match_id
        self.match: Any = None
        self.can_undo = False
        self.can_redo = False
        self.reload()

    def reload(self) -> None:
        self.match = self.store.load_match(self.match_id)
        self.can_undo = bool(self.store.can_undo(self.match_id))
        self.can_redo = bool(self.store.can_redo(self.match_id))

    def start_deal(self, dealer: int, turn_up: Card | None) -> None:
        self.store.start_deal(self.match_id, dealer, turn_up.code if turn_up else None)
        self.reload()

    def record(self, event: Any) -> Any:
        obj = event_to_obj(event, self.match.players)
        ruling = self.store.record(self.match_id, obj)
        self.reload()
        return ruling

    def undo(self) -> bool:
        ok = bool(self.store.undo(self.match_id))
        self.reload()
        return ok

    def redo(self) -> bool:
        ok = bool(self.store.redo(self.match_id))
        self.reload()
        return ok
