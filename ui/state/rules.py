"""The rules screen: the combination table in force, house rules, every rule and penalty with
its id (searchable), and worked examples whose rulings the engine itself produces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.cards import cards_text, parse_card
from referee.events import Declare, Event, Penalty, Seven, StockExhausted, Trick
from ui import backend
from ui.state import joker

if TYPE_CHECKING:
    from ui.state.app import AppState


@dataclass(frozen=True)
class RuleLine:
    id: str
    title: str
    text: str
    source: str = ""
    example: str = ""
    kind: str = "rule"
    standing: str = "in_force"  # in_force | off | replaced | elsewhere (the open match)
    note: str = ""  # the standing in words ("Off in this match"), empty when nothing to say


@dataclass(frozen=True)
class ExampleStep:
    event: str
    ruling: str
    accepted: bool


@dataclass(frozen=True)
class Example:
    title_key: str
    steps: tuple[ExampleStep, ...]


def _cards(codes: str) -> tuple[Any, ...]:
    return tuple(parse_card(c) for c in codes.split())


# The scenarios are facts at the table; the rulings shown come from running the engine on them.
EXAMPLES: dict[str, tuple[str, tuple[Event, ...]]] = {
    "rules.example_reuse": (
        "melds",
        (
            Declare(0, _cards("KC QC")),
            Declare(0, _cards("KD KS KH"), _cards("KC"), "four_kings"),
            Declare(0, _cards("QD"), _cards("KD"), "marriage"),
        ),
    ),
    "rules.example_pending": (
        "tricks",
        (
            Trick(0),
            Declare(0, _cards("KS QS JD"), (), "bezique"),
            Trick(1),
            Trick(0),
            Declare(0, (), _cards("KS QS"), "marriage"),
        ),
    ),
    "rules.example_sevens": (
        "tricks",
        (
            Trick(1),
            Seven(1),
            Trick(0),
            Seven(0),
            Seven(0),
        ),
    ),
    "rules.example_phase2": (
        "melds",
        (
            Declare(1, _cards("QS JD")),
            StockExhausted(),
            Declare(1, _cards("KH QH")),
            Penalty(1, "P-REVOKE"),
        ),
    ),
}
PLAYERS = ("Anna", "Boris")  # the engine's names; shown in the screen's language


class RulesScreen:
    """Search state plus the data the rules screen lists."""

    def __init__(self, app: AppState) -> None:
        self.app = app
        self.query = ""
        self.variant_choice: str | None = None  # another variant's tables than the match's

    def set_query(self, text: str) -> None:
        self.query = text.strip()

    def _setting(self) -> tuple[str, frozenset[str]]:
        """The open match's variant and house rules, else two-hand defaults; a variant chosen
        on the screen shows with its default readings."""
        session = self.app.session
        match = (
            (str(session.match.variant.id), frozenset(session.match.house_rules))
            if session is not None
            else ("two-hand", frozenset[str]())
        )
        if self.variant_choice is not None and self.variant_choice != match[0]:
            return self.variant_choice, frozenset()
        return match

    def variants(self) -> list[str]:
        return backend.variant_ids()

    def set_variant(self, variant: str) -> None:
        if variant in backend.variant_ids():
            self.variant_choice = variant

    def showings(self) -> list[joker.ShowingRow]:
        """The escalation table of a variant scored by showings (empty for the others)."""
        vid, rules = self._setting()
        return joker.showing_rows(self.app.t, vid, rules, self.app.lang)

    def variant_id(self) -> str:
        return self._setting()[0]

    def house_rules(self) -> list[str]:
        return sorted(self._setting()[1])

    def combinations(self) -> list[tuple[str, int]]:
        """(meld name, points) in force, the seven of trumps included, lowest first."""
        vid, rules = self._setting()
        melds, seven = backend.combination_table(vid, rules)
        lang = self.app.lang
        rows = [(_cap(backend.meld_name(meld, lang)), points) for meld, points in melds]
        rows.sort(key=lambda r: r[1])
        if seven:
            rows.insert(0, (self.app.t("rules.seven_row"), seven))
        return rows

    def rules(self) -> list[RuleLine]:
        """Every rule, penalty and house rule with its id, or the entries of every kind the
        search finds, ranked for the open match (what is in force first), each marked with
        its standing there."""
        lang = self.app.lang
        vid, house = self._setting()
        return [
            RuleLine(
                str(e.id),
                str(e.title),
                str(e.text),
                str(e.source or ""),
                str(e.example or ""),
                str(e.kind),
                standing,
                self._note(e, standing, vid, house),
            )
            for e, standing in backend.rule_entries(lang, self.query, vid, house)
        ]

    def _note(self, e: Any, standing: str, vid: str, house: frozenset[str]) -> str:
        t = self.app.t
        if standing == "in_force":
            return t("reference.house_on") if e.kind == "house" else ""
        if standing == "off":
            return t("reference.house_off") if e.kind == "house" else t("reference.meld_off")
        if standing == "replaced":
            return t("reference.replaced", rules=", ".join(backend.replaced_by(e.id, house)))
        names = ", ".join(
            self.app.t.get(f"variant.{v}", backend.variant_name(v, self.app.lang))
            for v in e.variants
        )
        return t("reference.elsewhere", variants=names)

    def highlighted(self) -> set[str]:
        """Rows of the table of points that the search's best answers are about."""
        if not self.query:
            return set()
        lang = self.app.lang
        vid, house = self._setting()
        melds = backend.melds_answering(lang, self.query, vid, house)
        return {_cap(backend.meld_name(m, lang)) for m in melds}

    def examples(self) -> list[Example]:
        return [self._run(key) for key in EXAMPLES]

    def _run(self, key: str) -> Example:
        tracking, events = EXAMPLES[key]
        lang = self.app.lang
        players = (self.app.t("reference.example_a"), self.app.t("reference.example_b"))
        steps: list[ExampleStep] = []
        for ev, ruling in backend.run_example("two-hand", players, tracking, "9H", events):
            said = describe_event(self.app.t, ev, players)
            if isinstance(ruling, str):  # an engine change made the scenario impossible
                steps.append(ExampleStep(said, ruling, False))
            else:
                steps.append(
                    ExampleStep(said, backend.ruling_text(ruling, lang), bool(ruling.accepted))
                )
        return Example(key, tuple(steps))


