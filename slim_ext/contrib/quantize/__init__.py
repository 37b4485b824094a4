"""tensorflow.contrib.quantize: graph rewriting for fake quantization is gone.

The rewrites themselves (create_training_graph, create_eval_graph, and their
experimental_ variants) are stand-ins that raise RemovedInTF2Error when called;
the pure-Python pattern matcher the rewrites were built on, which other code
(e.g. the Object Detection API's exporter) imported, is re-implemented in
slim_ext.contrib.quantize.graph_matcher.
"""
from slim_ext.contrib import quantize_create_eval_graph as create_eval_graph
from slim_ext.contrib import quantize_create_training_graph as create_training_graph
from slim_ext.contrib.quantize import graph_matcher

experimental_create_training_graph = create_training_graph
experimental_create_eval_graph = create_eval_graph

__all__ = ["create_eval_graph", "create_training_graph", "experimental_create_eval_graph",
           "experimental_create_training_graph", "graph_matcher"]
