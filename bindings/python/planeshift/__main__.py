"""``python3 -m planeshift trace WORLD --shape SPEC --from X,Y,Z --to X,Y,Z``: the JSON
line ``bspc trace`` prints, through the C ABI. ``--queries Q.jsonl`` answers ``bspc
trace``'s query lines instead (one result line each, in order); ``--mask NAME`` as
``bspc``'s; ``--game`` and ``--shaders DIR`` as ``bspc``'s rules for a ``.map``.

Exit status: 0 done, 2 bad usage or input (the message on standard error).
"""

import argparse
import json
import sys

from . import (MASK_ANY_BLOCKING, Level, PlaneshiftError, Shape, mask_from_name,
               trace_json)


def _point(text, what):
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 3:
        raise SystemExit(f"planeshift: --{what} expects X,Y,Z, got '{text}'")
    return values


def trace(args):
    level = Level.load(args.world, game=args.game, shaders=args.shaders)
    default_mask = mask_from_name(args.mask) if args.mask else MASK_ANY_BLOCKING
    out = []
    if args.queries:
        with open(args.queries, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                q = json.loads(line)
                shape = Shape.from_json(q["shape"])
                mask = default_mask
                if q.get("mask") is not None:
                    mask = 0
                    for name in q["mask"]:
                        mask |= mask_from_name(name)
                out.append(trace_json(level, level.trace(shape, q["start"], q["end"], mask)))
                shape.close()
    elif args.shape and args.frm and args.to:
        shape = Shape.from_spec(args.shape)
        start, end = _point(args.frm, "from"), _point(args.to, "to")
        out.append(trace_json(level, level.trace(shape, start, end, default_mask)))
        shape.close()
    else:
        raise SystemExit("planeshift: give --queries Q.jsonl, or --shape, --from and --to")
    level.close()
    sys.stdout.write("".join(line + "\n" for line in out))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m planeshift")
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("trace", help="sweep a shape through a world, as bspc trace")
    t.add_argument("world")
    t.add_argument("--shape")
    t.add_argument("--from", dest="frm")
    t.add_argument("--to")
    t.add_argument("--queries")
    t.add_argument("--mask")
    t.add_argument("--game")
    t.add_argument("--shaders", action="append", default=[])
    args = parser.parse_args(argv)
    try:
        trace(args)
    except PlaneshiftError as e:
        print(f"planeshift: {e.message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
