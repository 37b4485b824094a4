"""slim_ext.hparams: tf.contrib.training.HParams as TF 1.15 documented and tested it.

Each table row is one documented behaviour: the value TF1 gave, or the error
(type and message start) it raised.
"""
import copy
import json

import pytest

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


@pytest.fixture(scope="module")
def hp(tf):  # pylint: disable=unused-argument
  from slim_ext import hparams  # pylint: disable=g-import-not-at-top
  return hparams


def _sample(hp):
  return hp.HParams(aaa=1, b=2.0, c_c="relu6", d="/a/b=c/d", flag=True,
                    ints=[1], floats=[2.0, 3.0], words=["relu6"])


# --- construction, attributes, values ----------------------------------------


def test_values_attributes_str_and_repr(hp):
  hparams = hp.HParams(aaa=1, b=2.0, c_c="relu6", d="/a/b=c/d")
  assert hparams.values() == {"aaa": 1, "b": 2.0, "c_c": "relu6", "d": "/a/b=c/d"}
  assert (hparams.aaa, hparams.b, hparams.c_c, hparams.d) == (1, 2.0, "relu6", "/a/b=c/d")
  assert repr(hparams) == (
      "HParams([('aaa', 1), ('b', 2.0), ('c_c', 'relu6'), ('d', '/a/b=c/d')])")
  assert str(hparams) == "aaa=1,b=2.0,c_c=relu6,d=/a/b=c/d"


def test_empty_hparams_parse_nothing_and_refuse_names(hp):
  hparams = hp.HParams()
  assert hparams.values() == {}
  assert hparams.parse("") is hparams
  with pytest.raises(ValueError, match="Unknown hyperparameter"):
    hparams.parse("xyz=123")


def test_contains_and_model_structure(hp):
  structure = object()
  hparams = hp.HParams(model_structure=structure, foo=1)
  assert "foo" in hparams and "bar" not in hparams
  assert hparams.get_model_structure() is structure
  hparams.set_model_structure(None)
  assert hparams.get_model_structure() is None


@pytest.mark.parametrize("kwargs, message", [
    ({"values": 1}, "Hyperparameter name is reserved: values"),
    ({"parse": "x"}, "Hyperparameter name is reserved: parse"),
    ({"_hparam_types": 1}, "Hyperparameter name is reserved: _hparam_types"),
    ({"layers": []}, "Multi-valued hyperparameters cannot be empty: layers"),
])
def test_constructor_refuses(hp, kwargs, message):
  with pytest.raises(ValueError, match=message):
    hp.HParams(**kwargs)


def test_add_hparam_takes_the_type_of_the_value_or_first_element(hp):
  hparams = hp.HParams()
  hparams.add_hparam("rate", 0.5)
  hparams.add_hparam("sizes", (3, 4))
  hparams.add_hparam(name="a.b", value=0.0)
  hparams.parse("rate=1,sizes=[5],a.b=2")
  assert hparams.rate == 1.0 and isinstance(hparams.rate, float)
  assert hparams.sizes == [5]
  assert getattr(hparams, "a.b") == 2.0
  with pytest.raises(ValueError, match="reserved: rate"):
    hparams.add_hparam("rate", 0.1)


def test_del_then_add_with_another_type(hp):
  hparams = hp.HParams(aaa=1, b=2.0)
  with pytest.raises(ValueError):
    hparams.set_hparam("aaa", "will fail")
  hparams.del_hparam("aaa")
  assert "aaa" not in hparams and not hasattr(hparams, "aaa")
  hparams.add_hparam("aaa", "will work")
  hparams.set_hparam("aaa", "still works")
  assert hparams.get("aaa") == "still works"
  hparams.del_hparam("missing")  # nothing to do
  hparams.del_hparam("parse")  # a method, not a hyperparameter: left alone
  assert callable(hparams.parse)


def test_deepcopy_keeps_values_and_types(hp):
  original = _sample(hp)
  clone = copy.deepcopy(original)
  clone.set_hparam("aaa", 7)
  assert original.aaa == 1 and clone.aaa == 7
  with pytest.raises(ValueError):
    clone.set_hparam("aaa", 1.5)


# --- parse: the --hparams flag syntax ----------------------------------------

