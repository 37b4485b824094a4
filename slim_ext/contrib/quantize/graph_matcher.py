"""Tree patterns over a tf.Graph's ops: tf.contrib.quantize's graph_matcher.

A pattern describes an op (by type) and, optionally, patterns for each of its
inputs; matching starts at a root op and walks its inputs upwards. The API is
the one tf.contrib.quantize.python.graph_matcher had:

  conv = OpTypePattern('Conv2D', name='conv')
  bias = OpTypePattern('BiasAdd', inputs=[conv, '*'])
  relu = OpTypePattern('Relu|Relu6', inputs=[bias])
  for match in GraphMatcher(relu).match_graph(graph):
    match.get_op('conv'), match.get_tensor(bias)

Everything is duck-typed on ``op.type``, ``op.inputs`` and ``tensor.op``;
nothing here imports TensorFlow.
"""
from __future__ import annotations

import abc
import itertools
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

# Trying every order of the inputs costs n!; TF1 refused more than this.
_MAX_UNORDERED_INPUTS = 8


class Pattern(abc.ABC):
  """A pattern that an op (reached through one of its output tensors) may match."""

  @abc.abstractmethod
  def match(self, op: Any, tensor: Any) -> Optional["MatchResult"]:
    """The MatchResult of ``op`` (reached through ``tensor``), or None."""


class OpTypePattern(Pattern):
  """Matches an op by type and, if given, each of its inputs by a pattern."""

  def __init__(self, op_type: str, name: Optional[str] = None,
               inputs: Optional[Sequence[Union[Pattern, str]]] = None,
               ordered_inputs: bool = True):
    """Creates the pattern.

    Args:
      op_type: the op type (``'Conv2D'``), several separated by ``|``
        (``'Relu|Relu6'``), or ``'*'`` for any op.
      name: optional name to look the match up by in a MatchResult.
      inputs: patterns for the op's inputs, in order; a string stands for
        ``OpTypePattern(string)``. None or empty accepts any inputs; otherwise
        the op must have exactly this many inputs.
      ordered_inputs: when False, any order of the inputs may match.

    Raises:
      ValueError: more than 8 inputs with ordered_inputs=False.
    """
    self._op_types = None if op_type == "*" else frozenset(op_type.split("|"))
    self._name = name
    self._inputs: List[Pattern] = [
        pattern if isinstance(pattern, Pattern) else OpTypePattern(pattern)
        for pattern in inputs or ()]
    self._ordered_inputs = ordered_inputs
    if not ordered_inputs and len(self._inputs) > _MAX_UNORDERED_INPUTS:
      raise ValueError(
          f"Only <= {_MAX_UNORDERED_INPUTS} inputs are allowed when ordered_inputs "
          f"is False; got {len(self._inputs)}.")

  @property
  def name(self) -> Optional[str]:
    return self._name

  def match(self, op: Any, tensor: Any) -> Optional["MatchResult"]:
    if self._op_types is not None and op.type not in self._op_types:
      return None
    result = MatchResult()
    result.add(self, op, tensor)
    if not self._inputs:
      return result
    inputs = list(op.inputs)
    if len(inputs) != len(self._inputs):
      return None
    orders: Iterable[Sequence[Pattern]] = (
        [self._inputs] if self._ordered_inputs else itertools.permutations(self._inputs))
    for patterns in orders:
      inputs_result = _match_each(patterns, inputs)
      if inputs_result is not None:
        result.merge_from(inputs_result)
        return result
    return None


class OneofPattern(Pattern):
  """Matches what the first matching one of its sub-patterns matches."""

  def __init__(self, sub_patterns: Sequence[Pattern]):
    self._sub_patterns = list(sub_patterns)

  def match(self, op: Any, tensor: Any) -> Optional["MatchResult"]:
    for pattern in self._sub_patterns:
      result = pattern.match(op, tensor)
      if result is not None:
        return result
    return None


def _match_each(patterns: Sequence[Pattern], tensors: Sequence[Any]) -> Optional["MatchResult"]:
  """Every tensor's op matched by the pattern at the same position, or None."""
  result = MatchResult()
  for pattern, tensor in zip(patterns, tensors):
    matched = pattern.match(tensor.op, tensor)
    if matched is None:
      return None
    result.merge_from(matched)
  return result


class MatchResult:
  """The op and tensor each pattern of a match stands for.

  The tensor is the output of the op that the parent pattern's op consumes
  (an op with several outputs is reached through one of them); for the root
  pattern it is None.
  """

  def __init__(self):
    self._pattern_to_op_tensor: Dict[Pattern, Tuple[Any, Any]] = {}
    self._name_to_pattern: Dict[str, Pattern] = {}

  def add(self, pattern: Pattern, op: Any, tensor: Any) -> None:
    """Records that ``pattern`` matched ``op`` reached through ``tensor``.

    Raises:
      ValueError: the pattern's name is already bound to another pattern.
    """
    self._pattern_to_op_tensor[pattern] = (op, tensor)
    name = getattr(pattern, "name", None)
    if name is not None:
      bound = self._name_to_pattern.get(name)
      if bound is not None and bound is not pattern:
        raise ValueError(f"Name {name} is already bound to another pattern")
      self._name_to_pattern[name] = pattern

  def _op_tensor(self, pattern_or_name: Union[Pattern, str]) -> Optional[Tuple[Any, Any]]:
    if isinstance(pattern_or_name, str):
      pattern = self._name_to_pattern.get(pattern_or_name)
    elif isinstance(pattern_or_name, Pattern):
      pattern = pattern_or_name
    else:
      raise ValueError(
          f"pattern_or_name has type {type(pattern_or_name)}. Expect Pattern or str.")
    return self._pattern_to_op_tensor.get(pattern) if pattern is not None else None

  def get_op(self, pattern_or_name: Union[Pattern, str]) -> Any:
    """The op matched by a pattern (or the pattern of that name), else None."""
    op_tensor = self._op_tensor(pattern_or_name)
    return op_tensor[0] if op_tensor else None

  def get_tensor(self, pattern_or_name: Union[Pattern, str]) -> Any:
    """The tensor through which the pattern's op was reached, else None."""
    op_tensor = self._op_tensor(pattern_or_name)
    return op_tensor[1] if op_tensor else None

  def merge_from(self, other: "MatchResult") -> None:
    """Adds every pattern another result matched to this one."""
    self._pattern_to_op_tensor.update(other._pattern_to_op_tensor)  # pylint: disable=protected-access
    self._name_to_pattern.update(other._name_to_pattern)  # pylint: disable=protected-access


class GraphMatcher:
  """Finds the ops of a graph at which a pattern matches."""

  def __init__(self, pattern: Pattern):
    self._pattern = pattern

  def match_op(self, op: Any) -> Optional[MatchResult]:
    """The MatchResult of the pattern rooted at ``op``, or None."""
    return self._pattern.match(op, None)

  def match_ops(self, ops: Iterable[Any]) -> Iterator[MatchResult]:
    """Yields a MatchResult for each op of ``ops`` that matches, in order."""
    for op in ops:
      result = self.match_op(op)
      if result is not None:
        yield result

  def match_graph(self, graph: Any) -> Iterator[MatchResult]:
    """Yields a MatchResult for each op of ``graph`` that matches, in creation order."""
    return self.match_ops(graph.get_operations())
