"""Reading an SQLite file page by page, without asking SQLite: what salvage falls back on when
SQLite cannot open a damaged file at all (its header changed or zeroed, the file cut short) or
loses whole subtrees behind one damaged interior page.

The file format is SQLite's documented one (https://www.sqlite.org/fileformat2.html). Nothing
here trusts the header: the page size is read off the b-tree pages themselves, the number of
pages off the file's size, and text is our own UTF-8. Every table-leaf page is read, whichever
tree it belongs to (or none, when the page above it was lost), so each row found also says
whether it was reached from its table's root. A ``-wal`` beside the file is laid over it,
frame by frame, as far as its checksums hold and its last transaction was committed.

All reads are bounded: a page is read only once, a cycle of page pointers is cut, and a
record or an overflow chain never runs past the file.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAGIC = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)
TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR = 0x0D, 0x05, 0x0A, 0x02
PAGE_TYPES = (TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR)
SIZES = tuple(1 << n for n in range(9, 17))  # 512 … 65536
_SAMPLE = 256  # pages looked at when the page size must be guessed


def varint(b: bytes, i: int) -> tuple[int, int]:
    """SQLite's big-endian varint at ``i``: (value, next offset); IndexError past the end."""
    v = 0
    for k in range(8):
        c = b[i + k]
        v = (v << 7) | (c & 0x7F)
        if c < 0x80:
            return v, i + k + 1
    return (v << 8) | b[i + 8], i + 9


def decode_record(payload: bytes) -> list[Any] | None:
    """The values of a record, or None when its header does not fit its body (damage)."""
    try:
        size, i = varint(payload, 0)
        if size < 1 or size > len(payload):
            return None
        types: list[int] = []
        while i < size:
            t, i = varint(payload, i)
            types.append(t)
        if i != size:
            return None
        out: list[Any] = []
        pos = size
        for t in types:
            if t == 0:
                out.append(None)
            elif 1 <= t <= 6:
                n = (1, 2, 3, 4, 6, 8)[t - 1]
                if pos + n > len(payload):
                    return None
                out.append(int.from_bytes(payload[pos : pos + n], "big", signed=True))
                pos += n
            elif t == 7:
                if pos + 8 > len(payload):
                    return None
                out.append(struct.unpack(">d", payload[pos : pos + 8])[0])
                pos += 8
            elif t in (8, 9):
                out.append(t - 8)
            elif t >= 12:
                n = (t - 12) // 2
                if pos + n > len(payload):
                    return None
                raw = bytes(payload[pos : pos + n])
                pos += n
                if t % 2:
                    try:
                        out.append(raw.decode("utf-8"))
                    except UnicodeDecodeError:
                        return None
                else:
                    out.append(raw)
            else:
                return None
        if pos != len(payload):
            return None
        return out
    except IndexError:
        return None


@dataclass(frozen=True)
class Geometry:
    """How the file is laid out, as far as the pages themselves show it."""

    page_size: int
    usable: int
    pages: int
    header_ok: bool  # the header's own page size, magic and versions were usable
    freelist_trunk: int  # 0 when unknown (a damaged header): free pages are then not told apart


def _page_start_ok(b: bytes, usable: int, h: int = 0) -> bool:
    """Whether ``b`` (one page) starts like a b-tree page whose cell pointers all fit."""
    if len(b) < h + 8:
        return False
    kind = b[h]
    if kind not in PAGE_TYPES:
        return False
    head = 12 if kind in (TABLE_INTERIOR, INDEX_INTERIOR) else 8
    cells = int.from_bytes(b[h + 3 : h + 5], "big")
    end = h + head + 2 * cells
    if end > usable:
        return False
    for k in range(cells):
        p = int.from_bytes(b[h + head + 2 * k : h + head + 2 * k + 2], "big")
        if not end <= p < usable:
            return False
    return cells > 0 or kind == TABLE_LEAF


