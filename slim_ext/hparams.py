"""tf.contrib.training.HParams on TensorFlow 2: typed hyperparameters by name.

``slimport rewrite`` points ``tf.contrib.training.HParams`` here (through
``slim_ext.contrib.training``). The behaviour is TF 1.15's, as its
documentation and tests describe it:

* A hyperparameter's type is the type of the value it was added with (of the
  first element for a list). ``set_hparam``, ``parse``, ``parse_json`` and
  ``override_from_dict`` keep to it: an int is accepted for a float (and
  converted), a float for an int is refused, bools and numbers do not mix, a
  string is never converted to a number or a number to a string. A
  hyperparameter added with ``None`` takes any value.
* ``parse`` reads the ``--hparams`` flag syntax ``"a=1,b=[1,2],c=relu"``
  (``parse_values`` below); bools are ``true``/``false``/``True``/``False`` or
  an integer.
* Errors are the ones TF1 raised, with its messages: ``ValueError`` for bad
  values, ``KeyError`` from ``set_hparam`` for an unknown name.

Three differences, all where TF1 crashed or has no TensorFlow 2 counterpart:
``parse`` into a hyperparameter added with ``None`` (or with an object whose
type cannot parse a string) raises the documented ``ValueError`` instead of a
``TypeError``; ``del_hparam`` of a method name does nothing instead of raising
``AttributeError``; the ``HParamDef`` protocol buffer (``hparam_def=``,
``to_proto``, ``from_proto``) is gone with tf.contrib's ``hparam_pb2``, so
those raise ``RemovedInTF2Error`` naming ``to_json`` / ``parse_json``.
Nothing here imports TensorFlow.
"""
from __future__ import annotations

import json
import numbers
import re
import warnings
from typing import Any, Dict, Optional, Tuple

from slim_ext.removed import RemovedInTF2Error

# One ``name=value`` clause of the flag syntax. A name may contain dots (then
# it is only reachable with getattr). ``name[3]=v`` assigns one list index
# (parse_values reports it; HParams.parse refuses it, as TF1 did). A value is
# either ``[...]`` or everything up to the next comma or ``[``.
_CLAUSE = re.compile(
    r"""(?P<name>[a-zA-Z][\w.]*)
        (?:\[\s*(?P<index>\d+)\s*\])?
        \s*=\s*
        (?:\[(?P<items>[^\]]*)\]|(?P<scalar>[^,\[]*))
        (?:$|,\s*)""", re.VERBOSE)

_PROTO_GONE = (
    "HParams' HParamDef protocol buffer (hparam_def=, to_proto, from_proto) was "
    "defined in tf.contrib's hparam_pb2, which TensorFlow 2 does not ship; "
    "use to_json() / parse_json() instead")


def _parse_error(name: str, type_: type, text: str, values: str) -> ValueError:
  return ValueError(
      f"Could not parse hparam '{name}' of type '{type_.__name__}' with value "
      f"'{text}' in {values}")


def _reuse_error(name: str, values: str) -> ValueError:
  return ValueError(f"Multiple assignments to variable '{name}' in {values}")


def _parse_bool(text: str) -> bool:
  if text in ("true", "True"):
    return True
  if text in ("false", "False"):
    return False
  return bool(int(text))


def _parse_value(name: str, type_: type, text: str, shown: str, values: str) -> Any:
  """One scalar of the flag syntax as ``type_``; ``shown`` is quoted on error."""
  parse = _parse_bool if type_ is bool else type_
  try:
    return parse(text)
  except (ValueError, TypeError):
    raise _parse_error(name, type_, shown, values) from None


