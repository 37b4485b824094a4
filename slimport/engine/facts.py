"""The pre-pass of a run: the tree facts the selected codemods declared, and the
warnings their options earn, from one read of every Python file of the plan.

The codemods say what they need (``SlimportCodemod.TREE_FACTS``,
``SlimportCodemod.check_options``); this module knows no codemod by name. The texts are
read only when some selected codemod declares a fact or an option was given, and a
file that cannot be read here is left to the run, which reports it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Sequence

from slimport.analysis.source_tree import SourceTree
from slimport.codemods.tree_facts import TreeContents
from slimport.engine.jobs import read_regular
from slimport.engine.plan import Plan


@dataclass(frozen=True)
class Survey:
    """What the pre-pass found: fact name -> value, and warnings about the options."""

    facts: Mapping[str, Any] = field(default_factory=dict)
    warnings: Sequence[str] = ()


def plan_texts(plan: Plan) -> List[str]:
    """The text of every Python file of ``plan`` that can be read.

    Args:
      plan: the run's plan.

    Returns:
      The texts, UTF-8 with undecodable bytes replaced (facts are read off the text).
    """
    texts = []
    for job in plan.python_jobs:
        try:
            texts.append(read_regular(job.source)[0].decode("utf-8", "replace"))
        except OSError:
            continue  # the run reports it
    return texts


def survey(codemods: Sequence[type], options: Mapping[str, Any], source: SourceTree,
           texts: Sequence[str], gather_facts: bool = True) -> Survey:
    """Gather the facts ``codemods`` declared and check the options against the tree.

    Args:
      codemods: the selected codemod classes.
      options: the user's codemod options (``--map``).
      source: the tree's paths.
      texts: the text of every Python file of the tree.
      gather_facts: False when no tree is known (standard input): each codemod keeps
        its facts' ``alone`` values.

    Returns:
      The Survey.
    """
    tree = TreeContents(source, texts)
    facts: Dict[str, Any] = {}
    if gather_facts:
        for codemod in codemods:
            for fact in codemod.TREE_FACTS:
                if fact.name not in facts:
                    facts[fact.name] = fact.gather(tree)
    warnings: List[str] = []
    for codemod in codemods:
        warnings += codemod.check_options(options, tree)
    return Survey(facts, warnings)


def needs_texts(codemods: Sequence[type], options: Mapping[str, Any]) -> bool:
    """Whether ``survey`` needs the tree's texts: a fact is declared or an option given."""
    return bool(options) or any(codemod.TREE_FACTS for codemod in codemods)
