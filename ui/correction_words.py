"""What a stored correction changed, as lines in one language: the correcting phone's screen
lists them after Confirm, and every other phone at the table says the same lines in its own
language (ui/live.py), from the engine's comparison that travels with the news, never from
text made in another language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ui import backend
from ui.i18n import Translator


@dataclass(frozen=True)
class ChangeLine:
    """One line of "what this correction changes": a text key with its arguments."""

    key: str
    args: dict[str, object] = field(default_factory=dict)
    kind: str = "info"  # entry, total, deal, flip, ruling, penalty, winner, info
    identifier: str = ""

ORDER = ("total", "winner", "flip", "ruling", "penalty", "deal", "entry", "info")


def change_lines(
    diff: Any, players: tuple[str, ...], lang: str, deals: int = 2
) -> list[ChangeLine]:
    """The engine's comparison as lines, what matters most first: each total that changes,
    the winner, later rulings that flip or score differently, penalties proposed or
    withdrawn, each deal score that changes (when the match has more than one deal:
    otherwise they are the totals), and the entry itself as it was and as it is now."""
    out: list[ChangeLine] = []
    before = backend.ruling_words(diff.ruling_before, lang)
    if diff.ruling_after is None:
        out.append(ChangeLine("correction.change.deleted", {"before": before}, "entry", "ch-entry"))
    else:
        after = backend.ruling_words(diff.ruling_after, lang)
        out.append(
            ChangeLine(
                "correction.change.entry", {"before": before, "after": after}, "entry", "ch-entry"
            )
        )
    for i, t in enumerate(diff.totals):
        if t.changed:
            out.append(
                ChangeLine(
                    "correction.change.total",
                    {"side": t.side, "before": _pts(t.before), "after": _pts(t.after)},
                    "total",
                    f"ch-total-{i}",
                )
            )
    for t in diff.deal_totals if deals > 1 else ():
        out.append(
            ChangeLine(
                "correction.change.deal",
                {
                    "deal": t.deal + 1,
                    "side": t.side,
                    "before": _pts(t.before),
                    "after": _pts(t.after),
                },
                "deal",
                f"ch-deal-{t.deal}-{t.side}",
            )
        )
    for r in diff.rulings:
        args: dict[str, object] = {
            "deal": r.deal + 1,
            "entry": r.event + 1,
            "text": backend.ruling_text(r.after, lang),
        }
        if r.flipped:
            key = (
                "correction.change.now_accepted"
                if r.after.accepted
                else ("correction.change.now_rejected")
            )
            out.append(ChangeLine(key, args, "flip", f"ch-flip-{r.deal}-{r.event}"))
        elif int(r.before.points or 0) == int(r.after.points or 0):  # another rule decided
            out.append(
                ChangeLine(
                    "correction.change.rule", args, "ruling", f"ch-ruling-{r.deal}-{r.event}"
                )
            )
        else:
            args |= {
                "before": _pts(int(r.before.points or 0)),
                "after": _pts(int(r.after.points or 0)),
            }
            out.append(
                ChangeLine(
                    "correction.change.ruling", args, "ruling", f"ch-ruling-{r.deal}-{r.event}"
                )
            )
    for p in diff.penalties:
        key = "correction.change.penalty_added" if p.added else "correction.change.penalty_gone"
        out.append(
            ChangeLine(
                key,
                {
                    "deal": p.deal + 1,
                    "entry": p.event + 1,
                    "penalty": backend.rule_title(p.penalty, lang),
                    "player": players[p.player],
                },
                "penalty",
                f"ch-penalty-{p.deal}-{p.event}",
            )
        )
    if diff.winner_changed:
        out.append(
            ChangeLine(
                "correction.change.winner",
                {
                    "before": _verdict(diff.verdict_before, lang),
                    "after": _verdict(diff.verdict_after, lang),
                },
                "winner",
                "ch-winner",
            )
        )
    if not diff.changes_anything:
        out.append(ChangeLine("correction.change.nothing", {}, "info", "ch-nothing"))
    out.sort(key=lambda line: ORDER.index(line.kind))
    return out


def _verdict(v: Any, lang: str) -> str:
    t = Translator(lang)
    if not v.finished or v.winner is None:
        return t("correction.no_winner")
    return t("correction.winner", winner=v.winner, rule=v.decided_by or "")


def _pts(points: int) -> str:
    """A score as the sheet prints it: a real minus (U+2212), never an ASCII hyphen (QA P27)."""
    return f"\u2212{-points}" if points < 0 else str(points)


def said(diff: Any, players: tuple[str, ...], lang: str, deals: int) -> str:
    """The lines in one run of text for the table's news strip: "Boris: 1160 → 1150 in all;
    Deal 1, Boris: 350 → 340; Deleted: …" (a line's own parts, "Was: …" and "Now: …",
    are parted the same way)."""
    t = Translator(lang)
    parts = (
        " ".join(part.split())
        for line in change_lines(diff, players, lang, deals)
        for part in str(t(line.key, **line.args)).splitlines()
    )
    return "; ".join(p for p in parts if p)
