"""House-rule presets: each one takes exactly the readings of its source (as RULES.md and the
reference cite them), a variant is offered only what it has, and a set of switches is
recognised as the preset it equals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import reference
from referee.presets import CUSTOM, all_presets, matching, preset, presets_for
from referee.variants import load_variant, variant_ids

REPO = Path(__file__).resolve().parents[2]
RULES_MD = REPO.parent / "shared" / "RULES.md"
HOUSE_ID = re.compile(r"\bH-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def test_presets_have_unique_ids_both_languages_and_the_defaults_first() -> None:
    presets = all_presets()
    assert presets[0].id == "defaults" and presets[0].house_rules == ()
    assert len({p.id for p in presets}) == len(presets)
    for p in presets:
        assert set(p.titles) == {"en", "ru"} and set(p.texts) == {"en", "ru"}, p.id


def test_every_preset_rule_is_a_house_rule_of_rules_md() -> None:
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} not found")
    named = set(HOUSE_ID.findall(RULES_MD.read_text(encoding="utf-8")))
    for p in all_presets():
        assert set(p.house_rules) <= named, p.id


@pytest.mark.parametrize("p", all_presets(), ids=lambda p: p.id)
def test_every_rule_of_a_preset_is_cited_to_its_source(p: object) -> None:
    from referee.presets import Preset

    assert isinstance(p, Preset)
    known = {e.id for e in reference.all_entries("en")}
    for rule in p.house_rules:
        if rule not in known:  # named by RULES.md, not in the reference yet: nothing to check
            continue
        source = reference.entry(rule).source.lower()
        assert any(c.lower() in source for c in p.cites), (p.id, rule, source)


def test_no_rule_of_a_source_is_left_out_of_its_preset() -> None:
    """A house rule whose first source is a preset's source belongs to that preset."""
    checked = 0
    for e in reference.all_entries("en"):
        if e.kind != "house":
            continue
        first = e.source.split(";")[0].lower()
        for p in all_presets():
            if any(first.startswith(c.lower()) for c in p.cites):
                checked += 1
                assert e.id in p.house_rules, (e.id, p.id)
    assert checked >= 8


def test_each_variant_is_offered_the_presets_that_change_something() -> None:
    two = load_variant("two-hand").house_rules_available
    offered = [p.id for p in presets_for(two)]
    assert offered[0] == "defaults"
    assert {"old-rulebook", "foster", "enquire-within", "first-article"} <= set(offered)
    joker = load_variant("joker-multipack").house_rules_available
    assert [p.id for p in presets_for(joker)] == ["defaults"]
    no_trump = load_variant("no-trump").house_rules_available
    old = preset("old-rulebook").rules_for(no_trump)
    assert "H-NT-SEQUENCE-300" in old and "H-EXTRA-CARD-50" in old
    for vid in variant_ids():
        available = set(load_variant(vid).house_rules_available)
        for p in presets_for(available):
            assert p.rules_for(available) <= available


def test_switches_equal_to_a_preset_are_recognised_and_others_are_custom() -> None:
    two = load_variant("two-hand").house_rules_available
    assert matching([], two) == "defaults"
    assert matching(preset("foster").rules_for(two), two) == "foster"
    assert matching({"H-MUST-WIN"}, two) == CUSTOM
