"""Declaring by name (referee.proposal): the cards the referee proposes for a named
combination follow R-REUSE / H-REUSE-CLASSES / H-ALL-NEW, R-PACK, R-NEW-CARD and the timing
rules, because every candidate is judged by the engine itself.

Two-hand, Anna (seat 0) deals, trumps hearts (turn-up 9♥) unless a test says otherwise."""

from __future__ import annotations

from referee.cards import Card, parse_card
from referee.events import Declare, StockExhausted, Trick
from referee.match import Match
from referee.proposal import change, evaluate, nameable, propose, supports

A, B = 0, 1


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in codes)


def match(tracking: str = "melds", house_rules: tuple[str, ...] = (), variant: str = "two-hand",
          turn_up: str | None = "9H") -> Match:
    m = Match.new(variant, ("Anna", "Boris"), tracking=tracking, house_rules=house_rules)
    m.start_deal(0, parse_card(turn_up) if turn_up else None)
    return m


def declare(m: Match, player: int, new: tuple[str, ...], table: tuple[str, ...] = (),
            meld: str | None = None) -> None:
    ruling = m.apply(Declare(player, cards(*new), cards(*table), meld))
    assert ruling.accepted, ruling.message


def test_default_suits_marriage_is_the_first_plain_suit_spades() -> None:
    m = match()
    p = propose(m.current, A, "marriage")
    assert p is not None and p.accepted
    assert sorted(p.new) == sorted(cards("KS", "QS")) and p.table == ()
    assert p.ruling.points == 20


def test_default_suits_trump_marriage_is_in_trumps() -> None:
    p = propose(match().current, A, "trump_marriage")
    assert p is not None and p.accepted
    assert sorted(p.new) == sorted(cards("KH", "QH"))


def test_bezique_proposes_the_queen_of_spades_and_jack_of_diamonds() -> None:
    p = propose(match().current, B, "bezique")
    assert p is not None and p.accepted and sorted(p.new) == sorted(cards("QS", "JD"))


def test_h_bezique_pair_proposes_the_queen_of_trumps_and_same_colour_jack() -> None:
    p = propose(match(house_rules=("H-BEZIQUE-PAIR",)).current, B, "bezique")
    assert p is not None and p.accepted and sorted(p.new) == sorted(cards("QH", "JD"))


def test_r_reuse_trump_sequence_reuses_the_declared_trump_marriage() -> None:
    m = match()
    declare(m, A, ("KH", "QH"), meld="trump_marriage")
    p = propose(m.current, A, "trump_sequence")
    assert p is not None and p.accepted
    assert sorted(p.table) == sorted(cards("KH", "QH"))
    assert sorted(p.new) == sorted(cards("AH", "10H", "JH"))
    assert p.ruling.points == 250


def test_r_reuse_four_kings_reuse_the_kings_of_marriages() -> None:
    m = match()
    declare(m, A, ("KS", "QS"), meld="marriage")
    declare(m, A, ("KH", "QH"), meld="trump_marriage")
    p = propose(m.current, A, "four_kings")
    assert p is not None and p.accepted
    assert sorted(p.table) == sorted(cards("KS", "KH"))
    assert sorted(p.new) == sorted(cards("KD", "KC"))


def test_r_reuse_four_kings_then_marriage_proposes_new_cards_not_the_kings() -> None:
    # A marriage with one of the four kings scores less than 80 (R-REUSE): new K and Q.
    m = match()
    declare(m, A, ("KS", "KH", "KD", "KC"), meld="four_kings")
    p = propose(m.current, A, "marriage")
    assert p is not None and p.accepted
    assert p.table == () and len(p.new) == 2


def test_h_reuse_classes_allows_a_marriage_with_a_king_of_four_kings() -> None:
    m = match(house_rules=("H-REUSE-CLASSES",))
    declare(m, A, ("KS", "KH", "KD", "KC"), meld="four_kings")
    p = propose(m.current, A, "marriage")
    assert p is not None and p.accepted
    assert len(p.table) == 1 and p.table[0].rank == parse_card("KS").rank


def test_h_all_new_never_reuses() -> None:
    m = match(house_rules=("H-ALL-NEW",))
    declare(m, A, ("KH", "QH"), meld="trump_marriage")
    p = propose(m.current, A, "trump_sequence")
    assert p is not None and p.accepted
    assert p.table == () and len(p.new) == 5


def test_r_new_card_a_proposal_always_lays_a_card_from_the_hand() -> None:
    m = match()
    declare(m, A, ("KH", "QH"), meld="trump_marriage")
    p = propose(m.current, A, "trump_marriage")  # the same kind again: R-REUSE forbids reuse
    assert p is not None and p.new


