"""Python 2's implicit relative imports: ``import sibling`` inside a package.

In a package module, Python 2 looked an ``import fsns`` up in the module's own package
first: with ``fsns.py`` beside it, that was the package's ``fsns``. Python 3 imports only
absolutely, so the same line finds no ``fsns`` (or another one) and the module fails at
import. Where the meaning is certain it becomes the explicit relative import Python 2
made (2to3's ``fix_import``): ``import fsns`` -> ``from . import fsns``, ``import fsns as
f`` -> ``from . import fsns as f``, ``from fsns import X`` -> ``from .fsns import X``.
Certain means: the file's folder is a package (it holds ``__init__.py``) and holds the
module or package the import names; the file has no ``from __future__ import
absolute_import`` (which switched Python 2 to absolute imports) and no syntax Python 2
could not parse (an f-string, an annotation, ``print(..., end='')``: such a file never
ran on Python 2, and its imports were always absolute); no top-level module of
that name is on the project's path (the folder above its top package); the name is not
one of Python's own modules; and the file is not run as a script (no ``if __name__ ==
'__main__':`` block), where an explicit relative import fails and the script's folder
on ``sys.path`` finds the sibling anyway. Otherwise it is reported with the fix.
``import sibling.sub`` and a line naming a sibling beside other modules are reported.
So is ``from sibling.sub import X`` where the folder holds ``sibling`` but not its
``sub`` (``tensorboard.py`` beside the file, ``from tensorboard.plugins import
projector``): Python 2 stopped at the package's own ``sibling`` and raised ImportError,
Python 3 imports the top-level module the line names, and an explicit relative import
would fail on both; the line is left as it is.

The folders are read off the file system (``file_reads``, so a cached port is checked
against them): the answer is the same whether the tree, a sub-folder of it or the file
alone is ported.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import ClassVar, Optional, Pattern

import libcst as cst
from libcst.helpers import get_full_name_for_node

from slimport.analysis import file_reads
from slimport.analysis.names import Bindings
from slimport.analysis.py2_code import future_features, python3_only_syntax
from slimport.codemods._entry_script import main_block
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter

PACKAGE_MARKER = "__init__.py"
# The first module a line imports absolutely (``import fsns``, ``from fsns import X``).
_TRIGGER_TEXT = re.compile(r"^[ \t]*(?:from[ \t]+(\w+)[\w.]*[ \t]+import|import[ \t]+(\w+))",
                           re.MULTILINE)


class ImplicitRelativeImportsCommand(LeftoverCodemod):
    """Makes Python 2's implicit relative imports of a package's siblings explicit."""

    NAME: ClassVar[str] = "implicit_relative_imports"
    DESCRIPTION: ClassVar[str] = (
        "Python 2's implicit relative imports of a package's own modules (import fsns "
        "beside fsns.py) -> from . import fsns"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to(cls, source: str) -> bool:
        # A file that imports only Python's own modules has no sibling to import.
        return any(name not in sys.stdlib_module_names
                   for match in _TRIGGER_TEXT.finditer(source) for name in match.groups() if name)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: isinstance(statement, (ast.Import, ast.ImportFrom))

    def start_file(self, tree: cst.Module) -> bool:
        # (Cheap first: most files are not in a package folder.)
        filename = self.context.filename
        if not filename:
            return False
        self._folder = file_reads.resolve(Path(filename)).parent
        if not file_reads.is_file(self._folder / PACKAGE_MARKER):
            return False
        return super().start_file(tree)

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        whole = self.original_ast or parsed
        if "absolute_import" in future_features(whole) or python3_only_syntax(whole):
            return False
        self._script = main_block(tree) is not None
        top = self._folder
        while file_reads.is_file(top.parent / PACKAGE_MARKER):
            top = top.parent
        self._project_path = top.parent
        return True

    def _sibling(self, name: str) -> bool:
        return _holds_module(self._folder, name.split(".")[0])

    def _why_not(self, name: str) -> Optional[str]:
        """Why an import of sibling ``name`` is not certainly the package's (None: it is)."""
        top = name.split(".")[0]
        if _holds_module(self._project_path, top):
            return f"the project's path has a top-level `{top}` too"
        if top in sys.stdlib_module_names:
            return f"`{top}` is also one of Python's own modules"
        if self._script:
            return "the file also runs as a script, where a relative import fails"
        return None

    def _report(self, node: cst.CSTNode, line: str, why: str, fix: str) -> None:
        self.needs_attention(node, f"`{line}` imported the package's own `{self._folder_name}` "
                             f"module on Python 2 (an implicit relative import); {why}", fix)

    @property
    def _folder_name(self) -> str:
        return self._folder.name + "/"

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import
                     ) -> cst.BaseSmallStatement:
        names = [get_full_name_for_node(alias.name) or "" for alias in updated_node.names]
        siblings = [name for name in names if self._sibling(name)]
        if not siblings:
            return updated_node
        line = f"import {', '.join(names)}"
        fix = f"from . import {siblings[0].split('.')[0]}"
        if len(siblings) < len(names) or any("." in name for name in siblings):
            self._report(original_node, line, "it names other modules or a submodule too",
                         f"{fix} (one line per sibling)")
            return updated_node
        reasons = [why for why in map(self._why_not, siblings) if why]
        if reasons:
            self._report(original_node, line, reasons[0], fix)
            return updated_node
        self.record_edit(original_node, f"{line} -> from . import {', '.join(siblings)} "
                         f"(Python 2 found {self._folder_name}{siblings[0]} first)")
        return cst.ImportFrom(module=None, relative=[cst.Dot()], names=updated_node.names,
                              semicolon=updated_node.semicolon)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> cst.BaseSmallStatement:
        if updated_node.relative or updated_node.module is None:
            return updated_node
        module = get_full_name_for_node(updated_node.module) or ""
        if module == "__future__" or not self._sibling(module):
            return updated_node
        line = f"from {module} import ..."
        if not _holds_dotted(self._folder, module):
            head = module.split(".")[0]
            self.needs_attention(
                original_node, f"`{line}` found the package's own `{self._folder_name}{head}` "
                f"first on Python 2 (an implicit relative import), which holds no `{module}`: "
                f"an ImportError there; Python 3 imports the top-level `{module}`, as written",
                f"nothing if the top-level `{module}` is meant; otherwise import what "
                f"`{self._folder_name}{head}` holds")
            return updated_node
        why = self._why_not(module)
        if why:
            self._report(original_node, line, why, f"from .{module} import ...")
            return updated_node
        self.record_edit(original_node, f"{line} -> from .{module} import ... "
                         f"(Python 2 found {self._folder_name}{module.split('.')[0]} first)")
        return updated_node.with_changes(relative=[cst.Dot()])


def _holds_module(folder: Path, name: str) -> bool:
    """Whether ``folder`` holds module ``name`` (``name.py``, or a package ``name/``)."""
    return file_reads.is_file(folder / f"{name}.py") \
        or file_reads.is_file(folder / name / PACKAGE_MARKER)


def _holds_dotted(folder: Path, dotted: str) -> bool:
    """Whether ``folder`` holds the whole of module ``dotted``: a package for each name
    but the last, then a module or package of the last (what Python 2 looked up in the
    importing module's package)."""
    *packages, last = dotted.split(".")
    for name in packages:
        folder = folder / name
        if not file_reads.is_file(folder / PACKAGE_MARKER):
            return False
    return _holds_module(folder, last)
