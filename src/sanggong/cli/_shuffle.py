"""``shuffle-test``: the shuffle battery on the dealing path or on recorded shuffles, and
the raw streams for Dieharder, TestU01 and PractRand (docs/shuffle-test.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..limits import MAX_SHOES
from ..rules import PRESETS
from ._options import count, json_flag, own_options, plot, rules_of, seed, table, workers
from ._output import draw, plot_target
from ._parser import Commands
from ._status import Status

if TYPE_CHECKING:  # (NumPy is imported when a generator is named: `sanggong --help` starts without it)
    import numpy as np

GENERATORS = ("pcg64", "pcg64dxsm", "philox", "sfc64", "mt19937", "chacha20", "chacha8")
"""The bit generators ``--generator`` names (the ChaCha ones need the randomgen package)."""


def generator_of(name: str) -> Any:
    """The bit generator class (or maker) of a ``--generator`` name."""
    import numpy as np

    if name.startswith("chacha"):
        try:
            from randomgen import ChaCha  # type: ignore[import-not-found, import-untyped, unused-ignore]
        except ImportError:
            raise ValueError(f"--generator {name} needs the randomgen package: pip install randomgen") from None
        rounds = int(name[len("chacha"):])

        def chacha(seed: np.random.SeedSequence) -> np.random.BitGenerator:
            made: np.random.BitGenerator = ChaCha(seed, rounds=rounds)
            return made

        chacha.__name__ = f"ChaCha{rounds}"
        return chacha
    return {"pcg64": np.random.PCG64, "pcg64dxsm": np.random.PCG64DXSM, "philox": np.random.Philox,
            "sfc64": np.random.SFC64, "mt19937": np.random.MT19937}[name]


def _cmd_shuffle_test(args: argparse.Namespace) -> int:
    from ..shuffletest import shuffle_test, write_stream

    if args.plot:
        plot_target(args.plot)
    recorded = args.file is not None
    if recorded and (args.rules or args.rules_file or args.shoes is not None or args.seed is not None
                     or args.raw):
        raise ValueError("--file tests recorded shuffles as they are: it takes no --rules, --shoes, --seed or --raw"
                         " (--round-rules names the rules that cut them into rounds)")
    if not args.raw and (args.output is not None or args.format is not None):
        raise ValueError(f"--output {args.output} and --format are for --raw" if args.output is not None
                         else f"--format {args.format} is for --raw")
    if args.round_rules is not None and not recorded:
        raise ValueError(f"--round-rules {args.round_rules} is for --file (the rules that cut recorded shuffles)")
    generator = generator_of(args.generator)
    if args.raw:
        shoes = args.shoes if args.shoes is not None else 1000
        rules = rules_of(args)
        form = args.format or "raw"
        if args.output in (None, "-"):
            sink = sys.stdout.buffer
            write_stream(sink, rules, shoes, kind=args.raw, format=form, seed=args.seed, generator=generator)
            sink.flush()
        else:
            with open(args.output, "wb") as out:
                write_stream(out, rules, shoes, kind=args.raw, format=form, seed=args.seed, generator=generator)
        return int(Status.OK)
    try:
        if recorded:
            if not os.path.isfile(args.file):
                raise ValueError(f"--file {args.file}: no such file")
            from pathlib import Path
            result = shuffle_test(Path(args.file), alpha=args.alpha, rules=args.round_rules)
        else:
            result = shuffle_test(rules_of(args), shoes=args.shoes, seed=args.seed, alpha=args.alpha,
                                  generator=generator, workers=args.workers)
    except ImportError as exc:
        raise ValueError(str(exc)) from None
    if args.json:
        print(json.dumps({
            "source": result.source, "shoes": result.shoes, "cards": result.cards, "alpha": result.alpha,
            "seed": result.seed if isinstance(result.seed, int | None) else str(result.seed),
            "generator": result.generator, "passed": result.passed,
            "tests": [{"name": r.name, "statistic": r.statistic, "df": r.df, "p_value": r.p_value,
                       "adjusted": r.adjusted, "verdict": r.verdict} for r in result.rows]}, indent=2))
    else:
        print(result.sheet())
        if result.seed is not None:
            print(f"seed {result.seed}, generator {result.generator}")
    if args.plot:
        draw(args.plot, lambda r: r.plot().axes[0], result)  # (the figure is ShuffleTestResult.plot's)
    return int(Status.OK if result.passed else Status.FINDING)


def add_shuffle_test(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--file", metavar="FILE",
                     help="recorded shuffles to test instead of the dealing path: .npy, or text with one shoe a line "
                          "(card codes 0..51)")
    own.add_argument("--round-rules", choices=sorted(PRESETS), metavar="PRESET",
                     help="with --file: the preset whose rounds cut the shoes (default: rounds of 13 cards)")
    own.add_argument("--shoes", type=count(MAX_SHOES), help="shoes to deal (default 100,000; --raw: 1,000)")
    own.add_argument("--alpha", type=float, default=0.01, help="family-wise error rate, Holm over the tests (default 0.01)")
    own.add_argument("--generator", choices=GENERATORS, default="pcg64", help="the bit generator (default pcg64)")
    own.add_argument("--raw", choices=("words", "cards"),
                     help="write the raw 64-bit words the dealing path draws, or its card stream, instead of testing")
    own.add_argument("--format", choices=("raw", "dieharder"),
                     help="--raw's format: raw binary (the default: Dieharder -g 200/201, PractRand stdin64, TestU01) "
                          "or Dieharder's text input (-g 202)")
    own.add_argument("--output", metavar="FILE", help="--raw's file (default -: standard output)")
    sh = commands.add_parser(
        "shuffle-test",
        help="test the shuffle: a laboratory's battery on the dealing path or on recorded shuffles",
        description=("Deal whole shoes on the production dealing path (or read recorded shuffles) and run the "
                     "shuffle battery: card by position, runs, correlations within a round and between rounds and "
                     "shoes, the cut card's place and the burned cards, Holm-controlled at --alpha. Exit status 1 "
                     "when a test fails. --raw writes the streams for Dieharder, TestU01 and PractRand."),
        epilog="example: sanggong shuffle-test --rules macau --shoes 1000000 --seed 1",
        parents=[table(), own, seed(), workers(), plot("draw the card-by-position heat map and p-values to FILE"),
                 json_flag("print the verdict table as JSON")],
    )
    sh.set_defaults(run=_cmd_shuffle_test)
