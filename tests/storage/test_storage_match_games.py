"""A match over a number of games (Rubicon, six-pack, eight-pack) keeps that number in
storage: after a reopen, in the export and through an import (migration r0006)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.storage import StorageInputError, Store

RECORD = Path(__file__).resolve().parents[1] / "variants" / "records" / "rubicon.json"


def _record() -> dict[str, Any]:
    return dict(json.loads(RECORD.read_text(encoding="utf-8")))


def _play_first_deal(store: Store, mid: int, rec: dict[str, Any]) -> None:
    deal = rec["deals"][0]
    store.start_deal(mid, deal["dealer"], deal.get("turn_up"))
    for ev in deal["events"]:
        store.record(mid, ev)


def test_rubicon_match_over_two_games_goes_on_after_the_first(db_url: str) -> None:
    rec = _record()
    store = Store.open(db_url)
    try:
        mid = store.create_match("rubicon", rec["players"], games=2)
        _play_first_deal(store, mid, rec)
        assert store.load_match(mid).games == 2
        assert not store.match_info(mid).finished  # one game of two played
    finally:
        store.close()
    again = Store.open(db_url)  # a fresh process reads the number back from the row
    try:
        assert again.match_info(mid).games == 2
        assert again.load_match(mid).games == 2
        assert not again.match_info(mid).finished
        assert again.export_match(mid)["games"] == 2
    finally:
        again.close()


def test_games_survive_export_and_import(store: Store) -> None:
    rec = _record()
    mid = store.import_match(rec)
    assert store.match_info(mid).games == rec["games"]
    exported = store.export_match(mid)
    assert exported["games"] == rec["games"]
    assert exported["deals"] == rec["deals"]
    copy = store.import_match(exported)
    assert store.match_info(copy).games == rec["games"]
    assert store.match_info(copy).finished == store.match_info(mid).finished


def test_a_single_game_match_stores_no_number(store: Store) -> None:
    mid = store.create_match("rubicon", ["Anna", "Boris"])
    assert store.match_info(mid).games is None  # the variant's default
    assert "games" not in store.export_match(mid)
    assert store.load_match(mid).games == store.load_match(mid).variant.games


def test_games_for_a_variant_played_to_a_target_is_refused(store: Store) -> None:
    with pytest.raises(StorageInputError, match="games"):
        store.create_match("two-hand", ["Anna", "Boris"], games=3)
    assert store.list_matches() == []
