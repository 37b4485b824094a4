"""Big files in linear time: the cost per line of one TF1 file, at 2,000 and 20,000 lines.

    python benchmarks/big_file.py [--lines 2000,20000] [--runs 3] [--seed 0]

A generated file is made of one unit repeated with fresh names: ten ``tf.app.flags``
definitions (one of them twice: reported, with the line of the first),
inception-style net blocks using ``slim = tf.contrib.slim``, ``tf.contrib.layers``
initializers, ``tf.logging``; one ``main`` and ``tf.app.run()`` end it. So a
20,000-line file is the same kind of code as a 2,000-line one, with ten times the
flags, nets and edits. Each size is ported in this process through
``slimport.engine.port_source`` (what one ``slimport rewrite -j 1`` does per file,
minus reading and writing), best of ``--runs`` in CPU time; the figure is CPU
microseconds per line and the ratio of the largest size's to the smallest's (1.0:
linear).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable, List, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _stats  # noqa: E402
import synthetic_tree  # noqa: E402

FLAGS_PER_UNIT = 10
BLOCKS_PER_UNIT = 3


def _unit(rng: random.Random, index: int) -> str:
    flags = []
    for number in range(FLAGS_PER_UNIT):
        kind, default = rng.choice([("integer", "32"), ("float", "0.5"), ("string", "'x'"),
                                    ("boolean", "False")])
        word = rng.choice(synthetic_tree.WORDS)
        flags.append(f"tf.app.flags.DEFINE_{kind}(\n    'unit{index}_{word}_{number}', "
                     f"{default},\n    'The {word} setting {number} of unit {index}.')\n")
    # TF1 let a flag be defined twice (absl does not): one per unit, reported.
    flags.append(flags[0])
    blocks = "".join(synthetic_tree._net_block(rng, index * BLOCKS_PER_UNIT + offset)
                     for offset in range(BLOCKS_PER_UNIT))
    initializer = rng.choice(synthetic_tree.INITIALIZERS)
    return f'''
{''.join(flags)}{blocks}

def head_{index}(net, num_classes, is_training=True):
  """The logits of unit {index}."""
  with slim.arg_scope([slim.fully_connected],
                      weights_initializer={initializer},
                      weights_regularizer=slim.l2_regularizer(0.0004)):
    net = slim.flatten(net)
    net = slim.dropout(net, 0.8, is_training=is_training, scope='Dropout_{index}')
    logits = slim.fully_connected(net, num_classes, activation_fn=None,
                                  scope='Logits_{index}')
  tf.summary.histogram('logits_{index}', logits)
  return logits
'''


def big_tf1_file(lines: int, seed: int = 0) -> str:
    """A TF1 slim file of about ``lines`` lines (see the module docstring)."""
    rng = random.Random(seed)
    head = (f'{synthetic_tree.HEADER}"""A generated TF1 model file of {lines} lines."""\n\n'
            f"{synthetic_tree.FUTURE}\nimport tensorflow as tf\n\nslim = tf.contrib.slim\n")
    tail = ("\nFLAGS = tf.app.flags.FLAGS\n\n\ndef main(_):\n"
            "  tf.logging.set_verbosity(tf.logging.INFO)\n"
            "  tf.logging.info('batch size %d', FLAGS.batch_size)\n\n\n"
            "if __name__ == '__main__':\n  tf.app.run()\n")
    units: List[str] = []
    count = head.count("\n") + tail.count("\n")
    while count < lines:
        units.append(_unit(rng, len(units)))
        count += units[-1].count("\n")
    return head + "".join(units) + tail


def seconds_to_port(text: str, runs: int) -> float:
    """CPU seconds: the best of ``runs`` ports of ``text`` in this process, with every
    codemod (CPU time, not wall: on a machine others share it varies less)."""
    from slimport.codemods import CODEMODS
    from slimport.engine import port_source

    data = text.encode("utf-8")
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        ported = port_source(data, "big.py", CODEMODS, {})
        best = min(best, time.process_time() - started)
        if ported.error is not None or ported.data == data:
            raise RuntimeError(f"the generated file did not port: {ported.error}")
    return best


def scaling(sizes: Sequence[int], runs: int, seed: int,
            progress: Callable[[str], None] = lambda message: None) -> str:
    """The markdown table: per size its lines, seconds and microseconds per line."""
    rows = []
    per_line = []
    for size in sizes:
        text = big_tf1_file(size, seed)
        lines = text.count("\n")
        progress(f"big file: {lines} lines, best of {runs}")
        seconds = seconds_to_port(text, runs)
        per_line.append(seconds / lines)
        rows.append([lines, f"{seconds:.2f}", f"{seconds * 1e6 / lines:.0f}"])
    ratio = per_line[-1] / per_line[0]
    return (f"### One big file: time per line, in one process, best of {runs}\n\n"
            + _stats.table(["lines", "CPU s", "CPU µs per line"], rows)
            + f"\n\ntime per line at {rows[-1][0]} lines / at {rows[0][0]} lines: "
              f"**{ratio:.2f}×** (1.00×: linear)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=lambda text: [int(x) for x in text.split(",")],
                        default=[2000, 20000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(scaling(args.lines, args.runs, args.seed,
                  lambda message: print(message, file=sys.stderr, flush=True)))


if __name__ == "__main__":
    main()
