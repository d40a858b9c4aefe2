"""``bezique simulate``: print random legal match records (the deal simulator)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from referee.errors import BeziqueError
from referee.simulate import TRACKINGS, SimOptions, simulate_match
from referee.variants import variant_ids

_EPILOG = """\
output: with --matches 1 (the default) one match record (bezique-match/1) as a JSON object;
with --matches N > 1 a JSON list of N records, or with --jsonl one record per line.
Match k uses seed S+k, so `--seed 7 --matches 3` holds the records of seeds 7, 8 and 9.
The same arguments always print the same bytes."""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {value}")
    return value


def _cmd_simulate(args: argparse.Namespace) -> int:
    options = SimOptions(penalty_rate=args.penalty_rate, max_deals=args.max_deals,
                         revoke_rate=args.revoke_rate)
    records: list[dict[str, Any]] = []
    for k in range(args.matches):
        sim = simulate_match(
            args.variant,
            args.seed + k,
            tracking=args.tracking,
            house_rules=args.house_rule or (),
            players=args.players,
            target=args.target,
            games=args.games,
            options=options,
        )
        records.append(sim.to_obj())
    if args.jsonl:
        for obj in records:
            print(json.dumps(obj, ensure_ascii=False))
    elif args.matches == 1:
        print(json.dumps(records[0], ensure_ascii=False, indent=1))
    else:
        print(json.dumps(records, ensure_ascii=False, indent=1))
    return 0


def _run(args: argparse.Namespace) -> int:
    try:
        return _cmd_simulate(args)
    except BeziqueError as e:
        print(f"bezique simulate: {e}", file=sys.stderr)
        return 2


def register(subparsers: Any) -> None:
    """Add ``simulate`` to the ``bezique`` command line."""
    p = subparsers.add_parser(
        "simulate",
        help="print random legal match records (seeded, reproducible)",
        description="Play random legal parties: shuffled packs, legal tricks (phase 2 rules "
        "too) and declarations the hands really hold, under the house rules given.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--variant", default="two-hand", choices=variant_ids())
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--matches", type=_positive, default=1, metavar="N",
                   help="how many records (default 1; N > 1 prints a JSON list)")
    p.add_argument("--jsonl", action="store_true",
                   help="one record per line instead of a JSON list")
    p.add_argument("--tracking", default=None, choices=TRACKINGS,
                   help="tracking level of the records (default: the finest the variant "
                   "offers, cards; tricks for joker-multipack, which offers no cards)")
    p.add_argument("--players", type=_positive, default=None, metavar="K",
                   help="number of players (default: the variant's first count)")
    p.add_argument("--house-rule", action="append", metavar="H",
                   help="a house rule id to play under (repeatable)")
    p.add_argument("--target", type=_positive, default=None,
                   help="the partie's target (default: the variant's)")
    p.add_argument("--games", type=_positive, default=None,
                   help="games in a match where each deal is a game (Rubicon, six-, eight-pack)")
    p.add_argument("--max-deals", type=_positive, default=SimOptions().max_deals,
                   help="stop a partie after this many deals (default %(default)s)")
    p.add_argument("--penalty-rate", type=_probability, default=0.0, metavar="P",
                   help="chance per deal of a table-agreed penalty event (default 0)")
    p.add_argument("--revoke-rate", type=_probability, default=0.0, metavar="P",
                   help="sloppy players: chance a phase-2 card breaks R-PHASE2 (default 0: "
                   "the records are wholly legal)")
    p.set_defaults(func=_run)