def geometry(path: Path, size: int) -> Geometry:
    """The page size (the header's if the pages agree, else the one the pages show), the
    number of pages (from the file's size: a cut file keeps what it has) and the freelist."""
    with path.open("rb") as fh:
        head = fh.read(100).ljust(100, b"\0")

        def share(ps: int) -> float:
            slots = min(_SAMPLE, max(size // ps - 1, 0))
            if slots == 0:
                return 0.0
            good = 0
            for n in range(1, slots + 1):
                fh.seek(n * ps)
                if _page_start_ok(fh.read(ps), ps):
                    good += 1
            return good / slots

        stated = int.from_bytes(head[16:18], "big")
        stated = 65536 if stated == 1 else stated
        magic = head[:16] == MAGIC
        header_ok = magic and stated in SIZES and head[18] in (1, 2) and head[19] in (1, 2)
        if stated in SIZES and share(stated) >= 0.5:
            page_size = stated
        else:
            scores = {ps: share(ps) for ps in SIZES}
            best = max(scores.values())
            page_size = min(ps for ps, s in scores.items() if s >= 0.8 * best) if best else 4096
            header_ok = False
    reserved = head[20] if magic and head[20] <= 32 else 0
    trunk = int.from_bytes(head[32:36], "big") if header_ok else 0
    pages = -(-size // page_size)
    return Geometry(page_size, page_size - reserved, pages, header_ok, trunk)


def _wal_checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for k in range(0, len(words), 2):
        s0 = (s0 + words[k] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[k + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_pages(wal: Path, limit: int) -> tuple[dict[int, bytes], int, int]:
    """The newest committed copy of each page a ``-wal`` holds (checksums followed frame by
    frame, stopping at the first that fails), its page size and the database size in pages
    its last commit states; ({}, 0, 0) when there is no usable WAL."""
    try:
        with wal.open("rb") as fh:
            head = fh.read(32)
            if len(head) < 32:
                return {}, 0, 0
            magic, _version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack(">8I", head)
            if magic not in WAL_MAGIC or page_size not in SIZES:
                return {}, 0, 0
            big = magic == WAL_MAGIC[1]
            s = _wal_checksum(head[:24], 0, 0, big)
            if s != (c1, c2):
                return {}, 0, 0
            pages: dict[int, bytes] = {}
            pending: dict[int, bytes] = {}
            db_pages = 0
            read = 32
            while read + 24 + page_size <= limit:
                frame = fh.read(24 + page_size)
                if len(frame) < 24 + page_size:
                    break
                read += len(frame)
                pgno, commit, f1, f2, k1, k2 = struct.unpack(">6I", frame[:24])
                if (f1, f2) != (salt1, salt2) or pgno == 0:
                    break
                s = _wal_checksum(frame[:8], *s, big)
                s = _wal_checksum(frame[24:], *s, big)
                if s != (k1, k2):
                    break
                pending[pgno] = frame[24:]
                if commit:
                    pages.update(pending)
                    pending.clear()
                    db_pages = commit
            return pages, page_size, db_pages
    except OSError:
        return {}, 0, 0


@dataclass
class Row:
    """A table row found in the file: its rowid, values, the page it sat on and whether that
    page was reached from its table's root (else it was found by reading every page)."""

    rowid: int
    values: list[Any]
    page: int
    reached: bool


@dataclass
class Found:
    """What a read of the whole file gave: the schema it states (if readable), each tree's
    rows, rows on pages no readable tree reached, and the index entries of named indexes."""

    schema: dict[str, tuple[str, int, str]] = field(default_factory=dict)  # name: (type, root, sql)
    rows: dict[str, list[Row]] = field(default_factory=dict)
    orphans: list[Row] = field(default_factory=list)
    keys: dict[str, list[list[Any]]] = field(default_factory=dict)
    bad_pages: dict[str, set[int]] = field(default_factory=dict)  # per tree: pages not parsed
    pages: int = 0


class PageFile:
    """A damaged file read page by page (with its WAL laid over it); never written."""

    def __init__(self, path: Path, size: int, wal: Path | None = None, wal_limit: int = 0):
        self.path = path
        self.geo = geometry(path, size)
        self.overlay: dict[int, bytes] = {}
        if wal is not None:
            pages, page_size, db_pages = wal_pages(wal, wal_limit)
            if pages and page_size == self.geo.page_size:
                self.overlay = pages
                if db_pages > self.geo.pages:
                    self.geo = Geometry(
                        page_size, self.geo.usable, db_pages, self.geo.header_ok, 0
                    )
        self._fh = path.open("rb")

    def close(self) -> None:
        self._fh.close()

    def page(self, n: int) -> bytes:
        """Page ``n`` (1-based), zero-filled past the end of a cut file."""
        if n in self.overlay:
            return self.overlay[n]
        ps = self.geo.page_size
        self._fh.seek((n - 1) * ps)
        return self._fh.read(ps).ljust(ps, b"\0")

    # --------------------------------------------------------------------------- cells
    def _payload(self, b: bytes, at: int, total: int, index: bool) -> bytes | None:
        """A cell's payload of ``total`` bytes starting at ``at``, following its overflow
        pages when it does not fit the page; None when the chain is broken."""
        u = self.geo.usable
        x = ((u - 12) * 64 // 255 - 23) if index else (u - 35)
        if total <= x:
            return b[at : at + total] if at + total <= u else None
        m = (u - 12) * 32 // 255 - 23
        k = m + (total - m) % (u - 4)
        local = k if k <= x else m
        if at + local + 4 > u:
            return None
        parts = [b[at : at + local]]
        got = local
        nxt = int.from_bytes(b[at + local : at + local + 4], "big")
        seen: set[int] = set()
        while got < total:
            if not 1 < nxt <= self.geo.pages or nxt in seen:
                return None
            seen.add(nxt)
            ov = self.page(nxt)
            take = min(u - 4, total - got)
            parts.append(ov[4 : 4 + take])
            got += take
            nxt = int.from_bytes(ov[:4], "big")
        return b"".join(parts)

    def cells(
        self, n: int, decode: bool = True
    ) -> tuple[int, list[tuple[int | None, list[Any] | None, int]]] | None:
        """A page's type and its cells as (rowid or None, record values or None, child page
        or 0); None when the page is no b-tree page. Without ``decode`` only the tree's
        shape is read (the child pages), not the records."""
        b = self.page(n)
        h = 100 if n == 1 else 0
        if not _page_start_ok(b, self.geo.usable, h):
            return None
        kind = b[h]
        interior = kind in (TABLE_INTERIOR, INDEX_INTERIOR)
        head = h + (12 if interior else 8)
        count = int.from_bytes(b[h + 3 : h + 5], "big")
        out: list[tuple[int | None, list[Any] | None, int]] = []
        if not decode and not interior:
            return kind, out
        for k in range(count):
            p = int.from_bytes(b[head + 2 * k : head + 2 * k + 2], "big")
            try:
                if kind == TABLE_INTERIOR:
                    child = int.from_bytes(b[p : p + 4], "big")
                    key, _ = varint(b, p + 4)
                    out.append((key, None, child))
                elif kind == TABLE_LEAF:
                    total, i = varint(b, p)
                    rowid, i = varint(b, i)
                    if rowid >= 1 << 63:
                        rowid -= 1 << 64
                    payload = self._payload(b, i, total, index=False)
                    out.append((rowid, decode_record(payload) if payload else None, 0))
                else:
                    child = 0
                    i = p
                    if kind == INDEX_INTERIOR:
                        child = int.from_bytes(b[p : p + 4], "big")
                        i = p + 4
                    if not decode:
                        out.append((None, None, child))
                        continue
                    total, i = varint(b, i)
                    payload = self._payload(b, i, total, index=True)
                    out.append((None, decode_record(payload) if payload else None, child))
            except IndexError:
                out.append((None, None, 0))
        if interior:
            out.append((None, None, int.from_bytes(b[h + 8 : h + 12], "big")))
        return kind, out

    def walk(
        self, root: int, seen: set[int], decode: bool = True
    ) -> Iterator[tuple[int, int, list[Any] | None, int | None]]:
        """Every leaf cell of the tree at ``root`` as (page, kind, values, rowid); interior
        index cells are keys too. Pages already in ``seen`` are not read again (a damaged
        pointer cannot loop), and pages that do not parse are skipped."""
        stack = [root]
        while stack:
            n = stack.pop()
            if not 1 <= n <= self.geo.pages or n in seen:
                continue
            seen.add(n)
            got = self.cells(n, decode)
            if got is None:
                yield n, 0, None, None
                continue
            kind, cells = got
            for rowid, values, child in reversed(cells):
                if child:
                    stack.append(child)
                if kind == TABLE_LEAF or (kind in (INDEX_LEAF, INDEX_INTERIOR) and values):
                    yield n, kind, values, rowid

    def freelist(self) -> set[int]:
        """Pages on the freelist (their rows are stale copies), as far as it can be followed."""
        out: set[int] = set()
        trunk = self.geo.freelist_trunk
        while 1 < trunk <= self.geo.pages and trunk not in out:
            out.add(trunk)
            b = self.page(trunk)
            count = int.from_bytes(b[4:8], "big")
            if count > (self.geo.usable - 8) // 4:
                break
            for k in range(count):
                leaf = int.from_bytes(b[8 + 4 * k : 12 + 4 * k], "big")
                if 1 < leaf <= self.geo.pages:
                    out.add(leaf)
            trunk = int.from_bytes(b[:4], "big")
        return out


def read_file(
    path: Path,
    tables: set[str],
    indexes: set[str],
    wal: Path | None = None,
    wal_limit: int = 0,
    on_page: Any = None,
) -> Found:
    """Every row of the named ``tables`` and every key of the named ``indexes`` the file still
    holds, plus the rows of table-leaf pages no tree reached (``orphans``; the caller tells
    whose they are by their shape). ``on_page(done, total, rows)`` hears the progress."""
    size = os.stat(path).st_size
    pf = PageFile(path, size, wal, wal_limit)
    found = Found(pages=pf.geo.pages)
    try:
        seen: set[int] = set()
        schema_rows = [v for _, kind, v, _ in pf.walk(1, seen) if kind == TABLE_LEAF and v]
        for v in schema_rows:
            if len(v) >= 5 and isinstance(v[1], str) and isinstance(v[3], int):
                found.schema[v[1]] = (str(v[0]), int(v[3]), str(v[4] or ""))
        rows_seen = 0
        done = len(seen)
        # Our trees first, from their roots: their rows are the live ones. The other trees
        # are walked after them only so their pages are not read as lost rows of ours.
        order = sorted(
            found.schema.items(), key=lambda kv: (kv[0] not in tables | indexes, kv[1][1])
        )
        for name, (_kind, root, _sql) in order:
            wanted = name in tables or name in indexes
            before = set(seen)
            for page, pkind, values, rowid in pf.walk(root, seen, decode=wanted):
                if not wanted:
                    continue
                if pkind == 0:
                    found.bad_pages.setdefault(name, set()).add(page)
                elif name in tables and pkind == TABLE_LEAF and rowid is not None:
                    if values is None:
                        found.bad_pages.setdefault(name, set()).add(page)
                        continue
                    found.rows.setdefault(name, []).append(Row(rowid, values, page, True))
                    rows_seen += 1
                elif name in indexes and values is not None:
                    found.keys.setdefault(name, []).append(values)
            if not wanted:  # another tree's pages: only remembered so they are not carved
                continue
            done += len(seen - before)
            if on_page is not None:
                on_page(done, pf.geo.pages, rows_seen)
        free = pf.freelist()
        # Then every page no tree reached: rows whose parent page was lost.
        for n in range(1, pf.geo.pages + 1):
            if n in seen or n in free:
                continue
            got = pf.cells(n)
            if got is not None and got[0] == TABLE_LEAF:
                for rowid, values, _ in got[1]:
                    if rowid is not None and values is not None:
                        found.orphans.append(Row(rowid, values, n, False))
                        rows_seen += 1
            done += 1
            if on_page is not None and n % 64 == 0:
                on_page(done, pf.geo.pages, rows_seen)
        if on_page is not None:
            on_page(pf.geo.pages, pf.geo.pages, rows_seen)
        return found
    finally:
        pf.close()
