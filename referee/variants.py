"""Variants as configuration over one core: packs, deal, targets, combination tables and the
house rules that apply, all read from ``data/variants/*.toml``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from referee.cards import Card, Rank, parse_card
from referee.data import data_dir, load_toml
from referee.errors import UnknownVariantError

Shape = Literal["suit", "bezique", "rank"]


@dataclass(frozen=True, slots=True)
class CombinationSpec:
    """One kind of combination and its value in a variant."""

    id: str
    shape: Shape
    points: int
    family: str
    ranks: tuple[Rank, ...] = ()
    suit: Literal["plain", "trump", "any"] = "any"
    copies: int = 1
    wins_partie: bool = False

    @property
    def size(self) -> int:
        if self.shape == "rank":
            return self.copies if self.suit == "trump" else 4
        if self.shape == "bezique":
            return 2 * self.copies
        return len(self.ranks) * self.copies


@dataclass(frozen=True, slots=True)
class ShowingSpec:
    """A combination of the multi-pack joker variant, scored by showings (its escalation).

    kind "series": fixed cards (``slots``), the n-th showing scores ``values[n-1]`` (doubling
    past the table); "repeat": four of ``rank`` in different suits, the n-th showing n × the
    first value; "set": the trump cards of ``rank`` (or the bezique jacks) a player has shown,
    growing card by card, ``values[k]`` for the (4+k)-th card.
    """

    id: str
    kind: Literal["series", "repeat", "set"]
    values: tuple[int, ...]
    slots: tuple[str, ...] = ()
    rank: Rank | None = None
    bezique_jack: bool = False  # a set of bezique jacks rather than trump cards
    jack_may_be_bezique: bool = False  # the quint may take the bezique jack for the trump one


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Each deal is a game (Rubicon, six- and eight-pack, RULES.md §8): its bonus, the
    rubicon and how brisques and fractions of 100 count (referee/games.py)."""

    bonus: int
    rubicon_under: int
    rubicon_bonus: int
    rubicon_adds_loser: bool = True
    rubicon_brisques: int = 0
    brisques: Literal["tie_or_save", "never", "always"] = "tie_or_save"
    drop_fractions: bool = False


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything the engine needs to know about one way of playing, with house rules applied."""

    id: str
    player_counts: tuple[int, ...]
    packs_by_players: Mapping[int, int]
    hand_size: int
    targets_by_players: Mapping[int, int]
    turn_up: bool
    partnerships_at: frozenset[int]
    brisque_points: int
    last_trick_points: int
    dealer_seven_points: int
    seven_points: int
    combinations: tuple[CombinationSpec, ...]
    penalties: Mapping[str, int | str]
    house_rules_available: tuple[str, ...]
    fix_trumps_by_marriage: bool = False
    fixing_marriage_points: Mapping[str, int] = field(default_factory=dict)
    removed: Mapping[str, str] = field(default_factory=dict)
    pack_ranks: tuple[Rank, ...] = tuple(Rank)
    extra_per_suit: Mapping[Rank, int] = field(default_factory=dict)
    jokers: int = 0
    engine: Literal["tricks", "showings"] = "tricks"
    showings: tuple[ShowingSpec, ...] = ()
    max_active: int = 0
    tracking_levels: tuple[str, ...] = ("melds", "tricks", "cards")
    # The seven exchanged for the turn-up (H-SEVEN-TWENTY: 20); None: as a shown seven.
    exchanged_seven_points: int | None = None
    # When each offence can have happened (referee.penalties.WHEN); missing: "any".
    penalty_when: Mapping[str, str] = field(default_factory=dict)
    # Rubicon and the multi-pack forms (RULES.md §8):
    fix_trumps_by_sequence: bool = False  # the first marriage *or sequence* fixes trumps
    reuse: Literal["more", "kinds"] = "more"  # R-REUSE, or any other kind (Rubicon)
    reform: bool = False  # R-REFORM: a kind again once a card of it was played
    carte_blanche_points: int = 0  # R-CARTE-BLANCHE: a hand with no court card
    game: GameSpec | None = None  # each deal is a game (R-GAME, R-RUBICON)
    games: int | None = None  # games in a match by default (None: a points target)
    # R-CUT-BONUS (six-pack, optional): "dealer" for cutting exactly 24, "guess" for the
    # non-dealer who guesses the number cut.
    cut_bonus: Mapping[str, int] = field(default_factory=dict)

    def seven_value(self, *, exchange: bool) -> int:
        """R-SEVEN: what a declared seven of trumps scores; H-SEVEN-TWENTY makes the
        exchanged one worth 20 (10 for holding it, 10 for making it the turn-up)."""
        if exchange and self.exchanged_seven_points is not None:
            return self.exchanged_seven_points
        return self.seven_points

    def packs(self, players: int) -> int:
        return self.packs_by_players[players]

    def copies(self, card: Card, players: int) -> int:
        """How many copies of a card the game holds (R-PACK)."""
        if card.is_joker:
            return self.jokers
        in_pack = self.packs(players) if card.rank in self.pack_ranks else 0
        return in_pack + self.extra_per_suit.get(card.rank, 0)

    def cards_total(self, players: int) -> int:
        extra = 4 * sum(self.extra_per_suit.values()) + self.jokers
        return 4 * len(self.pack_ranks) * self.packs(players) + extra

    def active_players(self, players: int) -> int:
        """Players who receive cards (the multi-pack variant deals to three at most)."""
        return min(players, self.max_active) if self.max_active else players

    def showing(self, meld: str) -> ShowingSpec | None:
        for spec in self.showings:
            if spec.id == meld:
                return spec
        return None

    def target(self, players: int) -> int:
        return self.targets_by_players[players]

    def partnerships(self, players: int) -> bool:
        return players in self.partnerships_at

    def stock_tricks(self, players: int) -> int:
        """Tricks played with draws (phase 1): every card not dealt is drawn, turn-up included."""
        active = self.active_players(players)
        stock = self.cards_total(players) - self.hand_size * active
        return stock // active

    def total_tricks(self, players: int) -> int:
        return self.stock_tricks(players) + self.hand_size

    def brisques_total(self, players: int) -> int:
        return 2 * 4 * self.packs(players) if Rank.TEN in self.pack_ranks else 0

    def combination(self, meld: str) -> CombinationSpec | None:
        for spec in self.combinations:
            if spec.id == meld:
                return spec
        return None


def _per_players(value: Any, counts: Iterable[int]) -> dict[int, int]:
    if isinstance(value, dict):
        return {int(k): int(v) for k, v in value.items()}
    return {n: int(value) for n in counts}


def _spec(raw: Mapping[str, Any]) -> CombinationSpec:
    shape = raw["shape"]
    ranks: tuple[Rank, ...] = ()
    if shape == "suit":
        ranks = tuple(parse_card(r + "S").rank for r in raw["ranks"])
    elif shape == "rank":
        ranks = (parse_card(raw["rank"] + "S").rank,)
    return CombinationSpec(
        id=raw["id"],
        shape=shape,
        points=int(raw["points"]),
        family=raw.get("class", raw["id"]),
        ranks=ranks,
        suit=raw.get("suit", "any"),
        copies=int(raw.get("copies", 1)),
        wins_partie=bool(raw.get("wins_partie", False)),
    )


def variant_ids() -> list[str]:
    return sorted(p.stem for p in (data_dir() / "variants").glob("*.toml"))


def _merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """A variant file may extend another: its keys replace the base's, its combinations are
    added to (or replace, by id) the base's, and house_rules_extra adds house rules."""
    merged = dict(base) | {k: v for k, v in child.items() if k not in ("combination", "extends")}
    combos = {c["id"]: c for c in base.get("combination", [])}
    combos |= {c["id"]: c for c in child.get("combination", [])}
    merged["combination"] = list(combos.values())
    values = dict(base.get("house_rule_values", {})) | child.get("house_rule_values", {})
    merged["house_rule_values"] = values
    if "house_rules" not in child:
        merged["house_rules"] = list(base.get("house_rules", []))
    merged["house_rules"] = list(merged["house_rules"]) + [
        r for r in child.get("house_rules_extra", []) if r not in merged["house_rules"]
    ]
    merged.pop("house_rules_extra", None)
    return merged


