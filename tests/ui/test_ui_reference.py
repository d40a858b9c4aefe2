"""The rules screen's search, as a table uses it: every kind of entry, ranked for the open
match, a house rule that is off marked off, and the table of points still on screen."""

from __future__ import annotations

from ui_helpers import new_match

from ui.state.app import AppState


def test_search_leads_with_the_bezique_and_marks_the_house_rule_off(app: AppState) -> None:
    new_match(app)
    rs = app.rules
    rs.set_query("what is a bezique")
    lines = rs.rules()
    assert lines[0].id == "C-BEZIQUE" and lines[0].kind == "combination"
    pair = next(ln for ln in lines if ln.id == "H-BEZIQUE-PAIR")
    assert pair.standing == "off" and pair.note == app.t("reference.house_off")
    assert rs.combinations(), "the table of points stays while searching"
    assert "Bezique" in rs.highlighted()


def test_search_follows_the_house_rules_of_the_open_match(app: AppState) -> None:
    new_match(app, rules=("H-BEZIQUE-PAIR",))
    rs = app.rules
    rs.set_query("bezique")
    by_id = {ln.id: ln for ln in rs.rules()}
    assert by_id["H-BEZIQUE-PAIR"].note == app.t("reference.house_on")
    assert by_id["C-BEZIQUE"].standing == "replaced"
    assert "H-BEZIQUE-PAIR" in by_id["C-BEZIQUE"].note


def test_search_in_russian_finds_the_double_bezique_and_variants(app: AppState) -> None:
    app.set_language("ru")
    rs = app.rules
    rs.set_query("двойной безик")
    assert rs.rules()[0].id == "C-DOUBLE-BEZIQUE"
    rs.set_query("инфузорка")
    found = rs.rules()
    assert any(ln.kind == "variant" for ln in found)
    joker = next(ln for ln in found if ln.id == "V-MULTI-PACK")
    assert joker.standing == "elsewhere" and "угадано" in joker.text


def test_rule_texts_on_screen_name_rules_by_title_not_by_id(app: AppState) -> None:
    import re

    new_match(app)
    for lang in ("en", "ru"):
        app.set_language(lang)
        rs = app.rules
        for query in ("", "bezik"):
            rs.set_query(query)
            lines = rs.rules()
            assert lines
            ids = {ln.id for ln in lines}
            for ln in lines:
                prose = " ".join((ln.text, ln.example))
                named = set(re.findall(r"\b[RPHCVJ]-[A-Z0-9-]+\b", prose)) & ids
                assert not named, f"{ln.id} ({lang}, {query!r}) names {sorted(named)} by id"
        rs.set_query("bezik")
        bezique = next(ln for ln in rs.rules() if ln.id == "C-BEZIQUE")
        assert bezique.id == "C-BEZIQUE", "each entry keeps its own id as its label"


def test_house_rule_off_says_so_briefly(app: AppState) -> None:
    new_match(app)
    for lang in ("en", "ru"):
        app.set_language(lang)
        app.rules.set_query("bezique")
        pair = next(ln for ln in app.rules.rules() if ln.id == "H-BEZIQUE-PAIR")
        assert pair.note == app.t("reference.house_off") and "(" not in pair.note
