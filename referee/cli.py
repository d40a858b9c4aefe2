"""The ``bezique`` command line: replay a match record, show the combination table, explain a
ruling. Storage commands (export/import) are added by ``referee.storage.cli`` when present."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from referee.errors import BeziqueError, RecordError
from referee.events import event_type_name
from referee.match import Match
from referee.record import event_to_obj, load_record, replay_record
from referee.rulings import label, meld_name, showing_line
from referee.variants import load_variant, variant_ids


def _score_sheet(match: Match, out: TextIO) -> None:
    """The partie as players write it on paper: deal by deal, then totals."""
    result = match.result()
    names = [s.name for s in result.sides]
    width = max(12, *(len(n) + 2 for n in names))
    rules = ", ".join(sorted(match.house_rules)) or "none"
    goal = f"games {match.games}" if match.games is not None else f"target {match.target}"
    print(f"{match.variant.id}, {goal}, tracking {match.tracking}, "
          f"house rules: {rules}", file=out)
    print("deal".ljust(6) + "".join(n.rjust(width) for n in names), file=out)
    for d in range(len(match.deals)):
        row = "".join(str(s.deal_scores[d]).rjust(width) for s in result.sides)
        print(f"{d + 1}".ljust(6) + row, file=out)
    print("-" * (6 + width * len(names)), file=out)
    print("total".ljust(6) + "".join(str(s.total).rjust(width) for s in result.sides), file=out)
    for d, game in enumerate(result.games):
        if game is not None:
            parts = ", ".join(f"{line.kind.replace('_', ' ')} {names[line.side]} {line.points:+}"
                              for line in game.lines)
            print(f"game {d + 1} ({game.rule}): {parts}", file=out)
            print(f"  {game.render(names)}", file=out)
    for r in result.rejected:
        print(f"rejected deals[{r.deal}].events[{r.event}]: {r.message}", file=out)
    for p in result.proposals:
        print(f"proposed {p.penalty} at deals[{p.deal}].events[{p.event}]: {p.message}", file=out)
    why = f": {result.verdict.render()}" if result.verdict is not None else ""
    if result.finished:
        print(f"{result.winner} wins the partie ({result.decided_by}){why}", file=out)
    else:
        print(f"the partie goes on (target {match.target}){why}", file=out)


def _cmd_replay(args: argparse.Namespace) -> int:
    match = replay_record(load_record(args.file))
    if args.json:
        json.dump(match.result().to_json(), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        _score_sheet(match, sys.stdout)
    return 0


def _cmd_melds(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant, frozenset(args.house_rule or ()))
    lang = args.lang
    print(f"{variant.id}: {label('combinations', lang)}"
          + (f" ({', '.join(args.house_rule)})" if args.house_rule else ""))
    for spec in sorted(variant.combinations, key=lambda c: c.points):
        print(f"  {meld_name(spec.id, lang):44} {spec.points:>6}")
    for showing in variant.showings:
        print(f"  {meld_name(showing.id, lang):44} {showing_line(showing, lang)}")
    for meld, points in variant.fixing_marriage_points.items():
        name = f"{meld_name(meld, lang)} ({label('fixing_trumps', lang)})"
        print(f"  {name:44} {points:>6}")
    if variant.seven_points:
        print(f"  {label('seven', lang):44} {variant.seven_points:>6}")
    if variant.dealer_seven_points:
        print(f"  {label('dealer_seven', lang):44} {variant.dealer_seven_points:>6}")
    game = variant.game
    if variant.brisque_points and not (game is not None and game.brisques == "never"):
        print(f"  {label('brisque', lang):44} {variant.brisque_points:>6}")
    if variant.last_trick_points:
        print(f"  {label('last_trick', lang):44} {variant.last_trick_points:>6}")
    if variant.carte_blanche_points:
        print(f"  {label('carte_blanche', lang):44} {variant.carte_blanche_points:>6}")
    for kind, points in variant.cut_bonus.items():
        print(f"  {label('cut_' + kind, lang):44} {points:>6}")
    if game is not None:  # each deal is a game (RULES.md §8)
        rows = [("game_bonus", game.bonus), ("rubicon_under", game.rubicon_under),
                ("rubicon_bonus", game.rubicon_bonus)]
        if game.rubicon_brisques:
            rows.append(("rubicon_brisques", game.rubicon_brisques))
        for key, points in rows:
            print(f"  {label(key, lang):44} {points:>6}")
        print(f"  {label('brisques_' + game.brisques, lang)}")
    print(f"{label('penalties', lang)}:")
    for pid, amount in variant.penalties.items():
        shown = label("all_points", lang) if amount == "all" else str(amount)
        print(f"  {pid:44} {shown:>6}")
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    d, k = args.deal, args.event
    if not 0 <= d < len(record.deals):
        raise RecordError("--deal", f"the record has deals 0..{len(record.deals) - 1}, not {d}")
    if not 0 <= k < len(record.deals[d].events):
        raise RecordError("--event", f"deal {d} has events 0..{len(record.deals[d].events) - 1}"
                          f", not {k}")
    match = replay_record(record)
    event, ruling = match.deals[d].log[k]
    shown = json.dumps(event_to_obj(event, match.players), ensure_ascii=False)
    print(f"deal {d}, event {k}: {shown}")
    verdict = "accepted" if ruling.accepted else "rejected"
    print(f"{verdict} ({event_type_name(event)}), rule {ruling.rule}")
    print(ruling.cited(args.lang))
    if ruling.proposes:
        print(f"the table may apply {ruling.proposes}")
    for p in ruling.proposals:
        print(f"proposed {p.penalty}: {p.cited(args.lang)}")
    return 0


ENGINE_COMMANDS = ("replay", "melds", "explain")
EXTRA_MODULES = ("referee.storage.cli", "referee.simulate_cli")


def build_parser(extras: bool = True) -> argparse.ArgumentParser:
    """The parser; ``extras`` adds the storage and simulator commands, whose imports (the
    database layer) cost a second, so the engine's own commands start without them."""
    parser = argparse.ArgumentParser(prog="bezique", description="Bezique Referee")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a match record: the score sheet, or --json")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="the result as JSON on stdout")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("melds", help="the combination table in force")
    p.add_argument("--variant", default="two-hand", choices=variant_ids())
    p.add_argument("--house-rule", action="append", metavar="H", help="a house rule id")
    p.add_argument("--lang", default="en", choices=("en", "ru"))
    p.set_defaults(func=_cmd_melds)
    p = sub.add_parser("explain", help="the ruling on one event, in words")
    p.add_argument("file")
    p.add_argument("--deal", type=int, required=True, help="0-based deal index")
    p.add_argument("--event", type=int, required=True, help="0-based event index")
    p.add_argument("--lang", default="en", choices=("en", "ru"))
    p.set_defaults(func=_cmd_explain)
    for module in EXTRA_MODULES if extras else ():
        try:
            extra = importlib.import_module(module)
        except ImportError:
            continue
        register = getattr(extra, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(extras=not (words and words[0] in ENGINE_COMMANDS))
    args = parser.parse_args(words)
    try:
        code: int = args.func(args)
    except BeziqueError as e:
        print(f"bezique: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