def describe_event(t: Any, ev: Event, players: tuple[str, ...] | list[str]) -> str:
    """An event in words for lists and examples (names, cards with suit symbols)."""
    from referee.events import Brisques, LastTrick

    if isinstance(ev, Trick):
        return str(t("event.trick", player=players[ev.winner]))
    if isinstance(ev, Declare):
        if not ev.new:
            return str(
                t(
                    "event.declare_pending",
                    player=players[ev.player],
                    meld=backend.meld_name(ev.meld or "", t.lang),
                )
            )
        if ev.table:
            return str(
                t(
                    "event.declare_table",
                    player=players[ev.player],
                    cards=cards_text(ev.new),
                    table=cards_text(ev.table),
                )
            )
        return str(t("event.declare", player=players[ev.player], cards=cards_text(ev.new)))
    if isinstance(ev, Seven):
        return str(t("event.seven", player=players[ev.player]))
    if isinstance(ev, Penalty):
        return str(
            t(
                "event.penalty",
                player=players[ev.player],
                offence=backend.rule_title(ev.offence, t.lang),
            )
        )
    if isinstance(ev, StockExhausted):
        return str(t("event.stock_exhausted"))
    if isinstance(ev, LastTrick):
        return str(t("event.last_trick", player=players[ev.winner]))
    if isinstance(ev, Brisques):
        counts = ", ".join(f"{players[s]} {n}" for s, n in sorted(ev.counts.items()))
        return str(t("event.brisques", counts=counts))
    return type(ev).__name__


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
