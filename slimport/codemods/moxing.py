"""``moxing.tensorflow`` (MoXing, ModelArts' TF1 library) becomes ``slim_ext.mox``.

``slim_ext.mox`` provides what MoXing training scripts are built on: ``run``,
``ModelSpec``, ``ModeKeys``, ``ExportSpec`` / ``ExportKeys``, ``get_optimizer_fn``,
``get_flag``/``set_flag`` and the ``file`` API (``slim_facts.moxing.MOX_NAMES`` /
``MOX_FILE_NAMES``). So, as in contrib_slim, statements that bind a name to MoXing are
rewritten where they stand, keeping the name:

- ``import moxing.tensorflow as mox`` -> ``import slim_ext.mox as mox`` (also
  ``import moxing as mox``, whose ``mox.tensorflow.run`` becomes ``mox.run``);
- ``from moxing import tensorflow as mox`` -> ``from slim_ext import mox``;
- ``from moxing.tensorflow import run, ModelSpec`` -> ``from slim_ext.mox import ...``;
- ``import moxing.tensorflow`` -> ``import slim_ext.mox``, its uses
  ``moxing.tensorflow.run`` -> ``slim_ext.mox.run``.

A MoXing name slim_ext does not provide (its model zoo, datasets, hooks) is
left as it is and reported with what to use instead; an import of one stays a
``moxing`` import, so the file still names what it needs.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.codemods.base import StatementFilter, chain_filter
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.analysis.names import Bindings, is_under
from slim_facts.moxing import MOX_FILE_NAMES, MOX_MODULE, MOX_NAMES

MOXING = "moxing"
_MOX_FILE = MOX_MODULE + ".file"
# MoXing module -> its slim_ext home, most specific first. ``moxing.file`` (what
# ``import moxing as mox; mox.file`` reaches) falls under the last line.
_HOMES = (
    ("moxing.tensorflow", MOX_MODULE),
    ("moxing.framework.file", _MOX_FILE),
    (MOXING, MOX_MODULE),
)

# What to use instead of the MoXing names slim_ext.mox does not provide.
_FIXES = {
    **dict.fromkeys(
        ("get_model_fn", "get_model_meta", "NetworkKeys"),
        "build the network with tf_slim.nets (e.g. tf_slim.nets.resnet_v1.resnet_v1_50) "
        "or your own code inside model_fn",
    ),
    **dict.fromkeys(
        ("get_dataset", "get_dataset_meta", "ImageClassificationRawMetadata",
         "ImageClassificationRawDataset", "ImageClassificationTFRecordMetadata",
         "ImageClassificationTFRecordDataset", "MultilabelClassificationRawMetadata",
         "MultilabelClassificationRawDataset"),
        "read the data with tf.data inside input_fn (tf.data.TFRecordDataset, or "
        "Dataset.list_files with tf.io.decode_image)",
    ),
    **dict.fromkeys(
        ("get_data_augmentation_fn", "PreprocessingKeys"),
        "preprocess with research/slim's preprocessing_factory or tf.image inside input_fn",
    ),
    **dict.fromkeys(
        ("AggregativeSessionRunHook", "EarlyStoppingHook", "LogEvaluationMetricHook"),
        "slim_ext.mox.run takes no session hooks; compute what the hook did inside "
        "input_fn / model_fn, or stop training with max_number_of_steps",
    ),
    "get_collection": "use tf.compat.v1.get_collection(key) inside model_fn",
    "var_scope": "create the variable in the dtype it is stored in and tf.cast its value",
    "set_auth": "local and tf.io.gfile paths need no OBS credentials: delete the call",
    "stat": "use tf.io.gfile.stat(url) (length, mtime_nsec, is_directory)",
    "scan_dir": "use mox.file.list_directory(url) or tf.io.gfile.listdir(url)",
}


def mox_path(qualified: str) -> Optional[str]:
    """Where a MoXing name lives in slim_ext.

    Args:
      qualified: a dotted name, e.g. ``moxing.tensorflow.run``.

    Returns:
      Its slim_ext path (``slim_ext.mox.run``), whether or not slim_ext provides it
      (see ``missing_name``); None when ``qualified`` is not MoXing.
    """
    for module, home in _HOMES:
        if is_under(qualified, module):
            return home + qualified[len(module):]
    return None


def missing_name(path: str) -> Optional[str]:
    """The part of a slim_ext.mox path that slim_ext does not provide, or None.

    ``slim_ext.mox.get_model_fn`` -> ``get_model_fn``; ``slim_ext.mox.file.stat`` ->
    ``file.stat``; ``slim_ext.mox.run`` -> None.

    Args:
      path: a dotted name under ``slim_ext.mox``.

    Returns:
      The missing part, or None when slim_ext provides it.
    """
    parts = path[len(MOX_MODULE):].lstrip(".").split(".")
    if parts == [""]:
        return None
    if parts[0] not in MOX_NAMES:
        return parts[0]
    if parts[0] == "file" and len(parts) > 1 and parts[1] not in MOX_FILE_NAMES:
        return f"file.{parts[1]}"
    return None


def _is_moxing(qualified: Optional[str]) -> bool:
    return qualified is not None and mox_path(qualified) is not None


class MoxingCommand(ModuleMoveCodemod):
    """Rewrites imports and uses of ``moxing.tensorflow`` to ``slim_ext.mox``."""

    NAME: ClassVar[str] = "moxing"
    DESCRIPTION: ClassVar[str] = (
        "moxing.tensorflow (MoXing) -> slim_ext.mox; MoXing names it lacks are reported"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (MOXING,)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: _is_moxing(bindings.resolve_parts(parts)))

    @classmethod
    def rebound(cls, bindings: Bindings) -> Bindings:
        # Aliases are rewritten in place; ``import moxing`` becomes ``import slim_ext.mox``.
        names = {}
        for name, target in bindings.names.items():
            if name == target == MOXING:
                names["slim_ext"] = "slim_ext"
            else:
                names[name] = mox_path(target) or target
        return Bindings(names)

    def _report_missing(self, node: cst.CSTNode, spelled: str, path: str) -> bool:
        """Report ``spelled`` if slim_ext lacks what it names; True if reported."""
        missing = missing_name(path)
        if missing is None:
            return False
        provided = (f"slim_ext.mox.file provides {', '.join(sorted(MOX_FILE_NAMES))}"
                    if missing.startswith("file.") else
                    f"slim_ext.mox provides {', '.join(sorted(MOX_NAMES))}")
        fix = _FIXES.get(missing.rpartition(".")[2],
                         "write this part with TensorFlow (tf.compat.v1) directly")
        self.needs_attention(
            node, f"{spelled}: MoXing's {missing} has no slim_ext counterpart ({provided})",
            fix)
        return True

    # --- statements that bind a name to MoXing: rewritten where they stand, keeping
    # the name (the base's leave_Import / leave_ImportFrom), save what slim_ext lacks.

    def home_of(self, qualified: str) -> Optional[str]:
        return mox_path(qualified)

    def import_home(self, node: cst.Import, alias: cst.ImportAlias) -> Optional[str]:
        path = mox_path(alias.evaluated_name)
        if path is None or self._report_missing(node, alias.evaluated_name, path):
            return None
        # ``import moxing.tensorflow`` binds ``moxing``; the new import binds
        # ``slim_ext`` and the uses are rewritten to full paths (moved_use).
        return path if alias.asname is not None else MOX_MODULE

    def stays(self, node: cst.ImportFrom, qualified: str, home: Optional[str]) -> bool:
        return super().stays(node, qualified, home) or self._report_missing(node, qualified,
                                                                            home or "")

    # --- uses: ``mox.run``, ``moxing.tensorflow.ModeKeys.TRAIN`` anywhere in an expression.

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        spelled = ".".join(parts)
        if self._report_missing(node, spelled, home):
            return False
        root, root_target = parts[0], self.target_of(parts[0]) or ""
        root_home = mox_path(root_target) or ""
        if root == root_target:
            # ``import moxing.tensorflow`` binds ``moxing``, which the import's
            # rewrite drops: spell the whole new path.
            text = home
        elif home.startswith(root_home):
            text = root + home[len(root_home):]
        else:
            return False
        if text != spelled:
            self.replace_chain(node, text)
            self.record_edit(node, f"{spelled} -> {text}")
        return False
