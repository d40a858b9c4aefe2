"""Table mode finds the machine's network address by reading its interfaces, never by
sending anything, and lets the user choose when there are several (issue 12)."""

from __future__ import annotations

import socket
from types import SimpleNamespace
from typing import Any

import pytest

from ui.server.lan import LanAddress, TableAddressError, choose_address, lan_addresses


def entry(family: int, address: str) -> Any:
    return SimpleNamespace(family=family, address=address)


INTERFACES = {
    "lo": [entry(socket.AF_INET, "127.0.0.1"), entry(socket.AF_INET6, "::1")],
    "wlan0": [
        entry(socket.AF_INET, "192.168.1.20"),
        entry(socket.AF_INET6, "fe80::1"),
        entry(socket.AF_PACKET, "aa:bb:cc:dd:ee:ff"),
    ],
    "usb0": [entry(socket.AF_INET, "169.254.3.4")],
    "eth1": [entry(socket.AF_INET, "10.0.0.7")],
    "down0": [entry(socket.AF_INET, "192.168.50.1")],
    "wwan0": [entry(socket.AF_INET, "81.2.3.4")],
}
STATS = {name: SimpleNamespace(isup=name != "down0") for name in INTERFACES}


def test_only_usable_ipv4_addresses_of_interfaces_that_are_up_private_first() -> None:
    found = lan_addresses(lambda: INTERFACES, lambda: STATS)
    assert found == [
        LanAddress("eth1", "10.0.0.7"),
        LanAddress("wlan0", "192.168.1.20"),
        LanAddress("wwan0", "81.2.3.4"),
    ]


def test_a_machine_with_only_loopback_has_no_table_address() -> None:
    found = lan_addresses(lambda: {"lo": INTERFACES["lo"]}, lambda: STATS)
    assert found == []
    with pytest.raises(TableAddressError, match="no local network address"):
        choose_address(found, None, ask=None)


def test_reading_the_real_interfaces_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_traffic(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("finding the LAN address tried to use the network")

    for name in ("connect", "connect_ex", "sendto", "send", "sendall"):
        monkeypatch.setattr(socket.socket, name, no_traffic)
    monkeypatch.setattr(socket, "create_connection", no_traffic)
    for a in lan_addresses():
        assert not a.address.startswith("127.")


def test_one_address_is_taken_without_asking() -> None:
    def never(_prompt: str) -> str:
        raise AssertionError("asked although there is one address")

    assert choose_address([LanAddress("wlan0", "192.168.1.20")], None, never) == "192.168.1.20"


def test_several_addresses_are_listed_and_the_user_picks_one() -> None:
    found = lan_addresses(lambda: INTERFACES, lambda: STATS)
    said: list[str] = []
    answers = iter(["9", "wlan0", "2"])
    chosen = choose_address(found, None, lambda _p: next(answers), said.append)
    assert chosen == "192.168.1.20"
    assert "1. 10.0.0.7 (eth1)" in said[0] and "2. 192.168.1.20 (wlan0)" in said[0]
    assert any("1 to 3" in s for s in said[1:])


def test_several_addresses_and_no_terminal_name_the_option_and_the_choices() -> None:
    found = lan_addresses(lambda: INTERFACES, lambda: STATS)
    with pytest.raises(TableAddressError, match="--table-address") as err:
        choose_address(found, None, ask=None)
    assert "192.168.1.20 (wlan0)" in str(err.value)


def test_an_address_given_on_the_command_line_wins_and_must_be_an_address() -> None:
    assert choose_address([], "192.168.7.7", None) == "192.168.7.7"
    with pytest.raises(TableAddressError, match="not an IP address"):
        choose_address([], "my-laptop.local", None)
