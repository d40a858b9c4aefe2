"""The club's players and ratings from the stored matches (issue #24): renames and merges keep
every match replayable and its statistics with the player, the ratings read from the store equal
``ratings.compute`` over the same results, and a correction changes only the ratings after it.
Each store test runs on SQLite and on PostgreSQL (when configured)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from referee.cli import main
from referee.club import ratings as rt
from referee.club.results import result_of
from referee.storage import Store
from referee.storage.errors import StorageInputError

DOUBLE = ["QS", "QS", "JD", "JD"]


def play(store: Store, a: str, b: str, winner: str) -> int:
    """A finished two-hand match of one deal: ``winner`` declares a double bezique (500)."""
    mid = store.create_match("two-hand", [a, b], target=500)
    store.start_deal(mid, 0, "9H")
    loser = b if winner == a else a
    store.record(mid, {"type": "declare", "player": winner, "new": DOUBLE})
    store.record(mid, {"type": "declare", "player": loser, "new": ["KH", "QH"]})
    store.record(mid, {"type": "stock_exhausted"})
    store.record(mid, {"type": "last_trick", "winner": winner})
    store.record(mid, {"type": "brisques", "counts": {winner: 10, loser: 6}})
    assert store.match_info(mid).winner == winner
    return mid


def play_three(store: Store, players: Sequence[str]) -> int:
    """A finished three-hand match: the second player first, the third second."""
    mid = store.create_match("three-hand", list(players), target=300)
    store.start_deal(mid, 0, "9H")
    store.record(mid, {"type": "declare", "player": players[1], "new": DOUBLE})
    store.record(mid, {"type": "stock_exhausted"})
    store.record(mid, {"type": "last_trick", "winner": players[2]})
    store.record(mid, {"type": "brisques", "counts": dict.fromkeys(players, 8)})
    assert store.match_info(mid).finished
    return mid


def stats_of(store: Store) -> dict[str, tuple[int, int, int, int | None]]:
    return {
        s.name: (s.matches_played, s.matches_won, s.deals_played, s.biggest_deal)
        for s in store.player_stats()
    }


def ids_of(store: Store) -> dict[str, int]:
    return {r.name: r.id for r in store.player_list()}


# ---------------------------------------------------------------------------------- rename
def test_rename_keeps_matches_statistics_and_ratings_with_the_player(store: Store) -> None:
    m1 = play(store, "Anna", "Boris", "Anna")
    m2 = play(store, "Boris", "Anna", "Boris")
    before_stats = stats_of(store)
    before_ratings = store.club().ratings
    record = store.export_match(m1)
    anna = ids_of(store)["Anna"]

    store.rename_player("Anna", "Anna Karenina")

    assert ids_of(store)["Anna Karenina"] == anna and "Anna" not in ids_of(store)
    assert stats_of(store) == {
        ("Anna Karenina" if k == "Anna" else k): v for k, v in before_stats.items()
    }
    rows = {r.name: r for r in store.player_list()}
    assert (rows["Anna Karenina"].matches, rows["Anna Karenina"].finished) == (2, 2)
    assert rows["Anna Karenina"].played_as == ("Anna",)
    # the matches replay under the names their logs speak, and export unchanged
    assert store.load_match(m1).result().winner == "Anna"
    assert store.match_info(m2).players == ("Boris", "Anna")
    assert store.export_match(m1) == record
    assert store.import_record(record).skipped == [m1]  # a backup of before is still known
    club = store.club()
    assert club.ratings == before_ratings  # ids, not names: nothing to recompute
    assert club.name(str(anna)) == "Anna Karenina"
    assert {r.player for r in club.records.most_double_beziques} == {"Anna Karenina", "Boris"}


def test_a_renamed_player_plays_on_under_the_new_name_and_the_old_one_is_free(
    store: Store,
) -> None:
    unfinished = store.create_match("two-hand", ["Anna", "Boris"], target=500)
    store.start_deal(unfinished, 0, "9H")
    store.rename_player("Anna", "Ann")
    # the match started as "Anna" goes on as "Anna": its log keeps one name throughout
    store.record(unfinished, {"type": "declare", "player": "Anna", "new": DOUBLE})
    assert store.cached_scores(unfinished) == [[500, 0]]
    play(store, "Ann", "Boris", "Ann")
    play(store, "Anna", "Boris", "Boris")  # a new player who took the free name
    rows = {r.name: r for r in store.player_list()}
    assert rows["Ann"].matches == 2 and rows["Anna"].matches == 1
    assert rows["Ann"].id != rows["Anna"].id
    store.rename_player("Ann", "Annie")
    store.rename_player("Annie", "Ann")  # and back: the seats' names are remembered once
    assert {r.name: r.played_as for r in store.player_list()}["Ann"] == ("Anna",)


def test_rename_refuses_a_taken_name_an_empty_name_and_an_unknown_player(store: Store) -> None:
    play(store, "Anna", "Boris", "Anna")
    with pytest.raises(StorageInputError, match='"Boris" is already another player'):
        store.rename_player("Anna", "Boris")
    with pytest.raises(StorageInputError, match="cannot be empty"):
        store.rename_player("Anna", "  ")
    with pytest.raises(StorageInputError, match='no player is called "Zed"'):
        store.rename_player("Zed", "Zoe")
    with pytest.raises(StorageInputError, match='already called "Anna"'):
        store.rename_player("Anna", "Anna")
    assert sorted(ids_of(store)) == ["Anna", "Boris"]


# ---------------------------------------------------------------------------------- merge
def test_merge_moves_every_match_and_statistic_and_removes_the_duplicate(store: Store) -> None:
    play(store, "Anna", "Boris", "Anna")
    m2 = play(store, "Bo", "Anna", "Bo")
    unfinished = store.create_match("two-hand", ["Bo", "Carl"], target=500)
    store.start_deal(unfinished, 0, "9H")
    boris = ids_of(store)["Boris"]
    bo_stats = stats_of(store)["Bo"]
    store.club()  # what the store keeps of the replays must follow the merge

    assert store.merge_players("Bo", "Boris") == 2

    assert "Bo" not in ids_of(store) and ids_of(store)["Boris"] == boris
    played, won, deals, _ = stats_of(store)["Boris"]
    assert (played, won, deals) == (1 + bo_stats[0], bo_stats[1], 1 + bo_stats[2])
    assert {r.name: r.played_as for r in store.player_list()}["Boris"] == ("Bo",)
    assert store.match_info(m2).players == ("Bo", "Anna")
    assert store.load_match(m2).result().winner == "Bo"
    # the unfinished match goes on, its caches now Boris's
    store.record(unfinished, {"type": "declare", "player": "Bo", "new": DOUBLE})
    assert store.cached_scores(unfinished) == [[500, 0]]
    assert stats_of(store)["Boris"][2] == 3
    club = store.club()
    history = club.ratings.history[str(boris)]
    assert [s.match_id for s in history] == ["1", "2"] and history[1].rank == 1


def test_merge_refuses_two_players_who_sat_in_the_same_match_and_names_it(store: Store) -> None:
    play(store, "Anna", "Boris", "Anna")
    m2 = play(store, "Boris", "Anna", "Boris")
    play(store, "Anna", "Carl", "Carl")
    with pytest.raises(StorageInputError, match=f"both sat in matches 1, {m2}: they are two"):
        store.merge_players("Boris", "Anna")
    with pytest.raises(StorageInputError, match="into itself"):
        store.merge_players("Anna", "Anna")
    with pytest.raises(StorageInputError, match='no player is called "Dora"'):
        store.merge_players("Dora", "Anna")
    assert sorted(ids_of(store)) == ["Anna", "Boris", "Carl"]
    assert stats_of(store)["Anna"][0] == 3


# ---------------------------------------------------------------------------------- ratings
def test_ratings_from_the_store_equal_compute_over_the_same_results(store: Store) -> None:
    play(store, "Anna", "Boris", "Anna")
    play_three(store, ["Anna", "Boris", "Carl"])
    play(store, "Carl", "Anna", "Carl")
    store.create_match("two-hand", ["Anna", "Dora"], target=500)  # unfinished: not counted
    play(store, "Boris", "Carl", "Boris")
    ids = {n: str(i) for n, i in ids_of(store).items()}
    finished = sorted(
        (m for m in store.list_matches() if m.finished),
        key=lambda m: (m.finished_at, m.id),
    )
    expected = rt.compute(
        result_of(store.load_match(m.id), str(m.id), m.finished_at, ids) for m in finished
    )

    club = store.club()

    assert club.ratings == expected
    assert club.ratings.order == tuple(str(m.id) for m in finished)
    assert [r.match_id for r in club.results] == list(club.ratings.order)
    assert ids["Dora"] not in club.ratings.current and club.skipped == ()
    three = club.result("2")
    assert [(side.players, side.rank) for side in three.sides] == [
        ((ids["Anna"],), 3),
        ((ids["Boris"],), 1),
        ((ids["Carl"],), 2),
    ]


def test_a_correction_changes_the_ratings_after_it_and_none_before(store: Store) -> None:
    play(store, "Anna", "Boris", "Anna")
    m2 = play(store, "Anna", "Carl", "Anna")
    play(store, "Boris", "Carl", "Boris")
    play(store, "Carl", "Anna", "Carl")
    before = store.club()
    finished_at = store.match_info(m2).finished_at

    # Carl, not Anna, declared the double bezique in match 2: Carl wins it
    first = store.event_seqs(m2)[0][0]
    store.correct(m2, first, {"type": "declare", "player": "Carl", "new": DOUBLE})
    assert store.match_info(m2).winner == "Carl"
    assert store.match_info(m2).finished_at == finished_at  # it keeps its place

    after = store.club()
    assert after.ratings.order == before.ratings.order
    anna, carl = (str(ids_of(store)[n]) for n in ("Anna", "Carl"))
    assert after.ratings.history[anna][0] == before.ratings.history[anna][0]  # match 1
    assert after.result(str(m2)).sides[1].rank == 1
    for who in (anna, carl):
        for old, new in zip(before.ratings.history[who], after.ratings.history[who], strict=True):
            if int(old.match_id) >= m2:
                assert new.after != old.after, (who, old.match_id)
    assert after.ratings.current[carl].ordinal > before.ratings.current[carl].ordinal


def test_records_name_players_by_their_current_names(store: Store) -> None:
    play(store, "Anna", "Boris", "Anna")
    store.rename_player("Anna", "Ann")
    club = store.club(records=1)
    (deal,) = club.records.highest_deals
    assert (deal.players, deal.side, deal.points) == (("Ann",), "Ann", 610)


def test_the_club_from_a_salvaged_file_keeps_the_names_the_matches_were_played_under(
    sqlite_path: Path, tmp_path: Path
) -> None:
    from referee.storage.salvage import salvage

    with Store.open(sqlite_path) as store:
        m1 = play(store, "Anna", "Boris", "Anna")
        play(store, "Bo", "Carl", "Carl")
        store.rename_player("Anna", "Ann")
        store.merge_players("Bo", "Boris")
        expected = store.club().ratings
    out = tmp_path / "salvaged.sqlite3"
    salvage(sqlite_path, out)
    with Store.open(out, repair=False) as again:
        assert again.match_info(m1).players == ("Anna", "Boris")
        assert {r.name: r.played_as for r in again.player_list()} == {
            "Ann": ("Anna",),
            "Boris": ("Bo",),
            "Carl": (),
        }
        assert again.club().ratings == expected


# ---------------------------------------------------------------------------------- CLI
def bezique(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main(["club", *args, "--db", str(db)])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_cli_club_players_rename_merge_ratings_history_and_records(
    sqlite_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(sqlite_path) as store:
        play(store, "Anna", "Boris", "Anna")
        play(store, "Bo", "Anna", "Bo")
        play_three(store, ["Anna", "Boris", "Carl"])
    db = sqlite_path

    assert bezique(capsys, db, "rename", "Anna", "Ann") == (
        0,
        '"Anna" is now "Ann" (3 matches); the matches keep the names they were played under\n',
        "",
    )
    code, out, _ = bezique(capsys, db, "merge", "Bo", "Boris")
    assert (code, out) == (0, '"Bo" merged into "Boris": 1 match moved, "Bo" removed\n')
    code, out, _ = bezique(capsys, db, "players")
    assert out.splitlines() == [
        "Ann: 3 matches, 3 finished  (also played as Anna)",
        "Boris: 3 matches, 3 finished  (also played as Bo)",
        "Carl: 1 match, 1 finished",
    ]

    code, out, _ = bezique(capsys, db, "ratings", "--json")
    board = json.loads(out)
    assert [r["place"] for r in board] == [1, 2, 3]
    assert {r["player"]: r["matches"] for r in board} == {"Ann": 3, "Boris": 3, "Carl": 1}
    assert [r["ordinal"] for r in board] == sorted((r["ordinal"] for r in board), reverse=True)
    assert all(r["rating"] == round(r["ordinal"], 1) for r in board)
    code, out, _ = bezique(capsys, db, "ratings")
    first = board[0]
    assert out.splitlines()[0].split() == [
        "1.",
        first["player"],
        f"{first['rating']:.1f}",
        str(first["matches"]),
    ]

    code, out, _ = bezique(capsys, db, "history", "Ann")
    lines = out.splitlines()
    assert len(lines) == 3
    assert "match 1" in lines[0] and "vs Boris: won 610–100  0.0 → " in lines[0]
    assert "match 2" in lines[1] and "vs Boris: lost 100–610" in lines[1]
    assert "three-hand" in lines[2] and "vs Boris / Carl: came 3rd" in lines[2]
    code, out, _ = bezique(capsys, db, "history", "Ann", "--json")
    steps = json.loads(out)
    assert [s["before"] for s in steps[1:]] == [s["after"] for s in steps[:-1]]

    code, out, _ = bezique(capsys, db, "records", "--limit", "2")
    assert out.splitlines()[:3] == [
        "Highest deal scores:",
        f"  1.   610  Ann  (match 1, deal 1, two-hand, {steps[0]['date']})",
        f"  2.   610  Boris  (match 2, deal 1, two-hand, {steps[1]['date']})",
    ]
    assert "Most double beziques in a match:" in out


def test_cli_club_errors_exit_2_with_a_sentence_and_no_traceback(
    sqlite_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(sqlite_path) as store:
        play(store, "Anna", "Boris", "Anna")
    db = sqlite_path
    code, out, err = bezique(capsys, db, "merge", "Boris", "Anna")
    assert code == 2 and out == ""
    assert err == (
        'bezique club merge: "Boris" and "Anna" both sat in match 1: they are two people,'
        " not one; nothing was merged\n"
    )
    code, _, err = bezique(capsys, db, "rename", "Anna", "Boris")
    assert code == 2 and "already another player's name" in err and "Traceback" not in err
    store = Store.open(db)
    store.rename_player("Anna", "Ann")
    store.close()
    code, _, err = bezique(capsys, db, "history", "Anna")
    assert code == 2
    assert err.endswith(
        'no player is called "Anna" (see `bezique club players`); "Anna" is now called "Ann"\n'
    )
    empty = db.with_name("empty.sqlite3")
    assert bezique(capsys, empty, "ratings")[:2] == (
        0,
        "no finished matches yet: nobody is rated\n",
    )


def test_a_match_undone_out_of_its_finish_leaves_the_ratings_until_it_finishes_again(
    store: Store,
) -> None:
    play(store, "Anna", "Boris", "Anna")
    m2 = play(store, "Boris", "Anna", "Boris")
    assert store.club().ratings.order == ("1", str(m2))
    assert store.undo(m2)
    assert store.club().ratings.order == ("1",)
    assert store.redo(m2)
    club = store.club()
    assert club.ratings.order == ("1", str(m2)) and club.result(str(m2)).sides[0].rank == 1


def test_a_merge_in_another_process_does_not_leave_a_match_in_play_writing_the_old_id(
    db_url: str,
) -> None:
    with Store.open(db_url) as table, Store.open(db_url) as club_desk:
        mid = table.create_match("two-hand", ["Bo", "Carl"], target=500)
        table.start_deal(mid, 0, "9H")
        table.record(mid, {"type": "declare", "player": "Bo", "new": ["KH", "QH"]})
        play(club_desk, "Boris", "Carl", "Boris")
        club_desk.merge_players("Bo", "Boris")
        # the table's in-memory replay still thinks seat 0 is Bo's row, which is gone
        table.record(mid, {"type": "declare", "player": "Bo", "new": DOUBLE})
        assert table.cached_scores(mid) == [[540, 0]]
        stats = {s.name: s for s in table.player_stats()}
        assert set(stats) == {"Boris", "Carl"} and stats["Boris"].matches_played == 2
        assert {m.meld for m in stats["Boris"].best_melds} >= {"double_bezique"}
