"""What every slimport codemod shares: a cheap applicability check and a findings log.

A codemod is a libcst ``VisitorBasedCodemodCommand``; this base adds only what the
engine needs to stay fast and to report: ``TRIGGERS`` lets the engine skip a file
without parsing it for this codemod, ``statement_filter`` lets it hand the codemod
only the statements it needs (``slimport.engine.skeleton``), and ``record_edit`` /
``needs_attention`` collect per-file results with line numbers for the report.
Attention items also go to libcst's ``context.warnings``, so ``python -m libcst.tool
codemod`` users see them too.
"""
from __future__ import annotations

import ast
from contextlib import contextmanager
from dataclasses import replace
from typing import (AbstractSet, Any, Callable, ClassVar, Dict, FrozenSet, Iterator, List,
                    Mapping, Optional, Pattern, Sequence, Tuple, Union)

import libcst as cst

# First: it imports libcst.codemod (and libcst.matchers) the fast way.
from slimport.codemods import matcher_setup
from libcst.codemod import Codemod, CodemodContext, VisitorBasedCodemodCommand
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.matchers._decorators import (
    CONSTRUCTED_LEAVE_MATCHER_ATTR,
    CONSTRUCTED_VISIT_MATCHER_ATTR,
    VISIT_NEGATIVE_MATCHER_ATTR,
    VISIT_POSITIVE_MATCHER_ATTR,
)
from libcst.metadata import MetadataWrapper

from slimport.codemods import copy_on_write
from slimport.analysis.lines import LineIndex, lines_of
from slimport.analysis.findings import ATTENTION, Finding
from slimport.codemods.context import AST_KEY, CODES_KEY, ORIGINAL_AST_KEY, SOURCE_LINE_KEY
from slimport.codemods.tree_facts import TreeContents, TreeFact
from slimport.analysis.names import (
    Bindings,
    collect_bindings,
    dotted_parts,
    parse_source,
    statement_chains,
    uses_walrus,
)
from slimport.analysis.regex_words import may_match, required_words
from slimport.analysis.scopes import ScopeStack, resolve_in


def code_of(node: cst.CSTNode) -> str:
    """The source text of ``node`` on its own, for edit messages.

    Args:
      node: any libcst node.

    Returns:
      Its code, as a module of its own would print it.
    """
    return cst.Module(body=[]).code_for_node(node)


def _import_forms(local: str, qualified: str) -> Sequence[Tuple[str, Optional[str], Optional[str]]]:
    """The (module, obj, asname) import spellings that could bind ``local`` to ``qualified``."""
    if local == qualified:
        return [(qualified, None, None)]
    forms: List[Tuple[str, Optional[str], Optional[str]]] = [(qualified, None, local)]
    if "." in qualified:
        module, _, obj = qualified.rpartition(".")
        forms.append((module, obj, None if obj == local else local))
    return forms


StatementFilter = Callable[[ast.stmt], bool]
# The attributes libcst's matcher decorators (@m.visit, @m.call_if_inside, ...) set.
_MATCHER_MARKERS = (VISIT_POSITIVE_MATCHER_ATTR, VISIT_NEGATIVE_MATCHER_ATTR,
                    CONSTRUCTED_VISIT_MATCHER_ATTR, CONSTRUCTED_LEAVE_MATCHER_ATTR)


def chain_filter(touches: Callable[[List[str]], bool]) -> StatementFilter:
    """A statement filter: does some ``a.b.c`` chain of the statement's own parts
    (``statement_chains``) satisfy ``touches``?

    Args:
      touches: True for the chains (split into parts) the codemod needs.

    Returns:
      The filter, for ``statement_filter``.
    """
    return lambda statement: any(touches(parts) for parts in statement_chains(statement))


def _is_import_line(statement: cst.BaseStatement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], (cst.Import, cst.ImportFrom)))


