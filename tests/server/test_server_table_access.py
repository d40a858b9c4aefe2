"""Table-mode secrets: random, at least 128 bits, new for each table session, one per role,
compared in constant time (issue 12)."""

from __future__ import annotations

import base64
import hmac
import time
from typing import Any

import pytest

from ui.server import table as table_module
from ui.server.roles import Role, bind, may_write, role_of
from ui.server.table import TableAccess, cookie_secret


def test_each_role_has_its_own_secret_of_at_least_128_bits_new_each_session() -> None:
    one, two = TableAccess(), TableAccess()
    for access in (one, two):
        scorer, viewer = access.secrets_by_role[Role.SCORER], access.secrets_by_role[Role.VIEWER]
        assert scorer != viewer
        for s in (scorer, viewer):
            assert len(base64.urlsafe_b64decode(s + "==")) * 8 >= 128
    assert set(one.secrets_by_role.values()).isdisjoint(two.secrets_by_role.values())


def test_a_secret_gives_its_role_and_anything_else_none() -> None:
    access = TableAccess()
    scorer = access.secrets_by_role[Role.SCORER]
    assert access.role_for(scorer) is Role.SCORER
    assert access.role_for(access.secrets_by_role[Role.VIEWER]) is Role.VIEWER
    for wrong in (None, "", scorer[:-1], scorer + "x", scorer.upper(), "é" * 32):
        assert access.role_for(wrong) is None


def test_secrets_are_compared_in_constant_time_with_every_role(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(table_module.hmac, "compare_digest", spy)
    access = TableAccess()
    access.role_for(access.secrets_by_role[Role.SCORER])
    access.role_for("wrong")
    assert len(calls) == 4  # both roles compared each time, match or not


def test_the_join_link_carries_the_roles_secret() -> None:
    access = TableAccess()
    url = access.join_url("http://192.168.1.20:8550/", Role.VIEWER)
    assert url == f"http://192.168.1.20:8550/?k={access.secrets_by_role[Role.VIEWER]}"


def test_the_cookie_is_read_and_a_malformed_one_is_no_secret() -> None:
    def scope(value: str) -> Any:
        return {"headers": [(b"cookie", value.encode("latin-1"))]}

    assert cookie_secret(scope("a=1; bezique_table=abc; b=2")) == "abc"
    assert cookie_secret(scope('bezique_table="unterminated')) in (None, '"unterminated')
    assert cookie_secret({"headers": []}) is None


class FakeStore:
    def __init__(self) -> None:
        self.data: dict[str, Any] = {}

    def set(self, k: str, v: Any) -> None:
        self.data[k] = v

    def get(self, k: str) -> Any:
        return self.data.get(k)


class FakePage:
    def __init__(self) -> None:
        self.session = type("S", (), {"store": FakeStore()})()


def test_the_session_keeps_the_role_the_server_gave_its_websocket() -> None:
    for role, writes in ((Role.SCORER, True), (Role.VIEWER, False), (Role.HOST, True)):
        page = FakePage()
        bind(page, {"bezique.role": role.value})
        assert role_of(page) is role
        assert may_write(page) is writes
    plain = FakePage()
    bind(plain, {})
    assert role_of(plain) is Role.HOST
    assert role_of(object()) is Role.HOST


def test_a_kept_table_session_is_reused_only_while_it_is_this_tables_and_fresh(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.server import table_mode

    path = tmp_path / "state.json"
    first = table_mode.start("192.168.1.20", 8550, path=path)
    assert table_mode.current() is first
    same = table_mode.start("192.168.1.20", 8550, path=path)
    assert same.access == first.access
    assert table_mode.start("192.168.1.20", 8550, path=path, new=True).access != first.access
    renewed = table_mode.start("192.168.1.21", 8550, path=path)
    assert renewed.access != first.access
    later = time.time() + table_mode.SESSION_HOURS * 3600 + 1
    monkeypatch.setattr(table_mode.time, "time", lambda: later)
    assert table_mode.start("192.168.1.21", 8550, path=path).access != renewed.access
    for junk in ("", "{", '{"created": "x"}', '{"created": 0, "scorer": 1}'):
        path.write_text(junk)
        fresh = table_mode.start("192.168.1.20", 8550, path=path)
        assert fresh.access.role_for(fresh.access.secrets_by_role[Role.SCORER]) is Role.SCORER


def test_the_host_page_and_terminal_show_both_links_with_codes(tmp_path: Any) -> None:
    from ui.server import table_mode

    session = table_mode.start("192.168.1.20", 8550, path=tmp_path / "s.json")
    page = table_mode.links_page(session, "ru").decode()
    for role in (Role.SCORER, Role.VIEWER):
        assert session.join_url(role) in page
        assert session.qr_png(role).startswith(b"\x89PNG")
    assert page.count("<svg") == 2 and "Присоединиться к столу" in page
    text = table_mode.terminal_text(session, "en")
    assert session.join_url(Role.SCORER) in text and "\u2580" in text  # the codes drawn


def test_the_terminal_says_the_links_survive_a_restart_and_what_renews_them(
    tmp_path: Any,
) -> None:
    """P20: it said "new for every start", but a restart keeps them (phones come back)."""
    from ui.server import table_mode

    session = table_mode.start("127.0.0.2", 8765, path=tmp_path / "state.json")
    again = table_mode.start("127.0.0.2", 8765, path=tmp_path / "state.json")
    assert again.access == session.access  # what the words must say
    for lang in ("en", "ru"):
        text = table_mode.terminal_text(session, lang).splitlines()[0]
        assert "--new-table" in text and "12" in text
    assert "new for every start" not in table_mode.terminal_text(session, "en")
