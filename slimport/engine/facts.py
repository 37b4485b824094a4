"""The pre-pass of a run: the tree facts the selected codemods declared, scope by scope,
and the warnings their options earn, from one read of every Python file of the plan.

A fact is gathered over a *scope* (``slimport.analysis.import_roots``): the import
root a file is in and the roots it imports, never over whatever else the run happens
to hold. The rest of a root the run covers only in part (a sub-folder of a package
ported alone) is read from disk, so a file's facts do not depend on which PATHs were
given; code the run does not cover and its roots do not hold is never read. Facts
come from the files as they were before the run wrote any.

This module loads no codemod until ``survey`` runs. The codemods say what they need
(``SlimportCodemod.TREE_FACTS``, ``SlimportCodemod.check_options``); this module knows
no codemod by name. A file that cannot be read here is left to the run, which reports
it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import (Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional,
                    Sequence, Tuple)

from slimport.analysis.import_roots import ImportRoots, Root, imports_in, root_of
from slimport.analysis.source_tree import PYTHON_SUFFIX, SourceTree
from slimport.engine import text_pool
from slimport.engine.jobs import read_regular
from slimport.engine.plan import not_walked
from slimport.engine.scoped_facts import Scope, TreeFacts


@dataclass(frozen=True)
class Survey:
    """What the pre-pass found: the facts, scope by scope, and warnings about the options."""

    facts: TreeFacts = field(default_factory=TreeFacts)
    warnings: Sequence[str] = ()


def read_texts(paths: Iterable[Path]) -> Dict[str, str]:
    """The text of every file of ``paths`` that can be read, by absolute path.

    Args:
      paths: Python files.

    Returns:
      The texts, UTF-8 with undecodable bytes replaced (facts are read off the text).
    """
    texts = {}
    for path in paths:
        try:
            texts[os.path.abspath(path)] = read_regular(path)[0].decode("utf-8", "replace")
        except OSError:
            continue  # the run reports it
    return texts


def rest_of_roots(files: Iterable[str]) -> List[Path]:
    """The Python files on disk of the import roots ``files`` are in, but those files.

    A package is walked as ``make_plan`` walks a tree (no version control, caches or
    installed packages); a folder of loose modules gives its own ``*.py`` only.

    Args:
      files: absolute paths of the run's Python files.

    Returns:
      The other files, sorted.
    """
    given = set(files)
    roots = {root_of(name) for name in given}
    found = set()
    for root in roots:
        if not root.package:
            try:
                entries = os.listdir(root.path)
            except OSError:
                continue
            found.update(os.path.join(root.path, name) for name in entries
                         if name.endswith(PYTHON_SUFFIX))
            continue
        for directory, subdirectories, names in os.walk(root.path):
            subdirectories[:] = sorted(name for name in subdirectories
                                       if not_walked(Path(directory, name)) is None)
            found.update(os.path.join(directory, name) for name in names
                         if name.endswith(PYTHON_SUFFIX))
    return sorted(Path(name) for name in found - given
                  if os.path.isfile(name) and not os.path.islink(name))


def _display(root: Root) -> str:
    """A root's name in reports: relative to the working directory when inside it."""
    name = str(root)
    relative = os.path.relpath(name)
    return name if relative.startswith(os.pardir) else relative


def scopes_of(texts: Mapping[str, str], around: Optional[Mapping[str, str]] = None,
              gather: Callable[[str, Sequence[str], Sequence[str]], Mapping[str, Any]] =
              lambda reach, paths, texts: {}) -> TreeFacts:
    """The scope of every file of ``texts``, and ``gather``'s facts of each.

    A file's facts of reach IMPORTS are gathered over its scope (its root and the roots
    it imports), those of reach PROCESS over its component (the roots connected to its
    own by imports either way); the roots its report names are the component's.

    Args:
      texts: absolute path -> text of every Python file of the run.
      around: absolute path -> text of the other files of the roots the run's files
        are in (``rest_of_roots``): read for facts, never ported.
      gather: the facts of one reach over the paths and texts of a scope's files (default: none,
        for a run whose every port the cache has: the report still names the roots).

    Returns:
      The TreeFacts.
    """
    from slimport.codemods.tree_facts import IMPORTS, PROCESS

    every = {**(around or {}), **texts}
    roots = ImportRoots(every)
    gathered: Dict[Tuple[str, FrozenSet[Root]], Mapping[str, Any]] = {}

    def facts_over(reach: str, members: FrozenSet[Root]) -> Mapping[str, Any]:
        known = gathered.get((reach, members))
        if known is None:
            names = [name for root in sorted(members) for name in roots.files_of.get(root, ())]
            known = gathered[reach, members] = gather(reach, names, [every[name] for name in names])
        return known

    scopes: List[Scope] = []
    index_of: Dict[Tuple[FrozenSet[Root], FrozenSet[Root]], int] = {}
    files: Dict[str, Tuple[int, str]] = {}
    for name in sorted(texts):
        root = roots.root_of(name)
        key = (roots.scope(root), roots.component(root))
        index = index_of.get(key)
        if index is None:
            facts = {**facts_over(IMPORTS, key[0]), **facts_over(PROCESS, key[1])}
            index = index_of[key] = len(scopes)
            scopes.append(Scope(tuple(sorted(_display(member) for member in key[1])), facts))
        files[name] = (index, _display(root))
    return TreeFacts(tuple(scopes), files)


def survey(codemods: Sequence[type], options: Mapping[str, Any],
           source: Optional[SourceTree], texts: Mapping[str, str], gather_facts: bool = True,
           around: Optional[Mapping[str, str]] = None, processes: int = 1) -> Survey:
    """Gather the facts ``codemods`` declared, scope by scope (``scopes_of``), and check
    the options against the tree.

    Args:
      codemods: the selected codemod classes.
      options: the user's codemod options (``--map``).
      source: the paths the run ports (None: not known, standard input).
      texts: absolute path -> text of every Python file of the run.
      gather_facts: False when no tree is known (standard input without a name): each
        codemod keeps its facts' ``alone`` values.
      around: absolute path -> text of the other files of the roots the run's files
        are in (``rest_of_roots``).
      processes: how many processes may work out the facts' per-file answers at once
        (``text_pool``).

    Returns:
      The Survey.
    """
    # Here, not at the top: reading texts must not load the codemods (a run whose every
    # file is a cache hit never does).
    from slimport.codemods.tree_facts import TreeContents

    warnings: List[str] = []
    for codemod in codemods:
        warnings += codemod.check_options(options, TreeContents(source, list(texts.values())))
    declared = {fact.name: fact for codemod in codemods for fact in codemod.TREE_FACTS}
    if not gather_facts:
        return Survey(TreeFacts(), warnings)
    per_file = dict.fromkeys(function for fact in declared.values() for function in fact.per_text)
    text_pool.work_out((imports_in, *per_file), [*(around or {}).values(), *texts.values()],
                       processes)

    def gather(reach: str, scope_paths: Sequence[str], scope_texts: Sequence[str]
               ) -> Mapping[str, Any]:
        contents = TreeContents(source, scope_texts, scope_paths)
        return {name: fact.gather(contents) for name, fact in declared.items()
                if fact.reach == reach}

    return Survey(scopes_of(texts, around, gather), warnings)
