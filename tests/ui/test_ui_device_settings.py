"""Where a device keeps its choices (ui/device_settings.py). The phone build keeps them in a
file beside its database, so a start asks Flutter nothing; a phone that kept them in the
browser's preferences (earlier builds) has them carried into the file once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from ui.device_settings import KEYS, FileSettings, system_language


class Earlier:
    """Settings an earlier build kept in the client's preferences; counts the round trips."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.reads = 0

    async def read(self) -> dict[str, str]:
        self.reads += 1
        return dict(self.values)

    async def write(self, values: dict[str, str]) -> None:
        raise AssertionError("the phone build writes its file, not the client's preferences")

    async def languages(self) -> list[str]:
        raise AssertionError("the phone build reads the worker's navigator")


def _settings(tmp_path: Path, earlier: Earlier | None = None) -> tuple[FileSettings, list[int]]:
    synced: list[int] = []
    return (
        FileSettings(
            str(tmp_path / "bezique" / "settings.json"),
            sync=lambda: synced.append(1),
            earlier=earlier,
            navigator_languages=lambda: ["ru-RU", "en-GB"],
        ),
        synced,
    )


def test_earlier_preferences_are_carried_into_the_file_once(tmp_path: Path) -> None:
    earlier = Earlier({"lang": "ru", "theme": "dark"})
    settings, synced = _settings(tmp_path, earlier)
    assert asyncio.run(settings.read()) == {"lang": "ru", "theme": "dark"}
    assert asyncio.run(settings.read()) == {"lang": "ru", "theme": "dark"}
    assert earlier.reads == 1  # the next starts ask the client nothing
    assert synced == [1]  # the file went to the browser's storage
    again, _ = _settings(tmp_path, Earlier({"lang": "en"}))  # the next start
    assert asyncio.run(again.read()) == {"lang": "ru", "theme": "dark"}


def test_a_write_keeps_the_other_values_and_reaches_browser_storage(tmp_path: Path) -> None:
    settings, synced = _settings(tmp_path, Earlier({}))
    asyncio.run(settings.write({"lang": "en", "theme": "light"}))
    asyncio.run(settings.write({"form": json.dumps({"players": ["Анна"]}, ensure_ascii=False)}))
    saved = asyncio.run(settings.read())
    assert saved["lang"] == "en" and saved["theme"] == "light"
    assert json.loads(saved["form"]) == {"players": ["Анна"]}
    assert len(synced) == 2
    assert not (tmp_path / "bezique" / "settings.json.new").exists()


def test_a_damaged_file_gives_the_defaults_and_the_next_write_mends_it(tmp_path: Path) -> None:
    settings, _ = _settings(tmp_path, Earlier({"lang": "ru"}))
    path = tmp_path / "bezique" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"lang": "r')  # cut short
    assert asyncio.run(settings.read()) == {}
    asyncio.run(settings.write({"lang": "ru"}))
    assert asyncio.run(settings.read()) == {"lang": "ru"}


def test_unknown_names_and_values_that_are_not_text_are_ignored(tmp_path: Path) -> None:
    settings, _ = _settings(tmp_path)
    path = tmp_path / "bezique" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"lang": "ru", "theme": 3, "other": "x"}), "utf-8")
    assert asyncio.run(settings.read()) == {"lang": "ru"}
    assert set(KEYS) >= {"lang", "theme", "form", "device", "device_number", "awake"}


def test_the_phone_language_comes_from_the_browser_without_a_round_trip(tmp_path: Path) -> None:
    settings, _ = _settings(tmp_path)
    assert asyncio.run(system_language(settings)) == "ru"
    broken = FileSettings(str(tmp_path / "s.json"), sync=lambda: None,
                          navigator_languages=lambda: [][0])
    assert asyncio.run(system_language(broken)) == "en"  # no navigator: the default
