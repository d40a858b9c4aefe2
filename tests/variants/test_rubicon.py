"""Rubicon Bezique (RULES.md §8): trumps by the first marriage or sequence, no count for the
seven, carte blanche (and H-CARTE-BLANCHE-REPEAT), re-forming, reuse in another kind, each
deal a game (R-GAME, R-RUBICON, brisques and fractions of 100), the match over games, and a
full example record computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cards import parse_card, parse_cards
from referee.errors import BeziqueError, RecordError
from referee.events import (
    Brisques,
    CarteBlanche,
    Declare,
    LastTrick,
    Seven,
    StockExhausted,
    Trick,
)
from referee.games import drop_fraction, game_score
from referee.match import Match
from referee.record import load_record, parse_record, record_to_obj, replay_record
from referee.variants import load_variant

RECORDS = Path(__file__).parent / "records"
GAME = load_variant("rubicon").game
assert GAME is not None


def rubicon(tracking: str = "melds", rules: tuple[str, ...] = (), games: int | None = None
            ) -> Match:
    m = Match.new("rubicon", ["Anna", "Boris"], tracking=tracking, house_rules=rules,
                  games=games)
    m.start_deal(0, None)
    return m


def show(m: Match, seat: int, new: str, table: str = "", meld: str | None = None) -> object:
    return m.apply(Declare(seat, tuple(parse_cards(new.split())),
                           tuple(parse_cards(table.split())), meld))


# ------------------------------------------------------------------ the deal's structure
def test_rubicon_four_packs_nine_cards_no_turn_up() -> None:
    v = load_variant("rubicon")
    assert v.packs(2) == 4 and v.hand_size == 9
    assert v.stock_tricks(2) == 55 and v.total_tricks(2) == 64  # 128 − 18 = 110 drawn
    assert v.brisques_total(2) == 32 and v.last_trick_points == 50
    m = Match.new("rubicon", ["A", "B"])
    with pytest.raises(BeziqueError, match="no turn-up"):
        m.start_deal(0, parse_card("9H"))


@pytest.mark.parametrize(("meld", "cards", "points"), [
    ("marriage", "KS QS", 20), ("trump_marriage", "KH QH", 40),
    ("sequence", "AS 10S KS QS JS", 150), ("trump_sequence", "AH 10H KH QH JH", 250),
    ("bezique", "QS JD", 40), ("double_bezique", "QS QS JD JD", 500),
    ("triple_bezique", "QS QS QS JD JD JD", 1500),
    ("quadruple_bezique", "QS QS QS QS JD JD JD JD", 4500),
    ("four_aces", "AS AH AD AC", 100), ("four_kings", "KS KS KD KC", 80),
    ("four_queens", "QH QH QD QC", 60), ("four_jacks", "JS JH JC JC", 40),
])
def test_rubicon_every_line_of_the_table(meld: str, cards: str, points: int) -> None:
    m = rubicon()
    assert show(m, 1, "KH QH").accepted  # type: ignore[attr-defined]  # ♥ trumps
    r = show(m, 0, cards, meld=meld)
    assert r.accepted and r.points == points and r.meld == meld  # type: ignore[attr-defined]


def test_h_four_tens_scores_90_only_as_a_house_rule() -> None:
    assert not show(rubicon(), 0, "10S 10H 10D 10C").accepted  # type: ignore[attr-defined]
    r = show(rubicon(rules=("H-FOUR-TENS",)), 0, "10S 10H 10D 10C")
    assert r.accepted and r.points == 90  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["rubicon", "six-pack", "eight-pack"])
def test_h_four_tens_is_a_house_rule_of_every_club_form(variant: str) -> None:
    """RULES.md §8 names H-FOUR-TENS: four tens 90 "if agreed", in the forms that take
    Rubicon's values (six- and eight-pack too), never by default."""
    assert "H-FOUR-TENS" in load_variant(variant).house_rules_available
    plain = Match.new(variant, ["Anna", "Boris"])
    plain.start_deal(0, None)
    assert not show(plain, 0, "10S 10H 10D 10C").accepted  # type: ignore[attr-defined]
    agreed = Match.new(variant, ["Anna", "Boris"], house_rules=("H-FOUR-TENS",))
    agreed.start_deal(0, None)
    r = show(agreed, 0, "10S 10H 10D 10C")
    assert r.accepted and r.points == 90  # type: ignore[attr-defined]


