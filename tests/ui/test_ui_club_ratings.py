"""The club's ratings on the director's screen (issue #24), without a browser: the state over a
real store with finished matches (two-hand and three-hand), compared with what ``store.club()``
says; rename and merge through the state with the store's refusals in words; a table phone
refused; the views built in both languages at a laptop's and a phone's width."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ui.club_scope import OutOfScope, TableStore
from ui.server.club_night import ClubNight
from ui.state.app import AppState
from ui.state.club import ClubScreen
from ui.state.club_ratings import RatingsScreen, axis

DOUBLE = ["QS", "QS", "JD", "JD"]


def play(store: Any, a: str, b: str, winner: str) -> int:
    """A finished two-hand match of one deal: ``winner`` declares a double bezique (500)."""
    mid = int(store.create_match("two-hand", [a, b], target=500))
    store.start_deal(mid, 0, "9H")
    loser = b if winner == a else a
    store.record(mid, {"type": "declare", "player": winner, "new": DOUBLE})
    store.record(mid, {"type": "declare", "player": loser, "new": ["KH", "QH"]})
    store.record(mid, {"type": "stock_exhausted"})
    store.record(mid, {"type": "last_trick", "winner": winner})
    store.record(mid, {"type": "brisques", "counts": {winner: 10, loser: 6}})
    assert store.match_info(mid).winner == winner
    return mid


def play_three(store: Any, players: Sequence[str]) -> int:
    """A finished three-hand match: the second player first, the third second."""
    mid = int(store.create_match("three-hand", list(players), target=300))
    store.start_deal(mid, 0, "9H")
    store.record(mid, {"type": "declare", "player": players[1], "new": DOUBLE})
    store.record(mid, {"type": "stock_exhausted"})
    store.record(mid, {"type": "last_trick", "winner": players[2]})
    store.record(mid, {"type": "brisques", "counts": dict.fromkeys(players, 8)})
    assert store.match_info(mid).finished
    return mid


def director(store: Any, lang: str = "en") -> AppState:
    app = AppState(store, lang=lang)
    app.club = ClubScreen(app, ClubNight(base_url="http://192.0.2.5:8550"))
    app.go("club", remember=False)
    return app


def ratings(app: AppState) -> RatingsScreen:
    assert app.club is not None
    return app.club.ratings


def ids(store: Any) -> dict[str, str]:
    return {r.name: str(r.id) for r in store.player_list()}


def evening(store: Any) -> dict[str, int]:
    """Four finished matches of four players and one still being played."""
    return {
        "m1": play(store, "Anna", "Boris", "Anna"),
        "m2": play_three(store, ["Anna", "Boris", "Clara"]),
        "m3": play(store, "Clara", "Anna", "Clara"),
        "m4": play(store, "Boris", "Dmitri", "Dmitri"),
        "open": int(store.create_match("two-hand", ["Anna", "Elena"], target=500)),
    }


def test_the_leaderboard_is_the_stores(store: Any) -> None:
    evening(store)
    d = director(store)
    rs = ratings(d)
    rs.open()
    assert d.screen == "club_ratings" and d.route == "/club/ratings"
    club = store.club()
    board = rs.board()
    expected = club.ratings.leaderboard()
    assert [(r.place, r.player, r.rating, r.matches) for r in board] == [
        (r.place, r.player, r.rating.shown, r.matches) for r in expected
    ]
    assert [r.name for r in board] == [club.name(r.player) for r in expected]
    # best first, by the ordinal
    ordinals = [club.ratings.current[r.player].ordinal for r in board]
    assert ordinals == sorted(ordinals, reverse=True)
    for row in board:
        last = club.ratings.history[row.player][-1]
        assert row.trend == round(last.after.shown - last.before.shown, 1)
    by_name = {r.name: r for r in board}
    assert by_name["Anna"].matches == 3 and by_name["Dmitri"].matches == 1
    assert by_name["Dmitri"].trend > 0 and by_name["Boris"].trend < 0  # Boris lost match 4
    # Elena sits in an unfinished match only: not rated, but listed to be reached
    assert "Elena" not in by_name
    assert rs.unrated() == [(ids(store)["Elena"], "Elena")]
    assert rs.skipped() == []


def test_a_players_history_and_curve(store: Any) -> None:
    m = evening(store)
    d = director(store)
    rs = ratings(d)
    anna = ids(store)["Anna"]
    rs.open_player(anna)
    assert d.screen == "club_player" and d.route == f"/club/player/{anna}"
    page = rs.page()
    assert page is not None and page.name == "Anna" and page.matches == 4  # one unfinished
    club = store.club()
    steps = club.ratings.history[anna]
    assert page.rating == club.ratings.current[anna].shown
    assert page.place == next(r.place for r in club.ratings.leaderboard() if r.player == anna)
    rows = page.history
    assert [r.match_id for r in rows] == [str(m["m1"]), str(m["m2"]), str(m["m3"])]
    assert [(r.before, r.after) for r in rows] == [(s.before.shown, s.after.shown) for s in steps]
    assert rows[0].before == 0.0  # a newcomer starts at 0
    assert [r.before for r in rows[1:]] == [r.after for r in rows[:-1]]
    assert [r.change for r in rows] == [round(r.after - r.before, 1) for r in rows]
    first, three, lost = rows
    assert (first.result, first.opponents, first.partners) == ("won", (("Boris",),), ())
    assert (first.score, first.other_scores, first.variant) == (610, (100,), "two-hand")
    assert three.result == "place" and three.place == 3 and three.sides == 3
    assert three.opponents == (("Boris",), ("Clara",)) and three.variant == "three-hand"
    assert lost.result == "lost" and lost.opponents == (("Clara",),)
    # the curve: where Anna started, then after each match, one point per match
    curve = page.curve
    assert curve is not None
    assert [x for x, _ in curve.points] == [0, 1, 2, 3]
    assert [y for _, y in curve.points] == [
        steps[0].before.ordinal,
        *(y for _, y in club.ratings.curve(anna)),
    ]
    assert curve.low <= min(y for _, y in curve.points)
    assert curve.high >= max(y for _, y in curve.points)
    assert curve.ticks[0] == curve.low and curve.ticks[-1] == curve.high
    # an unrated player's page: no history, no curve
    rs.open_player(ids(store)["Elena"])
    elena = rs.page()
    assert elena is not None and elena.rating is None and elena.curve is None
    assert elena.history == () and elena.matches == 1


def test_the_records_and_a_match_the_engine_cannot_replay(store: Any, tmp_path: Path) -> None:
    m = evening(store)
    broken = play(store, "Boris", "Clara", "Clara")
    # the log of a finished match says something no replay accepts (a seat nobody has)
    with sqlite3.connect(tmp_path / "ui.sqlite3") as db:
        seq, payload = db.execute(
            "SELECT seq, payload FROM log_entry WHERE match_id = ? AND kind = 'event'"
            " ORDER BY seq LIMIT 1",
            (broken,),
        ).fetchone()
        event = json.loads(payload)
        event["player"] = "Nobody"
        db.execute(
            "UPDATE log_entry SET payload = ? WHERE match_id = ? AND seq = ?",
            (json.dumps(event), broken, seq),
        )
    d = director(store)
    rs = ratings(d)
    club = store.club()
    assert len(club.skipped) == 1
    (skipped,) = rs.skipped()
    assert skipped.match_id == str(broken) and skipped.why
    assert str(broken) not in {r.match_id for r in club.results}
    deals, doubles = rs.records()
    assert [(r.points, r.players, r.match_id, r.deal) for r in deals] == [
        (d.points, d.players, d.match_id, d.deal + 1) for d in club.records.highest_deals
    ]
    assert deals[0].points == 610 and deals[0].match_id == str(m["m1"])
    assert deals[0].players == ("Anna",)
    assert [(r.count, r.player, r.match_id) for r in doubles] == [
        (b.count, b.player, b.match_id) for b in club.records.most_double_beziques
    ]
    assert doubles[0].player == "Anna" and doubles[0].count == 1
    # and the screen says it: the broken match by number, in either language
    from ui_helpers import order, walk

    from ui.views import SCREENS
    from ui.views.common import ViewContext

    rs.open()
    for lang in ("en", "ru"):
        d.set_language(lang)
        built = SCREENS["club_ratings"](ViewContext(app=d, page=None))  # type: ignore[arg-type]
        assert "ratings-skipped" in order(built.body)
        texts = " ".join(str(getattr(c, "value", "") or "") for c in walk(built.body))
        word = "Match" if lang == "en" else "Партия"
        assert f"{word} {broken}:" in texts


def test_the_board_is_read_again_only_after_a_write(store: Any, monkeypatch: Any) -> None:
    evening(store)
    d = director(store)
    rs = ratings(d)
    calls: list[int] = []
    real = store.club

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "club", counted)
    before = rs.board()
    rs.board()
    rs.records()
    assert len(calls) == 1  # nothing written: the same club
    # a table finishes a match: the next drawing has it
    play(store, "Dmitri", "Clara", "Dmitri")
    after = rs.board()
    assert len(calls) == 2
    assert {r.name: r.matches for r in after}["Dmitri"] == 2
    assert after != before
    # a move that finishes nothing is a write too: read again (the store replays nothing)
    store.start_deal(int(store.create_match("two-hand", ["Anna", "Boris"])), 0, "9H")
    rs.board()
    assert len(calls) == 3


def test_a_correction_changes_the_history_after_it(store: Any) -> None:
    play(store, "Anna", "Boris", "Anna")
    m2 = play(store, "Anna", "Carl", "Anna")
    play(store, "Carl", "Anna", "Carl")
    d = director(store)
    rs = ratings(d)
    anna = ids(store)["Anna"]
    before = rs.history(anna)
    first = store.event_seqs(m2)[0][0]
    store.correct(m2, first, {"type": "declare", "player": "Carl", "new": DOUBLE})
    after = rs.history(anna)
    assert after[0] == before[0]  # match 1: before the correction
    assert after[1].result == "lost" and before[1].result == "won"
    assert after[2].after != before[2].after  # and every rating after it


def test_rename_through_the_screen_and_its_refusals_in_words(store: Any) -> None:
    evening(store)
    d = director(store)
    rs = ratings(d)
    anna = ids(store)["Anna"]
    rs.open_player(anna)
    rating = rs.page().rating  # type: ignore[union-attr]

    for typed, key, words in (
        ("Boris", "club_ratings.refused_taken", 'Not renamed: "Boris" is already another'),
        ("   ", "club_ratings.refused_empty", "cannot be empty"),
        ("Anna", "club_ratings.refused_same", 'already called "Anna"'),
    ):
        rs.set_rename(typed)
        assert not rs.rename()
        assert d.notice is not None and d.notice.key == key and d.notice.error
        assert words in d.t(d.notice.key, **d.notice.args)
    # said beside the Rename button (the page may be scrolled far from its top)
    from ui_helpers import order

    from ui.views import SCREENS
    from ui.views.common import ViewContext

    got = order(SCREENS["club_player"](ViewContext(app=d, page=None)).body)  # type: ignore[arg-type]
    assert got.index("player-rename") < got.index("ratings-notice") < got.index("player-merge")
    d.set_language("ru")
    rs.set_rename("Boris")
    assert not rs.rename()
    assert d.notice is not None
    assert d.t(d.notice.key, **d.notice.args).startswith("Не переименовано: «Boris»")
    assert sorted(ids(store)) == ["Anna", "Boris", "Clara", "Dmitri", "Elena"]

    rs.set_rename("  Anna K ")
    assert rs.rename()
    assert d.notice is not None and d.notice.key == "club_ratings.renamed"
    assert (
        d.t(d.notice.key, **d.notice.args)
        == "«Anna» теперь «Anna K»; партии и рейтинг остались за игроком."
    )
    page = rs.page()
    assert page is not None
    assert (page.player, page.name, page.rating, page.played_as) == (
        anna,
        "Anna K",
        rating,
        ("Anna",),
    )
    assert "Anna K" in {r.name for r in rs.board()}
    assert store.club().name(anna) == "Anna K"
    # renamed meanwhile elsewhere (the command line): the page follows the player's id
    store.rename_player("Anna K", "Ann")
    page = rs.page()
    assert page is not None and page.name == "Ann"
    rs.set_rename("Annie")
    assert rs.rename() and store.club().name(anna) == "Annie"


def test_merge_asks_first_then_moves_the_matches_or_says_why_not(store: Any) -> None:
    m = evening(store)
    bo = play(store, "Bo", "Clara", "Bo")
    d = director(store)
    rs = ratings(d)
    names = ids(store)
    # Boris and Anna sat in matches 1 and 2: two people
    rs.open_player(names["Boris"])
    rs.pick_merge(names["Anna"])
    rs.ask_merge()
    assert rs.confirm_merge
    assert rs.merge_question() == {"source": "Boris", "into": "Anna", "n": 3}
    question = d.t("club_ratings.merge_confirm", **rs.merge_question())  # type: ignore[arg-type]
    assert question.startswith('Merge "Boris" into "Anna"? "Boris"\'s 3 matches become')
    assert not rs.merge()
    assert d.notice is not None and d.notice.key == "club_ratings.refused_shared_many"
    said = d.t(d.notice.key, **d.notice.args)
    assert said == (
        f'Not merged: "Boris" and "Anna" both sat in matches {m["m1"]}, {m["m2"]}, so they'
        " are two people, not one. Nothing was changed."
    )
    assert ids(store) == names  # nothing merged
    # Bo is Boris under another name: asked, then merged; Boris's page opens
    boris_before = rs.history(names["Boris"])
    rs.open_player(names["Bo"])
    assert (names["Bo"], "Bo") not in rs.merge_choices()
    rs.pick_merge(names["Boris"])
    assert not rs.confirm_merge
    rs.ask_merge()
    assert rs.merge_question() == {"source": "Bo", "into": "Boris", "n": 1}
    rs.cancel_merge()
    assert not rs.confirm_merge and "Bo" in ids(store)
    rs.ask_merge()
    assert rs.merge()
    assert d.notice is not None and d.notice.key == "club_ratings.merged"
    assert d.t(d.notice.key, **d.notice.args) == '"Bo" is merged into "Boris": 1 match moved.'
    assert "Bo" not in ids(store) and rs.player == names["Boris"]
    page = rs.page()
    assert page is not None and page.name == "Boris" and page.played_as == ("Bo",)
    assert [r.match_id for r in page.history] == [
        *(r.match_id for r in boris_before),
        str(bo),
    ]
    club = store.club()
    assert page.rating == club.ratings.current[names["Boris"]].shown
    assert names["Bo"] not in {r.player for r in rs.board()}


def test_a_merge_into_a_player_renamed_or_merged_meanwhile(store: Any) -> None:
    play(store, "Anna", "Boris", "Anna")
    play(store, "Bo", "Carl", "Bo")
    play(store, "Dora", "Eve", "Dora")
    d = director(store)
    rs = ratings(d)
    names = ids(store)
    rs.open_player(names["Bo"])
    rs.pick_merge(names["Boris"])
    rs.ask_merge()
    assert rs.merge_question() == {"source": "Bo", "into": "Boris", "n": 1}
    # renamed elsewhere (the command line) before the director's yes: the merge is into
    # the player chosen, under the name they have now
    store.rename_player("Boris", "Borya")
    assert rs.merge_question() == {"source": "Bo", "into": "Borya", "n": 1}
    assert rs.merge() and "Bo" not in ids(store)
    assert d.notice is not None and d.notice.args["into"] == "Borya"
    # merged away elsewhere before the yes: said by the name the screen showed
    rs.open_player(names["Dora"])
    rs.pick_merge(names["Eve"])
    rs.ask_merge()
    store.merge_players("Eve", "Carl")
    assert not rs.merge()
    assert d.notice is not None and d.notice.key == "club_ratings.refused_gone"
    assert d.t(d.notice.key, **d.notice.args).startswith(
        'Not done: there is no player called "Eve" any more'
    )
    assert "Dora" in ids(store) and rs.merge_into is None
    assert (names["Eve"], "Eve") not in rs.merge_choices()


def test_a_table_phone_reaches_no_rating_screen_and_its_store_refuses(store: Any) -> None:
    evening(store)
    night = ClubNight(base_url="http://192.0.2.5:8550")
    t = night.add_table(int(store.create_match("two-hand", ["Anna", "Boris"])))
    p = AppState(store, lang="en")
    p.club_table = t.number
    p.store = TableStore(store, night, t.number, lambda: p.t("club.other_table", n=t.number))
    for call in (
        lambda: p.store.club(),
        lambda: p.store.player_list(),
        lambda: p.store.players(),
        lambda: p.store.rename_player("Anna", "Ann"),
        lambda: p.store.merge_players("Anna", "Boris"),
    ):
        with pytest.raises(OutOfScope, match="table 1"):
            call()
    for screen in ("club_ratings", "club_player"):
        p.go(screen)  # type: ignore[arg-type]
        assert p.screen == "home"
    assert not p.open_route("/club/ratings")
    assert not p.open_route(f"/club/player/{ids(store)['Anna']}")
    # even a ratings state made for it by mistake reads and writes nothing
    rs = RatingsScreen(p)
    assert not rs.allowed()
    assert rs.board() == [] and rs.records() == ([], []) and rs.page() is None
    rs.player = ids(store)["Anna"]
    rs.set_rename("Ann")
    assert not rs.rename()
    assert "Anna" in ids(store)
    # and a director's screen state on a table's phone (a bug elsewhere) is refused too
    p.club = ClubScreen(p, night)
    assert not p.club.ratings.allowed() and p.club.ratings.board() == []


def test_only_the_director_reaches_the_ratings(store: Any) -> None:
    app = AppState(store, lang="en")  # not the director's session
    app.go("club_ratings")  # type: ignore[arg-type]
    assert app.screen == "home"
    assert not app.open_route("/club/ratings")
    d = director(store)
    assert d.open_route("/club/ratings") and d.screen == "club_ratings"
    play(store, "Anna", "Boris", "Anna")
    anna = ids(store)["Anna"]
    assert d.open_route(f"/club/player/{anna}") and d.screen == "club_player"
    d.back()
    assert d.screen == "club_ratings"
    d.back()
    assert d.screen == "club"


def test_the_axis_is_round() -> None:
    assert axis(0.0, 5.3) == (0.0, 6.0, (0.0, 2.0, 4.0, 6.0))
    low, high, ticks = axis(-2.4, 0.0)
    assert (low, high) == (-3.0, 0.0) and ticks[0] == -3.0 and ticks[-1] == 0.0
    low, high, ticks = axis(0.0, 0.0)
    assert low <= 0.0 <= high and len(ticks) >= 2


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("width", [1280.0, 360.0])
def test_the_screens_are_built_in_both_languages(store: Any, lang: str, width: float) -> None:
    from ui_helpers import order, walk

    from ui.views import SCREENS
    from ui.views.common import VIEWPORT_WIDTH, ViewContext

    evening(store)
    d = director(store, lang)
    rs = ratings(d)
    token = VIEWPORT_WIDTH.set(width)
    try:
        built = SCREENS["club"](ViewContext(app=d, page=None))  # type: ignore[arg-type]
        assert "club-ratings" in order(built.body)  # the link from the director's screen
        rs.open()
        built = SCREENS["club_ratings"](ViewContext(app=d, page=None))  # type: ignore[arg-type]
        got = order(built.body)
        assert {"ratings-board", "ratings-records", "ratings-model", "ratings-unrated"} <= set(got)
        board_ids = [i for i in got if i.startswith("rating-")]
        assert board_ids[:4] == [f"rating-{r.player}" for r in rs.board()]
        texts = [str(getattr(c, "value", "") or "") for c in walk(built.body)]
        assert not [t for t in texts if t.startswith("club_ratings.")]  # every key translated
        rs.open_player(ids(store)["Anna"])
        rs.pick_merge(ids(store)["Dmitri"])
        rs.ask_merge()
        built = SCREENS["club_player"](ViewContext(app=d, page=None))  # type: ignore[arg-type]
        got = order(built.body)
        assert {
            "player-summary",
            "player-curve",
            "player-history",
            "player-rename",
            "player-merge-question",
            "player-merge-yes",
        } <= set(got)
        texts = [str(getattr(c, "value", "") or "") for c in walk(built.body)]
        assert not [t for t in texts if t.startswith("club_ratings.")]
    finally:
        VIEWPORT_WIDTH.reset(token)


def test_a_table_finishing_its_match_reaches_the_board_at_the_next_drawing(store: Any) -> None:
    from test_ui_club import phone
    from ui_helpers import order

    from ui.views import SCREENS
    from ui.views.common import ViewContext

    play(store, "Anna", "Boris", "Anna")
    night = ClubNight(base_url="http://192.0.2.5:8550")
    d = AppState(store, lang="en")
    d.club = ClubScreen(d, night)
    d.go("club", remember=False)
    assert d.club is not None
    d.club.new_table()  # the director's "New table", through the app's own form
    form = d.new_form
    assert form is not None
    form.set_name(0, "Clara")
    form.set_name(1, "Dmitri")
    form.set_target("500")
    assert d.submit_new_match(), form.errors
    number = d.club.links_of
    assert number is not None
    rs = ratings(d)
    rs.open()

    def drawn() -> list[str]:
        built = SCREENS["club_ratings"](ViewContext(app=d, page=None))  # type: ignore[arg-type]
        return [i for i in order(built.body) if i.startswith("rating-")]

    names = ids(store)
    assert drawn()[:2] == [f"rating-{names['Anna']}", f"rating-{names['Boris']}"]
    assert f"rating-{names['Clara']}" in drawn()  # listed as not rated yet, not ranked
    assert "Clara" not in {r.name for r in rs.board()}
    # table 1's scorer records the match to its end through its own (scoped) store
    p = phone(store, night, number)
    table = night.table(number)
    assert table is not None
    mid = table.match_id
    p.store.start_deal(mid, 0, "9H")
    for event in (
        {"type": "declare", "player": "Clara", "new": DOUBLE},
        {"type": "stock_exhausted"},
        {"type": "last_trick", "winner": "Clara"},
        {"type": "brisques", "counts": {"Clara": 10, "Dmitri": 6}},
    ):
        p.store.record(mid, event)
    assert store.match_info(mid).winner == "Clara"
    board = rs.board()
    assert {r.name: r.matches for r in board} == {"Anna": 1, "Boris": 1, "Clara": 1, "Dmitri": 1}
    assert board == [b for b in board if b.name in ("Anna", "Clara")] + [
        b for b in board if b.name in ("Boris", "Dmitri")
    ]
    assert set(drawn()[:4]) == {f"rating-{names[n]}" for n in ("Anna", "Boris", "Clara", "Dmitri")}


@pytest.mark.parametrize("screen", ["club_ratings", "club_player"])
def test_the_ratings_screens_are_drawn_again_when_a_table_moves(store: Any, screen: str) -> None:
    from test_ui_club import create_table, phone
    from test_ui_table import Hub, declare
    from ui_helpers import a_moment_later, start_deal

    play(store, "Anna", "Boris", "Anna")
    hub = Hub()
    night = ClubNight(base_url="http://192.0.2.5:8550")
    d = AppState(store, lang="en")
    d.club = ClubScreen(d, night)
    d.go("club", remember=False)
    create_table(d, ("Clara", "Dmitri"))
    rs = ratings(d)
    rs.open()
    if screen == "club_player":
        rs.open_player(ids(store)["Anna"])
    assert d.screen == screen
    hub.join(d, "director")
    p = phone(store, night, 1)
    hub.join(p, "Clara's phone")
    table = night.table(1)
    assert table is not None and p.open_match(table.match_id) and p.deal is not None
    drawn: list[str] = []
    d.subscribe(lambda: drawn.append(d.screen))
    start_deal(p.deal)
    a_moment_later(p)
    declare(p, 0, "KH QH")
    hub.deliver(p, d)
    assert drawn and drawn[-1] == screen  # the screen reads the store again as it is drawn
