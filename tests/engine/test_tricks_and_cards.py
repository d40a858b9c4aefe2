"""The tracking levels (spec, "tracking"): tricks and cards. R-LEAD, R-RANK (a wrong winner is
an input error), R-DEAL, R-BRISQUE counted from tricks, R-LAST-TRICK, declared cards leaving the
table, phase-2 revokes proposed as P-REVOKE, and H-MUST-WIN.

The complete deals come from the SimulatedDeal oracle in conftest (its own trick-winner and
legal-play code); Anna deals unless said, so Boris leads trick 1."""

from __future__ import annotations

import pytest

from referee.errors import RecordError

from .conftest import (
    PLAYERS,
    SimulatedDeal,
    alternate,
    brisques,
    decl,
    last,
    record,
    rejected,
    replay,
    result,
    scores,
    stock,
    trick,
)


def _error(doc: dict[str, object]) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(doc)  # type: ignore[arg-type]
    return info.value


# ------------------------------------------------------------------ R-RANK / R-LEAD
@pytest.mark.parametrize(
    ("dealer", "cards", "winner"),
    [
        # Anna deals: Boris leads.
        ("Anna", {"Boris": "KS", "Anna": "AS"}, "Anna"),   # A beats K of the suit led
        ("Anna", {"Boris": "AS", "Anna": "KS"}, "Boris"),
        ("Anna", {"Boris": "AS", "Anna": "7H"}, "Anna"),   # any trump beats a non-trump
        ("Anna", {"Boris": "7H", "Anna": "AS"}, "Boris"),  # off-suit non-trump never wins
        ("Anna", {"Boris": "10C", "Anna": "KC"}, "Boris"),  # 10 above K
        ("Anna", {"Boris": "9D", "Anna": "JD"}, "Anna"),   # J above 9
        ("Anna", {"Boris": "AS", "Anna": "AS"}, "Boris"),  # equal cards: the one led wins
        # Boris deals: Anna leads.
        ("Boris", {"Boris": "AS", "Anna": "AS"}, "Anna"),
        ("Boris", {"Anna": "8H", "Boris": "7H"}, "Anna"),   # trumps among themselves by rank
    ],
)
def test_r_rank_trick_winner_follows_the_cards(dealer: str, cards: dict[str, str],
                                               winner: str) -> None:
    assert rejected(record([trick(winner, cards)], tracking="cards", dealer=dealer)) == {}
    loser = "Boris" if winner == "Anna" else "Anna"
    err = _error(record([trick(loser, cards)], tracking="cards", dealer=dealer))
    assert err.path == "deals[0].events[0]"
    assert "R-RANK" in str(err)


def test_r_lead_the_winner_leads_the_next_trick() -> None:
    # Trick 1: Boris leads 9C, Anna 10C wins. Trick 2: Anna leads; equal A♠: the led one wins.
    events = [trick("Anna", {"Boris": "9C", "Anna": "10C"}),
              trick("Anna", {"Anna": "AS", "Boris": "AS"})]
    assert rejected(record(events, tracking="cards")) == {}
    events[1] = trick("Boris", {"Anna": "AS", "Boris": "AS"})
    assert _error(record(events, tracking="cards")).path == "deals[0].events[1]"


def test_r_rank_trick_needs_every_players_card() -> None:
    err = _error(record([trick("Anna", {"Anna": "AS"})], tracking="cards"))
    assert err.path == "deals[0].events[0]"
    assert "Boris" in str(err)


def test_cards_are_not_given_below_cards_tracking() -> None:
    err = _error(record([trick("Anna", {"Boris": "9C", "Anna": "10C"})], tracking="tricks"))
    assert err.path == "deals[0].events[0]"


def test_tricks_are_not_given_with_melds_tracking() -> None:
    assert _error(record([trick("Anna")])).path == "deals[0].events[0]"


# ------------------------------------------------------------------ R-DEAL / R-PHASE1
def test_r_deal_two_hand_has_32_tricks() -> None:
    doc = record(alternate(32), tracking="tricks")
    assert replay(doc).deals[0].tricks_played == 32
    err = _error(record(alternate(33), tracking="tricks"))
    assert err.path == "deals[0].events[32]"