# ------------------------------------------------------------------ trumps, sevens
def test_r_trumps_by_meld_a_sequence_fixes_trumps() -> None:
    m = rubicon()
    r = show(m, 0, "AC 10C KC QC JC", meld="sequence")
    assert r.accepted and r.points == 250 and r.rule == "R-TRUMPS-BY-MELD"  # type: ignore[attr-defined]
    assert m.current is not None and m.current.trumps is not None
    assert m.current.trumps.value == "C"
    r = show(m, 1, "AH 10H KH QH JH")  # now a plain ("back-door") sequence
    assert r.accepted and r.points == 150  # type: ignore[attr-defined]


def test_r_trumps_by_meld_the_first_marriage_fixes_them_too() -> None:
    m = rubicon()
    r = show(m, 0, "KD QD", meld="marriage")
    assert r.accepted and r.points == 40 and r.rule == "R-TRUMPS-BY-MELD"  # type: ignore[attr-defined]
    assert show(m, 0, "KS QS").points == 20  # type: ignore[attr-defined]


def test_rubicon_beziques_before_trumps() -> None:
    m = rubicon()
    assert show(m, 0, "QS JD").points == 40  # type: ignore[attr-defined]
    assert m.current is not None and m.current.trumps is None


def test_rubicon_the_seven_of_trumps_scores_nothing() -> None:
    m = rubicon()
    show(m, 0, "KD QD")
    r = m.apply(Seven(0))
    assert not r.accepted and r.rule == "V-RUBICON" and r.points == 0


# ------------------------------------------------------------------ carte blanche
def test_r_carte_blanche_before_the_first_trick_scores_50() -> None:
    m = rubicon(tracking="tricks")
    r = m.apply(CarteBlanche(1))
    assert r.accepted and r.points == 50 and r.rule == "R-CARTE-BLANCHE"
    assert m.result().sides[1].total == 50
    m.apply(Trick(1))
    r = m.apply(CarteBlanche(0))
    assert not r.accepted and r.key == "carte_blanche_late"


def test_r_carte_blanche_once_by_default() -> None:
    m = rubicon(tracking="tricks")
    assert m.apply(CarteBlanche(1)).accepted
    m.apply(Trick(0))
    r = m.apply(CarteBlanche(1))
    assert not r.accepted and r.key == "carte_blanche_once"


def test_h_carte_blanche_repeat_each_further_card_drawn() -> None:
    m = rubicon(tracking="tricks", rules=("H-CARTE-BLANCHE-REPEAT",))
    assert m.apply(CarteBlanche(1)).accepted
    again = m.apply(CarteBlanche(1))  # no card drawn since
    assert not again.accepted and again.rule == "H-CARTE-BLANCHE-REPEAT"
    m.apply(Trick(0))
    r = m.apply(CarteBlanche(1))
    assert r.accepted and r.rule == "H-CARTE-BLANCHE-REPEAT" and r.points == 50
    m.apply(Trick(1))
    assert show(m, 1, "KS QS").accepted  # type: ignore[attr-defined]  # a court card shown
    m.apply(Trick(0))
    r = m.apply(CarteBlanche(1))
    assert not r.accepted and r.key == "carte_blanche_court_seen"
    assert m.result().sides[1].total == 50 + 50 + 40  # ♠ fixes trumps: 40


def test_h_carte_blanche_repeat_ends_when_a_court_card_is_played() -> None:
    m = rubicon(tracking="cards", rules=("H-CARTE-BLANCHE-REPEAT",))
    assert m.apply(CarteBlanche(1)).accepted
    m.apply(Trick(1, {1: parse_card("8S"), 0: parse_card("7S")}))
    assert m.apply(CarteBlanche(1)).accepted
    m.apply(Trick(1, {1: parse_card("JS"), 0: parse_card("9S")}))
    assert not m.apply(CarteBlanche(1)).accepted


def test_r_carte_blanche_not_after_a_declaration_at_melds_level() -> None:
    m = rubicon()
    show(m, 0, "AS AH AD AC")
    assert not m.apply(CarteBlanche(0)).accepted
    assert m.apply(CarteBlanche(1)).accepted


def test_r_carte_blanche_only_where_the_variant_has_one() -> None:
    m = Match.new("two-hand", ["A", "B"])
    m.start_deal(0, parse_card("9H"))
    r = m.apply(CarteBlanche(0))
    assert not r.accepted and r.key == "no_carte_blanche"


