"""What a club table's phone may reach in storage: its own table's matches, nothing else.

A phone that joined table 3 by its link gets, instead of the server's store, a
:class:`TableStore` around it (ui/server/club_app.py). Every read and every write of the app
goes through a store, so this is where the scoping holds whatever a screen offers or a
message asks: a match of another table is neither read nor written, the lists show only the
table's matches, and what concerns the whole club (players, statistics, imports, backups,
new matches) is refused. Deny by default: a store method not named here is refused too.

``scope`` is asked at each call, since the director can start the table's next match or
abandon it while the phone is connected: reads are allowed on every match the table
played, writes only on its current match while the table is not abandoned. Refusals are
:class:`OutOfScope` (a ``WriteFailed``, so the screens' write paths say it) in the phone's
own language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ui.backend import WriteFailed


class OutOfScope(WriteFailed):
    """This phone's table does not include what was asked (a read or a write): a write
    failure like a viewer's, so every screen's write path says it in words (ui/live.py's
    ``write_notice``) and storage was never asked."""


class TableScope(Protocol):
    def readable(self, number: int) -> frozenset[int]: ...
    def writable(self, number: int) -> int | None: ...


READS = (
    "match_info",
    "load_match",
    "history",
    "snapshot",
    "log_position",
    "last_seq",
    "can_undo",
    "can_redo",
    "cached_scores",
    "cached_melds",
    "event_seqs",
    "export_match",
    "verify",
    "preview_correction",
)
# abandoning or restoring a table's match is the director's (ui/state/club.py): not here
WRITES = ("record", "start_deal", "undo", "redo", "correct")
PASSED = ("feed", "notice", "location", "read_only")  # no match data in these


class TableStore:
    """The store as a phone of table ``number`` sees it."""

    def __init__(
        self,
        store: Any,
        scope: TableScope,
        number: int,
        words: Callable[[], str],
        *,
        scorer: bool = True,
    ) -> None:
        self._store = store
        self._scope = scope
        self.table = number
        self._words = words  # the refusal, in the phone's language now
        self._scorer = scorer  # a viewer's link writes nothing (its sessions refuse too)

    def refuse(self) -> OutOfScope:
        return OutOfScope(self._words())

    def sees(self, match_id: int) -> bool:
        return int(match_id) in self._scope.readable(self.table)

    def may_write(self, match_id: int) -> bool:
        return self._scorer and self._scope.writable(self.table) == int(match_id)

    def __getattr__(self, name: str) -> Any:
        if name in PASSED:
            return getattr(self._store, name)
        if name in READS or name in WRITES:
            allowed = self.sees if name in READS else self.may_write
            real = getattr(self._store, name)

            def checked(match_id: int, *args: Any, **kwargs: Any) -> Any:
                if not allowed(match_id):
                    raise self.refuse()
                return real(match_id, *args, **kwargs)

            return checked
        raise self.refuse()  # players, statistics, imports, backups, new matches: the club's

    # --- the lists, cut to this table ------------------------------------------------------
    def _infos(self) -> list[Any]:
        infos = [self._store.match_info(m) for m in self._scope.readable(self.table)]
        return sorted(infos, key=lambda i: int(i.id), reverse=True)

    def list_matches(
        self, *, unfinished_only: bool = False, limit: int | None = None, offset: int = 0
    ) -> list[Any]:
        infos = [
            i
            for i in self._infos()
            if not unfinished_only or not (i.finished or getattr(i, "abandoned", False))
        ]
        infos = infos[offset:]
        return infos if limit is None else infos[:limit]

    def unfinished_match(self) -> int | None:
        current = self._scope.writable(self.table)
        if current is None:
            return None
        info = self._store.match_info(current)
        return None if info.finished or getattr(info, "abandoned", False) else current

    def last_finished_match(self) -> int | None:
        done = [i for i in self._infos() if i.finished]
        return int(done[0].id) if done else None
