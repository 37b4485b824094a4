"""slim_ext: the runtime that lets ported TF-Slim code run on TensorFlow 2.15-2.21.

Importing it applies the compat shims tf_slim 1.1.0 needs on current TensorFlow
(see slim_ext.compat), on TF >= 2.16 the ones that revive tf.estimator from
tensorflow-estimator 2.15 (slim_ext.estimator.shims), and on Python >= 3.11 gives
TF-GAN's modules the ``inspect.getargspec`` they call when they are imported
(slim_ext.contrib.gan); it makes ``Dimension`` take an integral float (``16.0``)
as TF 1.15 did (slim_ext.dimension), and gives protobuf 7's field descriptors the
``label`` TF's own assertProtoEquals reads (slim_ext.field_labels), and answers ``==``
between graph tensors as fast as TF1 did (slim_ext.graph_equality); everything else is
imported explicitly by callers: ``from slim_ext import uflag, cluster, model_deploy``.
"""
from slim_ext import compat as _compat
from slim_ext import dimension as _dimension
from slim_ext import field_labels as _field_labels
from slim_ext import graph_equality as _graph_equality
from slim_ext.contrib import gan as _gan
from slim_ext.estimator import shims as _estimator_shims

APPLIED_SHIMS = _compat.apply() + _estimator_shims.apply()
_gan.install()
_dimension.install()
_field_labels.install()
_graph_equality.install()

# slim_ext.run, ModelSpec and ModeKeys load tf_slim and define flags, so they
# are imported on first use rather than with the package. (The module is
# slim_ext.runner, not slim_ext.run: a submodule named `run` would shadow the
# function once imported.)
_RUNNER_NAMES = ("run", "ModelSpec", "ModeKeys")


def __getattr__(name: str):
  if name in _RUNNER_NAMES:
    from slim_ext import runner

    return getattr(runner, name)
  raise AttributeError(f"module 'slim_ext' has no attribute {name!r}")
