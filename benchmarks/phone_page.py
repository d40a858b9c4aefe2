"""Driving the phone build (scripts/build_phone.py) in Chromium, for bench_offline.py and the
browser test (tests/ui/e2e/test_ui_e2e_phone_build.py): waiting for a usable Home and the
few steps from Home to a deal, on a page with no server behind it (no websocket frames to
wait for: what was typed is read back from the field)."""

from __future__ import annotations

from typing import Any

WAIT_MS = 60_000

# Flutter's accessibility tree (the DOM both read) is switched on by a click on its
# placeholder; a click before the engine listens is lost, so it is repeated every second.
HOME_READY = """() => {
  if (document.querySelector('[flt-semantics-identifier="new-match"]')) return true;
  const p = document.querySelector('flt-semantics-placeholder');
  const now = performance.now();
  if (p && !document.getElementById('loading') && now - (window.__semanticsAt || -1e9) > 1000) {
    p.dispatchEvent(new Event('click'));
    window.__semanticsAt = now;
  }
  return false;
}"""


def by_id(page: Any, identifier: str) -> Any:
    return page.locator(f'[flt-semantics-identifier="{identifier}"]').first


def wait_home(page: Any, timeout_s: float = 180) -> None:
    """Until Home's "New match" button is in the accessibility tree (a usable Home)."""
    page.wait_for_function(HOME_READY, timeout=timeout_s * 1000, polling=20)


def type_name(page: Any, label: str, text: str) -> None:
    """Type into a field until it holds ``text`` (a fill can be lost while Flutter redraws)."""
    box = page.get_by_role("textbox", name=label)
    for _ in range(5):
        box.click()
        page.wait_for_timeout(200)
        box.fill(text)
        page.wait_for_timeout(300)
        if box.input_value() == text:
            return
    raise AssertionError(f"could not type {text!r} into {label!r}")


def new_two_hand_match(page: Any) -> None:
    """From Home: a two-hand match of Anna and Boris, its deal setup open. An unfinished match
    of an earlier run makes Home ask first; the new one is started anyway (the old is kept)."""
    by_id(page, "new-match").click()
    page.wait_for_function(
        """() => ['start-match', 'new-anyway'].some(
            (id) => document.querySelector(`[flt-semantics-identifier="${id}"]`))""",
        timeout=WAIT_MS,
    )
    if page.locator('[flt-semantics-identifier="new-anyway"]').count():
        by_id(page, "new-anyway").click()
    by_id(page, "start-match").wait_for(timeout=WAIT_MS)
    type_name(page, "Player 1", "Anna")
    type_name(page, "Player 2", "Boris")
    by_id(page, "start-match").click()
    by_id(page, "start-deal").wait_for(timeout=WAIT_MS)
