"""Mutation fuzzing, a sample (the benchmark runs 100,000): simulated records broken on
purpose are either replayed with the broken event rejected under the right rule, or refused as
input (exit 2) with a message naming the place. Nothing else may escape, nothing may hang."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.cards import parse_card
from referee.cli import main
from referee.record import parse_record, replay_record
from referee.simulate import (
    MUTATORS,
    check_text,
    default_tracking,
    mutate,
    simulate_match,
    small_records,
    tracking_levels,
)
from referee.variants import load_variant, variant_ids

SAMPLE = 2500


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return small_records(606, 48)


def test_random_mutations_never_crash_or_hang(records: list[dict[str, Any]]) -> None:
    rng = random.Random(6)
    kinds: Counter[str] = Counter()
    for k in range(SAMPLE):
        text, label = mutate(records[k % len(records)], rng)
        out = check_text(text)
        assert out.kind != "crash", (label, out.error, out.message)
        if out.kind == "input":
            # exit 2 with a message that names the place (a RecordError, not a bare one)
            assert out.error == "", (label, out.error, out.message)
            assert out.message
        kinds[out.kind] += 1
    assert kinds["ok"] and kinds["input"]
    # How long the slowest one takes is benchmarks/bench_simulation.py's to say (its
    # "slowest_record_seconds"), not a timed assertion that a loaded machine fails.


@pytest.mark.parametrize("name", sorted(MUTATORS))
def test_each_mutation_alone(records: list[dict[str, Any]], name: str) -> None:
    rng = random.Random(name)
    for k in range(40 if name not in ("long_deal", "deep_nesting") else 2):
        text, label = mutate(records[k % len(records)], rng, name)
        out = check_text(text)
        assert out.kind != "crash", (label, out.error, out.message)
        assert out.error == "", (label, out.error, out.message)


# ------------------------------------------------------------------ targeted: the right rule
def _sim(variant: str, tracking: str, seed: int) -> dict[str, Any]:
    return simulate_match(variant, seed, tracking=tracking, max_deals=2).to_obj()


def _declares(obj: dict[str, Any], with_new: bool = True) -> list[tuple[int, int]]:
    return [
        (d, i) for d, deal in enumerate(obj["deals"]) for i, ev in enumerate(deal["events"])
        if ev["type"] == "declare" and (bool(ev["new"]) or not with_new)
    ]


def _rejected_at(obj: dict[str, Any], d: int, i: int) -> str | None:
    """The rule event i of deal d is rejected under (the record cut right after it: later
    events may well be inconsistent with the broken one)."""
    cut = json.loads(json.dumps(obj))
    cut["deals"] = cut["deals"][: d + 1]
    cut["deals"][d]["events"] = cut["deals"][d]["events"][: i + 1]
    result = replay_record(parse_record(cut)).result()
    for r in result.rejected:
        if (r.deal, r.event) == (d, i):
            return r.rule
    return None


def _pending_with(obj: dict[str, Any], d: int, i: int, player: str, cards: list[str]) -> bool:
    """Whether, after event i of deal d, the player has a pending combination of these cards."""
    cut = json.loads(json.dumps(obj))
    cut["deals"] = cut["deals"][: d + 1]
    cut["deals"][d]["events"] = cut["deals"][d]["events"][: i + 1]
    match = replay_record(parse_record(cut))
    seat = match.players.index(player)
    want = Counter(parse_card(c) for c in cards)
    return any(Counter(p.cards) == want for p in match.deals[d].pending_of(seat))


CASES = [(v, t) for v in variant_ids() for t in ("tricks", "cards") if t in tracking_levels(v)]


@pytest.mark.parametrize(("variant", "tracking"), CASES)
def test_declaration_out_of_turn_is_rejected(variant: str, tracking: str) -> None:
    for seed in range(6):
        obj = _sim(variant, tracking, seed)
        for d, i in _declares(obj)[:4]:
            broken = json.loads(json.dumps(obj))
            ev = broken["deals"][d]["events"][i]
            ev["player"] = next(p for p in obj["players"] if p != ev["player"])
            # in four-hand the other player may be the winner's partner: still not the winner
            assert _rejected_at(broken, d, i) == "R-DECLARE-AFTER-TRICK"


@pytest.mark.parametrize(("variant", "tracking"), CASES + [(v, "melds") for v in variant_ids()])
def test_rescoring_cards_from_the_table_is_rejected(variant: str, tracking: str) -> None:
    for seed in range(4):
        obj = _sim(variant, tracking, seed)
        for d, i in _declares(obj)[:4]:
            broken = json.loads(json.dumps(obj))
            ev = broken["deals"][d]["events"][i]
            again = {"type": "declare", "player": ev["player"], "new": [],
                     "table": ev.get("table", []) + ev["new"], "meld": ev["meld"]}
            if _pending_with(obj, d, i, ev["player"], again["table"]):
                continue  # then it scores that pending combination (another rule's business)
            broken["deals"][d]["events"].insert(i + 1, again)
            assert _rejected_at(broken, d, i + 1) == "R-NEW-CARD"


@pytest.mark.parametrize(("variant", "tracking"), CASES + [(v, "melds") for v in variant_ids()])
def test_a_copy_more_than_the_packs_hold_is_rejected(variant: str, tracking: str) -> None:
    obj = _sim(variant, tracking, 1)
    packs = load_variant(variant).packs(len(obj["players"]))
    for d, i in _declares(obj)[:6]:
        broken = json.loads(json.dumps(obj))
        ev = broken["deals"][d]["events"][i]
        broken["deals"][d]["events"][i] = {
            "type": "declare", "player": ev["player"], "new": [ev["new"][0]] * (packs + 1)}
        assert _rejected_at(broken, d, i) == "R-PACK"


@pytest.mark.parametrize("variant", variant_ids())
def test_a_card_not_on_the_table_is_rejected(variant: str) -> None:
    obj = _sim(variant, default_tracking(variant), 3)
    for d, i in _declares(obj)[:6]:
        missing = "8C"  # an eight is in no combination: it is never on a table
        broken = json.loads(json.dumps(obj))
        broken["deals"][d]["events"][i].setdefault("table", []).append(missing)
        assert _rejected_at(broken, d, i) == "R-ON-TABLE"


@pytest.mark.parametrize("variant", variant_ids())
def test_a_deleted_trick_never_passes_unnoticed(variant: str) -> None:
    obj = _sim(variant, default_tracking(variant), 4)
    original = check_text(json.dumps(obj))
    tricks = [i for i, ev in enumerate(obj["deals"][0]["events"]) if ev["type"] == "trick"]
    for i in tricks[:: max(1, len(tricks) // 8)]:
        broken = json.loads(json.dumps(obj))
        del broken["deals"][0]["events"][i]
        out = check_text(json.dumps(broken))
        assert out.kind != "crash"
        assert out.kind == "input" or out != original


@pytest.mark.parametrize("tracking", ["melds", "tricks", "cards"])
def test_brisques_off_by_one_is_an_input_error_naming_the_place(tracking: str) -> None:
    obj = _sim("two-hand", tracking, 5)
    for d, deal in enumerate(obj["deals"]):
        for i, ev in enumerate(deal["events"]):
            if ev["type"] != "brisques":
                continue
            broken = json.loads(json.dumps(obj))
            counts = broken["deals"][d]["events"][i]["counts"]
            counts["Anna"] = counts.get("Anna", 0) + 1
            out = check_text(json.dumps(broken))
            assert out.kind == "input"
            assert out.message.startswith(f"deals[{d}].events[{i}]")


def test_truncated_json_and_unicode_names(records: list[dict[str, Any]]) -> None:
    text = json.dumps(records[0])
    for cut in (1, len(text) // 3, len(text) - 1):
        out = check_text(text[:cut])
        assert out.kind == "input" and "JSON" in out.message
    obj = records[1]
    renamed = json.dumps(obj, ensure_ascii=False)
    for old, new in zip(obj["players"], ["Аня", "李雷", "👑 Queen", "Zoë"], strict=False):
        renamed = renamed.replace(json.dumps(old), json.dumps(new, ensure_ascii=False))
    a, b = check_text(json.dumps(obj)), check_text(renamed)
    assert a.kind == b.kind == "ok" and a.rejected == b.rejected


def test_a_ten_thousand_event_deal_replays_without_crashing(records: list[dict[str, Any]]) -> None:
    # Its time is measured by benchmarks/bench_simulation.py (the long_deal mutator).
    rng = random.Random(10)
    for obj in records[:4]:
        text, _ = mutate(obj, rng, "long_deal")
        out = check_text(text)
        assert out.kind != "crash"
        assert out.kind in ("ok", "input"), (out.error, out.message)


def test_cli_replay_of_a_broken_file_exits_2_naming_the_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], records: list[dict[str, Any]]
) -> None:
    obj = json.loads(json.dumps(records[2]))
    obj["deals"][0]["events"][0]["bogus"] = 1
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "bezique: deals[0].events[0].bogus" in capsys.readouterr().err
    path.write_text(json.dumps(obj)[:-7], encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