def test_r_phase1_stock_cannot_run_out_before_trick_24() -> None:
    # 64 cards - 16 dealt = 48 = 24 tricks with draws.
    assert _error(record([*alternate(23), stock()], tracking="tricks")).path == (
        "deals[0].events[23]")
    assert rejected(record([*alternate(24), stock()], tracking="tricks")) == {}


# ------------------------------------------------------------------ R-LAST-TRICK (tricks)
def test_r_last_trick_goes_to_the_winner_of_trick_32() -> None:
    # alternate(32): Anna wins the odd tricks, Boris the even ones, so trick 32 is Boris's.
    doc = record([*alternate(32), brisques(8, 8)], tracking="tricks")
    assert scores(doc) == (80, 90)  # brisques 8 x 10 each, +10 last trick for Boris


def test_r_last_trick_event_must_agree_with_the_tricks() -> None:
    ok = record([*alternate(32), last("Boris"), brisques(8, 8)], tracking="tricks")
    assert scores(ok) == (80, 90)  # the event confirms; the 10 is not given twice
    err = _error(record([*alternate(32), last("Anna")], tracking="tricks"))
    assert err.path == "deals[0].events[32]"


def test_h_last_trick_24_bonus_for_the_last_trick_with_draws() -> None:
    # Trick 24 is Boris's, trick 32 too: move trick 32 to Anna to tell them apart.
    events = [*alternate(31), trick("Anna"), brisques(8, 8)]
    assert scores(record(events, tracking="tricks")) == (90, 80)
    assert scores(record(events, tracking="tricks", house_rules=["H-LAST-TRICK-24"])) == (80, 90)


def test_r_last_trick_alone_closes_a_tricks_deal_after_the_stock() -> None:
    # Spec "tracking": the phase-2 tricks may be left out; last_trick names the final
    # trick's winner and closes the play, brisques then end the deal.
    doc = record([*alternate(24), last("Boris"), brisques(8, 8)], tracking="tricks")
    assert rejected(doc) == {}
    assert scores(doc) == (80, 90)
    assert replay(doc).deals[0].complete


def test_r_last_trick_alone_also_after_some_phase_two_tricks_and_a_stock_event() -> None:
    doc = record([*alternate(24), stock(), trick("Anna"), last("Anna"), brisques(8, 8)],
                 tracking="tricks")
    assert scores(doc) == (90, 80)


def test_r_last_trick_closing_the_play_is_not_before_the_stock_runs_out() -> None:
    assert _error(record([*alternate(20), last("Boris")], tracking="tricks")).path == (
        "deals[0].events[20]")


def test_r_last_trick_no_trick_after_the_play_was_closed() -> None:
    err = _error(record([*alternate(24), last("Boris"), trick("Anna")], tracking="tricks"))
    assert err.path == "deals[0].events[25]"


def test_r_no_declare_after_stock_once_last_trick_closed_the_play() -> None:
    doc = record([*alternate(24), last("Boris"), decl("Boris", ["KS", "QS"])], tracking="tricks")
    assert rejected(doc) == {(0, 25): "R-NO-DECLARE-AFTER-STOCK"}


def test_h_last_trick_24_closing_the_play_scores_no_second_bonus() -> None:
    doc = record([*alternate(24), last("Anna"), brisques(8, 8)], tracking="tricks",
                 house_rules=["H-LAST-TRICK-24"])
    assert scores(doc) == (80, 90)  # the 10 went to Boris, winner of trick 24


# ------------------------------------------------------------------ cards level, full deals
@pytest.mark.parametrize("seed", [0, 1, 4, 9, 13])
def test_r_brisque_counted_from_the_tricks(seed: int) -> None:
    sim = SimulatedDeal(seed, dealer=seed % 2)
    got = scores(sim.record())
    # 10 a brisque won + 10 for the last trick + 10 for a turned-up seven to the dealer.
    want = tuple(
        10 * sim.brisques[p] + 10 * (sim.last_winner == p)
        + 10 * (sim.turn_up.startswith("7") and sim.dealer == p)
        for p in (0, 1)
    )
    assert got == want
    assert sum(sim.brisques) == 16


