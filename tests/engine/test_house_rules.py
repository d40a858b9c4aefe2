"""Two-hand house rules not covered in their own area's module: H-ALL-NEW, H-FOUR-TRICKS,
H-NO-PLAIN-SEQUENCE, H-BEZIQUE-PAIR; plus a check that every house rule the two-hand data
offers has a test named after it somewhere in this suite.

Trumps hearts (turn-up 9H) unless said."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from referee.data import data_dir
from referee.errors import RecordError

from .conftest import decl, pending, record, rejected, replay, scores, seven, trick, tricks

ALL_NEW = ["H-ALL-NEW"]


# ------------------------------------------------------------------ H-ALL-NEW
def test_h_all_new_fresh_cards_score() -> None:
    # marriage K♣ Q♣ 20; four kings laid all new (the second K♣ among them) 80 -> 100
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["KS", "KH", "KD", "KC"])],
                 house_rules=ALL_NEW)
    assert rejected(doc) == {}
    assert scores(doc) == (100, 0)


def test_h_all_new_reusing_a_table_card_is_rejected() -> None:
    doc = record([decl("Anna", ["KC", "QC"]), decl("Anna", ["KS", "KH", "KD"], ["KC"])],
                 house_rules=ALL_NEW)
    assert rejected(doc) == {(0, 1): "H-ALL-NEW"}
    assert scores(doc) == (20, 0)


def test_h_all_new_replaces_r_reuse_for_double_bezique() -> None:
    # Default: bezique 40 + double bezique 500 by adding the second pair. Under H-ALL-NEW the
    # first pair cannot be reused.
    events = [decl("Anna", ["QS", "JD"]),
              decl("Anna", ["QS", "JD"], ["QS", "JD"], "double_bezique")]
    assert scores(record(events)) == (540, 0)
    doc = record(events, house_rules=ALL_NEW)
    assert rejected(doc) == {(0, 1): "H-ALL-NEW"}
    assert scores(doc) == (40, 0)


def test_h_all_new_double_bezique_laid_as_four_new_cards() -> None:
    assert scores(record([decl("Anna", ["QS", "QS", "JD", "JD"])], house_rules=ALL_NEW)) == (
        500, 0)


def test_h_all_new_pending_combinations_still_score() -> None:
    # K♠ Q♠ J♦: bezique 40, marriage pending; it scores 20 with no new card -> 60
    doc = record([trick("Anna"), decl("Anna", ["KS", "QS", "JD"], meld="bezique"),
                  trick("Anna"), pending("Anna", ["KS", "QS"])],
                 tracking="tricks", house_rules=ALL_NEW)
    assert rejected(doc) == {}
    assert scores(doc) == (60, 0)


# ------------------------------------------------------------------ H-FOUR-TRICKS
FOUR = ["H-FOUR-TRICKS"]


def test_h_four_tricks_no_declaration_before_four_tricks_won() -> None:
    doc = record([*tricks("Anna", "Anna", "Anna"), decl("Anna", ["QS", "JD"])],
                 tracking="tricks", house_rules=FOUR)
    assert rejected(doc) == {(0, 3): "H-FOUR-TRICKS"}
    assert scores(doc) == (0, 0)


def test_h_four_tricks_the_fourth_trick_gives_the_right() -> None:
    doc = record([*tricks("Anna", "Anna", "Anna", "Anna"), decl("Anna", ["QS", "JD"])],
                 tracking="tricks", house_rules=FOUR)
    assert rejected(doc) == {}
    assert scores(doc) == (40, 0)


def test_h_four_tricks_counts_the_players_own_tricks() -> None:
    # Six tricks played, but Anna has won only three of them.
    doc = record([*tricks("Anna", "Boris", "Anna", "Boris", "Boris", "Anna"),
                  decl("Anna", ["QS", "JD"])], tracking="tricks", house_rules=FOUR)
    assert rejected(doc) == {(0, 6): "H-FOUR-TRICKS"}


def test_h_four_tricks_applies_to_the_seven() -> None:
    doc = record([trick("Anna"), seven("Anna")], tracking="tricks", house_rules=FOUR)
    assert rejected(doc) == {(0, 1): "H-FOUR-TRICKS"}


def test_h_four_tricks_default_allows_the_first_trick() -> None:
    doc = record([trick("Anna"), decl("Anna", ["QS", "JD"])], tracking="tricks")
    assert scores(doc) == (40, 0)


# ------------------------------------------------------------------ H-NO-PLAIN-SEQUENCE
SEQUENCE = ["AC", "10C", "KC", "QC", "JC"]


def test_h_no_plain_sequence_rejects_the_plain_sequence() -> None:
    assert scores(record([decl("Anna", SEQUENCE, meld="sequence")])) == (100, 0)
    doc = record([decl("Anna", SEQUENCE, meld="sequence")], house_rules=["H-NO-PLAIN-SEQUENCE"])
    assert rejected(doc) == {(0, 0): "H-NO-PLAIN-SEQUENCE"}
    assert scores(doc) == (0, 0)


def test_h_no_plain_sequence_without_meld_is_rejected_too() -> None:
    doc = record([decl("Anna", SEQUENCE)], house_rules=["H-NO-PLAIN-SEQUENCE"])
    assert set(rejected(doc)) == {(0, 0)}
    assert scores(doc) == (0, 0)


def test_h_no_plain_sequence_keeps_the_trump_sequence() -> None:
    doc = record([decl("Anna", ["AH", "10H", "KH", "QH", "JH"])],
                 house_rules=["H-NO-PLAIN-SEQUENCE"])
    assert scores(doc) == (250, 0)


# ------------------------------------------------------------------ H-BEZIQUE-PAIR
PAIR = ["H-BEZIQUE-PAIR"]


@pytest.mark.parametrize(("turn_up", "queen", "jack"), [
    ("9H", "QH", "JD"),   # hearts trumps: Q♥ with J♦ (the other red suit)
    ("9D", "QD", "JH"),
    ("9S", "QS", "JC"),   # spades: Q♠ with J♣
    ("9C", "QC", "JS"),
])
def test_h_bezique_pair_queen_of_trumps_with_same_colour_jack(turn_up: str, queen: str,
                                                              jack: str) -> None:
    assert scores(record([decl("Anna", [queen, jack], meld="bezique")], turn_up=turn_up,
                         house_rules=PAIR)) == (40, 0)
    assert scores(record([decl("Anna", [queen, queen, jack, jack], meld="double_bezique")],
                         turn_up=turn_up, house_rules=PAIR)) == (500, 0)


def test_h_bezique_pair_q_spades_j_diamonds_is_no_bezique_then() -> None:
    doc = record([decl("Anna", ["QS", "JD"], meld="bezique")], house_rules=PAIR)
    assert set(rejected(doc)) == {(0, 0)}
    assert scores(doc) == (0, 0)


def test_h_bezique_pair_default_is_q_spades_j_diamonds() -> None:
    doc = record([decl("Anna", ["QH", "JD"], meld="bezique")])
    assert set(rejected(doc)) == {(0, 0)}


# ------------------------------------------------------------------ every house rule
def _two_hand_house_rules() -> list[str]:
    with (data_dir() / "variants" / "two-hand.toml").open("rb") as f:
        rules: list[str] = tomllib.load(f)["house_rules"]
    return rules


def test_every_two_hand_house_rule_has_a_test() -> None:
    names = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    missing = [
        rule for rule in _two_hand_house_rules()
        if not any(n.startswith("test_" + rule.lower().replace("-", "_")) for n in names)
    ]
    assert missing == []


def test_every_house_rule_of_the_issue_is_offered() -> None:
    wanted = {"H-ALL-NEW", "H-REUSE-CLASSES", "H-FOUR-TRICKS", "H-SEVEN-EXTRA", "H-SEVEN-FREE",
              "H-NO-PLAIN-SEQUENCE", "H-BEZIQUE-PAIR", "H-MUST-WIN", "H-LAST-TRICK-24",
              "H-FALSE-ALL-MATCH", "H-PENALTY-TO-OPPONENT", "H-TIE-HIGHER", "H-TARGET",
              "H-EXTRA-CARD-50"}
    assert wanted <= set(_two_hand_house_rules())


@pytest.mark.parametrize("rule", ["H-NOTHING", "H-PARTNER-BUILD", "h-all-new"])
def test_house_rules_unknown_or_not_two_hand_is_an_input_error(rule: str) -> None:
    with pytest.raises(RecordError) as info:
        replay(record([], house_rules=[rule]))
    assert info.value.path == "house_rules"
    assert rule in str(info.value)


def test_house_rules_all_at_once_replay() -> None:
    doc = record([decl("Anna", ["QH", "JD"], meld="bezique")],
                 house_rules=_two_hand_house_rules())
    assert scores(doc) == (40, 0)


RULES_MD = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"


def test_every_two_hand_rule_of_rules_md_has_a_test_named_after_it() -> None:
    """R- ids of RULES.md §1-§6 (two-hand; §7 is the other variants), H- ids of RULES.md that
    the two-hand data offers, P- ids of §5: each is checked by a test named after it (or, for
    the penalties, a test that names it)."""
    if not RULES_MD.exists():
        pytest.skip(f"no {RULES_MD}")
    text = RULES_MD.read_text("utf-8")
    two_hand_part = text.split("\n## 7.")[0]
    ids = set(re.findall(r"\b(R-[A-Z0-9]+(?:-[A-Z0-9]+)*)\b", two_hand_part))
    ids |= set(re.findall(r"\b(H-[A-Z0-9]+(?:-[A-Z0-9]+)*)\b", text)) & set(
        _two_hand_house_rules())
    names = set()
    sources = ""
    for path in Path(__file__).parent.glob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        sources += source
        names |= set(re.findall(r"^def (test_\w+)", source, re.M))
    missing = sorted(
        rule for rule in ids
        if not any(n.startswith("test_" + rule.lower().replace("-", "_")) for n in names)
    )
    assert missing == []
    assert len(ids) >= 30  # 20-odd R- rules and 14 house rules
    offences = set(re.findall(r"\b(P-[A-Z]+(?:-[A-Z]+)*)\b", two_hand_part))
    assert len(offences) == 6
    assert sorted(p for p in offences if f'"{p}"' not in sources) == []
