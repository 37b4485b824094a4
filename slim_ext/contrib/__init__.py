"""tf.contrib pieces that have no home in TensorFlow 2: re-implementations and stand-ins.

``slimport rewrite`` points uses of removed contrib symbols and modules here, so a
ported file still imports (one missing feature should not break a whole training
tree). Where a small exact re-implementation is possible, the submodule mirroring
the contrib module has it (``MODULE_HOMES`` in ``slimport/tables/contrib_table.py``
maps each contrib module onto its mirror):

  tensorflow.contrib.image                     -> slim_ext.contrib.image
  tensorflow.contrib.quantize.python.graph_matcher
                                               -> slim_ext.contrib.quantize.graph_matcher
  tensorflow.contrib.learn.preprocessing       -> slim_ext.contrib.learn.preprocessing
  tensorflow.contrib.learn (RunConfig, Experiment, learn_runner, export strategies)
                                               -> slim_ext.contrib.learn
  tensorflow.contrib.training (HParams)        -> slim_ext.contrib.training
  tensorflow.contrib.tfprof                    -> slim_ext.contrib.tfprof
  tensorflow.contrib.framework (deprecated)    -> slim_ext.contrib.framework
  tensorflow.contrib.lookup (HashTable, the *_from_tensor tables)
                                               -> slim_ext.contrib.lookup
  tensorflow.contrib.nn (deprecated_flipped_*) -> slim_ext.contrib.nn
  tensorflow.contrib.gan.eval (the frozen-graph helpers TF-GAN dropped)
                                               -> slim_ext.contrib.gan_eval
  tensorflow.contrib.rnn (the cells core TF lacks) -> slim_ext.contrib.rnn
  tensorflow.contrib.cudnn_rnn (compatible cells)  -> slim_ext.contrib.cudnn_rnn
  tensorflow.contrib.legacy_seq2seq                -> slim_ext.contrib.legacy_seq2seq
  tensorflow.contrib.seq2seq (the decoding loop, Bahdanau / Luong attention, beam search)
                                                   -> slim_ext.contrib.seq2seq
  tensorflow.contrib.crf (the linear-chain CRF)    -> slim_ext.contrib.crf

tf.contrib.distributions / bayesflow and tf.contrib.gan have maintained successors
and go there: tensorflow-probability directly, tensorflow-gan through
``slim_ext.contrib.gan`` (TF-GAN's own objects, with the tf.estimator and
``inspect.getargspec`` its last release needs here).

The rest are stand-ins: they import fine and raise RemovedInTF2Error, naming what
is gone and what to use, only when called. This module itself does not import
TensorFlow; its submodules are loaded on first use, so ``import slim_ext.contrib``
followed by ``slim_ext.contrib.image.rotate(...)`` works (the codemod writes such
attribute chains) without loading what a file does not use.

Example:
  from slim_ext.contrib import quantize
  quantize.create_training_graph()   # raises RemovedInTF2Error
"""
from __future__ import annotations

import importlib
from typing import Any

_SUBMODULES = ("attention_wrapper", "beam_search_decoder", "crf", "cudnn_rnn", "framework", "gan",
               "gan_eval", "image", "learn", "legacy_seq2seq", "lookup", "nn", "quantize", "rnn",
               "seq2seq", "tfprof", "training")
# Earlier ports wrote the quantize stand-ins as slim_ext.contrib.quantize_<name>.
_EARLIER_QUANTIZE_NAMES = ("quantize_create_training_graph", "quantize_create_eval_graph")
# Earlier ports wrote stand-ins for Experiment-based launching under these names;
# they are tf.contrib.learn's Experiment and learn_runner.run now.
_EARLIER_LEARN_NAMES = {"Experiment": "experiment.Experiment",
                        "learn_runner_run": "learn_runner.run"}
# Ported code (and earlier ports) catch RemovedInTF2Error from here; slim_ext.removed
# defines it (imported on first use: this module itself imports nothing).
_FROM_REMOVED = ("RemovedInTF2Error", "removed_function")


def __getattr__(name: str) -> Any:
  if name in _FROM_REMOVED:
    return getattr(importlib.import_module("slim_ext.removed"), name)
  if name in _SUBMODULES:
    return importlib.import_module(f"{__name__}.{name}")
  if name in _EARLIER_QUANTIZE_NAMES:
    quantize = importlib.import_module(f"{__name__}.quantize")
    return getattr(quantize, name[len("quantize_"):])
  if name in _EARLIER_LEARN_NAMES:
    module, attribute = _EARLIER_LEARN_NAMES[name].split(".")
    return getattr(importlib.import_module(f"{__name__}.learn.{module}"), attribute)
  if name == "HParams":
    # Earlier ports named the stand-in slim_ext.contrib.HParams; it is real now.
    from slim_ext.hparams import HParams  # pylint: disable=g-import-not-at-top
    return HParams
  raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list:
  return sorted(list(globals()) + list(_SUBMODULES) + list(_EARLIER_QUANTIZE_NAMES)
                + list(_FROM_REMOVED) + list(_EARLIER_LEARN_NAMES) + ["HParams"])
