"""slim_ext.contrib: stand-ins fail only when used; re-implemented contrib modules import."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from slimport.tables.contrib_table import HOMES, MODULE_HOMES, STAND_INS, lookup

CONTRIB_DIR = Path(__file__).resolve().parents[2] / "slim_ext" / "contrib"

def _stand_ins() -> list:
    """(stand-in, as module:attribute, the first contrib symbol the table maps to it)."""
    first: dict = {}
    for key, home in HOMES.items():
        if home.is_stand_in:
            first.setdefault(f"{home.package}:{home.attribute}", key)
    return sorted(first.items())


STAND_IN_NAMES = _stand_ins()


@pytest.fixture(scope="module")
def contrib():
    from slim_ext import contrib as module  # the package init imports TensorFlow

    return module


def _run(probe: str) -> str:
    """The stdout of ``probe`` run in a fresh interpreter (this one has TensorFlow loaded)."""
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=120, check=True)
    return result.stdout.strip()


@pytest.mark.parametrize("module", ["__init__.py", "quantize/graph_matcher.py"])
def test_module_itself_does_not_import_tensorflow(module: str) -> None:
    probe = (
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location("
        f"'contrib_probe', {str(CONTRIB_DIR / module)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in "
        "('tensorflow', 'tf_slim', 'tf_keras', 'keras')))\n"
    )
    assert _run(probe) == "[]"


@pytest.mark.tf
@pytest.mark.parametrize("stand_in, contrib_key", STAND_IN_NAMES)
def test_every_stand_in_in_the_table_raises_naming_feature_and_alternative(
        contrib, stand_in: str, contrib_key: str) -> None:
    module, _, attribute = stand_in.partition(":")
    replacement = getattr(importlib.import_module(module), attribute)
    with pytest.raises(contrib.RemovedInTF2Error) as raised:
        replacement(0, flag=True)
    message = str(raised.value)
    assert f"tf.contrib.{contrib_key}" in message
    assert "instead" in message


@pytest.mark.tf
def test_error_is_a_not_implemented_error(contrib) -> None:
    assert issubclass(contrib.RemovedInTF2Error, NotImplementedError)
    with pytest.raises(NotImplementedError, match="tensorflow-model-optimization"):
        contrib.quantize.create_training_graph(quant_delay=0)


@pytest.mark.tf
def test_quantize_stand_ins_under_the_names_earlier_ports_wrote(contrib) -> None:
    assert contrib.quantize_create_training_graph is contrib.quantize.create_training_graph
    assert contrib.quantize_create_eval_graph is contrib.quantize.create_eval_graph
    assert "quantize_create_eval_graph" in dir(contrib)


@pytest.mark.tf
def test_hparams_under_its_old_stand_in_name_is_the_real_class(contrib) -> None:
    hparams = contrib.HParams(learning_rate=0.1, batch_size=32).parse("batch_size=64")
    assert (hparams.learning_rate, hparams.batch_size) == (0.1, 64)


@pytest.mark.tf
def test_ported_file_imports_and_fails_only_at_the_call(contrib, tmp_path: Path) -> None:
    ported = tmp_path / "train_quant.py"
    ported.write_text(
        "import slim_ext.contrib.quantize\n"
        "from slim_ext.contrib import HParams\n"
        "def build():\n"
        "    slim_ext.contrib.quantize.create_eval_graph()\n"
    )
    spec = importlib.util.spec_from_file_location("train_quant", ported)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(contrib.RemovedInTF2Error, match="create_eval_graph"):
        module.build()


def _mirrored_names() -> dict:
    """slim_ext module -> the names HOMES maps into it (its re-implemented contrib API)."""
    names: dict = {}
    for home in HOMES.values():
        if home.package.startswith(STAND_INS + "."):
            names.setdefault(home.import_from, set()).add(home.name)
    return names


@pytest.mark.tf
@pytest.mark.parametrize("contrib_module, home", sorted(MODULE_HOMES.items()))
def test_every_module_home_imports_with_the_names_the_table_sends_there(
        contrib_module: str, home: str) -> None:
    module = importlib.import_module(home)
    expected = {name for target, names in _mirrored_names().items()
                if target == home for name in names}
    assert expected <= set(dir(module)), f"tf.contrib.{contrib_module}"


@pytest.mark.tf
def test_submodules_load_on_first_attribute_use() -> None:
    # import slim_ext itself loads slim_ext.contrib.gan (its import hook gives TF-GAN the
    # inspect.getargspec it calls): what matters is what the attribute use adds.
    probe = (
        "import sys, slim_ext.contrib\n"
        "before = set(sys.modules)\n"
        "rotate = slim_ext.contrib.image.rotate\n"
        "print(sorted(m for m in set(sys.modules) - before if m.startswith('slim_ext.contrib.')))\n"
    )
    assert _run(probe) == "['slim_ext.contrib.image']"


@pytest.mark.tf
def test_unknown_attribute_is_an_attribute_error(contrib) -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        contrib.nothing_here  # noqa: B018


@pytest.mark.tf
def test_tfprof_counts_parameters_with_the_tf1_option_dicts(contrib, tf, tmp_path) -> None:
    analyzer = contrib.tfprof.model_analyzer
    with tf.Graph().as_default() as graph:
        with tf.variable_scope("dense"):
            tf.get_variable("kernel", [3, 4])
            tf.get_variable("bias", [4])
        tf.get_variable("step", [], trainable=False)
        options = dict(analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS)
        # TF1 code edits the dicts (object detection's exporter sets trim_name_regexes).
        options["output"] = f"file:outfile={tmp_path / 'params.txt'}"
        stats = analyzer.print_model_analysis(graph, tfprof_options=options)
    assert stats.total_parameters == 16  # trainable only
    assert "dense/kernel" in (tmp_path / "params.txt").read_text()
    assert analyzer.FLOAT_OPS_OPTIONS["select"] == ["float_ops"]
    assert contrib.tfprof.tfprof_logger.write_op_log is tf.profiler.write_op_log


@pytest.mark.tf
def test_framework_deprecated_keeps_the_function_working(contrib, caplog) -> None:
    @contrib.framework.deprecated("2018-01-01", "Use new_fn instead.")
    def old_fn(x):
        return x + 1

    assert old_fn(1) == 2
    assert "deprecated" in old_fn.__doc__.lower()
    assert callable(contrib.framework.deprecated_args) and callable(
        contrib.framework.deprecated_arg_values)


@pytest.mark.tf
def test_contrib_util_constant_value_is_get_static_value(tf) -> None:
    found = lookup("util.constant_value")
    assert found is not None and found.home is not None
    home = found.home
    function = getattr(importlib.import_module(home.package), home.attribute)
    with tf.Graph().as_default():
        assert function(tf.constant([1, 2])).tolist() == [1, 2]
        assert function(tf.shape(tf.zeros([2, 3]))).tolist() == [2, 3]
        assert function(tf.placeholder(tf.int32, [2])) is None