PARSED = [
    # (string, {name: value after parse}); each starts from _sample().
    ("aaa=12", {"aaa": 12}),
    ("c_c=relu4, b=-2.0e10", {"c_c": "relu4", "b": -2.0e10}),
    ("c_c=,b=0,", {"c_c": "", "b": 0.0}),  # empty string; int text for a float
    ("c_c=2.3\",b=+2,", {"c_c": '2.3"', "b": 2.0}),
    ("b=1.5,d=/a=b/c/d,aaa=10,", {"b": 1.5, "d": "/a=b/c/d", "aaa": 10}),
    ("c_c=foo bar", {"c_c": "foo bar"}),
    ("ints=[12,34,56]", {"ints": [12, 34, 56]}),
    ("words=[relu4 relu12],floats=[1.0]", {"words": ["relu4", "relu12"], "floats": [1.0]}),
    ("words=[],ints=[-34]", {"words": [], "ints": [-34]}),
    ("words=[_12,3'4\"],ints=[+3]", {"words": ["_12", "3'4\""], "ints": [3]}),
    ("flag=false", {"flag": False}),
    ("flag=True", {"flag": True}),
    ("flag=0", {"flag": False}),
    ("flag=2", {"flag": True}),  # any nonzero integer
]


@pytest.mark.parametrize("values, expected", PARSED)
def test_parse(hp, values, expected):
  hparams = _sample(hp)
  assert hparams.parse(values) is hparams
  for name, value in expected.items():
    assert getattr(hparams, name) == value
    assert type(getattr(hparams, name)) is type(value)  # pylint: disable=unidiomatic-typecheck


PARSE_ERRORS = [
    ("x=123", "Unknown hyperparameter type for x"),
    ("aaa=poipoi", "Could not parse hparam 'aaa' of type 'int' with value 'poipoi' in aaa=poipoi"),
    ("aaa=1.0", "Could not parse hparam 'aaa'"),  # float refused for an int
    ("b=12x", "Could not parse hparam 'b' of type 'float'"),
    ("b=relu", "Could not parse hparam 'b'"),
    ("flag=yep", "Could not parse hparam 'flag' of type 'bool'"),
    ("flag=1.0", "Could not parse hparam 'flag'"),
    ("ints=[1.0]", "Could not parse hparam 'ints' of type 'int' with value '1.0'"),
    ("floats=[12x]", "Could not parse hparam 'floats'"),
    ("aaa=[123]", "Must not pass a list for single-valued parameter: aaa"),
    ("ints=123", "Must pass a list for multi-valued parameter: ints."),
    ("ints[0]=5", "Must pass a list for multi-valued parameter: ints."),
    ("aaa=1,aaa=2", "Multiple assignments to variable 'aaa' in aaa=1,aaa=2"),
    ("aaa=1,,b=2", "Malformed hyperparameter value: ,b=2"),
    ("aaa", "Malformed hyperparameter value: aaa"),
    ("ints=[1,2", "Malformed hyperparameter value: ints=[1,2"),
    ("1aaa=1", "Malformed hyperparameter value: 1aaa=1"),
]


@pytest.mark.parametrize("values, message", PARSE_ERRORS)
def test_parse_errors_leave_earlier_values(hp, values, message):
  hparams = _sample(hp)
  with pytest.raises(ValueError) as raised:
    hparams.parse(values)
  assert str(raised.value).startswith(message)
  assert hparams.values() == _sample(hp).values()


def test_str_output_parses_back(hp):
  source = hp.HParams(a=1, b=[2.0, 3.0], c="relu6", d=True)
  target = hp.HParams(a=4, b=[5.0, 6.0], c="relu10", d=False)
  target.parse(str(source))
  assert target.values() == source.values()


PARSE_VALUES = [
    # (string, type_map, ignore_unknown, result)
    ("arr[1]=10", {"arr": int}, False, {"arr": {1: 10}}),
    ("arr[0]=10,arr[5]=20", {"arr": int}, False, {"arr": {0: 10, 5: 20}}),
    ("x=10,arr[1]=20,y=30", {"x": int, "y": int, "arr": int}, False,
     {"x": 10, "arr": {1: 20}, "y": 30}),
    ("a[0]=5,b[1]=true,c[2]=abc,d[3]=3.14", {"a": int, "b": bool, "c": str, "d": float},
     False, {"a": {0: 5}, "b": {1: True}, "c": {2: "abc"}, "d": {3: 3.14}}),
    ("x=10,foo[0]=bar,arr[1]=20,zzz=78", {"x": int, "arr": int}, True,
     {"x": 10, "arr": {1: 20}}),
    ("arr[1]=1", {"arr[1]": int}, True, {}),
    ("l=[1, 2 3]", {"l": int}, False, {"l": [1, 2, 3]}),
]


