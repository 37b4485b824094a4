"""The port never writes a name that does not exist: every target of every codemod table
resolves on this TensorFlow with slim_ext loaded (regression-tf221 runs it on TF 2.21,
regression-tf215 on TF 2.15).

Targets, table by table: the contrib table (every generated home, every hand-made home,
every mirrored module with every name its TF 1.15 module had, listed with its home in
the mirror or as gone, which the rewrite reports instead of writing; the homes in
TensorFlow Probability and TF-GAN resolve with the ``probability`` and ``gan`` extras
installed, as every tox env that runs this has them), tf0_names' renames, compat_v1's
``tensorflow.compat.v1.X`` for every TF1 name of the API tables,
moved_modules' and moxing's homes, device_spec's TF1 DeviceSpec, numpy_aliases' NumPy
names, the standard-library names the Python 2 codemods write, and the library names the
codemods for removed library APIs write (scipy_misc, test_case_asserts, tf_internals,
pillow_api, fractions_gcd, librosa_output, leaky_relu_alpha,
tf1_registries) and the runtime functions the Python 2 and NumPy 1 codemods call
(py2_ordering, py2_division, numpy1_scalars, numpy1_ragged). matplotlib_api's targets are
checked where matplotlib is installed (tests/corpus/test_ported_library_apis_run.py: Keras 3
imports matplotlib with TensorFlow when it is there, so the other envs go without).
"""
from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import List

import pytest

from slim_facts.moxing import MOX_FILE_NAMES, MOX_MODULE, MOX_NAMES
from slimport.codemods import device_spec, moved_modules, numpy_aliases
from slimport.tables import contrib_table
from slimport.codemods import py2_leftovers, removed_stdlib, tf0_names
from slimport.codemods import (fractions_gcd, leaky_relu_alpha, librosa_output,
                                numpy1_ragged, protobuf_int64_bools, tf1_registries,
                                scipy_misc)
from slimport.codemods import numpy1_scalars, protobuf_bytes_strs, py2_division, py2_ordering
from slimport.codemods import pillow_api
from slimport.codemods import test_case_asserts
from slimport.codemods import tf_internals
from slimport.tables.contrib_table import HOMES, MODULE_HOMES, SYMBOL, Home, lookup
from slimport.tables.tf_api import COMPAT_V1, TF1, tf_api

pytestmark = pytest.mark.tf
NEW_SINCE_TF1 = Path(__file__).resolve().parent / "data" / "compat_v1_new_since_tf1.txt"


@pytest.fixture(scope="module", autouse=True)
def ported_runtime() -> None:
    """What ported code imports beside its homes."""
    importlib.import_module("slim_ext")


def resolves(attribute: str, package: str) -> bool:
    """Whether ``package.attribute`` exists as ported code reaches it: ``import package``,
    then the attributes (importing deeper would rebind TensorFlow's lazy modules)."""
    try:
        obj = importlib.import_module(package)
        for part in attribute.split(".") if attribute else []:
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError):
        return False
    return True


def home_resolves(home: Home) -> bool:
    """A symbol's home: ``import package`` and its attribute path, and ``from M import N``."""
    return resolves(home.attribute, home.package) and resolves(home.name, home.import_from)


def unresolved(package: str, attributes: List[str]) -> List[str]:
    return [name for name in attributes if not resolves(name, package)]


def modules_missing(modules: List[str]) -> List[str]:
    return [module for module in modules if not resolves("", module)]


def test_every_contrib_home_resolves() -> None:
    homes = list(HOMES.values())
    modules = list(MODULE_HOMES.values())
    for key in contrib_table.listed_names():
        found = lookup(key)
        assert found is not None, key
        if found.home is not None:
            homes.append(found.home)
        elif found.module is not None:
            modules.append(found.module)
    assert len(homes) > 900
    # The successors' and the stand-ins' homes are among them (issue 30).
    assert {home.package for home in homes} >= {
        "tensorflow_probability", "tensorflow_gan", "slim_ext.contrib.rnn",
        "slim_ext.contrib.cudnn_rnn", "slim_ext.contrib.legacy_seq2seq"}
    assert [home.dotted for home in homes if not home_resolves(home)] == []
    assert modules_missing(modules) == []


def test_mirrored_modules_list_every_name_and_write_only_what_the_mirror_has() -> None:
    listed = contrib_table.listed_names()
    for key, mirror in MODULE_HOMES.items():
        names = [name for name, (kind, _, _) in listed.items()
                 if name.rpartition(".")[0] == key and kind == SYMBOL]
        for name in names:
            found = lookup(name)
            assert found is not None
            if found.home is not None:
                assert home_resolves(found.home), name
            else:  # gone: reported by the rewrite, never written
                assert not resolves(name.rpartition(".")[2], mirror), name
    # TF 1.15's contrib.tfprof re-exported ProfileContext from core (issue 25).
    assert lookup("tfprof.ProfileContext").home == Home("slim_ext.contrib.tfprof",
                                                        "ProfileContext")
    # A name the table does not list for a mirrored module is not written.
    assert lookup("tfprof.model_analyzer.ProfileContext").home is None


