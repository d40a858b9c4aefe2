"""QA P27: the correction preview prints a negative score with a real minus (U+2212), as the
sheet does: "−100 instead of −140", never an ASCII hyphen that reads as a dash."""

from __future__ import annotations

import re

from test_ui_correction import _open, _texts
from ui_helpers import new_match, start_deal

from referee.events import Penalty
from ui.state.app import AppState


def test_negative_scores_in_the_correction_preview_have_a_real_minus(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.record(Penalty(0, "P-REVOKE"))  # Anna's penalty: her score goes below zero
    cs = _open(app)
    assert cs.can_change_player()
    cs.set_player(1)
    said = _texts(app, cs.changes)
    assert any("\u2212" in s for s in said), said  # a negative score is shown
    for s in said:
        assert not re.search(r"(?<![\w])-\d", s), s  # no ASCII hyphen before a number
