"""Flet 1.0 imports each control's module the first time the program names it (``ft.Column``
runs ``flet/__init__.py``'s ``__getattr__``): the first Home paid for about sixty of them
(0.4 s of native Python, over a second on the phone) and the first deal screen for more.
``preload`` names, ahead of the first screen, every Flet name the app's own modules use:
the server's warm-up runs it beside Flet's start, the phone build's Python image holds its
result (ui/phone_app.py)."""

from __future__ import annotations

import sys
import types


def names_used(prefix: str = "ui") -> set[str]:
    """The capitalised names of Flet's public API that the loaded ``prefix`` modules'
    bytecode mentions (a control, a type, an enum), found from their code objects, so the
    list never drifts from the code. A name that is also the app's own (the engine's
    ``Card``) imports one Flet module more than needed, which costs nothing at a start."""
    import flet

    public = set(getattr(flet, "__all__", ()))
    found: set[str] = set()

    def walk(code: types.CodeType) -> None:
        found.update(n for n in code.co_names if n[:1].isupper() and n in public)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                walk(const)

    for name, module in list(sys.modules.items()):
        if name != prefix and not name.startswith(prefix + "."):
            continue
        loader = getattr(module, "__loader__", None)
        get_code = getattr(loader, "get_code", None)
        if get_code is None:
            continue
        try:
            code = get_code(name)
        except (ImportError, OSError, SyntaxError):
            continue
        if code is not None:
            walk(code)
    return found


def preload(prefix: str = "ui") -> None:
    """Import the modules behind the Flet names the app uses."""
    import flet

    for name in sorted(names_used(prefix)):
        getattr(flet, name)
