"""A club night without a browser (issue #24): the director's state over a real store and an
in-memory night, and a table phone's app whose store is cut to its table (ui/club_scope.py),
linked as ui/live.py links sessions."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_table import Hub, declare
from ui_helpers import a_moment_later, start_deal

from referee.cards import Rank, Suit
from ui.club_scope import OutOfScope, TableStore
from ui.server.club_night import ClubNight
from ui.state.app import AppState
from ui.state.club import ClubScreen


def director(store: Any, night: ClubNight) -> AppState:
    app = AppState(store, lang="en")
    app.club = ClubScreen(app, night)
    app.go("club", remember=False)
    return app


def create_table(app: AppState, names: tuple[str, ...], variant: str = "two-hand") -> int:
    """The director's "New table" through the app's own new-match form."""
    assert app.club is not None
    app.club.new_table()
    assert app.screen == "new_match"
    form = app.new_form
    assert form is not None
    form.set_variant(variant)
    form.set_player_count(len(names))
    for seat, name in enumerate(names):
        form.set_name(seat, name)
    assert app.submit_new_match(), form.errors
    assert app.screen == "club"
    assert app.club.links_of is not None
    return app.club.links_of


def phone(store: Any, night: ClubNight, number: int, role: str = "scorer") -> AppState:
    """A phone that joined table ``number`` (as ui/server/club_app.adapt fits it)."""
    app = AppState(store, lang="en", role="viewer" if role == "viewer" else "scorer")
    app.club_table = number
    app.store = TableStore(
        store, night, number, lambda: app.t("club.other_table", n=number), scorer=role == "scorer"
    )
    return app


@pytest.fixture
def night() -> ClubNight:
    return ClubNight(base_url="http://192.0.2.5:8550")


def test_the_director_creates_tables_with_their_own_links(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    assert d.club is not None and d.club.rows() == []
    one = create_table(d, ("Anna", "Boris"))
    two = create_table(d, ("Clara", "Dmitri", "Elena"), "three-hand")
    assert (one, two) == (1, 2)
    rows = d.club.rows()
    assert [r.sides for r in rows] == [("Anna", "Boris"), ("Clara", "Dmitri", "Elena")]
    assert [r.status for r in rows] == ["playing", "playing"]
    assert rows[1].variant == "Three-hand" or "three" in rows[1].variant.lower()
    assert [r.deal for r in rows] == [0, 0] and rows[0].leading is None
    urls = {c.url for n in (1, 2) for c in d.club.codes(n)}
    assert len(urls) == 4 and all(u.startswith("http://192.0.2.5:8550/?k=") for u in urls)
    assert all(c.png.startswith(b"\x89PNG") for c in d.club.codes(1))
    # each secret opens its own table and role, and nothing else
    t1 = night.table(1)
    assert t1 is not None
    assert night.grant_for(t1.scorer) is not None and night.grant_for(t1.scorer).table == 1
    assert night.grant_for(t1.viewer).role.value == "viewer"
    assert night.grant_for(night.director).table is None
    assert night.grant_for("x" * 32) is None and night.grant_for(None) is None


def test_a_table_phone_sees_and_writes_only_its_table(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    create_table(d, ("Clara", "Dmitri"))
    t1, t2 = night.table(1), night.table(2)
    assert t1 is not None and t2 is not None
    p = phone(store, night, 1)
    # Home lists only table 1's match
    assert [s.id for s in p.matches.unfinished()] == [t1.match_id]
    assert [int(i.id) for i in p.store.list_matches()] == [t1.match_id]
    # another table's match: refused in words, at the app and at the store
    assert not p.open_match(t2.match_id)
    assert p.notice is not None and p.notice.key == "club.other_table"
    assert "table 1" in p.t(p.notice.key, **p.notice.args)
    assert not p.open_route(f"/match/{t2.match_id}")
    assert not p.view_match(t2.match_id)
    for call in (
        lambda: p.store.load_match(t2.match_id),
        lambda: p.store.record(t2.match_id, {"type": "declare"}, at=0),
        lambda: p.store.undo(t2.match_id, at=0),
        lambda: p.store.start_deal(t2.match_id, 0, "9H", at=0),
        lambda: p.store.abandon_match(t1.match_id),  # the director's
        lambda: p.store.create_match("two-hand", ["X", "Y"]),
        lambda: p.store.player_stats(),
        lambda: p.store.players(),
        lambda: p.store.export_archive("/tmp/wt-e/never.zip"),
    ):
        with pytest.raises(OutOfScope, match="table 1"):
            call()
    # nor a new match of its own
    p.start_new_match()
    assert p.screen != "new_match" and p.notice is not None
    # its own match opens and records
    assert p.open_match(t1.match_id)
    assert p.deal is not None
    start_deal(p.deal)
    assert p.store.load_match(t1.match_id).deals


def test_the_director_sees_a_tables_write_and_its_phones_hear_nothing_else(
    store: Any, night: ClubNight
) -> None:
    hub = Hub()
    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    create_table(d, ("Clara", "Dmitri"))
    t1, t2 = night.table(1), night.table(2)
    assert t1 is not None and t2 is not None
    hub.join(d, "director")
    p1, p2 = phone(store, night, 1), phone(store, night, 2)
    hub.join(p1, "Anna's phone")
    hub.join(p2, "Clara's phone")
    drawn: list[str] = []
    d.subscribe(lambda: drawn.append(d.screen))
    assert p1.open_match(t1.match_id) and p2.open_match(t2.match_id)
    assert p1.deal is not None
    start_deal(p1.deal)
    a_moment_later(p1)
    declare(p1, 0, "KH QH")  # a marriage in trumps: 40
    hub.deliver(p1, p2, d)
    assert drawn and drawn[-1] == "club"  # the director's list was drawn again
    row = d.club.rows()[0] if d.club else None
    assert row is not None and row.totals == (40, 0) and row.deal == 1
    assert row.leading == "Anna"
    # table 2's phone heard nothing of table 1
    assert p2.live_notice is None


def test_abandon_and_next_match(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    assert d.club is not None
    first = night.table(1)
    assert first is not None
    p = phone(store, night, 1)
    assert p.open_match(first.match_id)
    # still playing: no next match yet
    assert not d.club.next_match(1)
    d.club.ask_abandon(1)
    assert d.club.confirm_abandon == 1
    assert d.club.abandon(1)
    assert d.club.rows()[0].status == "abandoned"
    assert store.match_info(first.match_id).abandoned
    # the table's scorer writes nothing more, and is told why in words
    with pytest.raises(OutOfScope):
        p.store.start_deal(first.match_id, 0, "9H", at=0)
    ds = p.deal
    assert ds is not None
    ds.set_dealer(0)
    ds.set_turn_up_rank(Rank.NINE)
    ds.set_turn_up_suit(Suit.HEARTS)
    assert not ds.start_deal()
    assert ds.notice is not None and ds.notice.key == "club.refused"
    said = p.t(ds.notice.key, **ds.notice.args)
    assert said.startswith("Not allowed: this phone is at table 1") and "stopping" in said
    assert not store.load_match(first.match_id).deals  # storage was never asked
    # the next match: same players, seats moved on; the phone's links follow it
    assert d.club.next_match(1)
    second = night.table(1)
    assert second is not None and second.match_id != first.match_id
    assert d.club.rows()[0].status == "playing" and d.club.rows()[0].played == 2
    assert set(store.match_info(second.match_id).players) == {"Anna", "Boris"}
    assert p.sees(first.match_id) and p.sees(second.match_id)
    assert p.store.unfinished_match() == second.match_id


def test_a_viewer_of_a_table_writes_nothing(store: Any, night: ClubNight) -> None:
    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    t1 = night.table(1)
    assert t1 is not None
    v = phone(store, night, 1, role="viewer")
    with pytest.raises(OutOfScope):
        v.store.start_deal(t1.match_id, 0, "9H", at=0)
    assert v.open_match(t1.match_id) and v.screen == "viewer"


def test_the_night_is_kept_for_the_user_only_and_comes_back(tmp_path: Any) -> None:
    from ui.server import club_night

    path = tmp_path / "club.json"
    night = club_night.start("192.0.2.5", 8550, path=path)
    night.add_table(7)
    assert path.stat().st_mode & 0o777 == 0o600
    again = club_night.start("192.0.2.5", 8551, path=path)
    assert again.director == night.director
    assert [(t.number, t.matches, t.scorer) for t in again.tables()] == [
        (1, (7,), night.tables()[0].scorer)
    ]
    assert again.join_url(1, "scorer").startswith("http://192.0.2.5:8551/?k=")
    fresh = club_night.start("192.0.2.5", 8551, path=path, new=True)
    assert fresh.director != night.director and fresh.tables() == []


def test_only_the_director_reaches_the_directors_screen(store: Any) -> None:
    app = AppState(store, lang="en")
    app.go("club")
    assert app.screen == "home"
    assert not app.open_route("/club")


def test_a_phone_counts_only_the_devices_of_its_own_table(store: Any, night: ClubNight) -> None:
    hub = Hub()
    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    create_table(d, ("Clara", "Dmitri"))
    a, b, c = phone(store, night, 1), phone(store, night, 1), phone(store, night, 2)
    for app, name in ((d, "director"), (a, "a"), (b, "b"), (c, "c")):
        hub.join(app, name)
    assert (a.others_at_table, b.others_at_table, c.others_at_table) == (1, 1, 0)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_screens_offer_each_side_only_its_own_actions(
    store: Any, night: ClubNight, lang: str
) -> None:
    from ui_helpers import order, walk

    from ui.views import SCREENS
    from ui.views.common import ViewContext

    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    d.set_language(lang)
    assert d.club is not None
    d.club.ask_abandon(1)
    built = SCREENS["club"](ViewContext(app=d, page=None))  # type: ignore[arg-type]
    ids = order(built.body)
    assert {"club-new-table", "club-table-1", "club-links", "club-code-scorer"} <= set(ids)
    assert "club-abandon-yes-1" in ids
    texts = [str(getattr(x, "value", "")) for x in walk(built.body)]
    assert not [t for t in texts if t.startswith("club.")]  # every text is translated
    # a table phone's Home: its match, no new match, no statistics, no abandon
    t1 = night.table(1)
    assert t1 is not None
    p = phone(store, night, 1)
    p.set_language(lang)
    home = order(SCREENS["home"](ViewContext(app=p, page=None)).body)  # type: ignore[arg-type]
    assert "resume" in home and "history" in home
    assert not {"new-match", "stats", f"abandon-{t1.match_id}", "open-club"} & set(home)
    history = order(SCREENS["history"](ViewContext(app=p, page=None)).body)  # type: ignore[arg-type]
    assert "import" not in history


def test_a_declaration_after_the_director_stopped_the_table_is_refused_in_words(
    store: Any, night: ClubNight
) -> None:
    hub = Hub()
    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    t1 = night.table(1)
    assert t1 is not None and d.club is not None
    p = phone(store, night, 1)
    hub.join(p, "Anna's phone")
    assert p.open_match(t1.match_id) and p.deal is not None
    start_deal(p.deal)
    a_moment_later(p)
    assert d.club.abandon(1)
    declare(p, 0, "KH QH")  # shown at once, refused by the writer
    hub.deliver(p)
    assert p.deal.notice is not None and p.deal.notice.key == "club.refused"
    assert p.deal.totals() == [0, 0]  # the screen shows storage's match again
    assert not [e for d_ in store.load_match(t1.match_id).deals for e in d_.events]


def test_the_directors_changes_on_another_worker_reach_this_workers_phones(
    store: Any, tmp_path: Any
) -> None:
    """``--workers``: the director's worker writes the night's file, then its NOTIFY says
    which table and what; this worker's phones of that table follow the next match or are
    told the table stopped, its director's screen is drawn again, other tables hear
    nothing (ui/live.py ``heard_elsewhere`` → ``night_changed``)."""

    from referee.storage.change_feed import NIGHT, Change
    from ui import live
    from ui.server import club_night

    path = tmp_path / "club.json"
    there = club_night.start("192.0.2.5", 8550, path=path)  # the director's worker
    here = club_night.start("192.0.2.5", 8550, path=path, join=True)  # this worker's copy
    one = there.add_table(store.create_match("two-hand", ["Anna", "Boris"]))
    two = there.add_table(store.create_match("two-hand", ["Clara", "Dmitri"]))
    hub = Hub()
    viewer, scorer, other = (
        phone(store, here, 1, "viewer"),
        phone(store, here, 1),
        phone(store, here, 2),
    )
    boss = director(store, here)
    drawn: list[str] = []
    boss.subscribe(lambda: drawn.append("drawn"))
    for app, name in ((viewer, "v"), (scorer, "s"), (other, "o"), (boss, "d")):
        hub.join(app, name)
    assert scorer.open_match(one.match_id)

    def heard(table: Any, what: str) -> None:
        change = Change(
            table.match_id, 0, NIGHT, "another-worker", news={"table": table.number, "what": what}
        )
        live.heard_elsewhere(store, change, hub.company)
        hub.deliver()

    there.abandon(1)
    heard(there.table(1), "abandon")
    assert scorer.deal is not None and scorer.deal.notice is not None
    assert scorer.t(scorer.deal.notice.key, **scorer.deal.notice.args).startswith(
        "The director stopped table 1"
    )
    assert other.notice is None and drawn
    # the next match: the viewer with nothing to watch opens it; told twice (storage's
    # "new" and the night's "next"), it is said once
    new_id = store.create_match("two-hand", ["Boris", "Anna"])
    there.next_match(1, new_id)
    heard(there.table(1), "next")
    storage_new = Change(new_id, 0, "new", "another-worker")
    live.heard_elsewhere(store, storage_new, hub.company)
    hub.deliver()
    assert viewer.session is not None and viewer.session.match_id == new_id
    assert viewer.live_notice is not None and viewer.live_notice.serial == 1
    assert other.session is None and not other.sees(new_id)
    assert here.writable(1) == new_id and here.writable(2) == two.match_id


def test_a_move_at_one_table_replays_only_that_tables_match(
    store: Any, night: ClubNight, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The director's list is drawn after every move at any table: it replays the match of
    the table that moved (and one abandoned), not the whole night's."""
    from ui import backend

    d = director(store, night)
    for names in (("Anna", "Boris"), ("Clara", "Dmitri"), ("Elena", "Fyodor")):
        create_table(d, names)
    assert d.club is not None
    replayed: list[int] = []
    summarize = backend.summarize

    def counted(s: Any, match_id: int) -> Any:
        replayed.append(match_id)
        return summarize(s, match_id)

    monkeypatch.setattr(backend, "summarize", counted)
    d.club.rows()
    replayed.clear()
    assert [r.totals for r in d.club.rows()] == [(0, 0)] * 3
    assert replayed == []  # nothing moved: nothing replayed
    t1 = night.table(1)
    assert t1 is not None
    p1 = phone(store, night, 1)
    assert p1.open_match(t1.match_id) and p1.deal is not None
    start_deal(p1.deal)
    a_moment_later(p1)
    declare(p1, 0, "KH QH")
    assert p1.session is not None
    p1.session.flush()  # the write is in storage
    rows = d.club.rows()
    assert replayed == [t1.match_id]
    assert rows[0].totals == (40, 0) and rows[1].totals == rows[2].totals == (0, 0)
    replayed.clear()
    p1.deal.undo()
    p1.session.flush()
    assert d.club.rows()[0].totals == (0, 0) and replayed == [t1.match_id]
    replayed.clear()
    assert d.club.abandon(3)
    t3 = night.table(3)
    assert t3 is not None
    assert d.club.rows()[2].status == "abandoned" and replayed == [t3.match_id]


