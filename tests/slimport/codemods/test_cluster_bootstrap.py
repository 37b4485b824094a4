"""cluster_bootstrap: its place after uai_flags' uflag.apply in main (cases/cluster_bootstrap.py
has the before/after, no-op and reported cases)."""
from __future__ import annotations

from slimport.codemods.cluster_bootstrap import ClusterBootstrapCommand
from slimport.codemods.uai_flags import UaiFlagsCommand
from tests.slimport.codemods._helpers import run_codemod
from tests.slimport.codemods.cases.cluster_bootstrap import TRAIN_SCRIPT


def test_after_uai_flags_in_registry_order() -> None:
    with_uflag, _ = run_codemod(UaiFlagsCommand, TRAIN_SCRIPT)
    code, _ = run_codemod(ClusterBootstrapCommand, with_uflag)
    body = code.split("def main(_):\n")[1].splitlines()
    assert body[0] == '  """Trains."""'
    assert body[1] == "  uflag.apply(FLAGS, {"
    assert body[4] == "  cluster.bootstrap(FLAGS)"
    assert body[5] == "  if not FLAGS.train_dir:"
    assert "from slim_ext import cluster, uflag" in code
