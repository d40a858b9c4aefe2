"""Small value types shared by the screen states."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Notice:
    """A message for a banner: a translation key with its arguments."""

    key: str
    args: dict[str, object] = field(default_factory=dict)
    error: bool = False
