"""Score sheet, rules, history, players and navigation; and every screen builds its Flet
controls in every mode and both languages without a page (the views stay thin)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import new_match, start_deal

from referee.cards import parse_card
from ui.state.app import AppState
from ui.state.deal import DealScreen
from ui.state.score import score_sheet
from ui.views import SCREENS
from ui.views.common import ViewContext


def play_deal(ds: DealScreen, anna: int, boris: int, last: int = 0) -> None:
    """A short deal: Boris declares a bezique, then the end-of-deal counts."""
    ds.open_picker(1)
    ds.add_new(parse_card("QS"))
    ds.add_new(parse_card("JD"))
    ds.declare("bezique")
    ds.open_end()
    ds.set_last_trick(last)
    ds.set_brisques(0, str(anna))
    ds.set_brisques(1, str(boris))
    assert ds.finish_deal(), ds.end_errors


def test_score_sheet_rows_totals_and_race(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    play_deal(ds, 9, 7)
    ds.next_deal()
    start_deal(ds, dealer=1)
    ds.seven(0)
    sheet = score_sheet(ds.match)
    assert sheet.sides == ("Anna", "Boris")
    assert [r.scores for r in sheet.rows] == [(100, 110), (10, 0)]
    assert [r.in_play for r in sheet.rows] == [False, True]
    assert sheet.totals == (110, 110)
    assert sheet.target == 1000
    assert sheet.race() == [[(0, 0), (1, 100), (2, 110)], [(0, 0), (1, 110), (2, 110)]]
    assert sheet.to_go() == [890, 890]
    assert not sheet.finished and sheet.winner is None


def test_tie_rule_is_named_when_both_reach_the_target(app: AppState) -> None:
    ds = new_match(app, target="80")
    start_deal(ds)
    play_deal(ds, 8, 8, last=0)  # Anna 90, Boris 120: both reach 80
    sheet = score_sheet(ds.match)
    assert sheet.finished
    assert sheet.winner == "Anna"  # the last trick decides (R-TIE)
    assert sheet.decided_by == "R-TIE"
    assert sheet.decided_title


def test_rejections_are_listed_in_the_screen_language(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.open_picker(0)
    ds.add_new(parse_card("QD"))
    ds.declare(None)
    en = score_sheet(ds.match, "en").rejected
    ru = score_sheet(ds.match, "ru").rejected
    assert len(en) == 1 and en[0].startswith("Deal 1, entry 1:")
    assert en[0].count(ds.match.deals[0].log[0][1].rule) == 1  # the rule id once
    assert en != ru


def test_rules_screen_lists_searches_and_runs_examples(app: AppState) -> None:
    rs = app.rules
    combos = dict(rs.combinations())
    assert combos["Double bezique"] == 500
    assert combos[app.t("rules.seven_row")] == 10
    ids = [r.id for r in rs.rules()]
    assert "R-REUSE" in ids and "P-REVOKE" in ids and "H-ALL-NEW" in ids
    rs.set_query("reus")
    found = [r.id for r in rs.rules()]
    assert "R-REUSE" in found and "P-REVOKE" not in found
    rs.set_query("qqxqq")
    assert rs.rules() == []
    rs.set_query("")
    examples = {e.title_key: e for e in rs.examples()}
    assert set(examples) == {
        "rules.example_reuse",
        "rules.example_pending",
        "rules.example_sevens",
        "rules.example_phase2",
    }
    reuse = examples["rules.example_reuse"].steps
    assert [s.accepted for s in reuse] == [True, True, False]
    assert "R-REUSE" in reuse[2].ruling
    pending = examples["rules.example_pending"].steps
    assert pending[-1].accepted and "R-PENDING" in pending[-1].ruling
    phase2 = examples["rules.example_phase2"].steps
    assert not phase2[2].accepted


def test_rules_follow_the_open_match(app: AppState) -> None:
    new_match(app, rules=("H-NO-PLAIN-SEQUENCE",))
    assert app.rules.house_rules() == ["H-NO-PLAIN-SEQUENCE"]
    names = [n for n, _ in app.rules.combinations()]
    assert "Sequence" not in names and "Trump sequence" in names


def test_history_lists_exports_and_reopens(app: AppState, tmp_path: Path) -> None:
    ds = new_match(app)
    start_deal(ds)
    play_deal(ds, 9, 7)
    hs = app.history_screen
    matches = hs.matches()
    assert len(matches) == 1
    m = matches[0]
    assert m.sides == ("Anna", "Boris") and m.totals == (100, 110) and not m.finished
    file = app.matches.export_file(m.id, "json")
    assert file is not None
    record = json.loads(file.data.decode("utf-8"))
    assert record["format"] == "bezique-match/2" and record["players"] == ["Anna", "Boris"]
    assert record["played"][:16].replace("T", " ") == m.created  # History's date, exported
    assert app.view_match(m.id)
    assert str(app.screen) == "history_match"
    assert app.viewed is not None and app.viewed.match.totals() == [100, 110]


def test_history_errors_become_notices(app: AppState, tmp_path: Path) -> None:
    assert app.matches.export_file(999, "json") is None
    assert app.notice is not None and app.notice.key == "history.export_failed"
    assert not app.view_match(999)
    assert app.notice is not None and app.notice.key == "error.storage"
    assert not app.open_match(999)


def test_player_stats(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    play_deal(ds, 9, 7)
    stats = {s.name: s for s in app.history_screen.stats()}
    assert set(stats) == {"Anna", "Boris"}
    assert stats["Anna"].matches == 1


def test_navigation_language_theme_and_resume(app: AppState, store: Any) -> None:
    seen: list[str] = []
    app.subscribe(lambda: seen.append(app.screen))
    assert app.unfinished_match() is None
    assert not app.resume()
    ds = new_match(app)
    start_deal(ds)
    app.go("rules")
    app.back()
    assert str(app.screen) == "deal"
    app.home()
    assert str(app.screen) == "home" and app.history == []
    app.back()
    assert str(app.screen) == "home"
    summary = app.unfinished_match()
    assert summary is not None and summary.sides == ("Anna", "Boris")
    # a restart: a new AppState on the same storage finds the match
    again = AppState(store, lang="ru")
    assert again.resume()
    assert again.screen == "deal" and again.deal is not None and str(again.deal.mode) == "play"
    assert app.theme == "system"
    app.cycle_theme()
    app.cycle_theme()
    assert str(app.theme) == "dark"
    app.toggle_language()
    assert app.lang == "ru"
    app.set_language("xx")
    assert app.lang == "ru"
    assert seen
    app.close()  # the browser session ended
    assert app.session is None


def test_broken_storage_on_home_is_a_notice(app: AppState, monkeypatch: Any) -> None:
    def boom(*_a: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("ui.backend.unfinished_match", boom)
    assert app.unfinished_match() is None
    assert app.notice is not None and "disk on fire" in str(app.notice.args["why"])
    monkeypatch.setattr("ui.backend.list_matches", boom)
    assert app.history_screen.matches() == []
    monkeypatch.setattr("ui.backend.player_stats", boom)
    assert app.history_screen.stats() == []


def _build_all(app: AppState) -> None:
    ctx = ViewContext(app=app, page=None)  # type: ignore[arg-type]
    for name, build in SCREENS.items():
        app.screen = name  # type: ignore[assignment]
        view = build(ctx)
        assert view.body is not None, name


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_screen_builds_in_every_mode(app: AppState, lang: str) -> None:
    app.set_language(lang)
    _build_all(app)  # nothing open yet
    ds = new_match(app)
    _build_all(app)  # setup
    start_deal(ds)
    ds.open_picker(1)
    ds.add_new(parse_card("QS"))
    _build_all(app)  # picker
    ds.add_new(parse_card("JD"))
    ds.declare(None)
    ds.open_penalty(0)
    _build_all(app)  # ruling + penalty panel
    ds.close_penalty()
    ds.open_end()
    _build_all(app)  # end of deal
    ds.set_last_trick(0)
    ds.set_brisques(0, "16")
    ds.finish_deal()
    _build_all(app)  # summary
    app.history_screen.matches()
    app.view_match(app.session.match_id)  # type: ignore[union-attr]
    _build_all(app)
    app.rules.set_query("R-")
    _build_all(app)


def test_four_hand_partners_score_as_teams(app: AppState) -> None:
    ds = new_match(app, ("Anna", "Boris", "Carl", "Dora"), variant="four-hand")
    assert ds.side_names == ("Anna & Carl", "Boris & Dora")
    start_deal(ds, dealer=3)
    ds.open_picker(2)
    ds.add_new(parse_card("QS"))
    ds.add_new(parse_card("JD"))
    view = ds.declare("bezique")
    assert view is not None and view.accepted
    assert ds.deal_scores() == [40, 0]  # Carl's points go to Anna & Carl
    assert ds.brisques_expected() == 24
    _build_all(app)


def test_no_trump_needs_no_turn_up_and_the_first_marriage_fixes_trumps(app: AppState) -> None:
    app.start_new_match()
    form = app.new_form
    assert form is not None
    if "no-trump" not in form.variants:
        pytest.skip("no-trump variant not in the engine's data")
    form.set_variant("no-trump")
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    assert app.submit_new_match()
    ds = app.deal
    assert ds is not None and not ds.turn_up_variant
    assert ds.start_deal()
    assert ds.trumps() is None
    _build_all(app)
    ds.open_picker(0)
    ds.add_new(parse_card("KH"))
    ds.add_new(parse_card("QH"))
    view = ds.declare(None)
    assert view is not None and view.accepted and view.rule == "R-NT-TRUMPS"
    assert ds.trumps() is not None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_trick_form_builds(app: AppState, lang: str) -> None:
    app.set_language(lang)
    ds = new_match(app, tracking="cards")
    start_deal(ds)
    _build_all(app)
    ds.open_trick()
    ds.record_trick()  # errors shown
    _build_all(app)


def _identifiers(control: Any) -> list[str]:
    """Semantics identifiers in a built control tree, depth first."""
    found: list[str] = []
    ident = getattr(control, "identifier", None)
    if ident:
        found.append(str(ident))
    for attr in ("content", "controls"):
        child = getattr(control, attr, None)
        for c in child if isinstance(child, list) else [child]:
            if c is not None and hasattr(c, "__dict__"):
                found.extend(_identifiers(c))
    return found


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_search_pins_the_field_and_the_table_of_points(app: AppState, lang: str) -> None:
    app.set_language(lang)
    new_match(app)
    app.screen = "rules"  # type: ignore[assignment]
    app.rules.set_query("bezik")
    view = SCREENS["rules"](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    pinned, scrolling = view.body.controls  # type: ignore[attr-defined]
    assert getattr(scrolling, "scroll", None) is not None
    assert getattr(pinned, "scroll", None) is None
    assert {"rules-search", "combination-table"} <= set(_identifiers(pinned))
    assert "combination-table" not in _identifiers(scrolling)
    assert "rule-C-BEZIQUE" in _identifiers(scrolling), "the results scroll below"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_score_chart_axes_are_titled(app: AppState, lang: str) -> None:
    app.set_language(lang)
    ds = new_match(app)
    start_deal(ds)
    play_deal(ds, 9, 7)
    app.screen = "score"  # type: ignore[assignment]
    view = SCREENS["score"](ViewContext(app=app, page=None))  # type: ignore[arg-type]

    def charts(c: Any) -> list[Any]:
        if type(c).__name__ == "LineChart":
            return [c]
        out: list[Any] = []
        for attr in ("content", "controls"):
            child = getattr(c, attr, None)
            for x in child if isinstance(child, list) else [child]:
                if x is not None and hasattr(x, "__dict__"):
                    out.extend(charts(x))
        return out

    (chart,) = charts(view.body)
    assert chart.bottom_axis.title.value == app.t("sheet.chart_x")
    assert chart.left_axis.title.value == app.t("sheet.chart_y")
