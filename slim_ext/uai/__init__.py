"""The UAI Train platform SDK's TensorFlow modules, on slim_ext.

Scripts written for the platform import two modules of its SDK
(``uaitrain.arch.tensorflow``), which was never published on PyPI: users
copied its folder into their tree, or did not. These modules stand in for
them, with the SDK's names and behaviour, so a ported script runs either way:

  ===================================  ============================
  SDK module                           here
  ===================================  ============================
  uaitrain.arch.tensorflow.uflag       slim_ext.uai.uflag
  uaitrain.arch.tensorflow.uai_dist    slim_ext.uai.uai_dist
  ===================================  ============================
"""
