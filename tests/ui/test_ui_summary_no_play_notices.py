"""A deal's summary says how the deal ended, never a notice of its play (issue 22): a phone
that tapped *Stock exhausted* while another phone recorded the end of the deal showed "The
stock is exhausted: from now on no declarations" under the finished deal."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_layout_fixed import ctx, texts
from test_ui_table import Hub, table  # noqa: F401  (the fixture: three devices on a match)

from ui.state.app import AppState
from ui.views import SCREENS


def summary_texts(app: AppState) -> str:
    view = SCREENS["deal"](ctx(app))
    return " ".join(texts(view.body))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_summary_shows_no_ruling_of_the_play_after_another_phone_ended_the_deal(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any, lang: str  # noqa: F811
) -> None:
    hub, anna, boris, viewer, _mid = table
    anna.set_language(lang)
    assert anna.deal is not None and boris.deal is not None
    said = anna.deal.stock_exhausted()  # Anna's phone: phase 2 begins
    assert said is not None and said.accepted
    hub.deliver(anna, boris, viewer)
    boris.deal.open_end(last=1)  # Boris's phone records the end of the deal
    boris.deal.set_brisques(0, "8")
    boris.deal.set_brisques(1, "8")
    assert boris.deal.finish_deal(), boris.deal.end_errors
    hub.deliver(anna, boris, viewer)
    assert anna.deal.mode == "summary"
    shown = summary_texts(anna)
    assert anna.t("summary.title", n=1) in shown  # it is the summary
    assert said.text not in shown
    assert "stock" not in shown.lower() and "колода" not in shown.lower()
