"""Which screen is shown, as a key for its body (QA P23): Flet diffs each render against the
last, so without it Home reused the Players screen's scrolling column and opened ~900 px down,
the summary opened where the end form was scrolled, the sheet where the summary was. A new key
makes a new scrolling column: each screen opens at its top. Within one screen (the deal in
play, a tap after a tap) the key stays the same, so nothing moves under the finger."""

from __future__ import annotations

from typing import Any


def screen_key(app: Any) -> str:
    key = str(app.screen)
    ds = getattr(app, "deal", None)
    if key == "deal" and ds is not None:
        # setup → play → end form → summary are screens of their own; so is each deal
        key = f"deal:{ds.mode}:{ds.deal_number}"
    club = getattr(app, "club", None)
    if key == "club_player" and club is not None:
        key = f"club_player:{club.ratings.player}"  # each player's page opens at its top
    return key