def test_the_directors_list_rebuilds_only_the_card_of_a_table_that_moved(
    store: Any, night: ClubNight
) -> None:
    """The same card objects come back while their tables stand still (Flet's diff skips an
    identical object); a table's move, its links and the language each build new ones."""
    from ui_helpers import find

    from ui.views import SCREENS
    from ui.views.common import ViewContext

    d = director(store, night)
    create_table(d, ("Anna", "Boris"))
    create_table(d, ("Clara", "Dmitri"))
    assert d.club is not None
    d.club.show_links(2)  # links hidden
    view = SCREENS["club"]

    def cards() -> list[Any]:
        body = view(ViewContext(app=d, page=None)).body  # type: ignore[arg-type]
        return [find(body, "club-table-1"), find(body, "club-table-2")]

    first = cards()
    assert None not in first
    assert all(a is b for a, b in zip(cards(), first, strict=True))
    t1 = night.table(1)
    assert t1 is not None
    p1 = phone(store, night, 1)
    assert p1.open_match(t1.match_id) and p1.deal is not None
    start_deal(p1.deal)
    assert p1.session is not None
    p1.session.flush()
    moved = cards()
    assert moved[0] is not first[0] and moved[1] is first[1]
    d.club.show_links(1)
    shown = cards()
    assert shown[0] is not moved[0] and shown[1] is moved[1]
    d.set_language("ru")
    assert all(a is not b for a, b in zip(cards(), shown, strict=True))
