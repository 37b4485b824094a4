"""The platform flag contract: what a training platform passes, what it fills.

Read by the ``uai_flags`` codemod and ``--map`` (``slimport``) and by
``slim_ext.uflag``, which defines the flags and copies them onto slim's.
"""

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
