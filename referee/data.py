"""Where the data files live: ``data/`` beside the package in a source tree, ``referee/_data``
inside an installed wheel. Rule sets, combination tables and texts are data, not code."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent


@cache
def data_dir() -> Path:
    for candidate in (_HERE / "_data", _HERE.parent / "data"):
        if (candidate / "variants").is_dir():
            return candidate
    raise FileNotFoundError(f"Bezique Referee data folder not found beside {_HERE}")


@cache
def load_toml(relative: str) -> dict[str, Any]:
    """A TOML data file, read once."""
    with (data_dir() / relative).open("rb") as f:
        return tomllib.load(f)
