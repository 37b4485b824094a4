"""Write slimport/tables/libcst_children.py: which fields of each libcst node are its
children, in the order libcst visits them, and which nodes hold only whitespace.

libcst walks a tree by calling each node's ``_visit_and_replace_children``, which visits
the children in source order and builds a new node from them, whether or not anything
changed (its own TODO: "provide traversal where children are not replaced"). slimport's
walk (``slimport.codemods.copy_on_write``) visits the same children in the same order
and builds a node only where a child changed; this table is what it reads. It is read
off libcst's own source, for the libcst installed here:

    python tools/gen_libcst_children.py            # write the table
    python tools/gen_libcst_children.py --check    # exit 1 if it is stale

Each ``_visit_and_replace_children`` of libcst 1.9 builds its node with one call whose
keyword arguments are ``visit_<kind>(self, "<field>", self.<field>, visitor)`` (or a
choice between two of them); anything else stops this tool with the class named, so a
libcst release that visits some node another way cannot slip by.
"""
from __future__ import annotations

import argparse
import ast
import inspect
import sys
import textwrap
import typing
from pathlib import Path
from typing import Dict, List, Sequence, Set, Tuple

import libcst
from libcst._nodes.base import CSTNode

# The repository's line length (ruff).
LINE_LENGTH = 100
OUTPUT = Path(__file__).resolve().parent.parent / "slimport" / "tables" / "libcst_children.py"
# libcst's visit helpers -> how a removed or flattened child is treated (the table's kinds).
KINDS = {
    "visit_required": "REQUIRED", "visit_optional": "OPTIONAL",
    "visit_sentinel": "SENTINEL", "visit_sequence": "SEQUENCE",
    "visit_iterable": "SEQUENCE", "visit_body_sequence": "BODY",
    "visit_body_iterable": "BODY",
}


class UnknownShape(Exception):
    """A node's ``_visit_and_replace_children`` is not of the shape this tool reads."""


def _helper_kind(value: ast.expr, field: str) -> str:
    """The kind of one keyword argument's visit; '' when it visits nothing."""
    if isinstance(value, ast.IfExp):
        kinds = {_helper_kind(branch, field) for branch in (value.body, value.orelse)}
        kinds.discard("")
        # ImportFrom.names: one ImportStar or a sequence; FormattedStringExpression
        # .format_spec: a sequence or None. The walk tells them by the value.
        if kinds <= {"REQUIRED", "SEQUENCE"} and "SEQUENCE" in kinds:
            return "SEQUENCE"
        raise UnknownShape(f"field {field}: a choice between {sorted(kinds)}")
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
            and value.func.id in KINDS:
        given = value.args[1] if len(value.args) == 4 else None
        if not (isinstance(given, ast.Constant) and given.value == field):
            raise UnknownShape(f"field {field}: visited under another name")
        return KINDS[value.func.id]
    if isinstance(value, ast.Constant) and value.value is None:
        return ""
    if isinstance(value, (ast.Attribute, ast.Name)):  # ``conversion=self.conversion``
        return ""
    raise UnknownShape(f"field {field}: {ast.unparse(value)}")


def children_of(cls: type) -> Tuple[Tuple[str, str], ...]:
    """``cls``'s child fields in visiting order, each with its kind.

    Raises:
      UnknownShape: the method is not one call building the node from visits.
    """
    method = cls._visit_and_replace_children
    tree = ast.parse(textwrap.dedent(inspect.getsource(method)))
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    body = [statement for statement in function.body
            if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return) \
            and isinstance(body[0].value, ast.Name) and body[0].value.id == "self":
        return ()  # a leaf
    built = None
    for statement in body:
        if isinstance(statement, ast.Return):
            if not isinstance(statement.value, ast.Name):  # ``return ret``: built above
                built = statement.value
        elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
            built = statement.value  # ``ret = TypeParam(...)`` then ``return ret``
        elif not (isinstance(statement, ast.Assign)
                  and isinstance(statement.value, ast.Attribute)):
            raise UnknownShape(f"statement {ast.unparse(statement)!r}")
    if not isinstance(built, ast.Call) or built.args:
        raise UnknownShape("no call building the node from keyword arguments")
    fields = []
    for keyword in built.keywords:
        if keyword.arg is None:
            raise UnknownShape("a ** argument")
        kind = _helper_kind(keyword.value, keyword.arg)
        if kind:
            fields.append((keyword.arg, kind))
    return tuple(fields)


