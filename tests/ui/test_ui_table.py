"""Table mode without a browser: several app sessions on one store, linked as ui/live.py links
them (a hub stands in for Flet's pubsub and the page's event loop: deliveries wait until the
test lets them through, as they wait for the loop in the app)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from ui_helpers import a_moment_later, new_match, start_deal

from referee.cards import Card, Rank, Suit, parse_card
from ui import awake, backend
from ui.live import Company, LiveNotice, Move, TableLink
from ui.state.app import AppState
from ui.state.viewer import reading


class Hub:
    """Moves and scheduled calls queue up here; ``deliver`` runs them (the event loop)."""

    def __init__(self) -> None:
        self.links: list[TableLink] = []
        self.company = Company()  # every device joined here is at the same table
        self.pending: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self.lock = threading.Lock()

    def join(self, app: AppState, device: str) -> TableLink:
        app.device = device
        link = TableLink(app, lambda move: self.publish(link, move))
        link.schedule = lambda fn, *args: self.later(fn, *args)  # type: ignore[method-assign]
        self.company.join(link)
        self.links.append(link)
        return link

    def later(self, fn: Callable[..., None], *args: Any) -> None:
        with self.lock:
            self.pending.append((fn, args))

    def publish(self, sender: TableLink, move: Move) -> None:
        for link in self.links:
            if link is not sender:
                self.later(link.arrive, move)

    def deliver(self, *apps: AppState) -> None:
        for app in apps:
            if app.session is not None:
                with contextlib.suppress(backend.WriteFailed):  # told through ``refused``
                    app.session.flush()
        while True:
            with self.lock:
                if not self.pending:
                    return
                fn, args = self.pending.pop(0)
            fn(*args)


def C(code: str) -> Card:
    return parse_card(code)


def declare(app: AppState, seat: int, cards: str) -> Any:
    ds = app.deal
    assert ds is not None
    ds.open_picker(seat)
    for code in cards.split():
        ds.add_new(C(code))
    return ds.declare(None)


def shown(app: AppState) -> tuple[list[int], list[int]]:
    assert app.deal is not None
    return app.deal.deal_scores(), app.deal.totals()


def stored(store: Any, mid: int) -> tuple[list[int], list[int]]:
    m = store.load_match(mid)
    return list(m.current.scores()), list(m.totals())


@pytest.fixture
def table(store: Any) -> tuple[Hub, AppState, AppState, AppState, int]:
    """Anna's phone creates the match and starts the deal; Boris's phone and a viewer join
    it by its address."""
    hub = Hub()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="en")
    hub.join(boris, "Boris's phone")
    assert boris.open_route(f"/match/{mid}")
    viewer = AppState(store, lang="ru")
    hub.join(viewer, "Телефон Веры")
    assert viewer.open_route(f"/view/{mid}")
    hub.deliver(anna, boris, viewer)
    return hub, anna, boris, viewer, mid


def test_what_one_device_records_every_other_shows_and_says_who(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    hub, anna, boris, viewer, mid = table
    assert declare(anna, 1, "KS KH KD KC") is not None  # four kings for Boris
    hub.deliver(anna, boris, viewer)
    assert shown(boris) == shown(anna) == stored(store, mid)
    assert viewer.session is not None
    assert [s.total for s in reading(viewer.session.match, "ru").sides] == stored(store, mid)[1]
    assert isinstance(boris.live_notice, LiveNotice)
    text = boris.live_notice.text(boris.t, "en")
    assert "Anna's phone recorded" in text and "four kings" in text
    assert "R-DECLARE" not in text  # the strip leaves the rule id to the screen
    assert viewer.live_notice is not None
    assert "четыре короля" in viewer.live_notice.text(viewer.t, "ru")
    assert anna.live_notice is None  # nobody tells a device what it did itself


def test_a_write_on_a_stale_view_is_refused_and_the_device_told(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    hub, anna, boris, _viewer, mid = table
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})  # elsewhere
    before = store.log_position(mid)
    assert declare(boris, 0, "KS QS") is not None  # on the view without the penalty
    hub.deliver(boris)
    assert store.log_position(mid) == before  # nothing stored
    assert boris.deal is not None and boris.deal.notice is not None
    assert boris.deal.notice.key == "table_words.stale"  # naming the entry (QA P18)
    said = boris.t(boris.deal.notice.key, **boris.deal.notice.args)
    assert "another device changed the match first" in said.lower() and "marriage" in said
    assert boris.deal.ruling is None  # the refused entry's ruling is not left on screen
    assert boris.deal.toast.current is None and not boris.deal.toast.recent
    assert shown(boris) == stored(store, mid)
    # re-recorded on the current view, it lands
    assert declare(boris, 0, "KS QS") is not None
    hub.deliver(anna, boris)
    assert store.log_position(mid) == before + 1
    assert shown(anna) == shown(boris) == stored(store, mid)


def test_two_scorers_at_the_same_moment_one_lands_the_other_is_refused(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    """Both tap on the same view before either write reached storage: one order, one
    refusal with a message, and in the end every screen equal to storage."""
    hub, anna, boris, viewer, mid = table
    before = store.log_position(mid)
    assert declare(anna, 0, "KS QS") is not None
    assert declare(boris, 1, "KH QH") is not None
    hub.deliver(anna, boris, viewer)
    assert store.log_position(mid) == before + 1
    notices = [a.deal.notice.key for a in (anna, boris) if a.deal and a.deal.notice]
    assert notices == ["table_words.stale"]  # naming the entry not recorded (QA P18)
    assert shown(anna) == shown(boris) == stored(store, mid)
    assert viewer.session is not None and viewer.session.position == before + 1


def test_an_undo_takes_the_matchs_last_entry_back_on_every_screen(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    hub, anna, boris, viewer, mid = table
    declare(anna, 1, "KS KH KD KC")
    hub.deliver(anna, boris, viewer)
    assert boris.deal is not None
    a_moment_later(boris)  # Boris's screen has drawn Anna's entry (issue 22)
    assert boris.deal.undo()  # Boris undoes Anna's entry
    hub.deliver(anna, boris, viewer)
    assert stored(store, mid) == ([0, 0], [0, 0])
    assert shown(anna) == shown(boris) == stored(store, mid)
    named = "undid: Boris declares four kings"  # the entry undone, named (QA P18)
    for app, words in ((anna, named), (boris, "undid"), (viewer, "отмен")):
        assert app.live_notice is not None
        assert words in app.live_notice.text(app.t, app.lang)
    assert anna.live_notice is not None
    assert "Boris's phone" in anna.live_notice.text(anna.t, "en")
    assert boris.live_notice is not None  # his own undo is his, not "Boris's phone undid"
    assert boris.live_notice.text(boris.t, "en").startswith("You undid: Boris declares")


def test_an_undo_on_a_stale_view_never_removes_an_entry_it_has_not_shown(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    _hub, _anna, boris, _viewer, mid = table
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})
    before = store.log_position(mid)
    assert boris.deal is not None
    assert not boris.deal.undo()
    assert boris.deal.notice is not None and boris.deal.notice.key == "table.stale"
    assert store.log_position(mid) == before
    assert shown(boris) == stored(store, mid)  # now it shows the penalty: undo is informed


def test_a_viewer_cannot_write_whatever_it_calls(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    _hub, _anna, _boris, viewer, mid = table
    assert viewer.screen == "viewer" and viewer.role == "viewer"
    before = store.log_position(mid)
    ds = viewer.deal
    assert ds is not None
    assert declare(viewer, 0, "KS QS") is None
    assert ds.notice is not None and ds.notice.key == "table.viewer_cannot_write"
    assert ds.seven(0) is None and ds.penalty(0, "P-REVOKE") is None
    assert not ds.undo() and not ds.redo()
    session = viewer.session
    assert session is not None
    with pytest.raises(backend.ReadOnly):
        session.record(ds.match.current.log[0][0] if ds.match.current.log else None)
    with pytest.raises(backend.ReadOnly):
        session.start_deal(0, Card(Rank.NINE, Suit.SPADES))
    viewer.go("deal")
    assert viewer.screen == "viewer"  # the deal screen is for scorers
    viewer.start_new_match()
    assert viewer.new_form is not None
    viewer.new_form.set_name(0, "Eve")
    viewer.new_form.set_name(1, "Mallory")
    assert not viewer.submit_new_match()
    assert store.log_position(mid) == before
    assert len(store.list_matches()) == 1


def test_the_address_names_the_match_and_brings_a_device_back_to_it(
    app: AppState, store: Any
) -> None:
    start_deal(new_match(app))
    assert app.session is not None
    mid = app.session.match_id
    assert app.route == f"/match/{mid}"
    app.show_viewer()
    assert app.route == f"/view/{mid}"
    app.home()
    assert app.route == "/"
    again = AppState(store, lang="en")  # the same device after a server restart
    assert again.open_route(f"/match/{mid}?secret=abc")
    assert again.screen == "deal" and again.role == "scorer"
    missing = AppState(store, lang="en")
    assert not missing.open_route("/match/9999")
    assert missing.screen == "home" and missing.notice is not None
    assert missing.t(missing.notice.key, **missing.notice.args).startswith("Match 9999")
    for junk in ("/", "/match/", "/match/x", "/view/1/2", "/other/1"):
        assert not AppState(store).open_route(junk)


def test_a_route_can_take_rights_away_but_never_give_them(store: Any) -> None:
    app = AppState(store, lang="en")
    start_deal(new_match(app))
    assert app.session is not None
    mid = app.session.match_id
    viewer = AppState(store, lang="en", role="viewer")
    assert viewer.open_route(f"/match/{mid}")
    assert viewer.role == "viewer" and viewer.screen == "viewer"
    assert viewer.session is not None and viewer.session.read_only


def test_the_screen_stays_on_while_a_deal_is_open_and_the_switch_is_on(app: AppState) -> None:
    assert not awake.wanted(app)  # Home
    ds = new_match(app)
    assert not awake.wanted(app)  # setup: no deal open yet
    start_deal(ds)
    assert awake.wanted(app)
    app.set_keep_awake(False)
    assert not awake.wanted(app)
    app.set_keep_awake(True)
    app.home()
    assert not awake.wanted(app)


def test_the_wake_lock_is_switched_only_when_it_changes(app: AppState) -> None:
    import asyncio

    calls: list[str] = []

    class Service:
        async def enable(self) -> None:
            calls.append("on")

        async def disable(self) -> None:
            calls.append("off")

    lock = awake.Awake(Service())
    start_deal(new_match(app))

    async def run() -> None:
        await lock.follow(app)
        await lock.follow(app)
        app.home()
        await lock.follow(app)

    worker = threading.Thread(target=lambda: asyncio.run(run()))  # a loop of its own
    worker.start()
    worker.join(timeout=10)
    assert calls == ["on", "off"]


def test_a_device_name_is_kept_tidy(app: AppState) -> None:
    app.device = "Device 1"
    app.set_device("   Boris's    phone ")
    assert app.device == "Boris's phone"
    app.set_device("   ")
    assert app.device == "Boris's phone"
    app.set_device("x" * 100)
    assert len(app.device) == 40


def test_the_next_entry_is_applied_without_a_replay_and_equals_storage(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    """A move that is the very next entry is applied to the other session's match by the
    engine (no reload); a rejected entry and a missed move (a gap) end equal to storage too."""
    hub, anna, boris, viewer, mid = table
    assert boris.session is not None
    kept = boris.session.match
    declare(anna, 1, "QS JD")  # bezique
    hub.deliver(anna, boris, viewer)
    assert boris.session.match is kept  # caught up in place
    declare(anna, 1, "KS")  # a lone K♠ is no combination: rejected, and stored all the same
    assert anna.deal is not None and anna.deal.ruling is not None
    assert not anna.deal.ruling.accepted
    hub.deliver(anna, boris, viewer)
    fresh = store.load_match(mid)
    for app in (boris, viewer):
        assert app.session is not None
        assert app.session.position == store.log_position(mid)
        assert len(app.session.match.current.log) == len(fresh.current.log)
        assert app.session.match.result().sides == fresh.result().sides
    # a move that never arrived: the next one finds a gap and reloads from storage
    declare(anna, 0, "KH QH")
    assert anna.session is not None
    anna.session.flush()
    hub.pending.clear()
    declare(anna, 0, "KC QC")
    hub.deliver(anna, boris)
    assert boris.session.match is not kept
    assert shown(boris) == stored(store, mid)
    assert boris.session.position == store.log_position(mid)


def test_a_correction_is_shown_everywhere_and_refused_on_a_stale_view_or_to_a_viewer(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    hub, anna, boris, viewer, mid = table
    declare(anna, 1, "KS KH KD KC")  # four kings, but they were Anna's
    hub.deliver(anna, boris, viewer)
    seq = store.event_seqs(mid)[0][0]
    corrected = {"type": "declare", "player": "Anna", "new": ["KS", "KH", "KD", "KC"]}
    assert viewer.session is not None and anna.session is not None
    with pytest.raises(backend.ReadOnly):
        viewer.session.correct(seq, corrected)
    store.record(mid, {"type": "penalty", "player": "Boris", "offence": "P-REVOKE"})  # elsewhere
    before = store.log_position(mid)
    with pytest.raises(backend.Stale):
        anna.session.correct(seq, corrected)
    assert store.log_position(mid) == before
    anna.session.correct(seq, corrected)  # now on the current view
    hub.deliver(anna, boris, viewer)
    assert shown(anna) == shown(boris) == stored(store, mid)
    assert stored(store, mid)[0][0] > 0  # the kings count for Anna now
    assert boris.live_notice is not None
    assert "corrected an earlier entry" in boris.live_notice.text(boris.t, "en")


def test_the_servers_viewer_role_makes_a_viewer_and_its_other_roles_scorers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The shell reads the role table mode's server put on the session (ui/server/roles)."""
    import sys
    import types

    from ui import shell

    given: dict[str, str] = {}
    fake = types.ModuleType("ui.server.roles")
    fake.role_of = lambda page: given["role"]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ui.server.roles", fake)
    for role, expected in (("viewer", "viewer"), ("scorer", "scorer"), ("host", "scorer")):
        given["role"] = role
        assert shell.table_role(object()) == expected  # type: ignore[arg-type]


