"""The codemods, in the order the engine runs them.

Adding a codemod = adding one file in this package and one line in CODEMODS. A new
codemod sees whole files until it defines ``statement_filter`` (see ``_base``); then
add its inputs to tests/slimport/test_skeleton.py, which checks that skeleton and
whole-file passes agree.
Order matters: contrib and flags rewrites resolve names through ``tensorflow``
bindings, and compat_v1 runs last so it sees which TensorFlow uses remain.
tf0_names runs before contrib_symbols, which would otherwise take
``tf.contrib.deprecated.scalar_summary`` by name alone, without porting its
arguments; slim_ext_import runs after every codemod that adds a tf_slim or slim_ext
import (contrib_slim, contrib_symbols, moved_modules, sdk_imports, uai_flags,
cluster_bootstrap, own_server, moxing), so that it adds ``import slim_ext`` only where
none came before; legacy_keras and train_and_evaluate run before it for the same reason
(each may add a slim_ext import);
estimator_ps_strategy runs before train_and_evaluate (which rewrites an Estimator use it
looks for) and before compat_v1, which collapses the ``tf.compat.v1.X`` it writes in a
file compat_v1 switches to compat.v1.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Type

from slimport.codemods._base import SlimportCodemod
from slimport.codemods._findings import Finding
from slimport.codemods.compat_v1 import CompatV1Command
from slimport.codemods.contrib_slim import ContribSlimCommand
from slimport.codemods.contrib_symbols import ContribSymbolsCommand
from slimport.codemods.cluster_bootstrap import ClusterBootstrapCommand
from slimport.codemods.estimator_ps_strategy import EstimatorPsStrategyCommand
from slimport.codemods.flags_to_absl import FlagsToAbslCommand
from slimport.codemods.legacy_keras import LegacyKerasCommand
from slimport.codemods.moved_modules import MovedModulesCommand
from slimport.codemods.moxing import MoxingCommand
from slimport.codemods.numpy_aliases import NumpyAliasesCommand
from slimport.codemods.own_server import OwnServerCommand
from slimport.codemods.pandas_as_matrix import PandasAsMatrixCommand
from slimport.codemods.py2_leftovers import Py2LeftoversCommand
from slimport.codemods.py2_lists import Py2ListsCommand
from slimport.codemods.removed_stdlib import RemovedStdlibCommand
from slimport.codemods.replica_device import ReplicaDeviceCommand
from slimport.codemods.sdk_imports import SdkImportsCommand
from slimport.codemods.slim_ext_import import SlimExtImportCommand
from slimport.codemods.tf0_names import Tf0NamesCommand
from slimport.codemods.train_and_evaluate import TrainAndEvaluateCommand
from slimport.codemods.uai_flags import UaiFlagsCommand

CODEMODS: List[Type[SlimportCodemod]] = [
    ContribSlimCommand,
    Tf0NamesCommand,
    ContribSymbolsCommand,
    MoxingCommand,
    MovedModulesCommand,
    SdkImportsCommand,
    FlagsToAbslCommand,
    UaiFlagsCommand,
    ClusterBootstrapCommand,
    OwnServerCommand,
    ReplicaDeviceCommand,
    Py2LeftoversCommand,
    Py2ListsCommand,
    RemovedStdlibCommand,
    NumpyAliasesCommand,
    PandasAsMatrixCommand,
    LegacyKerasCommand,
    EstimatorPsStrategyCommand,
    TrainAndEvaluateCommand,
    SlimExtImportCommand,
    CompatV1Command,
]

BY_NAME: Dict[str, Type[SlimportCodemod]] = {command.NAME: command for command in CODEMODS}


def select(only: Iterable[str] = (), skip: Iterable[str] = ()) -> List[Type[SlimportCodemod]]:
    """The registered codemods, in order, restricted by ``only`` and ``skip`` names.

    Args:
      only: names to run (empty: all).
      skip: names not to run.

    Returns:
      The codemod classes, in registry order.

    Raises:
      ValueError: a name that is not a registered codemod (the message lists them).
    """
    only, skip = list(only), list(skip)
    unknown = [name for name in [*only, *skip] if name not in BY_NAME]
    if unknown:
        raise ValueError(
            f"unknown codemod {', '.join(unknown)}; known: {', '.join(BY_NAME)}"
        )
    return [c for c in CODEMODS if (not only or c.NAME in only) and c.NAME not in skip]


__all__ = ["CODEMODS", "BY_NAME", "Finding", "SlimportCodemod", "select"]
