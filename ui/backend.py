"""The one place the UI touches the engine (referee/) and the storage layer (referee.storage).

Storage, variant and rules data, rulings' texts and every engine object the UI creates go
through here; the state classes then read the engine's ``Match`` that a MatchSession holds
(its ``options``, ``verify``, ``result`` and the current deal) and use the engine's value types
(cards, events). Nothing here decides a rule: it forwards, converts and reads data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from concurrent.futures import Future, wait
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from referee import presets, reference, reference_prose, reference_search, rulings
from referee.cards import Card, Suit
from referee.record import event_from_obj, event_to_obj
from referee.storage.errors import StaleWrite, StorageError
from referee.variants import load_variant
from referee.variants import variant_ids as _variant_ids
from referee.verdict import variant_rule
from ui import runtime
from ui.i18n import Translator
from ui.pending_writes import RetryWhileAway


class StoreLike(Protocol):
    notice: Any


@dataclass(frozen=True)
class VariantInfo:
    """What the new-match form needs to know about a variant."""

    id: str
    player_counts: tuple[int, ...]
    targets: dict[int, int]
    partnerships_at: frozenset[int]
    house_rules: tuple[str, ...]
    turn_up: bool
    tracking_levels: tuple[str, ...] = ("melds", "tricks", "cards")
    games: int | None = None  # where each deal is a game (Rubicon …): the default number


VARIANT_ORDER = (
    "two-hand", "three-hand", "four-hand", "no-trump", "rubicon", "six-pack", "eight-pack"
)


def variant_ids() -> list[str]:
    """Variants the engine knows, the common ones first."""
    ids = list(_variant_ids())
    return sorted(ids, key=lambda v: (VARIANT_ORDER.index(v) if v in VARIANT_ORDER else 99, v))


@cache
def variant_info(variant: str) -> VariantInfo:
    v = load_variant(variant)
    return VariantInfo(
        id=v.id,
        player_counts=tuple(v.player_counts),
        targets=dict(v.targets_by_players),
        partnerships_at=frozenset(v.partnerships_at),
        house_rules=tuple(v.house_rules_available),
        turn_up=v.turn_up,
        tracking_levels=tuple(v.tracking_levels),
        games=v.games if v.game is not None else None,
    )


def variant_name(variant: str, lang: str) -> str:
    """A variant in words from the rules reference (for variants the UI texts do not name)."""
    return reference.variant_name(variant, lang)


@dataclass(frozen=True)
class ShowingLine:
    """One showing of a variant scored by showings, as its data gives it: ``kind`` series
    (``values[n-1]`` for the n-th showing, doubling after), repeat (n × ``values[0]``) or set
    (``values[0]`` for four cards, then ``values[k]`` for card 4+k)."""

    meld: str
    kind: str
    values: tuple[int, ...]


def showing_table(variant: str, house_rules: frozenset[str]) -> list[ShowingLine]:
    """The variant's showings and their escalating values (empty for the trick variants)."""
    v = load_variant(variant, house_rules)
    return [ShowingLine(s.id, str(s.kind), tuple(int(x) for x in s.values)) for s in v.showings]


def combination_table(
    variant: str, house_rules: frozenset[str]
) -> tuple[list[tuple[str, int]], int]:
    """The combinations in force (meld id, points) and the seven of trumps' points, read from
    the variant's data with the house rules applied."""
    v = load_variant(variant, house_rules)
    return [(c.id, int(c.points)) for c in v.combinations], int(v.seven_points)


def meld_name(meld: str, lang: str) -> str:
    return rulings.meld_name(meld, lang)


def _entry(rule: str, lang: str) -> Any | None:
    try:
        return reference.entry(rule, lang)
    except KeyError:
        return None


def rule_title(rule: str, lang: str) -> str:
    """A rule's title from the rules reference (the engine's short title as a fallback)."""
    e = _entry(rule, lang)
    return str(e.title) if e is not None and e.title else rulings.rule_title(rule, lang)


def ruling_text(ruling: Any, lang: str) -> str:
    render = getattr(ruling, "render", None)
    if callable(render):
        return str(render(lang))
    return str(getattr(ruling, "message", ""))


