"""The ``bezique`` command line: replay (sheet and --json), melds, explain, and the shared
replay-check tool over the public examples and this suite's own hand-computed records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main

from .conftest import RECORDS, REPO, SHARED

BEZIQUE = REPO / ".venv" / "bin" / "bezique"
REPLAY_CHECK = SHARED / "tools" / "replay-check.py"
EXAMPLES = SHARED / "examples"


def _bezique(*args: str) -> subprocess.CompletedProcess[str]:
    exe = [str(BEZIQUE)] if BEZIQUE.exists() else [sys.executable, "-m", "referee.cli"]
    return subprocess.run([*exe, *args], capture_output=True, text=True, timeout=60,
                          cwd=REPO, env=os.environ | {"PYTHONIOENCODING": "utf-8"})


def test_cli_replay_json() -> None:
    run = _bezique("replay", str(RECORDS / "two-hand-reuse.json"), "--json")
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert [s["total"] for s in got["sides"]] == [950, 260]
    assert [(r["deal"], r["event"], r["rule"]) for r in got["rejected"]] == [
        (0, 3, "R-PACK"), (0, 7, "R-REUSE"), (0, 11, "R-NO-DECLARE-AFTER-STOCK")]
    assert got["finished"] is False and got["winner"] is None


def test_cli_replay_score_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "two-hand-tie.json")]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("Anna" in line and "Boris" in line for line in lines)
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[1:] == ["1010", "1160"]
    assert "Anna wins the partie" in out
    assert "R-TIE" in out


@pytest.mark.parametrize("name", ["error-brisques.json", "error-unknown-card.json",
                                  "error-wrong-winner.json"])
def test_cli_replay_input_error_exits_2(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert main(["replay", str(RECORDS / name), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "deals[0].events[" in err


def test_cli_replay_input_error_exits_2_as_a_process() -> None:
    run = _bezique("replay", str(RECORDS / "error-unknown-card.json"))
    assert run.returncode == 2
    assert run.stdout == ""
    assert 'deals[0].events[4].new[0]: unknown card "1H"' in run.stderr


def test_cli_replay_missing_file_exits_2(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "nothing.json")]) == 2
    assert "nothing.json" in capsys.readouterr().err


def test_cli_melds_lists_the_seed_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["melds"]) == 0
    out = capsys.readouterr().out
    rows = {" ".join(line.split()[:-1]): line.split()[-1] for line in out.splitlines()[1:]
            if line.startswith("  ")}
    assert rows["double bezique"] == "500"
    assert rows["trump sequence"] == "250"
    assert rows["sequence"] == "100"
    assert rows["four aces"] == "100"
    assert rows["four kings"] == "80"
    assert rows["double trump marriage"] == "80"
    assert rows["four queens"] == "60"
    assert rows["marriage"] == "20"
    assert rows["seven of trumps"] == "10"
    assert rows["P-EXTRA-CARD"] == "60"
    assert rows["P-FALSE-DECLARATION"] == "all"


def test_cli_melds_with_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["melds", "--house-rule", "H-NO-PLAIN-SEQUENCE",
                 "--house-rule", "H-EXTRA-CARD-50"]) == 0
    out = capsys.readouterr().out
    names = [" ".join(line.split()[:-1]) for line in out.splitlines() if line.startswith("  ")]
    assert "sequence" not in names and "trump sequence" in names
    assert any(line.split() == ["P-EXTRA-CARD", "50"] for line in out.splitlines())


def test_cli_melds_unknown_house_rule_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["melds", "--house-rule", "H-NONSENSE"]) == 2
    assert "H-NONSENSE" in capsys.readouterr().err


def test_cli_explain_a_rejected_event(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(RECORDS / "two-hand-reuse.json"), "--deal", "0",
                 "--event", "7"]) == 0
    out = capsys.readouterr().out
    assert "rejected" in out and "R-REUSE" in out
    assert '"QH"' in out  # the event itself is shown


def test_cli_explain_an_accepted_event(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(RECORDS / "two-hand-reuse.json"), "--deal", "0",
                 "--event", "9"]) == 0
    out = capsys.readouterr().out
    assert "accepted" in out and "500" in out


@pytest.mark.parametrize(("deal", "event"), [("1", "0"), ("0", "15"), ("-1", "0")])
def test_cli_explain_out_of_range_exits_2(capsys: pytest.CaptureFixture[str], deal: str,
                                          event: str) -> None:
    assert main(["explain", str(RECORDS / "two-hand-reuse.json"), "--deal", deal,
                 "--event", event]) == 2
    assert capsys.readouterr().err


def _replay_check(folder: Path) -> subprocess.CompletedProcess[str]:
    if not REPLAY_CHECK.exists():
        pytest.skip(f"no shared replay-check tool at {REPLAY_CHECK}")
    if not BEZIQUE.exists():
        pytest.skip(f"no bezique command at {BEZIQUE}")
    return subprocess.run([sys.executable, str(REPLAY_CHECK), str(BEZIQUE), str(folder)],
                          capture_output=True, text=True, timeout=120)


def test_cli_shared_examples_replay_as_documented() -> None:
    if not EXAMPLES.is_dir():
        pytest.skip(f"no shared examples folder at {EXAMPLES}")
    run = _replay_check(EXAMPLES)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "records replay as expected" in run.stdout


@pytest.mark.parametrize("record", sorted(p.name for p in RECORDS.glob("*.json")
                                          if not p.name.endswith(".expected.json")))
def test_cli_own_records_replay_as_computed_by_hand(capsys: pytest.CaptureFixture[str],
                                                    record: str) -> None:
    # What replay-check.py compares, in-process (each `bezique` process costs seconds).
    code = main(["replay", str(RECORDS / record), "--json"])
    out, err = capsys.readouterr()
    if record.startswith("error-"):
        assert code == 2 and err.strip() and out == ""
        return
    assert code == 0, err
    got = json.loads(out)
    want = json.loads((RECORDS / record.replace(".json", ".expected.json")).read_text())
    assert [{k: s[k] for k in ("name", "players", "deal_scores", "total")}
            for s in got["sides"]] == want["sides"]
    assert sorted((r["deal"], r["event"]) for r in got["rejected"]) == sorted(
        (r["deal"], r["event"]) for r in want["rejected"])
    assert (got["finished"], got["winner"]) == (want["finished"], want["winner"])


def test_cli_explain_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(RECORDS / "two-hand-reuse.json"), "--deal", "0",
                 "--event", "7", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "R-REUSE" in out
    assert "К♥" in out or "K♥" in out
    assert any("\u0400" <= ch <= "\u04ff" for ch in out)  # words in Cyrillic


def test_cli_replay_sheet_lists_the_rejected_events(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "two-hand-reuse.json")]) == 0
    out = capsys.readouterr().out
    rejected = [line for line in out.splitlines() if line.startswith("rejected")]
    assert len(rejected) == 3
    assert [line.rsplit("— ", 1)[1] for line in rejected] == [
        "R-PACK", "R-REUSE", "R-NO-DECLARE-AFTER-STOCK"]
    assert "the partie goes on (target 1000)" in out


def test_cli_explain_shows_a_proposed_revoke(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from .conftest import SimulatedDeal

    sim = next(s for s in (SimulatedDeal(k, illegal="revoke") for k in range(50))
               if s.illegal_at is not None)
    f = tmp_path / "revoke.json"
    f.write_text(json.dumps(sim.record()), encoding="utf-8")
    assert main(["replay", str(f), "--json"]) == 0
    proposal = json.loads(capsys.readouterr().out)["proposed_penalties"][0]
    assert main(["explain", str(f), "--deal", "0", "--event", str(proposal["event"])]) == 0
    out = capsys.readouterr().out
    assert "accepted" in out and "proposed P-REVOKE" in out


def test_cli_melds_rubicon_shows_the_game_and_the_rubicon(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    assert main(["melds", "--variant", "rubicon"]) == 0
    out = capsys.readouterr().out
    assert "quadruple bezique" in out and "4500" in out
    assert "carte blanche" in out and "rubicon: a loser under" in out and "320" in out
    assert "seven of trumps" not in out
    assert main(["melds", "--variant", "six-pack"]) == 0
    out = capsys.readouterr().out
    assert "brisques never count" in out and "cut bonus" in out and "four trump aces" in out


def test_cli_replay_rubicon_shows_each_games_lines(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent.parent / "variants" / "records" / "rubicon.json"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "rubicon, games 2" in out
    assert "game 1 (R-RUBICON)" in out and "rubicon bonus Anna +1000" in out
    assert "game 2 (R-GAME)" in out and "bonus Anna +500" in out
    assert "Anna wins the partie (R-GAME)" in out
