"""tools/export_suite.py's pieces that need no TensorFlow: the networks it reads from a
nets_factory, and how it judges and tabulates a network's row."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def suite():
  spec = importlib.util.spec_from_file_location("export_suite", ROOT / "tools" / "export_suite.py")
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def test_the_factory_names_are_read_without_importing_it(suite, tmp_path):
  assert suite._factory_names(ROOT / "examples" / "slim_tf1") == ["lenet", "cifarnet_bn"]
  (tmp_path / "nets").mkdir()
  (tmp_path / "nets" / "nets_factory.py").write_text(
      "networks_map = {'i3d': i3d.i3d, 'nasnet_mobile': nasnet.build_nasnet_mobile}\n")
  assert suite._factory_names(tmp_path) == ["nasnet_mobile"]  # the video nets are left out


@pytest.mark.parametrize("row, expected", [
    ({"eager": 0.0, "tflite": 1.6e-6, "same_top1": True}, None),
    ({"eager": 2e-6, "tflite": 1.6e-6, "same_top1": True}, "eager logits 2.0e-06 from the graph's"),
    ({"eager": 0.0, "tflite": 2e-5, "same_top1": True}, "TFLite logits 2.0e-05 from the graph's"),
    ({"eager": 0.0, "frozen": 2e-5, "tflite": 0.0, "same_top1": True},
     "frozen graph's logits 2.0e-05 from the graph's"),
    ({"eager": 0.0, "frozen": 1e-7, "tflite": 1.6e-6, "same_top1": True}, None),
    ({"eager": 0.0, "tflite": 0.0, "same_top1": False}, "another top-1"),
    ({"error": "exit 1 (log: x.log)"}, "exit 1 (log: x.log)"),
])
def test_a_row_passes_only_within_the_tolerances(suite, row, expected):
  assert suite.verdict(row) == expected


def test_the_table_counts_the_failures(suite):
  rows = [{"name": "lenet", "size": 28, "eager": 0.0, "tflite": 5.6e-7, "same_top1": True,
           "seconds": 2.0},
          {"name": "vgg_16", "error": "timed out (log: vgg_16.log)"}]
  shown = suite.table(rows)
  assert "lenet" in shown and "FAILED: timed out" in shown
  assert shown.endswith("1 of 2 networks exported and served as the graph computes them")