# ------------------------------------------------------------------ reuse and re-forming
def test_rubicon_reuse_in_another_kind_whatever_its_points() -> None:
    m = rubicon()
    assert show(m, 1, "KC QC").accepted  # type: ignore[attr-defined]  # ♣ trumps
    assert show(m, 0, "KS KH KD KC").accepted  # type: ignore[attr-defined]
    r = show(m, 0, "QH", "KH")  # a marriage after four kings: fewer points, another kind
    assert r.accepted and r.rule == "R-REUSE" and r.points == 20  # type: ignore[attr-defined]
    two_hand = Match.new("two-hand", ["A", "B"])
    two_hand.start_deal(0, parse_card("9C"))
    assert show(two_hand, 0, "KS KH KD KC").accepted  # type: ignore[attr-defined]
    assert not show(two_hand, 0, "QH", "KH").accepted  # type: ignore[attr-defined]  # R-REUSE


def test_r_reform_with_cards_tracking_needs_a_card_of_it_played() -> None:
    m = rubicon(tracking="cards")
    m.apply(Trick(1, {1: parse_card("8S"), 0: parse_card("7S")}))
    assert show(m, 1, "QS JD").accepted  # type: ignore[attr-defined]
    m.apply(Trick(1, {1: parse_card("8S"), 0: parse_card("7S")}))
    r = show(m, 1, "QS", "JD", meld="bezique")  # nothing of it was played: not re-formed
    assert not r.accepted and r.rule == "R-REUSE"  # type: ignore[attr-defined]
    # Boris plays the Q♠ off the table: the J♦ left may form a bezique again
    m.apply(Trick(1, {1: parse_card("QS"), 0: parse_card("9S")}, frozenset({1})))
    r = show(m, 1, "QS", "JD", meld="bezique")
    assert r.accepted and r.rule == "R-REFORM" and r.points == 40  # type: ignore[attr-defined]
    assert r.key == "declared_reformed"  # type: ignore[attr-defined]


def test_r_reform_at_melds_level_trusts_the_record_and_says_so() -> None:
    m = rubicon()
    assert show(m, 1, "QS JD").accepted  # type: ignore[attr-defined]
    r = show(m, 1, "QS", "JD", meld="bezique")
    assert r.accepted and r.rule == "R-REFORM"  # type: ignore[attr-defined]
    assert r.key == "declared_reformed_unchecked"  # type: ignore[attr-defined]
    assert "only cards tracking" in r.text()  # type: ignore[attr-defined]


def test_rubicon_r_pack_counts_four_packs() -> None:
    m = rubicon()
    assert show(m, 0, "QS QS QS QS JD JD JD JD").accepted  # type: ignore[attr-defined]
    r = show(m, 1, "QS JD")
    assert not r.accepted and r.rule == "R-PACK"  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the game (R-GAME)
def test_r_game_the_higher_score_adds_500_fractions_dropped() -> None:
    g = game_score(GAME, [1280, 1130], [160, 160])
    assert g.winner == 0 and not g.rubicon and not g.brisques_counted
    assert g.kept == (1200, 1100) and g.fractions_dropped
    assert g.scores == (1700, 1100) and g.rule == "R-GAME"


def test_r_game_fractions_of_100_count_when_they_decide_the_winner() -> None:
    g = game_score(GAME, [1250, 1230], [160, 160])
    assert not g.fractions_dropped and g.scores == (1750, 1230)


def test_r_game_fractions_are_kept_when_dropping_them_would_turn_a_won_game_into_a_draw() -> None:
    # RULES.md §8, read exactly: 1290 beats 1210, but 1200 and 1200 would be a draw
    g = game_score(GAME, [1290, 1210], [160, 160])
    assert g.winner == 0 and not g.fractions_dropped
    assert g.kept == (1290, 1210) and g.scores == (1790, 1210)


def test_r_game_a_game_drawn_before_rounding_drops_its_fractions() -> None:
    # 1250 + 160 each: a draw before rounding, the fractions decide nothing, so they go
    g = game_score(GAME, [1250, 1250], [160, 160])
    assert g.winner is None and g.brisques_counted and g.exact == (1410, 1410)
    assert g.fractions_dropped and g.kept == (1400, 1400) and g.scores == (1400, 1400)


def test_r_game_a_tie_is_decided_by_brisques() -> None:
    g = game_score(GAME, [1200, 1200], [150, 170])
    assert g.brisques_counted and g.winner == 1
    # 1350 and 1370 would both round to 1300: the fractions decide, so they stay
    assert g.scores == (1350, 1870)


def test_r_game_brisques_save_the_loser_from_the_rubicon_and_both_count_them() -> None:
    g = game_score(GAME, [1500, 900], [100, 220])
    assert g.brisques_counted and not g.rubicon and g.winner == 0
    assert g.exact == (1600, 1120) and g.scores == (2100, 1100)


