"""Rulings are data: accepted or rejected, the rule applied, and a message in plain words.

Messages are templates in ``data/i18n/rulings.<lang>.toml`` filled with the ruling's
parameters, so the same ruling reads in English or Russian. Parameters whose name ends in
``meld`` are combination ids and are translated too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from referee import glossary, plurals
from referee.cards import Card
from referee.data import load_toml
from referee.variants import ShowingSpec

LANGUAGES = ("en", "ru")
Params = Mapping[str, str | int]


@cache
def _texts(lang: str) -> dict[str, Any]:
    return load_toml(f"i18n/rulings.{lang if lang in LANGUAGES else 'en'}.toml")


def meld_name(meld: str, lang: str = "en") -> str:
    """A combination's name in words: ``double_bezique`` → "double bezique"."""
    names: dict[str, str] = _texts(lang).get("melds", {})
    return names.get(meld, meld.replace("_", " "))


def label(key: str, lang: str = "en") -> str:
    """A short label of the reference tables (``[labels]`` in the rulings file)."""
    labels: dict[str, str] = _texts(lang).get("labels", {}) or _texts("en")["labels"]
    return labels.get(key, key)


def showing_line(spec: ShowingSpec, lang: str = "en") -> str:
    """A joker-variant showing's values in words: "1st 4, 2nd 8, 3rd 16, 4th 32, then ×2"."""
    if spec.kind == "series":
        parts = [label("nth_showing", lang).format(n=i + 1, points=v)
                 for i, v in enumerate(spec.values)]
        return ", ".join(parts) + ", " + label("then_doubling", lang)
    if spec.kind == "repeat":
        return label("n_times", lang).format(points=spec.values[0])
    parts = [label("set_first", lang).format(points=spec.values[0])]
    parts += [label("set_next", lang).format(n=i + 5, points=v)
              for i, v in enumerate(spec.values[1:])]
    return ", ".join(parts)


def rule_name(rule: str, lang: str = "en") -> str:
    """A rule's or penalty's title from the reference (data/rules.toml), else the engine's
    short title, else the id."""
    from referee.reference import entry

    try:
        title = entry(rule, lang).title
    except KeyError:
        title = ""
    return title or rule_title(rule, lang)


def rule_title(rule: str, lang: str = "en") -> str:
    titles: dict[str, str] = _texts(lang).get("rules", {})
    return titles.get(rule, rule)


WHERE_ITEM, WHERE_FIELD = "\x1e", "\x1f"  # separators no player name contains


def where_text(where: str, lang: str = "en") -> str:
    """Places of a card's known copies (``place, player, count`` items) → "1 on Anna's table,
    2 played" in the given language."""
    words: dict[str, str] = _texts(lang).get("where", {}) or _texts("en")["where"]
    parts = []
    for item in filter(None, where.split(WHERE_ITEM)):
        place, player, count = [*item.split(WHERE_FIELD), "", "", ""][:3]
        template = words.get(place, place)
        parts.append(template.format(player=player, count=count))
    return ", ".join(parts) or words.get("none", "none")


def _word(key: str, value: str | int, lang: str) -> str | int:
    """A parameter in the message's language: combination ids, copy places, lists of
    combinations ("meld, detail" items: pending ones with their cards, options with points),
    variant ids."""
    if key.endswith("meld"):
        return meld_name(str(value), lang)
    if key == "where":
        return where_text(str(value), lang)
    if key in ("pending", "options"):
        items = [item.split(WHERE_FIELD) for item in str(value).split(WHERE_ITEM) if item]
        return ", ".join(f"{meld_name(m, lang)} ({rest})" for m, rest, *_ in items)
    if key == "sides":  # side names: "Anna, Boris and Vera"
        names = [n for n in str(value).split(WHERE_ITEM) if n]
        if len(names) < 2:
            return "".join(names)
        return f"{', '.join(names[:-1])} {label('and', lang)} {names[-1]}"
    if key == "offence":  # a penalty's id → its title ("False declaration")
        return rule_name(str(value), lang)
    if key == "variant":
        from referee.reference import variant_name

        return variant_name(str(value), lang)
    return value


def render(key: str, params: Params, lang: str = "en") -> str:
    """Fill a message template; a missing template or parameter still yields readable text."""
    own = _texts(lang).get("messages", {}).get(key)
    template = own or _texts("en")["messages"].get(key)
    if template is None:
        return f"{key} {dict(params)}"
    if plurals.is_table(template):  # a counted phrase: the form the number asks for
        template = plurals.choose(template, lang if own else "en", params)
    values = {k: _word(k, v, lang) for k, v in params.items()}
    try:
        text = str(template).format(**values)
    except (KeyError, IndexError, ValueError):
        text = f"{template} {dict(params)}"
    text = glossary.shown_cards(text, lang)  # Д♠ В♦ in Russian; codes unchanged
    return text[:1].upper() + text[1:]  # a sentence, even when it opens with a name


@dataclass(frozen=True, slots=True)
class Proposal:
    """Something the referee noticed that the table may act on (e.g. propose P-REVOKE)."""

    rule: str
    penalty: str
    player: int
    key: str
    params: Params = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.render("en")

    def text(self, lang: str = "en") -> str:
        """The proposal in plain words, without the rule's id (a screen shows it once)."""
        return render(self.key, self.params, lang)

    def render(self, lang: str = "en") -> str:
        """The words followed by the rule's id, for plain-text output (the CLI)."""
        return f"{self.text(lang)} — {self.rule}"

    cited = render


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's decision on one event."""

    accepted: bool
    rule: str
    key: str
    params: Params = field(default_factory=lambda: MappingProxyType({}))
    points: int = 0
    meld: str | None = None
    proposes: str | None = None
    pending: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    proposals: tuple[Proposal, ...] = ()

    @property
    def message(self) -> str:
        return self.render("en")

    def text(self, lang: str = "en") -> str:
        """The ruling in plain words, without the rule's id: a screen shows ``rule`` once
        beside it (issue 15: one id per ruling, never repeated in the text)."""
        return render(self.key, self.params, lang)

    def render(self, lang: str = "en") -> str:
        """The words followed by the rule's id ("… — R-REUSE"), for plain-text output."""
        return f"{self.text(lang)} — {self.rule}"

    cited = render


def accept(rule: str, key: str, params: Params | None = None, **kw: Any) -> Ruling:
    return Ruling(True, rule, key, MappingProxyType(dict(params or {})), **kw)


def reject(rule: str, key: str, params: Params | None = None, **kw: Any) -> Ruling:
    return Ruling(False, rule, key, MappingProxyType(dict(params or {})), **kw)
