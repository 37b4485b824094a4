"""The codemod registry keeps every codemod's declarations: what must run before it,
and the tree facts it reads (``slimport.codemods.check_registry``, run at import)."""
from __future__ import annotations

from typing import ClassVar, Tuple

import pytest

from slimport import codemods as registry
from slimport.codemods import RegistryError, SlimportCodemod, check_registry
from slimport.codemods.tree_facts import TreeFact


def _codemod(name: str, after: Tuple[str, ...] = (), facts: Tuple[TreeFact, ...] = ()) -> type:
    class Declared(SlimportCodemod):
        NAME: ClassVar[str] = name
        TRIGGERS: ClassVar[Tuple[str, ...]] = ("x",)
        RUNS_AFTER: ClassVar[Tuple[str, ...]] = after
        TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = facts

    Declared.__name__ = f"{name.title()}Command"
    return Declared


def test_the_registry_keeps_its_declarations() -> None:
    check_registry(registry.CODEMODS)
    declared = {name for codemod in registry.CODEMODS for name in codemod.RUNS_AFTER}
    assert {"tf0_names", "uai_flags", "estimator_ps_strategy", "slim_ext_import"} <= declared


def test_compat_v1_runs_after_every_codemod_that_edits_tensorflow_names() -> None:
    # It collapses the tf.compat.v1.X others write and sees which TF uses remain.
    edits_tf = {"contrib_slim", "tf0_names", "contrib_symbols", "moxing", "moved_modules",
                "flags_to_absl", "estimator_ps_strategy", "train_and_evaluate"}
    assert edits_tf <= set(registry.BY_NAME["compat_v1"].RUNS_AFTER)
    assert registry.CODEMODS[-1].NAME == "compat_v1"


@pytest.mark.parametrize(("codemods", "message"), [
    ([_codemod("a", after=("b",)), _codemod("b")],
     "codemod a must run after b, but is registered before it: move it after b"),
    ([_codemod("a", after=("missing",))],
     "codemod a runs after missing, which is not registered; register it or drop it "
     "from ACommand.RUNS_AFTER"),
    ([_codemod("a", after=("c",)), _codemod("b", after=("a",)), _codemod("c", after=("b",))],
     "form a cycle: a runs after c runs after b runs after a"),
    ([_codemod("a", after=("a",))], "form a cycle: a runs after a"),
    ([_codemod("a"), _codemod("a")], "two codemods are named a"),
    ([_codemod("a", facts=(TreeFact("paths", lambda tree: tree.source),)),
      _codemod("b", facts=(TreeFact("paths", lambda tree: tree.texts),))],
     "two different tree facts are named paths (one of them b's)"),
], ids=["out of order", "missing", "cycle", "self", "same name", "fact clash"])
def test_a_broken_registry_is_refused_with_the_fix(codemods: list, message: str) -> None:
    with pytest.raises(RegistryError, match=None) as raised:
        check_registry(codemods)
    assert message in str(raised.value)


def test_a_fact_shared_by_two_codemods_is_one_fact() -> None:
    shared = TreeFact("paths", lambda tree: tree.source)
    check_registry([_codemod("a", facts=(shared,)), _codemod("b", after=("a",),
                                                             facts=(shared,))])
