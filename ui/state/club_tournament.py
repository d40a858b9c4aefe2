"""The evening's tournament on the club director's screen (issue #24): entrants, a round
robin or a Swiss evening of N rounds, the round the server proposes and the director edits,
its tables started as the night's tables, results taken from the tables' own matches, and the
standings with their scoring and tie-break stated.

Plain Python over the app state and the night (ui/server/club_night.py, injected), as
ui/state/club.py is: tests drive it without a page. Only the director's session holds one
(``AppState.club.tournament``): a table phone's session has no ``club`` at all, and its cut
store (ui/club_scope.py) would refuse the club's players and new matches anyway.

What is kept and where: the tournament (entrants, format, scoring, the match settings, the
rounds played with their tables' numbers and match ids, the director's results for abandoned
tables, the edited next round) is JSON kept in the night's file through the night's own
``set_tournament`` (saved like a table, so a restarted server has it back). The rules are the
engine's (referee/club/): ``round_robin`` (``three_hand_round_robin`` at three-hand tables,
which also says which numbers of players it fits) and ``swiss_round`` propose,
``validate_round`` checks an edit, ``result_of`` reads a finished match, ``standings`` ranks.
This module decides no rule; it reads storage on each call (a table's write redraws the
screen, ui/live.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from referee.club.errors import (
    PlayerMissingError,
    PlayerTwiceError,
    RoundError,
    TableSizeError,
    ThreeHandCountError,
    ThreeHandSearchError,
    UnknownPlayerError,
)
from referee.club.results import ClubResult, Side, result_of
from referee.club.round_robin import round_robin
from referee.club.rounds import RepeatWarning, Round, validate_round
from referee.club.standings import SCORINGS, Scoring, Standing, ranking, standings
from referee.club.swiss import swiss_round
from referee.club.three_hand_round_robin import (
    counts_allowed,
    kirkman_design,
    three_hand_round_robin,
)
from ui import backend
from ui.state.common import Notice
from ui.state.new_match import MAX_NAME, NewMatchForm

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from ui.state.app import AppState

Format = Literal["round_robin", "swiss"]
FORMATS: tuple[Format, ...] = ("round_robin", "swiss")
TABLE_SIZES = (2, 3)
MAX_ROUNDS = 20
TableStatus = Literal["playing", "finished", "abandoned", "entered", "not_played"]
ManualKind = Literal["win", "draw", "not_played"]
VERSION = 1
_STARTING = threading.Lock()  # one round's tables made at a time (two director's tabs)


class TournamentNight(Protocol):
    """What the tournament needs of the club night."""

    def tournament(self) -> dict[str, Any] | None: ...
    def set_tournament(self, data: dict[str, Any] | None) -> None: ...
    def add_table(self, match_id: int) -> Any: ...
    def tables(self) -> list[Any]: ...
    def changing(self) -> AbstractContextManager[None]: ...


# --- what is kept ---------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchSettings:
    """The match every table of the tournament plays (chosen once, with the new-match form's
    variants, presets and target)."""

    variant: str
    tracking: str
    house_rules: tuple[str, ...]
    target: int | None
    games: int | None = None


@dataclass(frozen=True)
class Manual:
    """The director's result for an abandoned table: ``win`` (``player`` won), ``draw``, or
    ``not_played`` (counts for nobody)."""

    kind: ManualKind
    player: str | None = None


@dataclass(frozen=True)
class PlayedTable:
    """A started table of a round: its players in seat order, the night's table number and
    the match it plays."""

    players: tuple[str, ...]
    table: int
    match_id: int
    manual: Manual | None = None


@dataclass(frozen=True)
class PlayedRound:
    number: int
    tables: tuple[PlayedTable, ...]
    byes: tuple[str, ...] = ()

    @property
    def as_round(self) -> Round:
        return Round(self.number, tuple(t.players for t in self.tables), self.byes)


@dataclass(frozen=True)
class Tournament:
    entrants: tuple[str, ...]
    format: Format
    rounds: int  # Swiss: as the director chose; a round robin: its schedule's length
    scoring: Scoring
    table_size: int
    settings: MatchSettings
    played: tuple[PlayedRound, ...] = ()
    draft: Round | None = None  # the next round as the director edited it (None: proposed)

    @property
    def history(self) -> tuple[Round, ...]:
        return tuple(r.as_round for r in self.played)

    @property
    def over(self) -> bool:
        return len(self.played) >= self.rounds

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        return {
            "version": VERSION,
            "entrants": list(self.entrants),
            "format": self.format,
            "rounds": self.rounds,
            "scoring": self.scoring,
            "table_size": self.table_size,
            "settings": {
                "variant": s.variant,
                "tracking": s.tracking,
                "house_rules": list(s.house_rules),
                "target": s.target,
                "games": s.games,
            },
            "played": [
                {
                    "number": r.number,
                    "byes": list(r.byes),
                    "tables": [
                        {
                            "players": list(t.players),
                            "table": t.table,
                            "match": t.match_id,
                            "manual": None
                            if t.manual is None
                            else {"kind": t.manual.kind, "player": t.manual.player},
                        }
                        for t in r.tables
                    ],
                }
                for r in self.played
            ],
            "draft": None
            if self.draft is None
            else {
                "number": self.draft.number,
                "tables": [list(t) for t in self.draft.tables],
                "byes": list(self.draft.byes),
            },
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Tournament:
        """Read back what ``to_json`` wrote; raises ValueError (KeyError, TypeError become
        one) for anything else."""
        try:
            s = raw["settings"]
            fmt = raw["format"]
            scoring = raw["scoring"]
            if fmt not in FORMATS or scoring not in SCORINGS:
                raise ValueError(f"format {fmt!r}, scoring {scoring!r}")
            played = tuple(
                PlayedRound(
                    int(r["number"]),
                    tuple(
                        PlayedTable(
                            tuple(str(p) for p in t["players"]),
                            int(t["table"]),
                            int(t["match"]),
                            None
                            if t.get("manual") is None
                            else Manual(t["manual"]["kind"], t["manual"].get("player")),
                        )
                        for t in r["tables"]
                    ),
                    tuple(str(p) for p in r["byes"]),
                )
                for r in raw["played"]
            )
            d = raw.get("draft")
            draft = (
                None
                if d is None
                else Round(
                    int(d["number"]),
                    tuple(tuple(str(p) for p in t) for t in d["tables"]),
                    tuple(str(p) for p in d["byes"]),
                )
            )
            return cls(
                tuple(str(p) for p in raw["entrants"]),
                fmt,
                int(raw["rounds"]),
                scoring,
                int(raw["table_size"]),
                MatchSettings(
                    str(s["variant"]),
                    str(s["tracking"]),
                    tuple(str(r) for r in s["house_rules"]),
                    None if s["target"] is None else int(s["target"]),
                    None if s.get("games") is None else int(s["games"]),
                ),
                played,
                draft,
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a tournament: {exc}") from exc


# --- what the screen shows ------------------------------------------------------------------
@dataclass(frozen=True)
class TableNow:
    """A started table of a round as the screen shows it."""

    round: int
    players: tuple[str, ...]
    table: int
    match_id: int
    status: TableStatus
    winner: str | None  # finished, or the director's win
    totals: tuple[int, ...]  # the match's totals (finished, or when it stopped)


@dataclass(frozen=True)
class Words:
    """A text of the screen: a translation key and its arguments."""

    key: str
    args: dict[str, object]


@dataclass(frozen=True)
class Snapshot:
    """The tournament as one drawing of the screen shows it."""

    tournament: Tournament
    tables: list[TableNow]
    standings: tuple[Standing, ...]
    complete: bool  # every table of the last round started has a result
    next_round: Round | None

    def of_round(self, number: int) -> list[TableNow]:
        return [n for n in self.tables if n.round == number]


@dataclass
class Setup:
    """The director's choices before the tournament exists."""

    entrants: list[str]
    format: Format = "swiss"
    rounds_text: str = "3"
    scoring: Scoring = "wins"
    table_size: int = 2
    form: NewMatchForm | None = None
    error: Words | None = None
    name_text: str = ""  # the name being typed, added by "Add"


