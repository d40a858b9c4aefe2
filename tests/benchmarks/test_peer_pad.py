"""The peer score pad's server and description used by benchmarks/bench_phone.py (issue 14):
the peer is served the way this app's web client is (compressed, revalidated), never outside
its folder, and a wrong description is refused with the option named."""

from __future__ import annotations

import gzip
import socket
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from peer_pad import PeerServer, PeerSpec


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def built(tmp_path: Path) -> Path:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<html>" + "score " * 400 + "</html>", encoding="utf-8")
    (dist / "assets" / "app.js").write_text("let total = 0;\n" * 300, encoding="utf-8")
    (tmp_path / "secret.txt").write_text("not the peer's", encoding="utf-8")
    return dist


@pytest.fixture
def server(built: Path, tmp_path: Path):
    srv = PeerServer(built, _free_port(), tmp_path / "served.log")
    srv.start()
    yield srv
    srv.stop()


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_text_files_are_served_gzipped_to_a_browser_that_accepts_it(server, built):
    status, headers, body = _get(server.url + "assets/app.js", **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == (built / "assets" / "app.js").read_bytes()


def test_a_second_load_revalidates_and_moves_no_body(server):
    _, headers, _ = _get(server.url)
    assert headers["Cache-Control"] == "no-cache"
    status, _, body = _get(server.url, **{"If-None-Match": headers["ETag"]})
    assert (status, body) == (304, b"")


def test_nothing_outside_the_built_folder_is_served(server):
    status, _, body = _get(server.url + "../secret.txt")
    assert status == 404
    assert b"not the peer" not in body


def test_served_bytes_count_every_response_body(server):
    before = server.served_bytes()
    _, _, body = _get(server.url + "assets/app.js")
    assert server.served_bytes() - before == len(body)


def test_a_description_without_a_build_names_the_folder(tmp_path):
    with pytest.raises(ValueError, match="--peer-dir"):
        PeerSpec(dir=tmp_path, ready="a", tap="b", score="c")


def test_an_unknown_press_is_refused(built):
    with pytest.raises(ValueError, match="--peer-press"):
        PeerSpec(dir=built, ready="a", tap="b", score="c", press="swipe")


def test_setup_must_be_a_json_list():
    assert (
        PeerSpec.json_list("--peer-setup", '["a.fab", {"fill": "#x", "text": "1"}]')[0] == "a.fab"
    )
    with pytest.raises(ValueError, match="--peer-setup"):
        PeerSpec.json_list("--peer-setup", '{"a": 1}')
    with pytest.raises(ValueError, match="--peer-steps: not JSON"):
        PeerSpec.json_list("--peer-steps", "[a.fab")