def node_classes() -> List[type]:
    """Every concrete node class libcst exports, by name."""
    found = {}
    for name in dir(libcst):
        value = getattr(libcst, name)
        if isinstance(value, type) and issubclass(value, CSTNode) \
                and not inspect.isabstract(value):
            found[value.__name__] = value
    return [found[name] for name in sorted(found)]


def _node_types(hint: object) -> Set[type]:
    """The node classes a field's type hint allows."""
    origin = typing.get_origin(hint)
    if origin is not None:
        return {node for argument in typing.get_args(hint) for node in _node_types(argument)}
    if isinstance(hint, type) and issubclass(hint, CSTNode):
        return {hint}
    return set()


def trivia(table: Dict[type, Tuple[Tuple[str, str], ...]]) -> List[str]:
    """Whitespace, comments, punctuation and operators: the nodes that hold no name,
    literal, expression or statement (libcst's ``whitespace`` and ``op`` modules, and
    the brackets and markers of its ``expression`` module).

    Raises:
      SystemExit: one of them can hold something else (checked on the type hints).
    """
    quiet = {cls for cls in table if cls.__module__ in _TRIVIA_MODULES
             or cls.__name__ in _PUNCTUATION}
    for cls in sorted(quiet, key=lambda cls: cls.__name__):
        hints = typing.get_type_hints(cls)
        for field, _ in table[cls]:
            held = {sub for base in _node_types(hints[field]) for sub in table
                    if issubclass(sub, base)}
            if not held <= quiet:
                raise SystemExit(f"libcst.{cls.__name__}.{field} can hold "
                                 f"{sorted(c.__name__ for c in held - quiet)}: not trivia")
    return sorted(cls.__name__ for cls in quiet)


_TRIVIA_MODULES = ("libcst._nodes.whitespace", "libcst._nodes.op")
_PUNCTUATION = frozenset({"LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket",
                          "LeftCurlyBrace", "RightCurlyBrace", "Asynchronous", "ParamStar",
                          "ParamSlash"})


def render(table: Dict[type, Tuple[Tuple[str, str], ...]], quiet: Sequence[str]) -> str:
    lines = [
        '"""libcst\'s node children, in the order libcst visits them: generated by',
        f"tools/gen_libcst_children.py from libcst {libcst_version()}; do not edit.",
        "",
        "``CHILDREN``: node class name -> ((field, kind), ...); a kind says what a removed",
        "or flattened child does there, as libcst's visit helpers do: REQUIRED (an error),",
        "OPTIONAL (None), SENTINEL (MaybeSentinel.DEFAULT), SEQUENCE (dropped or spliced),",
        "BODY (as SEQUENCE, and an emptied statement line is dropped). A SEQUENCE field may",
        "also hold a single node (``ImportFrom.names``: ``*``) or None.",
        "``TRIVIA``: the nodes that hold only whitespace, comments and fixed tokens.",
        '"""',
        "",
        'REQUIRED, OPTIONAL, SENTINEL, SEQUENCE, BODY = "required", "optional", "sentinel", \\',
        '    "sequence", "body"',
        "",
        "CHILDREN = {",
    ]
    for cls in sorted(table, key=lambda cls: cls.__name__):
        items = [f"({field!r}, {kind})," for field, kind in table[cls]]
        one_line = f"    {cls.__name__!r}: ({' '.join(items)}),"
        if len(one_line) <= LINE_LENGTH:
            lines.append(one_line)
            continue
        lines.append(f"    {cls.__name__!r}: (")
        row = "       "
        for item in items:
            if len(row) + 1 + len(item) > LINE_LENGTH:
                lines.append(row)
                row = "       "
            row += " " + item
        lines += [row, "    ),"]
    lines.append("}")
    lines.append("")
    lines.append("TRIVIA = frozenset({")
    lines += [f"    {name!r}," for name in quiet]
    lines.append("})")
    return "\n".join(lines) + "\n"


def libcst_version() -> str:
    from importlib.metadata import version
    return version("libcst")


def generate() -> str:
    """The table's module text for the libcst installed here."""
    table = {}
    for cls in node_classes():
        try:
            table[cls] = children_of(cls)
        except UnknownShape as error:
            raise SystemExit(f"libcst.{cls.__name__}._visit_and_replace_children: {error}; "
                             f"slimport's walk cannot mirror it: extend this tool") from None
    return render(table, trivia(table))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the table differs from what libcst says")
    args = parser.parse_args()
    text = generate()
    if args.check:
        if OUTPUT.read_text() != text:
            print(f"{OUTPUT} is stale: run python tools/gen_libcst_children.py",
                  file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
