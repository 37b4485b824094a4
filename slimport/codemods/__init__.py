"""The codemods, in the order the engine runs them.

Adding a codemod = adding one file in this package and one line in CODEMODS. Each
codemod declares the codemods that must run before it (``RUNS_AFTER``, with the reason
beside it) and the facts about the whole tree it reads (``TREE_FACTS``); at import,
``check_registry`` refuses a registry whose order breaks a declaration, a declaration
naming no registered codemod, a cycle, or two facts of one name. A new codemod sees
whole files until it defines ``statement_filter`` (see ``base``); then add its inputs to
tests/slimport/test_skeleton.py, which checks that skeleton and whole-file passes agree.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Set, Type

from slimport.codemods.base import SlimportCodemod
from slimport.analysis.findings import Finding
from slimport.codemods.tree_facts import TreeFact
from slimport.codemods.compat_v1 import CompatV1Command
from slimport.codemods.contrib_slim import ContribSlimCommand
from slimport.codemods.contrib_symbols import ContribSymbolsCommand
from slimport.codemods.device_spec import DeviceSpecCommand
from slimport.codemods.binary_file_modes import BinaryFileModesCommand
from slimport.codemods.cluster_bootstrap import ClusterBootstrapCommand
from slimport.codemods.dataset_map_threads import DatasetMapThreadsCommand
from slimport.codemods.estimator_ps_strategy import EstimatorPsStrategyCommand
from slimport.codemods.flags_to_absl import FlagsToAbslCommand
from slimport.codemods.fractions_gcd import FractionsGcdCommand
from slimport.codemods.implicit_relative_imports import ImplicitRelativeImportsCommand
from slimport.codemods.late_collective_strategy import LateCollectiveStrategyCommand
from slimport.codemods.leaky_relu_alpha import LeakyReluAlphaCommand
from slimport.codemods.legacy_keras import LegacyKerasCommand
from slimport.codemods.librosa_keywords import LibrosaKeywordsCommand
from slimport.codemods.librosa_output import LibrosaOutputCommand
from slimport.codemods.matplotlib_api import MatplotlibApiCommand
from slimport.codemods.moved_modules import MovedModulesCommand
from slimport.codemods.moxing import MoxingCommand
from slimport.codemods.numpy_aliases import NumpyAliasesCommand
from slimport.codemods.numpy1_ragged import Numpy1RaggedCommand
from slimport.codemods.numpy1_scalars import Numpy1ScalarsCommand
from slimport.codemods.numpy_float_counts import NumpyFloatCountsCommand
from slimport.codemods.numpy_slice_lists import NumpySliceListsCommand
from slimport.codemods.numpy_stack_generators import NumpyStackGeneratorsCommand
from slimport.codemods.op_type_names import OpTypeNamesCommand
from slimport.codemods.own_server import OwnServerCommand
from slimport.codemods.pandas_as_matrix import PandasAsMatrixCommand
from slimport.codemods.pillow_api import PillowApiCommand
from slimport.codemods.protobuf_bytes_joins import ProtobufBytesJoinsCommand
from slimport.codemods.protobuf_bytes_strs import ProtobufBytesStrsCommand
from slimport.codemods.protobuf_int64_bools import ProtobufInt64BoolsCommand
from slimport.codemods.py2_division import Py2DivisionCommand
from slimport.codemods.py2_json_bytes import Py2JsonBytesCommand
from slimport.codemods.py2_leftovers import Py2LeftoversCommand
from slimport.codemods.py2_lists import Py2ListsCommand
from slimport.codemods.py2_methods import Py2MethodsCommand
from slimport.codemods.py2_modules import Py2ModulesCommand
from slimport.codemods.py2_native_strs import Py2NativeStrsCommand
from slimport.codemods.py2_ordering import Py2OrderingCommand
from slimport.codemods.py2_str_equality import Py2StrEqualityCommand
from slimport.codemods.removed_stdlib import RemovedStdlibCommand
from slimport.codemods.replica_device import ReplicaDeviceCommand
from slimport.codemods.scipy_misc import ScipyMiscCommand
from slimport.codemods.sdk_imports import SdkImportsCommand
from slimport.codemods.slim_ext_import import SlimExtImportCommand
from slimport.codemods.symbolic_constant_errors import SymbolicConstantErrorsCommand
from slimport.codemods.tensor_private_shape import TensorPrivateShapeCommand
from slimport.codemods.structured_array_asserts import StructuredArrayAssertsCommand
from slimport.codemods.test_case_asserts import TestCaseAssertsCommand
from slimport.codemods.tf0_names import Tf0NamesCommand
from slimport.codemods.tf1_registries import Tf1RegistriesCommand
from slimport.codemods.tf_internals import TfInternalsCommand
from slimport.codemods.train_and_evaluate import TrainAndEvaluateCommand
from slimport.codemods.uai_flags import UaiFlagsCommand

CODEMODS: List[Type[SlimportCodemod]] = [
    ContribSlimCommand,
    Tf0NamesCommand,
    ContribSymbolsCommand,
    DatasetMapThreadsCommand,
    MoxingCommand,
    MovedModulesCommand,
    SdkImportsCommand,
    FlagsToAbslCommand,
    UaiFlagsCommand,
    ClusterBootstrapCommand,
    OwnServerCommand,
    ReplicaDeviceCommand,
    DeviceSpecCommand,
    Py2LeftoversCommand,
    Py2ModulesCommand,
    Py2MethodsCommand,
    Py2ListsCommand,
    Py2OrderingCommand,
    Py2DivisionCommand,
    BinaryFileModesCommand,
    RemovedStdlibCommand,
    Py2JsonBytesCommand,
    ImplicitRelativeImportsCommand,
    NumpyAliasesCommand,
    NumpySliceListsCommand,
    NumpyFloatCountsCommand,
    NumpyStackGeneratorsCommand,
    Numpy1ScalarsCommand,
    Numpy1RaggedCommand,
    LibrosaKeywordsCommand,
    LibrosaOutputCommand,
    FractionsGcdCommand,
    PandasAsMatrixCommand,
    OpTypeNamesCommand,
    MatplotlibApiCommand,
    PillowApiCommand,
    ProtobufInt64BoolsCommand,
    ProtobufBytesStrsCommand,
    ProtobufBytesJoinsCommand,
    TfInternalsCommand,
    TensorPrivateShapeCommand,
    LeakyReluAlphaCommand,
    Tf1RegistriesCommand,
    SymbolicConstantErrorsCommand,
    ScipyMiscCommand,
    TestCaseAssertsCommand,
    StructuredArrayAssertsCommand,
    Py2StrEqualityCommand,
    Py2NativeStrsCommand,
    LegacyKerasCommand,
    EstimatorPsStrategyCommand,
    LateCollectiveStrategyCommand,
    TrainAndEvaluateCommand,
    SlimExtImportCommand,
    CompatV1Command,
]



class RegistryError(Exception):
    """The registered codemods contradict their declarations; the message says how."""


def _cycle(codemods: Sequence[Type[SlimportCodemod]]) -> Optional[List[str]]:
    """A cycle of ``RUNS_AFTER`` declarations among ``codemods``, as names, or None."""
    after = {codemod.NAME: codemod.RUNS_AFTER for codemod in codemods}
    done: Set[str] = set()

    def visit(name: str, path: List[str]) -> Optional[List[str]]:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done or name not in after:
            return None
        for earlier in after[name]:
            found = visit(earlier, path + [name])
            if found:
                return found
        done.add(name)
        return None

    for codemod in codemods:
        found = visit(codemod.NAME, [])
        if found:
            return found
    return None


def check_registry(codemods: Sequence[Type[SlimportCodemod]]) -> None:
    """Check that ``codemods``, in this order, keep every codemod's declarations.

    Args:
      codemods: codemod classes in run order.

    Raises:
      RegistryError: two codemods share a NAME; a ``RUNS_AFTER`` names no codemod of
        ``codemods``; the declarations form a cycle; a codemod is listed before one it
        must run after; two codemods declare different facts of one name.
    """
    position: Dict[str, int] = {}
    for index, codemod in enumerate(codemods):
        if codemod.NAME in position:
            raise RegistryError(f"two codemods are named {codemod.NAME}")
        position[codemod.NAME] = index
    for codemod in codemods:
        unknown = [name for name in codemod.RUNS_AFTER if name not in position]
        if unknown:
            raise RegistryError(f"codemod {codemod.NAME} runs after {', '.join(unknown)}, "
                                f"which is not registered; register it or drop it from "
                                f"{codemod.__name__}.RUNS_AFTER")
    cycle = _cycle(codemods)
    if cycle:
        raise RegistryError(f"the codemods' RUNS_AFTER declarations form a cycle: "
                            f"{' runs after '.join(cycle)}")
    for codemod in codemods:
        for name in codemod.RUNS_AFTER:
            if position[name] > position[codemod.NAME]:
                raise RegistryError(f"codemod {codemod.NAME} must run after {name}, but is "
                                    f"registered before it: move it after {name} in "
                                    f"CODEMODS")
    facts: Dict[str, TreeFact] = {}
    for codemod in codemods:
        for fact in codemod.TREE_FACTS:
            if facts.setdefault(fact.name, fact) is not fact:
                raise RegistryError(f"two different tree facts are named {fact.name} "
                                    f"(one of them {codemod.NAME}'s)")


check_registry(CODEMODS)
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


__all__ = ["BY_NAME", "CODEMODS", "Finding", "RegistryError", "SlimportCodemod", "check_registry",
           "select"]
