"""New controls configured without walking their plain values (a documented patch of Flet
1.0.5's diff, installed once per process by ui/shell.py's ``make_main``).

Flet's diff prepares every control a screen adds (``DiffBuilder._configure_dataclass``) by
walking each of its dataclass fields, recursively, through a generator per field value:
for the value ``None``, a string, a number or an enum member the walk does nothing at all,
but it still makes a generator, asks ``dataclasses.is_dataclass`` and tests ``dict`` and
``list``. A deal screen's controls hold some sixty fields each, nearly all of them such
values: py-spy of new sessions on the club server put this walk at two fifths of a session's
first screen (``is_dataclass`` alone a sixth), the engine and our screens' code well below.

Here the method answers nothing at once for a value of a type the walk has nothing to do
with (not a dataclass, not a dict, not a list, not a class), and calls Flet's own for every
other value, so what is configured and in which order is Flet's. The types judged are kept:
a type's dataclass-ness does not change while the process runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

FLET_VERSION = "1.0.5"  # the version whose walk this skips; another one is left alone

_plain: set[type] = {type(None), str, int, float, bool}  # types the walk does nothing with
_judged: set[type] = set(_plain)


def _walks(kind: type) -> bool:
    """Whether Flet's walk does anything with a value of this type."""
    return (
        dataclasses.is_dataclass(kind)
        or issubclass(kind, (dict, list, type))  # a class object: Flet's own rules apply
    )


def fast(original: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    """``original`` (Flet's ``_configure_dataclass``), answering plain values at once."""

    def configure(
        self: Any, item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False
    ) -> Any:
        kind = type(item)
        if kind in _plain:
            return ()
        if kind not in _judged:
            _judged.add(kind)
            if not _walks(kind):
                _plain.add(kind)
                return ()
        return original(self, item, parent, frozen, configure_setattr_only)

    configure.bezique_fast = True  # type: ignore[attr-defined]
    configure.flet_original = original  # type: ignore[attr-defined]
    return configure


def install() -> bool:
    """Patch Flet's diff once (nothing on another Flet version); whether it is patched."""
    import flet
    from flet.controls.object_patch import DiffBuilder

    current = DiffBuilder.__dict__["_configure_dataclass"]
    if getattr(current, "bezique_fast", False):
        return True
    if flet.__version__ != FLET_VERSION:
        return False
    DiffBuilder._configure_dataclass = fast(current)  # type: ignore[method-assign]
    return True