def test_r_game_equal_after_brisques_is_drawn() -> None:
    g = game_score(GAME, [1200, 1200], [160, 160])
    assert g.winner is None and g.scores == (1300, 1300) and g.key == "game_drawn"


def test_r_rubicon_the_loser_under_1000_brisques_included() -> None:
    # The loser has 740 + 60 = 800 < 1000: the winner scores 1000 instead of 500, plus the
    # loser's points, plus 320 for all the brisques; the loser nothing (fractions dropped).
    g = game_score(GAME, [1260, 740], [260, 60])
    assert g.rubicon and g.rule == "R-RUBICON"
    assert g.scores == (1200 + 700 + 1000 + 320, 0)
    kinds = [(ln.kind, ln.side, ln.points) for ln in g.lines]
    assert ("rubicon_bonus", 0, 1000) in kinds and ("rubicon_brisques", 0, 320) in kinds
    assert sum(p for k, s, p in kinds if s == 1) == 0


def test_r_rubicon_exactly_1000_is_not_rubiconed() -> None:
    g = game_score(GAME, [1500, 950], [270, 50])
    assert not g.rubicon and g.scores == (1700 + 500, 1000)  # 1770 → 1700


@pytest.mark.parametrize(("lang", "check"), [
    ("en", "Boris: 350 + 160 brisques = 510 < 1000"),
    ("ru", "Boris: 350 + 160 за бриски = 510 < 1000"),
])
def test_r_rubicon_the_game_in_words_shows_the_check_itself(lang: str, check: str) -> None:
    """As paper shows it: the loser's points and brisques against the line."""
    g = game_score(GAME, [1260, 350], [0, 160])
    assert g.rubicon and check in g.render(["Anna", "Boris"], lang)


def test_r_rubicon_a_loser_over_the_line_is_shown_passing_it() -> None:
    g = game_score(GAME, [1280, 1130], [160, 160])
    assert not g.rubicon and "Boris: 1130 + 160 brisques = 1290 ≥ 1000" in g.render(
        ["Anna", "Boris"])
    drawn = game_score(GAME, [1200, 1200], [160, 160])
    assert drawn.rubicon_checks(["Anna", "Boris"]) == []  # nobody lost: no check


def test_r_rubicon_six_pack_checks_points_alone_brisques_never_count() -> None:
    six = load_variant("six-pack").game
    assert six is not None
    g = game_score(six, [4280, 2130], [160, 160])
    assert "Boris: 2130 < 3000" in g.render(["Anna", "Boris"])


def test_drop_fraction_toward_zero() -> None:
    assert [drop_fraction(x) for x in (1280, 99, 0, -30, -150)] == [1200, 0, 0, 0, -100]


# ------------------------------------------------------------------ the match over games
def test_r_game_the_match_is_won_after_the_agreed_games() -> None:
    m = rubicon(games=2)
    show(m, 0, "QS QS JD JD")  # Anna 500
    m.apply(StockExhausted())
    m.apply(LastTrick(0))
    m.apply(Brisques({0: 16, 1: 16}))
    v = m.verdict()
    assert not v.finished and v.reason == "games_left"
    m.start_deal(1, None)
    assert m.verdict().reason == "last_game" and m.verdict().ends_with_this_deal
    m.apply(StockExhausted())
    m.apply(LastTrick(1))
    m.apply(Brisques({0: 16, 1: 16}))
    res = m.result()
    # game 1: Anna 550 vs 0, Boris 0 + 160 < 1000: rubicon 500 + 0 + 1000 + 320 = 1820
    # game 2: Anna 0 vs Boris 50 (kept: 0 and 0 would tie): Boris 50 + 0 + 1000 + 320 = 1370
    assert [s.deal_scores for s in res.sides] == [(1820, 0), (0, 1370)]
    assert res.finished and res.winner == "Anna" and res.decided_by == "R-GAME"
    with pytest.raises(BeziqueError):
        m.start_deal(0, None)


def test_r_game_a_points_target_instead_of_games() -> None:
    m = Match.new("rubicon", ["A", "B"], target=1500, house_rules=["H-TARGET"])
    assert m.games is None
    m.start_deal(0, None)
    show(m, 0, "QS QS JD JD")
    m.apply(StockExhausted())
    m.apply(LastTrick(0))
    m.apply(Brisques({0: 16, 1: 16}))
    assert m.result().finished and m.result().winner == "A"


def test_games_is_refused_where_a_deal_is_no_game() -> None:
    with pytest.raises(BeziqueError, match="not played in games"):
        Match.new("two-hand", ["A", "B"], games=3)
    with pytest.raises(RecordError) as info:
        parse_record({"format": "bezique-match/1", "variant": "two-hand",
                      "players": ["A", "B"], "games": 2, "deals": []})
    assert info.value.path == "games"


