"""research/slim's own networks, ported, exported and served: the held-out check of
``python -m slim_ext.export``.

``python tools/export_suite.py`` (``tox -e export-suite``) downloads research/slim (the
sdist tools/corpus.py pins as RESEARCH_SLIM_WHOLE, cached as there), ports its ``slim/``
tree with ``slimport rewrite --out``, and for every network of its ``nets_factory`` (the
video nets i3d and s3dg take 5-D clips and are left out), in a process of its own: builds
it in graph mode on two images of its default size with its own initializers, saves a
checkpoint, exports it with ``slim_ext.export.export_saved_model``, and computes the
logits again with ``tf.saved_model.load`` (eager) and with TF's TFLite converter and
interpreter; and, research/slim's other export route, writes the network's inference
GraphDef with research/slim's own ``export_inference_graph.py``, ported with its tree
(``--dataset_name imagenet --labels_offset 991`` gives the checkpoint's 10 classes),
folds the checkpoint in with TF's ``freeze_graph`` and runs the frozen graph. A network
passes when the eager logits are within 1e-6, the frozen graph's and TFLite's within 1e-5
of the graph's (relative to the largest logit) with the same top-1. Exit status 1 when
any network fails. ``--only NAME,...`` runs some; ``--one NAME --tree DIR`` is the child
for one network (prints one JSON line).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness  # noqa: E402  pylint: disable=wrong-import-position
import corpus  # noqa: E402  pylint: disable=wrong-import-position

VIDEO_NETS = ("i3d", "s3dg")
# A frozen graph's weights are constants, which TF's graph optimizer may fold as the
# TFLite converter does: float32 rounding of that order (1.2e-6 on mobilenet_v1).
EAGER_RTOL, FROZEN_RTOL, TFLITE_RTOL = 1e-6, 1e-5, 1e-5
NET_SECS = 1200
# research/slim's imagenet has 1001 classes (a background class); the suite's nets have 10.
IMAGENET_CLASSES, NUM_CLASSES = 1001, 10


def _relative_error(actual, expected) -> float:
  import numpy as np  # pylint: disable=g-import-not-at-top
  expected = np.asarray(expected, np.float64)
  return float(np.max(np.abs(np.asarray(actual, np.float64) - expected))
               / np.max(np.abs(expected)))


def measure_one(name: str, tree: Path, workdir: Path) -> Dict[str, object]:
  """Graph-mode, eager-SavedModel and TFLite logits of net `name` of `tree`'s nets_factory."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  sys.path.insert(0, str(tree))
  import slim_ext  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  from nets import nets_factory  # pylint: disable=g-import-not-at-top
  from slim_ext.export import export_saved_model  # pylint: disable=g-import-not-at-top

  started = time.monotonic()
  size = nets_factory.get_network_fn(name, NUM_CLASSES).default_image_size
  images = np.random.RandomState(0).uniform(-1, 1, size=(2, size, size, 3)).astype(np.float32)
  checkpoint = str(workdir / "model.ckpt")
  with tf.Graph().as_default():
    inputs = tf.compat.v1.placeholder(tf.float32, images.shape)
    raw_logits = nets_factory.get_network_fn(name, NUM_CLASSES)(inputs)[0]
    logits = tf.reshape(raw_logits, [2, -1])
    with tf.compat.v1.Session() as session:
      session.run(tf.compat.v1.global_variables_initializer())
      graph = session.run(logits, {inputs: images})
      tf.compat.v1.train.Saver().save(session, checkpoint)
  export_dir = str(workdir / "saved_model")
  export_saved_model(nets_factory.get_network_fn(name, NUM_CLASSES), checkpoint, export_dir, size)
  eager = tf.saved_model.load(export_dir).signatures["serving_default"](
      images=tf.constant(images))["logits"].numpy()
  converted = tf.lite.TFLiteConverter.from_saved_model(export_dir).convert()
  lite = tf.lite.Interpreter(model_content=converted).get_signature_runner(
      "serving_default")(images=images)["logits"]
  frozen = frozen_graph_logits(name, tree, workdir, checkpoint, raw_logits.op.name,
                               images).reshape(graph.shape)
  return {"name": name, "size": size, "eager": _relative_error(eager, graph),
          "frozen": _relative_error(frozen, graph),
          "tflite": _relative_error(lite, graph),
          "same_top1": bool(all(np.all(np.argmax(x, 1) == np.argmax(graph, 1))
                                for x in (eager, frozen, lite))),
          "seconds": round(time.monotonic() - started, 1)}