def _add_imports(context: CodemodContext, tree: cst.Module) -> cst.Module:
    """Run AddImportsVisitor over the head of ``tree`` only.

    The visitor reads and edits nothing but the first block of imports (after a
    docstring) and the blank lines before the statement after it, yet visits the
    whole module twice; on an entry script that was most of a codemod's time.
    """
    body = list(tree.body)
    end = 1 if body and not _is_import_line(body[0]) else 0
    while end < len(body) and _is_import_line(body[end]):
        end += 1
    follower = body[end] if end < len(body) else None
    if isinstance(follower, cst.BaseCompoundStatement):
        # Of the statement after the imports the visitor only reads and edits the
        # blank lines above it; a stand-in spares it a walk through, say, a class.
        body[end] = cst.SimpleStatementLine([cst.Pass()], leading_lines=follower.leading_lines)
    head = _HeadImports(context).transform_module(tree.with_changes(body=body[:end + 1]))
    new_body = list(head.body)
    if isinstance(follower, cst.BaseCompoundStatement):
        stand_in = new_body[-1]
        new_body[-1] = follower.with_changes(leading_lines=stand_in.leading_lines)
    return head.with_changes(body=[*new_body, *body[end + 1:]], footer=tree.footer)


matcher_setup.install()
copy_on_write.install()

Handlers = Tuple[Optional[Callable], Optional[Callable]]


class _HandlerTable(Dict[type, Handlers]):
    """Node class -> one codemod class's ``visit_<Node>`` and ``leave_<Node>``, or None,
    looked up on first use. CSTTransformer looks both up by name at every node (an
    f-string, and a getattr that walks the whole class hierarchy when the codemod has
    none: at most nodes); that was the largest single cost of a pass."""

    def __init__(self, codemod: type) -> None:
        super().__init__()
        self.codemod = codemod

    def __missing__(self, node: type) -> Handlers:
        name = node.__name__
        # libcst's do-nothing visit_<Node> / leave_<Node> are not called either.
        found = self[node] = tuple(  # type: ignore[assignment]
            getattr(self.codemod, method) if copy_on_write.own_method(self.codemod, method)
            else None for method in (f"visit_{name}", f"leave_{name}"))
        return found


# codemod class -> its handler table, shared by its instances.
_HANDLERS: Dict[type, _HandlerTable] = {}


