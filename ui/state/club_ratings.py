"""The club's ratings on the director's screen (issue #24): the leaderboard, a player's page
(their history, their rating curve, rename and merge) and the club's records.

Plain Python over the store's ``club()`` (referee/storage/club_results.py: every finished
match replayed and rated by openskill, the records, the matches that could not be counted)
and its players (``player_list``, ``rename_player``, ``merge_players``). Nothing here rates
or ranks anything: every number shown is the store's.

Only the director's session holds one (``ClubScreen.ratings``, ui/state/club.py): a table
phone's session has no ``ClubScreen``, and its store (ui/club_scope.py) refuses ``club()``
and the players' calls whatever it is asked; :meth:`RatingsScreen.allowed` asks again.

**When it is read again.** The director's screen is drawn again on every move of every
table (ui/live.py's news), so this screen asks the store at each drawing, but only when
something was written since the last read: the most recently changed match (its id, last
change and finish) is one small query; ``club()`` itself (queries, openskill over every
finished match, the records) runs only when that moved, or after this screen's own rename
or merge. The store keeps each match's replay between calls, so a finished or corrected
match costs one replay, not all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ui.state.common import Notice

if TYPE_CHECKING:
    from ui.state.app import AppState

# Where the director goes: the leaderboard (with the records) and one player's page.
BOARD = "club_ratings"
PLAYER = "club_player"
SCREENS = (BOARD, PLAYER)
# The matches a refused merge names, as the store words them ("1, 2 and 3 more").
SHARED = re.compile(r"both sat in match(?:es)? ([0-9][0-9, ]*(?: and [0-9]+ more)?)")


@dataclass(frozen=True)
class BoardRow:
    """One line of the leaderboard: the store's place, the rating as shown (the ordinal to
    one decimal), matches counted, and the change the player's last match made."""

    place: int
    player: str  # the club's id (the player's id as text): it stays through a rename
    name: str
    rating: float
    matches: int
    trend: float  # after − before of the last match, as shown (one decimal)


@dataclass(frozen=True)
class HistoryRow:
    """One match of a player's history, as the rating saw it."""

    match_id: str
    finished_at: datetime
    variant: str  # the variant's id (the view says it in the screen's language)
    partners: tuple[str, ...]
    opponents: tuple[tuple[str, ...], ...]  # each other side's players
    place: int  # 1: first (won, or drew when the first place is shared)
    drawn: bool
    sides: int
    score: int
    other_scores: tuple[int, ...]
    before: float  # shown
    after: float  # shown

    @property
    def change(self) -> float:
        return round(self.after - self.before, 1)

    @property
    def result(self) -> str:
        """won, drew, lost (two sides) or place (three sides: came second or third)."""
        if self.place == 1:
            return "drew" if self.drawn else "won"
        return "lost" if self.sides == 2 else "place"


@dataclass(frozen=True)
class Curve:
    """A player's rating curve: the ordinal before their first match (a newcomer's 0), then
    after each match, at x = the number of their matches played; ``ticks`` are the rating
    axis's labels (a round step, the whole curve between the first and the last)."""

    points: tuple[tuple[int, float], ...]
    low: float
    high: float
    ticks: tuple[float, ...]


@dataclass(frozen=True)
class PlayerPage:
    player: str
    name: str
    played_as: tuple[str, ...]
    matches: int  # every match they sat in, finished or not
    place: int | None  # None: not rated yet (no finished match counted)
    rating: float | None
    history: tuple[HistoryRow, ...]  # oldest first
    curve: Curve | None


@dataclass(frozen=True)
class DealRow:
    points: int
    players: tuple[str, ...]
    match_id: str
    deal: int  # from 1
    variant: str
    finished_at: datetime


@dataclass(frozen=True)
class DoublesRow:
    count: int
    player: str
    match_id: str
    variant: str
    finished_at: datetime


@dataclass(frozen=True)
class Skipped:
    """A finished match the engine could not replay: named, not counted."""

    match_id: str
    why: str


