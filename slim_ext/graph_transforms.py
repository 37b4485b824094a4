"""Stand-in for ``tensorflow.tools.graph_transforms``, which TensorFlow 2 does not ship.

TF1's exporters (the Object Detection API's TFLite SSD export, for one) import
``TransformGraph`` from it to run the Graph Transform Tool on a frozen graph.
``slimport rewrite`` points that import here, so the module that has it still imports;
the call raises, naming what to use instead.
"""
from slim_ext.removed import removed_function

TransformGraph = removed_function(
    "tensorflow.tools.graph_transforms.TransformGraph",
    "the TFLite converter (tf.lite.TFLiteConverter, whose optimizations replace most "
    "graph transforms), or the transform_graph binary built from TensorFlow 1.15's "
    "sources for the rest")
