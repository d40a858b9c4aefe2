"""The Flet glue: builds the page from AppState and re-renders on every state change.

Kept thin on purpose: everything worth testing lives in ui/state; this file only maps the
open screen to its view function and applies language, theme and fonts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import itertools
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any

import flet as ft

from ui import (
    backend,
    device_settings,
    first_builds,
    flet_added_controls,
    flet_preload,
    live,
    page_tasks,
    runtime,
    start_marks,
)
from ui.awake import Awake
from ui.i18n import Translator
from ui.state.app import AppState, Role
from ui.state.new_match import FormMemory
from ui.views import SCREENS, live_slot, plain_buttons, screen_failed
from ui.views.cards import LANGUAGE as CARD_LANGUAGE
from ui.views.cards import SUIT_FONT, SUIT_FONT_FILE
from ui.views.common import VIEWPORT_HEIGHT, VIEWPORT_WIDTH, ViewContext, narrow, tagged
from ui.views.screen_key import screen_key
from ui.views.view_cache import cached

log = logging.getLogger(__name__)
SEED = "#2E7D32"


def _theme(dark: bool) -> ft.Theme:
    """Material theme whose every text style falls back to the shipped suit font, so ♠ ♥ ♦ ♣
    inside any sentence (rulings, rule texts) never turns into an empty box. The colour is the
    theme's on-surface colour: a text theme without one would stay black in the dark theme."""
    body = ft.TextStyle(font_family_fallback=[SUIT_FONT], color=ft.Colors.ON_SURFACE)
    plain = ft.TextStyle(font_family_fallback=[SUIT_FONT])
    names = [
        f.name
        for f in dataclasses.fields(ft.TextTheme)
        if f.name.endswith(("large", "medium", "small"))
    ]
    return ft.Theme(
        color_scheme_seed=SEED,
        text_theme=ft.TextTheme(**{n: body for n in names}),
        primary_text_theme=ft.TextTheme(**{n: plain for n in names}),
        visual_density=ft.VisualDensity.COMFORTABLE,
    )


THEME_MODES = {
    "system": ft.ThemeMode.SYSTEM,
    "light": ft.ThemeMode.LIGHT,
    "dark": ft.ThemeMode.DARK,
}


@ft.component
def Root(app: AppState, page: ft.Page) -> list[ft.View]:
    """The whole app as one declarative component: Flet diffs each render against the last,
    so a tap re-sends only what changed and the widgets under the finger stay put."""
    _, bump = ft.use_state(0)

    def on_change() -> None:
        mode = THEME_MODES[app.theme]
        if page.theme_mode != mode:
            page.theme_mode = mode
            page.update()
        bump(lambda v: v + 1)

    ft.use_effect(lambda: app.subscribe(on_change), [])

    def after_render() -> None:
        # Runs once this render's update went out (Flet runs effects after sending it).
        _device_call(page, "flush_shown")  # what this drawing shows, if nothing carried it

    ft.use_effect(after_render)
    VIEWPORT_WIDTH.set(float(page.width) if page.width else None)
    VIEWPORT_HEIGHT.set(float(page.height) if page.height else None)
    CARD_LANGUAGE.set(app.lang)
    ctx = ViewContext(app=app, page=page)
    view = screen_failed.draw(ctx, SCREENS)  # a screen that raises is said, not frozen
    # the device is told what this drawing shows, after it (ui/server/painted.py, issue 22)
    _device_call(page, "mark_shown", app.shown_now())
    appbar = view.appbar
    if app.screen == "deal" and appbar is not None and app.session is not None:
        button = (
            _viewer_button(ctx)
            if app.deal is None  # the same control while it is the same (Flet skips it)
            else cached(app.deal, ("open-viewer", app.lang, narrow()), lambda: _viewer_button(ctx))
        )
        appbar.actions = [button, *(appbar.actions or [])]
    body = live_slot.frame(ctx, view.body)  # the news from other devices: a place of its own
    body.key = screen_key(app)  # each screen opens at its top (ui/views/screen_key.py)
    return [ft.View(route=app.route, appbar=appbar, controls=[body], padding=0, spacing=0)]


def _connection(page: ft.Page) -> Any:
    """The page's websocket connection now (None while it has none)."""
    try:
        return page.session.connection
    except Exception:  # no session (a page being closed)
        return None


def _device_call(page: ft.Page, name: str, *args: Any) -> None:
    """Call the connection's ``name`` where it has one: the table server's connections
    carry what the device's screen shows (ui/server/painted.py); others do not."""
    fn = getattr(_connection(page), name, None)
    if callable(fn):
        fn(*args)


