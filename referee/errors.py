"""The engine's exceptions: malformed input is told apart from an illegal action.

Every exception is a ``ValueError`` so callers that only want "bad input" can catch one type;
the subclasses say *why* the input is bad, and each message names the input and the place.
"""

from __future__ import annotations


class BeziqueError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidCardError(BeziqueError):
    """A card's text cannot be read (``"1S"``, ``"QX"``)."""

    def __init__(self, text: str, reason: str = "") -> None:
        self.text = text
        msg = f'unknown card "{text}"'
        if reason:
            msg += f" ({reason})"
        super().__init__(msg)


class RecordError(BeziqueError):
    """A match record (or one of its events) is malformed; ``path`` names the place."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.detail = message
        super().__init__(f"{path}: {message}" if path else message)


class InconsistentEventError(BeziqueError):
    """An event contradicts facts the engine already holds (a trick's winner disagrees with its
    cards, brisque counts that cannot add up, a card played that no pack holds any more).

    Unlike a rejected declaration this is not a ruling on the play: the record itself is wrong.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        self.rule = rule
        super().__init__(message)


class UnknownVariantError(BeziqueError):
    """A variant or house rule id the engine does not know."""
