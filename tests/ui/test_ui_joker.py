"""The multi-pack Bezique with jokers in the app: offered on the new-match screen with what the
variant allows, its deal (turn-ups of its pack, no sevens, no brisques or last trick, the
sitting-out dealer), the card picker with its pack and the joker, and its showings table on
the rules screen. Every expectation that is a number is checked against the variant's data or
the engine, and each test also checks a trick variant still gets what it had."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from test_ui_font import FONT, _cmap
from ui_helpers import new_match, start_deal

from referee import reference
from referee.cards import JOKER, Card, Rank, Suit, parse_card
from referee.rulings import meld_name
from referee.variants import load_variant
from ui.i18n import load_catalog
from ui.state.app import AppState
from ui.state.deal import DealScreen
from ui.views import SCREENS
from ui.views.common import ViewContext

JOKER_VARIANT = "joker-multipack"


# ------------------------------------------------------------------------ helpers
def _walk(node: Any) -> Iterator[Any]:
    if isinstance(node, list | tuple):
        for item in node:
            yield from _walk(item)
        return
    if not isinstance(node, ft.BaseControl):
        return
    yield node
    for f in dataclasses.fields(node):
        if f.name.startswith(("_", "on_")) or f.name in ("data", "parent"):
            continue
        value = getattr(node, f.name, None)
        if isinstance(value, ft.BaseControl | list):
            yield from _walk(value)


def _screen(app: AppState, name: str) -> list[Any]:
    """Build one screen without a page and return every control in it."""
    app.screen = name  # type: ignore[assignment]
    view = SCREENS[name](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    return list(_walk([view.body, view.appbar]))


def ids(controls: list[Any]) -> set[str]:
    return {c.identifier for c in controls if isinstance(c, ft.Semantics) and c.identifier}


def texts(controls: list[Any]) -> list[str]:
    return [str(c.value) for c in controls if isinstance(c, ft.Text) and c.value]


def joker_match(
    app: AppState, names: tuple[str, ...] = ("Anna", "Boris"), tracking: str = "melds"
) -> DealScreen:
    return new_match(app, names, variant=JOKER_VARIANT, tracking=tracking)


# ------------------------------------------------------------------------ 1. new match
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_new_match_offers_the_joker_variant_by_name(app: AppState, lang: str) -> None:
    app.set_language(lang)
    app.start_new_match()
    form = app.new_form
    assert form is not None and JOKER_VARIANT in form.variants
    controls = _screen(app, "new_match")
    assert f"variant-{JOKER_VARIANT}" in ids(controls)
    name = load_catalog(lang)[f"variant.{JOKER_VARIANT}"]
    assert name != f"variant.{JOKER_VARIANT}" and name in texts(controls)
    if lang == "ru":
        assert any("а" <= ch <= "я" for ch in name)


def test_new_match_takes_players_target_house_rules_and_tracking_from_the_variant(
    app: AppState,
) -> None:
    app.start_new_match()
    form = app.new_form
    assert form is not None
    form.set_tracking("cards")  # two-hand offers cards tracking
    assert form.tracking == "cards"
    form.set_variant(JOKER_VARIANT)
    v = load_variant(JOKER_VARIANT)
    assert form.player_counts == v.player_counts == (2, 3, 4)
    for n in v.player_counts:
        form.set_player_count(n)
        assert form.target_text == str(v.target(n))
    assert form.info.house_rules == tuple(
        e.id for e in reference.house_rules_for(JOKER_VARIANT, "en")
    )
    assert "H-JOKER-TEN-PACKS" in form.info.house_rules
    # only what the variant records: cards tracking is not offered, and the form left it
    assert form.tracking_levels == v.tracking_levels == ("melds", "tricks")
    assert form.tracking == "melds"
    form.set_tracking("cards")
    assert form.tracking == "melds"
    form.toggle_customise()  # the single switches are behind "customise"
    built = ids(_screen(app, "new_match"))
    assert {"tracking-melds", "tracking-tricks", "house-H-JOKER-TEN-PACKS"} <= built
    assert "tracking-cards" not in built
    form.set_variant("two-hand")
    assert "tracking-cards" in ids(_screen(app, "new_match"))


def test_a_joker_match_is_created_with_a_house_rule_and_four_players(app: AppState) -> None:
    ds = new_match(
        app,
        ("Anna", "Boris", "Carl", "Dora"),
        variant=JOKER_VARIANT,
        rules=("H-JOKER-TEN-PACKS",),
    )
    assert ds.match.variant.id == JOKER_VARIANT
    assert "H-JOKER-TEN-PACKS" in ds.match.house_rules
    assert app.session is not None
    assert app.store.match_info(app.session.match_id).variant == JOKER_VARIANT


# ------------------------------------------------------------------------ 2. the deal
def test_turn_up_offers_only_the_cards_of_the_pack(app: AppState) -> None:
    ds = joker_match(app)
    v = ds.match.variant
    want = tuple(
        r for r in sorted(Rank, reverse=True) if any(v.copies(Card(r, s), 2) > 0 for s in Suit)
    )
    assert ds.turn_up_ranks() == want
    assert Rank.SEVEN not in want and Rank.EIGHT not in want and Rank.NINE in want
    assert ds.turn_up_suits() == tuple(Suit)
    built = ids(_screen(app, "deal"))
    assert "turn-up-9H" in built and "turn-up-AS" in built  # the turn-up's card grid
    assert not any(i.startswith(("turn-up-7", "turn-up-8")) for i in built)
    start_deal(ds, Rank.NINE, Suit.HEARTS)
    assert ds.trumps() is Suit.HEARTS


def test_two_hand_still_turns_up_sevens(app: AppState) -> None:
    ds = new_match(app)
    assert ds.turn_up_ranks() == tuple(sorted(Rank, reverse=True))
    assert "turn-up-7C" in ids(_screen(app, "deal"))


def test_no_seven_button_where_sevens_score_nothing(app: AppState) -> None:
    ds = joker_match(app)
    start_deal(ds)
    assert not ds.has_sevens()
    built = ids(_screen(app, "deal"))
    assert "declare-0" in built and "seven-0" not in built and "seven-1" not in built


def test_two_hand_keeps_its_seven_button(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.has_sevens() and "seven-0" in ids(_screen(app, "deal"))


def test_no_trump_offers_no_seven_even_once_trumps_are_fixed(app: AppState) -> None:
    ds = new_match(app, variant="no-trump")
    assert ds.start_deal()
    ds.open_picker(0)
    ds.add_new(parse_card("KH"))
    ds.add_new(parse_card("QH"))
    ds.declare(None)
    assert ds.trumps() is not None
    assert int(ds.match.variant.seven_points) == 0 and not ds.has_sevens()
    assert "seven-0" not in ids(_screen(app, "deal"))


def test_melds_the_deal_ends_with_stock_exhausted_no_brisques_no_last_trick(
    app: AppState,
) -> None:
    ds = joker_match(app)
    start_deal(ds)
    assert not ds.needs_brisques() and not ds.needs_last_trick() and not ds.needs_end_form()
    built = ids(_screen(app, "deal"))
    assert "stock-exhausted" in built and "end-deal" not in built
    ds.open_picker(0)
    ds.add_new(parse_card("KH"))
    ds.add_new(parse_card("QH"))
    assert ds.declare("trump_marriage") is not None
    view = ds.stock_exhausted()
    assert view is not None
    assert ds.mode == "summary"
    assert ds.deal_scores() == [4, 0]
    assert ds.breakdown(0) == [("trump_marriage", 4)]
    assert "Trump marriage" in " ".join(texts(_screen(app, "deal")))


def test_two_hand_still_asks_for_brisques_and_last_trick(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert ds.needs_brisques() and ds.needs_last_trick()
    assert "end-deal" in ids(_screen(app, "deal"))


def test_tricks_the_deal_ends_with_its_last_lead(app: AppState) -> None:
    ds = joker_match(app, tracking="tricks")
    start_deal(ds)
    assert not ds.needs_end_form()
    built = ids(_screen(app, "deal"))
    assert "trick-0" in built and "end-deal" not in built and "stock-exhausted" not in built
    total = ds.match.variant.total_tricks(2)
    for i in range(total):
        assert ds.mode == "play", i
        assert ds.trick(i % 2) is not None, ds.notice
    assert ds.mode == "summary"


def test_four_players_the_dealer_sits_out_with_no_buttons(app: AppState) -> None:
    ds = joker_match(app, ("Anna", "Boris", "Carl", "Dora"), tracking="tricks")
    start_deal(ds, dealer=3)
    assert [ds.sits_out(s) for s in range(4)] == [False, False, False, True]
    assert [ds.deal.sits_out(s) for s in range(4)] == [ds.sits_out(s) for s in range(4)]
    built = ids(_screen(app, "deal"))
    for seat in range(3):
        assert {f"trick-{seat}", f"declare-{seat}", f"penalty-{seat}"} <= built
    assert not {"trick-3", "declare-3", "penalty-3", "seven-3"} & built
    assert "sits-out-3" in built
    assert "sits-out-0" not in built


def test_two_hand_four_players_nobody_sits_out(app: AppState) -> None:
    ds = new_match(app, ("Anna", "Boris", "Carl", "Dora"), variant="four-hand")
    start_deal(ds, dealer=3)
    assert not any(ds.sits_out(s) for s in range(4))
    assert {f"choose-{s}" for s in range(4)} <= set(ids(_screen(app, "deal")))
    ds.choose_declarer(3)  # the bar shows the chosen player's buttons
    assert "declare-3" in ids(_screen(app, "deal"))


# ------------------------------------------------------------------------ 3. the card picker
def test_picker_faces_are_the_variants_pack_and_its_jokers(app: AppState) -> None:
    ds = joker_match(app)
    start_deal(ds)
    v = ds.match.variant
    rows = ds.pick_rows()
    faces = [c for row in rows for c in row]
    assert rows[-1] == [JOKER]
    assert set(faces) == {
        c for c in [*(Card(r, s) for r in Rank for s in Suit), JOKER] if v.copies(c, 2) > 0
    }
    assert len(faces) == 4 * (len(v.pack_ranks) + len(v.extra_per_suit)) + 1
    ds.open_picker(0)
    built = ids(_screen(app, "deal"))
    assert {"pick-JOKER", "pick-9H", "pick-AS"} <= built
    assert "pick-7H" not in built and "pick-8C" not in built


def test_two_hand_picker_has_32_faces_and_no_joker(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert sum(len(r) for r in ds.pick_rows()) == 32
    ds.open_picker(0, tab="cards")  # the free choice: the 32-card grid
    built = ids(_screen(app, "deal"))
    assert "pick-7H" in built and "pick-JOKER" not in built


def test_the_joker_face_draws_a_star_in_the_shipped_font(app: AppState) -> None:
    ds = joker_match(app)
    start_deal(ds)
    ds.open_picker(0)
    controls = _screen(app, "deal")
    face = next(c for c in controls if isinstance(c, ft.Semantics) and c.identifier == "pick-JOKER")
    stars = [c for c in _walk(face) if isinstance(c, ft.Text)]
    assert [t.value for t in stars] == ["★"]
    assert stars[0].font_family == "DejaVuSans"
    assert face.label == "Joker ★"
    assert 0x2605 in _cmap(FONT)  # the shipped font has the star


@pytest.mark.parametrize(
    ("lang", "stands"),
    [("en", "★ = Q♥"), ("ru", "★ = Д♥")],  # Russian ranks on Russian screens
)
def test_joker_options_from_the_engine_and_the_ruling_names_its_card(
    app: AppState, lang: str, stands: str
) -> None:
    app.set_language(lang)
    ds = joker_match(app)
    start_deal(ds)  # hearts are trumps
    ds.open_picker(0)
    ds.add_new(parse_card("KH"))
    ds.add_new(JOKER)
    options = ds.options()
    engine = ds.match.options(0, (parse_card("KH"), JOKER), ())
    assert [(o.meld, o.points, o.accepted) for o in options] == [
        (o.meld, int(o.points), bool(o.ruling.accepted)) for o in engine
    ]
    accepted = [o for o in options if o.accepted]
    assert [(o.meld, o.points) for o in accepted] == [("trump_marriage", 4)]
    controls = _screen(app, "deal")
    assert "option-ruling-trump_marriage" in ids(controls)
    assert any(stands in t for t in texts(controls))
    view = ds.declare("trump_marriage")
    assert view is not None and view.accepted and view.points == 4
    assert stands in view.text
    assert any(stands in t for t in texts(_screen(app, "deal")))


def test_the_picker_holds_no_more_jokers_than_the_game(app: AppState) -> None:
    ds = joker_match(app)
    start_deal(ds)
    ds.open_picker(0)
    limit = ds.match.variant.copies(JOKER, 2)
    assert limit == ds.max_copies(JOKER) == 2
    for _ in range(limit + 1):
        ds.add_new(JOKER)
    assert ds.picker is not None and ds.picker.new.count(JOKER) == limit
    assert ds.notice is not None
    assert ds.max_copies(parse_card("9S")) == 3  # three nines per suit, not a pack's count


def test_the_ten_packs_house_rule_lets_the_picker_take_ten_queens(app: AppState) -> None:
    ds = new_match(app, variant=JOKER_VARIANT, rules=("H-JOKER-TEN-PACKS",))
    start_deal(ds)
    assert ds.max_copies(parse_card("QH")) == ds.match.variant.copies(parse_card("QH"), 2) == 10
    ds.open_picker(0)
    for _ in range(10):
        ds.add_new(parse_card("QH"))
    assert ds.notice is None
    assert ds.picker is not None and ds.picker.new.count(parse_card("QH")) == 10
    plain = joker_match(app)
    start_deal(plain)
    assert plain.max_copies(parse_card("QH")) == 8  # two players: eight packs by default


def test_a_joker_on_the_table_is_drawn_and_reusable(app: AppState) -> None:
    ds = joker_match(app)
    start_deal(ds)
    ds.open_picker(0)
    ds.add_new(parse_card("KH"))
    ds.add_new(JOKER)
    ds.declare("trump_marriage")
    assert JOKER in ds.table(0)
    ds.open_picker(0)
    ds.toggle_table(ds.table(0).index(JOKER))
    ds.add_new(parse_card("JD"))
    opts = {o.meld: o for o in ds.options()}
    assert opts["bezique"].accepted and opts["bezique"].points == 25
    built = ids(_screen(app, "deal"))
    assert "table-card-JOKER-0" in built and "option-ruling-bezique" in built


# ------------------------------------------------------------------------ 4. rules screen
def _open_joker_rules(app: AppState, lang: str) -> list[Any]:
    app.set_language(lang)
    app.go("rules")
    app.rules.set_variant(JOKER_VARIANT)
    assert app.rules.variant_id() == JOKER_VARIANT
    return _screen(app, "rules")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_screen_shows_the_joker_variants_showings_table(app: AppState, lang: str) -> None:
    controls = _open_joker_rules(app, lang)
    v = load_variant(JOKER_VARIANT)
    rows = app.rules.showings()
    assert [r.meld for r in rows] == [s.id for s in v.showings]
    built = ids(controls)
    assert "showings-table" in built and "combination-table" not in built
    assert {f"showing-{s.id}" for s in v.showings} <= built
    all_text = texts(controls)
    t = app.t
    for row, spec in zip(rows, v.showings, strict=True):
        assert row.name in all_text
        assert row.name.lower() == meld_name(spec.id, lang).lower()  # rulings.*.toml [melds]
        if lang == "ru":
            assert any("а" <= ch <= "я" for ch in row.name.lower()), row.name
        for cell in row.cells:
            assert cell in all_text
        if spec.kind == "series":
            assert row.cells == (
                *(t("showings.nth", n=i + 1, points=x) for i, x in enumerate(spec.values)),
                t("showings.then_doubling"),
            )
        elif spec.kind == "repeat":
            assert row.cells == (t("showings.n_times", points=spec.values[0]),)
        else:
            assert row.cells[0] == t("showings.set_four", points=spec.values[0])
            assert row.cells[1:] == tuple(
                t("showings.set_card", n=i + 5, points=x) for i, x in enumerate(spec.values[1:])
            )
    assert t("showings.title", variant=t(f"variant.{JOKER_VARIANT}")) in all_text


def test_showings_table_words_and_values(app: AppState) -> None:
    _open_joker_rules(app, "en")
    by_meld = {r.meld: r for r in app.rules.showings()}
    assert by_meld["trump_marriage"].name == "Trump marriage"
    assert by_meld["trump_marriage"].cells[:4] == (
        "showing 1: 4",
        "showing 2: 8",
        "showing 3: 16",
        "showing 4: 32",
    )
    assert by_meld["four_queens"].cells == ("showing n: n × 6",)
    assert by_meld["trump_queens"].cells[:3] == ("four cards: 176", "card 5: +100", "card 6: +200")
    _open_joker_rules(app, "ru")
    by_meld = {r.meld: r for r in app.rules.showings()}
    assert by_meld["trump_marriage"].name == "Козырный марьяж"
    assert by_meld["trump_queens"].cells[:2] == ("четыре карты: 176", "5-я карта: +100")


def test_showings_follow_the_open_matchs_variant_and_two_hand_keeps_its_table(
    app: AppState,
) -> None:
    app.go("rules")
    assert app.rules.showings() == []
    built = ids(_screen(app, "rules"))
    assert "combination-table" in built and "showings-table" not in built
    assert f"rules-variant-{JOKER_VARIANT}" in built
    joker_match(app)
    app.go("rules")
    assert app.rules.variant_id() == JOKER_VARIANT
    assert "showings-table" in ids(_screen(app, "rules"))
    app.rules.set_variant("two-hand")
    assert app.rules.showings() == []
    app.go("deal")
    app.go("rules")  # the reference opens again on the open match's variant
    assert app.rules.variant_id() == JOKER_VARIANT


# ------------------------------------------------------------------------ texts and screens
def test_the_new_texts_exist_in_both_languages() -> None:
    en, ru = load_catalog("en"), load_catalog("ru")
    for key in ("variant.joker-multipack", "deal.sits_out", "picker.joker", "rules.variant"):
        assert key in en and key in ru and en[key] != ru[key]
    assert (
        {k for k in en if k.startswith("showings.")}
        == {k for k in ru if k.startswith("showings.")}
        != set()
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_screen_builds_for_the_joker_variant(app: AppState, lang: str) -> None:
    app.set_language(lang)
    ds = joker_match(app, ("Anna", "Boris", "Carl", "Dora"))
    for name in SCREENS:
        _screen(app, name)
    start_deal(ds, dealer=1)
    ds.open_picker(0)
    ds.add_new(JOKER)
    for name in SCREENS:
        _screen(app, name)
    assert Path(FONT).exists()