def device_showed(page: ft.Page) -> tuple[int, int] | None:
    """What the device said its screen showed with the frame being handled (None: it does
    not say)."""
    seen = getattr(_connection(page), "seen", None)
    return seen if isinstance(seen, tuple) else None


def _viewer_button(ctx: ViewContext) -> ft.Control:
    """From the deal screen to the screen made for reading across the table."""
    return tagged(
        "open-viewer",
        plain_buttons.icon_button(
            ft.Icons.VISIBILITY,
            lambda _e: ctx.app.show_viewer(),
            tooltip=ctx.t("table.viewer.open"),
            icon_size=26,
            size=44 if narrow() else 48,  # as the deal bar's other icons (ui/views/deal.py)
        ),
        label=ctx.t("table.viewer.open"),
    )


STRIP_SECONDS = 6.0
_DEVICES = itertools.count(1)  # default device names: Device 1, Device 2, … per server


class _Follower:
    """After every change of the app state: the browser's address names the open match (a
    reconnecting device comes back to it), the wake lock follows the open deal, and the live
    strip hides itself after a while."""

    def __init__(self, app: AppState, page: ft.Page, query: str) -> None:
        self.app = app
        self.page = page
        self.query = query
        self.route = page.route
        self.awake = Awake(ft.Wakelock())
        self.strip_serial = 0

    def __call__(self) -> None:
        app, page = self.app, self.page
        route = app.route
        # each only once handed to a connected page (else again on the next change)
        if route != _path(self.route) and page_tasks.run_task(
            page, page.push_route, route + self.query
        ):
            self.route = route
        page_tasks.run_task(page, self.awake.follow, app)
        notice = app.live_notice
        if (
            notice is not None
            and notice.serial != self.strip_serial
            and page_tasks.run_task(page, self._hide_later, notice.serial)
        ):
            self.strip_serial = notice.serial

    async def _hide_later(self, serial: int) -> None:
        await asyncio.sleep(STRIP_SECONDS)
        notice = self.app.live_notice
        if notice is not None and notice.serial == serial and self.app.live_open != serial:
            self.app.live_notice = None
            self.app.changed()

    def route_changed(self, route: str) -> None:
        """The browser went to another address (back button, typed): follow it."""
        self.route = route
        if _path(route) == self.app.route:
            return
        if not self.app.open_route(route):
            self.app.home()


def _path(route: str | None) -> str:
    return (route or "/").split("?", 1)[0] or "/"


def table_role(page: ft.Page) -> Role | None:
    """The role table mode's server gave this session (ui/server/roles.py: the join link's
    secret, checked before the session started): its viewers read, its host and scorers
    write. Without table mode every session on this machine may score (127.0.0.1)."""
    if not runtime.TABLE_MODE_AVAILABLE:
        return "scorer"  # the phone build: no server side of table mode to ask
    try:
        roles = importlib.import_module("ui.server.roles")
    except ModuleNotFoundError as exc:
        if exc.name not in ("ui.server", "ui.server.roles"):
            raise  # broken, not absent: never fall back to letting everyone write
        return "scorer"  # the server side of table mode is not in this build
    role = roles.role_of(page)
    return "viewer" if str(getattr(role, "value", role)) == "viewer" else "scorer"


def joined_as(page: ft.Page) -> Role | None:
    """The role this phone joined table mode's table with (its link's): "scorer" or
    "viewer"; None for the host and where no table server runs."""
    try:
        roles = importlib.import_module("ui.server.roles")
    except ModuleNotFoundError as exc:
        if exc.name not in ("ui.server", "ui.server.roles"):
            raise
        return None
    role = roles.joined_as(page)
    return "viewer" if role == "viewer" else "scorer" if role == "scorer" else None


def device_number(app: AppState, saved: dict[str, str]) -> int:
    """The number the others know an unnamed device by (each says "Device 2" in its own
    language, ui/live.py): the one this device was given before, else the next; phones
    that may score are numbered among themselves (the host's tabs, "The host's screen",
    and the viewers, whose names nobody reads, take none)."""
    if app.join_codes is not None or app.role == "viewer":
        return 0
    kept = saved.get("device_number", "")
    return int(kept) if kept.isdigit() and 0 < int(kept) < 10_000 else next(_DEVICES)


def host_join_codes(page: ft.Page) -> Any:
    """The table's join codes when table mode's server made this session the host (QA P20;
    ui/server/host_codes.py), else None: a phone's session never holds them."""
    if not runtime.TABLE_MODE_AVAILABLE:
        return None
    try:
        codes = importlib.import_module("ui.server.host_codes")
    except ModuleNotFoundError as exc:
        if exc.name not in ("ui.server", "ui.server.host_codes"):
            raise
        return None  # the server side of table mode is not in this build
    return codes.for_page(page)