def ruling_words(ruling: Any, lang: str) -> str:
    """The ruling in words without its rule's id, for a screen that shows the id once beside
    it (the engine's ``Ruling.text``; ``ruling_text`` where it has none)."""
    text = getattr(ruling, "text", None)
    return str(text(lang)) if callable(text) else ruling_text(ruling, lang)


def rule_explanation(rule: str, lang: str) -> str:
    """The rule's text in plain words (the "why" line)."""
    e = _entry(rule, lang)
    return reference_prose.titles_for_ids(str(e.text), lang) if e is not None and e.text else ""


def rule_source(rule: str, lang: str) -> str:
    """Where a reading comes from (a seed or a rulebook)."""
    e = _entry(rule, lang)
    return str(e.source) if e is not None and e.source else ""


def variant_source(variant: str | None, lang: str = "en") -> str:
    """Where a variant's reading comes from (its reference entry's source; "" unknown)."""
    if not variant:
        return ""
    return rule_source(variant_rule(variant), lang)


def preset_ids(available: tuple[str, ...], variant: str | None = None) -> list[str]:
    """The house-rule presets offered for a variant with these house rules (defaults first):
    only presets of the variant's own sources (QA P20: no old Russian rulebook for Rubicon)."""
    return [p.id for p in presets.presets_for(available, variant_source(variant))]


def preset_rules(preset_id: str, available: tuple[str, ...]) -> frozenset[str]:
    return presets.preset(preset_id).rules_for(available)


def preset_matching(
    chosen: set[str] | frozenset[str], available: tuple[str, ...], variant: str | None = None
) -> str:
    """The preset the chosen switches equal, or "custom"."""
    return presets.matching(chosen, available, variant_source(variant))


def preset_title(preset_id: str, lang: str) -> str:
    return presets.preset(preset_id).title(lang)


def preset_text(preset_id: str, lang: str, variant: str | None = None) -> str:
    """The preset's line; the defaults of a variant the Russian sources do not describe
    (RULES.md §8) name that variant's own sources instead of Russian Wikipedia's."""
    source = variant_source(variant)
    if preset_id == "defaults" and source and "russian wikipedia" not in source.lower():
        said = Translator(lang)("presets_fix.defaults_from", source=variant_source(variant, lang))
        return str(said)
    return presets.preset(preset_id).text(lang)


def house_rule_summary(rule: str, lang: str) -> str:
    """One line for the new-match screen (falls back to the rule's text)."""
    e = _entry(rule, lang)
    if e is None:
        return ""
    return reference_prose.titles_for_ids(str(e.summary or e.text or ""), lang)


SEARCH_FLOOR = 0.2  # the rules screen lists hits scoring at least a fifth of the best one


def rule_entries(
    lang: str,
    query: str = "",
    variant: str = "two-hand",
    house_rules: frozenset[str] = frozenset(),
) -> list[tuple[Any, str]]:
    """The reference for the open match, each entry with its standing there ("in_force",
    "off", "replaced", "elsewhere"): with a query, entries of every kind ranked by the
    reference's search (what is in force first); without, the rules, penalties and house
    rules that apply to the variant, in RULES.md order."""
    setting = reference_search.Setting(variant, frozenset(house_rules))
    if query.strip():
        found = reference_search.search(query, lang, setting, floor=SEARCH_FLOOR)
        return [(_for_players(h.entry, lang), h.standing.value) for h in found]
    kinds = {"rule", "penalty", "house"}
    return [
        (_for_players(e, lang), st.value)
        for e, st in reference_search.entries_for(lang, setting)
        if e.kind in kinds
    ]


def _for_players(e: Any, lang: str) -> Any:
    """An entry as players read it: rule ids inside its prose become the rules' titles (its
    own id stays its label; the search has already run on the stored texts)."""

    def prose(text: str | None) -> str | None:
        return reference_prose.titles_for_ids(text, lang) if text else text

    return dataclasses.replace(
        e, text=prose(e.text) or "", example=prose(e.example), summary=prose(e.summary)
    )


