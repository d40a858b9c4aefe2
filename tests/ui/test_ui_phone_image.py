"""What a phone start restored from Python's image renews (ui/phone_app.py ``after_image``);
the image itself is made and restored in the browser test (test_ui_e2e_phone_build.py)."""

from __future__ import annotations

import random
import sys

import pytest

from ui import phone_app


def test_a_start_from_the_image_draws_its_own_random_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    random.seed(7)  # the state the image froze
    frozen = random.getstate()
    phone_app.after_image()
    assert random.getstate() != frozen


def test_a_start_from_the_image_keeps_one_of_each_import_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker adds its paths again on every start; the image already had them."""
    monkeypatch.setattr(sys, "path", ["__pypackages__", "/home/pyodide/packages.zip", "", "/lib",
                                      "__pypackages__", "/home/pyodide/packages.zip"])  # fmt: skip
    phone_app.after_image()
    assert sys.path == ["__pypackages__", "/home/pyodide/packages.zip", "", "/lib"]


def test_the_image_never_holds_flets_bridge_or_a_compiled_extension() -> None:
    assert {"flet_js", "msgpack", "pydantic_core"} <= set(phone_app.NOT_IN_AN_IMAGE)
    assert not set(phone_app.IMAGE_IMPORTS) & set(phone_app.NOT_IN_AN_IMAGE)
