"""Where TF1 code found its flags and ``app.run``, and where the port sends them.

From TF 1.5 on each flags module below was absl.flags re-exported
(tf.compat.v1.flags still is), and each app module's ``run`` a thin wrapper of
``absl.app.run``. A ported file reaches TF1's flags through ``TF1_FLAGS``
(``slim_ext.tf1_flags``: absl's flags with TF1's parse on first read and the
names libraries own taken over) and ``app.run`` through absl. Read by the
``flags_to_absl`` and entry-script codemods.
"""

TF_FLAG_MODULES = frozenset({
    "tensorflow.flags",
    "tensorflow.app.flags",
    "tensorflow.compat.v1.flags",
    "tensorflow.compat.v1.app.flags",
    "tensorflow.python.platform.flags",
})
TF_APP_MODULES = frozenset({
    "tensorflow.app",
    "tensorflow.compat.v1.app",
    "tensorflow.python.platform.app",
})
ABSL_FLAGS = "absl.flags"
ABSL_APP = "absl.app"
TF1_FLAGS = "slim_ext.tf1_flags"
FLAG_MODULES = TF_FLAG_MODULES | {ABSL_FLAGS, TF1_FLAGS}
APP_RUN = frozenset(f"{module}.run" for module in TF_APP_MODULES | {ABSL_APP})
