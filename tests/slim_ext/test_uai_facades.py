"""slim_ext.uai: the platform SDK's uflag and uai_dist modules, for trees without the SDK.

uai_dist's parser is compared method by method with the SDK's own (our copy in
examples/platform_slim, written from the SDK's documented behaviour) on
platform TF_CONFIGs, and checked on the recorded orchestrator TF_CONFIGs of
tests/slim_ext/tf_configs/ where the SDK had no answer.
"""
import ast
import importlib
import importlib.util
import json
import pathlib

from absl import flags
import pytest

from slim_ext import cluster_config
from slim_ext.uai import uai_dist
from slim_ext.uai import uflag
from slim_facts import platform_sdk

pytestmark = pytest.mark.tf  # importing slim_ext applies its TensorFlow shims

REPO = pathlib.Path(__file__).resolve().parents[2]
SDK_UAI_DIST = (REPO / "examples" / "platform_slim" / "uaitrain" / "arch" /
                "tensorflow" / "uai_dist.py")
FIXTURES = pathlib.Path(__file__).with_name("tf_configs")
METHODS = ("is_dist", "is_chief", "is_ps", "num_ps", "num_worker",
           "get_ps_list", "get_worker_list", "get_task_id")
# The SDK's five flags and their defaults (examples/platform_slim's uflag.py).
SDK_FLAGS = {"work_dir": "/data", "data_dir": "/data/data",
             "output_dir": "/data/output", "log_dir": "/data/output",
             "num_gpus": 0}


def _load_sdk_uai_dist():
  spec = importlib.util.spec_from_file_location("sdk_uai_dist", SDK_UAI_DIST)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


SDK = _load_sdk_uai_dist()


def _platform_tf_config(task_type, index, workers=1, num_ps=1):
  return json.dumps({
      "cluster": {"master": ["m:2222"],
                  "worker": [f"w{i}:2222" for i in range(workers)],
                  "ps": [f"p{i}:2222" for i in range(num_ps)]},
      "task": {"type": task_type, "index": index}, "environment": "cloud"})


def _answers(parser_class, monkeypatch, tf_config):
  monkeypatch.setenv("TF_CONFIG", tf_config)
  parser = parser_class()
  parser.load_cluster_config()
  return {method: getattr(parser, method)() for method in METHODS}


def test_uflag_defines_the_sdk_flags_with_its_defaults():
  for name, default in SDK_FLAGS.items():
    assert flags.FLAGS[name].default == default, name
  assert uflag.FLAGS["num_gpus"].value == 0
  # log_dir is the platform's flag, not absl.logging's.
  assert flags.FLAGS.find_module_defining_flag("log_dir") == "slim_ext.uflag"
  assert uflag.flags.DEFINE_string is not flags.DEFINE_string  # tf1_flags'


@pytest.mark.parametrize(("task_type", "index", "workers", "num_ps"), [
    ("master", 0, 1, 1), ("worker", 0, 1, 1), ("ps", 0, 1, 1),
    ("worker", 2, 3, 2), ("ps", 1, 3, 2), ("master", 0, 0, 1),
])
def test_uai_dist_answers_as_the_sdk(monkeypatch, task_type, index, workers,
                                     num_ps):
  tf_config = _platform_tf_config(task_type, index, workers, num_ps)
  assert (_answers(uai_dist.UAITensorFlowDistRunConfigParser, monkeypatch,
                   tf_config) ==
          _answers(SDK.UAITensorFlowDistRunConfigParser, monkeypatch,
                   tf_config))


def test_uai_dist_worker_ids_shift_past_the_master(monkeypatch):
  answers = _answers(uai_dist.UAITensorFlowDistRunConfigParser, monkeypatch,
                     _platform_tf_config("worker", 1, workers=2, num_ps=1))
  assert answers == {
      "is_dist": True, "is_chief": False, "is_ps": False, "num_ps": 1,
      "num_worker": 3, "get_ps_list": ["p0:2222"],
      "get_worker_list": ["m:2222", "w0:2222", "w1:2222"], "get_task_id": 2}


