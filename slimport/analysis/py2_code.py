"""Whether a file is Python 2 code, and what shows it, read off the user's file.

Python 2 code is TF1-era code (the TF1-era projects ran on Python 2 first; TF 2.2 and
later never ran there), so its Python 2 meaning is slimport's to carry over whether or
not the file uses a TF1 API. Two kinds of evidence, each at its line:

- **Python 2 only**: what fails on Python 3 as it is written, whatever the values: a
  Python 2-only builtin read where it is the builtin (``xrange``, ``unicode``,
  ``basestring``, ``long``, ``raw_input``, ``unichr``, ``reduce``, ``cmp``,
  ``execfile``; not where the file binds the name anywhere or a ``*`` import may), a
  Python 2-only module imported (``cPickle``, ``urllib2``, ``urlparse``, ``StringIO``,
  ``ConfigParser``, ``Queue``, ...), a Python 2-only name of a module (``sys.maxint``,
  ``os.getcwdu``, ``string.maketrans``/``letters``/``lowercase``/``uppercase``,
  ``itertools.izip``/``imap``/``ifilter``/``izip_longest``/``ifilterfalse``), a
  ``cmp=`` keyword of ``sort``/``sorted``, a class that defines ``__nonzero__``,
  ``__div__`` or ``__cmp__`` and not its Python 3 counterpart;
- **written for Python 2**: ``from __future__ import`` of ``division``,
  ``print_function``, ``absolute_import`` or ``unicode_literals`` (Python 3 needs none of
  them: only code meant to run on Python 2 writes them).

Not evidence: a method only Python 2's types had, called on a receiver the file cannot
show is one (``x.iteritems()``: pandas' ``Series.iteritems`` was Python 3 code until
pandas 2; TensorFlow 2.21's own ``lite/python/op_hint.py`` calls it in a ``__str__``);
and any of the above where the code tells the versions apart (in a ``try`` whose handler
catches ``ImportError``, ``NameError`` or ``AttributeError``, or in a branch of an ``if``
that reads ``PY2``/``PY3``/``sys.version_info``/``sys.version``): such code was written
to run on Python 3 too, and does.

Only the user's file counts: slimport never writes any of these, so a second run over
its output reads no evidence its own edits made (what the first run ported away is then
no longer there to port).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import (AbstractSet, Any, Callable, Dict, List, Optional, Sequence, Set, Tuple,
                    Union)

from slimport.analysis import regex_words
from slimport.analysis.ast_index import child_nodes, kinds_under, walk
from slimport.analysis.names import bound_names, identifiers, uses_walrus

# Builtins Python 3 removed (``file`` is left out: a free ``file`` is more often a bug
# of the code's own than Python 2's builtin).
PY2_BUILTINS = frozenset({"xrange", "unicode", "basestring", "long", "raw_input", "unichr",
                          "reduce", "cmp", "execfile", "intern", "apply", "buffer"})
PY2_MODULES = frozenset({"cPickle", "urllib2", "urlparse", "StringIO", "cStringIO",
                         "ConfigParser", "Queue", "__builtin__", "httplib", "cookielib",
                         "commands", "HTMLParser", "Tkinter", "copy_reg", "SocketServer",
                         "htmlentitydefs", "robotparser", "dummy_thread", "anydbm"})
# Module -> its names Python 3 removed.
PY2_MODULE_NAMES: Dict[str, AbstractSet[str]] = {
    "sys": frozenset({"maxint", "setdefaultencoding"}),
    "os": frozenset({"getcwdu"}),
    "string": frozenset({"maketrans", "letters", "lowercase", "uppercase"}),
    "itertools": frozenset({"izip", "imap", "ifilter", "izip_longest", "ifilterfalse"}),
}
# The identifiers one of which every piece of evidence in an expression spells.
_EXPRESSION_WORDS = PY2_BUILTINS.union(*PY2_MODULE_NAMES.values())
# A Python 2 special method -> the Python 3 one a class written for both defines too.
SPECIAL_METHODS: Dict[str, str] = {"__nonzero__": "__bool__", "__div__": "__truediv__",
                                   "__cmp__": "__lt__"}
FUTURE_FEATURES = frozenset({"division", "print_function", "absolute_import",
                             "unicode_literals"})
_GUARD_ERRORS = frozenset({"ImportError", "NameError", "AttributeError",
                           "ModuleNotFoundError"})
_VERSION_WORDS = frozenset({"PY2", "PY3", "PY34", "version_info", "version"})


# Text that Python 2-only evidence needs (a cheap check before parsing a whole tree for
# the ``tree_python2`` fact): a Python 2 builtin called, a Python 2 module imported, a
# removed module name read (``m.izip``, also through an alias) or imported, ``cmp=``, a
# Python 2 special method defined.
_REMOVED_NAMES = "|".join(sorted(set().union(*PY2_MODULE_NAMES.values())))
# The builtins whose names are words of English too (``long``, ``reduce``, ``apply``) count
# where called or listed (``(int, long)``), the others anywhere.
_WORDLIKE_BUILTINS = frozenset({"long", "reduce", "cmp", "intern", "apply", "buffer"})
# The kinds of that evidence, each the patterns its text matches, searched only where a
# word every match contains is in the text (``regex_words``). The fact reads every file
# of the tree before any port starts (in the parent of a ``-j`` run, alone): as one
# pattern of choices that start with ``\b``, which gives ``re`` no letter to scan for,
# the check cost 2.8 times as much.
_ONLY_TEXTS = tuple(tuple((pattern, regex_words.required_words(pattern)) for pattern in kind)
                    for kind in (
    (re.compile(r"\b(?:%s)\b" % "|".join(sorted(PY2_BUILTINS - _WORDLIKE_BUILTINS))),),
    (re.compile(r"^[ \t]*(?:import|from)[ \t]+(?:%s)\b" % "|".join(sorted(PY2_MODULES)),
                re.MULTILINE),),
    (re.compile(r"\.(?:%s)\b" % _REMOVED_NAMES),),
    # ``from string import (digits,\n letters)``: the name may be lines below the ``from``.
    (re.compile(r"^[ \t]*from[ \t]+(?:%s)[ \t]+import\b" % "|".join(sorted(PY2_MODULE_NAMES)),
                re.MULTILINE),
     re.compile(r"\b(?:%s)\b" % _REMOVED_NAMES)),
    (re.compile(r"\bcmp[ \t]*="),),
    (re.compile(r"\bdef[ \t]+(?:%s)\b" % "|".join(sorted(SPECIAL_METHODS))),)))
# A word-like builtin called or listed. Most TF files hold these words inside others
# (``reduce_mean``, ``apply_gradients``), so no word rules a file out: the pattern has no
# leading ``\b`` (``re`` then scans for the words' first letters) and each find's start
# is checked instead: after a letter, a digit or ``_`` it is part of another word, after
# a ``.`` an attribute (``dataset.apply(...)``, ``functools.reduce``), never the builtin.
_WORDLIKE_CALL = re.compile(r"(?:%s)[ \t]*[(),]" % "|".join(sorted(_WORDLIKE_BUILTINS)))


def _wordlike_builtin_called(text: str) -> bool:
    for found in _WORDLIKE_CALL.finditer(text):
        before = text[found.start() - 1:found.start()]
        if not (before.isalnum() or before == "_" or before == "."):
            return True
    return False


def may_be_python2_only(text: str) -> bool:
    """Whether a file's text may hold Python 2-only evidence (``is_python2_only``): False
    means it certainly holds none, without parsing it.

    Args:
      text: a Python file's text.

    Returns:
      True when a word such evidence spells is there (a builtin called, a module
      imported or a removed name read); parse the file to know.
    """
    return _wordlike_builtin_called(text) or any(
        all(regex_words.may_match(pattern, words, text) for pattern, words in kind)
        for kind in _ONLY_TEXTS)


@dataclass(frozen=True)
class Evidence:
    """One sign that a file is Python 2 code.

    Attributes:
      line: its 1-based line.
      what: the construct, as a report names it (``xrange``, ``from __future__ import
        division``).
      only: True when the code fails on Python 3 as written (Python 2 only); False for a
        ``__future__`` line, which shows only that the file was written to run on
        Python 2 (too).
    """

    line: int
    what: str
    only: bool


def python2_evidence(tree: ast.Module) -> Tuple[Evidence, ...]:
    """Every sign in ``tree`` that it is Python 2 code, in line order.

    Args:
      tree: the stdlib ``ast`` of the user's file (before any codemod ran).

    Returns:
      The evidence; empty for Python 3 code.
    """
    found = getattr(tree, _CACHE, None)
    if found is None:
        found = tuple(sorted(set(_Reader(tree).evidence), key=lambda e: (e.line, e.what)))
        setattr(tree, _CACHE, found)  # every leftover codemod asks, of the same tree
    return found


_CACHE = "_slimport_python2_evidence"


def is_python2_code(tree: ast.Module) -> bool:
    """Whether ``tree`` is Python 2 code: any evidence (``python2_evidence``).

    Args:
      tree: the stdlib ``ast`` of the user's file.

    Returns:
      True when the file shows it was written for Python 2.
    """
    return bool(python2_evidence(tree))


def is_python2_only(tree: ast.Module) -> bool:
    """Whether ``tree`` fails on Python 3 as it is written (evidence with ``only``).

    Args:
      tree: the stdlib ``ast`` of the user's file.

    Returns:
      True when some construct of it ran on Python 2 only.
    """
    return any(evidence.only for evidence in python2_evidence(tree))


def _python3_parameters(node: Union[ast.FunctionDef, ast.Lambda]) -> bool:
    """Whether a function's parameters have an annotation, or keyword-only or
    positional-only ones."""
    arguments = node.args
    if arguments.kwonlyargs or arguments.posonlyargs:
        return True
    if isinstance(node, ast.FunctionDef) and node.returns is not None:
        return True
    every = [*arguments.args, *filter(None, (arguments.vararg, arguments.kwarg))]
    return any(argument.annotation is not None for argument in every)


# Node type -> (whether a node of it is syntax Python 2 cannot parse, how a report names it).
_PYTHON3_SYNTAX: Dict[type, Tuple[Callable[[Any], bool], str]] = {
    **{kind: ((lambda node: True), what) for kind, what in (
        (ast.JoinedStr, "an f-string"), (ast.NamedExpr, "`:=`"), (ast.Nonlocal, "`nonlocal`"),
        (ast.YieldFrom, "`yield from`"), (ast.AnnAssign, "a variable annotation"),
        (ast.AsyncFunctionDef, "`async def`"), (ast.Await, "`await`"),
        (ast.AsyncFor, "`async for`"), (ast.AsyncWith, "`async with`"))},
    **{kind: (_python3_parameters, "an annotation or a keyword-only parameter")
       for kind in (ast.FunctionDef, ast.Lambda)},
    ast.Raise: ((lambda node: node.cause is not None), "`raise ... from`"),
    ast.BinOp: ((lambda node: isinstance(node.op, ast.MatMult)), "the `@` operator"),
}
# Without ``from __future__ import print_function``, ``print(x, end='')`` too.
_PRINT_WITH_KEYWORDS = (lambda node: bool(node.keywords) and isinstance(node.func, ast.Name)
                        and node.func.id == "print", "`print(...)` with keywords")


def python3_only_syntax(tree: ast.Module) -> Optional[Tuple[int, str]]:
    """The first construct of ``tree`` Python 2 could not parse, or None: what shows that
    the file never ran on Python 2, whatever its project did (its absolute imports were
    always absolute).

    That is an f-string, ``:=``, ``nonlocal``, ``yield from``, ``async``/``await``, an
    annotation, a keyword-only or positional-only parameter, ``raise ... from``, the
    ``@`` operator, and ``print(...)`` with keywords in a file without ``from __future__
    import print_function``.

    Args:
      tree: the stdlib ``ast`` of the user's file.

    Returns:
      (line, what) of the first such construct, or None.
    """
    checks = dict(_PYTHON3_SYNTAX)
    if "print_function" not in future_features(tree):
        checks[ast.Call] = _PRINT_WITH_KEYWORDS
    found: List[Tuple[int, str]] = []
    for kind, nodes in kinds_under(tree):
        if kind in checks:
            test, what = checks[kind]
            line = next((node.lineno for node in nodes if test(node)), None)
            if line is not None:
                found.append((line, what))
    return min(found) if found else None


def future_features(tree: ast.Module) -> Set[str]:
    """The ``from __future__ import`` features of a module (``division``, ...).

    Args:
      tree: a module's stdlib ``ast``.

    Returns:
      The feature names its top-level ``__future__`` imports name.
    """
    return {alias.name for statement in tree.body
            if isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
            for alias in statement.names}


def describe(evidence: Sequence[Evidence], shown: int = 3) -> str:
    """The evidence as a report's sentence names it: ``xrange (line 3), ...``.

    Args:
      evidence: ``python2_evidence`` of a file.
      shown: how many to name.

    Returns:
      The first ``shown`` of them, the Python 2-only ones first.
    """
    ordered = sorted(evidence, key=lambda e: (not e.only, e.line))
    named = ", ".join(f"{e.what} (line {e.line})" for e in ordered[:shown])
    return named + (f" and {len(ordered) - shown} more" if len(ordered) > shown else "")


class _Reader:
    """Walks a module once, leaving out what a version guard holds."""

    def __init__(self, tree: ast.Module) -> None:
        self.evidence: List[Evidence] = []
        # Most files spell none of the words: their expressions are not walked, and what
        # reading them takes is not worked out.
        self.in_expressions = not _EXPRESSION_WORDS.isdisjoint(identifiers(tree))
        self.bound = _bound_anywhere(tree) if self.in_expressions else set()
        self.star = any(isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
                        for node in tree.body)
        self.modules = _module_names(tree) if self.in_expressions else {}
        for feature in sorted(future_features(tree) & FUTURE_FEATURES):
            line = next(s.lineno for s in tree.body if isinstance(s, ast.ImportFrom)
                        and s.module == "__future__" and any(a.name == feature for a in s.names))
            self.evidence.append(Evidence(line, f"from __future__ import {feature}", False))
        self._walk(tree.body)

    def _walk(self, body: Sequence[ast.stmt]) -> None:
        for statement in body:
            self._statement(statement)

    def _statement(self, statement: ast.stmt) -> None:
        if isinstance(statement, ast.Try):
            if not any(_catches_version_errors(h) for h in statement.handlers):
                self._walk(statement.body)
                for handler in statement.handlers:
                    self._walk(handler.body)
            self._walk(statement.orelse)
            self._walk(statement.finalbody)
            return
        if isinstance(statement, ast.If) and reads_version(statement.test):
            return
        if isinstance(statement, ast.ClassDef):
            self._class(statement)
        self._imports(statement)
        for value in ast.iter_fields(statement):
            items = value[1] if isinstance(value[1], list) else [value[1]]
            if items and all(isinstance(item, ast.stmt) for item in items):
                self._walk(items)
            elif self.in_expressions:
                for item in items:
                    if isinstance(item, ast.AST):
                        self._expressions(item)

    def _add(self, node: ast.AST, what: str) -> None:
        self.evidence.append(Evidence(getattr(node, "lineno", 0), what, True))

    def _imports(self, statement: ast.stmt) -> None:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.name.split(".")[0] in PY2_MODULES:
                    self._add(statement, f"import {alias.name}")
        elif isinstance(statement, ast.ImportFrom) and not statement.level and statement.module:
            module = statement.module
            if module.split(".")[0] in PY2_MODULES:
                self._add(statement, f"from {module} import ...")
            for alias in statement.names:
                if alias.name in PY2_MODULE_NAMES.get(module, ()):
                    self._add(statement, f"from {module} import {alias.name}")

    def _class(self, statement: ast.ClassDef) -> None:
        defined = {node.name for node in statement.body
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        defined |= {name for node in statement.body if isinstance(node, ast.Assign)
                    for name in bound_names(node)}
        for old, new in SPECIAL_METHODS.items():
            if old in defined and new not in defined:
                self._add(statement, f"{statement.name}.{old} without {new}")

    def _expressions(self, root: ast.AST) -> None:
        # Every node under ``root`` in no order (the evidence is sorted after), without
        # ast.walk's generators and the operators and contexts no check reads.
        pending = [root]
        while pending:
            node = pending.pop()
            pending += child_nodes(node)
            if isinstance(node, ast.Name):
                if node.id in PY2_BUILTINS and isinstance(node.ctx, ast.Load) \
                        and node.id not in self.bound and not self.star:
                    self._add(node, node.id)
            elif isinstance(node, ast.Attribute):
                self._attribute(node)
            elif isinstance(node, ast.Call):
                if any(keyword.arg == "cmp" for keyword in node.keywords) and (
                        (isinstance(node.func, ast.Attribute) and node.func.attr == "sort")
                        or (isinstance(node.func, ast.Name) and node.func.id == "sorted")):
                    self._add(node, "sort(cmp=...)")

    def _attribute(self, node: ast.Attribute) -> None:
        receiver = node.value
        module = self.modules.get(receiver.id) if isinstance(receiver, ast.Name) else None
        if module is not None and node.attr in PY2_MODULE_NAMES.get(module, ()):
            self._add(node, f"{module}.{node.attr}")


def _bound_anywhere(tree: ast.Module) -> Set[str]:
    """Every name a statement or parameter of the file binds, at any depth (read off the
    file's shared walk, ``slimport.analysis.ast_index``; ``:=`` looked for only in a
    file that has one)."""
    walrus = uses_walrus(tree)
    names: Set[str] = set()
    for kind, nodes in kinds_under(tree):
        if issubclass(kind, ast.stmt):
            for node in nodes:
                names.update(bound_names(node, walrus))
        elif kind is ast.arg:
            names.update(node.arg for node in nodes)
    return names


def _module_names(tree: ast.Module) -> Dict[str, str]:
    """Local name -> module, for the ``import M`` / ``import M as m`` of the file."""
    modules: Dict[str, str] = {}
    # In ast.walk's order: where two imports bind one name, which comes first decides.
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name.split(".")[0]] = \
                    alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:  # ``from six.moves import urllib``: a module of six's
                modules.setdefault(alias.asname or alias.name, f"{node.module}.{alias.name}")
    return modules


def _catches_version_errors(handler: ast.ExceptHandler) -> bool:
    """Whether an ``except`` clause catches what a missing Python 2 name raises."""
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in _GUARD_ERRORS | {"Exception", "BaseException"}
               for t in types)


def reads_version(test: ast.expr) -> bool:
    """Whether an ``if`` test tells Python 2 from 3 (``six.PY2``, ``sys.version_info``):
    what such an ``if`` holds was written to run on Python 3 too.

    Args:
      test: the ``if`` statement's test.

    Returns:
      True when it reads ``PY2``/``PY3``/``version_info``/``version``.
    """
    return any((isinstance(node, ast.Name) and node.id in _VERSION_WORDS)
               or (isinstance(node, ast.Attribute) and node.attr in _VERSION_WORDS)
               for node in ast.walk(test))

