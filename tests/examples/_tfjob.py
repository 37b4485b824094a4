"""examples/k8s/tfjob.yaml, and the TF_CONFIG Kubeflow's operator gives each replica.

Written from the training-operator's code (pkg/controller.v1/tensorflow,
``genClusterSpec``, ``genTFConfigJSONStr``, ``GetPortFromTFJob``):

* every replica type becomes a lowercase job; replica i of type T of TFJob J in
  namespace N is ``J-t-i.N.svc`` (plus ``.$CUSTOM_CLUSTER_DOMAIN`` when set) at
  the port named ``tfjob-port`` of the container named ``tensorflow``, 2222
  when there is none;
* current operators list the evaluator in the cluster, older ones (tf-operator)
  left it out;
* TF_CONFIG is ``{"cluster": ..., "task": {"type": t, "index": i},
  "environment": "cloud"}``, as Go's encoding/json writes it (compact, map keys
  sorted).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import yaml

MANIFEST = Path(__file__).resolve().parents[2] / "examples" / "k8s" / "tfjob.yaml"
CONTAINER_NAME = "tensorflow"
PORT_NAME = "tfjob-port"
DEFAULT_PORT = 2222
EVALUATOR = "Evaluator"

# (replica type, replica index) -> "host:port"
AddressFn = Callable[[str, int], str]


def load_manifest(path: Path = MANIFEST) -> Dict[str, dict]:
    """The manifest's objects by kind (TFJob, PersistentVolumeClaim)."""
    with open(path) as manifest:
        return {doc["kind"]: doc for doc in yaml.safe_load_all(manifest)}


def container(replica_spec: dict) -> dict:
    """The replica's ``tensorflow`` container."""
    containers = replica_spec["template"]["spec"]["containers"]
    return next(c for c in containers if c["name"] == CONTAINER_NAME)


def port(replica_spec: dict) -> int:
    for container_port in container(replica_spec).get("ports", ()):
        if container_port.get("name") == PORT_NAME:
            return container_port["containerPort"]
    return DEFAULT_PORT


def replicas(tfjob: dict) -> Iterator[Tuple[str, int]]:
    """Every (replica type, index) of the job."""
    for replica_type, spec in tfjob["spec"]["tfReplicaSpecs"].items():
        for index in range(spec.get("replicas", 1)):
            yield replica_type, index


def service_address(tfjob: dict, namespace: str,
                    cluster_domain: str = "") -> AddressFn:
    """The operator's address of each replica: its headless service."""
    specs = tfjob["spec"]["tfReplicaSpecs"]

    def address(replica_type: str, index: int) -> str:
        host = f"{tfjob['metadata']['name']}-{replica_type.lower()}-{index}.{namespace}.svc"
        if cluster_domain:
            host += f".{cluster_domain}"
        return f"{host}:{port(specs[replica_type])}"

    return address


def tf_configs(tfjob: dict, address: AddressFn,
               evaluator_in_cluster: bool = True) -> Dict[Tuple[str, int], str]:
    """The TF_CONFIG of every replica, by (replica type, index)."""
    cluster: Dict[str, List[str]] = {}
    for replica_type, index in replicas(tfjob):
        if replica_type == EVALUATOR and not evaluator_in_cluster:
            continue
        cluster.setdefault(replica_type.lower(), []).append(address(replica_type, index))
    return {
        (replica_type, index): json.dumps(
            {"cluster": dict(sorted(cluster.items())),
             "task": {"type": replica_type.lower(), "index": index},
             "environment": "cloud"},
            separators=(",", ":"))
        for replica_type, index in replicas(tfjob)
    }


def command(replica_spec: dict, paths: Optional[Dict[str, str]] = None,
            flag_values: Optional[Dict[str, str]] = None) -> List[str]:
    """The container's command + args, made to run on this machine.

    Args:
      replica_spec: one of the TFJob's tfReplicaSpecs.
      paths: path prefix in the image -> local path (e.g. "/shared" -> a
        temporary directory); arguments starting with a prefix get it replaced.
      flag_values: flag -> value to use instead of the manifest's (the argument
        after the flag).
    """
    spec = container(replica_spec)
    argv = [*spec.get("command", ()), *spec.get("args", ())]
    for old, new in (paths or {}).items():
        argv = [new + arg[len(old):] if arg.startswith(old) else arg for arg in argv]
    for flag, value in (flag_values or {}).items():
        argv[argv.index(flag) + 1] = value
    return argv
