"""tf.contrib.rnn on TensorFlow 2: its core names, and stand-ins for the rest.

TF1's ``tf.contrib.rnn`` re-exported the core cells (``BasicLSTMCell``,
``MultiRNNCell``, ``DropoutWrapper``, ``static_rnn``, ...): those are
``tf.compat.v1.nn.rnn_cell`` / ``tf.compat.v1.nn`` names today, and slimport
rewrites them there. The cells and functions that lived only in contrib have no
TensorFlow 2 home; the ones TF1 code used are written here on tf.compat.v1, with
TF1's equations and variable names, so TF1 checkpoints restore into the ported
graph (tests/slim_ext/test_contrib_rnn.py restores one written by TF 1.15):

  LSTMBlockCell, LSTMBlockFusedCell, LSTMBlockWrapper          (lstm_ops)
  GRUBlockCell, GRUBlockCellV2                                 (gru_ops)
  LayerNormBasicLSTMCell, LayerNormLSTMCell, NASCell, UGRNNCell,
  CoupledInputForgetGateLSTMCell, AttentionCellWrapper, HighwayWrapper (rnn_cell)
  EmbeddingWrapper, InputProjectionWrapper, OutputProjectionWrapper    (core_rnn_cell)
  FusedRNNCell, FusedRNNCellAdaptor, TimeReversedFusedRNN              (fused_rnn_cell)
  stack_bidirectional_rnn, stack_bidirectional_dynamic_rnn,
  transpose_batch_time, best_effort_input_batch_size                   (rnn)

This package is also what ``tf.contrib.rnn`` used as a value becomes
(``rnn = tf.contrib.rnn``; ``from tensorflow.contrib import rnn``): every name of
both kinds is an attribute here, loaded on first use. The convolutional, grid,
phased, time-frequency, SRU and IndRNN cells are not here: the rewrite reports
each use with what to use instead.
"""
import importlib
from typing import Any

# name -> the submodule that defines it.
_STAND_INS = {
    **dict.fromkeys(["LSTMBlockCell", "LSTMBlockFusedCell", "LSTMBlockWrapper"], "lstm_ops"),
    **dict.fromkeys(["GRUBlockCell", "GRUBlockCellV2"], "gru_ops"),
    **dict.fromkeys(["AttentionCellWrapper", "CoupledInputForgetGateLSTMCell",
                     "HighwayWrapper", "LayerNormBasicLSTMCell", "LayerNormLSTMCell",
                     "NASCell", "UGRNNCell"], "rnn_cell"),
    **dict.fromkeys(["EmbeddingWrapper", "InputProjectionWrapper",
                     "OutputProjectionWrapper"], "core_rnn_cell"),
    **dict.fromkeys(["FusedRNNCell", "FusedRNNCellAdaptor", "TimeReversedFusedRNN"],
                    "fused_rnn_cell"),
    **dict.fromkeys(["stack_bidirectional_rnn", "stack_bidirectional_dynamic_rnn",
                     "transpose_batch_time", "best_effort_input_batch_size"], "rnn"),
    "LayerRNNCell": "_cell_parts",
}
# TF1's contrib.rnn names that are core cells (tf.compat.v1.nn.rnn_cell) or core
# functions (tf.compat.v1.nn).
_CORE_CELLS = ("BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper",
               "GRUCell", "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "RNNCell",
               "ResidualWrapper")
_CORE_FUNCTIONS = ("static_bidirectional_rnn", "static_rnn", "static_state_saving_rnn")
_SUBMODULES = ("core_rnn_cell", "fused_rnn_cell", "gru_ops", "lstm_ops", "rnn", "rnn_cell")


def __getattr__(name: str) -> Any:
  if name in _STAND_INS:
    return getattr(importlib.import_module(f"{__name__}.{_STAND_INS[name]}"), name)
  if name in _SUBMODULES:
    return importlib.import_module(f"{__name__}.{name}")
  if name in _CORE_CELLS or name in _CORE_FUNCTIONS:
    import slim_ext  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
    import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
    return getattr(tf.nn.rnn_cell if name in _CORE_CELLS else tf.nn, name)
  raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list:
  return sorted([*globals(), *_STAND_INS, *_CORE_CELLS, *_CORE_FUNCTIONS, *_SUBMODULES])