def melds_answering(
    lang: str, query: str, variant: str, house_rules: frozenset[str]
) -> list[str]:
    """The combinations a search is about (the reference decides)."""
    setting = reference_search.Setting(variant, frozenset(house_rules))
    return reference_search.melds_answering(query, lang, setting)


def replaced_by(rule: str, house_rules: frozenset[str]) -> list[str]:
    """The house rules switched on that replace this default reading."""
    return [r for r in sorted(house_rules) if _entry(r, "en") is not None
            and rule in reference.entry(r).replaces]


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def run_example(
    variant: str, players: tuple[str, ...], tracking: str, turn_up: str, events: tuple[Any, ...]
) -> list[tuple[Any, Any]]:
    """Play a scenario through a fresh engine Match (nothing stored): each event with its
    ruling, or with the engine's error text when the event cannot be applied."""
    from referee.cards import parse_card
    from referee.match import Match

    m = Match.new(variant, players, tracking=tracking)
    m.start_deal(1, parse_card(turn_up))
    out: list[tuple[Any, Any]] = []
    for ev in events:
        try:
            out.append((ev, m.apply(ev)))
        except ValueError as exc:
            out.append((ev, str(exc)))
    return out


def warm_up() -> None:
    """Load what the first screens need (variant data, rules reference, rulings, the chart
    package) so the first tap does not pay for it."""
    for vid in variant_ids():
        variant_info(vid)
    for lang in ("en", "ru"):
        reference.all_entries(lang)
        reference_search.search("bezique", lang)  # builds the search indexes
        rulings.meld_name("marriage", lang)
    import flet_charts  # type: ignore[import-untyped]  # noqa: F401


# --- storage ---------------------------------------------------------------------------------
def open_store(db_url: str | None = None, progress: Any = None) -> Any:
    """The storage layer's database (the embedded SQLite file unless a URL is given);
    ``progress`` hears how a salvage of a damaged file is getting on."""
    from referee.storage import Store

    return Store.open(url=db_url, progress=progress)


@dataclass(frozen=True)
class MatchSummary:
    """A match as a line on the home or history screen."""

    id: int
    variant: str
    players: tuple[str, ...]
    sides: tuple[str, ...]
    totals: tuple[int, ...]
    deals: int
    target: int
    finished: bool
    winner: str | None
    created: str
    abandoned: bool = False
    games: int | None = None  # a match over a number of games (Rubicon …): no target


def summarize(store: Any, match_id: int) -> MatchSummary:
    info = store.match_info(match_id)
    m = store.load_match(match_id)
    r = m.result()
    return MatchSummary(
        id=match_id,
        variant=str(info.variant),
        players=tuple(info.players),
        sides=tuple(s.name for s in r.sides),
        totals=tuple(int(s.total) for s in r.sides),
        deals=len(m.deals),
        target=int(m.target),
        finished=bool(r.finished),
        winner=r.winner,
        created=info.created_at.strftime("%Y-%m-%d %H:%M") if info.created_at else "",
        abandoned=bool(getattr(info, "abandoned", False)),
        games=m.games if not m.target else None,
    )


def unfinished_match(store: Any) -> MatchSummary | None:
    match_id = store.unfinished_match()
    return None if match_id is None else summarize(store, int(match_id))


def list_matches(store: Any) -> list[MatchSummary]:
    return [summarize(store, int(info.id)) for info in store.list_matches()]


def player_stats(store: Any) -> list[Any]:
    return list(store.player_stats())


def create_match(
    store: Any,
    *,
    variant: str,
    players: list[str],
    tracking: str,
    house_rules: list[str],
    target: int | None,
    games: int | None = None,
) -> int:
    """``games``: a match over that many games (Rubicon …), then ``target`` is None."""
    extra = {"games": games} if games is not None else {}
    try:
        return int(
            store.create_match(
                variant=variant,
                players=players,
                tracking=tracking,
                house_rules=house_rules,
                target=target,
                **extra,
            )
        )
    except StorageError as exc:
        if isinstance(exc, ValueError):
            raise
        # read-only, busy or unreachable storage: the form says why instead of crashing
        raise StorageRefused(str(exc)) from exc


