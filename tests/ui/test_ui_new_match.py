"""The new-match form: defaults, every field error, and creating the match."""

from __future__ import annotations

from typing import Any

from ui.state.app import AppState
from ui.state.new_match import NewMatchForm


def test_defaults_are_two_hand_to_1000_with_melds() -> None:
    form = NewMatchForm()
    assert form.variant == "two-hand"
    assert form.player_count == 2 and form.names == ["", ""]
    assert form.target_text == "1000"
    assert form.tracking == "melds"
    assert form.house_rules == set()
    assert "H-ALL-NEW" in form.info.house_rules


def test_empty_duplicate_and_long_names_are_field_errors() -> None:
    form = NewMatchForm()
    errors = form.validate()
    assert errors["name0"].key == "form.error.name_empty"
    assert errors["name1"].key == "form.error.name_empty"
    form.set_name(0, "Anna")
    form.set_name(1, " anna ")
    assert form.validate()["name1"].key == "form.error.name_duplicate"
    form.set_name(1, "B" * 40)
    assert form.validate()["name1"].key == "form.error.name_long"
    form.set_name(1, "Boris")
    assert form.validate() == {}


def test_bad_targets_name_the_target_field() -> None:
    form = NewMatchForm()
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    for text in ("", "abc", "0", "-5", "12.5", "99999999"):
        form.set_target(text)
        assert form.validate()["target"].key == "form.error.target", text
    form.set_target(" 1500 ")
    assert form.validate() == {}
    assert form.target() == 1500
    assert "H-TARGET" not in form.rules_in_force()  # the target field is the target


def test_unknown_variant_and_player_count_are_refused() -> None:
    form = NewMatchForm()
    form.set_variant("five-hand")
    assert form.errors["variant"].key == "form.error.variant"
    assert form.variant == "two-hand"
    form.set_player_count(7)
    assert form.errors["players"].key == "form.error.player_count"


def test_switching_variant_fits_players_and_target() -> None:
    form = NewMatchForm()
    if "four-hand" not in form.variants:
        return
    form.set_variant("four-hand")
    assert form.player_count == 4 and len(form.names) == 4
    assert form.partnerships
    assert form.target_text == str(form.default_target)
    form.set_variant("two-hand")
    assert len(form.names) == 2


def test_house_rules_toggle_only_known_ones() -> None:
    form = NewMatchForm()
    form.toggle_house_rule("H-REUSE-CLASSES")
    form.toggle_house_rule("H-NONSENSE")
    assert form.house_rules == {"H-REUSE-CLASSES"}
    form.toggle_house_rule("H-REUSE-CLASSES")
    assert form.house_rules == set()
    form.set_tracking("bogus")
    assert form.tracking == "melds"


def test_submit_creates_the_match_and_opens_the_deal(app: AppState, store: Any) -> None:
    app.start_new_match()
    assert str(app.screen) == "new_match"
    form = app.new_form
    assert form is not None
    assert not app.submit_new_match()
    assert str(app.screen) == "new_match" and "name0" in form.errors
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    form.toggle_house_rule("H-TIE-HIGHER")
    assert app.submit_new_match()
    assert str(app.screen) == "deal"
    assert app.session is not None
    m = store.load_match(app.session.match_id)
    assert m.players == ("Anna", "Boris")
    assert "H-TIE-HIGHER" in m.house_rules


def test_settings_the_engine_refuses_are_a_form_error(app: AppState, monkeypatch: Any) -> None:
    app.start_new_match()
    form = app.new_form
    assert form is not None
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")

    def refuse(*_a: Any, **_k: Any) -> int:
        raise ValueError("no such house rule")

    monkeypatch.setattr("ui.backend.create_match", refuse)
    assert not app.submit_new_match()
    assert form.errors["form"].key == "form.error.refused"
    assert "no such house rule" in str(form.errors["form"].args["why"])


