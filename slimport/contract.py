"""Facts that both halves of slimport read: the rewrite (``slimport``) and the runtime
(``slim_ext``).

The rewrite must not import TensorFlow, and ``import slim_ext`` loads it; so what
the two sides share lives here, in plain Python with no imports: the platform flag
contract (which flags a training platform passes, and onto which slim flags they
map), the spellings of slim's replica flags, and the TF1 module paths through which
scripts reached flags and ``app.run``.
"""

# -- the platform flag contract ------------------------------------------------------
# (name, default, help) of the flags a training platform passes to every job. The
# defaults are the platform SDK's own, so code written against the SDK reads the
# same values; they never reach a slim flag (slim_ext.uflag.apply copies a platform
# flag only when it was given).
PLATFORM_STRING_FLAGS = (
    ("work_dir", "/data", "Platform: root directory of the job's files."),
    ("data_dir", "/data/data", "Platform: input data directory."),
    ("output_dir", "/data/output", "Platform: directory for checkpoints and summaries."),
    ("log_dir", "/data/output", "Platform: directory for logs."),
)
PLATFORM_INTEGER_FLAGS = (
    ("num_gpus", 0, "Platform: GPUs per task; 0 trains on the CPU."),
    ("max_step", 0, "Platform: number of steps to train; 0 means no limit."),
)
PLATFORM_FLAGS = tuple(name for name, _, _ in PLATFORM_STRING_FLAGS + PLATFORM_INTEGER_FLAGS)

# Platform flag -> the slim flag it fills, for a training and an evaluation script.
TRAIN_MAPPING = {
    "data_dir": "dataset_dir",
    "output_dir": "train_dir",
    "num_gpus": "num_clones",
    "max_step": "max_number_of_steps",
}
EVAL_MAPPING = {
    "data_dir": "dataset_dir",
    "output_dir": "checkpoint_path",
    "log_dir": "eval_dir",
}

# -- slim's between-graph replica flags ------------------------------------------------
# Spellings of the same flag across TF1-era training scripts built on model_deploy.
MASTER_FLAG = "master"
TASK_FLAGS = ("task", "task_id", "task_index")
REPLICAS_FLAGS = ("worker_replicas", "num_replicas")
PS_TASKS_FLAGS = ("num_ps_tasks", "ps_tasks")
# The MoXing-style cluster flags: (name, default, help); --task_index is an integer.
CLUSTER_STRING_FLAGS = (
    ("ps_hosts", "", "Comma-separated host:port list of the ps tasks."),
    ("worker_hosts", "", "Comma-separated host:port list of the workers; worker 0 is the chief."),
    ("job_name", "", "This task's job: 'ps' or 'worker'."),
)
CLUSTER_TASK_INDEX_FLAG = ("task_index", 0, "This task's index in its job.")

# -- where TF1 code found flags and app.run ----------------------------------------------
# From TF 1.5 on each of these was absl.flags re-exported (tf.compat.v1.flags still is).
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
FLAG_MODULES = TF_FLAG_MODULES | {ABSL_FLAGS}
APP_RUN = frozenset(f"{module}.run" for module in TF_APP_MODULES | {ABSL_APP})

# -- MoXing ---------------------------------------------------------------------------
# slim_ext's stand-in for ``moxing.tensorflow`` and what it provides of MoXing's API:
# the moxing codemod ports imports onto it and reports every other name it finds, and
# slim_ext/mox defines exactly these (tests/slim_ext/test_mox.py checks both ways).
MOX_MODULE = "slim_ext.mox"
MOX_NAMES = frozenset({
    "ModeKeys", "ModelSpec", "file", "get_flag", "get_optimizer_fn", "run", "set_flag",
})
MOX_FILE_NAMES = frozenset({
    "File", "append", "copy", "copy_parallel", "exists", "get_size", "glob",
    "is_directory", "list_directory", "make_dirs", "mk_dir", "read", "remove",
    "rename", "walk", "write",
})