# ------------------------------------------------------------------ the example record
def test_example_rubicon_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "rubicon.json")).result()
    # Game 1 (melds): Boris carte blanche 50; Anna K♦ Q♦ fixes ♦ 40; Boris plain sequence ♣
    #   150; Anna's seven scores nothing (V-RUBICON); Anna bezique 40, re-formed with a new
    #   Q♠ and the J♦ 40 (R-REFORM, trusted at melds level), trump sequence reusing K♦ Q♦ 250;
    #   Boris marriage K♣ + the sequence's Q♣ 20 (another kind); Anna's late carte blanche is
    #   refused; last trick Anna 50. Anna 420, Boris 220; brisques 140 / 180 not counted
    #   (220 + 180 < 1000 saves nothing): Boris is rubiconed. Fractions dropped: 400 and 200.
    #   Anna 400 + 200 + 1000 + 320 = 1920, Boris 0.
    # Game 2: Boris double bezique 500; Anna's ♣ sequence fixes trumps 250, double bezique
    #   500, four aces 100, marriage ♥ 20, four kings 80 → 950; Boris plain sequence ♥ 150,
    #   a fifth Q♠ refused (R-PACK), four aces 100, last trick 50 → 800. Boris 800 + 230
    #   brisques = 1030 ≥ 1000: counting them saves him, so both count: 1040 / 1030. Anna wins;
    #   1000 / 1000 would tie, so the fractions stay: Anna 1040 + 500 = 1540, Boris 1030.
    # Match of 2 games: Anna 3460, Boris 1030.
    assert [s.deal_scores for s in result.sides] == [(1920, 1540), (0, 1030)]
    assert [s.total for s in result.sides] == [3460, 1030]
    assert [(r.deal, r.event, r.rule) for r in result.rejected] == [
        (0, 3, "V-RUBICON"), (0, 8, "R-CARTE-BLANCHE"), (1, 6, "R-PACK"),
    ]
    g1, g2 = result.games
    assert g1 is not None and g1.rubicon and g1.points == (420, 220)
    assert g2 is not None and not g2.rubicon and g2.brisques_counted and not g2.fractions_dropped
    assert result.finished and result.winner == "Anna" and result.decided_by == "R-GAME"
    as_json = result.to_json()
    assert as_json["games"][0]["rule"] == "R-RUBICON" and as_json["games_in_match"] == 2


def test_example_rubicon_record_exports_and_imports_identically() -> None:
    record = load_record(RECORDS / "rubicon.json")
    match = replay_record(record)
    obj = record_to_obj(match.to_record())
    assert obj["games"] == 2
    again = replay_record(parse_record(json.loads(json.dumps(obj))))
    assert again.result() == match.result()


def test_h_reuse_classes_in_rubicon_no_marriage_from_a_sequence() -> None:
    # Parlett: a trump sequence may follow a trump marriage, never a marriage the sequence.
    m = rubicon(rules=("H-REUSE-CLASSES",))
    assert show(m, 0, "KH QH").accepted  # type: ignore[attr-defined]  # ♥ trumps: 40
    r = show(m, 0, "AH 10H JH", "KH QH", meld="trump_sequence")
    assert r.accepted and r.points == 250  # type: ignore[attr-defined]
    m2 = rubicon(rules=("H-REUSE-CLASSES",))
    assert show(m2, 0, "AH 10H KH QH JH").accepted  # type: ignore[attr-defined]
    r = show(m2, 0, "KH", "QH", meld="trump_marriage")
    assert not r.accepted and r.rule == "H-REUSE-CLASSES"  # type: ignore[attr-defined]
    # the default Rubicon reading allows it (another kind)
    m3 = rubicon()
    assert show(m3, 0, "AH 10H KH QH JH").accepted  # type: ignore[attr-defined]
    assert show(m3, 0, "KH", "QH", meld="trump_marriage").accepted  # type: ignore[attr-defined]


def test_r_game_target_mode_mid_deal_live_points_do_not_end_the_match() -> None:
    # The live points of a deal are not its game score (that comes at its end), so passing
    # the target with them mid-deal does not say the match ends with this deal.
    m = Match.new("rubicon", ["A", "B"], target=400, house_rules=["H-TARGET"])
    m.start_deal(0, None)
    show(m, 0, "QS QS JD JD")
    v = m.verdict()
    assert not v.finished and not v.ends_with_this_deal and v.reason == "in_progress"