class TournamentScreen:
    def __init__(self, app: AppState, night: TournamentNight) -> None:
        self.app = app
        self.night = night
        self.setup: Setup | None = None
        self.selected: str | None = None  # the player picked in the next round, to move
        self.manual_for: int | None = None  # the night's table whose result is being entered
        self.confirm_end = False  # "End the tournament" awaits a yes
        # finished matches' results, kept while the match is unchanged (a replay each redraw
        # would cost every table's match on every move of any table)
        self._replays: dict[int, tuple[object, ClubResult | None, tuple[int, ...]]] = {}

    # --- the kept tournament ---------------------------------------------------------------
    def tournament(self) -> Tournament | None:
        raw = self.night.tournament()
        if raw is None:
            return None
        try:
            return Tournament.from_json(raw)
        except ValueError as exc:
            self.app.notice = Notice("tournament.unreadable", {"why": str(exc)}, error=True)
            return None

    def _keep(self, t: Tournament | None) -> None:
        self.night.set_tournament(None if t is None else t.to_json())
        self.app.changed()

    def open(self) -> None:
        self.app.go("club_tournament")

    # --- setting it up ---------------------------------------------------------------------
    def begin_setup(self) -> None:
        form = NewMatchForm(self.app.form_memory)
        self.setup = Setup([], form=form)
        self._fit_form(self.setup)
        self.app.go("club_tournament")

    def cancel_setup(self) -> None:
        self.setup = None
        self.app.changed()

    def offered_players(self) -> list[str]:
        """The club's players (storage's list) not entered yet, by name."""
        if self.setup is None:
            return []
        try:
            names = [str(r.name) for r in self.app.store.player_list()]
        except Exception:  # storage away: the director types the names
            return []
        taken = {n.casefold() for n in self.setup.entrants}
        return sorted((n for n in names if n.casefold() not in taken), key=str.casefold)

    def add_entrant(self, name: str) -> bool:
        s = self.setup
        if s is None:
            return False
        name = name.strip()
        if not name:
            s.error = Words("form.error.name_empty", {})
        elif len(name) > MAX_NAME:
            s.error = Words("form.error.name_long", {"n": MAX_NAME})
        elif name.casefold() in {n.casefold() for n in s.entrants}:
            s.error = Words("tournament.error.name_twice", {"name": name})
        else:
            s.entrants.append(name)
            s.error = None
        self.app.changed()
        return s.error is None

    def set_name_text(self, text: str) -> None:
        if self.setup is not None:
            self.setup.name_text = text

    def add_typed(self) -> bool:
        """The typed name joins the entrants (the field empties when it does)."""
        if self.setup is None:
            return False
        if self.add_entrant(self.setup.name_text):
            self.setup.name_text = ""
            return True
        return False

    def remove_entrant(self, name: str) -> None:
        if self.setup is not None and name in self.setup.entrants:
            self.setup.entrants.remove(name)
            self.app.changed()

    def set_format(self, fmt: str) -> None:
        if self.setup is not None and fmt in FORMATS:
            self.setup.format = fmt
            self.setup.error = None
            self.app.changed()

    def set_rounds(self, text: str) -> None:
        if self.setup is not None:
            self.setup.rounds_text = text  # no redraw while typing: the next one checks it

    def set_scoring(self, scoring: str) -> None:
        if self.setup is not None and scoring in SCORINGS:
            self.setup.scoring = scoring
            self.app.changed()

    def set_table_size(self, size: int) -> None:
        if self.setup is not None and size in TABLE_SIZES:
            self.setup.table_size = size
            self.setup.error = None
            self._fit_form(self.setup)
            self.app.changed()

    def variants(self) -> list[str]:
        """The variants played by as many players as a table seats."""
        s = self.setup
        if s is None or s.form is None:
            return []
        return [v for v in s.form.variants if s.table_size in backend.variant_info(v).player_counts]

    def set_variant(self, variant: str) -> None:
        s = self.setup
        if s is not None and s.form is not None and variant in self.variants():
            s.form.set_variant(variant)
            s.form.set_player_count(s.table_size)
            self.app.changed()

    def _fit_form(self, s: Setup) -> None:
        form = s.form
        if form is None:
            return
        if s.table_size not in form.player_counts:
            fits = self.variants()
            if fits:
                form.set_variant(fits[0])
        form.set_player_count(s.table_size)

    def setup_problem(self) -> Words | None:
        """What stops the tournament from being made as set up, in words; None: nothing."""
        s = self.setup
        if s is None:
            return None
        if len(s.entrants) < s.table_size:
            return Words("tournament.error.too_few", {"size": s.table_size})
        if s.format == "round_robin" and s.table_size == 3:
            problem = _three_hand_problem(len(s.entrants))
            if problem is not None:
                return problem
        if s.format == "swiss":
            text = s.rounds_text.strip()
            if not text.isdigit() or not 1 <= int(text) <= MAX_ROUNDS:
                return Words("tournament.error.rounds", {"most": MAX_ROUNDS})
        if s.form is None or s.table_size not in s.form.player_counts:
            return Words("tournament.error.no_variant", {"size": s.table_size})
        form = s.form
        form.names = [f"{i}" for i in range(form.player_count)]  # the seats are the rounds'
        bad = form.validate()
        if bad:
            first = next(iter(bad.values()))
            return Words(first.key, dict(first.args))
        return None

    def create(self) -> bool:
        """The tournament as set up, kept with the night; its first round proposed."""
        s = self.setup
        if s is None:
            return False
        problem = self.setup_problem()
        if problem is not None or s.form is None:
            s.error = problem
            self.app.changed()
            return False
        form = s.form
        settings = MatchSettings(
            form.variant,
            form.tracking,
            tuple(form.rules_in_force()),
            form.target(),
            form.games(),
        )
        entrants = tuple(s.entrants)
        rounds = (
            len(_schedule(entrants, s.table_size))
            if s.format == "round_robin"
            else int(s.rounds_text.strip())
        )
        t = Tournament(entrants, s.format, rounds, s.scoring, s.table_size, settings)
        self.setup = None
        self.selected = None
        self._keep(t)
        self.app.notice = Notice("tournament.created", {"n": len(entrants)})
        return True

    def ask_end(self, asking: bool = True) -> None:
        self.confirm_end = asking
        self.app.changed()

    def end(self) -> None:
        """The tournament is set aside (its tables and matches stay as they are)."""
        self.selected = None
        self.confirm_end = False
        self._keep(None)

    def snapshot(self) -> Snapshot | None:
        """Everything one drawing shows, read from the night and storage once (each table's
        state is a query; a screen drawn on every move of every table asks once, not per
        panel)."""
        t = self.tournament()
        if t is None:
            return None
        now = self.tables_now(t)
        return Snapshot(
            t,
            now,
            self.standings(t, now),
            self.round_complete(t, now),
            self.next_round(t, now),
        )

    # --- the tables' results ---------------------------------------------------------------
    def tables_now(self, t: Tournament | None = None) -> list[TableNow]:
        """Every started table of every round, as storage has it now."""
        t = t or self.tournament()
        if t is None:
            return []
        abandoned_tables = {int(n.number) for n in self.night.tables() if n.abandoned}
        out = []
        for r in t.played:
            for pt in r.tables:
                out.append(self._table_now(r.number, pt, pt.table in abandoned_tables))
        return out

    def _table_now(self, number: int, pt: PlayedTable, table_stopped: bool) -> TableNow:
        try:
            info = self.app.store.match_info(pt.match_id)
        except Exception as exc:
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return TableNow(number, pt.players, pt.table, pt.match_id, "playing", None, ())
        if info.finished:
            res, totals = self._finished(pt.match_id, info)
            winner = next((s.players[0] for s in res.sides if s.rank == 1), None) if res else None
            return TableNow(number, pt.players, pt.table, pt.match_id, "finished", winner, totals)
        if not (info.abandoned or table_stopped):
            return TableNow(number, pt.players, pt.table, pt.match_id, "playing", None, ())
        totals = self._totals(pt.match_id, info)
        if pt.manual is None:
            status: TableStatus = "abandoned"
        elif pt.manual.kind == "not_played":
            status = "not_played"
        else:
            status = "entered"
        winner = pt.manual.player if pt.manual and pt.manual.kind == "win" else None
        return TableNow(number, pt.players, pt.table, pt.match_id, status, winner, totals)

    def _finished(self, match_id: int, info: Any) -> tuple[ClubResult | None, tuple[int, ...]]:
        key = (info.finished_at, info.updated_at)
        kept = self._replays.get(match_id)
        if kept is not None and kept[0] == key:
            return kept[1], kept[2]
        m = self.app.store.load_match(match_id)
        res = result_of(m, str(match_id), info.finished_at or datetime.now(UTC))
        totals = tuple(int(s.total) for s in m.result().sides)
        self._replays[match_id] = (key, res, totals)
        return res, totals

    def _totals(self, match_id: int, info: Any) -> tuple[int, ...]:
        key = ("stopped", info.updated_at)
        kept = self._replays.get(match_id)
        if kept is not None and kept[0] == key:
            return kept[2]
        try:
            totals = backend.summarize(self.app.store, match_id).totals
        except Exception:
            totals = ()
        self._replays[match_id] = (key, None, totals)
        return totals

    def results(
        self, t: Tournament | None = None, now: list[TableNow] | None = None
    ) -> list[ClubResult]:
        """Every counted result: the tables' finished matches (the engine's verdict), and the
        director's results for abandoned tables (the match's totals when it stopped)."""
        t = t or self.tournament()
        if t is None:
            return []
        manual = {pt.match_id: pt.manual for r in t.played for pt in r.tables}
        seats = {pt.match_id: pt.players for r in t.played for pt in r.tables}
        out = []
        for n in self.tables_now(t) if now is None else now:
            if n.status == "finished":
                kept = self._replays.get(n.match_id)
                if kept is not None and kept[1] is not None:
                    out.append(kept[1])
            elif n.status == "entered":
                m = manual[n.match_id]
                assert m is not None
                players = seats[n.match_id]
                totals = n.totals if len(n.totals) == len(players) else (0,) * len(players)
                out.append(
                    ClubResult(
                        str(n.match_id),
                        datetime.now(UTC),
                        tuple(
                            Side(
                                (p,),
                                int(score),
                                1 if m.kind == "draw" or p == m.player else 2,
                            )
                            for p, score in zip(players, totals, strict=True)
                        ),
                    )
                )
        return out

    def standings(
        self, t: Tournament | None = None, now: list[TableNow] | None = None
    ) -> tuple[Standing, ...]:
        t = t or self.tournament()
        if t is None:
            return ()
        byes: dict[str, int] = {}
        for r in t.played:
            for p in r.byes:
                byes[p] = byes.get(p, 0) + 1
        return standings(self.results(t, now), t.entrants, byes, t.scoring)

    def round_complete(
        self, t: Tournament | None = None, now: list[TableNow] | None = None
    ) -> bool:
        """Every table of the last round started has a result (finished, or entered by the
        director, or counted as not played)."""
        t = t or self.tournament()
        if t is None or not t.played:
            return True
        last = t.played[-1].number
        return all(
            n.status in ("finished", "entered", "not_played")
            for n in (self.tables_now(t) if now is None else now)
            if n.round == last
        )

    def ask_manual(self, table: int | None) -> None:
        self.manual_for = None if table == self.manual_for else table
        self.app.changed()

    def enter_result(self, table: int, kind: str, player: str | None = None) -> bool:
        """The director's result for an abandoned table of the tournament: ``win`` for
        ``player``, ``draw``, ``not_played``, or ``clear`` (no result again)."""
        t = self.tournament()
        if t is None:
            return False
        if kind not in ("win", "draw", "not_played", "clear"):
            return False
        now = {(n.round, n.table): n for n in self.tables_now(t)}
        played = []
        done = False
        for r in t.played:
            tables = []
            for pt in r.tables:
                n = now.get((r.number, pt.table))
                if pt.table == table and n is not None and not done:
                    if n.status not in ("abandoned", "entered", "not_played"):
                        self.app.notice = Notice("tournament.not_abandoned", {"n": table})
                        self.app.changed()
                        return False
                    if kind == "win" and player not in pt.players:
                        return False
                    manual = None
                    if kind == "win":
                        manual = Manual("win", player)
                    elif kind in ("draw", "not_played"):
                        manual = Manual("draw" if kind == "draw" else "not_played")
                    pt = replace(pt, manual=manual)
                    done = True
                tables.append(pt)
            played.append(replace(r, tables=tuple(tables)))
        if not done:
            return False
        self.manual_for = None
        # the results changed: a next round edited on the old standings is proposed afresh
        self._keep(replace(t, played=tuple(played), draft=None))
        return True

    # --- the next round --------------------------------------------------------------------
    def next_round(
        self, t: Tournament | None = None, now: list[TableNow] | None = None
    ) -> Round | None:
        """The round to start next: the director's edit, else the server's proposal; None
        while the current round has tables without a result, or once the last round is
        started."""
        t = t or self.tournament()
        if t is None or t.over:
            return None
        now = self.tables_now(t) if now is None else now
        if not self.round_complete(t, now):
            return None
        if t.draft is not None:
            return t.draft
        return self._proposal(t, now)

    def _proposal(self, t: Tournament, now: list[TableNow]) -> Round | None:
        number = len(t.played) + 1
        try:
            if t.format == "round_robin":
                schedule = _schedule(t.entrants, t.table_size)
                rnd = schedule[len(t.played)]
                return Round(number, rnd.tables, rnd.byes)
            order = ranking(self.standings(t, now))
            return replace(swiss_round(order, t.history, t.table_size), number=number)
        except (RoundError, IndexError) as exc:
            self.app.notice = Notice("tournament.no_proposal", {"why": str(exc)}, error=True)
            return None

    def check(self, rnd: Round, t: Tournament) -> tuple[Words | None, list[Words]]:
        """The round's fault in words (None: it can be played) and its repeat warnings."""
        try:
            warnings = validate_round(rnd, t.entrants, t.history, t.table_size)
        except RoundError as exc:
            return _fault_words(exc), []
        return None, [_repeat_words(w) for w in warnings]

    def select(self, player: str) -> None:
        """Pick a player of the next round; picking a second one swaps the two."""
        t = self.tournament()
        rnd = self.next_round(t)
        if t is None or rnd is None:
            return
        if self.selected is None or self.selected == player:
            self.selected = None if self.selected == player else player
            self.app.changed()
            return
        a, b = self.selected, player

        def swap(p: str) -> str:
            return b if p == a else a if p == b else p

        self.selected = None
        self._edit(
            t,
            Round(
                rnd.number,
                tuple(tuple(swap(p) for p in table) for table in rnd.tables),
                tuple(swap(p) for p in rnd.byes),
            ),
        )

    def move_selected(self, where: int | None) -> None:
        """The picked player goes to table ``where`` (an index of the round's tables; one
        past the last: a new table) or, with None, to the byes."""
        t = self.tournament()
        rnd = self.next_round(t)
        p = self.selected
        if t is None or rnd is None or p is None:
            return
        tables = [[x for x in table if x != p] for table in rnd.tables]
        byes = [x for x in rnd.byes if x != p]
        if where is None:
            byes.append(p)
        elif 0 <= where < len(tables):
            tables[where].append(p)
        else:
            tables.append([p])
        self.selected = None
        self._edit(t, Round(rnd.number, tuple(tuple(x) for x in tables if x), tuple(byes)))

    def _edit(self, t: Tournament, rnd: Round) -> None:
        self._keep(replace(t, draft=rnd))

    def propose_again(self) -> None:
        """Drop the director's edits: the server's proposal again."""
        t = self.tournament()
        if t is not None:
            self.selected = None
            self._keep(replace(t, draft=None))

    def start_round(self) -> bool:
        """One table per pairing of the next round, each with its match (the tournament's
        settings, the players in the round's seat order) and its links, as "New table" makes
        them; the round is kept with the night. Two director's tabs pressing Start at once
        start it once: the second finds the round started (this process's lock, and the
        night's file lock across worker processes, held over the read and every write)."""
        with _STARTING, self.night.changing():
            return self._start_round()

    def _start_round(self) -> bool:
        t = self.tournament()
        rnd = self.next_round(t)
        if t is None or rnd is None:
            return False
        fault, _warnings = self.check(rnd, t)
        if fault is not None:
            self.app.notice = Notice("tournament.cannot_start", {}, error=True)
            self.app.changed()
            return False
        s = t.settings
        matches = []
        try:
            for players in rnd.tables:
                matches.append(
                    backend.create_match(
                        self.app.store,
                        variant=s.variant,
                        players=list(players),
                        tracking=s.tracking,
                        house_rules=list(s.house_rules),
                        target=s.target,
                        games=s.games,
                    )
                )
        except Exception as exc:
            self.app.notice = Notice("tournament.start_failed", {"why": str(exc)}, error=True)
            self.app.changed()
            return False
        tables = []
        for players, match_id in zip(rnd.tables, matches, strict=True):
            table = self.night.add_table(match_id)
            tables.append(PlayedTable(tuple(players), int(table.number), match_id))
            self.app.created(match_id)
        started = PlayedRound(rnd.number, tuple(tables), rnd.byes)
        self.selected = None
        self._keep(replace(t, played=(*t.played, started), draft=None))
        self.app.notice = Notice("tournament.started", {"n": rnd.number})
        return True