@pytest.mark.parametrize("values, type_map, ignore_unknown, result", PARSE_VALUES)
def test_parse_values(hp, values, type_map, ignore_unknown, result):
  assert hp.parse_values(values, type_map, ignore_unknown=ignore_unknown) == result


@pytest.mark.parametrize("values, type_map, message", [
    ("arr[1]=[1,2,3]", {"arr": int}, "Assignment of a list to a list index."),
    ("arr[1]=5", {}, "Unknown hyperparameter type for arr"),
    ("arr[1]=1", {"arr[1]": int}, "Unknown hyperparameter type for arr"),
    ("x=1,x=1", {"x": int}, "Multiple assignments to variable 'x'"),
    ("arr=[100,200],arr[0]=10", {"arr": int}, "Multiple assignments to variable 'arr'"),
    ("arr[0]=10,arr[0]=20", {"arr": int}, "Multiple assignments to variable 'arr[0]'"),
    ("arr[0]=10,arr=[100]", {"arr": int}, "Multiple assignments to variable 'arr'"),
    ("n=x", {"n": type(None)}, "Could not parse hparam 'n' of type 'NoneType'"),
])
def test_parse_values_errors(hp, values, type_map, message):
  with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
    hp.parse_values(values, type_map)


# --- set_hparam and the type rules -------------------------------------------

SET_REFUSED = [
    ("str_", 2.2), ("int_", False), ("bool_", 1), ("bool_", "true"), ("bool_", "True"),
    ("bool_", "0"), ("int_", 2.2), ("int_", "2"), ("float_", "1.5"), ("float_", True),
    ("list_int", [2, 3.3]), ("list_int", 2), ("int_", [1]),
]


@pytest.fixture()
def typed(hp):
  return hp.HParams(int_=1, str_="str", bool_=True, float_=1.1, list_int=[1, 2], none=None)


@pytest.mark.parametrize("name, value", SET_REFUSED)
def test_set_hparam_refuses(typed, name, value):
  before = typed.values()
  with pytest.raises(ValueError):
    typed.set_hparam(name, value)
  assert typed.values() == before


def test_set_hparam_converts_and_accepts(typed):
  typed.set_hparam("float_", 1)  # int -> float is allowed
  assert typed.float_ == 1.0 and isinstance(typed.float_, float)
  typed.set_hparam("str_", b"raw")  # bytes are a string type, converted by str()
  assert typed.str_ == "b'raw'"
  typed.set_hparam("none", "1")  # a None-typed hyperparameter takes anything
  assert typed.none == "1"
  typed.set_hparam("list_int", [5])
  assert typed.list_int == [5]
  with pytest.raises(KeyError):
    typed.set_hparam("unknown", 1)


def test_set_hparam_keeps_objects_of_the_same_type(hp):

  class Context:

    def __init__(self, a):
      self.a = a

  hparams = hp.HParams(x=Context(100))
  replacement = Context(200)
  hparams.set_hparam("x", replacement)
  assert hparams.x is replacement


def test_override_from_dict(hp):
  hparams = hp.HParams(x=1, b=2.0, d=[0.5])
  assert hparams.override_from_dict({"d": [0.1, 0.2, 0.3], "x": -2}) is hparams
  assert hparams.values() == {"x": -2, "b": 2.0, "d": [0.1, 0.2, 0.3]}
  with pytest.raises(KeyError):
    hparams.override_from_dict({"nope": 1})
  with pytest.deprecated_call():
    hparams.set_from_map({"x": 3})
  assert hparams.x == 3


# --- JSON --------------------------------------------------------------------


