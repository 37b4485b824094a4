"""pandas' ``as_matrix()``, removed in pandas 1.0 -> ``to_numpy()``.

``DataFrame.as_matrix()`` and ``Series.as_matrix()`` returned ``.values``; pandas 0.23
deprecated them for ``to_numpy()`` (the same array) and 1.0 removed them.
``df.as_matrix(columns=cols)`` becomes ``df[cols].to_numpy()``. A receiver is ported
only where it is certainly a DataFrame or a Series: a call of pandas' constructors or
readers (``pd.DataFrame(...)``, ``pd.read_csv(...)``), a column or selection of one
(``frame.x``, ``frame['x']``, ``frame[mask]``), or a name every binding of which in its
scope is one of those. Another receiver (a parameter: object detection's OID
utilities take the frame from their caller) may be another library's object with a
method of that name (SciPy's ``Rotation.as_matrix``): it is ported only when
``slimport rewrite`` saw that the tree uses pandas, imports nothing else known to have an
``as_matrix`` (``scipy.spatial``) and defines none itself (tree facts ``tree_imports``,
``tree_methods``); otherwise, and when the file is ported on its own, it is reported.
Like the Python 2 and NumPy leftovers, only TF1-era code and plain Python are ported
(``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Tuple, Union

import libcst as cst

from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods._collect_first import CollectsFirst
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.analysis.names import Bindings, bound_names
from slimport.codemods.tree_facts import TREE_IMPORTS, TREE_METHODS, TreeFact

PANDAS = "pandas"
# pandas functions that return a DataFrame or a Series.
MAKERS = frozenset({"DataFrame", "Series", "read_csv", "read_table", "read_excel",
                    "read_json", "read_parquet", "read_pickle", "read_hdf", "read_sql",
                    "concat", "merge"})
METHOD = "as_matrix"
# Libraries whose objects have an ``as_matrix`` method of their own.
OTHER_OWNERS = ("scipy.spatial",)


class PandasAsMatrixCommand(CollectsFirst, LeftoverCodemod):
    """Ports DataFrame/Series.as_matrix() to to_numpy() where the receiver is certain.

    A name is a frame only if all its bindings in its scope make one, wherever the use
    is: every binding of every scope is read first (CollectsFirst).
    """

    NAME: ClassVar[str] = "pandas_as_matrix"
    DESCRIPTION: ClassVar[str] = (
        "pandas' as_matrix() (removed in 1.0) -> to_numpy() on a certain DataFrame/Series; "
        "other receivers reported"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\.as_matrix\(")
    # Is an unknown receiver's as_matrix pandas', or another library's or the tree's?
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = \
        LeftoverCodemod.TREE_FACTS + (TREE_METHODS, TREE_IMPORTS)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Each use, and every assignment of a name some use calls it on.
        receivers = {node.func.value.id for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                     and node.func.attr == METHOD and isinstance(node.func.value, ast.Name)}
        return lambda statement: bool(receivers & set(bound_names(statement))) or any(
            isinstance(node, ast.Attribute) and node.attr == METHOD
            for node in ast.walk(statement))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._replacements: Dict[int, cst.BaseExpression] = {}
        # name -> whether every assignment of it seen in its scope made a frame.
        self._frames: Dict[Tuple[int, str], bool] = {}
        self._collecting = False
        return True

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._collecting:
            return
        certain = self._certain(node.value)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                key = (self._scope_key(), target.target.value)
                self._frames[key] = self._frames.get(key, True) and certain and \
                    len(node.targets) == 1

    def visit_Param(self, node: cst.Param) -> None:
        if self._collecting:
            self._frames[(self._scope_key(), node.name.value)] = False

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self._collecting or not (isinstance(func, cst.Attribute)
                                    and func.attr.value == METHOD):
            return
        receiver = func.value
        columns = self._columns(node)
        certain = self._certain(receiver)
        if not certain and columns is not False and self._pandas_only_tree() \
                and self.resolve_name(receiver) is None:
            certain = True
            reason = ("; the tree uses pandas and nothing else of its has an as_matrix "
                      "method")
        else:
            reason = ""
        if not certain or columns is False:
            self.needs_attention(node, f"{code_of(node)}: as_matrix() was removed in pandas "
                                 "1.0; left unchanged because the receiver may not be a "
                                 "pandas DataFrame or Series",
                                 "if it is one, use .to_numpy() (as_matrix(columns=c): "
                                 "[c].to_numpy())")
            return
        if columns is not None:
            receiver = cst.Subscript(value=receiver, slice=[cst.SubscriptElement(
                cst.Index(columns))])
        new = cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name("to_numpy")))
        self._replacements[id(node)] = new.with_changes(lpar=node.lpar, rpar=node.rpar)
        self.record_edit(node, f"{code_of(node)} -> {code_of(new)} (as_matrix was removed "
                               f"in pandas 1.0{reason})")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        return self._replacements.pop(id(original_node), updated_node)

    def _pandas_only_tree(self) -> bool:
        """Whether the tree uses pandas, and no other library or code of it defines an
        ``as_matrix`` (known only when ``slimport rewrite`` saw the whole tree)."""
        if self.tree_methods is None or self.tree_imports is None:
            return False
        return METHOD not in self.tree_methods and any(
            module == PANDAS or module.startswith(PANDAS + ".")
            for module in self.tree_imports) and not any(
            module == owner or module.startswith(owner + ".")
            for module in self.tree_imports for owner in OTHER_OWNERS)

    def _scope_key(self) -> int:
        scopes = self.scopes.scopes
        return id(scopes[-1].node) if scopes else 0

    @staticmethod
    def _columns(call: cst.Call) -> Union[Optional[cst.BaseExpression], bool]:
        """None for ``as_matrix()``, the columns of ``as_matrix(columns=c)`` / ``(c)``,
        False for anything else."""
        if not call.args:
            return None
        (arg,) = call.args if len(call.args) == 1 else (None,)
        if arg is None or arg.star or (arg.keyword is not None
                                       and arg.keyword.value != "columns"):
            return False
        return arg.value

    def _certain(self, node: cst.BaseExpression) -> bool:
        """Whether ``node`` is certainly a pandas DataFrame or Series."""
        if isinstance(node, cst.Call):
            qualified = self.resolve_name(node.func) or ""
            return qualified.startswith(PANDAS + ".") and \
                qualified.rpartition(".")[2] in MAKERS
        if isinstance(node, (cst.Attribute, cst.Subscript)):
            # A column (frame.x, frame['x']) or a selection (frame[mask]) of a frame.
            return self._certain(node.value)
        if isinstance(node, cst.Name):
            for scope in reversed(self.scopes.scopes):
                key = (id(scope.node), node.value)
                if key in self._frames:
                    return self._frames[key]
            return self._frames.get((0, node.value), False)
        return False