def parse_values(values: str, type_map: Dict[str, type],
                 ignore_unknown: bool = False) -> Dict[str, Any]:
  """Parses ``"name=value,..."`` into a dict, each value parsed as its type.

  Syntax of a value, by the type in ``type_map``: an int (``-12``), a float
  (``1``, ``-.54e89``), a bool (``true``, ``false``, ``True``, ``False``, or an
  integer: nonzero is True), a string (anything without a comma or ``[``;
  may be empty), or a list of those in brackets (``[1,2]``, ``[a b]``,
  ``[]``), elements separated by commas or spaces. ``name[i]=value`` assigns
  one index and yields ``{name: {i: value}}``.

  Args:
    values: the string, e.g. ``"learning_rate=0.1,layers=[64,32]"``.
    type_map: name -> type of the value (for a list: of its elements).
    ignore_unknown: skip names missing from type_map instead of raising.

  Returns:
    name -> parsed value: a scalar, a list, or a dict index -> scalar.

  Raises:
    ValueError: the string is malformed ("Malformed hyperparameter value"),
      a name is unknown ("Unknown hyperparameter type for"), a value does not
      parse as its type ("Could not parse hparam"), a name is assigned twice
      ("Multiple assignments to variable"), or a list is assigned to an index.
  """
  results: Dict[str, Any] = {}
  position = 0
  while position < len(values):
    clause = _CLAUSE.match(values, position)
    if clause is None:
      raise ValueError(f"Malformed hyperparameter value: {values[position:]}")
    position = clause.end()
    name, index = clause.group("name"), clause.group("index")
    if name not in type_map:
      if ignore_unknown:
        continue
      raise ValueError(f"Unknown hyperparameter type for {name}")
    type_ = type_map[name]
    if clause.group("items") is not None:
      if index is not None:
        raise ValueError("Assignment of a list to a list index.")
      if name in results:
        raise _reuse_error(name, values)
      text = clause.group("items")
      results[name] = [_parse_value(name, type_, item, text, values)
                       for item in re.split("[ ,]", text) if item]
      continue
    text = clause.group("scalar")
    value = _parse_value(name, type_, text, text, values)
    if index is None:
      if name in results:
        raise _reuse_error(name, values)
      results[name] = value
    else:
      assigned = results.setdefault(name, {})
      if not isinstance(assigned, dict):
        raise _reuse_error(name, values)
      if int(index) in assigned:
        raise _reuse_error(f"{name}[{int(index)}]", values)
      assigned[int(index)] = value
  return results


def _cast(name: str, param_type: type, value: Any) -> Any:
  """``value`` as a ``param_type`` when TF1 allowed that conversion.

  Raises:
    ValueError: strings and non-strings, bools and non-bools, floats into
      integers and non-numbers into numbers do not convert.
  """
  if type(value) is param_type:  # pylint: disable=unidiomatic-typecheck
    return value
  if param_type is type(None):
    return value
  refused = (
      (issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)))
      or issubclass(param_type, bool) != isinstance(value, bool)
      or (issubclass(param_type, numbers.Integral)
          and not isinstance(value, numbers.Integral))
      or (issubclass(param_type, numbers.Number)
          and not isinstance(value, numbers.Number)))
  if refused:
    raise ValueError(
        f"Could not cast hparam '{name}' of type '{param_type}' from value {value!r}")
  return param_type(value)


