"""The evening's tournament on the director's screen (issue #24), without a browser: the
director's state over a real store (SQLite, and PostgreSQL when configured, in a schema of
its own) and a night, driving a round robin of four and a Swiss evening of five through their
rounds; every result is a match finished through the store, as a table's phone finishes it.
The tournament is kept with the night (a restart has it back), and a table's phone cannot
reach it."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from referee.club.rounds import pairs
from ui import backend
from ui.club_scope import OutOfScope, TableStore
from ui.server import club_night
from ui.server.club_night import ClubNight
from ui.state.app import AppState
from ui.state.club import ClubScreen
from ui.state.club_tournament import TournamentScreen

DOUBLE = ["QS", "QS", "JD", "JD"]
PG_ENV = "BEZIQUE_TEST_POSTGRES_URL"
PG_SCHEMA = "h28_tournament_tests"  # never the schema other tests wipe


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "sqlite":
        s = backend.open_store(f"sqlite:///{tmp_path / 'ui.sqlite3'}")
    else:
        url = os.environ.get(PG_ENV)
        if not url:
            pytest.skip(f"PostgreSQL not configured: set {PG_ENV}")
        import psycopg

        plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")
            conn.execute(f"CREATE SCHEMA {PG_SCHEMA}")
        sep = "&" if "?" in url else "?"
        s = backend.open_store(f"{url}{sep}options=-csearch_path%3D{PG_SCHEMA}")
    yield s
    s.close()


@pytest.fixture
def night() -> ClubNight:
    return ClubNight(base_url="http://192.0.2.5:8550")


def director(store: Any, night: Any) -> AppState:
    app = AppState(store, lang="en")
    app.club = ClubScreen(app, night)
    app.go("club", remember=False)
    return app


def tour_of(app: AppState) -> TournamentScreen:
    assert app.club is not None
    return app.club.tournament


def set_up(
    app: AppState,
    names: tuple[str, ...],
    fmt: str,
    *,
    rounds: int = 3,
    scoring: str = "wins",
    size: int = 2,
) -> TournamentScreen:
    tour = tour_of(app)
    tour.begin_setup()
    assert app.screen == "club_tournament" and tour.setup is not None
    for name in names:
        assert tour.add_entrant(name)
    tour.set_format(fmt)
    tour.set_rounds(str(rounds))
    tour.set_scoring(scoring)
    tour.set_table_size(size)
    form = tour.setup.form
    assert form is not None
    form.set_target("500" if size == 2 else "300")
    assert tour.setup_problem() is None
    assert tour.create()
    return tour


def finish(store: Any, match_id: int, winner: str) -> None:
    """The table's phone plays the match to its end: ``winner`` declares a double bezique
    (500) and takes the last trick; the brisques are shared evenly."""
    players = list(store.match_info(match_id).players)
    store.start_deal(match_id, 0, "9H")
    store.record(match_id, {"type": "declare", "player": winner, "new": DOUBLE})
    store.record(match_id, {"type": "stock_exhausted"})
    store.record(match_id, {"type": "last_trick", "winner": winner})
    store.record(match_id, {"type": "brisques", "counts": dict.fromkeys(players, 8)})
    assert store.match_info(match_id).winner == winner


def current_tables(tour: TournamentScreen) -> list[Any]:
    t = tour.tournament()
    assert t is not None and t.played
    return [n for n in tour.tables_now(t) if n.round == t.played[-1].number]


def test_a_round_robin_of_four_through_its_rounds(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    tour = set_up(d, ("Anna", "Boris", "Clara", "Dmitri"), "round_robin")
    t = tour.tournament()
    assert t is not None and t.rounds == 3 and t.settings.target == 500
    wins: Counter[str] = Counter()
    for number in (1, 2, 3):
        rnd = tour.next_round()
        assert rnd is not None and rnd.number == number and len(rnd.tables) == 2
        t = tour.tournament()
        assert t is not None
        assert tour.check(rnd, t) == (None, [])  # the schedule never repeats a pair
        assert tour.start_round()
        tables = current_tables(tour)
        assert [n.status for n in tables] == ["playing", "playing"]
        assert tour.next_round() is None  # results first
        # each pairing is a table of the night, with its own links, playing its pairing
        for n in tables:
            assert night.table(n.table) is not None
            assert store.match_info(n.match_id).players == n.players
            assert store.match_info(n.match_id).target == 500
        # the first seat wins at the first table, the second at the other
        for n, seat in zip(tables, (0, 1), strict=True):
            finish(store, n.match_id, n.players[seat])
            wins[n.players[seat]] += 1
        assert [n.status for n in current_tables(tour)] == ["finished", "finished"]
    t = tour.tournament()
    assert t is not None and t.over and tour.next_round() is None
    met = Counter(frozenset(p) for r in t.history for table in r.tables for p in [table])
    assert set(met) == {frozenset(p) for p in combinations(t.entrants, 2)}
    assert set(met.values()) == {1}
    table = tour.standings()
    assert {s.player: s.points for s in table} == {p: Fraction(wins[p]) for p in t.entrants}
    assert [s.place for s in table] == [1, 2, 3, 4]
    assert all(s.played == 3 for s in table)
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
    assert len(night.tables()) == 6


def test_a_swiss_evening_of_five_with_a_bye_each_round(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    names = ("Anna", "Boris", "Clara", "Dmitri", "Elena")
    tour = set_up(d, names, "swiss", rounds=3, scoring="match_points")
    byes: list[str] = []
    wins: Counter[str] = Counter()
    for number in (1, 2, 3):
        rnd = tour.next_round()
        assert rnd is not None and rnd.number == number
        assert len(rnd.tables) == 2 and len(rnd.byes) == 1
        t = tour.tournament()
        assert t is not None and tour.check(rnd, t) == (None, [])
        snap = tour.snapshot()  # what one drawing reads: the same as asked one by one
        assert snap is not None and snap.complete and snap.next_round == rnd
        assert snap.standings == tour.standings() and snap.tournament == t
        assert tour.start_round()
        byes += rnd.byes
        for n in current_tables(tour):
            winner = min(n.players)  # the first by name wins: standings move apart
            finish(store, n.match_id, winner)
            wins[winner] += 1
    t = tour.tournament()
    assert t is not None and t.over
    assert len(set(byes)) == 3  # nobody sat out twice
    pairs = [frozenset(table) for r in t.history for table in r.tables]
    assert len(pairs) == len(set(pairs)) == 6  # no pair met twice
    table = tour.standings()
    got = {s.player: s.points for s in table}
    assert got == {p: Fraction(2 * wins[p] + 2 * byes.count(p)) for p in names}
    assert sum(s.byes for s in table) == 3


def test_the_director_edits_the_proposed_round_errors_refuse_repeats_warn(
    store: Any, night: ClubNight
) -> None:
    d = director(store, night)
    tour = set_up(d, ("Anna", "Boris", "Clara", "Dmitri"), "swiss", rounds=3)
    assert tour.start_round()
    first = current_tables(tour)
    for n in first:
        finish(store, n.match_id, n.players[0])
    proposed = tour.next_round()
    t = tour.tournament()
    assert proposed is not None and t is not None and tour.check(proposed, t) == (None, [])
    # swap two players so that a round-1 pair meets again: shown, but allowed
    a, b = first[0].players
    table_of_b = next(tb for tb in proposed.tables if b in tb)
    other = next(p for p in table_of_b if p != b)
    partner_of_a = next(p for tb in proposed.tables if a in tb for p in tb if p != a)
    tour.select(partner_of_a)
    assert tour.selected == partner_of_a
    tour.select(b)  # a now sits with b
    edited = tour.next_round()
    t = tour.tournament()
    assert edited is not None and t is not None and t.draft == edited
    fault, warnings = tour.check(edited, t)
    assert fault is None and warnings
    words = [d.t(w.key, **w.args) for w in warnings]
    assert any(a in w and b in w and "round 1" in w for w in words), words
    # a player moved to the byes leaves a table short: refused, in words
    tour.select(other)
    tour.move_selected(None)
    edited = tour.next_round()
    t = tour.tournament()
    assert edited is not None and t is not None and other in edited.byes
    fault, _ = tour.check(edited, t)
    assert fault is not None and fault.key == "tournament.error.size"
    assert "2" in d.t(fault.key, **fault.args)
    assert not tour.start_round()
    assert d.notice is not None and d.notice.error
    # seated again at the short table: playable
    short = next(i for i, tb in enumerate(edited.tables) if len(tb) == 1)
    tour.select(other)
    tour.move_selected(short)
    edited = tour.next_round()
    t = tour.tournament()
    assert edited is not None and t is not None and tour.check(edited, t)[0] is None
    # the server's proposal again
    tour.propose_again()
    assert tour.next_round() == proposed
    assert tour.start_round()


def test_an_abandoned_table_counts_as_the_director_enters_it(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    assert d.club is not None
    tour = set_up(d, ("Anna", "Boris", "Clara", "Dmitri"), "round_robin")
    assert tour.start_round()
    one, two = current_tables(tour)
    finish(store, one.match_id, one.players[0])
    assert d.club.abandon(two.table)
    assert [n.status for n in current_tables(tour)] == ["finished", "abandoned"]
    assert not tour.round_complete() and tour.next_round() is None
    # the director says who won: it counts, with the totals the match stopped at
    assert tour.enter_result(two.table, "win", two.players[1])
    assert [n.status for n in current_tables(tour)] == ["finished", "entered"]
    points = {s.player: s.points for s in tour.standings()}
    assert points[two.players[1]] == 1 and points[two.players[0]] == 0
    assert tour.round_complete() and tour.next_round() is not None
    # or not played: counted for nobody, and the round is complete all the same
    assert tour.enter_result(two.table, "not_played")
    points = {s.player: s.points for s in tour.standings()}
    assert points[two.players[1]] == 0
    assert {s.player: s.played for s in tour.standings()}[two.players[1]] == 0
    assert tour.next_round() is not None
    # a finished table's result is the engine's, not the director's
    assert not tour.enter_result(one.table, "win", one.players[1])


def test_the_tournament_comes_back_after_a_restart(store: Any, tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    night = club_night.start("192.0.2.5", 8550, path=path)
    d = director(store, night)
    tour = set_up(d, ("Anna", "Boris", "Clara", "Dmitri", "Elena"), "swiss", rounds=2)
    assert tour.start_round()
    for n in current_tables(tour):
        finish(store, n.match_id, n.players[1])
    rnd = tour.next_round()
    assert rnd is not None
    tour.select(rnd.tables[0][0])
    tour.select(rnd.tables[1][0])  # an edit, kept too
    before = (tour.tournament(), tour.standings(), tour.next_round())
    assert path.stat().st_mode & 0o777 == 0o600

    again = club_night.start("192.0.2.5", 8551, path=path)
    d2 = director(store, again)
    tour2 = tour_of(d2)
    assert (tour2.tournament(), tour2.standings(), tour2.next_round()) == before
    assert tour2.start_round()
    assert len(again.tables()) == 4
    # a new night starts without it
    assert club_night.start("192.0.2.5", 8551, path=path, new=True).tournament() is None


def test_an_unreadable_kept_tournament_is_said_not_raised(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    night.set_tournament({"format": "knockout"})
    assert tour_of(d).tournament() is None
    assert d.notice is not None and d.notice.key == "tournament.unreadable"


def test_a_table_phone_cannot_reach_the_tournament(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    tour = set_up(d, ("Anna", "Boris", "Clara", "Dmitri"), "round_robin")
    assert tour.start_round()
    number = current_tables(tour)[0].table
    p = AppState(store, lang="en")
    p.club_table = number
    p.store = TableStore(store, night, number, lambda: p.t("club.other_table", n=number))
    assert p.club is None  # the tournament lives on the director's screen only
    p.go("club_tournament")
    assert p.screen == "home"
    assert not p.open_route("/club/tournament")
    for call in (
        lambda: p.store.player_list(),
        lambda: p.store.create_match("two-hand", ["X", "Y"]),
        lambda: p.store.tournament(),
    ):
        with pytest.raises(OutOfScope):
            call()


def test_setup_refusals_are_in_words(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    finish_id = backend.create_match(
        store,
        variant="two-hand",
        players=["Zoe", "Yuri"],
        tracking="melds",
        house_rules=[],
        target=500,
    )
    assert finish_id
    tour = tour_of(d)
    tour.begin_setup()
    assert tour.offered_players() == ["Yuri", "Zoe"]  # the club's players are offered
    assert tour.add_entrant("Zoe") and tour.offered_players() == ["Yuri"]
    assert not tour.add_entrant("zoe ")
    assert tour.setup is not None and tour.setup.error is not None
    assert tour.setup.error.key == "tournament.error.name_twice"
    assert not tour.add_entrant("  ")
    problem = tour.setup_problem()
    assert problem is not None and problem.key == "tournament.error.too_few"
    for name in ("Anna", "Boris", "Clara"):
        tour.add_entrant(name)
    tour.set_format("round_robin")
    tour.set_table_size(3)
    problem = tour.setup_problem()  # four players: no three-hand round robin fits
    assert problem is not None and problem.key == "tournament.error.three_hand_round_robin"
    assert "Swiss" in d.t(problem.key, **problem.args)
    assert not tour.create() and tour.tournament() is None
    tour.remove_entrant("Clara")
    assert tour.setup_problem() is None  # three players: one round at one table
    tour.set_format("swiss")
    tour.set_rounds("zero")
    problem = tour.setup_problem()
    assert problem is not None and problem.key == "tournament.error.rounds"
    tour.set_rounds("2")
    assert tour.variants() and all(
        3 in backend.variant_info(v).player_counts for v in tour.variants()
    )
    assert tour.setup_problem() is None


def test_a_three_hand_swiss_round(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    names = ("Anna", "Boris", "Clara", "Dmitri", "Elena", "Fyodor", "Galina")
    tour = set_up(d, names, "swiss", rounds=2, size=3)
    rnd = tour.next_round()
    assert rnd is not None and [len(t) for t in rnd.tables] == [3, 3] and len(rnd.byes) == 1
    assert tour.start_round()
    for n in current_tables(tour):
        assert store.match_info(n.match_id).variant == "three-hand"
        finish(store, n.match_id, n.players[2])
    table = tour.standings()
    assert sum(s.points for s in table) == 3  # two winners and a bye


def test_a_three_hand_round_robin_of_nine_seats_each_pair_once(
    store: Any, night: ClubNight
) -> None:
    d = director(store, night)
    names = ("Anna", "Boris", "Clara", "Dmitri", "Elena", "Fyodor", "Galina", "Hugo", "Irina")
    tour = set_up(d, names, "round_robin", size=3)
    t = tour.tournament()
    assert t is not None and t.rounds == 4 and t.table_size == 3
    for number in (1, 2, 3, 4):
        rnd = tour.next_round()
        assert rnd is not None and rnd.number == number
        assert [len(table) for table in rnd.tables] == [3, 3, 3] and rnd.byes == ()
        t = tour.tournament()
        assert t is not None and tour.check(rnd, t) == (None, [])  # no pair met before
        assert tour.start_round()
        tables = current_tables(tour)
        assert len(tables) == 3
        for n in tables:
            assert store.match_info(n.match_id).variant == "three-hand"
            assert store.match_info(n.match_id).players == n.players
            finish(store, n.match_id, n.players[0])
    t = tour.tournament()
    assert t is not None and t.over and tour.next_round() is None
    met = Counter(frozenset(p) for r in t.history for table in r.tables for p in pairs(table))
    assert set(met) == {frozenset(p) for p in combinations(names, 2)}
    assert set(met.values()) == {1}
    table = tour.standings()
    assert sum(s.points for s in table) == 12 and all(s.played == 4 for s in table)
    assert len(night.tables()) == 12


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "A round robin of three-hand tables needs 3, 9, 15, 21… players (so that each "
            "pair meets once at a table and everyone plays every round); you have 7. Choose "
            "Swiss, or change the players.",
        ),
        (
            "ru",
            "Для кругового турнира за столами на троих число игроков должно быть из ряда "
            "3, 9, 15, 21… (чтобы каждая пара встретилась за столом один раз и все играли в "
            "каждом туре); сейчас игроков: 7. Выберите швейцарскую систему или измените "
            "состав игроков.",
        ),
    ],
)
def test_seven_players_are_told_which_counts_a_three_hand_round_robin_needs(
    store: Any, night: ClubNight, lang: str, said: str
) -> None:
    d = director(store, night)
    d.set_language(lang)
    tour = tour_of(d)
    tour.begin_setup()
    for name in ("Anna", "Boris", "Clara", "Dmitri", "Elena", "Fyodor", "Galina"):
        assert tour.add_entrant(name)
    tour.set_format("round_robin")
    tour.set_table_size(3)
    problem = tour.setup_problem()
    assert problem is not None and problem.key == "tournament.error.three_hand_round_robin"
    assert d.t(problem.key, **problem.args) == said
    assert not tour.create() and tour.tournament() is None
    assert tour.setup is not None and tour.setup.error == problem
    tour.add_entrant("Hugo")
    tour.add_entrant("Irina")  # nine: the round robin is offered
    assert tour.setup_problem() is None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_screens_show_every_part_translated(store: Any, night: ClubNight, lang: str) -> None:
    from ui_helpers import order, walk

    from ui.views import SCREENS
    from ui.views.common import ViewContext

    def drawn(screen: str) -> tuple[list[str], list[str]]:
        built = SCREENS[screen](ViewContext(app=d, page=None))  # type: ignore[arg-type]
        texts = [str(getattr(x, "value", "")) for x in walk(built.body)]
        untranslated = [t for t in texts if t.startswith(("tournament.", "club."))]
        assert not untranslated
        return order(built.body), texts

    d = director(store, night)
    d.set_language(lang)
    tour = tour_of(d)
    assert d.club is not None
    ids, _ = drawn("club_tournament")
    assert "tournament-new" in ids
    tour.begin_setup()
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        tour.add_entrant(name)
    tour.set_format("round_robin")
    tour.set_table_size(3)
    ids, _ = drawn("club_tournament")
    assert {"tournament-create", "tournament-problem", "tournament-entrant-0"} <= set(ids)
    tour.set_table_size(2)
    assert tour.setup is not None and tour.setup.form is not None
    tour.setup.form.set_target("500")
    assert tour.create()
    ids, texts = drawn("club_tournament")
    assert {"tournament-standings", "tournament-next", "tournament-start"} <= set(ids)
    assert d.t("tournament.tiebreak") in texts
    assert d.t("tournament.scoring_said_wins") in texts
    rnd = tour.next_round()
    assert rnd is not None
    tour.select(rnd.tables[0][0])
    ids, _ = drawn("club_tournament")
    assert {"tournament-picked", "tournament-seat-1", "tournament-to-byes"} <= set(ids)
    tour.move_selected(None)  # a short table: its fault is shown, Start is off
    ids, texts = drawn("club_tournament")
    assert "tournament-fault" in ids and "tournament-propose-again" in ids
    tour.propose_again()
    assert tour.start_round()
    one, two = current_tables(tour)
    assert d.club.abandon(two.table)
    tour.ask_manual(two.table)
    ids, _ = drawn("club_tournament")
    assert {"tournament-current", f"tournament-win-{two.table}-0", "tournament-end"} <= set(ids)
    # the club screen: its tables, and the standings with who plays whom
    ids, texts = drawn("club")
    assert {"club-tournament", "tournament-standings", "tournament-who", "club-table-1"} <= set(ids)
    assert any(one.players[0] in t and one.players[1] in t for t in texts)


def test_a_tables_move_redraws_the_tournament_screen(store: Any, night: ClubNight) -> None:
    from test_ui_table import Hub, declare
    from ui_helpers import a_moment_later, start_deal

    hub = Hub()
    d = director(store, night)
    tour = set_up(d, ("Anna", "Boris", "Clara", "Dmitri"), "round_robin")
    assert tour.start_round()
    tour.open()
    assert d.screen == "club_tournament" and d.route == "/club/tournament"
    first = current_tables(tour)[0]
    hub.join(d, "director")
    p = AppState(store, lang="en")
    p.club_table = first.table
    p.store = TableStore(store, night, first.table, lambda: p.t("club.other_table", n=1))
    hub.join(p, "a phone")
    drawn: list[str] = []
    d.subscribe(lambda: drawn.append(d.screen))
    assert p.open_match(first.match_id) and p.deal is not None
    start_deal(p.deal)
    a_moment_later(p)
    declare(p, 0, "KH QH")
    hub.deliver(p, d)
    assert drawn and drawn[-1] == "club_tournament"


def test_the_app_and_its_screens_import_without_the_clubs_engine() -> None:
    """The phone's image leaves out referee/club/ (scripts/build_phone.py): the app state and
    every screen must import without it; only the director's session, on the server, loads
    the tournament."""
    import subprocess
    import sys

    code = """
import importlib.abc, sys
class NoClub(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "referee.club" or name.startswith(("referee.club.", "openskill")):
            raise ImportError(f"{name} is not on the phone")
        return None
sys.meta_path.insert(0, NoClub())
import ui.state.app, ui.views
from ui.state.app import AppState
assert "club_tournament" in ui.views.SCREENS
assert not [m for m in sys.modules if m.startswith("referee.club")]
print("ok")
"""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_two_directors_tabs_start_a_round_once(store: Any, night: ClubNight) -> None:
    d1 = director(store, night)
    tour = set_up(d1, ("Anna", "Boris", "Clara", "Dmitri"), "round_robin")
    d2 = director(store, night)  # the director's screen in a second tab: its own session
    assert tour.start_round()
    assert not tour_of(d2).start_round()  # round 1 is started and has no result yet
    t = tour_of(d2).tournament()
    assert t is not None and len(t.played) == 1 and len(night.tables()) == 2
