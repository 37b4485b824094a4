"""What ported code needs installed, as pip requirements, and the line that installs it.

slimport is not on a package index: a user has a clone of its repository (``pip
install '.[tf]'`` there) or a wheel built from one. A message naming slimport itself
as the requirement would send them to an index that does not have it, so the tool
and the runtime name the requirements themselves. ``TF_EXTRA`` is the ``tf`` extra of
pyproject.toml: the runtime ported code needs (``RUNTIME``, what the runtime's messages
name) and the protoc the rewrite regenerates stale ``*_pb2.py`` with (``PROTOC``, also
the ``protos`` extra), so that the one install line ports and runs everything
(tests/slimport/test_install.py keeps them equal and resolves the line against the
package index).
"""
from typing import Sequence

# The ``tf`` extra: TensorFlow 2.15-2.21 with the matching tf-keras, tf-slim 1.1.0,
# absl, and the last tensorflow-estimator (pure Python; slim_ext revives it on 2.16+).
RUNTIME = (
    "tensorflow>=2.15,<2.22",
    "tf-keras>=2.15,<2.22",
    "tf-slim==1.1.0",
    "absl-py>=1.0",
    "tensorflow-estimator==2.15.*",
)
# grpcio-tools' protoc (slimport/engine/protos.py). 1.62 is the last that takes
# protobuf < 5, which TensorFlow 2.15 and 2.16 pin; newer TensorFlow resolves to a newer
# one (TF 2.21: 1.85). About 8 MB installed, with wheels for Python 3.10-3.13.
PROTOC = ("grpcio-tools>=1.62",)
TF_EXTRA = RUNTIME + PROTOC
# The maintained successors of tf.contrib modules: the ``probability`` and ``gan`` extras
# of pyproject.toml, named in the rewrite's report where a file starts to use them.
PROBABILITY = ("tensorflow-probability[tf]>=0.23,<0.26",)
GAN = (*PROBABILITY, "tensorflow-gan==2.1.0", "tensorflow-hub", "setuptools<81")
# tf.contrib.tensorboard.plugins.projector's: the ``tensorboard`` extra (TensorFlow 2.15
# installs TensorBoard itself; 2.21 no longer does).
TENSORBOARD = ("tensorboard>=2.15",)
# The package a ported file imports -> what installs it.
SUCCESSORS = {"tensorflow_probability": PROBABILITY, "tensorflow_gan": GAN,
              "tensorboard": TENSORBOARD}
# Characters a POSIX shell would read in an unquoted requirement.
_SHELL_SPECIAL = set("<>*[]() ;&|$")


def pip_install_line(requirements: Sequence[str] = RUNTIME) -> str:
    """``pip install ...`` for ``requirements``, quoted for a POSIX shell.

    Args:
      requirements: pip requirement strings.

    Returns:
      The command line, e.g. ``pip install 'tensorflow>=2.15,<2.22' tf-slim==1.1.0``.
    """
    return "pip install " + " ".join(
        f"'{requirement}'" if _SHELL_SPECIAL & set(requirement) else requirement
        for requirement in requirements)
