"""The SQLite URI of a database file is written without pathlib's ``as_uri`` (which imports
urllib.request on Python 3.14, a quarter of a second of a phone's start), and must still be
the very same string, whatever characters the file's path holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.storage.db import file_uri

NAMES = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1
)


@given(st.lists(NAMES, min_size=1, max_size=3))
def test_the_uri_is_the_one_pathlib_writes(parts: list[str]) -> None:
    path = Path("/", *parts)
    assert file_uri(path) == path.as_uri()


def test_a_relative_path_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert file_uri(Path("m.sqlite3")) == (tmp_path / "m.sqlite3").as_uri()


def test_sqlite_opens_a_file_whose_name_needs_escaping(tmp_path: Path) -> None:
    path = tmp_path / "a b?c#d%e Партия.sqlite3"
    sqlite3.connect(path).close()  # created by name, then opened by URI only
    with sqlite3.connect(f"{file_uri(path)}?mode=rw", uri=True) as con:
        assert con.execute("select 1").fetchone() == (1,)
