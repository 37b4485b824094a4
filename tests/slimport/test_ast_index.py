"""slimport.analysis.ast_index: one walk, filed by type, answers as a walk in source
order would, for a tree and for each statement in it."""
import ast
import gc
import weakref
from pathlib import Path

import pytest

from slimport.analysis.ast_index import TOKEN_FIELDS, child_nodes, kinds_under, nodes_of

ROOT = Path(__file__).resolve().parents[2]
# Real code of many shapes: the bundled TF1 trees and the engine itself.
SOURCES = sorted([*ROOT.glob("examples/slim_tf1/**/*.py"), *ROOT.glob("slimport/engine/*.py")])
KINDS = (ast.Name, ast.Attribute, ast.Call, ast.FunctionDef, ast.ClassDef, ast.Module,
         ast.If, ast.Subscript, ast.alias, ast.arg, ast.keyword)


# What the index leaves out: the shared load / store / operator instances.
TOKENS = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)


def _in_source_order(node):
  yield node
  for child in ast.iter_child_nodes(node):
    yield from _in_source_order(child)


def _kinds(node):
  return {type(found) for found in ast.walk(node) if not isinstance(found, TOKENS)}


def _by_walk(node, kinds):
  return [found for kind in kinds for found in _in_source_order(node) if type(found) is kind]


def _statements(tree):
  return [node for node in _in_source_order(tree) if isinstance(node, ast.stmt)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_nodes_of_gives_what_a_walk_gives_for_the_module_and_each_statement(path):
  tree = ast.parse(path.read_text(encoding="utf-8"))
  assert list(nodes_of(tree, KINDS)) == _by_walk(tree, KINDS)
  # Every statement at any depth, answered from the tree's one walk.
  for statement in _statements(tree):
    assert list(nodes_of(statement, KINDS)) == _by_walk(statement, KINDS)
    assert dict(kinds_under(statement)) == {
        kind: _by_walk(statement, (kind,)) for kind in _kinds(statement)}
  assert {kind: nodes for kind, nodes in kinds_under(tree)} == {
      kind: _by_walk(tree, (kind,)) for kind in _kinds(tree)}


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_child_nodes_leaves_out_only_operators_and_contexts(path):
  for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
    assert child_nodes(node) == [
        child for child in ast.iter_child_nodes(node) if not isinstance(child, TOKENS)]


def test_the_left_out_fields_hold_only_operators_and_contexts():
  # On this Python's grammar: a field of that name anywhere holds nothing else.
  tree = ast.parse("a.b[c], *d = [e + f < g and not h for i in ()]\nj -= ~k\ndel l\n")
  for node in ast.walk(tree):
    for name in TOKEN_FIELDS & set(node._fields):
      value = getattr(node, name)
      items = value if isinstance(value, list) else [value]
      assert all(isinstance(item, TOKENS) for item in items)


def test_a_statement_asked_before_its_tree_answers_the_same():
  # Asked first, a function is walked on its own; the module's walk later re-files its
  # statements under the module's index: both give the same nodes.
  tree = ast.parse("def f(a):\n  if a:\n    return g(a.b)\n  return h(a)\n")
  function = tree.body[0]
  inner = function.body[0]
  before = (list(nodes_of(function, KINDS)), list(nodes_of(inner, KINDS)))
  list(nodes_of(tree, KINDS))
  assert (list(nodes_of(function, KINDS)), list(nodes_of(inner, KINDS))) == before
  assert before[1] == _by_walk(inner, KINDS)


def test_a_statement_outliving_its_tree_is_walked_again():
  tree = ast.parse("x = f(y)\n")
  list(nodes_of(tree, (ast.Name,)))
  statement = tree.body[0]
  del tree
  gc.collect()
  assert [node.id for node in nodes_of(statement, (ast.Name,))] == ["x", "f", "y"]


def test_the_node_itself_is_given_once_and_first_of_its_kind():
  call = ast.parse("f(g(x))", mode="eval").body
  assert [node.func.id for node in nodes_of(call, (ast.Call,))] == ["f", "g"]
  assert dict(kinds_under(ast.Name("x")))[ast.Name][0].id == "x"


def test_an_indexed_tree_is_freed_without_the_cyclic_collector():
  # The engine ports with the cyclic collector paused: an index holding its own node
  # (a reference cycle) would keep every tree of a run alive until it ran again.
  tree = ast.parse("import tensorflow as tf\nx = tf.ones([2]).shape[0].value\n")
  list(nodes_of(tree, (ast.Name, ast.Module)))
  for statement in tree.body:
    list(nodes_of(statement, (ast.Attribute, type(statement))))
  alive = [weakref.ref(tree), weakref.ref(tree.body[1]), weakref.ref(tree.body[1].value)]
  was_enabled = gc.isenabled()
  gc.disable()
  try:
    del tree, statement
    assert [ref() for ref in alive] == [None, None, None]
  finally:
    if was_enabled:
      gc.enable()
