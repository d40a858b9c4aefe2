"""Child process for the crash test: records as fast as it can, printing an acknowledgement
line after each write returns (events, undo/redo pairs, corrections). The parent kills it
with SIGKILL at random moments."""

from __future__ import annotations

import sys

from referee.storage import Store


def main(path: str) -> None:
    store = Store.open(path)
    mid = store.unfinished_match()
    if mid is None:
        mid = store.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    history = store.history(mid)
    if not any(h.kind == "deal" for h in history):
        store.start_deal(mid, 0, "9H")
        history = store.history(mid)
    seq = len(history)
    print(f"ready {mid} {seq}", flush=True)
    players = ["Anna", "Boris"]
    i = 0
    while True:
        i += 1
        if i % 7 == 0:
            store.undo(mid)
            seq += 1
            print(f"ack {seq} undo -", flush=True)
            store.redo(mid)
            seq += 1
            print(f"ack {seq} redo -", flush=True)
            continue
        if i % 5 == 0:  # a correction: the newest event was the other player's
            deals = store.event_seqs(mid)
            if deals and deals[-1]:
                player = players[(seq + 1) % 2]
                event = {"type": "penalty", "player": player, "offence": "P-REVOKE"}
                store.correct(mid, deals[-1][-1], event)
                seq += 1
                print(f"ack {seq} correct {player}", flush=True)
                continue
        player = players[seq % 2]
        store.record(mid, {"type": "penalty", "player": player, "offence": "P-REVOKE"})
        seq += 1
        print(f"ack {seq} event {player}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