def _schedule(entrants: tuple[str, ...], table_size: int) -> tuple[Round, ...]:
    """The round robin's every round: by the circle at two-hand tables, a Kirkman schedule at
    three-hand ones (the engine's; kept there once searched)."""
    if table_size == 3:
        return three_hand_round_robin(entrants)
    return round_robin(entrants)


def _three_hand_problem(count: int) -> Words | None:
    """Why ``count`` players cannot play a round robin of three-hand tables, in words (the
    engine's rule: N ≡ 3 mod 6, and its search's bound); None: they can."""
    try:
        kirkman_design(count)
    except ThreeHandCountError:
        works = counts_allowed(max(21, count + 6))  # up to the next count that works
        return Words(
            "tournament.error.three_hand_round_robin",
            {"counts": ", ".join(str(n) for n in works), "n": count},
        )
    except ThreeHandSearchError:
        return Words("tournament.error.three_hand_not_found", {"n": count})
    return None


def _fault_words(exc: RoundError) -> Words:
    if isinstance(exc, UnknownPlayerError):
        return Words("tournament.error.unknown", {"name": exc.player})
    if isinstance(exc, PlayerTwiceError):
        return Words("tournament.error.twice", {"name": exc.player})
    if isinstance(exc, PlayerMissingError):
        return Words("tournament.error.missing", {"name": exc.player})
    if isinstance(exc, TableSizeError):
        return Words("tournament.error.size", {"names": " – ".join(exc.table), "size": exc.size})
    return Words("tournament.error.other", {"why": str(exc)})


def _repeat_words(w: RepeatWarning) -> Words:
    a, b = w.players
    return Words(
        "tournament.repeat", {"a": a, "b": b, "rounds": ", ".join(str(n) for n in w.rounds)}
    )


def points_text(points: Any) -> str:
    """A standing's points: whole, or with ½ (wins count a shared first place as ½)."""
    whole, rest = divmod(points.numerator, points.denominator)
    if rest == 0:
        return str(whole)
    if points.denominator == 2:
        return f"{whole}½" if whole else "½"
    return f"{float(points):.2f}"


def difference_text(points: Any) -> str:
    value = round(float(points))
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"