def test_r_brisque_event_agreeing_with_the_tricks_is_accepted() -> None:
    sim = SimulatedDeal(1)
    doc = sim.record(extra=[brisques(*sim.brisques)])
    assert scores(doc) == scores(sim.record())  # counted once, not twice


def test_r_brisque_event_disagreeing_with_the_tricks_is_an_input_error() -> None:
    sim = SimulatedDeal(1)
    a, b = sim.brisques
    err = _error(sim.record(extra=[brisques(a + 1, b - 1)]))
    assert err.path == "deals[0].events[32]"


def test_r_brisque_event_before_the_end_at_cards_level_is_an_input_error() -> None:
    doc = record([trick("Anna", {"Boris": "9C", "Anna": "10C"}), brisques(8, 8)],
                 tracking="cards")
    assert _error(doc).path == "deals[0].events[1]"


def test_r_brisque_from_the_tricks_of_one_trick() -> None:
    # Only 10♣ and A♣ are brisques: Anna wins both in trick 1 -> 2 so far (counted at the end).
    d = replay(record([trick("Anna", {"Boris": "10C", "Anna": "AC"})], tracking="cards")).deals[0]
    assert d.brisques_won == [2, 0]


def test_r_last_trick_at_cards_level_and_h_last_trick_24() -> None:
    sim = SimulatedDeal(3)
    base = scores(sim.record())
    moved = scores(sim.record(["H-LAST-TRICK-24"]))
    w24, w32 = sim.winners[23], sim.winners[31]
    delta = [0, 0]
    delta[w32] -= 10
    delta[w24] += 10
    assert moved == (base[0] + delta[0], base[1] + delta[1])


# ------------------------------------------------------------------ revokes (R-PHASE2)
def _find(illegal: str, must_win: bool = False) -> SimulatedDeal:
    for seed in range(100):
        sim = SimulatedDeal(seed, illegal=illegal, must_win=must_win)
        if sim.illegal_at is not None:
            return sim
    raise AssertionError("no such deal")  # pragma: no cover


@pytest.mark.parametrize("seed", range(8))
def test_r_phase2_legal_play_proposes_nothing(seed: int) -> None:
    sim = SimulatedDeal(seed, dealer=seed % 2)
    res = result(sim.record())
    assert res["proposed_penalties"] == [] and res["rejected"] == []


def test_r_phase2_revoke_shown_by_a_later_play_is_proposed() -> None:
    sim = _find("revoke")
    res = result(sim.record())
    assert len(res["proposed_penalties"]) == 1
    p = res["proposed_penalties"][0]
    assert p["penalty"] == "P-REVOKE"
    assert p["player"] == PLAYERS[sim.offender or 0]
    assert p["event"] > (sim.illegal_at or 0) - 1  # shown by a later trick
    # A proposal is not a penalty: the score is untouched (spec, "Rulings").
    assert scores(sim.record()) == tuple(
        10 * sim.brisques[p_] + 10 * (sim.last_winner == p_)
        + 10 * (sim.turn_up.startswith("7") and sim.dealer == p_) for p_ in (0, 1))


def test_r_phase2_revoke_penalty_applies_when_the_table_records_it() -> None:
    sim = _find("revoke")
    offender = PLAYERS[sim.offender or 0]
    plain = scores(sim.record())
    fined = scores(sim.record(extra=[{"type": "penalty", "player": offender,
                                      "offence": "P-REVOKE"}]))
    seat = sim.offender or 0
    assert fined[seat] == plain[seat] - 20 and fined[1 - seat] == plain[1 - seat]


def test_h_must_win_underplay_is_a_revoke_only_under_the_house_rule() -> None:
    sim = _find("underplay")
    assert result(sim.record())["proposed_penalties"] == []
    res = result(sim.record(["H-MUST-WIN"]))
    assert [p["penalty"] for p in res["proposed_penalties"]] == ["P-REVOKE"]
    assert res["proposed_penalties"][0]["player"] == PLAYERS[sim.offender or 0]


@pytest.mark.parametrize("seed", range(6))
def test_h_must_win_legal_play_proposes_nothing(seed: int) -> None:
    sim = SimulatedDeal(seed, must_win=True)
    assert result(sim.record(["H-MUST-WIN"]))["proposed_penalties"] == []


