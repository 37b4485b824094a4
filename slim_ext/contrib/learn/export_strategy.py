"""``tf.contrib.learn.ExportStrategy`` and ``make_export_strategy`` for tf.estimator.

An Experiment (``slim_ext.contrib.learn.experiment``) exports after its
evaluations through these, as tf.contrib.learn's did: each strategy writes
under ``<model_dir>/export/<name>``. ``make_export_strategy`` exports a
``tf.estimator.Estimator`` (tensorflow-estimator's, revived by slim_ext) as a
timestamped SavedModel and keeps the newest ``exports_to_keep``; the
``InputFnOps`` of tf.contrib.learn's own Estimators went with them, so its
``serving_input_fn`` returns a ``tf.estimator.export.ServingInputReceiver``,
as it had to for a core Estimator in TF 1.x.
"""
from __future__ import annotations

import collections
import os
from typing import Any, Callable, Optional

import slim_ext  # noqa: F401  (revives tf.estimator on TF >= 2.16)
import tensorflow as tf
from tensorflow.python.util import function_utils
from tensorflow_estimator.python.estimator import gc

# The name tf.contrib.learn gave the SavedModel strategy's export directory.
SERVING_EXPORT_NAME = "Servo"


class ExportStrategy(
    collections.namedtuple("ExportStrategy", ["name", "export_fn",
                                              "strip_default_attrs"])):
  """One kind of export: its directory name and the function that writes it.

  Fields:
    name: the directory under ``<model_dir>/export`` its exports go to.
    export_fn: ``(estimator, export_path)``, ``(estimator, export_path,
      checkpoint_path)`` or ``(estimator, export_path, checkpoint_path,
      eval_result)`` -> the path it exported to.
    strip_default_attrs: whether default-valued attributes are left out of
      the exported NodeDefs (None: the export_fn decides).
  """

  def __new__(cls, name: str, export_fn: Callable[..., Any],
              strip_default_attrs: Optional[bool] = None) -> "ExportStrategy":
    return super().__new__(cls, name, export_fn, strip_default_attrs)

  def export(self, estimator: Any, export_path: Any,
             checkpoint_path: Optional[str] = None,
             eval_result: Optional[dict] = None) -> Any:
    """Exports ``estimator`` to ``export_path`` with ``export_fn``.

    Args:
      estimator: the Estimator to export.
      export_path: the directory to export to.
      checkpoint_path: the checkpoint to export; None lets ``export_fn`` pick
        (the newest).
      eval_result: the evaluation of that checkpoint, for an ``export_fn``
        that takes ``eval_result``.

    Returns:
      What ``export_fn`` returns: the path it exported to.

    Raises:
      ValueError: ``export_fn`` takes ``eval_result`` but not
        ``checkpoint_path``.
    """
    arguments = function_utils.fn_args(self.export_fn)
    kwargs = {}
    if "checkpoint_path" in arguments:
      kwargs["checkpoint_path"] = checkpoint_path
    if "eval_result" in arguments:
      if "checkpoint_path" not in arguments:
        raise ValueError("An export_fn accepting eval_result must also accept "
                         "checkpoint_path.")
      kwargs["eval_result"] = eval_result
    return self.export_fn(estimator, export_path, **kwargs)


def _export_version(path: gc.Path) -> Optional[gc.Path]:
  """The timestamp a SavedModel export directory is named by, or None."""
  name = os.path.basename(path.path)
  if len(name) != 10 or not name.isdigit():
    return None
  return path._replace(export_version=int(name))


def garbage_collect_exports(export_dir_base: Any,
                            exports_to_keep: Optional[int]) -> None:
  """Deletes all but the newest ``exports_to_keep`` exports in ``export_dir_base``.

  Args:
    export_dir_base: the directory whose timestamped subdirectories are exports.
    exports_to_keep: how many to keep; None keeps all.
  """
  if exports_to_keep is None:
    return
  # pylint: disable=protected-access  (estimator's own export GC helpers)
  older = gc._negation(gc._largest_export_versions(exports_to_keep))
  for path in older(gc._get_paths(export_dir_base, parser=_export_version)):
    try:
      tf.io.gfile.rmtree(path.path)
    except tf.errors.NotFoundError as error:
      tf.compat.v1.logging.warning("Can not delete %s recursively: %s",
                                   path.path, error)


def make_export_strategy(serving_input_fn: Callable[[], Any],
                         default_output_alternative_key: Optional[str] = None,
                         assets_extra: Optional[dict] = None,
                         as_text: bool = False,
                         exports_to_keep: Optional[int] = 5,
                         strip_default_attrs: bool = False) -> ExportStrategy:
  """An ExportStrategy that exports a tf.estimator.Estimator as a SavedModel.

  Args:
    serving_input_fn: no arguments -> ``tf.estimator.export.ServingInputReceiver``.
    default_output_alternative_key: must be None (a tf.estimator.Estimator
      names its signatures in ``export_outputs``).
    assets_extra: destination path in ``assets.extra`` -> source file.
    as_text: write the SavedModel proto as text.
    exports_to_keep: newest exports to keep (None: all).
    strip_default_attrs: leave default-valued attributes out of the NodeDefs.

  Returns:
    An ExportStrategy named ``Servo`` for ``Experiment(export_strategies=...)``.
  """

  def export_fn(estimator: Any, export_dir_base: Any,
                checkpoint_path: Optional[str] = None) -> Any:
    if default_output_alternative_key is not None:
      raise ValueError(
          "default_output_alternative_key is not supported in core "
          f"Estimator. Given: {default_output_alternative_key}")
    exported = estimator.export_savedmodel(
        export_dir_base, serving_input_fn, assets_extra=assets_extra,
        as_text=as_text, checkpoint_path=checkpoint_path,
        strip_default_attrs=strip_default_attrs)
    garbage_collect_exports(export_dir_base, exports_to_keep)
    return exported

  return ExportStrategy(SERVING_EXPORT_NAME, export_fn, strip_default_attrs)
