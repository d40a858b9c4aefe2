"""The command line shares the app only on explicit request: one named address, or --table."""

from __future__ import annotations

import pytest

from ui.main import parse_args


def test_the_default_serves_this_computer_only() -> None:
    args = parse_args([])
    assert args.host == "127.0.0.1" and not args.table and args.table_address is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", ""])
def test_a_wildcard_host_is_refused(host: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(["--host", host])
    assert exc.value.code == 2
    assert "every network" in capsys.readouterr().err


def test_a_table_address_needs_table_mode_and_a_real_address() -> None:
    with pytest.raises(SystemExit):
        parse_args(["--table-address", "192.168.1.20"])
    for bad in ("0.0.0.0", "127.0.0.1"):
        with pytest.raises(SystemExit):
            parse_args(["--table", "--table-address", bad])
    args = parse_args(["--table", "--table-address", "192.168.1.20", "--new-table"])
    assert args.table and args.table_address == "192.168.1.20" and args.new_table
