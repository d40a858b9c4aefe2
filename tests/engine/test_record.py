"""The record reader (spec, "match record"): every malformed record is an input error -- exit
status 2 and one message naming the place -- and nothing is half-replayed. Also export/import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.errors import RecordError
from referee.record import dump_record, load_record, parse_record, record_to_obj

from .conftest import brisques, decl, last, record, replay, result, seven, stock, trick


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str, str]:
    f = tmp_path / "m.json"
    f.write_text(text, encoding="utf-8")
    code = main(["replay", str(f), "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def _bad(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: Any, *places: str) -> str:
    code, out, err = _run(tmp_path, capsys, json.dumps(doc))
    assert code == 2
    assert out == ""  # nothing half-replayed
    assert err.count("\n") == 1  # one message
    for place in places:
        assert place in err, err
    return err


def test_record_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(tmp_path, capsys, '{"format": "bezique-match/1",\n  "players": [')
    assert code == 2 and out == ""
    assert "m.json" in err and "JSON" in err and "line" in err


def test_record_not_an_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _bad(tmp_path, capsys, ["format"], "object")


@pytest.mark.parametrize(
    ("edit", "place"),
    [
        (lambda d: d.update(speed=1), "speed"),
        (lambda d: d["deals"][0].update(trumps="H"), "deals[0].trumps"),
        (lambda d: d["deals"][0]["events"][0].update(points=40), "deals[0].events[0].points"),
        (lambda d: d["deals"][0]["events"][1].update(winnner="Anna"), "deals[0].events[1].winnner"),
    ],
)
def test_record_unknown_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, place: str
) -> None:
    doc = record([decl("Anna", ["QS", "JD"]), last("Anna")])
    edit(doc)
    assert "unknown field" in _bad(tmp_path, capsys, doc, place)


@pytest.mark.parametrize(
    ("events", "place", "card"),
    [
        ([decl("Anna", ["QS", "1S"])], "deals[0].events[0].new[1]", "1S"),
        ([decl("Anna", ["KS"], ["QX"])], "deals[0].events[0].table[0]", "QX"),
        ([trick("Anna", {"Boris": "9C", "Anna": "11C"})], "deals[0].events[0].cards.Anna", "11C"),
    ],
)
def test_record_unknown_card(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    events: list[dict[str, Any]],
    place: str,
    card: str,
) -> None:
    doc = record(events, tracking="cards" if events[0]["type"] == "trick" else "melds")
    err = _bad(tmp_path, capsys, doc, place, f'unknown card "{card}"')
    assert err.startswith("bezique: ")


def test_record_unknown_turn_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _bad(tmp_path, capsys, record([], turn_up="ZZ"), "deals[0].turn_up", '"ZZ"')


@pytest.mark.parametrize(
    ("doc", "place"),
    [
        (record([decl("Carl", ["QS", "JD"])]), "deals[0].events[0].player"),
        (record([seven("anna")]), "deals[0].events[0].player"),
        (record([last("Carl")]), "deals[0].events[0].winner"),
        (
            record([{"type": "brisques", "counts": {"Anna": 8, "Carl": 8}}]),
            "deals[0].events[0].counts",
        ),
        (record([], dealer="Carl"), "deals[0].dealer"),
        (
            record([trick("Anna", {"Carl": "9C", "Anna": "10C"})], tracking="cards"),
            "deals[0].events[0].cards",
        ),
    ],
)
def test_record_unknown_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: dict[str, Any], place: str
) -> None:
    assert "unknown player" in _bad(tmp_path, capsys, doc, place)


@pytest.mark.parametrize("counts", [(9, 8), (8, 7), (16, 1), (0, 0), (17, -1)])
def test_r_brisque_counts_that_cannot_add_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counts: tuple[int, int]
) -> None:
    # Two packs hold 8 aces + 8 tens = 16 brisques.
    doc = record([decl("Anna", ["QS", "JD"]), stock(), last("Anna"), brisques(*counts)])
    _bad(tmp_path, capsys, doc, "deals[0].events[3]")


@pytest.mark.parametrize("counts", [(16, 0), (0, 16), (8, 8), (3, 13)])
def test_r_brisque_counts_adding_to_16_score_ten_each(counts: tuple[int, int]) -> None:
    res = result(record([brisques(*counts)]))
    assert [s["total"] for s in res["sides"]] == [10 * counts[0], 10 * counts[1]]


def test_r_brisque_one_count_may_be_left_out() -> None:
    # Only Anna's 16 given: Boris has none.
    res = result(record([{"type": "brisques", "counts": {"Anna": 16}}]))
    assert [s["total"] for s in res["sides"]] == [160, 0]


def test_r_brisque_given_twice_is_an_input_error() -> None:
    with pytest.raises(RecordError) as info:
        replay(record([brisques(8, 8), brisques(8, 8)]))
    assert info.value.path == "deals[0].events[1]"


def _set(path: list[Any], value: Any) -> Any:
    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "place"),
    [
        (_set(["players"], "Anna"), "players"),
        (_set(["players"], ["Anna", 7]), "players[1]"),
        (_set(["players"], ["Anna", "Anna"]), "players[1]"),
        (_set(["players"], ["Anna", " "]), "players[1]"),
        (_set(["players"], ["Anna", "Boris", "Carl"]), "players"),
        (_set(["format"], "bezique-match/3"), "format"),
        (_set(["variant"], "two-hands"), "variant"),
        (_set(["tracking"], "everything"), "tracking"),
        (_set(["house_rules"], "H-ALL-NEW"), "house_rules"),
        (_set(["target"], "1000"), "target"),
        (_set(["target"], 0), "target"),
        (_set(["target"], True), "target"),
        (_set(["deals"], {}), "deals"),
        (_set(["deals", 0], []), "deals[0]"),
        (_set(["deals", 0, "events"], {}), "deals[0].events"),
        (_set(["deals", 0, "events", 0, "new"], "QS JD"), "deals[0].events[0].new"),
        (_set(["deals", 0, "events", 0, "table"], "QS"), "deals[0].events[0].table"),
        (_set(["deals", 0, "events", 0, "meld"], 40), "deals[0].events[0].meld"),
        (_set(["deals", 0, "events", 0, "player"], 0), "deals[0].events[0].player"),
        (_set(["deals", 0, "events", 0, "type"], "declaration"), "deals[0].events[0].type"),
        (_set(["deals", 0, "events", 1], "stock_exhausted"), "deals[0].events[1]"),
        (_set(["deals", 0, "events", 2, "counts"], [8, 8]), "deals[0].events[2].counts"),
        (_set(["deals", 0, "events", 2, "counts", "Anna"], 8.5), "deals[0].events[2].counts.Anna"),
        (_set(["deals", 0, "events", 2, "counts", "Anna"], "8"), "deals[0].events[2].counts.Anna"),
        (_set(["deals", 0, "turn_up"], 9), "deals[0].turn_up"),
    ],
)
def test_record_wrong_types(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, place: str
) -> None:
    doc = record([decl("Anna", ["QS", "JD"]), stock(), brisques(8, 8)])
    edit(doc)
    _bad(tmp_path, capsys, doc, place)


@pytest.mark.parametrize(
    ("drop", "place"),
    [
        (["format"], "format"),
        (["players"], "players"),
        (["deals"], "deals"),
        (["variant"], "variant"),
    ],
)
def test_record_missing_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], drop: list[str], place: str
) -> None:
    doc = record([])
    del doc[drop[0]]
    _bad(tmp_path, capsys, doc, place)


def test_record_missing_event_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _bad(
        tmp_path,
        capsys,
        record([{"type": "declare", "new": ["QS", "JD"]}]),
        "deals[0].events[0]",
        "player",
    )
    _bad(
        tmp_path,
        capsys,
        record([{"player": "Anna", "new": ["QS", "JD"]}]),
        "deals[0].events[0]",
        "type",
    )


def test_record_two_hand_needs_a_turn_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _bad(tmp_path, capsys, record([], turn_up=None), "deals[0]")


def test_record_error_later_in_the_file_replays_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = record([decl("Anna", ["QS", "JD"]), decl("Boris", ["KC", "Q?"])])
    _bad(tmp_path, capsys, doc, "deals[0].events[1].new[1]")


def test_record_defaults() -> None:
    # tracking, house_rules and target may be left out.
    doc = {
        "format": "bezique-match/1",
        "variant": "two-hand",
        "players": ["Anna", "Boris"],
        "deals": [{"dealer": "Anna", "turn_up": "7D", "events": []}],
    }
    m = replay(doc)
    assert m.tracking == "melds" and m.house_rules == frozenset() and m.target == 1000
    assert m.result().sides[0].total == 10  # the dealer's seven


def test_record_symbol_and_lowercase_cards_are_read(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    doc = record([decl("Anna", ["q♠", "J♦"]), decl("Boris", ["tc", "KC", "AC", "qc", "jc"])])
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    m = replay(record_to_obj(load_record(f)))
    assert [s.total for s in m.result().sides] == [40, 100]


# ------------------------------------------------------------------ export / import
def test_record_export_then_import_gives_the_same_result() -> None:
    doc = record(
        [
            trick("Anna"),
            decl("Anna", ["KS", "QS", "JD"], meld="bezique"),
            decl("Anna", ["KC", "QC"]),
            trick("Anna"),
            seven("Anna"),
            trick("Boris"),
            {"type": "penalty", "player": "Anna", "offence": "P-EARLY-DECLARE"},
        ],
        tracking="tricks",
        house_rules=["H-SEVEN-FREE", "H-TARGET"],
        target=700,
    )
    m = replay(doc)
    text = dump_record(m.to_record())
    again = replay_record_text(text)
    assert again.result() == m.result()
    assert json.loads(text)["target"] == 700
    assert json.loads(text)["house_rules"] == ["H-SEVEN-FREE", "H-TARGET"]


def replay_record_text(text: str) -> Any:
    return replay(json.loads(text))


def test_record_export_keeps_rejected_events_at_their_places() -> None:
    doc = record([decl("Anna", ["QS", "JD"]), stock(), decl("Boris", ["KC", "QC"])])
    m = replay(doc)
    out = json.loads(dump_record(m.to_record()))
    assert out["deals"][0]["events"] == doc["deals"][0]["events"]
    assert [(r.deal, r.event) for r in replay(out).result().rejected] == [(0, 2)]


def test_record_export_of_the_cards_level_keeps_from_table() -> None:
    events = [
        trick("Anna", {"Boris": "7C", "Anna": "8C"}),
        decl("Anna", ["KC", "QC"]),
        trick("Anna", {"Anna": "KC", "Boris": "9S"}, from_table=["Anna"]),
    ]
    m = replay(record(events, tracking="cards"))
    out = json.loads(dump_record(m.to_record()))
    assert out["deals"][0]["events"][2]["from_table"] == ["Anna"]
    assert replay(out).result() == m.result()


def test_record_parse_is_strict_without_the_cli() -> None:
    with pytest.raises(RecordError) as info:
        parse_record(record([decl("Anna", ["QS", "1S"])]))
    assert info.value.path == "deals[0].events[0].new[1]"


def test_record_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    f = tmp_path / "bom.json"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(record([decl("Anna", ["QS", "JD"])])).encode())
    assert replay(record_to_obj(load_record(f))).result().sides[0].total == 40


def test_record_file_not_in_utf8_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "latin.json"
    f.write_bytes(json.dumps(record([])).replace("Anna", "Ann\u00e9").encode("latin-1"))
    assert main(["replay", str(f)]) == 2
    assert "latin.json" in capsys.readouterr().err
