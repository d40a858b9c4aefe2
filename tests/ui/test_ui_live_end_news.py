"""QA P25: an end of deal recorded on another phone is told whole on every other screen (the
last trick AND the brisques, not only the last write), and a phone whose own end form was open
is told that its form was replaced by the other phone's entry."""

from __future__ import annotations

from test_ui_table import Hub, table  # noqa: F401  (the fixture)

from ui.state.app import AppState


def end_form(app: AppState, last: int, counts: tuple[int, int]) -> None:
    ds = app.deal
    assert ds is not None
    ds.open_end(last)
    for seat, n in enumerate(counts):
        ds.set_brisques(seat, str(n))


def test_an_end_of_deal_from_another_phone_names_last_trick_and_brisques_and_the_replaced_form(
    table: tuple[Hub, AppState, AppState, AppState, int],  # noqa: F811
) -> None:
    hub, anna, boris, viewer, _mid = table
    assert anna.deal is not None and boris.deal is not None
    anna.deal.stock_exhausted()
    hub.deliver(anna, boris, viewer)
    end_form(boris, 1, (4, 12))  # Boris's phone: last trick Boris, his own counts
    end_form(anna, 0, (10, 6))
    assert anna.deal.finish_deal()
    hub.deliver(anna, boris, viewer)
    assert boris.deal.mode == "summary"  # his form is gone: the deal is closed as Anna's said
    assert boris.live_notice is not None
    text = boris.live_notice.text(boris.t, "en")
    assert text.startswith("Anna's phone")
    assert "last trick" in text and "Brisques" in text  # the whole end, not the last write
    assert "end form was replaced" in text  # this phone's open end form
    # the viewer had no form open: told the whole end, nothing about a form
    assert viewer.live_notice is not None
    seen = viewer.live_notice.text(viewer.t, "ru")
    assert "последн" in seen.lower() and "бриск" in seen.lower()
    assert "заменена" not in seen.lower()


def test_two_separate_entries_of_one_phone_are_not_merged_in_the_strip(
    table: tuple[Hub, AppState, AppState, AppState, int],  # noqa: F811
) -> None:
    from test_ui_table import declare

    hub, anna, boris, viewer, _mid = table
    assert declare(anna, 0, "KS KH KD KC") is not None
    hub.deliver(anna, boris, viewer)
    assert declare(anna, 1, "QS QH QD QC") is not None
    hub.deliver(anna, boris, viewer)
    assert boris.live_notice is not None
    text = boris.live_notice.text(boris.t, "en")
    assert "four queens" in text and "four kings" not in text
