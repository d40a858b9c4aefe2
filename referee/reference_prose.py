"""Rule ids inside the prose of reference texts, put in the players' words.

The reference's texts cross-refer by id ("under H-BEZIQUE-PAIR: ..."), which keeps
data/rules.toml checkable; players read titles. Each entry keeps its own id as its label, the
ids *inside* its texts become the cited rule's title in quotation marks.
"""

from __future__ import annotations

import re

from referee.rulings import rule_name

# An id of the reference: a kind letter, a dash, upper-case words joined by dashes.
RULE_ID = re.compile(r"(?<![\w-])[RPHCVJ]-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])")
_QUOTES = {"ru": ("«", "»"), "en": ("“", "”")}


def titles_for_ids(text: str, lang: str = "en") -> str:
    """``text`` with every known rule id replaced by that rule's quoted title in ``lang``;
    an id the reference does not know stays as written (nothing is invented)."""
    opening, closing = _QUOTES.get(lang, _QUOTES["en"])

    def title(m: re.Match[str]) -> str:
        rid = m.group(0)
        name = rule_name(rid, lang)
        return rid if not name or name == rid else f"{opening}{name}{closing}"

    return RULE_ID.sub(title, text)
