"""The players' statistics in Russian name every kind they count in Russian (QA P22: the seven
of trumps showed as "seven ×1"), and a player's best deal holds no brisques that do not count
(Rubicon: they count only to break a tie or save the loser)."""

from __future__ import annotations

from typing import Any

import pytest

from referee import rulings
from referee.variants import load_variant, variant_ids
from ui.state.app import AppState
from ui.state.stat_kinds import kind_name


def _kinds() -> set[str]:
    """Every kind referee/storage/replay.py ``scored_of`` can count: each variant's
    combinations and showings, with every house rule on, and the seven of trumps."""
    kinds = {"seven"}
    for vid in variant_ids():
        v = load_variant(vid, frozenset(load_variant(vid).house_rules_available))
        kinds |= {c.id for c in v.combinations} | {s.id for s in v.showings}
    return kinds


@pytest.mark.parametrize("kind", sorted(_kinds()))
def test_every_kind_the_statistics_count_has_a_russian_name(kind: str) -> None:
    ru, en = kind_name(kind, "ru"), kind_name(kind, "en")
    assert ru and ru != en, f"{kind}: no Russian name ({ru!r})"
    assert "_" not in ru and ru != kind.replace("_", " ")
    assert not any("a" <= ch <= "z" for ch in ru.lower()), f"{kind}: Latin letters in {ru!r}"
    assert "_" not in en


def test_the_seven_is_named_as_the_rulings_name_it() -> None:
    assert kind_name("seven", "ru") == rulings.label("seven", "ru")


def test_the_russian_players_screen_has_no_english_kind(store: Any) -> None:
    mid = store.create_match("two-hand", ["Анна", "Борис"])
    store.start_deal(mid, "Анна", "9H")
    store.record(mid, {"type": "seven", "player": "Борис"})
    store.record(mid, {"type": "declare", "player": "Анна", "new": ["KS", "QS"],
                       "meld": "marriage"})
    app = AppState(store, lang="ru")
    lines = {s.name: s for s in app.history_screen.stats()}
    assert "seven" not in lines["Борис"].melds
    assert lines["Борис"].melds == f"{rulings.label('seven', 'ru')} ×1"
    assert lines["Анна"].melds == f"{rulings.meld_name('marriage', 'ru')} ×1"


def test_best_deal_leaves_out_brisques_that_do_not_count(store: Any) -> None:
    mid = store.create_match("rubicon", ["Anna", "Boris"], games=2)
    store.start_deal(mid, "Anna", None)
    for ev in (
        {"type": "carte_blanche", "player": "Boris"},
        {"type": "declare", "player": "Anna", "new": ["KH", "QH"]},
        {"type": "declare", "player": "Anna", "new": ["AH", "10H", "JH"], "table": ["KH", "QH"]},
        {"type": "declare", "player": "Boris", "new": ["AS", "AH", "AD", "AC"]},
        {"type": "stock_exhausted"},
        {"type": "last_trick", "winner": "Anna"},
        {"type": "brisques", "counts": {"Anna": 12, "Boris": 20}},
    ):
        store.record(mid, ev)
    game = store.load_match(mid).game(0)
    assert game is not None and not game.brisques_in_points
    best = {s.name: s.biggest_deal for s in store.player_stats()}
    assert best == {"Anna": 340, "Boris": 150}  # 40 + 250 + 50; 50 + 100: no brisques
