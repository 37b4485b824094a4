"""slimport.analysis.tf_code.signal_scan: one SignalScan per tree and bindings, the
same answers as a scan made afresh."""
import ast
from pathlib import Path

import pytest

from slimport.analysis.names import Bindings, collect_bindings
from slimport.analysis.tf_code import SignalScan, signal_scan, tf1_evidence

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(ROOT.glob("examples/*/**/*.py"))
MIXED = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\ny = tf.keras.layers.Dense(2)\n"


def _answers(scan):
  return scan.statements_to_keep(), scan.signal_statements, scan.first_clean


def test_the_same_tree_and_bindings_share_one_scan():
  tree = ast.parse(MIXED)
  bindings = collect_bindings(tree)
  scan = signal_scan(tree, bindings)
  assert signal_scan(tree, Bindings(dict(bindings.names))) is scan
  # Other bindings (an earlier codemod rebound tf), another scan.
  assert signal_scan(tree, Bindings({"tf": "tf_slim"})) is not scan
  # Another tree of the same text, another scan.
  assert signal_scan(ast.parse(MIXED), bindings) is not scan


def test_the_scan_is_found_by_what_the_bindings_say_not_by_the_object():
  tree = ast.parse(MIXED)
  bindings = collect_bindings(tree)
  before = _answers(signal_scan(tree, bindings))
  bindings.names["tf"] = "numpy"
  after = _answers(signal_scan(tree, bindings))
  assert after != before and after == _answers(SignalScan(tree, bindings))


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_kept_scan_answers_as_a_fresh_one(path):
  tree = ast.parse(path.read_text(encoding="utf-8"))
  bindings = collect_bindings(tree)
  fresh_evidence = tf1_evidence(ast.parse(path.read_text(encoding="utf-8")), bindings)
  assert _answers(signal_scan(tree, bindings)) == _answers(SignalScan(tree, bindings))
  # tf1_evidence goes through the kept scan; the statement ids are the tree's own.
  evidence = tf1_evidence(tree, bindings)
  assert evidence[0] == fresh_evidence[0] and len(evidence[1]) == len(fresh_evidence[1])
