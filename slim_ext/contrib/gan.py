"""TF-GAN (tensorflow-gan 2.1.0), where tf.contrib.gan went, made to run here.

slimport rewrites ``tf.contrib.gan.<name>`` to ``tensorflow_gan.<name>``: the same
API (``gan_model``, ``gan_loss``, ``gan_train_ops``, ``gan_train``, ``losses``,
``eval``, ``features``, ``estimator.GANEstimator``, ...). Its last release needs two
things it does not find on current Python and TensorFlow:

- ``tf.estimator``, which it reads when imported: TensorFlow >= 2.16 has none until
  ``import slim_ext`` revives tensorflow-estimator 2.15 (slimport puts ``import
  slim_ext`` before a file's ``import tensorflow_gan``);
- ``inspect.getargspec``, which ``gan_loss``, the GAN estimators and the tuple
  losses call and Python 3.11 removed. ``install()`` (run by ``import slim_ext``)
  gives those modules of TF-GAN an ``inspect`` whose ``getargspec`` answers from
  ``getfullargspec`` (args, varargs, keywords, defaults, as the old function did),
  when they are imported; the standard library is left as it is, and nothing of
  TF-GAN is imported until the program imports it.

Install: ``pip install tensorflow-gan==2.1.0 tensorflow-hub 'setuptools<81'``
(tensorflow-hub, which TF-GAN imports, still imports ``pkg_resources``).
"""
import collections
import importlib.abc
import importlib.machinery
import inspect
import sys
import types
from typing import Any, Optional, Sequence

# TF-GAN's modules that call inspect.getargspec.
GETARGSPEC_USERS = (
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
  spec = inspect.getfullargspec(func)
  if spec.kwonlyargs or spec.annotations:
    raise ValueError("Function has keyword-only parameters or annotations, use "
                     "inspect.signature() API which can support them")
  return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def _inspect_with_getargspec() -> types.ModuleType:
  module = types.ModuleType("inspect", inspect.__doc__)
  module.__dict__.update(vars(inspect))
  module.getargspec = getargspec
  return module


_INSPECT = _inspect_with_getargspec()


def give_getargspec(module: types.ModuleType) -> None:
  """Makes ``module``'s ``inspect`` one that has ``getargspec``."""
  if getattr(module, "inspect", None) is inspect:
    module.inspect = _INSPECT


class _AfterImport(importlib.abc.MetaPathFinder):
  """Runs ``give_getargspec`` on each of ``names`` right after it is imported."""

  def __init__(self, names: Sequence[str]):
    self._names = frozenset(names)

  def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                target: Optional[types.ModuleType] = None):
    if fullname not in self._names:
      return None
    spec = importlib.machinery.PathFinder.find_spec(fullname, path)
    if spec is None or spec.loader is None:
      return None
    execute = spec.loader.exec_module

    def exec_module(module: types.ModuleType) -> None:
      execute(module)
      give_getargspec(module)

    spec.loader.exec_module = exec_module
    return spec


def install() -> bool:
  """Restores ``inspect.getargspec`` for TF-GAN's modules, now and when imported.

  Returns:
    True when it had something to do (Python >= 3.11); idempotent.
  """
  if hasattr(inspect, "getargspec"):
    return False
  for name in GETARGSPEC_USERS:
    if name in sys.modules:
      give_getargspec(sys.modules[name])
  if not any(isinstance(finder, _AfterImport) for finder in sys.meta_path):
    sys.meta_path.insert(0, _AfterImport(GETARGSPEC_USERS))
  return True
