"""``slimport verify``'s arguments: one parser, TensorFlow-free.

``slimport`` registers it as its ``verify`` subcommand and ``python -m
slimport.verify`` parses with it, so ``--help`` and a bad argument never wait for
TensorFlow: only the run's fork server imports it.
"""
import argparse
from typing import List, Optional, Sequence, Tuple

PROTOBUF_VARIABLE = "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"

_DESCRIPTION = """\
After `slimport rewrite`, check the ported tree on this TensorFlow: import every
module (each in its own process, forked from one that loaded TensorFlow once, with
a time limit), run every entry script with --helpfull (--help for argparse), look up
every TensorFlow name the code uses (with slim_ext loaded: what fails only when
called), and with --build, build every network of a research/slim-style factory in
graph mode on random input and run one training step. The sys.path roots are read
from how the tree's own modules import each other (and setup.py). Prints a table of
outcomes, then each problem with the failing statement (file:line) and, where
slimport knows the construct, the fix.
"""

_EPILOG = """\
kinds of outcome:
  ok                     imported / printed its flags / built and trained one step /
                         every TensorFlow name it uses exists
  blocked                a package the tree needs is not installed (a pip line only for
                         distributions slimport knows), the installed one is another
                         version, or the tree's own build (a C/C++ extension) is not done
  Python 2 code          does not parse as Python 3, or uses Python 2 names
  does work at import    reads files or its data, exits or parses arguments when
                         imported, runs past the time limit, or starts a server
  fails on TF 1 too      the tree's own bug (a flag default of the wrong type, ...)
  needs --image-size     a network built at a guessed input size failed on shapes
  fails when called      a TensorFlow name the module uses does not exist here
  fails                  everything else: what the port is answerable for

examples:
  slimport rewrite models/research/slim --out slim_tf2
  slimport verify slim_tf2 --build nets.nets_factory
  slimport verify facenet_tf2 --path facenet/src --exclude 'tmp/*' --report verify.json
  slimport verify od_tf2 --exclude '*_test.py' -j 2 --timeout 120

exit codes:
  0  nothing fails (blocked, Python 2, import-time work, tree bugs and needs
     --image-size are listed, not counted)
  1  some check fails, or some name fails when called
  2  usage error, or verify itself could not run (no TensorFlow, the preload failed)
"""

# description, epilog and formatter of the parser, wherever it is made.
PARSER_TEXT = dict(description=_DESCRIPTION, epilog=_EPILOG,
                   formatter_class=argparse.RawDescriptionHelpFormatter)


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r} is not 0 (one per CPU) or a positive number")
    return int(value)


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive number of seconds")
    return seconds


def _size(text: str) -> List[int]:
    sides = text.split(",")
    if len(sides) not in (1, 2) or not all(side.strip().isdigit() and int(side) > 0
                                           for side in sides):
        raise ValueError(text)
    return [int(sides[0]), int(sides[-1])]


def _image_size(value: str) -> Tuple[Optional[str], List[int]]:
    """``H[,W]`` for every network, or ``NETWORK=H[,W]`` for one: (network or None, [H, W])."""
    network, equals, size = value.rpartition("=")
    try:
        return (network.strip() if equals else None), _size(size)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not H[,W] or NETWORK=H[,W] (positive pixel counts)") from None


def image_size_for(network: str, sizes: Sequence[Tuple[Optional[str], List[int]]]
                   ) -> Optional[List[int]]:
    """The ``--image-size`` that applies to ``network`` (its own, else the general one).

    Args:
      network: a name in the factory's networks_map.
      sizes: the parsed ``--image-size`` values.

    Returns:
      [H, W], or None when no ``--image-size`` applies.
    """
    own = [size for name, size in sizes if name == network]
    general = [size for name, size in sizes if name is None]
    return (own or general or [None])[-1]


def _env_item(value: str) -> str:
    if not value.partition("=")[0] or "=" not in value:
        raise argparse.ArgumentTypeError(f"{value!r} is not KEY=VALUE")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m slimport.verify`` (the same as ``slimport verify``'s)."""
    parser = argparse.ArgumentParser(prog="slimport verify", **PARSER_TEXT)
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` verify's arguments (``slimport verify``'s subparser gets them too).

    Args:
      parser: a parser made with ``PARSER_TEXT``.
    """
    parser.add_argument(
        "tree", metavar="PORTED_DIR",
        help="the ported tree (e.g. the --out DIR of slimport rewrite); its sys.path "
             "roots are read from how its modules import each other")
    parser.add_argument(
        "--path", metavar="DIR", action="append", default=[],
        help="another sys.path root, relative to PORTED_DIR or absolute, as the tree's "
             "scripts expect (repeatable), e.g. --path src")
    parser.add_argument(
        "--build", metavar="TARGET", action="append", default=[],
        help="MODULE: a research/slim-style factory (networks_map, get_network_fn): build "
             "every network and run one training step; or FILE.py:FUNCTION: call FUNCTION "
             "in a new graph, it returns a loss tensor (repeatable), e.g. --build "
             "nets.nets_factory")
    parser.add_argument(
        "--networks", metavar="NAME,...",
        help="build only these networks of the factories, e.g. --networks lenet,cifarnet")
    parser.add_argument(
        "--image-size", metavar="[NETWORK=]H[,W]", action="append", default=[],
        type=_image_size,
        help="input size of the factories' networks (repeatable; NETWORK= for one network "
             "where a factory mixes sizes), e.g. --image-size 300 or --image-size "
             "ssd_300=300; default: each network's default_image_size, else 224")
    parser.add_argument(
        "--exclude", metavar="GLOB", action="append", default=[],
        help="leave out files whose tree-relative path matches (repeatable), "
             "e.g. --exclude '*_test.py'")
    parser.add_argument(
        "--no-scripts", action="store_true",
        help="do not run entry scripts with --helpfull (imports and builds only)")
    parser.add_argument(
        "--no-calls", action="store_true",
        help="do not look up the TensorFlow names the code uses (the call-time check)")
    parser.add_argument(
        "-j", "--jobs", metavar="N", type=_count, default=0,
        help="checks at a time (default 0: one per CPU)")
    parser.add_argument(
        "--timeout", metavar="SECS", type=_seconds, default=120.0,
        help="time limit of one import or entry script (default 120)")
    parser.add_argument(
        "--build-timeout", metavar="SECS", type=_seconds, default=900.0,
        help="time limit of one network build and training step (default 900)")
    parser.add_argument(
        "--preload", metavar="MODULE,...", default="tensorflow",
        help="modules the forking process imports once (default tensorflow; '' for none)")
    parser.add_argument(
        "--env", metavar="KEY=VALUE", action="append", default=[], type=_env_item,
        help="set an environment variable for the checks (repeatable); "
             f"{PROTOBUF_VARIABLE}=python is set by itself when the tree holds *_pb2.py "
             "files from an old protoc")
    parser.add_argument(
        "--report", metavar="FILE.json",
        help="also write every row as JSON (schema: slimport/verify/report.py)")
    parser.add_argument(
        "-v", "--verbose", action="store_true",
        help="list every check of a group, every flag, and every ok row")
