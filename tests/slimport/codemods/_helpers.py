"""The one way the codemod tests run a codemod: on a source, as the engine runs it."""
from __future__ import annotations

import textwrap
from typing import List, Optional, Tuple, Type

import libcst as cst
from libcst.codemod import CodemodContext

from slimport.codemods import Finding, SlimportCodemod
from slimport.analysis.source_tree import SourceTree


def run_codemod(
    command_class: Type[SlimportCodemod],
    source: str,
    *,
    tree: Optional[SourceTree] = None,
    path: str = "",
    **options: object,
) -> Tuple[str, List[Finding]]:
    """Run one codemod on ``source`` (dedented), as the engine does.

    Args:
      command_class: the codemod.
      source: the file's text.
      tree: the tree the file is in, for a codemod that declares the ``source_tree``
        fact (None: the file is ported on its own, as under ``python -m libcst.tool
        codemod``).
      path: the file's path in ``tree``.
      **options: the codemod's keyword arguments (its ``OPTIONS`` and tree facts).

    Returns:
      The output code and the command's findings.
    """
    if tree is not None:
        options["source_tree"] = tree
    command = command_class(CodemodContext(filename=path or None), **options)
    tree_out = command.transform_module(cst.parse_module(textwrap.dedent(source)))
    return tree_out.code, command.findings