def frozen_graph_logits(name: str, tree: Path, workdir: Path, checkpoint: str,
                        logits_name: str, images):
  """The logits of the ported export_inference_graph.py's GraphDef, frozen by freeze_graph."""
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  dataset_dir = workdir / "imagenet"  # its labels file: research/slim reads names from it
  dataset_dir.mkdir(exist_ok=True)
  (dataset_dir / "labels.txt").write_text(
      "".join(f"{label}:class {label}\n" for label in range(IMAGENET_CLASSES)))
  graph_file, frozen_file = workdir / "inference_graph.pb", workdir / "frozen.pb"
  env = {**os.environ, "PYTHONPATH": os.pathsep.join(
      filter(None, [str(tree), os.environ.get("PYTHONPATH")]))}
  for command in (
      [str(tree / "export_inference_graph.py"), "--model_name", name, "--dataset_name",
       "imagenet", "--dataset_dir", str(dataset_dir), "--labels_offset",
       str(IMAGENET_CLASSES - NUM_CLASSES), "--output_file", str(graph_file)],
      ["-m", "tensorflow.python.tools.freeze_graph", "--input_graph", str(graph_file),
       "--input_binary=true", "--input_checkpoint", checkpoint, "--output_node_names",
       logits_name, "--output_graph", str(frozen_file)]):
    ran = subprocess.run([sys.executable, *command], capture_output=True, text=True, env=env,
                         timeout=NET_SECS)
    if ran.returncode != 0:
      raise RuntimeError(f"{' '.join(command[:2])} exited {ran.returncode}:\n"
                         f"{ran.stderr[-3000:]}")
  graph_def = tf.compat.v1.GraphDef.FromString(frozen_file.read_bytes())
  with tf.Graph().as_default() as graph:
    tf.compat.v1.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=graph) as session:
      return session.run(f"{logits_name}:0", {"input:0": images})


def verdict(row: Dict[str, object]) -> Optional[str]:
  """Why a network's row fails, or None when it passes."""
  if "error" in row:
    return str(row["error"])
  if not row["same_top1"]:
    return "another top-1"
  if row["eager"] > EAGER_RTOL:
    return f"eager logits {row['eager']:.1e} from the graph's"
  if row.get("frozen", 0.0) > FROZEN_RTOL:
    return f"frozen graph's logits {row['frozen']:.1e} from the graph's"
  if row["tflite"] > TFLITE_RTOL:
    return f"TFLite logits {row['tflite']:.1e} from the graph's"
  return None


def table(rows: Sequence[Dict[str, object]]) -> str:
  lines = [f"{'network':<34}{'size':>5}{'eager':>10}{'frozen':>10}{'tflite':>10}{'secs':>7}"
           "  verdict"]
  for row in rows:
    if "error" in row:
      lines.append(f"{row['name']:<34}{'':>42}  FAILED: {row['error']}")
      continue
    frozen = f"{row['frozen']:>10.1e}" if "frozen" in row else f"{'':>10}"
    lines.append(f"{row['name']:<34}{row['size']:>5}{row['eager']:>10.1e}{frozen}"
                 f"{row['tflite']:>10.1e}{row['seconds']:>7}  {verdict(row) or 'ok'}")
  failed = sum(verdict(row) is not None for row in rows)
  lines.append(f"{len(rows) - failed} of {len(rows)} networks exported and served as the "
               "graph computes them")
  return "\n".join(lines)


def _run_one(name: str, ported: Path, workdir: Path, deadline: _harness.Deadline
             ) -> Dict[str, object]:
  log = workdir / f"{name}.log"
  try:
    ran = _harness.run([sys.executable, __file__, "--one", name, "--tree", str(ported),
                        "--workdir", str(workdir / name)],
                       _harness.Deadline(min(NET_SECS, deadline.left())), log=log)
  except TimeoutError:
    return {"name": name, "error": f"timed out (log: {log})"}
  lines = [line for line in log.read_text().splitlines() if line.startswith("{")]
  if ran.returncode != 0 or not lines:
    return {"name": name, "error": f"exit {ran.returncode} (log: {log})"}
  return json.loads(lines[-1])


def main(argv: Optional[Sequence[str]] = None) -> int:
  parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  parser.add_argument("--only", help="comma-separated network names")
  parser.add_argument("--workdir", type=Path, help="default: a new temporary directory")
  parser.add_argument("--timeout", type=float, default=7200, help="seconds for the whole run")
  parser.add_argument("--one", help=argparse.SUPPRESS)
  parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
  args = parser.parse_args(argv)
  workdir = args.workdir or Path(tempfile.mkdtemp(prefix="export_suite_"))
  workdir.mkdir(parents=True, exist_ok=True)
  if args.one:
    print(json.dumps(measure_one(args.one, args.tree, workdir)))
    return 0

  deadline = _harness.Deadline(args.timeout)
  ported, ran = corpus.port_sdist(corpus.RESEARCH_SLIM_WHOLE, "slim", workdir, deadline,
                                  corpus.default_cache())
  if ran.returncode != 0:
    print(f"slimport rewrite failed: {workdir / 'rewrite.log'}")
    return 1
  names: List[str] = args.only.split(",") if args.only else _factory_names(ported)
  rows = []
  for name in names:
    rows.append(_run_one(name, ported, workdir, deadline))
    print(json.dumps(rows[-1]), flush=True)
  print(table(rows))
  return 1 if any(verdict(row) for row in rows) else 0


def _factory_names(ported: Path) -> List[str]:
  """The nets_factory's networks but the video ones, read without importing TensorFlow."""
  module = ast.parse((ported / "nets" / "nets_factory.py").read_text())
  [networks] = [node.value for node in module.body if isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["networks_map"]]
  return [key.value for key in networks.keys if key.value not in VIDEO_NETS]


if __name__ == "__main__":
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  sys.exit(main())