class RatingsScreen:
    def __init__(self, app: AppState) -> None:
        self.app = app
        self.player: str | None = None  # whose page is open
        self.rename_text = ""
        self.renames = 0  # renames done: the field's key, so a done rename empties it
        self.merge_into: str | None = None  # the player a merge would keep
        self.confirm_merge = False
        self._club: Any = None
        self._mark: object = None
        self._roster: list[Any] | None = None
        self._shown: dict[str, str] = {}  # the names this screen last showed, by id
        # Where the notice of a refused rename or merge is shown: beside the button that was
        # tapped (the page may be scrolled far from its top), not above the page.
        self.said_at: str | None = None

    # --- who may ---------------------------------------------------------------------------
    def allowed(self) -> bool:
        """The director's session only: one that holds the director's screen and is no
        table's phone."""
        return self.app.club is not None and self.app.club_table is None

    # --- reading ---------------------------------------------------------------------------
    def _written_since(self) -> object:
        """What moves whenever anything is written to any match (the match changed last, its
        last change and finish) or a player is renamed or merged (every player's name)."""
        last = self.app.store.list_matches(limit=1)
        m = last[0] if last else None
        match = None if m is None else (int(m.id), m.updated_at, m.finished_at)
        return match, tuple(self.app.store.players())

    def club(self) -> Any:
        """The store's club (results, ratings, records, names, skipped), read again when
        something was written since; None (and the notice says why) when it cannot be."""
        if not self.allowed():
            return None
        try:
            mark = self._written_since()
            if self._club is None or mark != self._mark:
                self._club = self.app.store.club()
                self._roster = None
                self._mark = mark
        except Exception as exc:  # a refusal, storage away: said, never a crash
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return None
        return self._club

    def roster(self) -> list[Any]:
        """Every player of the club by name (``PlayerRow``), the unrated ones too."""
        club = self.club()
        if club is None:
            return []
        if self._roster is None:
            try:
                self._roster = list(self.app.store.player_list())
            except Exception as exc:
                self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
                return []
        return self._roster

    def forget(self) -> None:
        """After a write of this screen's own: read everything again."""
        self._club = None
        self._roster = None

    def board(self) -> list[BoardRow]:
        club = self.club()
        if club is None:
            return []
        rows = []
        for row in club.ratings.leaderboard():
            last = club.ratings.history[row.player][-1]
            rows.append(
                BoardRow(
                    row.place,
                    row.player,
                    club.name(row.player),
                    row.rating.shown,
                    row.matches,
                    round(last.after.shown - last.before.shown, 1),
                )
            )
        return rows

    def unrated(self) -> list[tuple[str, str]]:
        """Players with no counted match yet (id, name), by name: not on the leaderboard,
        reachable for a rename or a merge all the same."""
        club = self.club()
        if club is None:
            return []
        return [(str(r.id), r.name) for r in self.roster() if str(r.id) not in club.ratings.current]

    def records(self) -> tuple[list[DealRow], list[DoublesRow]]:
        club = self.club()
        if club is None:
            return [], []
        deals = [
            DealRow(d.points, d.players, d.match_id, d.deal + 1, d.variant, d.finished_at)
            for d in club.records.highest_deals
        ]
        doubles = [
            DoublesRow(b.count, b.player, b.match_id, b.variant, b.finished_at)
            for b in club.records.most_double_beziques
        ]
        return deals, doubles

    def skipped(self) -> list[Skipped]:
        """The finished matches the engine could not replay, as the store names them
        ("match 12: why")."""
        club = self.club()
        if club is None:
            return []
        out = []
        for line in club.skipped:
            head, _, why = str(line).partition(": ")
            number = head.removeprefix("match ").strip()
            out.append(Skipped(number, why.strip() or str(line)))
        return out

    def history(self, player: str) -> list[HistoryRow]:
        """The player's counted matches, oldest first."""
        club = self.club()
        if club is None:
            return []
        rows = []
        for step in club.ratings.history.get(player, ()):
            res = club.result(step.match_id)
            mine = next(side for side in res.sides if player in side.players)
            others = [s for s in res.sides if s is not mine]
            rows.append(
                HistoryRow(
                    step.match_id,
                    step.finished_at,
                    club.variants.get(step.match_id, ""),
                    tuple(club.name(p) for p in mine.players if p != player),
                    tuple(tuple(club.name(p) for p in s.players) for s in others),
                    mine.rank,
                    res.drawn,
                    len(res.sides),
                    mine.score,
                    tuple(s.score for s in others),
                    step.before.shown,
                    step.after.shown,
                )
            )
        return rows

    def curve(self, player: str) -> Curve | None:
        """The rating after each of the player's matches, from where they started."""
        club = self.club()
        if club is None:
            return None
        steps = club.ratings.history.get(player, ())
        if not steps:
            return None
        ys = [steps[0].before.ordinal, *(y for _, y in club.ratings.curve(player))]
        points = tuple(enumerate(ys))
        low, high, ticks = axis(min(ys), max(ys))
        return Curve(points, low, high, ticks)

    def page(self) -> PlayerPage | None:
        """The open player's page; None when nobody's is open or the player is gone."""
        club = self.club()
        pid = self.player
        if club is None or pid is None:
            return None
        row = next((r for r in self.roster() if str(r.id) == pid), None)
        if row is None:
            return None
        self._shown[pid] = row.name
        place = next((b for b in club.ratings.leaderboard() if b.player == pid), None)
        return PlayerPage(
            pid,
            row.name,
            tuple(row.played_as),
            int(row.matches),
            None if place is None else place.place,
            None if place is None else place.rating.shown,
            tuple(self.history(pid)),
            self.curve(pid),
        )

    # --- going there -----------------------------------------------------------------------
    def open(self) -> None:
        """The leaderboard, from the director's screen."""
        if self.allowed():
            self.app.go(BOARD)  # type: ignore[arg-type]

    def open_player(self, player: str) -> None:
        if not self.allowed():
            return
        self.player = str(player)
        self.said_at = None
        self.rename_text = ""
        self.merge_into = None
        self.confirm_merge = False
        self.app.go(PLAYER)  # type: ignore[arg-type]

    @property
    def route(self) -> str:
        if self.app.screen == PLAYER and self.player is not None:
            return f"/club/player/{self.player}"
        return "/club/ratings"

    def open_route(self, parts: list[str]) -> bool:
        """``/club/ratings`` or ``/club/player/ID`` (a director's page reloaded)."""
        if not self.allowed():
            return False
        if parts == ["club", "ratings"]:
            self.app.go(BOARD, remember=False)  # type: ignore[arg-type]
            return True
        if len(parts) == 3 and parts[:2] == ["club", "player"] and parts[2].isdigit():
            self.open_player(parts[2])
            self.app.history = ["club", BOARD]  # type: ignore[list-item]
            return True
        return False

    # --- rename ----------------------------------------------------------------------------
    def set_rename(self, text: str) -> None:
        self.rename_text = text  # no drawing: the field holds what is typed

    def rename(self) -> bool:
        """The open player takes the typed name; the store's refusals said in words."""
        page = self.page()
        if not self.allowed():
            return False
        if page is None:
            return self._gone(self.player, "rename")
        old, new = page.name, self.rename_text
        try:
            self.app.store.rename_player(old, new)
        except ValueError as exc:
            self.app.notice = self._rename_refusal(old, new, exc)
            self.said_at = "rename"
            self.forget()
            self.app.changed()
            return False
        except Exception as exc:
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            self.said_at = "rename"
            self.app.changed()
            return False
        self.forget()
        self.rename_text = ""
        self.renames += 1  # a new, empty field (the old one holds what was typed)
        self.said_at = "rename"
        self.app.notice = Notice("club_ratings.renamed", {"old": old, "new": new.strip()})
        self.app.changed()
        return True

    def _rename_refusal(self, old: str, new: str, exc: Exception) -> Notice:
        """Which of the store's refusals it was, by what the store holds now."""
        new = new.strip()
        names = {r.name for r in self._fresh_roster()}
        if not new:
            return Notice("club_ratings.refused_empty", error=True)
        if new == old:
            return Notice("club_ratings.refused_same", {"name": new}, error=True)
        if old not in names:
            return Notice("club_ratings.refused_gone", {"name": old}, error=True)
        if new in names:
            return Notice("club_ratings.refused_taken", {"old": old, "new": new}, error=True)
        return Notice("club_ratings.refused", {"why": _detail(exc)}, error=True)

    # --- merge -----------------------------------------------------------------------------
    def merge_choices(self) -> list[tuple[str, str]]:
        """Every other player (id, name) the open one could be merged into."""
        return [(str(r.id), r.name) for r in self.roster() if str(r.id) != self.player]

    def pick_merge(self, into: str | None) -> None:
        self.merge_into = into or None
        name = self._name_of(self.merge_into)
        if self.merge_into is not None and name is not None:
            self._shown[self.merge_into] = name
        self.confirm_merge = False
        self.app.changed()

    def ask_merge(self) -> None:
        if self.merge_into is not None and self._name_of(self.merge_into) is not None:
            self.confirm_merge = True
        self.app.changed()

    def cancel_merge(self) -> None:
        self.confirm_merge = False
        self.app.changed()

    def merge_question(self) -> dict[str, object] | None:
        """What the merge will do, for the question it asks first: the open player's
        matches (``n``) become ``into``'s, and ``source`` leaves the list."""
        page = self.page()
        into = self._name_of(self.merge_into) if self.merge_into is not None else None
        if page is None or into is None:
            return None
        return {"source": page.name, "into": into, "n": page.matches}

    def merge(self) -> bool:
        """The open player is the chosen one under another name: their matches move to the
        one who stays, whose page opens; the store's refusals said in words."""
        page = self.page()
        into_id = self.merge_into
        into = self._name_of(into_id) if into_id is not None else None
        self.confirm_merge = False
        if not self.allowed():
            return False
        if page is None or into is None or into_id is None:
            self.merge_into = None
            return self._gone(self.player if page is None else into_id, "merge")
        try:
            moved = self.app.store.merge_players(page.name, into)
        except ValueError as exc:
            self.app.notice = self._merge_refusal(page.name, into, exc)
            self.said_at = "merge"
            self.forget()
            self.app.changed()
            return False
        except Exception as exc:
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            self.said_at = "merge"
            self.app.changed()
            return False
        self.forget()
        self.said_at = None  # the kept player's page opens at its top, the notice above it
        self.player = into_id
        self.merge_into = None
        self.rename_text = ""
        self.app.notice = Notice(
            "club_ratings.merged", {"source": page.name, "into": into, "n": int(moved)}
        )
        self.app.changed()
        return True

    def _merge_refusal(self, source: str, into: str, exc: Exception) -> Notice:
        names = {r.name for r in self._fresh_roster()}
        if source == into:
            return Notice("club_ratings.refused_itself", {"name": source}, error=True)
        for name in (source, into):
            if name not in names:
                return Notice("club_ratings.refused_gone", {"name": name}, error=True)
        shared = SHARED.search(str(exc))
        if shared is not None:
            named, _, more = shared.group(1).partition(" and ")
            extra = int(more.split()[0]) if more else 0
            listed = [m.strip() for m in named.split(",") if m.strip()]
            text = ", ".join(listed) + (f" +{extra}" if extra else "")
            many = len(listed) + extra > 1
            return Notice(
                f"club_ratings.refused_shared_{'many' if many else 'one'}",
                {"source": source, "into": into, "matches": text},
                error=True,
            )
        return Notice("club_ratings.refused", {"why": _detail(exc)}, error=True)

    # --- helpers ---------------------------------------------------------------------------
    def _gone(self, player: str | None, at: str) -> bool:
        """A player this screen showed is no longer in the club (renamed or merged away
        meanwhile): said by the name it showed."""
        name = self._shown.get(player or "", player or "")
        self.app.notice = Notice("club_ratings.refused_gone", {"name": name}, error=True)
        self.said_at = at
        self.app.changed()
        return False

    def _fresh_roster(self) -> list[Any]:
        try:
            return list(self.app.store.player_list())
        except Exception:
            return []

    def _name_of(self, player: str | None) -> str | None:
        if player is None:
            return None
        return next((r.name for r in self.roster() if str(r.id) == player), None)


def _detail(exc: Exception) -> str:
    return str(getattr(exc, "detail", None) or exc)


def axis(low: float, high: float, labels: int = 5) -> tuple[float, float, tuple[float, ...]]:
    """A rating axis around ``low``..``high``: a round step (1, 2 or 5 times a power of ten)
    giving about ``labels`` labels, its ends on the step."""
    span = max(high - low, 1.0)
    raw = span / max(labels - 1, 1)
    power = 10.0 ** _floor_log10(raw)
    step = next(m * power for m in (1, 2, 5, 10) if raw <= m * power)
    first = _floor_to(low, step)
    last = max(-_floor_to(-high, step), first + step)  # a flat curve still has a height
    n = round((last - first) / step)
    ticks = tuple(round(first + i * step, 6) for i in range(n + 1))
    return first, last, ticks


def _floor_log10(x: float) -> int:
    n = 0
    while x >= 10:
        x /= 10
        n += 1
    while x < 1:
        x *= 10
        n -= 1
    return n


def _floor_to(x: float, step: float) -> float:
    return (x // step) * step
