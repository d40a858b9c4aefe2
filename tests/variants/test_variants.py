"""Every variant of the seeds (RULES.md §1, §6, §7): deal structure, own combinations, edge
cases, and one full example record each, replayed to results computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cards import parse_card, parse_cards
from referee.errors import RecordError
from referee.events import Brisques, Declare, LastTrick, Seven, StockExhausted, Trick
from referee.match import Match
from referee.record import load_record, parse_record, record_to_obj, replay_record
from referee.variants import load_variant

RECORDS = Path(__file__).parent / "records"


def declare(match: Match, player: int, new: list[str], table: list[str] = (),  # type: ignore[assignment]
            meld: str | None = None) -> bool:
    ruling = match.apply(Declare(player, tuple(parse_cards(new)), tuple(parse_cards(table)), meld))
    return ruling.accepted


# ------------------------------------------------------------------------ deal structure
@pytest.mark.parametrize(
    ("variant", "players", "packs", "stock_tricks", "total_tricks", "brisques", "target"),
    [
        # two-hand: 64 cards − 16 dealt = 48 in the stock → 24 tricks of two draws, then 8
        ("two-hand", 2, 2, 24, 32, 16, 1000),
        # three-hand: 96 − 24 = 72 → 24 tricks of three draws, then 8
        ("three-hand", 3, 3, 24, 32, 24, 1500),
        # four-hand: 96 − 32 = 64 → 16 tricks with draws, then 8
        ("four-hand", 4, 3, 16, 24, 24, 1500),
        # no-trump: 4 packs for 2 or 4 players, 3 for 3 (RULES.md §1)
        ("no-trump", 2, 4, 56, 64, 32, 1000),
        ("no-trump", 3, 3, 24, 32, 24, 1500),
        ("no-trump", 4, 4, 24, 32, 32, 1500),
    ],
)
def test_r_deal_structure_per_variant(
    variant: str, players: int, packs: int, stock_tricks: int, total_tricks: int,
    brisques: int, target: int,
) -> None:
    v = load_variant(variant)
    assert v.packs(players) == packs
    assert v.stock_tricks(players) == stock_tricks
    assert v.total_tricks(players) == total_tricks
    assert v.brisques_total(players) == brisques
    assert v.target(players) == target


def test_r_target_h_target_overrides_the_variant_target() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"], target=2000)
    assert m.target == 2000


def test_r_brisque_total_checked_per_variant() -> None:
    # three packs hold 24 aces and tens: 23 cannot add up
    record = {
        "format": "bezique-match/1", "variant": "three-hand", "players": ["A", "B", "C"],
        "deals": [{"dealer": "A", "turn_up": "9H",
                   "events": [{"type": "brisques", "counts": {"A": 10, "B": 7, "C": 6}}]}],
    }
    with pytest.raises(RecordError, match=r"deals\[0\]\.events\[0\].*24"):
        replay_record(parse_record(record))


def test_players_count_is_checked_per_variant() -> None:
    with pytest.raises(ValueError, match="3 players"):
        Match.new("three-hand", ["A", "B"])
    Match.new("no-trump", ["A", "B", "C"])  # 2–4 players


def test_four_hand_sides_are_teams_of_partners_opposite() -> None:
    m = Match.new("four-hand", ["Anna", "Boris", "Carl", "Dora"])
    assert m.side_names == ("Anna & Carl", "Boris & Dora")
    assert [s.players for s in m.result().sides] == [("Anna", "Carl"), ("Boris", "Dora")]


def test_no_trump_with_four_players_is_partnerships_but_three_is_not() -> None:
    assert Match.new("no-trump", ["A", "B", "C", "D"]).side_names == ("A & C", "B & D")
    assert Match.new("no-trump", ["A", "B", "C"]).side_names == ("A", "B", "C")


# ------------------------------------------------------------------------ three-hand
def test_three_hand_triple_combinations_score_from_the_table() -> None:
    m = Match.new("three-hand", ["A", "B", "C"])
    m.start_deal(2, parse_card("9D"))
    assert declare(m, 1, ["KH", "QH", "KH", "QH", "KH", "QH"], meld="triple_marriage")
    assert declare(m, 0, ["KD", "QD", "KD", "QD", "KD", "QD"], meld="triple_trump_marriage")
    # 100 for the triple marriage, 300 for the triple trump marriage (seed 001)
    assert m.result().sides[1].total == 100
    assert m.result().sides[0].total == 300


def test_three_hand_fourth_copy_is_r_pack() -> None:
    m = Match.new("three-hand", ["A", "B", "C"])
    m.start_deal(0, parse_card("9D"))
    assert declare(m, 0, ["QS", "JD", "QS", "JD", "QS", "JD"], meld="triple_bezique")
    ruling = m.apply(Declare(1, tuple(parse_cards(["QS", "JD"])), (), "bezique"))
    assert not ruling.accepted and ruling.rule == "R-PACK"


def test_three_hand_triple_bezique_wins_the_partie_at_the_end_of_the_deal() -> None:
    m = Match.new("three-hand", ["A", "B", "C"], target=5000)  # even above the target
    m.start_deal(0, parse_card("9D"))
    assert declare(m, 1, ["QS", "JD", "QS", "JD", "QS", "JD"], meld="triple_bezique")
    m.apply(StockExhausted())
    # R-CLAIM-AT-END: not yet, the deal is still being played
    assert not m.result().finished
    m.apply(LastTrick(0))
    m.apply(Brisques({0: 8, 1: 8, 2: 8}))
    result = m.result()
    # B: 1500 + 80 = 1580 < 5000, yet the triple bezique wins the partie
    assert result.sides[1].total == 1580
    assert result.finished and result.winner == "B"


def test_three_hand_cards_tracking_play_passes_in_turn() -> None:
    # dealer C (seat 2): A leads; ♦ trumps; A 9♠, B 10♠, C 7♦ → C trumps and wins
    m = Match.new("three-hand", ["A", "B", "C"], tracking="cards")
    m.start_deal(2, parse_card("9D"))
    cards = {0: parse_card("9S"), 1: parse_card("10S"), 2: parse_card("7D")}
    assert m.apply(Trick(2, cards)).accepted
    # C won, so C leads trick 2: 8♣ led, A♠ and 10♠ do not follow → C wins again, not A
    with pytest.raises(ValueError, match="R-RANK"):
        m.apply(Trick(0, {0: parse_card("AS"), 1: parse_card("10S"), 2: parse_card("8C")}))
    assert m.apply(Trick(2, {0: parse_card("AS"), 1: parse_card("10S"), 2: parse_card("8C")}))


def test_example_three_hand_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "three-hand.json")).result()
    # Dealer Carl turns up 7♦: Carl 10 (R-DEALER-SEVEN).
    # Anna: bezique 40, double bezique 500, triple bezique 1500, four aces after trick 24 100,
    #       brisques 10 × 10 = 100 → 2240.
    # Boris: the turn-up is the 7♦ itself, so his seven is shown: 10; marriage ♥ 20, double
    #       marriage 40, triple marriage 100; brisques 80 → 250. His second seven is rejected
    #       (R-PACK: three 7♦ accounted for), his four jacks after trick 25 too (phase 2).
    # Carl: dealer 10, seven shown 10, trump marriage 40, four kings (K♦ reused from the
    #       marriage; 80 > 40) 80, last trick 10, brisques 60 → 210. His first four kings is
    #       rejected: all three K♥ lie on Boris's table (R-PACK).
    assert [s.total for s in result.sides] == [2240, 250, 210]
    assert [(r.deal, r.event, r.rule) for r in result.rejected] == [
        (0, 11, "R-PACK"), (0, 21, "R-PACK"), (0, 38, "R-NO-DECLARE-AFTER-STOCK"),
    ]
    # The triple bezique (and 2240 ≥ 1500) wins the partie for Anna at the end of the deal.
    assert result.finished and result.winner == "Anna"


# ------------------------------------------------------------------------ four-hand
def test_four_hand_dealers_turned_up_seven_scores_for_the_dealers_team() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"])
    m.start_deal(3, parse_card("7S"))
    # D deals: team B & D gets 10
    assert [s.total for s in m.result().sides] == [0, 10]


def test_four_hand_declaration_belongs_to_the_player_points_to_the_team() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"], tracking="tricks")
    m.start_deal(3, parse_card("9S"))
    m.apply(Trick(2))
    # only the trick's winner declares, not the partner
    assert not m.apply(Declare(0, tuple(parse_cards(["KH", "QH"])))).accepted
    assert declare(m, 2, ["KH", "QH"])
    assert m.current is not None and sorted(m.current.table(2)) == sorted(parse_cards(["KH", "QH"]))
    assert [s.total for s in m.result().sides] == [20, 0]


def test_four_hand_building_on_partners_cards_is_not_allowed_by_default() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"])
    m.start_deal(3, parse_card("9S"))
    assert declare(m, 0, ["KS", "QS"])
    ruling = m.apply(Declare(2, tuple(parse_cards(["AS", "10S", "JS"])),
                             tuple(parse_cards(["KS", "QS"])), "trump_sequence"))
    assert not ruling.accepted and ruling.rule == "R-ON-TABLE"


def test_h_partner_build_lets_a_player_build_on_partners_cards() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"], house_rules=["H-PARTNER-BUILD"])
    m.start_deal(3, parse_card("9S"))
    assert declare(m, 0, ["KS", "QS"])
    assert declare(m, 2, ["AS", "10S", "JS"], ["KS", "QS"], "trump_sequence")
    # 40 + 250 for team A & C; the opponents' cards stay out of reach
    assert m.result().sides[0].total == 290
    assert not declare(m, 1, ["AS", "10S", "JS"], ["KS", "QS"], "trump_sequence")


def test_four_hand_last_trick_goes_to_the_team() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"], tracking="tricks")
    m.start_deal(0, parse_card("9S"))
    for t in range(24):
        m.apply(Trick(3 if t == 23 else t % 4))
    # the 24th trick to D: 10 for B & D
    assert m.result().sides[1].total == 10


def test_example_four_hand_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "four-hand.json")).result()
    # Dealer Dora turns up 7♠: Boris & Dora 10.
    # Anna & Carl: trump marriage 40 (Anna), Carl's trump sequence laid whole 250 (building
    #   on Anna's K♠ Q♠ is rejected: R-ON-TABLE, by default only one's own cards), four aces
    #   100 after trick 16, last trick 10 (Carl), brisques (7 + 6) × 10 = 130 → 530.
    # Boris & Dora: dealer's seven 10, Boris's seven shown 10 (the turn-up is the 7♠),
    #   Dora's bezique 40, revoke penalty −20 (Boris), brisques (5 + 6) × 10 = 110 → 150.
    #   Dora's double bezique is rejected (a fourth Q♠ with three packs: R-PACK) and so are
    #   her four jacks reusing J♦ from the bezique (40 is not more than 40: R-REUSE).
    assert [s.name for s in result.sides] == ["Anna & Carl", "Boris & Dora"]
    assert [s.total for s in result.sides] == [530, 150]
    assert [(r.event, r.rule) for r in result.rejected] == [
        (3, "R-ON-TABLE"), (11, "R-PACK"), (13, "R-REUSE"), (25, "R-NO-DECLARE-AFTER-STOCK"),
    ]
    assert not result.finished


# ------------------------------------------------------------------------ no-trump
def test_r_nt_trumps_sequence_before_trumps_is_rejected() -> None:
    m = Match.new("no-trump", ["A", "B"])
    m.start_deal(0, None)
    ruling = m.apply(Declare(1, tuple(parse_cards(["AH", "10H", "KH", "QH", "JH"]))))
    assert not ruling.accepted and ruling.rule == "R-NT-TRUMPS"
    # the K and Q inside it fixed nothing
    assert m.current is not None and m.current.trumps is None


def test_r_nt_trumps_first_marriage_fixes_trumps_and_scores_40() -> None:
    m = Match.new("no-trump", ["A", "B"])
    m.start_deal(0, None)
    assert declare(m, 0, ["KD", "QD"], meld="marriage")
    assert m.current is not None and m.current.trumps is not None
    assert m.current.trumps.value == "D"
    assert declare(m, 1, ["KH", "QH"], meld="marriage")  # now a plain marriage: 20
    assert declare(m, 1, ["AD", "10D", "KD", "QD", "JD"], meld="trump_sequence")  # 250
    assert [s.total for s in m.result().sides] == [40, 270]


@pytest.mark.parametrize(("house_rules", "points"), [([], 80), (["H-NT-DOUBLE-MARRIAGE-50"], 50)])
def test_r_nt_trumps_double_marriage_fixing_trumps(house_rules: list[str], points: int) -> None:
    m = Match.new("no-trump", ["A", "B"], house_rules=house_rules)
    m.start_deal(0, None)
    assert declare(m, 0, ["KC", "QC", "KC", "QC"], meld="double_marriage")
    assert m.result().sides[0].total == points


@pytest.mark.parametrize(("house_rules", "points"), [([], 250), (["H-NT-SEQUENCE-300"], 300)])
def test_h_nt_sequence_300(house_rules: list[str], points: int) -> None:
    m = Match.new("no-trump", ["A", "B"], house_rules=house_rules)
    m.start_deal(0, None)
    assert declare(m, 0, ["KC", "QC"])
    assert declare(m, 0, ["AC", "10C", "JC"], ["KC", "QC"], "trump_sequence")
    assert m.result().sides[0].total == 40 + points


def test_no_trump_beziques_and_fours_before_trumps_sevens_score_nothing() -> None:
    m = Match.new("no-trump", ["A", "B"])
    m.start_deal(0, None)
    assert declare(m, 0, ["QS", "JD"])
    assert declare(m, 1, ["AS", "AH", "AD", "AC"])
    assert not m.apply(Seven(0)).accepted
    assert [s.total for s in m.result().sides] == [40, 100]


def test_no_trump_has_no_turn_up_and_two_hand_needs_one() -> None:
    m = Match.new("no-trump", ["A", "B"])
    with pytest.raises(ValueError, match="no turn-up"):
        m.start_deal(0, parse_card("9H"))
    t = Match.new("two-hand", ["A", "B"])
    with pytest.raises(ValueError, match="turn_up is needed"):
        t.start_deal(0, None)


def test_no_trump_pending_marriage_scores_as_plain_once_other_trumps_are_fixed() -> None:
    m = Match.new("no-trump", ["A", "B"])
    m.start_deal(0, None)
    # K♥ Q♥ Q♠ J♦: bezique scored, the ♥ marriage pending (it would fix trumps)
    assert declare(m, 0, ["KH", "QH", "QS", "JD"], meld="bezique")
    assert declare(m, 1, ["KC", "QC"])  # B fixes ♣ trumps: 40
    assert declare(m, 0, [], ["KH", "QH"])  # pending ♥ marriage, now plain: 20
    assert [s.total for s in m.result().sides] == [60, 40]


def test_example_no_trump_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "no-trump.json")).result()
    # Boris's sequence before trumps: rejected (R-NT-TRUMPS); his seven: scores nothing.
    # Anna: bezique 40, double marriage ♣ fixing trumps 80, trump sequence (K♣ Q♣ reused,
    #   250 > 80) 250, brisques 18 × 10 = 180 → 550.
    # Boris: marriage ♥ 20 (plain now), sequence ♥ 100, four aces reusing A♥ from the
    #   sequence rejected (100 is not more than 100: R-REUSE), four aces laid new 100, last
    #   trick 10, brisques 140 → 370.
    assert [s.total for s in result.sides] == [550, 370]
    assert [(r.event, r.rule) for r in result.rejected] == [
        (0, "R-NT-TRUMPS"), (1, "R-NT-TRUMPS"), (7, "R-REUSE"),
    ]


@pytest.mark.parametrize("name", ["three-hand", "four-hand", "no-trump"])
def test_variant_records_export_and_import_identically(name: str) -> None:
    record = load_record(RECORDS / f"{name}.json")
    match = replay_record(record)
    again = replay_record(parse_record(json.loads(json.dumps(record_to_obj(match.to_record())))))
    assert again.result() == match.result()


# ------------------------------------------- RULES.md §7 readings checked against the engine
@pytest.mark.parametrize("house_rules", [[], ["H-NT-DOUBLE-MARRIAGE-50"]])
def test_h_nt_double_marriage_50_only_for_the_double_marriage_that_fixes_trumps(
    house_rules: list[str],
) -> None:
    # Trumps fixed by a marriage first: a later double trump marriage is 80 either way.
    m = Match.new("no-trump", ["A", "B"], house_rules=house_rules)
    m.start_deal(0, None)
    assert declare(m, 0, ["KC", "QC"])  # fixes ♣: 40
    assert declare(m, 1, ["KC", "QC", "KC", "QC"], meld="double_trump_marriage")
    assert [s.total for s in m.result().sides] == [40, 80]


def test_h_nt_double_marriage_50_the_fixing_double_marriage() -> None:
    m = Match.new("no-trump", ["A", "B"], house_rules=["H-NT-DOUBLE-MARRIAGE-50"])
    m.start_deal(0, None)
    ruling = m.apply(Declare(0, tuple(parse_cards(["KC", "QC", "KC", "QC"]))))
    assert ruling.accepted and ruling.points == 50 and ruling.rule == "R-NT-TRUMPS"
    assert m.current is not None and m.current.trumps is not None
    assert m.current.trumps.value == "C"


def test_h_nt_sequence_300_plain_sequence_unchanged() -> None:
    m = Match.new("no-trump", ["A", "B"], house_rules=["H-NT-SEQUENCE-300"])
    m.start_deal(0, None)
    assert declare(m, 0, ["KC", "QC"])
    assert declare(m, 1, ["AH", "10H", "KH", "QH", "JH"], meld="sequence")
    assert [s.total for s in m.result().sides] == [40, 100]


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D"]])
def test_r_nt_trumps_triple_marriage_fixing_trumps_scores_300(players: list[str]) -> None:
    # RULES.md §7: triple combinations exist in no-trump (4 packs for two, 3 or 4 otherwise).
    m = Match.new("no-trump", players)
    m.start_deal(0, None)
    ruling = m.apply(Declare(1, tuple(parse_cards(["KD", "QD"] * 3))))
    assert ruling.accepted and ruling.points == 300 and ruling.meld == "triple_trump_marriage"
    assert m.current is not None and m.current.trumps is not None
    assert m.current.trumps.value == "D"
    # a plain triple marriage once trumps are fixed: 100
    assert declare(m, 0, ["KS", "QS"] * 3, meld="triple_marriage")
    assert m.result().sides[0].total == 100


def test_no_trump_triple_bezique_wins_the_partie_at_the_end_of_the_deal() -> None:
    m = Match.new("no-trump", ["A", "B"])
    m.start_deal(0, None)
    assert declare(m, 1, ["QS", "JD"] * 3, meld="triple_bezique")
    assert m.result().sides[1].total == 1500
    assert not m.result().finished  # R-CLAIM-AT-END
    m.apply(StockExhausted())
    m.apply(LastTrick(0))
    m.apply(Brisques({0: 30, 1: 2}))
    result = m.result()
    assert result.finished and result.winner == "B"


def test_h_partner_build_in_four_player_no_trump() -> None:
    m = Match.new("no-trump", ["A", "B", "C", "D"], house_rules=["H-PARTNER-BUILD"])
    m.start_deal(3, None)
    assert declare(m, 0, ["KS", "QS"])  # fixes ♠ for A & C: 40
    assert declare(m, 2, ["AS", "10S", "JS"], ["KS", "QS"], "trump_sequence")  # 250
    assert [s.total for s in m.result().sides] == [290, 0]


def test_h_partner_build_reuse_rules_still_apply_to_the_partners_cards() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"], house_rules=["H-PARTNER-BUILD"])
    m.start_deal(3, parse_card("9S"))
    assert declare(m, 0, ["KS", "KH", "KD", "KC"])  # four kings 80
    # C's marriage with A's K♠ scores less than the four kings it scored in: R-REUSE
    ruling = m.apply(Declare(2, (parse_card("QS"),), (parse_card("KS"),), "trump_marriage"))
    assert not ruling.accepted and ruling.rule == "R-REUSE"
    # the partner's cards are not the opponents': B cannot use them at all
    ruling = m.apply(Declare(1, (parse_card("QH"),), (parse_card("KH"),), "marriage"))
    assert not ruling.accepted and ruling.rule == "R-ON-TABLE"


def test_h_partner_build_off_in_four_hand_by_default() -> None:
    m = Match.new("four-hand", ["A", "B", "C", "D"])
    m.start_deal(3, parse_card("9S"))
    assert declare(m, 0, ["KH", "KS", "KD", "KC"])
    ruling = m.apply(Declare(2, (parse_card("QH"),), (parse_card("KH"),), "marriage"))
    assert not ruling.accepted and ruling.rule == "R-ON-TABLE"
