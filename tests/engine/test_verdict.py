"""RULES.md §6 in words: the reason each verdict gives (R-TARGET, R-TIE with two and with three
sides, H-TIE-HIGHER, a partie-winning triple bezique), and R-CLAIM-AT-END while a deal is in
play: a side past the target ends the partie with this deal, not before."""

from __future__ import annotations

from typing import Any

from referee.record import parse_record, replay_record
from referee.variants import load_variant
from referee.verdict import explain

BEZIQUE = ["QS", "JD"]


Deal = tuple[list[dict[str, Any]], str | None, dict[str, int] | None]


def _match(players: list[str], deals: list[Deal], *, target: int,
           rules: list[str] | None = None) -> Any:
    """deals: (declarations, last trick winner or None, brisques or None: deal left in play)."""
    variant = {2: "two-hand", 3: "three-hand"}[len(players)]
    packs = load_variant(variant).packs(len(players))
    out = []
    for d, (decls, last, brisques) in enumerate(deals):
        events = list(decls)
        if last is not None:
            events += [{"type": "stock_exhausted"}, {"type": "last_trick", "winner": last}]
            counts = brisques or {}
            rest = 8 * packs - sum(counts.values())
            counts = {p: counts.get(p, 0) for p in players}
            counts[last] += rest  # the rest to the last trick's taker
            events.append({"type": "brisques", "counts": counts})
        out.append({"dealer": players[d % len(players)], "turn_up": "9H", "events": events})
    rec = {"format": "bezique-match/1", "variant": variant, "players": players,
           "tracking": "melds", "house_rules": rules or [], "target": target, "deals": out}
    return replay_record(parse_record(rec))


def decl(player: str, cards: list[str], meld: str) -> dict[str, Any]:
    return {"type": "declare", "player": player, "new": cards, "meld": meld}


def test_r_target_the_only_side_to_reach_wins() -> None:
    m = _match(["Anna", "Boris"], [([decl("Anna", ["AS", "AH", "AD", "AC"], "four_aces")],
                                    "Anna", {"Boris": 8})], target=150)
    f = explain(m)
    totals = m.totals()
    assert totals[0] >= 150 > totals[1]
    assert (f.winner, f.rule, f.reason) == ("Anna", "R-TARGET", "target")
    assert f.winner_total == totals[0] and f.also_reached == ()


def test_r_tie_two_sides_the_last_trick_decides() -> None:
    m = _match(["Anna", "Boris"], [([decl("Anna", ["AS", "AH", "AD", "AC"], "four_aces"),
                                     decl("Boris", ["KS", "KH", "KD", "KC"], "four_kings")],
                                    "Boris", {"Anna": 12})], target=100)
    f = explain(m)
    totals = m.totals()
    assert min(totals) >= 100 and totals[0] > totals[1]  # Anna higher, Boris took the last trick
    assert (f.winner, f.rule, f.reason, f.last_trick) == ("Boris", "R-TIE", "last_trick", "Boris")
    assert f.also_reached == ("Anna",)


def test_h_tie_higher_the_higher_total_wins() -> None:
    m = _match(["Anna", "Boris"], [([decl("Anna", ["AS", "AH", "AD", "AC"], "four_aces"),
                                     decl("Boris", ["KS", "KH", "KD", "KC"], "four_kings")],
                                    "Boris", {"Anna": 12})], target=100, rules=["H-TIE-HIGHER"])
    f = explain(m)
    assert (f.winner, f.rule, f.reason) == ("Anna", "H-TIE-HIGHER", "higher_total")


def test_r_tie_three_sides_last_trick_outside_the_reached_the_higher_total_wins() -> None:
    m = _match(["Anna", "Boris", "Clara"],
               [([decl("Anna", ["AS", "AH", "AD", "AC"], "four_aces"),
                  decl("Boris", ["KS", "KH", "KD", "KC"], "four_kings")],
                 "Clara", {"Anna": 8, "Boris": 8, "Clara": 8})], target=150)
    totals = m.totals()
    assert totals[0] >= 150 and totals[1] >= 150 and totals[2] < 150 and totals[0] > totals[1]
    f = explain(m)
    assert (f.winner, f.rule, f.reason, f.last_trick) == (
        "Anna", "R-TIE", "higher_total_last_out", "Clara")


def test_r_tie_three_sides_equal_highest_totals_play_on() -> None:
    m = _match(["Anna", "Boris", "Clara"],
               [([decl("Anna", ["QS", "QH", "QD", "QC"], "four_queens"),
                  decl("Boris", ["QS", "QH", "QD", "QC"], "four_queens")],
                 "Clara", {"Anna": 8, "Boris": 8, "Clara": 8})], target=120)
    totals = m.totals()
    assert totals[0] == totals[1] >= 120 > totals[2]
    f = explain(m)
    assert f.winner is None and f.goes_on == ("Anna", "Boris")


def test_a_triple_bezique_wins_the_partie_whatever_the_totals() -> None:
    m = _match(["Anna", "Boris", "Clara"],
               [([decl("Boris", ["QS", "QS", "QS", "JD", "JD", "JD"], "triple_bezique")],
                 "Anna", {"Anna": 24})], target=100_000)
    f = explain(m)
    assert (f.winner, f.reason) == ("Boris", "meld")


def test_r_claim_at_end_a_side_past_the_target_mid_deal_ends_the_partie_with_this_deal() -> None:
    m = _match(["Anna", "Boris"], [([decl("Anna", ["AS", "AH", "AD", "AC"], "four_aces")],
                                    None, None)], target=100)
    f = explain(m)
    assert f.winner is None and not m.result().finished
    assert f.reached_in_play == ("Anna",)