# ------------------------------------------------------------------ declared cards, cards level
def test_r_on_table_card_played_from_table_without_from_table_is_inferred() -> None:
    # Anna lays Q♠ J♦ (bezique). Boris has a Q♠ on his table too. When Anna plays Q♠ it can
    # only be her declared copy (both copies are on the tables), so it leaves her table.
    events = [
        trick("Boris", {"Boris": "7C", "Anna": "8D"}), decl("Boris", ["QS", "JD"]),
        trick("Anna", {"Boris": "9C", "Anna": "10C"}), decl("Anna", ["QS", "JD"]),
        trick("Anna", {"Anna": "QS", "Boris": "7D"}),
    ]
    d = replay(record(events, tracking="cards")).deals[0]
    assert [c.code for c in d.table(0)] == ["JD"]
    assert sorted(c.code for c in d.table(1)) == ["JD", "QS"]


def test_r_on_table_from_table_must_name_a_declared_card() -> None:
    doc = record([trick("Anna", {"Boris": "7C", "Anna": "8C"}, from_table=["Anna"])],
                 tracking="cards")
    assert _error(doc).path == "deals[0].events[0]"


def test_r_phase2_from_table_is_phase1_only() -> None:
    sim = SimulatedDeal(2)
    events = list(sim.events)
    events[26] = dict(events[26], from_table=[events[26]["winner"]])
    doc = record(events, tracking="cards", turn_up=sim.turn_up)
    assert _error(doc).path == "deals[0].events[26]"


def test_r_phase2_declared_cards_go_back_to_the_hand() -> None:
    # With tricks tracking: a bezique laid after trick 1; after trick 25 the tables are empty.
    doc = record([trick("Anna"), decl("Anna", ["QS", "JD"]), *alternate(24)],
                 tracking="tricks")
    d = replay(doc).deals[0]
    assert d.table(0) == [] and d.phase == 2
    assert scores(doc) == (40, 0)


# ------------------------------------------------------------------ R-DRAW
@pytest.mark.parametrize("seed", [0, 3, 8])
def test_r_draw_the_loser_of_trick_24_takes_the_turn_up(seed: int) -> None:
    # After trick 24 the winner draws the last face-down card and the loser the turn-up:
    # when phase 2 begins the turn-up is a known card in the loser's hand.
    sim = SimulatedDeal(seed)
    events = sim.events[:25]
    d = replay(record(events, tracking="cards", turn_up=sim.turn_up)).deals[0]
    loser = 1 - sim.winners[23]
    known = [sum(n for c, n in hand.items() if c.code == sim.turn_up) for hand in d.known_in_hand]
    played_by_loser = events[24]["cards"][PLAYERS[loser]] == sim.turn_up
    assert d.turn_up is None
    assert known[1 - loser] == 0
    assert known[loser] == (0 if played_by_loser else 1)


@pytest.mark.parametrize("seed", [4, 20, 41, 52, 157])
def test_r_pack_legal_deal_with_declarations_and_sevens_replays_clean(seed: int) -> None:
    # The oracle declares sevens (exchange, then show) and combinations laid from the hand,
    # and plays declared cards off the table: every event is accepted and the score is
    # declared points + 10 a brisque + 10 for the last trick + the dealer's seven.
    sim = SimulatedDeal(seed, dealer=seed % 2, declare=True)
    res = result(sim.record())
    assert res["rejected"] == [] and res["proposed_penalties"] == []
    assert tuple(s["total"] for s in res["sides"]) == sim.expected_scores()
    assert any(e["type"] == "seven" for e in sim.events)


# ------------------------------------------------------------------ R-LEAD (who leads next)
def test_r_lead_the_player_after_the_dealer_leads_then_the_trick_winner() -> None:
    from referee.lead import next_leader

    m = replay(record([], tracking="tricks"))
    assert next_leader(m.deals[0]) == 1  # Anna deals: Boris leads the first trick
    m2 = replay(record([trick("Anna")], tracking="tricks"))
    assert next_leader(m2.deals[0]) == 0