# fixture -> (is_chief, is_ps, task id, worker list's length, ps count)
@pytest.mark.parametrize(("fixture", "expected"), [
    ("tf_operator_master_custom_domain.json", (True, False, 0, 4, 2)),
    ("tf_operator_worker2_custom_domain.json", (False, False, 3, 4, 2)),
    ("ai_platform_worker1_trial.json", (False, False, 2, 3, 1)),
    # The SDK knew only "master"; TF2's "chief" is read the same way.
    ("kubeflow_tfjob_chief.json", (True, False, 0, 3, 1)),
    ("kubeflow_tfjob_worker1.json", (False, False, 2, 3, 1)),
    ("kubeflow_tfjob_ps0.json", (False, True, 0, 3, 1)),
    ("vertex_ai_tf_config_chief.json", (True, False, 0, 3, 1)),
])
def test_uai_dist_on_recorded_tf_configs(monkeypatch, fixture, expected):
  text = (FIXTURES / fixture).read_text()
  answers = _answers(uai_dist.UAITensorFlowDistRunConfigParser, monkeypatch,
                     text)
  config = cluster_config.ClusterConfig.from_tf_config(text)
  assert (answers["is_chief"], answers["is_ps"], answers["get_task_id"],
          answers["num_worker"], answers["num_ps"]) == expected
  assert answers["get_worker_list"] == config.tf1_cluster_dict()["worker"]
  assert answers["get_ps_list"] == list(config.cluster["ps"])
  if "master" in json.loads(text)["cluster"]:
    assert answers == _answers(SDK.UAITensorFlowDistRunConfigParser,
                               monkeypatch, text)


@pytest.mark.parametrize("tf_config", [
    "not json", "{}", '{"cluster": {"master": ["m:1"]}}',
    _platform_tf_config("worker", 5),
    json.dumps({"cluster": {"master": ["m:1"], "ps": ["m:1"]},
                "task": {"type": "ps", "index": 0}}),
])
def test_uai_dist_rejects_what_bootstrap_rejects(monkeypatch, tf_config):
  with pytest.raises(ValueError) as expected:
    cluster_config.ClusterConfig.from_tf_config(tf_config)
  monkeypatch.setenv("TF_CONFIG", tf_config)
  parser = uai_dist.UAITensorFlowDistRunConfigParser()
  assert parser.is_dist()
  with pytest.raises(ValueError) as raised:
    parser.load_cluster_config()
  assert str(raised.value) == str(expected.value)


def test_uai_dist_refuses_the_evaluator(monkeypatch):
  monkeypatch.setenv("TF_CONFIG",
                     (FIXTURES / "kubeflow_tfjob_evaluator.json").read_text())
  with pytest.raises(ValueError, match="slim_ext.evaluator"):
    uai_dist.UAITensorFlowDistRunConfigParser().load_cluster_config()


@pytest.mark.parametrize("value", [None, "", "  "])
def test_uai_dist_is_not_dist_without_tf_config(monkeypatch, value):
  if value is None:
    monkeypatch.delenv("TF_CONFIG", raising=False)
  else:
    monkeypatch.setenv("TF_CONFIG", value)
  assert not uai_dist.UAITensorFlowDistRunConfigParser().is_dist()


def test_uai_dist_methods_before_loading_say_so(monkeypatch):
  monkeypatch.setenv("TF_CONFIG", _platform_tf_config("master", 0))
  parser = uai_dist.UAITensorFlowDistRunConfigParser()
  for method in METHODS[1:]:
    with pytest.raises(AttributeError, match="until load_cluster_config"):
      getattr(parser, method)()
  # As with the SDK's parser, an AttributeError.
  with pytest.raises(AttributeError):
    SDK.UAITensorFlowDistRunConfigParser().is_ps()


@pytest.mark.parametrize("module", sorted(platform_sdk.SDK_MODULES))
def test_the_stand_ins_have_the_names_the_rewrite_moves(module):
  # slimport's sdk_imports moves uses of these names only (slim_facts.platform_sdk).
  stand_in = importlib.import_module(f"{platform_sdk.STAND_IN_PACKAGE}.{module}")
  names = platform_sdk.SDK_MODULES[module]
  assert all(hasattr(stand_in, name) for name in names), names
  # Every name the SDK's module defines (read off its source: it is TF1 code), besides
  # the modules it imports, is one.
  sdk = ast.parse(SDK_UAI_DIST.with_name(f"{module}.py").read_text())
  defined = {node.name for node in sdk.body
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
  defined |= {target.id for node in sdk.body if isinstance(node, ast.Assign)
              for target in node.targets if isinstance(target, ast.Name)}
  assert defined and defined <= names, defined - names
