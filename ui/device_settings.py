"""Where a device keeps its own choices (language, theme, its name, the new-match form's
memory) and how it learns the device's languages: the one place that differs by platform.

- A server's sessions keep them in each browser (Flet's ``SharedPreferences``, the browser's
  localStorage), because many devices share one server; reading them is a round trip to the
  device, and so is asking the device's languages.
- The phone build's Python runs in the same browser as its screen, beside the database kept
  in IndexedDB (ui/browser_storage.py). A round trip there waits for Flutter, which is busy
  starting: it cost 0.15 s of a 3.3 s start at CPU 1× and 1.3 s of 7.3 s at 4× (two trips:
  the settings, then the languages). So the phone keeps its choices in a file in that
  folder, read before Flutter asks for the first screen, and reads the languages from the
  worker's own ``navigator``. A phone that kept them in localStorage (builds before this
  one) has them carried into the file once, on its first start.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable
from typing import Protocol

import flet as ft

from ui import runtime
from ui.i18n import pick_language

log = logging.getLogger(__name__)

KEYS = {
    "lang": "bezique.lang",
    "theme": "bezique.theme",
    "form": "bezique.new_match",
    "device": "bezique.device",
    "device_number": "bezique.device_number",
    "awake": "bezique.awake",
}
SETTINGS_FILE = "settings.json"  # in the phone build's data folder


class DeviceSettings(Protocol):
    """A device's saved choices by name (``KEYS``); values are text."""

    async def read(self) -> dict[str, str]:
        """What was saved (nothing on failure: the app's defaults)."""
        ...

    async def write(self, values: dict[str, str]) -> None:
        """Keep these values (others stay); a failure is logged, never raised."""
        ...

    async def languages(self) -> list[str]:
        """The device's preferred languages, best first, as "ll-CC" codes."""
        ...


class ClientSettings:
    """The browser's or the phone's preferences, through Flet's client (a round trip each)."""

    def __init__(self, page: ft.Page) -> None:
        self._page = page
        self._service: ft.SharedPreferences | None = None

    @property
    def _prefs(self) -> ft.SharedPreferences:
        # Made when first used: making one registers a service on the page, an update to
        # the client that the phone build's start need not send.
        if self._service is None:
            self._service = ft.SharedPreferences()
        return self._service

    async def read(self) -> dict[str, str]:
        names = list(KEYS)
        try:
            values = await asyncio.wait_for(
                asyncio.gather(*(self._prefs.get(KEYS[n]) for n in names)), timeout=1.0
            )
        except Exception:  # no answer from the client: defaults
            log.debug("no saved settings", exc_info=True)
            return {}
        return {n: v for n, v in zip(names, values, strict=True) if isinstance(v, str)}

    async def write(self, values: dict[str, str]) -> None:
        try:
            for name, value in values.items():
                await self._prefs.set(KEYS[name], value)
        except Exception:  # not worth disturbing the game for
            log.debug("settings not saved", exc_info=True)

    async def languages(self) -> list[str]:
        try:
            info = await asyncio.wait_for(self._page.get_device_info(), timeout=1.5)
        except Exception:  # the client may not answer (old client, timeout): default language
            log.debug("no device info", exc_info=True)
            return []
        return [
            f"{loc.language_code or ''}-{loc.country_code or ''}"
            for loc in (info.locales if info else [])
        ]


class FileSettings:
    """A JSON file in the folder the browser keeps (the phone build): read at once, written
    whole (a temporary file replaced in one step), then carried to IndexedDB by ``sync``.
    ``earlier`` gives what an earlier build kept elsewhere, asked once when there is no file."""

    def __init__(
        self,
        path: str,
        sync: Callable[[], object],
        earlier: DeviceSettings | None = None,
        navigator_languages: Callable[[], list[str]] | None = None,
    ) -> None:
        self._path = path
        self._sync = sync
        self._earlier = earlier
        self._navigator_languages = navigator_languages or _worker_languages

    def _load(self) -> dict[str, str] | None:
        try:
            with open(self._path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            return None
        except (OSError, ValueError):  # damaged: the defaults, and the next write mends it
            log.warning("device settings unreadable: %s", self._path, exc_info=True)
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if k in KEYS and isinstance(v, str)}

    async def read(self) -> dict[str, str]:
        saved = self._load()
        if saved is not None:
            return saved
        carried = await self._earlier.read() if self._earlier is not None else {}
        self._store(carried)  # from now on no start asks the client
        return carried

    async def write(self, values: dict[str, str]) -> None:
        try:
            self._store({**(self._load() or {}), **values})
        except Exception:  # not worth disturbing the game for
            log.warning("settings not saved", exc_info=True)

    def _store(self, values: dict[str, str]) -> None:
        os.makedirs(os.path.dirname(self._path) or ".", exist_ok=True)
        temporary = self._path + ".new"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(values, f, ensure_ascii=False, sort_keys=True)
        os.replace(temporary, self._path)
        self._sync()

    async def languages(self) -> list[str]:
        try:
            return self._navigator_languages()
        except Exception:  # no navigator: the default language
            log.debug("no navigator languages", exc_info=True)
            return []


def _worker_languages() -> list[str]:
    """The browser's languages, read in Pyodide's worker (``WorkerNavigator.languages``)."""
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to the worker's globals

    return [str(code) for code in js.navigator.languages]


def for_page(page: ft.Page) -> DeviceSettings:
    """This platform's settings for a session's device."""
    if runtime.IN_BROWSER:
        from ui import browser_storage

        return FileSettings(
            os.path.join(browser_storage.DATA_DIR, SETTINGS_FILE),
            sync=runtime.durability.carry_files,
            earlier=ClientSettings(page),
        )
    return ClientSettings(page)


async def system_language(settings: DeviceSettings) -> str:
    """The device's preferred language if we speak it (English otherwise)."""
    return pick_language(await settings.languages())