class HParams:
  """A set of hyperparameters as typed name-value pairs, read as attributes.

  Example:
    hparams = HParams(learning_rate=0.1, num_hidden_units=100,
                      activations=['relu', 'tanh'])
    hparams.parse(FLAGS.hparams)     # e.g. "learning_rate=0.3,activations=[elu]"
    hparams.learning_rate            # 0.3
  """

  def __init__(self, hparam_def: Any = None, model_structure: Any = None,
               **kwargs: Any):
    """Creates the hyperparameters from keyword arguments.

    Args:
      hparam_def: a serialized HParamDef; no longer supported.
      model_structure: any object, kept for get_model_structure().
      **kwargs: name=value for each hyperparameter; the value's type (for a
        list or tuple: its first element's) becomes the hyperparameter's type.

    Raises:
      RemovedInTF2Error: hparam_def was given.
      ValueError: a name is reserved (a method or attribute of HParams) or a
        list value is empty.
    """
    # name -> (type of the value or of the list elements, whether a list).
    self._hparam_types: Dict[str, Tuple[type, bool]] = {}
    self._model_structure = model_structure
    if hparam_def:
      raise RemovedInTF2Error(_PROTO_GONE)
    for name, value in kwargs.items():
      self.add_hparam(name, value)

  def add_hparam(self, name: str, value: Any) -> None:
    """Adds a hyperparameter.

    Args:
      name: its name; may not be a method or attribute of HParams.
      value: a scalar (int, float, bool, str, or anything else) or a
        non-empty list or tuple of scalars.

    Raises:
      ValueError: the name is reserved or already set to a value other than
        None, or the list is empty.
    """
    if getattr(self, name, None) is not None:
      raise ValueError(f"Hyperparameter name is reserved: {name}")
    if isinstance(value, (list, tuple)):
      if not value:
        raise ValueError(f"Multi-valued hyperparameters cannot be empty: {name}")
      self._hparam_types[name] = (type(value[0]), True)
    else:
      self._hparam_types[name] = (type(value), False)
    setattr(self, name, value)

  def set_hparam(self, name: str, value: Any) -> None:
    """Sets an existing hyperparameter, converting the value to its type.

    Args:
      name: the hyperparameter.
      value: the new value; a list exactly when the hyperparameter is one.

    Raises:
      KeyError: no hyperparameter has this name.
      ValueError: list-ness or type do not match.
    """
    param_type, is_list = self._hparam_types[name]
    if isinstance(value, list):
      if not is_list:
        raise ValueError(f"Must not pass a list for single-valued parameter: {name}")
      setattr(self, name, [_cast(name, param_type, item) for item in value])
    else:
      if is_list:
        raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
      setattr(self, name, _cast(name, param_type, value))

  def del_hparam(self, name: str) -> None:
    """Removes a hyperparameter; does nothing if there is none of that name."""
    if name in self._hparam_types:
      delattr(self, name)
      del self._hparam_types[name]

  def parse(self, values: str) -> "HParams":
    """Overrides hyperparameters from a ``"name=value,..."`` string.

    See parse_values for the syntax.

    Args:
      values: the string, e.g. from a ``--hparams`` flag.

    Returns:
      self.

    Raises:
      ValueError: the string does not parse, names an unknown hyperparameter,
        or gives a value of the wrong type.
    """
    type_map = {name: param_type for name, (param_type, _) in self._hparam_types.items()}
    return self.override_from_dict(parse_values(values, type_map))

  def override_from_dict(self, values_dict: Dict[str, Any]) -> "HParams":
    """Sets each ``name: value`` of the dict with set_hparam; returns self.

    Raises:
      KeyError: a name is not a hyperparameter.
      ValueError: a value has the wrong type.
    """
    for name, value in values_dict.items():
      self.set_hparam(name, value)
    return self

  def set_from_map(self, values_map: Dict[str, Any]) -> "HParams":
    """Deprecated in TF1 (use override_from_dict)."""
    warnings.warn("HParams.set_from_map is deprecated: use override_from_dict",
                  DeprecationWarning, stacklevel=2)
    return self.override_from_dict(values_map)

  def set_model_structure(self, model_structure: Any) -> None:
    self._model_structure = model_structure

  def get_model_structure(self) -> Any:
    return self._model_structure

  def to_json(self, indent: Optional[int] = None, separators: Optional[Tuple[str, str]] = None,
              sort_keys: bool = False) -> str:
    """The hyperparameters as a JSON object (arguments as for json.dumps)."""
    return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

  def parse_json(self, values_json: str) -> "HParams":
    """Overrides hyperparameters from a JSON object string; returns self.

    Raises:
      KeyError: a name is not a hyperparameter.
      ValueError: the JSON does not parse or a value has the wrong type.
    """
    return self.override_from_dict(json.loads(values_json))

  def values(self) -> Dict[str, Any]:
    """A dict of every hyperparameter's name and value."""
    return {name: getattr(self, name) for name in self._hparam_types}

  def get(self, key: str, default: Any = None) -> Any:
    """The value of ``key``, or ``default`` when there is no such hyperparameter.

    Raises:
      ValueError: ``key`` exists and ``default`` (not None) could not be one
        of its values (wrong type, or list-ness differs).
    """
    if key not in self._hparam_types:
      return default
    if default is not None:
      param_type, is_list = self._hparam_types[key]
      shown_type = f"list<{param_type}>" if is_list else str(param_type)
      problem = f"Hparam '{key}' of type '{shown_type}' is incompatible with default={default}"
      if is_list != isinstance(default, list):
        raise ValueError(problem)
      try:
        for item in default if is_list else [default]:
          _cast(key, param_type, item)
      except ValueError as error:
        raise ValueError(f"{problem}. {error}") from None
    return getattr(self, key)

  def to_proto(self, export_scope: Optional[str] = None) -> Any:
    """No longer supported (see the module docstring).

    Raises:
      RemovedInTF2Error: always.
    """
    raise RemovedInTF2Error(_PROTO_GONE)

  @staticmethod
  def from_proto(hparam_def: Any, import_scope: Optional[str] = None) -> "HParams":
    """No longer supported (see the module docstring).

    Raises:
      RemovedInTF2Error: always.
    """
    raise RemovedInTF2Error(_PROTO_GONE)

  def __contains__(self, key: str) -> bool:
    return key in self._hparam_types

  def __str__(self) -> str:
    # The same syntax parse() reads, so str(h1) can be parsed into h2.
    return ",".join(f"{name}={value}" for name, value in self.values().items())

  def __repr__(self) -> str:
    return f"{type(self).__name__}({sorted(self.values().items())})"
