"""Shared strategies for the simulation tests: a simulated partie is drawn from every variant,
player count, tracking level and a few house-rule sets, with a hypothesis-chosen seed."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from referee.match import Match
from referee.record import parse_record, replay_record
from referee.simulate import (
    SimOptions,
    SimulatedMatch,
    house_rule_sets,
    player_counts,
    simulate_match,
    tracking_levels,
)
from referee.variants import load_variant, variant_ids

# How the simulated players behave: the default, builders (reuse and pending combinations
# whenever they may, rich deals), and hesitant players who play declared cards readily.
PROFILES = (
    SimOptions(),
    SimOptions(reuse_rate=1.0, pending_rate=1.0, greedy_rate=0.0, rich_rate=0.6),
    SimOptions(declare_rate=0.5, rich_rate=1.0, table_play_weight=2.0),
)


@dataclass(frozen=True)
class SimArgs:
    variant: str
    players: int
    tracking: str
    house_rules: tuple[str, ...]
    seed: int
    max_deals: int
    penalty_rate: float
    profile: int = 0
    games: int | None = None  # a match over games (Rubicon, six-, eight-pack); None: default


    def run(self) -> SimulatedMatch:
        return simulate_match(
            self.variant,
            self.seed,
            tracking=self.tracking,
            house_rules=self.house_rules,
            players=self.players,
            max_deals=self.max_deals,
            games=self.games,
            options=replace(PROFILES[self.profile], penalty_rate=self.penalty_rate),
        )


@st.composite
def sim_args(draw: st.DrawFn, max_deals: int = 4, penalties: bool = True) -> SimArgs:
    variant = draw(st.sampled_from(variant_ids()))
    players = draw(st.sampled_from(player_counts(variant)))
    tracking = draw(st.sampled_from(tracking_levels(variant)))  # joker-multipack: no cards
    rules = draw(st.sampled_from(house_rule_sets(variant)))
    seed = draw(st.integers(0, 2**32 - 1))
    deals = draw(st.integers(1, max_deals))
    rate = draw(st.sampled_from([0.0, 0.5])) if penalties else 0.0
    profile = draw(st.integers(0, len(PROFILES) - 1))
    # each deal a game: also matches of 2 or 3 games (the record's top-level "games")
    games = (draw(st.sampled_from([None, 2, 3])) if load_variant(variant).game is not None
             else None)
    return SimArgs(variant, players, tracking, rules, seed, deals, rate, profile, games)


def replay_obj(obj: dict[str, Any]) -> Match:
    """Replay a record object the way ``bezique replay`` reads a file (via JSON text)."""
    return replay_record(parse_record(json.loads(json.dumps(obj, ensure_ascii=False))))


def result_json(match: Match) -> str:
    return json.dumps(match.result().to_json(), ensure_ascii=False, sort_keys=True)