def test_r_pack_four_aces_avoid_a_suit_whose_copies_are_all_seen() -> None:
    m = match()
    declare(m, A, ("AS", "AH", "AD", "AC"), meld="four_aces")
    declare(m, A, ("AS", "AH", "AD", "AC"), meld="four_aces")  # both packs' aces now shown
    p = propose(m.current, B, "four_aces")
    assert p is not None and not p.accepted and p.ruling.rule == "R-PACK"
    m2 = match()
    declare(m2, A, ("AS", "10S", "KS", "QS", "JS"), meld="sequence")
    declare(m2, B, ("AS", "10S", "KS", "QS", "JS"), meld="sequence")  # no A♠ left
    q = propose(m2.current, B, "four_aces")
    assert q is not None and q.accepted and parse_card("AS") not in q.new


def test_r_no_declare_after_stock_the_proposal_carries_the_rejection() -> None:
    m = match()
    m.apply(StockExhausted())
    p = propose(m.current, A, "four_kings")
    assert p is not None and not p.accepted
    assert p.ruling.rule == "R-NO-DECLARE-AFTER-STOCK"


def test_r_declare_after_trick_with_tricks_only_the_winner_is_accepted() -> None:
    m = match("tricks")
    m.apply(Trick(B))
    p = propose(m.current, A, "marriage")
    assert p is not None and not p.accepted and p.ruling.rule == "R-DECLARE-AFTER-TRICK"
    assert p.ruling.proposes == "P-EARLY-DECLARE"
    q = propose(m.current, B, "marriage")
    assert q is not None and q.accepted


def test_change_a_reused_card_becomes_a_new_one() -> None:
    m = match()
    declare(m, A, ("KH", "QH"), meld="trump_marriage")
    p = propose(m.current, A, "trump_sequence")
    assert p is not None
    i = next(k for k, s in enumerate(p.slots) if s.reused)
    q = change(m.current, p, i)
    assert len(q.table) == 1 and len(q.new) == 4 and q.accepted


def test_change_a_suit_combination_moves_to_the_next_plain_suit() -> None:
    m = match()
    p = propose(m.current, A, "marriage")
    assert p is not None
    q = change(m.current, p, 0)
    assert sorted(q.new) == sorted(cards("KD", "QD")) and q.accepted  # hearts are trumps


def test_change_a_card_of_four_kings_takes_the_next_suit() -> None:
    m = match()
    p = propose(m.current, A, "four_kings")
    assert p is not None
    q = change(m.current, p, 0)
    assert q.accepted and len(q.new) == 4 and q.new != p.new


def test_evaluate_a_split_the_table_chose() -> None:
    m = match()
    p = evaluate(m.current, A, "marriage", cards("KD", "QD"), ())
    assert p is not None and p.accepted and p.event().meld == "marriage"


def test_r_nt_trumps_before_trumps_are_fixed_only_the_trump_fixing_marriage_is_named() -> None:
    m = match(variant="no-trump", turn_up=None)
    names = nameable(m.current)
    assert "trump_marriage" in names and "marriage" not in names
    p = propose(m.current, A, "trump_marriage")
    assert p is not None and p.accepted


def test_the_joker_variant_is_composed_in_the_picker() -> None:
    m = Match.new("joker-multipack", ("Anna", "Boris"))
    m.start_deal(0, parse_card("9H"))
    assert not supports(m.current)
    assert supports(match().current)


def test_an_unknown_name_proposes_nothing() -> None:
    assert propose(match().current, A, "royal_flush") is None


def _six_pack_with_trumps(variant: str = "six-pack") -> Match:
    """Six-pack (or eight-pack), Anna deals; Boris's trump marriage K♦ Q♦ fixes diamonds."""
    m = Match.new(variant, ("Anna", "Boris"))
    m.start_deal(0, None)
    declare(m, B, ("KD", "QD"), meld="trump_marriage")
    return m


def test_four_trump_aces_propose_four_copies_of_the_trump_ace() -> None:
    m = _six_pack_with_trumps()
    p = propose(m.current, A, "four_trump_aces")
    assert p is not None and p.accepted, p and p.ruling.message
    assert p.new == cards("AD", "AD", "AD", "AD") and p.table == ()
    assert p.ruling.points == m.variant.combination("four_trump_aces").points


def test_five_trump_tens_propose_five_copies_of_the_trump_ten() -> None:
    m = _six_pack_with_trumps("eight-pack")
    p = propose(m.current, A, "five_trump_tens")
    assert p is not None and p.accepted, p and p.ruling.message
    assert p.new == cards(*["10D"] * 5)


def test_a_card_of_four_trump_aces_stays_in_trumps_when_tapped() -> None:
    m = _six_pack_with_trumps()
    p = propose(m.current, A, "four_trump_aces")
    assert p is not None
    assert change(m.current, p, 0).new == p.new  # trumps are fixed: no other suit to offer