class _Opener:
    """Opens the database (and warms the engine's data) in a thread as soon as the process
    starts, while Flet's server comes up and the browser loads; every session then shares the
    one Store instead of paying for it on its first paint."""

    def __init__(self, db_url: str | None) -> None:
        self._pool = runtime.executor("bezique-open")
        self._db_url = db_url
        self.progress: Any = None  # how far a salvage at open got (set from the thread)
        self._future: Future[Any] = self._pool.submit(self._open, db_url)

    def _open(self, db_url: str | None) -> Any:
        store = backend.open_store(db_url, progress=self._note)
        runtime.durability.watch(store.engine)
        live.hear_other_processes(store)  # PostgreSQL: the other server processes' writes
        self.progress = None
        if runtime.WARM_UP_AT_OPEN:
            backend.warm_up()
            flet_preload.preload()  # the first screen then imports none of Flet's controls
        return store

    def _note(self, report: Any) -> None:
        self.progress = report  # one attribute store: the page's loop reads the latest

    def store(self) -> Any:
        return self._future.result()

    def retry(self) -> None:
        """Open again (the database was busy: another program held its lock)."""
        self._future = self._pool.submit(self._open, self._db_url)


BUSY_RETRY_SECONDS = 3.0


async def _open_waiting_while_busy(page: ft.Page, opener: _Opener, lang: str) -> Any:
    """The store; while another program holds the database's lock, or the database server
    does not answer, say so and try again (neither is ever treated as damage)."""
    from referee.storage.errors import DatabaseBusyError, DatabaseUnreachableError

    waiting: ft.Text | None = None
    while True:
        try:
            store = await _store_showing_progress(page, opener, lang)
        except (DatabaseBusyError, DatabaseUnreachableError) as exc:
            if waiting is None:
                waiting = ft.Text(size=20, selectable=True)
                page.add(waiting)
            key = "busy" if isinstance(exc, DatabaseBusyError) else "unreachable"
            waiting.value = Translator(lang)(f"storage_safety.{key}", why=str(exc))
            page.update()
            await asyncio.sleep(BUSY_RETRY_SECONDS)
            opener.retry()
            continue
        if waiting is not None:
            page.controls.remove(waiting)
            page.update()
        return store


PROGRESS_POLL_SECONDS = 0.5


async def _store_showing_progress(page: ft.Page, opener: _Opener, lang: str) -> Any:
    """``opener.store()``; while it is slow because a damaged database is being salvaged,
    a line saying how far it got (rows read, then matches rebuilt) instead of a blank page."""
    future = asyncio.get_running_loop().run_in_executor(None, opener.store)
    shown: ft.Container | None = None
    t = Translator(lang)
    try:
        while True:
            done, _ = await asyncio.wait({future}, timeout=PROGRESS_POLL_SECONDS)
            if done:
                return future.result()
            report = getattr(opener, "progress", None)
            if report is None:
                continue
            if shown is None:
                text, bar = ft.Text(size=20), ft.ProgressBar(value=0)
                shown = ft.Container(ft.Column([text, bar], spacing=16), padding=24)
                page.add(shown)
            if report.phase == "read":
                key = "salvage.reading" if report.done < report.total else "salvage.read"
            else:
                key = "salvage.writing" if report.phase == "write" else "salvage.replaying"
            text.value = t(key, done=report.done, total=report.total)
            bar.value = report.done / report.total if report.total else None
            page.update()
    finally:
        if shown is not None:
            page.controls.remove(shown)
            page.update()


def _drop_stale_screen(page: ft.Page) -> None:
    """A device that reconnects after a server restart still shows the screen of its old
    session, whose controls the new session does not have: a tap there is dropped unheard
    ("Control with ID … not found"). Replace it with an empty view at once, before the
    session's first awaits (settings, role, storage), so nothing is tappable until the
    restored screen is drawn by ``render_views``."""
    page.views.clear()
    page.views.append(ft.View(route=page.route or "/", controls=[], padding=0))
    page.update()


def prepare_page(page: ft.Page) -> None:
    """What every session's page starts with: the suit font, the themes, no padding. The web
    server sets them before it answers the session's register message (Flet's
    ``before_main``), so they travel in that answer and the client's first build already has
    the app's theme instead of building Flet's default one and then the app's; ``app_main``
    sets them where no server did (desktop, packaged apps)."""
    page.fonts = {SUIT_FONT: SUIT_FONT_FILE}
    page.theme = _theme(False)
    page.dark_theme = _theme(True)
    page.padding = 0
    page.scroll = None


RoleOf = Callable[[ft.Page], Any]  # returns Role | None, or an awaitable of it