def telling(store: Any, news: Mapping[str, Any]) -> AbstractContextManager[None]:
    """Writes made on this thread inside the block tell the other server processes who made
    them (``news``: the device's name, number, whether it is the host's screen), through
    storage's change feed (referee/storage/change_feed.py: PostgreSQL's NOTIFY, nothing on
    SQLite; a test's stand-in store has none)."""
    feed = getattr(store, "feed", None)
    return feed.telling(news) if feed is not None else nullcontext()


class StorageRefused(ValueError):
    """Storage could not create the match (read-only, busy, unreachable); nothing stored."""


# --- one match, as the screens see it -----------------------------------------------------------
class WriteFailed(Exception):
    """A recorded event could not be stored; the session has gone back to what storage has."""


class Diverged(WriteFailed):
    """Storage ruled differently on an event than this session's copy of the match did:
    another device changed the match meanwhile. The session has reloaded it."""


class Stale(WriteFailed):
    """The write was made on a view another device had already moved past (storage's
    compare-and-append refused it, nothing was stored); the session now shows the match as
    stored."""


class Unseen(Stale):
    """The tap was made on a screen that had not yet shown another device's change (the
    device said which log position it showed, ui/server/painted.py): nothing was done.
    ``missed`` are those changes as the table link told them (ui/live.py's moves), oldest
    first; ``action`` what the tap asked (record, undo, redo, deal, correct)."""

    def __init__(self, action: str, missed: tuple[Any, ...]) -> None:
        super().__init__(f"{action} made on a screen that had not shown {len(missed)} change(s)")
        self.action = action
        self.missed = missed


class ReadOnly(WriteFailed):
    """This session may only read the match (a viewer): nothing was sent to storage."""


class StorageAway(WriteFailed):
    """Storage is not answering: the unsaved entries wait in order and are retried; nothing
    was lost and nothing was reloaded. The action asked for was not done."""


@dataclass(frozen=True)
class Written:
    """One durable write of a session, for the others at the table (ui/live.py): the match,
    the log position it moved to, what it was (``record``, ``undo``, ``redo``, ``deal``,
    ``correct``), and the engine's ruling, the deal number or (a correction) storage's
    Correction that says it in words."""

    match_id: int
    position: int
    action: str
    ruling: Any = None
    deal: int = 0
    event: dict[str, Any] | None = None  # a recorded entry as stored (the record's JSON)