class SlimportCodemod(VisitorBasedCodemodCommand):
    """Base for slimport codemods; subclasses set NAME, DESCRIPTION and TRIGGERS."""

    NAME: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""
    # The file can only need this codemod if its text contains one of these strings,
    # or, when TRIGGER is set, if its text matches that pattern.
    TRIGGERS: ClassVar[Tuple[str, ...]] = ()
    TRIGGER: ClassVar[Optional[Pattern[str]]] = None
    # Identifiers (a name, an attribute, an imported name, ...: ``identifiers``) a file
    # must spell, one of them, for the codemod to edit or report anything in it; read off
    # the stdlib ast after the text pre-check, before any libcst work. Empty: no check.
    NAME_TRIGGERS: ClassVar[FrozenSet[str]] = frozenset()
    # Keyword arguments this codemod accepts from the user; the engine passes only these
    # (e.g. uai_flags declares ("mapping",) for the CLI's --map).
    OPTIONS: ClassVar[Tuple[str, ...]] = ()
    # Names of the codemods that must run before this one, when both are selected: the
    # registry checks its order against them at import (``slimport.codemods``).
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = ()
    # Facts about the whole tree this codemod reads (``tree_facts``): the engine gathers
    # them once per run and passes each as the keyword argument named for it.
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Refuse, at import, a codemod the engine would silently never run or run wrong."""
        super().__init_subclass__(**kwargs)
        if cls.NAME and not cls.TRIGGERS and cls.TRIGGER is None and \
                cls.applies_to.__func__ is SlimportCodemod.applies_to.__func__:  # type: ignore[attr-defined]
            raise TypeError(f"codemod {cls.NAME}: no TRIGGERS or TRIGGER, so the engine's "
                            "text pre-check would never let it run; list the strings a file "
                            "it can change must contain")
        decorated = [name for name, member in vars(cls).items()
                     if any(hasattr(member, marker) for marker in _MATCHER_MARKERS)]
        if decorated:
            raise TypeError(f"codemod {cls.NAME or cls.__name__}: matcher decorators on "
                            f"{', '.join(decorated)} never fire in a SlimportCodemod (it skips "
                            "MatcherDecoratableTransformer's set-up); use visit_/leave_ "
                            "methods")

    @classmethod
    def check_options(cls, options: Mapping[str, Any], tree: TreeContents) -> List[str]:
        """Warnings about the user's options for this codemod, read against the tree
        (the engine's pre-pass calls it; default: none).

        Args:
          options: the user's codemod options (every codemod's).
          tree: the tree being ported.

        Returns:
          One sentence per problem, saying what to do.
        """
        return []

    def __init__(self, context, **kwargs) -> None:  # type: ignore[no-untyped-def]
        # Codemod's and CSTTransformer's set-up, not MatcherDecoratableTransformer's:
        # that one scans every attribute of the instance for matcher decorators
        # (about 10 ms, for every file and codemod) and then checks matchers at
        # every node; slimport codemods use no matcher decorators
        # (tests/slimport/test_skeleton.py checks).
        Codemod.__init__(self, context)
        cst.CSTTransformer.__init__(self)
        self._extra_visit_funcs = {}
        self._extra_leave_funcs = {}
        self._handler_table = _HANDLERS.setdefault(type(self), _HandlerTable(type(self)))
        self.findings: List[Finding] = []
        # Findings of the current pass with the node they are at, lines still unknown.
        self._unplaced: List[Tuple[Optional[cst.CSTNode], Finding]] = []
        # The lines of the tree this pass was given, made on the first ``source_line_of``.
        self._line_index: Optional[LineIndex] = None
        self.module_names = Bindings()
        self.scopes = ScopeStack(lambda: False)
        # So that every per-file attribute exists before the first file.
        self.start_file(cst.Module(body=[]))

    # Every visit keeps track of the scopes it is in, so that ``resolve_name`` answers as
    # Python would at that point. The visit_<Node> / leave_<Node> methods are those
    # CSTTransformer would call, found once per codemod class and node class.
    def on_visit(self, node: cst.CSTNode) -> bool:
        self.scopes.visit(node)
        visit = self._handler_table[type(node)][0]
        return visit is None or visit(self, node) is not False

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode
                 ) -> Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]:
        leave = self._handler_table[type(original_node)][1]
        result = updated_node if leave is None else leave(self, original_node, updated_node)
        self.scopes.leave(original_node)
        return result

    def resolve_name(self, node: cst.CSTNode) -> Optional[str]:
        """The qualified dotted name of a ``Name``/``Attribute`` chain where the visit
        is now, or None when its first name is not bound to a module there.

        ``tf.app.flags`` is ``tensorflow.app.flags`` after ``import tensorflow as tf``,
        except inside a function (or lambda, class body, comprehension) that binds
        ``tf`` to something else (``slimport.analysis.scopes``).

        Args:
          node: a libcst node (anything but a name chain resolves to None).

        Returns:
          The qualified name, e.g. ``tensorflow.app.flags``, or None.
        """
        parts = dotted_parts(node)
        return None if parts is None else self.resolve_parts(parts)

    def resolve_parts(self, parts: Sequence[str]) -> Optional[str]:
        """``resolve_name`` for a chain already split into parts.

        Args:
          parts: the chain, split (``["tf", "app", "flags"]``).

        Returns:
          The qualified name, or None when the first part stands for nothing known.
        """
        return resolve_in(self.scopes.scopes, self.module_names, parts)

    @property
    def in_deferred_code(self) -> bool:
        """True inside a function or lambda body: code that runs after the module has."""
        return self.scopes.deferred > 0

    def target_of(self, name: str) -> Optional[str]:
        """What the bare name ``name`` stands for where the visit is now (``resolve_name``).

        Args:
          name: a bare name.

        Returns:
          The qualified name it is bound to, or None.
        """
        return self.resolve_parts([name])

    def alias_here(self, stands_for: Callable[[str], bool], prefer: str = "") -> Optional[str]:
        """A module-level name for a module, that code where the visit is now can use.

        Inside a function or lambda body any module-level binding will have run; at
        module level only those of the statements before this one have (a use on the
        line before ``slim = tf.contrib.slim`` cannot go through ``slim``). The name
        must also mean the same here (no local variable hides it).

        Args:
          stands_for: True for the qualified names the alias may be bound to.
          prefer: the name to take when several qualify.

        Returns:
          The name, or None: the caller imports the module under a name of its own.
        """
        usable = [
            name for name, target in self.module_names.names.items()
            if stands_for(target)
            and (self.in_deferred_code or name in self.scopes.module_bound)
            and self.target_of(name) == target
        ]
        if prefer in usable:
            return prefer
        return usable[0] if usable else None

    # libcst looks up a visit_<Node>_<field> and a leave_<Node>_<field> method for
    # every field of every node; slimport codemods define none (test_skeleton.py
    # checks), and the lookups were a tenth of a pass.
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    @classmethod
    def applies_to(cls, source: str) -> bool:
        """Cheap text pre-check: False means the codemod cannot change this source.

        Args:
          source: the file's text.

        Returns:
          False when no ``TRIGGERS`` string is in it (or, with ``TRIGGER``, when it does
          not match).
        """
        if cls.TRIGGER is not None:
            # The words one of which every match contains are asked for first: most of
            # the files the pattern cannot match are ruled out by a substring search.
            return may_match(cls.TRIGGER, required_words(cls.TRIGGER), source)
        return any(trigger in source for trigger in cls.TRIGGERS)

    @classmethod
    def text_words(cls) -> Optional[FrozenSet[str]]:
        """Words one of which every text ``applies_to`` passes contains.

        Returns:
          The ``TRIGGERS``, or the words every match of ``TRIGGER`` contains; None when
          they are not known (a pattern without such words, or a codemod's own
          ``applies_to``).
        """
        if getattr(cls.applies_to, "__func__", None) is not _BASE_APPLIES_TO:
            return None
        if cls.TRIGGER is not None:
            return required_words(cls.TRIGGER)
        return frozenset(cls.TRIGGERS)

    @classmethod
    def applies_to_names(cls, names: AbstractSet[str]) -> bool:
        """Cheap ast pre-check: False means the codemod cannot change or report anything
        in a file that spells only ``names``.

        Args:
          names: ``identifiers`` of the file (or of more: the check is a superset's).

        Returns:
          False when ``NAME_TRIGGERS`` is given and none of them is among ``names``.
        """
        return not cls.NAME_TRIGGERS or not cls.NAME_TRIGGERS.isdisjoint(names)

    @classmethod
    def applies_to_file(cls, original: ast.Module) -> bool:
        """Cheap check of the user's file: False means ``start_file`` declines it whatever
        the skeleton and the codemods before have made of it, so the engine neither runs
        the codemod nor keeps statements for it (default: True).

        Args:
          original: the stdlib ``ast`` of the user's file before any codemod ran.

        Returns:
          False when the codemod certainly does nothing in the file.
        """
        return True

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> Optional[StatementFilter]:
        """Which statements inside functions and classes this codemod may edit or read.

        The engine then hands the codemod a skeleton of the file with the other
        statements of function and class bodies elided (``slimport.engine.skeleton``), which
        is most of the cost of a libcst pass saved. The filter must say True for every
        statement the codemod would edit or report, judged on ``tree`` as it is.

        Args:
          tree: the file as the stdlib ``ast`` parses it.
          bindings: ``collect_bindings(tree)``.

        Returns:
          None (the default) when the codemod must see the whole file.
        """
        return None

    @classmethod
    def rebound(cls, bindings: Bindings) -> Bindings:
        """``bindings`` as this codemod leaves them, for the filters of the codemods
        after it in the same run (default: unchanged).

        Args:
          bindings: the bindings before this codemod runs.

        Returns:
          The bindings after it.
        """
        return bindings

    def start_file(self, tree: cst.Module) -> bool:
        """Set the per-file state from ``tree``; False if the file needs nothing.

        Per-file state is set here, not in ``__init__``, because ``python -m
        libcst.tool codemod`` reuses one instance for many files.

        Args:
          tree: the module about to be transformed.

        Returns:
          False to hand the tree back untouched (nothing to do here).
        """
        return True

    def file_ast(self, tree: cst.Module) -> ast.Module:
        """``tree`` as the stdlib ``ast`` parses it, for ``collect_bindings``.

        The engine parsed it already and passes it in ``context.scratch``; under
        ``python -m libcst.tool codemod`` it is parsed here.

        Args:
          tree: the module being transformed.

        Returns:
          Its stdlib ``ast``.
        """
        given = self.context.scratch.get(AST_KEY)
        if given is not None and given[0] is tree:
            return given[1]()
        return parse_source(tree.code)

    @property
    def original_ast(self) -> Optional[ast.Module]:
        """The stdlib ``ast`` of the user's file before any codemod ran, when the engine
        gave it (None under ``python -m libcst.tool codemod``): what earlier codemods
        rewrote (``tf.app.flags``, ``tf.contrib``) still shows there."""
        return self.context.scratch.get(ORIGINAL_AST_KEY)

    def transform_module(self, tree: cst.Module) -> cst.Module:
        """Run the codemod over ``tree``: findings, then the scheduled imports.

        Args:
          tree: the module (a skeleton, or a whole file).

        Returns:
          The transformed module (``tree`` itself when nothing changed).
        """
        parsed = self.file_ast(tree)
        self.module_names = collect_bindings(parsed, module_level_only=True)
        self.scopes = ScopeStack(lambda: uses_walrus(parsed))
        # Decide before libcst copies the tree and computes positions for it.
        if not self.start_file(tree):
            return tree
        # What CodemodCommand.transform_module does, except that AddImportsVisitor
        # gets only the head of the module.
        original = tree
        tree = Codemod.transform_module(self, tree)
        self._line_index = None
        self._resolve_findings(original)
        if AddImportsVisitor.CONTEXT_KEY in self.context.scratch:
            tree = _add_imports(self.context, tree)
        if RemoveImportsVisitor.CONTEXT_KEY in self.context.scratch:
            tree = self._instantiate_and_run(RemoveImportsVisitor, tree)
        return tree

    @contextmanager
    def _handle_metadata_reference(self, module: cst.Module) -> Iterator[cst.Module]:
        # libcst's own version deep-copies the tree first, in case a node object
        # stands in it twice; ours come from the parser or from a codemod, which
        # never places one node twice, and the engine drops a tree once it has
        # handed it on. The copy cost about a tenth of the CPU time per file.
        # libcst has no public switch for it: this overrides Codemod's method of
        # the same name, without its repo-wide metadata cache (PositionProvider,
        # the only provider a slimport codemod reads, needs none).
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        previous = self.context.wrapper
        with self.resolve(wrapper):
            self.context = replace(self.context, wrapper=wrapper)
            try:
                yield wrapper.module
            finally:
                self.context = replace(self.context, wrapper=previous)

    def schedule_import_removal(self, local: str, qualified: str) -> None:
        """Have RemoveImportsVisitor drop the import binding ``local`` to ``qualified``.

        The visitor removes an import only if nothing uses it any more, after
        this pass; it is told every spelling that could have bound ``local``.

        Args:
          local: the name the import binds.
          qualified: what it binds it to.
        """
        for module, obj, asname in _import_forms(local, qualified):
            self.remove_unused_import(module, obj, asname)

    def source_line_of(self, node: cst.CSTNode) -> int:
        """The line of the user's file ``node`` (an original node) starts on; 0 if unknown.

        For a line inside a message (a finding's own line is mapped by the engine):
        the engine may hand the codemod a skeleton, and a line of that is not a line
        of the file.

        Args:
          node: a node of the tree this pass was given.

        Returns:
          Its 1-based line in the user's file, or 0.
        """
        module = self.context.wrapper.module
        if self._line_index is None or self._line_index.module is not module:
            self._line_index = LineIndex(module)
        line = self._line_index.line_of(node)
        to_source = self.context.scratch.get(SOURCE_LINE_KEY)
        return to_source(line) if to_source is not None and line else line

    def record_edit(self, node: Optional[cst.CSTNode], message: str) -> None:
        """Log an edit made at ``node`` (an original, pre-edit node).

        Args:
          node: where the edit is (None: no line).
          message: what changed, e.g. ``tf.contrib.slim -> tf_slim``.
        """
        self._unplaced.append((node, Finding(self.NAME, 0, message)))

    def needs_attention(self, node: Optional[cst.CSTNode], message: str, fix: str) -> None:
        """Log a construct that could not be ported automatically, with a suggested fix.

        Args:
          node: where the construct is (None: no line).
          message: what could not be ported, and why.
          fix: what the user should do.
        """
        self._unplaced.append((node, Finding(self.NAME, 0, message, fix, kind=ATTENTION)))

    def slim_ext_free(self, node: cst.CSTNode, problem: str, fix: str) -> bool:
        """Whether code here may name the ``slim_ext`` package; when the file binds the
        name to something else, ``node`` is reported (``problem``, then why it is left).

        Args:
          node: the construct a port would send to slim_ext.
          problem: what is wrong with it on current libraries.
          fix: the ported spelling, for the user.

        Returns:
          True when ``slim_ext`` is free or already the package.
        """
        if self.target_of("slim_ext") in (None, "slim_ext"):
            return True
        self.needs_attention(node, f"{problem}; left unchanged because the file uses the "
                             "name slim_ext for something else", fix)
        return False

    def _resolve_findings(self, tree: cst.Module) -> None:
        """Give the findings of the pass over ``tree`` their lines; warn libcst.tool users."""
        nodes = [node for node, _ in self._unplaced if node is not None]
        lines = lines_of(tree, nodes, self.context.scratch.get(CODES_KEY),
                         self.scopes.top_of) if nodes else {}
        for node, finding in self._unplaced:
            finding = replace(finding, line=lines.get(id(node), 0))
            self.findings.append(finding)
            if finding.kind == ATTENTION:
                self.warn(finding.as_warning())
        self._unplaced = []


# The text pre-check ``text_words`` knows the words of.
_BASE_APPLIES_TO = SlimportCodemod.applies_to.__func__  # type: ignore[attr-defined]

# A codemod's visit does nothing at a node but track scopes (which only modules,
# statements, definitions and comprehensions open) and call its handlers.
copy_on_write.dispatches_by_node_type(SlimportCodemod.on_visit, SlimportCodemod.on_leave,
                                      SlimportCodemod.on_visit_attribute,
                                      SlimportCodemod.on_leave_attribute)


class _HeadImports(AddImportsVisitor):
    """libcst's AddImportsVisitor without its deep copy of the tree first: it reads no
    metadata, so the copy (a tenth of an entry script's port) protected nothing."""

    _handle_metadata_reference = SlimportCodemod._handle_metadata_reference
