"""The flags that place a task in a cluster, as TF1-era training scripts spell them.

Read by the ``cluster_bootstrap`` codemod (which scripts get ``cluster.bootstrap``)
and by ``slim_ext.cluster`` / ``slim_ext.runner`` (which flags to fill and define).
"""

# slim's between-graph replica flags: spellings of the same flag across training
# scripts built on model_deploy.
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
