"""Facts that the porting tool (``slimport``) and the runtime (``slim_ext``) share.

The rewrite must not import TensorFlow, and ``import slim_ext`` loads it; the
runtime must not import the tool (ported code runs without it). So what both sides
read lives here, below both: plain data and tiny pure functions, standard library
only, nothing imported at all (tests/tools/test_import_graph.py checks both rules).

Modules:
  platform_flags  the flags a training platform passes to every job, and the slim
                  flags they fill in training and evaluation scripts
  cluster_flags   slim's between-graph replica flags in their spellings, and the
                  MoXing-style cluster flags
  tf1_modules     the TF1 module paths scripts reached flags and ``app.run`` through,
                  and where the port sends them
  moxing          what ``slim_ext.mox`` provides of MoXing's API
  platform_sdk    the platform SDK's modules scripts import, and slim_ext's stand-ins
  requirements    what ported code needs installed, and the pip line installing it
  keras_route     the tf_keras modules the Keras route makes tf.keras
"""
