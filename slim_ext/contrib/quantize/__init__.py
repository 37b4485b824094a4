"""tensorflow.contrib.quantize: graph rewriting for fake quantization is gone.

The rewrites themselves (create_training_graph, create_eval_graph, and their
experimental_ variants) are stand-ins that raise RemovedInTF2Error, naming the one
called, when called; ``slimport rewrite`` writes ``tf.contrib.quantize.<name>`` as
``slim_ext.contrib.quantize.<name>`` and ``tf.contrib.quantize`` used as a value as this
module, so a test's ``mock.patch.object(tf.contrib.quantize, 'create_training_graph')``
patches what the ported calls call. The pure-Python pattern matcher the rewrites were
built on, which other code (e.g. the Object Detection API's exporter) imported, is
re-implemented in slim_ext.contrib.quantize.graph_matcher.
"""
from slim_ext.removed import removed_function
from slim_ext.contrib.quantize import graph_matcher

_QAT = (
    "quantization-aware training from tensorflow-model-optimization "
    "(tfmot.quantization.keras.quantize_model) on a Keras model"
)

create_training_graph = removed_function("tf.contrib.quantize.create_training_graph", _QAT)
create_eval_graph = removed_function("tf.contrib.quantize.create_eval_graph", _QAT)
experimental_create_training_graph = removed_function(
    "tf.contrib.quantize.experimental_create_training_graph", _QAT)
experimental_create_eval_graph = removed_function(
    "tf.contrib.quantize.experimental_create_eval_graph", _QAT)

__all__ = ["create_eval_graph", "create_training_graph", "experimental_create_eval_graph",
           "experimental_create_training_graph", "graph_matcher"]
