"""The machine's addresses on the local network, read from its network interfaces.

Why not ``flet.utils.get_local_ip()``: it "connects" a UDP socket towards a public address to
learn the outgoing address, which is traffic the table never asked for. The interface list
(``psutil.net_if_addrs``, the system's getifaddrs) says the same without a packet.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

InterfaceReader = Callable[[], Mapping[str, Sequence[Any]]]
"""Returns ``{interface name: [entries with .family and .address]}`` (psutil's shape)."""
StatsReader = Callable[[], Mapping[str, Any]]
"""Returns ``{interface name: entry with .isup}``."""


class TableAddressError(ValueError):
    """No usable address for table mode, or one that is not this machine's."""


@dataclass(frozen=True)
class LanAddress:
    interface: str
    address: str

    def __str__(self) -> str:
        return f"{self.address} ({self.interface})"


def _psutil_addrs() -> Mapping[str, Sequence[Any]]:
    import psutil  # type: ignore[import-untyped]

    addrs: Mapping[str, Sequence[Any]] = psutil.net_if_addrs()
    return addrs


def _psutil_stats() -> Mapping[str, Any]:
    import psutil

    stats: Mapping[str, Any] = psutil.net_if_stats()
    return stats


def lan_addresses(
    read_interfaces: InterfaceReader = _psutil_addrs, read_stats: StatsReader = _psutil_stats
) -> list[LanAddress]:
    """IPv4 addresses of interfaces that are up, other than loopback and link-local (a phone
    cannot be sent to those), private networks first, in a stable order."""
    stats = read_stats()
    found: list[LanAddress] = []
    for name, entries in read_interfaces().items():
        stat = stats.get(name)
        if stat is not None and not getattr(stat, "isup", True):
            continue
        for entry in entries:
            if entry.family != socket.AF_INET:
                continue
            try:
                ip = ipaddress.IPv4Address(entry.address)
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
                continue
            found.append(LanAddress(name, str(ip)))
    return sorted(
        set(found), key=lambda a: (not ipaddress.IPv4Address(a.address).is_private, a.interface)
    )


def choose_address(
    found: Sequence[LanAddress],
    requested: str | None,
    ask: Callable[[str], str] | None,
    say: Callable[[str], None] = print,
) -> str:
    """The address to serve the table on: the one asked for with ``--table-address``, the
    only one there is, or the one the user picks from a numbered list (``ask`` reads an
    answer; ``None`` when nobody can answer, e.g. no terminal)."""
    if requested:
        try:
            ipaddress.ip_address(requested)
        except ValueError as exc:
            raise TableAddressError(f"--table-address {requested!r} is not an IP address") from exc
        return requested
    if not found:
        raise TableAddressError(
            "no local network address found: join a Wi-Fi network, or give --table-address"
        )
    if len(found) == 1:
        return found[0].address
    listing = "\n".join(f"  {i}. {a}" for i, a in enumerate(found, start=1))
    if ask is None:
        raise TableAddressError(
            f"this machine has several network addresses; choose one with --table-address:\n"
            f"{listing}"
        )
    say(f"This machine has several network addresses:\n{listing}")
    while True:
        answer = ask(f"Serve the table on which one? [1-{len(found)}] ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1].address
        match = [a for a in found if a.address == answer]
        if match:
            return match[0].address
        say(f"Please answer a number from 1 to {len(found)}.")
