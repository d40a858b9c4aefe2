"""The score sheet's verdict in words, and keeping the matches (resume any, abandon and
restore, the new-match warning, the next partie, Home's last result, files to and from the
device), driven through the app's state without a page."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from sheet_samples import PLAYERS, play_deal, sample_match
from ui_helpers import new_match, start_deal

from referee.cards import parse_card
from ui import backend
from ui.state.app import AppState
from ui.state.score import score_sheet
from ui.state.verdict import verdict_of
from ui.views import SCREENS
from ui.views.common import ViewContext


def finished_match(app: AppState, store: Any, *, last: int = 1) -> int:
    """Two-hand to 100: both reach it in the first deal; Boris (seat 1) takes the last trick."""
    mid = int(
        store.create_match(
            variant="two-hand", players=["Anna", "Boris"], target=100, house_rules=["H-TARGET"]
        )
    )
    play_deal(store, mid, PLAYERS[2], "two-hand", 0, last=last)
    return mid


def test_the_winner_screen_says_why_in_words(app: AppState, store: Any) -> None:
    mid = finished_match(app, store)
    m = store.load_match(mid)
    assert m.result().finished
    en, ru = verdict_of(m, "en"), verdict_of(m, "ru")
    assert en.winner == m.result().winner and en.rule == m.result().decided_by
    assert "took the last trick" in en.reason and "Boris" in en.reason
    assert "последнюю взятку берёт Boris" in ru.reason and "Boris" in ru.reason
    assert en.headline and en.rule_title


def test_a_side_past_the_target_mid_deal_ends_the_partie_with_this_deal(app: AppState) -> None:
    ds = new_match(app, target="50")
    start_deal(ds)
    ds.open_picker(1)
    ds.add_new(parse_card("QS"))
    ds.add_new(parse_card("JD"))
    ds.declare("bezique")  # Boris 40
    assert verdict_of(ds.match, "en").ends_with_deal == ""
    ds.open_picker(1)
    ds.add_new(parse_card("KH"))
    ds.add_new(parse_card("QH"))
    ds.declare("trump_marriage")  # Boris 80 > 50, the deal still in play
    v = verdict_of(ds.match, "en")
    assert (
        v.winner is None
        and "Boris" in v.ends_with_deal
        and "ends with this deal" in (v.ends_with_deal)
    )
    assert "Boris" in verdict_of(ds.match, "ru").ends_with_deal


def test_every_unfinished_match_can_be_resumed(app: AppState, store: Any) -> None:
    older = sample_match(store, 2, deals=1)
    newer = sample_match(store, 3, deals=1)
    ids = [s.id for s in app.matches.unfinished()]
    assert ids == [newer, older]
    assert app.matches.resume(older)
    assert app.session is not None and app.session.match_id == older
    assert str(app.screen) == "deal"


def test_abandon_keeps_the_match_in_history_and_resume_brings_it_back(
    app: AppState, store: Any
) -> None:
    mid = sample_match(store, 2, deals=2)
    assert app.matches.resume(mid)
    totals = app.session.match.totals()  # type: ignore[union-attr]
    app.home()
    app.matches.ask_abandon(mid)
    assert app.matches.confirm_abandon == mid
    assert app.matches.abandon(mid)
    assert app.session is None  # the open match was closed, not lost
    assert app.notice is not None and app.notice.key == "sheet.abandoned_notice"
    assert app.matches.unfinished() == []
    listed = {m.id: m for m in app.history_screen.matches()}
    assert listed[mid].abandoned and not listed[mid].finished
    assert app.matches.resume(mid)
    assert app.session is not None and app.session.match.totals() == totals
    assert [s.id for s in app.matches.unfinished()] == [mid]


def test_a_finished_match_is_not_abandoned(app: AppState, store: Any) -> None:
    mid = finished_match(app, store)
    assert not app.matches.abandon(mid)
    assert app.notice is not None and app.notice.error
    assert not store.match_info(mid).abandoned


def test_a_new_match_while_one_is_unfinished_warns_first(app: AppState, store: Any) -> None:
    app.matches.request_new()
    assert str(app.screen) == "new_match" and app.matches.new_warning is None
    app.home()
    mid = sample_match(store, 2, deals=1)
    app.matches.request_new()
    assert str(app.screen) == "home"
    assert [s.id for s in app.matches.new_warning or []] == [mid]
    app.matches.cancel_new()
    assert app.matches.new_warning is None and str(app.screen) == "home"
    app.matches.request_new()
    app.matches.confirm_new()
    assert str(app.screen) == "new_match" and app.new_form is not None


@pytest.mark.parametrize("rotate", [True, False])
def test_new_match_with_the_same_players(app: AppState, store: Any, rotate: bool) -> None:
    mid = finished_match(app, store)
    before = store.match_info(mid)
    assert app.matches.rematch(mid, rotate=rotate)
    assert app.session is not None and app.session.match_id != mid
    after = store.match_info(app.session.match_id)
    assert (after.variant, after.tracking, after.house_rules, after.target) == (
        before.variant,
        before.tracking,
        before.house_rules,
        before.target,
    )
    expected = tuple(reversed(before.players)) if rotate else before.players
    assert after.players == expected


def test_home_shows_the_last_finished_result(app: AppState, store: Any) -> None:
    assert app.matches.last_result() is None
    mid = finished_match(app, store)
    last = app.matches.last_result()
    assert last is not None and last.summary.id == mid
    assert last.summary.winner == store.load_match(mid).result().winner
    assert "last trick" in last.reason


def test_export_files_for_the_device(app: AppState, store: Any) -> None:
    mid = sample_match(store, 3, deals=2)
    rec = app.matches.export_file(mid, "json")
    assert rec is not None and rec.name.endswith(".json") and rec.mime == "application/json"
    assert json.loads(rec.data)["players"] == list(PLAYERS[3])
    sheet = score_sheet(store.load_match(mid))
    table = app.matches.export_file(mid, "csv")
    assert table is not None
    rows = list(csv.reader(io.StringIO(table.data.decode("utf-8-sig"))))
    assert rows[0][1:] == list(sheet.sides)
    assert [tuple(int(x) for x in r[1:]) for r in rows[1 : 1 + len(sheet.rows)]] == [
        r.scores for r in sheet.rows
    ]
    assert tuple(int(x) for x in rows[1 + len(sheet.rows)][1:]) == sheet.totals
    pdf = app.matches.export_file(mid, "pdf")
    assert pdf is not None and pdf.data.startswith(b"%PDF") and pdf.mime == "application/pdf"
    app.set_language("ru")
    ru = app.matches.export_file(mid, "pdf")  # Cyrillic headings: the shipped font has them
    assert ru is not None and ru.data.startswith(b"%PDF")
    assert app.matches.export_file(mid, "xls") is None
    assert app.notice is not None and app.notice.error


def test_import_reports_what_was_imported(app: AppState, store: Any, tmp_path: Path) -> None:
    mid = sample_match(store, 2, deals=2, in_play=False)
    data = app.matches.export_file(mid, "json")
    assert data is not None
    other_store = backend.open_store(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        other = AppState(other_store, lang="en")
        new_id = other.matches.import_file("anna.json", data.data)
        assert new_id is not None
        assert other.notice is not None and other.notice.key == "sheet.imported"
        assert other.notice.args["players"] == "Anna — Boris" and other.notice.args["deals"] == 2
        assert other_store.load_match(new_id).totals() == store.load_match(mid).totals()
    finally:
        other_store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_import_of_a_match_already_stored_stores_nothing_and_says_so(
    app: AppState, store: Any, lang: str
) -> None:
    """What the CLI does: the same record imported again is recognised and skipped, so the
    players' statistics are not doubled; the notice says it in the screen's language."""
    app.set_language(lang)
    mid = sample_match(store, 2, deals=2, in_play=False)
    data = app.matches.export_file(mid, "json")
    assert data is not None
    stats = [(p.name, p.matches_played, p.deals_played) for p in store.player_stats()]
    for _ in range(2):
        assert app.matches.import_file("anna.json", data.data) == mid
        assert app.notice is not None and app.notice.key == "sheet.import_already"
        assert not app.notice.error
    assert [m.id for m in store.list_matches()] == [mid]
    assert [(p.name, p.matches_played, p.deals_played) for p in store.player_stats()] == stats
    shown = app.t(app.notice.key, **app.notice.args)
    assert "Anna — Boris" in shown
    assert ("already stored: not imported again" if lang == "en" else "уже сохранена") in shown


def test_import_of_a_backup_keeps_the_dates_the_matches_were_played(
    app: AppState, store: Any, tmp_path: Path
) -> None:
    """A backup archive carries the dates in its manifest (its members are version 1
    records, without one), and the app's import keeps them, skipping matches already
    stored."""
    for n in (1, 2):
        sample_match(store, 2, deals=n, in_play=False)
    archive = tmp_path / "backup.zip"
    store.export_archive(archive)
    with zipfile.ZipFile(archive) as zf:  # played two years ago, not today
        members = {n: zf.read(n) for n in zf.namelist()}
    manifest = json.loads(members["manifest.json"])
    for i, m in enumerate(manifest["matches"]):
        m["created_at"] = f"2024-05-0{i + 1}T20:00:00+00:00"
    members["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(archive, "w") as zf:
        for n, b in members.items():
            zf.writestr(n, b)
    other_store = backend.open_store(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        other = AppState(other_store, lang="en")
        assert other.matches.import_file("backup.zip", archive.read_bytes()) is not None
        assert other.notice is not None and other.notice.key == "sheet.imported_archive"
        assert other.notice.args == {"name": "backup.zip", "n": 2, "skipped": 0}
        dates = sorted(f"{m.created_at:%Y-%m-%d %H:%M}" for m in other_store.list_matches())
        assert dates == ["2024-05-01 20:00", "2024-05-02 20:00"]
        other.matches.import_file("backup.zip", archive.read_bytes())
        assert other.notice is not None and other.notice.args["skipped"] == 2
        assert other.notice.args["n"] == 0 and len(other_store.list_matches()) == 2
    finally:
        other_store.close()


@pytest.mark.parametrize(
    ("content", "key", "place"),
    [
        (b'{"format": "bezique-match/1",\n "players": [}', "sheet.import_not_json", "line"),
        (b"\xff\xfe\x00garbage", "sheet.import_not_text", "at"),
        (None, "sheet.import_no_data", "name"),
    ],
)
def test_import_errors_say_what_and_where(
    app: AppState, content: bytes | None, key: str, place: str
) -> None:
    assert app.matches.import_file("bad.json", content) is None
    assert app.notice is not None and app.notice.key == key and app.notice.error
    assert place in app.notice.args
    assert app.matches.unfinished() == []


def test_an_impossible_record_names_the_place_and_stores_nothing(app: AppState, store: Any) -> None:
    mid = sample_match(store, 2, deals=1, in_play=False)
    record = store.export_match(mid)
    record["deals"][0]["events"][0]["new"] = ["1S", "JD"]
    before = len(store.list_matches())
    assert app.matches.import_file("x.json", json.dumps(record).encode()) is None
    assert app.notice is not None and app.notice.key == "sheet.import_refused"
    assert "deals[0].events[0]" in str(app.notice.args["where"])
    assert "1S" in str(app.notice.args["why"])
    assert len(store.list_matches()) == before


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_home_and_history_build_with_every_kind_of_match(
    app: AppState, store: Any, lang: str
) -> None:
    app.set_language(lang)
    finished_match(app, store)
    a = sample_match(store, 2, deals=1)
    b = sample_match(store, 4, deals=1)
    app.matches.abandon(a)
    app.matches.ask_abandon(b)
    app.matches.request_new()
    ctx = ViewContext(app=app, page=None)  # type: ignore[arg-type]
    for name in ("home", "history"):
        app.screen = name  # type: ignore[assignment]
        assert SCREENS[name](ctx).body is not None
    app.matches.resume(b)
    app.screen = "score"
    assert SCREENS["score"](ctx).body is not None
    app.view_match(a)
    assert SCREENS["history_match"](ctx).body is not None


def _texts(control: Any) -> list[str]:
    """Every text value in a built control tree (the view's words, no page needed)."""
    out: list[str] = []
    stack = [control]
    while stack:
        c = stack.pop()
        if c is None:
            continue
        value = getattr(c, "value", None)
        if isinstance(value, str):
            out.append(value)
        for attr in ("content", "controls", "title", "leading", "actions"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None and not isinstance(child, str):
                stack.append(child)
    return out


def test_the_deal_summary_after_the_last_deal_says_why_and_offers_the_next_partie(
    app: AppState,
) -> None:
    ds = new_match(app, target="100")
    start_deal(ds)
    ds.open_picker(1)
    ds.add_new(parse_card("QS"))
    ds.add_new(parse_card("JD"))
    ds.declare("bezique")
    ds.open_end()
    ds.set_last_trick(1)
    ds.set_brisques(0, "8")
    ds.set_brisques(1, "8")
    assert ds.finish_deal(), ds.end_errors
    assert ds.match.result().finished
    ctx = ViewContext(app=app, page=None)  # type: ignore[arg-type]
    words = " ".join(_texts(SCREENS["deal"](ctx).body))
    assert verdict_of(ds.match, "en").reason in words
    assert "wins the partie" in words and "New match, seats moved on" in words