def test_every_tf0_rename_resolves_in_compat_v1() -> None:
    assert unresolved(COMPAT_V1, [rename.new for rename in tf0_names.RENAMES.values()]) == []


def test_every_tf1_name_compat_v1_writes_resolves() -> None:
    api = tf_api()
    names = [name for name in api.apis if TF1 in (api.kind(name) or "")
             and api.missing_from_v1(name) is None]
    assert len(names) > 1000
    # On an older TensorFlow (2.15), what the 2.21 tables have and it lacks must be
    # names TF 1.15 did not have either: a TF1 program never uses them.
    new_since_tf1 = {line for line in NEW_SINCE_TF1.read_text().splitlines()
                     if line and not line.startswith("#")}
    assert set(unresolved(COMPAT_V1, names)) <= new_since_tf1


def test_device_spec_target_is_tf1s_mutable_class() -> None:
    # device_spec writes tensorflow.compat.v1.DeviceSpec (and imports it from there).
    assert resolves(device_spec.V1_HOME.rpartition(".")[2], COMPAT_V1)
    spec = importlib.import_module(COMPAT_V1).DeviceSpec.from_string("/cpu:0")
    spec.merge_from(importlib.import_module(COMPAT_V1).DeviceSpec(job="ps"))
    spec.task = 1
    assert spec.to_string() == "/job:ps/task:1/device:CPU:0"


def test_moved_modules_and_moxing_homes_resolve() -> None:
    assert modules_missing(list(moved_modules.MOVED.values())) == []
    assert [name for name in moved_modules.MOVED_NAMES.values()
            if not resolves(name.rpartition(".")[2], name.rpartition(".")[0])] == []
    assert unresolved(MOX_MODULE, [*MOX_NAMES, *(f"file.{name}" for name in MOX_FILE_NAMES)]) \
        == []


def test_numpy_and_standard_library_targets_resolve() -> None:
    assert unresolved("numpy", list(numpy_aliases.RENAMED.values())) == []
    assert unresolved("builtins", [*numpy_aliases.BUILTIN_ALIASES.values(),
                                   *py2_leftovers.BUILTINS.values(), "list"]) == []
    assert [name for name, module in py2_leftovers.MOVED.items()
            if not resolves(name, module)] == []
    assert [new for new in py2_leftovers.ITERTOOLS.values()
            if not resolves(new.rpartition(".")[2], new.rpartition(".")[0] or "builtins")] == []
    assert resolves("getfullargspec", "inspect") and resolves("maxsize", "sys")
    spec = inspect.getfullargspec(resolves)
    assert all(hasattr(spec, field) for field in removed_stdlib.SHARED_FIELDS.values())


def test_library_successors_resolve() -> None:
    assert [home for home in scipy_misc.HOMES.values()
            if not resolves(home.rpartition(".")[2], home.rpartition(".")[0])] == []
    assert unresolved("unittest", [f"TestCase.{new}"
                                   for new in test_case_asserts.RENAMED.values()]) == []
    # The Keras a ported Conv subclass runs on: tf_keras (TF1 code), Keras (TF2 code).
    assert unresolved("tf_keras", [f"layers.Conv2D.{tf_internals.PUBLIC}"]) == []
    assert unresolved("keras", [f"layers.Conv2D.{tf_internals.PUBLIC}"]) == []
    assert unresolved("PIL.ImageFont", ["FreeTypeFont.getbbox", "ImageFont.getbbox"]) == []
    assert unresolved("PIL.Image", ["frombuffer", *pillow_api.RENAMED_FILTERS.values()]) == []
    assert resolves(protobuf_int64_bools.CONVERSION.rpartition(".")[2],
                    protobuf_int64_bools.RUNTIME)
    assert resolves(protobuf_bytes_strs.CONVERSION.rpartition(".")[2],
                    protobuf_int64_bools.RUNTIME)
    assert unresolved("numpy", ["frombuffer", "ndarray.tobytes", "ndarray.copy", "asarray"]) \
        == []
    assert resolves(fractions_gcd.HOME.rpartition(".")[2], fractions_gcd.RUNTIME)
    assert resolves(librosa_output.HOME.rpartition(".")[2], librosa_output.RUNTIME)
    assert resolves(leaky_relu_alpha.FUNCTION, leaky_relu_alpha.RUNTIME)
    for name in set(tf1_registries.TF1_NAMES.values()):
        assert resolves(name, tf1_registries.RUNTIME)
    assert unresolved(py2_ordering.RUNTIME, [name.rpartition(".")[2] for name in (
        py2_ordering.SORT_KEY, py2_ordering.CMP)]) == []
    assert resolves(py2_ordering.CMP_TO_KEY.rpartition(".")[2], "functools")
    assert unresolved(numpy1_scalars.RUNTIME, [name.rpartition(".")[2] for name in
                                               numpy1_scalars.CONVERSIONS.values()]) == []
    assert unresolved(numpy1_ragged.RUNTIME, [name.rpartition(".")[2] for name in
                                              numpy1_ragged.HOMES.values()]) == []
    assert unresolved(py2_division.RUNTIME, [name.rpartition(".")[2] for name in (
        py2_division.DIV, py2_division.IDIV)]) == []