@cache
def _raw(variant_id: str) -> dict[str, Any]:
    if variant_id not in variant_ids():
        raise UnknownVariantError(
            f'unknown variant "{variant_id}"; known: {", ".join(variant_ids())}'
        )
    raw = load_toml(f"variants/{variant_id}.toml")
    if "extends" in raw:
        return _merge(_raw(raw["extends"]), raw)
    return raw


@cache
def load_variant(variant_id: str, house_rules: frozenset[str] = frozenset()) -> Variant:
    """The variant with the number-changing house rules applied."""
    raw = _raw(variant_id)
    counts = tuple(int(n) for n in raw["players"])
    available = tuple(raw.get("house_rules", ()))
    for rule in sorted(house_rules):
        if rule not in available:
            raise UnknownVariantError(
                f'house rule "{rule}" does not apply to {variant_id}; '
                f'it takes: {", ".join(available) or "none"}'
            )
    combos = {c["id"]: dict(c) for c in raw.get("combination", [])}
    showings = {s["id"]: dict(s) for s in raw.get("showing", [])}
    packs_raw = raw["packs"]
    penalties: dict[str, int | str] = dict(raw.get("penalties", {}))
    scalars = {k: raw.get(k) for k in ("seven_points", "last_trick_points",
                                       "exchanged_seven_points")}
    fixing = dict(raw.get("fixing_marriage_points", {}))
    removed: dict[str, str] = {}
    for rule in sorted(house_rules):
        change = raw.get("house_rule_values", {}).get(rule, {})
        penalties.update(change.get("penalties", {}))
        for meld, points in change.get("points", {}).items():
            combos[meld]["points"] = points
        for meld, values in change.get("showing_values", {}).items():
            showings[meld]["values"] = values
        if "packs" in change:
            packs_raw = change["packs"]
        for added in change.get("add", []):
            combos[added["id"]] = dict(added)
        for meld in change.get("remove", []):
            combos.pop(meld, None)
            removed[meld] = rule
        fixing.update(change.get("fixing_marriage_points", {}))
        for key in scalars:
            if key in change:
                scalars[key] = change[key]
    partnerships = raw.get("partnerships", False)
    partnerships_at = (
        frozenset(counts) if partnerships is True
        else frozenset(int(n) for n in partnerships) if isinstance(partnerships, list)
        else frozenset()
    )
    return Variant(
        id=raw["id"],
        player_counts=counts,
        packs_by_players=_per_players(packs_raw, counts),
        hand_size=int(raw["hand_size"]),
        targets_by_players=_per_players(raw["target"], counts),
        turn_up=bool(raw["turn_up"]),
        partnerships_at=partnerships_at,
        brisque_points=int(raw["brisque_points"]),
        last_trick_points=int(scalars["last_trick_points"] or 0),
        dealer_seven_points=int(raw["dealer_seven_points"]),
        seven_points=int(scalars["seven_points"] or 0),
        combinations=tuple(_spec(c) for c in combos.values()),
        penalties=penalties,
        house_rules_available=available,
        fix_trumps_by_marriage=bool(raw.get("fix_trumps_by_marriage", False)),
        fixing_marriage_points={k: int(v) for k, v in fixing.items()},
        removed=removed,
        pack_ranks=tuple(_rank(r) for r in raw.get("pack_ranks", [r.label for r in Rank])),
        extra_per_suit={_rank(r): int(n) for r, n in raw.get("extra_per_suit", {}).items()},
        jokers=int(raw.get("jokers", 0)),
        engine=raw.get("engine", "tricks"),
        showings=tuple(_showing(s) for s in showings.values()),
        max_active=int(raw.get("max_active", 0)),
        tracking_levels=tuple(raw.get("tracking", ("melds", "tricks", "cards"))),
        penalty_when={str(k): str(v) for k, v in raw.get("penalty_when", {}).items()},
        fix_trumps_by_sequence=bool(raw.get("fix_trumps_by_sequence", False)),
        reuse=raw.get("reuse", "more"),
        reform=bool(raw.get("reform", False)),
        carte_blanche_points=int(raw.get("carte_blanche_points", 0)),
        game=GameSpec(**raw["game"]) if "game" in raw else None,
        games=int(raw["games"]) if "games" in raw else None,
        cut_bonus={str(k): int(v) for k, v in raw.get("cut_bonus", {}).items()},
        exchanged_seven_points=(
            None if scalars["exchanged_seven_points"] is None
            else int(scalars["exchanged_seven_points"])
        ),
    )


def _rank(label: str) -> Rank:
    return parse_card(label + "S").rank


def _showing(raw: Mapping[str, Any]) -> ShowingSpec:
    return ShowingSpec(
        id=raw["id"],
        kind=raw["kind"],
        values=tuple(int(v) for v in raw["values"]),
        slots=tuple(raw.get("slots", ())),
        rank=_rank(raw["rank"]) if "rank" in raw else None,
        bezique_jack=bool(raw.get("bezique_jack", False)),
        jack_may_be_bezique=bool(raw.get("jack_may_be_bezique", False)),
    )
