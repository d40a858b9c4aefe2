"""Issue 15: one rule id per ruling, the one that decided, and always one the reference
explains; texts never repeat the id; accepted melds never cite a timing rule the tracking level
does not check."""

from __future__ import annotations

import pytest

from referee import reference
from referee.cards import parse_card, parse_cards
from referee.events import Declare
from referee.match import Match
from referee.record import replay_record
from referee.simulate import SimOptions, simulate_match

from .conftest import decl, record, replay, ruling


def _all_rulings(variant: str, seed: int, tracking: str) -> list[object]:
    sim = simulate_match(variant, seed, tracking=tracking,
                         options=SimOptions(penalty_rate=0.5, revoke_rate=0.2), max_deals=4)
    match = replay_record(sim.record)
    return [r for deal in match.deals for _, r in deal.log]


@pytest.mark.parametrize(("variant", "tracking"), [
    ("two-hand", "melds"), ("two-hand", "cards"), ("three-hand", "tricks"),
    ("four-hand", "cards"), ("no-trump", "cards"), ("joker-multipack", "tricks"),
])
def test_every_ruling_cites_one_rule_the_reference_explains(variant: str, tracking: str) -> None:
    known = {e.id for e in reference.all_entries("en")}
    for seed in range(3):
        for r in _all_rulings(variant, seed, tracking):
            rule = r.rule  # type: ignore[attr-defined]
            assert rule in known, (variant, rule)
            # the id is not repeated inside the words
            text = r.text("en")  # type: ignore[attr-defined]
            assert rule not in text, (rule, text)
            assert rule not in r.text("ru")  # type: ignore[attr-defined]


def test_accepted_meld_under_melds_tracking_cites_the_combination() -> None:
    doc = record([decl("Anna", ["QS", "JD"])])
    r = ruling(doc, 0)
    assert r.accepted and r.rule == "C-BEZIQUE"
    assert r.rule != "R-DECLARE-AFTER-TRICK"


def test_accepted_reuse_cites_r_reuse_and_fixing_trumps_r_nt_trumps() -> None:
    doc = record([decl("Anna", ["KS", "KH", "KD", "KC"]), decl("Anna", ["QH"], ["KH"])])
    assert ruling(doc, 1).rule == "R-REUSE"
    m = Match.new("no-trump", ["A", "B"])
    m.start_deal(0, None)
    assert m.apply(Declare(0, tuple(parse_cards(["KC", "QC"])))).rule == "R-NT-TRUMPS"


def test_ruling_text_has_no_id_and_render_cites_it_once() -> None:
    r = ruling(record([decl("Anna", ["QS", "JD"])]), 0)
    assert "C-BEZIQUE" not in r.text("en")
    assert r.render("en").count("C-BEZIQUE") == 1


def test_penalty_text_names_the_offence_in_words_not_its_id() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), {"type": "penalty", "player": "Anna",
                                                "offence": "P-FALSE-DECLARATION"}])
    r = ruling(doc, 1)
    assert r.rule == "P-FALSE-DECLARATION"
    assert "P-FALSE-DECLARATION" not in r.text("en")
    assert reference.entry("P-FALSE-DECLARATION", "en").title in r.text("en")
    assert reference.entry("P-FALSE-DECLARATION", "ru").title in r.text("ru")


def test_brisques_ruling_says_each_players_count_and_points() -> None:
    m = replay(record([{"type": "brisques", "counts": {"Anna": 9, "Boris": 7}}]))
    r = m.deals[0].log[0][1]
    assert r.text("en") == "Brisques, 10 for each ace and ten won: Anna 9 → 90, Boris 7 → 70"
    assert "Anna 9 → 90" in r.text("ru")
    assert "in all" not in r.text("en")


def test_joker_set_too_small_is_not_a_false_declaration() -> None:
    m = Match.new("joker-multipack", ["A", "B"])
    m.start_deal(0, parse_card("9H"))
    r = m.apply(Declare(0, tuple(parse_cards(["QH", "QH"])), (), "trump_queens"))
    assert not r.accepted and r.rule == "J-SHOWING" and r.proposes is None
    assert r.text("en") == ("A set of trump queens scores from its fourth card on, up to 10 "
                            "cards; A would have 2 shown")
    assert "counts from" not in r.text("en")


def test_cards_that_do_not_form_the_named_combination_cite_its_definition() -> None:
    # The rule that decided is the combination's own entry; a false declaration is proposed.
    r = ruling(record([decl("Anna", ["QS", "JC"], meld="bezique")]), 0)
    assert not r.accepted and r.rule == "C-BEZIQUE" and r.proposes == "P-FALSE-DECLARATION"