def test_house_rules_come_as_presets_with_single_switches_behind_customise() -> None:
    form = NewMatchForm()
    assert "H-TARGET" not in form.switches
    assert form.presets()[0] == "defaults" and form.preset == "defaults"
    assert {"old-rulebook", "foster"} <= set(form.presets())
    form.set_preset("old-rulebook")
    assert {"H-FOUR-TRICKS", "H-EXTRA-CARD-50"} <= form.house_rules
    assert form.preset == "old-rulebook"
    form.toggle_house_rule("H-MUST-WIN")
    assert form.preset == "custom"
    form.toggle_house_rule("H-MUST-WIN")
    assert form.preset == "old-rulebook"
    form.set_preset("defaults")
    assert form.house_rules == set()
    form.set_preset("no-such-preset")
    assert form.preset == "defaults"


def test_a_preset_switches_on_only_what_the_variant_has() -> None:
    form = NewMatchForm()
    form.set_variant("no-trump")
    form.set_preset("old-rulebook")
    assert "H-NT-SEQUENCE-300" in form.house_rules
    form.set_variant("two-hand")
    assert "H-NT-SEQUENCE-300" not in form.house_rules
    assert form.preset == "old-rulebook"


def test_names_and_tracking_are_remembered_and_suggested(app: AppState) -> None:
    saved: list[Any] = []
    app.on_remember = saved.append
    app.start_new_match()
    form = app.new_form
    assert form is not None and form.suggestions() == []
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    form.set_tracking("tricks")
    assert app.submit_new_match()
    assert saved and saved[-1].last == ("Anna", "Boris") and saved[-1].tracking == "tricks"
    app.start_new_match()
    again = app.new_form
    assert again is not None
    assert again.names == ["Anna", "Boris"] and again.tracking == "tricks"
    again.set_variant("three-hand")
    again.set_name(1, "")
    assert again.suggestions() == ["Boris"]
    again.use_suggestion("Boris")
    assert again.names[1] == "Boris"


def test_form_memory_survives_a_round_trip_and_ignores_damage() -> None:
    from ui.state.new_match import FormMemory

    memory = FormMemory(("Анна", "Boris"), ("Анна", "Boris"), "cards")
    assert FormMemory.from_json(memory.to_json()) == memory
    assert FormMemory.from_json("garbage") == FormMemory()
    assert FormMemory.from_json({"recent": [1, "", "Vera"], "tracking": "x"}) == FormMemory(
        ("Vera",)
    )


def test_the_form_folds_the_switches_and_names_the_partners_as_typed(app: AppState) -> None:
    from test_ui_joker import _screen, ids, texts

    app.start_new_match()
    form = app.new_form
    assert form is not None
    built = _screen(app, "new_match")
    assert "customise" in ids(built) and "preset-old-rulebook" in ids(built)
    assert not any(i.startswith("house-H-") for i in ids(built))
    assert not any("RULES.md" in t or "seed" in t for t in texts(built))
    form.toggle_customise()
    built = _screen(app, "new_match")
    assert "house-H-TARGET" not in ids(built) and "house-H-MUST-WIN" in ids(built)
    sources = [t for t in texts(built) if t.startswith("Source:")]
    assert sources and not any("seed" in t or "док." in t for t in sources)
    form.set_variant("four-hand")
    for seat, name in enumerate(("Anna", "Boris", "Clara", "David")):
        form.set_name(seat, name)
    line = [t for t in texts(_screen(app, "new_match")) if "Anna" in t and "&" in t]
    assert line == [app.t("new.partners", a="Anna", b="Boris", c="Clara", d="David")]


def test_the_help_speaks_of_sevens_only_where_they_score(app: AppState) -> None:
    from test_ui_joker import _screen, texts

    app.start_new_match()
    form = app.new_form
    assert form is not None
    assert app.t("tracking.melds_help") in texts(_screen(app, "new_match"))
    form.set_variant("joker-multipack")
    shown = texts(_screen(app, "new_match"))
    assert app.t("tracking.melds_help") not in shown
    assert app.t("newmatch.melds_help_no_sevens") in shown
    assert shown.count(app.t("new.player_count")) == 1
    assert app.t("new.player_count") != app.t("new.players")
