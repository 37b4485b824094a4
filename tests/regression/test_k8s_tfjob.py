"""examples/k8s/tfjob.yaml's five replicas, run as processes on this machine.

Each replica runs its container's command from the manifest with the TF_CONFIG
Kubeflow's operator would give it (tests/examples/_tfjob.py), all started
together as the operator starts them. What differs from a cluster: every
address is 127.0.0.1 with a free port instead of the replica's service name;
the image's paths (/app/ported, /data, /shared) are the ported tree, its data
and a temporary directory; --max_step and the evaluator's interval are smaller.
"""
from __future__ import annotations

import re
import sys
import time

import pytest

from tests._procs import ProcessSet, free_ports
from tests.examples import _tfjob
from tests.regression.test_port_and_train import global_step_of

pytestmark = [pytest.mark.regression, pytest.mark.tf, pytest.mark.cluster]

TARGET_STEPS = 60
JOB_TIMEOUT_SECS = 400


def test_tfjob_replicas_train_and_evaluate(ported_tree, tmp_path):
    tfjob = _tfjob.load_manifest()["TFJob"]
    specs = tfjob["spec"]["tfReplicaSpecs"]
    replicas = sorted(_tfjob.replicas(tfjob))
    ports = dict(zip(replicas, free_ports(len(replicas))))
    tf_configs = _tfjob.tf_configs(
        tfjob, lambda replica_type, index: f"127.0.0.1:{ports[replica_type, index]}")
    paths = {"/app/ported": str(ported_tree.ported), "/data": str(ported_tree.data),
             "/shared": str(tmp_path / "shared")}
    flag_values = {"--max_step": str(TARGET_STEPS)}
    with ProcessSet() as procs:
        started = {}
        for replica_type, index in replicas:
            argv = _tfjob.command(specs[replica_type], paths, {
                **flag_values,
                **({"--eval_interval_secs": "2"} if replica_type == "Evaluator" else {})})
            assert argv[0] == "python"
            name = f"{replica_type.lower()}{index}"
            started[name] = procs.start_python(
                argv[1:], tmp_path / f"{name}.log", name=name,
                env={"TF_CONFIG": tf_configs[replica_type, index],
                     "PYTHONPATH": ":".join(sys.path)})
        codes = procs.wait_all(list(started.values()),
                               time.monotonic() + JOB_TIMEOUT_SECS)
    logs = {name: proc.log() for name, proc in started.items()}
    assert codes == {name: 0 for name in started}, "\n".join(
        f"--- {name}:\n{log[-3000:]}" for name, log in logs.items())

    train_dir = tmp_path / "shared" / "train"
    assert global_step_of(train_dir) >= TARGET_STEPS
    for name, task in (("chief0", 0), ("worker0", 1), ("worker1", 2)):
        replica_type = name[:-1]
        assert (f"cluster: TF_CONFIG {replica_type} {name[-1]} is /job:worker/task:{task} "
                "of 3 workers, 1 ps") in logs[name], logs[name][-3000:]
    assert "cluster: ps 0 stops:" in logs["ps0"], logs["ps0"][-3000:]

    evaluator = logs["evaluator0"]
    assert "never joins the training cluster" in evaluator
    assert "grpc://" not in evaluator  # no server, no session on one
    assert re.search(rf"evaluator: step \d+ reached the target {TARGET_STEPS}; done\.",
                     evaluator), evaluator[-3000:]
    accuracy = float(re.findall(r"eval/Accuracy\[([0-9.]+)\]", evaluator)[-1])
    assert 0.0 <= accuracy <= 1.0
    assert list((tmp_path / "shared" / "eval").glob("events.out.tfevents.*"))
