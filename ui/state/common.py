"""Small value types shared by the screen states."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Notice:
    """A message for a banner: a translation key with its arguments."""

    key: str
    args: dict[str, object] = field(default_factory=dict)
    error: bool = False


def points_text(points: int) -> str:
    """A score as the sheet prints it: a real minus sign (U+2212) for a negative one, so
    "−10" reads at arm's length as less than nothing, not as a dash."""
    return f"\u2212{-points}" if points < 0 else str(points)


def rule_id_text(rule: str) -> str:
    """A rule's id inside running text, with a non-breaking hyphen (U+2011), so a narrow
    line never splits it into "R-" and "GAME"."""
    return rule.replace("-", "\u2011")


def signed_text(points: int) -> str:
    """A change of score: "+60" / "−10", with the same real minus."""
    return f"+{points}" if points >= 0 else points_text(points)
