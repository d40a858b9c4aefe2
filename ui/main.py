"""Start the table app: a desktop window where Flet can open one, else the browser app.

python -m ui.main            # desktop window (or the web server on a headless machine)
python -m ui.main --web      # web server on 127.0.0.1, open the printed address
python -m ui.main --table    # also on the local network, for phones with the printed links
python -m ui.main --club --club-address ADDR   # a club night: a director, many tables
python -m ui.main --club --workers 2 --db postgresql+psycopg://…   # on two worker processes
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

WILDCARD_HOSTS = ("0.0.0.0", "::", "", "*")
ASSETS_DIR = str(Path(__file__).resolve().parent / "assets")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (a packaged app gets none, so every option has a default)."""
    p = argparse.ArgumentParser(prog="bezique-app", description="Bezique Referee table app")
    p.add_argument("--web", action="store_true", help="serve the app to a browser")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8550, help="port for --web (default 8550)")
    p.add_argument(
        "--table",
        action="store_true",
        help="table mode: serve on this machine's local network address too, for phones that "
        "join with a secret link (printed with QR codes)",
    )
    p.add_argument(
        "--table-address",
        default=None,
        help="the local network address for --table (asked for when the machine has several)",
    )
    p.add_argument(
        "--new-table",
        action="store_true",
        help="with --table: new links even if the last table session is still open",
    )
    p.add_argument(
        "--join-table",
        action="store_true",
        help="with --table, on another --port and the same PostgreSQL --db: one more server "
        "process of the table already running (its links, kept in BEZIQUE_TABLE_STATE)",
    )
    p.add_argument(
        "--club",
        action="store_true",
        help="a club night on one server: the director (this machine, or the printed link) "
        "creates tables, each with its own scorer and viewer links",
    )
    p.add_argument(
        "--club-address",
        default=None,
        help="with --club: the local network address the tables' phones use ('auto': read "
        "from the interfaces); without it the club is served on 127.0.0.1 only",
    )
    p.add_argument(
        "--new-club",
        action="store_true",
        help="with --club: a new night (new links for the director and every table)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="with --club: this many server processes behind the one address (PostgreSQL "
        "--db only; default 1)",
    )
    p.add_argument("--db", default=None, help="database URL (default: the embedded SQLite file)")
    p.add_argument(
        "--lang", choices=["en", "ru"], default=None, help="UI language (default: the system's)"
    )
    args = p.parse_args(argv)
    if args.host in WILDCARD_HOSTS:
        p.error(f"--host {args.host!r} would answer on every network: name one address")
    if args.table_address and not args.table:
        p.error("--table-address goes with --table")
    if args.join_table and (not args.table or args.new_table):
        p.error("--join-table goes with --table, and not with --new-table")
    if args.club and args.table:
        p.error("--club and --table are two different servers: choose one")
    if (args.club_address or args.new_club) and not args.club:
        p.error("--club-address and --new-club go with --club")
    if args.club_address in (*WILDCARD_HOSTS, args.host):
        p.error("--club-address must name one network address, not --host's")
    if args.table_address in (*WILDCARD_HOSTS, args.host):
        p.error("--table-address must name one network address, not --host's")
    if args.workers < 1:
        p.error("--workers counts server processes: 1 or more")
    if args.workers > 1 and not args.club:
        p.error("--workers goes with --club")
    if args.workers > 1 and not _is_postgresql(args.db):
        p.error(
            "--workers needs a PostgreSQL database (--db postgresql+psycopg://…): the SQLite "
            "file is written by one process at a time and tells no other process of a write; "
            "a club night on SQLite runs as one process (leave --workers out)"
        )
    return args


def _is_postgresql(db: str | None) -> bool:
    """Whether ``db`` names a PostgreSQL database (None: the embedded SQLite file)."""
    if not db:
        return False
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(db).get_backend_name() == "postgresql"
    except ArgumentError:
        return False


def _desktop_possible() -> bool:
    """A window needs a display: on a headless Linux box serve the web app instead (Flet would
    otherwise fetch the desktop client from the internet and still have nowhere to show it)."""
    if os.environ.get("FLET_FORCE_WEB_SERVER"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def serve_web(
    app_main: Callable[[Any], Any],
    *,
    host: str,
    port: int,
    table_address: str | None = None,
    new_table: bool = False,
    join_table: bool = False,
    lang: str | None = None,
    club: bool = False,
    club_address: str | None = None,
    new_club: bool = False,
) -> None:
    """The browser app on ``host``:``port`` through this project's server (ui/server): it
    answers only requests addressed to it, and serves the web client compressed. With
    ``table_address`` (table mode) it also listens there, for devices with a join link."""
    from ui.server import precompress
    from ui.server.asgi import build_app
    from ui.server.serve import bind_sockets, serve
    from ui.shell import prepare_page
    from ui.views.cards import SUIT_FONT_FILE

    if club:
        table_address = club_address  # the tables' phones' address, if any
    binds = [host] if table_address is None else [host, table_address]
    sockets = bind_sockets(binds, port)
    port = int(sockets[0].getsockname()[1])
    allowed = _allowed(host, binds, port)
    if club:
        app = _club_app(app_main, allowed, port, club_address, new_club, lang)
    elif table_address is None:
        app = build_app(
            app_main,
            allowed=allowed,
            assets_dir=ASSETS_DIR,
            app_fonts=[SUIT_FONT_FILE],
            prepare_page=prepare_page,
        )
        print(f"Bezique Referee: http://{host}:{port}/", flush=True)
    else:
        from ui.server import roles, table_mode
        from ui.server.table import TableGate

        try:
            session = table_mode.start(table_address, port, new=new_table, join=join_table)
        except table_mode.NoTableToJoin as exc:
            for sock in sockets:
                sock.close()
            print(f"bezique-app: {exc}", file=sys.stderr)
            raise SystemExit(2) from exc
        refusal = table_mode.refusal_page()
        links = table_mode.links_page(session, lang or "en")
        by_lang = {code: table_mode.links_page(session, code) for code in ("en", "ru")}
        app = build_app(
            app_main,
            allowed=allowed,
            assets_dir=ASSETS_DIR,
            session_hook=roles.bind,
            gate=lambda inner: TableGate(
                inner,
                session.access,
                table_address,
                refusal,
                links,
                links_pages=by_lang,
                accept_language=lang is None,  # --lang: the server's language, unless asked
            ),
            app_fonts=[SUIT_FONT_FILE],
            prepare_page=prepare_page,
        )
        print(table_mode.terminal_text(session, lang or "en"), flush=True)
    precompress.start_background()
    serve(app, sockets)


def _allowed(host: str, binds: list[str], port: int) -> Any:
    """The Host and Origin values the server answers: its own addresses on its port."""
    from ui.server.host_guard import LOOPBACK_NAMES, AllowedAddresses

    names = [*LOOPBACK_NAMES] if host in LOOPBACK_NAMES else [host]
    return AllowedAddresses.for_server([*names, *binds[1:]], port)


def _club_app(
    app_main: Callable[[Any], Any],
    allowed: Any,
    port: int,
    club_address: str | None,
    new_club: bool,
    lang: str | None,
    *,
    night: Any = None,
) -> Any:
    """The club server's app: table mode's server with the club's gate (the director's and
    every table's secrets); prints the director's link and code. ``night``: a worker's, on
    the night its server started (ui/server/club_workers.py), which prints nothing."""
    from ui.i18n import load_catalog
    from ui.server import club_night, roles, table_mode
    from ui.server.asgi import build_app
    from ui.server.club_gate import ClubGate
    from ui.shell import prepare_page
    from ui.views.cards import SUIT_FONT_FILE

    quiet = night is not None
    if night is None:
        night = club_night.start(club_address, port, new=new_club)
    refusal = table_mode.refusal_page()
    app = build_app(
        app_main,
        allowed=allowed,
        assets_dir=ASSETS_DIR,
        session_hook=roles.bind,
        gate=lambda inner: ClubGate(inner, night, club_address, refusal),
        app_fonts=[SUIT_FONT_FILE],
        prepare_page=prepare_page,
    )
    if not quiet:
        print(club_night.terminal_text(night, load_catalog(lang or "en")), flush=True)
    return app


def serve_club_workers(
    *,
    host: str,
    port: int,
    club_address: str | None,
    new_club: bool,
    lang: str | None,
    db: str,
    workers: int,
) -> None:
    """``--club --workers N``: this process binds the sockets, makes storage ready (one
    migration, not N at once), starts the night and prints its links; then N worker
    processes serve on the same sockets (ui/server/club_workers.py)."""
    from ui import backend
    from ui.i18n import load_catalog
    from ui.server import club_night, precompress
    from ui.server.club_workers import Plan, serve
    from ui.server.serve import bind_sockets

    binds = [host] if club_address is None else [host, club_address]
    sockets = bind_sockets(binds, port)
    port = int(sockets[0].getsockname()[1])
    try:
        backend.open_store(db).close()
    except Exception as exc:  # no database: say so before any worker tries
        for sock in sockets:
            sock.close()
        print(f"bezique-app: cannot open the database: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc
    night = club_night.start(club_address, port, new=new_club)
    t = load_catalog(lang or "en")
    print(club_night.terminal_text(night, t), flush=True)
    print(t["club.terminal_workers"].format(n=workers), flush=True)
    precompress.start_background()
    serve(Plan(db, lang, host, port, club_address, tuple(binds), workers), sockets)


def _app_main(
    db_url: str | None, lang: str | None, *, table: bool, club: bool = False
) -> Callable[[Any], Any]:
    """The app's ``main``; in table mode it is told each session's role (the live-sync
    app's ``role_of`` hook, where the app has it); on a club server each session is also
    fitted to its table or to the director (ui/server/club_app.py)."""
    import inspect

    from ui.shell import make_main

    if club:
        from ui.server.club_app import adapt
        from ui.server.roles import app_role

        return make_main(db_url=db_url, lang=lang, role_of=app_role, adapt=adapt)

    if table and "role_of" in inspect.signature(make_main).parameters:
        from ui.server.roles import app_role

        return make_main(db_url=db_url, lang=lang, role_of=app_role)  # type: ignore[call-arg,unused-ignore]
    return make_main(db_url=db_url, lang=lang)


def _table_address(requested: str | None) -> str:
    """The address for table mode: read from the interfaces (no traffic), chosen by the user
    when there are several; exits with a message when there is none."""
    from ui.server.lan import TableAddressError, choose_address, lan_addresses

    ask = input if sys.stdin.isatty() else None
    try:
        return choose_address(lan_addresses(), requested, ask)
    except TableAddressError as exc:
        print(f"bezique-app: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and run the app until its window or server stops."""
    args = parse_args(argv)
    import flet as ft

    if os.environ.get("FLET_PLATFORM"):  # packaged by `flet build apk|ipa|…` (Flet's own test)
        from ui.shell import make_main

        ft.run(make_main(db_url=args.db, lang=args.lang), assets_dir=ASSETS_DIR)
        return

    web = args.web or args.table or args.club or not _desktop_possible()
    table_address = _table_address(args.table_address) if args.table else None
    club_address = args.club_address
    if club_address == "auto":
        club_address = _table_address(None)
    if args.workers > 1:  # --club on several processes: this one only starts them
        try:
            serve_club_workers(
                host=args.host,
                port=args.port,
                club_address=club_address,
                new_club=args.new_club,
                lang=args.lang,
                db=args.db,
                workers=args.workers,
            )
        except OSError as exc:
            print(f"bezique-app: cannot listen on {args.port}: {exc}", file=sys.stderr)
            raise SystemExit(2) from exc
        return
    if web:
        # Import the web server before the storage thread starts (ui.shell.make_main), so
        # the two do not fight over the interpreter lock while the server comes up.
        import flet_web.fastapi  # type: ignore[import-untyped]  # noqa: F401

    app_main = _app_main(args.db, args.lang, table=args.table, club=args.club)
    if web:
        try:
            serve_web(
                app_main,
                host=args.host,
                port=args.port,
                table_address=table_address,
                new_table=args.new_table,
                join_table=args.join_table,
                lang=args.lang,
                club=args.club,
                club_address=club_address,
                new_club=args.new_club,
            )
        except OSError as exc:  # the port is taken, or the address is not this machine's
            print(f"bezique-app: cannot listen on {args.port}: {exc}", file=sys.stderr)
            raise SystemExit(2) from exc
    else:
        ft.run(app_main, assets_dir=ASSETS_DIR, view=ft.AppView.FLET_APP)


if __name__ == "__main__":
    main()