class MatchSession:
    """A match opened from storage: the engine's Match plus record/undo/redo.

    Recording applies the event to this session's Match at once (the same engine storage
    replays with) and hands the write to a single background writer, so the new score is on
    screen while SQLite syncs the file; writes keep their order. Anything that reads storage
    (undo, redo, a new deal, leaving the screen) waits for the queue first (``flush``). If a
    write ever fails, the next action raises WriteFailed and the session reloads the truth.

    Every write names the log position this session's view shows (``position``): storage
    appends it only if the match is still there, so a write made on a stale view is refused
    (Stale), never applied to a state nobody saw. After a refusal the writes queued behind
    it are dropped too. ``on_written`` hears of each durable write, ``on_failed`` of a
    refused or failed background write (both from the writer thread). A ``read_only``
    session (a viewer) refuses every write itself.

    An entry counts as saved only once storage holds it durably (``unsaved``). While storage
    does not answer (PostgreSQL stopped, the file busy) the writer keeps retrying the entry in
    order (ui/pending_writes.py), ``storage_away`` says why and ``on_change`` is told, play
    goes on; an action that needs storage raises StorageAway instead of losing anything. A
    retry after a lost answer finds its entry already stored and never writes it twice.
    """

    FLUSH_WAIT = 3.0  # seconds an action waits for unsaved entries before saying so
    AWAY_WAIT = 0.2  # the same, once storage is known not to answer

    def __init__(self, store: Any, match_id: int, *, read_only: bool = False) -> None:
        self.store = store
        self.match_id = match_id
        self.read_only = read_only
        self.match: Any = None
        self.position = 0
        self.can_undo = False
        self.can_redo = False
        self.on_written: Callable[[Written], object] | None = None
        self.on_failed: Callable[[BaseException], object] | None = None
        # Told (from the writer thread) when storage stops or starts answering again.
        self.on_change: Callable[[], object] | None = None
        self._retry = RetryWhileAway(lambda: self.on_change)
        self._writer = runtime.executor("bezique-write", deferred=True)
        self._unsubscribe = runtime.durability.subscribe(self._durability_changed)
        self._queue: list[Future[Any]] = []
        self._broken = False
        self.refused: Any = None  # the ruling of the first entry storage refused, as shown
        # What the device's screen showed when the tap now handled was made: (match id, log
        # position), or None where the device does not say (one device alone: its view is
        # this session's). Set by the app (ui/state/app.py) from the phone's own report.
        self.shown_by: Callable[[], tuple[int, int] | None] | None = None
        # The log position after the newest change another device made (or storage had
        # that this session did not), and those changes: a write from a screen that showed
        # an earlier position is refused (Unseen) and names them.
        self.foreign_mark = 0
        self._missed: list[tuple[int, Any]] = []
        # Who this session's writes are by, for the other server processes (ui/live.py).
        self.news: Callable[[], Mapping[str, Any]] | None = None
        self.reload()

    def flush(self, timeout: float | None = None) -> None:
        """Wait for queued writes; raise WriteFailed (after reloading) if one failed, and
        StorageAway (keeping every queued entry) if storage still does not answer."""
        if timeout is None:  # once storage is known to be away, do not keep the screen waiting
            timeout = self.AWAY_WAIT if self.storage_away else self.FLUSH_WAIT
        runtime.settle(self._writer)
        wait(self._queue, timeout=timeout)
        if any(not f.done() for f in self._queue):
            if not any(f.done() and f.exception() is not None for f in self._queue):
                raise StorageAway(self._retry.away or "storage is not answering")
            wait(self._queue)  # a failure: the rest are refused at once
        queue, self._queue = self._queue, []
        failure: BaseException | None = None
        for future in queue:
            exc = future.exception()
            if exc is not None and failure is None:
                failure = exc
        if failure is not None:
            try:
                self._reload_now()
            except WriteFailed as exc:  # storage gone as well: say both, keep the session
                raise WriteFailed(f"{failure}; {exc}") from failure
            if isinstance(failure, Stale | Diverged):  # storage held what this screen had not
                self.saw_elsewhere()
            if isinstance(failure, WriteFailed):
                raise failure
            raise WriteFailed(str(failure)) from failure

    @property
    def unsaved(self) -> int:
        """Entries on screen that storage does not hold durably yet (in the phone's browser:
        also those not yet in its storage, ui/runtime.py)."""
        return sum(1 for f in self._queue if not f.done()) + runtime.durability.pending

    @property
    def storage_away(self) -> str | None:
        """Why storage is not answering while entries wait (None: it answers)."""
        if any(not f.done() for f in self._queue):
            return self._retry.away
        return runtime.durability.problem

    def _durability_changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    @property
    def busy(self) -> bool:
        """Writes of this session are still on their way to storage."""
        return any(not f.done() for f in self._queue)

    def reload(self) -> None:
        self.flush()
        self._reload_now()

    def _reload_now(self) -> None:
        try:
            snap = self.store.snapshot(self.match_id)
        except StorageError as exc:
            if isinstance(exc, ValueError):
                raise
            raise WriteFailed(str(exc)) from exc
        self.match = snap.match
        self.position = int(snap.position)
        self.can_undo = bool(snap.can_undo)
        self.can_redo = bool(snap.can_redo)
        self._broken = False

    def _writable(self, action: str = "record") -> None:
        if self.read_only:
            raise ReadOnly("viewer")
        if getattr(self.store, "read_only", False):
            raise WriteFailed(
                f"{self.store.location.describe()} is read-only: nothing can be recorded"
            )
        self._seen_all(action)

    def saw_elsewhere(self, change: Any = None) -> None:
        """This session now shows a change this device did not make (another device's move,
        or storage's match after a refusal): until the device's screen has shown this
        position, its writes are refused. ``change`` says it in words (ui/live.py's Move)."""
        self.foreign_mark = self.position
        if change is not None:
            self._missed.append((self.position, change))
            del self._missed[:-self.MISSED_KEPT]

    MISSED_KEPT = 20  # changes remembered to name them (a screen further behind says fewer)

    def unseen(self) -> tuple[Any, ...] | None:
        """None when the device's screen showed every change made elsewhere (or does not
        say what it showed); else the changes it had not shown (maybe none named)."""
        shown = self.shown_by() if self.shown_by is not None else None
        if shown is None:
            return None
        match_id, position = shown
        if match_id == self.match_id and position >= self.foreign_mark:
            return None
        if match_id != self.match_id:
            return tuple(c for _, c in self._missed)
        return tuple(c for at, c in self._missed if at > position)

    def _seen_all(self, action: str) -> None:
        missed = self.unseen()
        if missed is not None:
            raise Unseen(action, missed)

    def _stored(self, action: str, ruling: Any = None) -> None:
        """Tell the table (the caller holds the new position)."""
        if self.on_written is not None:
            deal = len(self.match.deals) if self.match is not None else 0
            self.on_written(Written(self.match_id, self.position, action, ruling, deal))

    def _sync_write(
        self, step: Callable[[int], Any], action: str, words: Callable[[], Any] | None = None
    ) -> Any:
        """A write that needs storage's answer (deal start, undo, redo): compare-and-append
        at this view's position, then show what storage has."""
        self._writable(action)
        self.flush()
        at = self.position
        # what an undo takes back, read before it (ui/entry_words.py: the strip names it)
        said = words() if words is not None and action == "undo" else None
        try:
            with self._telling(said):
                out = step(at)
        except StaleWrite as exc:
            self._reload_now()
            self.saw_elsewhere()  # storage's match holds changes this screen never showed
            raise Stale(str(exc)) from exc
        except StorageError as exc:  # not answering: nothing was done, nothing is lost
            if isinstance(exc, ValueError):
                raise
            raise WriteFailed(str(exc)) from exc
        self._reload_now()
        if out is not False:
            if words is not None and action == "redo":
                said = words()
            if action == "correct":
                said = out  # storage's Correction: each phone says what it changed (issue 22)
            self._stored(action, said)
        return out

    def _telling(self, words: Any = None) -> AbstractContextManager[None]:
        """The writes in the block say who made them (and an undo, what it takes back)."""
        news = dict(self.news()) if self.news is not None else {}
        if words:
            from referee.storage.change_feed import ruling_obj

            news["words"] = [ruling_obj(r) for r in words if hasattr(r, "key")]
        return telling(self.store, news)

    def start_deal(self, dealer: int, turn_up: Card | None) -> None:
        code = turn_up.code if turn_up else None
        self._sync_write(
            lambda at: self.store.start_deal(self.match_id, dealer, code, at=at), "deal"
        )

    def record(self, event: Any) -> Any:
        """The engine's ruling on the event, recorded (accepted or rejected) in order.

        An event that contradicts the facts raises (a ValueError) and nothing is queued.
        """
        self._writable()
        if self._broken or any(f.done() and f.exception() is not None for f in self._queue):
            self.flush()
        obj = event_to_obj(event, self.match.players)
        ruling = self.match.apply(event)
        self.can_undo, self.can_redo = True, False  # a new entry empties the redo stack
        at = self.position
        self.position = at + 1  # every write appends exactly one log entry
        job = self._writer.submit(self._store_event, self.store.record, obj, ruling, at)
        self._queue.append(job)
        return ruling

    def _store_event(self, record: Any, obj: dict[str, Any], shown: Any, at: int) -> None:
        """The writer's job: store the event at the position the screen showed, and check
        storage ruled as the screen showed. After one refusal, the entries queued behind it
        (made on the same stale view) are refused too."""
        try:
            if self._broken:
                raise Stale("an earlier entry of this device was refused")
            try:
                with self._telling():
                    stored = self._retry.call(lambda: record(self.match_id, obj, at=at), shown)
            except StaleWrite as exc:
                raise Stale(str(exc)) from exc
            if _verdict(stored) != _verdict(shown):
                raise Diverged(str(getattr(stored, "message", "")))
        except BaseException as exc:
            first = not self._broken
            self._broken = True
            if first:
                self.refused = shown  # the strip names what was not recorded (QA P18)
            if first and self.on_failed is not None:
                self.on_failed(exc)
            raise
        if self.on_written is not None:
            self.on_written(Written(self.match_id, at + 1, "record", stored, 0, obj))

    def catch_up(self, position: int, event: dict[str, Any] | None, ruling: Any) -> None:
        """Show another device's stored entry: when it is the very next entry of this view
        and nothing of this session is on its way, apply it to this session's Match (the
        same engine storage replays with, no replay of the whole log); otherwise, or if the
        engine here rules otherwise than storage did, reload from storage."""
        nothing_pending = not self._broken and all(
            f.done() and f.exception() is None for f in self._queue
        )
        if event is None or ruling is None or position != self.position + 1 or not nothing_pending:
            self.reload()
            return
        try:
            mine = self.match.apply(event_from_obj(event, list(self.match.players)))
        except ValueError:
            self.reload()
            return
        if _verdict(mine) != _verdict(ruling):
            self.reload()
            return
        self.position = position
        self.can_undo, self.can_redo = True, False

    def correct(self, seq: int, obj: dict[str, Any] | None) -> Any:
        """Store a correction (or deletion, ``obj`` None) of entry ``seq`` made on this view."""
        return self._sync_write(
            lambda at: self.store.correct(self.match_id, seq, obj, at=at), "correct"
        )

    def undo(self) -> bool:
        """Undo the match's newest entry, whoever made it (if this view shows it)."""
        return bool(self._sync_write(
            lambda at: self.store.undo(self.match_id, at=at), "undo", self._newest_rulings
        ))

    def redo(self) -> bool:
        return bool(self._sync_write(
            lambda at: self.store.redo(self.match_id, at=at), "redo", self._newest_rulings
        ))

    def _newest_rulings(self) -> tuple[Any, ...]:
        from ui.entry_words import newest_rulings

        return newest_rulings(self)

    def close(self, *, leaving: bool = False) -> None:
        """Finish the queued writes and stop the writer. While storage is away this raises
        StorageAway and keeps the session (its entries still queued), unless ``leaving``
        (the app is closing): then the writer gives up after a grace period."""
        try:
            self.flush()
        except StorageAway:
            if not leaving:
                raise
            self._retry.give_up_after(self._retry.CLOSE_GRACE)
            self._writer.shutdown(wait=False)
            self._unsubscribe()
            raise
        self._writer.shutdown(wait=True)
        self._unsubscribe()


def _verdict(ruling: Any) -> tuple[bool, str, int]:
    return (bool(ruling.accepted), str(ruling.rule), int(ruling.points or 0))


# --- corrections (ui/state/correction.py) -------------------------------------------------------
def log_history(session: MatchSession) -> list[Any]:
    """The whole log of the session's match (undone, corrected and deleted entries included),
    once its queued writes are stored."""
    session.flush()
    return list(session.store.history(session.match_id))


def match_before(match: Any, deal: int, event: int) -> Any:
    """The engine's replay of the match up to just before that entry."""
    from referee.correction_diff import match_before as before

    return before(match, deal, event)


def preview_correction(session: MatchSession, seq: int, event: Any | None) -> Any:
    """What replacing entry ``seq`` with ``event`` (None: deleting it) would change."""
    session.flush()
    obj = None if event is None else event_to_obj(event, session.match.players)
    return session.store.preview_correction(session.match_id, seq, obj)


def correct(session: MatchSession, seq: int, event: Any | None) -> Any:
    """Store the correction (or deletion) at the position the session's view shows, reload
    the session, return what it changed (a viewer's session refuses; a stale view: Stale)."""
    obj = None if event is None else event_to_obj(event, session.match.players)
    return session.correct(seq, obj)