def test_json_round_trip_and_formatting(hp):
  hparams = hp.HParams(aaa=1, b=2.0, c_c="relu6", d=True)
  hparams.parse_json('{"aaa": 12, "b": 3.0, "c_c": "relu4", "d": false}')
  assert hparams.values() == {"aaa": 12, "b": 3.0, "c_c": "relu4", "d": False}
  other = hp.HParams(aaa=10, b=20.0, c_c="hello", d=True)
  other.parse_json(hparams.to_json())
  assert other.values() == hparams.values()
  single = hp.HParams(aaa=123)
  assert single.to_json() == '{"aaa": 123}'
  assert single.to_json(indent=2) == '{\n  "aaa": 123\n}'
  assert single.to_json(separators=(";", "=")) == '{"aaa"=123}'
  assert hp.HParams(c_c=False, aaa=123, b="hello").to_json(sort_keys=True) == (
      '{"aaa": 123, "b": "hello", "c_c": false}')


def test_parse_json_checks_types(hp):
  hparams = hp.HParams(aaa=1)
  with pytest.raises(ValueError, match="Could not cast hparam 'aaa'"):
    hparams.parse_json('{"aaa": 1.5}')
  with pytest.raises(KeyError):
    hparams.parse_json('{"zzz": 1}')
  with pytest.raises(json.JSONDecodeError):
    hparams.parse_json("{aaa: 1}")


# --- get ---------------------------------------------------------------------

GET = [
    ("aaa", None, 1), ("b", None, 2.0), ("e", None, [5.0, 6.0]),
    ("aaa", 2, 1), ("b", 3.0, 2.0), ("b", 3, 2.0), ("c_c", "default", "relu6"),
    ("d", True, True), ("e", [1.0, 2.0, 3.0], [5.0, 6.0]), ("e", [1, 2, 3], [5.0, 6.0]),
    ("unknown", None, None), ("unknown", 123, 123), ("unknown", [1, 2, 3], [1, 2, 3]),
]


@pytest.mark.parametrize("key, default, expected", GET)
def test_get(hp, key, default, expected):
  hparams = hp.HParams(aaa=1, b=2.0, c_c="relu6", d=True, e=[5.0, 6.0])
  assert hparams.get(key, default) == expected


@pytest.mark.parametrize("key, default", [
    ("aaa", 2.0), ("b", False), ("c_c", [1, 2, 3]), ("d", "relu"), ("e", 123.0),
    ("e", ["a", "b", "c"]),
])
def test_get_refuses_an_incompatible_default(hp, key, default):
  hparams = hp.HParams(aaa=1, b=2.0, c_c="relu6", d=True, e=[5.0, 6.0])
  with pytest.raises(ValueError, match=f"Hparam '{key}' of type"):
    hparams.get(key, default)


# --- what TensorFlow 2 cannot give -------------------------------------------


def test_proto_serialization_names_the_alternative(hp):
  from slim_ext.contrib import RemovedInTF2Error  # pylint: disable=g-import-not-at-top
  hparams = hp.HParams(a=1)
  for call in (hparams.to_proto, lambda: hp.HParams.from_proto(None),
               lambda: hp.HParams(hparam_def=b"\n")):
    with pytest.raises(RemovedInTF2Error, match="to_json"):
      call()


def test_the_contrib_paths_are_this_class(hp):
  import slim_ext.contrib  # pylint: disable=g-import-not-at-top
  from slim_ext.contrib import training  # pylint: disable=g-import-not-at-top
  assert slim_ext.contrib.HParams is training.HParams is hp.HParams
  assert training.parse_values is hp.parse_values


def test_a_nasnet_style_configuration(hp):
  """research/slim's NASNet builds its config like this and then edits it."""
  config = hp.HParams(stem_multiplier=3.0, drop_path_keep_prob=0.6, num_cells=18,
                      use_aux_head=1, num_conv_filters=32, dense_dropout_keep_prob=1.0,
                      filter_scaling_rate=2.0, num_reduction_layers=2, data_format="NHWC",
                      skip_reduction_layer_input=0, total_training_steps=250000,
                      use_bounded_activation=False)
  config = copy.deepcopy(config)
  config.set_hparam("data_format", "NCHW")
  config.set_hparam("drop_path_keep_prob", 1)
  config.set_hparam("use_aux_head", 0)
  assert (config.data_format, config.drop_path_keep_prob, config.use_aux_head) == (
      "NCHW", 1.0, 0)
