"""slim_ext.mox: what ``moxing.tensorflow`` scripts use, on slim_ext.

``slimport rewrite`` ports ``import moxing.tensorflow as mox`` to
``import slim_ext.mox as mox``; the script then runs unchanged:

  mox.run(input_fn=input_fn, model_fn=model_fn, optimizer_fn=optimizer_fn,
          run_mode=mox.ModeKeys.TRAIN, log_dir=flags.train_url,
          max_number_of_steps=sys.maxsize)

Provided (``slim_facts.moxing.MOX_NAMES``): ``run``, ``ModelSpec``,
``ModeKeys``, ``ExportSpec`` and ``ExportKeys`` (``run(export_model=
ExportKeys.TF_SERVING)`` exports a SavedModel after the run),
``get_optimizer_fn``, ``get_flag``, ``set_flag`` and ``file`` (``mox.file``,
the OBS file API, on ``tf.io.gfile``). MoXing's model zoo, datasets and hooks
are not: the rewrite reports each use with what to do instead.
"""
from slim_ext.mox import file
from slim_ext.mox.executor import ModelSpec
from slim_ext.mox.executor import ModeKeys
from slim_ext.mox.executor import get_flag
from slim_ext.mox.executor import run
from slim_ext.mox.executor import set_flag
from slim_ext.mox.optimizer import get_optimizer_fn
from slim_ext.mox.serving import ExportKeys
from slim_ext.mox.serving import ExportSpec

# The same names as slim_facts.moxing.MOX_NAMES (tests/slim_ext/test_mox.py).
__all__ = ["ExportKeys", "ExportSpec", "ModeKeys", "ModelSpec", "file",
           "get_flag", "get_optimizer_fn", "run", "set_flag"]
