"""The simulator on the multi-pack joker variant (engine "showings", docs/joker-multipack.md):
its own escalation tables, the deal it plays (who is dealt in, the turn-up, leads, the end of
showing) and the tracking levels it writes."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.cards import JOKER
from referee.cli import main
from referee.errors import BeziqueError
from referee.simulate import (
    default_tracking,
    showing_value,
    showings_pack,
    simulate_match,
    tracking_levels,
)
from referee.variants import load_variant
from simulation.sim_helpers import PROFILES, replay_obj

VARIANT = "joker-multipack"


def _spec(meld: str) -> Any:
    spec = load_variant(VARIANT).showing(meld)
    assert spec is not None
    return spec


@pytest.mark.parametrize(
    ("meld", "nth", "before", "size", "points"),
    [
        # the numbers of docs/joker-multipack.md, typed from the page
        ("trump_marriage", 1, 0, 2, 4), ("trump_marriage", 4, 0, 2, 32),
        ("trump_marriage", 5, 0, 2, 64), ("trump_marriage", 6, 0, 2, 128),
        ("bezique", 2, 0, 2, 50), ("bezique", 5, 0, 2, 400),
        ("trump_quint", 3, 0, 5, 200), ("trump_quint", 4, 0, 5, 400),
        ("four_queens", 1, 0, 4, 6), ("four_queens", 3, 0, 4, 18), ("four_jacks", 2, 0, 4, 8),
        ("trump_queens", 1, 0, 4, 176), ("trump_queens", 2, 4, 1, 100),
        ("trump_queens", 1, 0, 6, 176 + 100 + 200), ("trump_queens", 3, 6, 2, 400 + 1152),
        ("trump_queens", 4, 8, 2, 1600 + 3200),
        ("trump_kings", 2, 7, 1, 576), ("trump_aces", 2, 7, 1, 620),
        ("trump_jacks", 2, 7, 1, 488), ("trump_tens", 2, 6, 1, 200),
        ("trump_tens", 2, 7, 1, 580), ("bezique_jacks", 1, 0, 5, 164 + 100),
        ("bezique_jacks", 2, 7, 1, 1128), ("trump_kings", 2, 8, 2, 800 + 1600),
    ],
)
def test_the_simulators_own_escalation(meld: str, nth: int, before: int, size: int,
                                       points: int) -> None:
    assert showing_value(_spec(meld), nth, before, size) == points


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pack_is_built_from_the_variant(players: int) -> None:
    v = load_variant(VARIANT)
    deck = showings_pack(v, players)
    assert len(deck) == v.cards_total(players)
    counts = Counter(deck)
    assert counts[JOKER] == 2
    assert {c.rank.label for c in counts if not c.is_joker} == {"A", "K", "Q", "J", "10", "9"}
    assert all(k == v.copies(c, players) for c, k in counts.items())


def test_tracking_levels_offered() -> None:
    assert tracking_levels(VARIANT) == ("melds", "tricks")
    assert default_tracking(VARIANT) == "tricks"
    assert default_tracking("two-hand") == "cards"
    assert simulate_match(VARIANT, 3, max_deals=1).record.tracking == "tricks"
    with pytest.raises(BeziqueError, match="melds or tricks"):
        simulate_match(VARIANT, 3, tracking="cards", max_deals=1)


def test_cli_simulates_and_replays_the_joker_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--variant", VARIANT, "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert json.loads(text)["tracking"] == "tricks"
    path = tmp_path / "joker.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert main(["simulate", "--variant", VARIANT, "--tracking", "cards"]) == 2
    assert "melds or tricks" in capsys.readouterr().err


@pytest.mark.parametrize("tracking", ["melds", "tricks"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deals_it_plays(players: int, tracking: str) -> None:
    v = load_variant(VARIANT)
    for seed in range(3):
        sim = simulate_match(VARIANT, seed, tracking=tracking, players=players, max_deals=3,
                             target=10**9)
        record = sim.record
        dealers = [deal.dealer for deal in record.deals]
        assert all((b - a) % players == 1 for a, b in itertools.pairwise(dealers))
        for deal in record.deals:
            assert deal.turn_up is not None and not deal.turn_up.is_joker
            kinds = [type(ev).__name__ for ev in deal.events]
            assert "Brisques" not in kinds and "LastTrick" not in kinds and "Seven" not in kinds
            sitting = deal.dealer if players == 4 else None
            for ev in deal.events:
                assert getattr(ev, "player", None) != sitting or sitting is None
                assert getattr(ev, "winner", None) != sitting or sitting is None
            if tracking == "tricks":
                assert kinds.count("Trick") == v.total_tricks(players)
                last_draw = [i for i, k in enumerate(kinds) if k == "Trick"][
                    v.stock_tricks(players) - 1]
                # no showing after the stock: nothing but tricks (and penalties) after the last
                # lead with a draw and the showing that may follow it
                later = [k for k in kinds[last_draw + 2:] if k != "Penalty"]
                assert set(later) <= {"Trick"}
            else:
                assert kinds.count("StockExhausted") == 1
                end = kinds.index("StockExhausted")
                assert "Declare" not in kinds[end:]


def test_the_showings_it_makes_cover_the_rules() -> None:
    """Every kind is shown, jokers stand in, table cards are built on, sets grow card by
    card: the simulator exercises all of the engine's showing rules (fixed seeds)."""
    kinds: Counter[str] = Counter()
    jokers = reused = grown = 0
    for profile in PROFILES:
        for seed in range(12):
            sim = simulate_match(VARIANT, seed, players=2 + seed % 3, max_deals=2,
                                 options=profile)
            result = replay_obj(sim.to_obj()).result()
            assert result.rejected == ()
            for deal in sim.to_obj()["deals"]:
                for ev in deal["events"]:
                    if ev["type"] != "declare":
                        continue
                    cards = ev["new"] + ev.get("table", [])
                    kinds[ev["meld"]] += 1
                    jokers += "JOKER" in cards
                    reused += bool(ev.get("table"))
                    grown += _spec(ev["meld"]).kind == "set" and len(cards) < 4
    assert set(kinds) == {s.id for s in load_variant(VARIANT).showings}
    assert jokers and reused and grown


def test_the_picker_offers_a_card_that_grows_a_set() -> None:
    """Match.options offers trump queens for one more Q♥ (or a joker) once four are shown:
    the simulator grows sets card by card and the picker must offer what it shows."""
    from referee.cards import parse_card, parse_cards
    from referee.events import Declare
    from referee.match import Match

    m = Match.new(VARIANT, ["A", "B"])
    m.start_deal(0, parse_card("9H"))
    assert m.apply(Declare(0, tuple(parse_cards(["QH"] * 4)), (), "trump_queens")).points == 176
    for cards, points in ((["QH"], 100), (["JOKER"], 100), (["QH", "QH"], 300)):
        offered = {o.meld: o for o in m.options(0, parse_cards(cards))}
        assert offered["trump_queens"].ruling.accepted
        assert offered["trump_queens"].points == points
    # another player has shown no set: one queen is not a set for them
    offered = {o.meld: o for o in m.options(1, parse_cards(["QH"]))}
    assert "trump_queens" not in offered or not offered["trump_queens"].ruling.accepted
