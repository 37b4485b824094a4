"""tf.contrib.gan on TensorFlow 2: TF-GAN (tensorflow-gan 2.1.0), made to run here.

TF-GAN is where tf.contrib.gan went, with the same API (``gan_model``,
``gan_loss``, ``gan_train_ops``, ``gan_train``, ``losses``, ``eval``, ``features``,
``estimator.GANEstimator``, ...). Its last release needs two things it does not
find on current Python and TensorFlow:

- ``tf.estimator``, which it reads when imported: TensorFlow >= 2.16 has none
  until ``import slim_ext`` revives tensorflow-estimator 2.15;
- ``inspect.getargspec``, which ``gan_loss``, the GAN estimators and the tuple
  losses call and Python 3.11 removed: their modules get an ``inspect`` whose
  ``getargspec`` answers from ``getfullargspec`` (args, varargs, keywords,
  defaults, as the old function did); the standard library is left as it is.

slimport rewrites ``tf.contrib.gan.<name>`` to ``slim_ext.contrib.gan.<name>``:
every attribute here is TF-GAN's own object (``slim_ext.contrib.gan.losses`` is
``tensorflow_gan.losses``). TF-GAN and TensorFlow Probability are imported when
this module is first used, so a tree that does not use them does not load them.
Install: ``pip install tensorflow-gan==2.1.0 tensorflow-hub 'setuptools<81'``
(tensorflow-hub, which TF-GAN imports, still imports ``pkg_resources``).
"""
import collections
import importlib
import inspect as _inspect
import types
from typing import Any

import slim_ext  # noqa: F401  (revives tf.estimator, which tensorflow_gan reads at import)

# TF-GAN's modules that call inspect.getargspec.
_GETARGSPEC_USERS = (
    "tensorflow_gan.python.train",
    "tensorflow_gan.python.losses.tuple_losses",
    "tensorflow_gan.python.estimator.gan_estimator",
    "tensorflow_gan.python.estimator.stargan_estimator",
    "tensorflow_gan.python.estimator.tpu_gan_estimator",
)
ArgSpec = collections.namedtuple("ArgSpec", ["args", "varargs", "keywords", "defaults"])


def getargspec(func: Any) -> ArgSpec:
  """Python 3.10's ``inspect.getargspec``, from ``getfullargspec``.

  Raises:
    ValueError: ``func`` has keyword-only arguments or annotations, as the old
      function did.
  """
  spec = _inspect.getfullargspec(func)
  if spec.kwonlyargs or spec.annotations:
    raise ValueError("Function has keyword-only parameters or annotations, use "
                     "inspect.signature() API which can support them")
  return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def _with_getargspec() -> types.ModuleType:
  """A stand-in for the ``inspect`` module with ``getargspec`` restored."""
  module = types.ModuleType("inspect", _inspect.__doc__)
  module.__dict__.update(vars(_inspect))
  module.getargspec = getargspec
  return module


def _load() -> types.ModuleType:
  tfgan = importlib.import_module("tensorflow_gan")
  if not hasattr(_inspect, "getargspec"):
    patched = _with_getargspec()
    for name in _GETARGSPEC_USERS:
      user = importlib.import_module(name)
      if getattr(user, "inspect", None) is _inspect:
        user.inspect = patched
  return tfgan


def __getattr__(name: str) -> Any:
  value = getattr(_load(), name)
  globals()[name] = value  # TF-GAN's own object, looked up once
  return value


def __dir__() -> list:
  return sorted(set(globals()) | set(dir(_load())))
