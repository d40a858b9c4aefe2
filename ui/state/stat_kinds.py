"""The name of a kind the players' statistics count (referee/storage/replay.py ``scored_of``):
a combination, or the seven of trumps, whose id ("seven") is no combination and fell through
to its English id on a Russian screen (QA P22). Every name comes from the translation files."""

from __future__ import annotations

from referee import rulings

# Kinds that are no combination of a variant: their name is a label of the rulings file.
LABELLED = {"seven": "seven"}


def kind_name(kind: str, lang: str) -> str:
    if kind in LABELLED:
        return rulings.label(LABELLED[kind], lang)
    return rulings.meld_name(kind, lang)
