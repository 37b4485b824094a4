"""``uaitrain.arch.tensorflow.uflag``: importing it defines the platform's flags.

The SDK's module defined, with ``tf.app.flags`` and nothing else, the flags
the platform starts every job with; scripts import it for that and read the
values from ``FLAGS``::

  --work_dir    /data          --data_dir    /data/data
  --output_dir  /data/output   --log_dir     /data/output
  --num_gpus    0

The contract lives in ``slim_ext.uflag`` (one definition, the SDK's
defaults), which this module imports. Like the SDK's later versions it also
defines ``--max_step`` (default 0). ``--log_dir`` is the platform's flag, not
absl.logging's (see ``slim_ext.tf1_flags``).

Attributes:
  flags: the SDK module's ``flags = tf.app.flags``, as TF1 had it
    (``slim_ext.tf1_flags``).
  FLAGS: the parsed flags (``flags.FLAGS``).
"""
from slim_ext import tf1_flags as flags
from slim_ext import uflag  # noqa: F401  (imported to define the flags)

FLAGS = flags.FLAGS