def make_main(
    db_url: str | None = None,
    lang: str | None = None,
    role_of: RoleOf | None = None,
    adapt: Callable[[ft.Page, AppState], None] | None = None,
) -> Callable[[ft.Page], Awaitable[None]]:
    """The Flet ``main`` for one session: picks the language and draws Home on the shared
    storage (opened once per process), or the match its address names.

    ``role_of(page)`` says what the session may do: ``"scorer"``, ``"viewer"`` (reads the
    live match, every write refused in the backend) or None (nothing of the matches is
    shown). It may be a coroutine function. Table mode's secret links plug in here.
    ``adapt(page, app)`` fits a new session's state to what the server gave it before
    anything is shown (a club server: the director's screen, or a table phone's store cut
    to its table, ui/server/club_app.py).
    """
    flet_added_controls.install()  # Flet's diff: new controls' plain values not walked
    opener = _Opener(db_url)
    decide = role_of or table_role

    async def app_main(page: ft.Page) -> None:
        if page.theme is None:  # not prepared by the web server before the session's start
            prepare_page(page)
        if runtime.STALE_SCREEN_POSSIBLE:
            _drop_stale_screen(page)
        settings = device_settings.for_page(page)
        saved = await settings.read()
        start_marks.mark("settings-read")
        chosen = lang or saved.get("lang")
        if chosen is None:
            chosen = await device_settings.system_language(settings)
        start_marks.mark("language-known")
        role = decide(page)
        if asyncio.iscoroutine(role):
            role = await role
        if role not in ("scorer", "viewer"):
            page.title = Translator(chosen)("app.title")
            return  # no valid secret: nothing of the matches, nothing to tap
        try:
            store = await _open_waiting_while_busy(page, opener, chosen)
        except Exception as exc:  # no database: say so instead of a blank page
            log.exception("cannot open the database")
            t = Translator(chosen)
            page.add(ft.Text(t("error.storage", why=str(exc)), size=20, selectable=True))
            return
        app = AppState(store, lang=chosen, role=role)
        app.set_theme(saved.get("theme", "system"))
        app.keep_awake = saved.get("awake", "on") != "off"
        app.join_codes = host_join_codes(page)
        app.joined_as = joined_as(page)
        app.device = saved.get("device", "")
        app.device_number = device_number(app, saved)
        app.on_settings = lambda: page_tasks.run_task(page, _save_settings, settings, app)
        if app.device_number and saved.get("device_number") != str(app.device_number):
            app.on_settings()  # the default name stays this device's after a restart
        app.form_memory = _form_memory(saved.get("form"))
        app.on_remember = lambda memory: page_tasks.run_task(
            page, _save_form_memory, settings, memory
        )
        if store.notice:
            app.store_notice = str(store.notice)
        if adapt is not None:
            adapt(page, app)
        live.connect(app, page)
        app.screen_showed = lambda: device_showed(page)  # writes judged by it (issue 22)

        async def _refresh() -> None:
            app.changed()

        app.notify_from_thread = lambda: page_tasks.run_task(page, _refresh)
        page.title = app.t("app.title")
        page.theme_mode = THEME_MODES[app.theme]
        page.on_resize = lambda _e: app.changed()
        page.on_close = lambda _e: app.close()
        route = page.route or "/"
        follower = _Follower(app, page, "?" + route.split("?", 1)[1] if "?" in route else "")
        app.subscribe(follower)
        page.on_route_change = lambda e: follower.route_changed(e.route)
        async with first_builds.first_build():  # after the live tables' waiting updates
            app.open_route(route)
            if app.club is not None and app.screen == "home":
                app.go("club", remember=False)  # the director's evening opens on its tables
            start_marks.mark("home-state")
            page.render_views(Root, app, page)
            start_marks.mark("home-rendered")
        follower()

    return app_main


async def _save_settings(settings: device_settings.DeviceSettings, app: AppState) -> None:
    """Remember the choices on the device."""
    await settings.write(
        {
            "lang": app.lang,
            "theme": app.theme,
            "device": app.device,
            "device_number": str(app.device_number),
            "awake": "on" if app.keep_awake else "off",
        }
    )


def _form_memory(saved: str | None) -> FormMemory:
    """The new-match form's memory from its saved JSON (empty when missing or damaged)."""
    if not saved:
        return FormMemory()
    try:
        return FormMemory.from_json(json.loads(saved))
    except ValueError:
        return FormMemory()




async def _save_form_memory(
    settings: device_settings.DeviceSettings, memory: FormMemory
) -> None:
    """Remember the players and tracking level on the device for the next match."""
    await settings.write({"form": json.dumps(memory.to_json(), ensure_ascii=False)})
