"""Reading files that may be hostile: only regular files, never more than a stated size, and
JSON that cannot carry what would crash a later step (a lone surrogate, a 5,000-digit integer).

A real match record is kilobytes; the limits are generous for any match ever played and small
enough that memory stays bounded (docs/storage.md states them). Errors are RecordError naming
the file (and the JSON path), never a traceback.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from referee.errors import RecordError

MAX_RECORD_BYTES = 8 * 1024 * 1024  # one match record (a long match is under 1 MB)
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024  # a backup archive, compressed or not
MAX_ARCHIVE_MEMBERS = 100_000
# A database file handed to salvage (with its -wal, each): 10,000 matches take 53 MB, so this is
# ten times the largest collection measured, and what salvage holds in memory stays bounded.
MAX_DATABASE_BYTES = 512 * 1024 * 1024
MAX_ARCHIVE_UNPACKED = 256 * 1024 * 1024  # all members together, unpacked
MAX_RATIO = 200  # unpacked / packed for one member above RATIO_FROM bytes (zip bombs)
RATIO_FROM = 1024 * 1024


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MB"


def check_regular(path: Path, limit: int) -> int:
    """The size of a regular file of at most ``limit`` bytes, else RecordError (a FIFO, a
    device such as /dev/zero, a folder or a file too large for what it claims to be)."""
    where = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise RecordError(where, "no such file") from None
    except OSError as exc:
        raise RecordError(where, f"cannot read the file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise RecordError(where, "not a regular file (a folder, device or pipe is not read)")
    if st.st_size > limit:
        raise RecordError(where, f"too large ({st.st_size} bytes; the limit is {_mib(limit)})")
    return st.st_size


def read_regular(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """A regular file's bytes, at most ``limit``; opened without blocking and checked again
    on the open descriptor, so a file swapped for a pipe or device meanwhile is refused."""
    check_regular(path, limit)
    where = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise RecordError(where, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RecordError(where, "not a regular file (a folder, device or pipe is not read)")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise RecordError(where, f"too large (over {_mib(limit)})")
        return b"".join(chunks)
    except OSError as exc:
        raise RecordError(where, f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def parse_json(data: bytes, where: str) -> Any:
    """JSON text → value; RecordError names the place for anything a later step could not
    handle: bad UTF-8, bad JSON, nesting too deep, numbers too long, lone surrogates."""
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Windows editors) is not an error
    except UnicodeDecodeError as exc:
        raise RecordError(where, f"not UTF-8 text (byte {exc.start})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            where, f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise RecordError(where, "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise RecordError(where, f"not usable JSON: {exc}") from None
    check_text(value, where)
    return value


def check_text(value: Any, where: str) -> None:
    """Refuse strings that cannot be written as UTF-8 (a lone surrogate such as \\ud800)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            _utf8(item, where, path)
        elif isinstance(item, dict):
            for k, v in item.items():
                sub = f"{path}.{k}" if path else str(k)
                _utf8(str(k), where, path or "record")
                stack.append((v, sub))
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))


def _utf8(s: str, where: str, path: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        safe = s.encode("utf-8", "backslashreplace").decode("ascii", "replace")
        place = f"{where}: {path}" if path else where
        raise RecordError(place, f"text that is not valid Unicode: {safe[:60]!r}") from None


def load_json_file(path: Path, limit: int = MAX_RECORD_BYTES) -> Any:
    """A JSON file read under the limits above."""
    return parse_json(read_regular(path, limit), str(path))