def test_a_viewer_abandons_restores_rematches_and_imports_nothing(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    _hub, _anna, _boris, viewer, mid = table
    before = (store.log_position(mid), len(store.list_matches()))
    keeping = viewer.matches
    assert not keeping.abandon(mid)
    assert not keeping.restore(mid)
    assert not keeping.rematch(mid, rotate=True)
    assert keeping.import_file("m.json", b"{}") is None
    assert viewer.notice is not None and viewer.notice.key == "table.viewer_cannot_write"
    assert (store.log_position(mid), len(store.list_matches())) == before
    assert store.unfinished_match() == mid  # not set aside


def test_the_viewers_last_ruling_is_words_without_the_rule_id(app: AppState) -> None:
    """Read across the table: "Boris declares bezique (Q♠ J♦): 40", not "… — C-BEZIQUE"."""
    ds = new_match(app)
    start_deal(ds)
    ds.open_picker(1)
    for code in ("QS", "JD"):
        ds.add_new(parse_card(code))
    ds.declare("bezique")
    assert app.session is not None
    last = reading(app.session.match, "en").last_ruling
    assert last is not None and "bezique" in last
    assert "C-BEZIQUE" not in last and "R-" not in last


@pytest.mark.parametrize(("lang", "said"), [("en", "Undone: "), ("ru", "Отменено: ")])
def test_a_lone_devices_own_undo_names_no_device(store: Any, lang: str, said: str) -> None:
    """One phone is not a table: its own Undo is not announced as "Device 1 undid …"."""
    hub = Hub()
    alone = AppState(store, lang=lang)
    hub.join(alone, "Device 1")
    start_deal(new_match(alone))
    assert alone.others_at_table == 0
    declare(alone, 1, "KS KH KD KC")
    hub.deliver(alone)
    a_moment_later(alone)
    assert alone.deal is not None and alone.deal.undo()
    hub.deliver(alone)
    assert alone.live_notice is not None
    text = alone.live_notice.text(alone.t, lang)
    assert text.startswith(said) and "Device 1" not in text


def test_a_device_is_at_a_table_only_while_another_is_connected(store: Any) -> None:
    hub = Hub()
    anna, boris = AppState(store, lang="en"), AppState(store, lang="en")
    anna_link = hub.join(anna, "Anna's phone")
    assert anna.others_at_table == 0
    boris_link = hub.join(boris, "Boris's phone")
    hub.deliver()
    assert anna.others_at_table == boris.others_at_table == 1
    hub.company.leave(boris_link)  # Boris closed his tab
    hub.deliver()
    assert anna.others_at_table == 0 and boris.others_at_table == 0
    hub.company.join(boris_link)  # and came back
    hub.company.leave(anna_link)
    assert anna.others_at_table == boris.others_at_table == 0
    boris.on_leave = lambda: hub.company.leave(boris_link)
    hub.company.join(anna_link)
    assert anna.others_at_table == 1
    boris.close()  # the session expired: it leaves the table too
    assert anna.others_at_table == 0
