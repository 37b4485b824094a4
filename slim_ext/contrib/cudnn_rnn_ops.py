"""tf.contrib.cudnn_rnn's op side on TensorFlow 2: cuDNN op calls, format converters, saveables.

TF 1.14's ``tf.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops`` wrapped core TensorFlow's
cuDNN RNN ops (``gen_cudnn_rnn_ops``), which TensorFlow 2 still registers, with their
gradients (``tensorflow/python/ops/cudnn_rnn_grad.py``). The ops TF 1.14 used are the
ones called here: ``CudnnRNN`` (``CudnnRNNV2`` when ``TF_CUDNN_RNN_USE_V2=1``),
``CudnnRNNV3`` when sequence lengths are given or the input is batch-major,
``CudnnRNNCanonicalToParams`` and ``CudnnRNNParamsToCanonical`` (not their V2, which
TF 1.14 did not have). They have GPU kernels only: a graph holding them builds
anywhere and runs on a GPU with cuDNN, as in TF 1.x.

cuDNN keeps all of a multi-layer RNN's weights in one opaque buffer whose layout may
change between cuDNN versions. Checkpoints therefore hold the *canonical* weights:
the format converters turn the opaque buffer into the per-layer kernels and biases of
``CudnnCompatibleLSTMCell`` / ``CudnnCompatibleGRUCell`` / ``BasicRNNCell`` and back,
and the saveables (registered in SAVEABLE_OBJECTS by the layers) make
``tf.train.Saver`` write and read them under those cells' variable names.

The layouts (facts of TF 1.14 and cuDNN): for each layer, then each direction
(forward first), cuDNN's canonical params are ``num_params_per_layer`` weights, the
first half applied to the layer's input ([num_units, input width]) and the second to
its recurrent state ([num_units, num_units]), and as many biases ([num_units]). The
gates are LSTM's input, forget, cell, output; GRU's reset, update, candidate. A
layer's input width is the input size for layer 0 and ``num_units * num_dirs`` above.
TF's canonical kernel is ``[input width + num_units, gates * num_units]`` with the
LSTM gates in the order input, cell, forget, output (LSTMBlockCell's); each TF bias
is the sum of cuDNN's input and recurrent biases, split in halves on the way back.
"""
import os
from typing import Any, List, Optional, Sequence, Tuple

import tensorflow.compat.v1 as tf
from tensorflow.python.ops import gen_cudnn_rnn_ops
from tensorflow.python.training.saving import saveable_object

__all__ = ["CUDNN_GRU", "CUDNN_GRU_PARAMS_PER_LAYER", "CUDNN_INPUT_AUTO_MODE",
           "CUDNN_INPUT_LINEAR_MODE", "CUDNN_INPUT_SKIP_MODE", "CUDNN_LSTM",
           "CUDNN_LSTM_PARAMS_PER_LAYER", "CUDNN_RNN_BIDIRECTION", "CUDNN_RNN_RELU",
           "CUDNN_RNN_RELU_PARAMS_PER_LAYER", "CUDNN_RNN_TANH",
           "CUDNN_RNN_TANH_PARAMS_PER_LAYER", "CUDNN_RNN_UNIDIRECTION",
           "CudnnGRUSaveable", "CudnnLSTMSaveable", "CudnnOpaqueParamsSaveable",
           "CudnnParamsFormatConverter", "CudnnParamsFormatConverterBasic",
           "CudnnParamsFormatConverterGRU", "CudnnParamsFormatConverterLSTM",
           "CudnnParamsFormatConverterRelu", "CudnnParamsFormatConverterTanh",
           "CudnnRNNReluSaveable", "CudnnRNNTanhSaveable", "canonical_to_opaque",
           "check_direction", "check_input_mode", "check_rnn_mode", "cudnn_rnn",
           "num_params"]

CUDNN_RNN_UNIDIRECTION = "unidirectional"
CUDNN_RNN_BIDIRECTION = "bidirectional"
CUDNN_LSTM = "lstm"
CUDNN_GRU = "gru"
CUDNN_RNN_RELU = "rnn_relu"
CUDNN_RNN_TANH = "rnn_tanh"
# Weights (and as many biases) per layer and direction: half on the input, half on
# the recurrent state.
CUDNN_LSTM_PARAMS_PER_LAYER = 8
CUDNN_GRU_PARAMS_PER_LAYER = 6
CUDNN_RNN_TANH_PARAMS_PER_LAYER = 2
CUDNN_RNN_RELU_PARAMS_PER_LAYER = 2
CUDNN_INPUT_LINEAR_MODE = "linear_input"
CUDNN_INPUT_SKIP_MODE = "skip_input"
CUDNN_INPUT_AUTO_MODE = "auto_select"

_PARAMS_PER_LAYER = {CUDNN_LSTM: CUDNN_LSTM_PARAMS_PER_LAYER,
                     CUDNN_GRU: CUDNN_GRU_PARAMS_PER_LAYER,
                     CUDNN_RNN_TANH: CUDNN_RNN_TANH_PARAMS_PER_LAYER,
                     CUDNN_RNN_RELU: CUDNN_RNN_RELU_PARAMS_PER_LAYER}
# TF 1.14 placed the conversions between the canonical and the opaque format here;
# they have no CPU kernel, so on a machine without a GPU the graph builds and running
# them fails, naming the op.
_CONVERSION_DEVICE = "/gpu:0"


def check_rnn_mode(rnn_mode: str) -> None:
  """Raises ValueError unless ``rnn_mode`` is one of cuDNN's four cells."""
  if rnn_mode not in _PARAMS_PER_LAYER:
    raise ValueError(f"Invalid rnn_mode: {rnn_mode}, expect one of ({CUDNN_LSTM}, "
                     f"{CUDNN_GRU}, {CUDNN_RNN_TANH}, {CUDNN_RNN_RELU})")


def check_direction(direction: str) -> None:
  """Raises ValueError unless ``direction`` is 'unidirectional' or 'bidirectional'."""
  if direction not in (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION):
    raise ValueError(f"Invalid direction: {direction}, expecting "
                     f"{CUDNN_RNN_UNIDIRECTION} or {CUDNN_RNN_BIDIRECTION}")


def check_input_mode(input_mode: str) -> None:
  """Raises ValueError unless ``input_mode`` is one of cuDNN's three input modes."""
  if input_mode not in (CUDNN_INPUT_LINEAR_MODE, CUDNN_INPUT_SKIP_MODE,
                        CUDNN_INPUT_AUTO_MODE):
    raise ValueError(f"Invalid input_mode: {input_mode}, expect one of "
                     f"({CUDNN_INPUT_LINEAR_MODE}, {CUDNN_INPUT_SKIP_MODE}, "
                     f"{CUDNN_INPUT_AUTO_MODE})")


def num_params(rnn_mode: str, num_layers: int, direction: str) -> int:
  """How many weights (and as many biases) cuDNN's canonical form has."""
  check_rnn_mode(rnn_mode)
  dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
  return _PARAMS_PER_LAYER[rnn_mode] * num_layers * dirs


def _checked_seeds(rnn_mode: str, direction: str, input_mode: str,
                   seed: Optional[int]) -> Tuple[int, int]:
  """The seed attributes of a cuDNN op, once its mode, direction and input mode are
  checked: the graph-level and op-level seeds as tf.random ops get them ((None, None),
  no seed anywhere, is what the ops' attribute default 0 means).

  Raises:
    ValueError: on an invalid rnn_mode, direction or input_mode.
  """
  check_rnn_mode(rnn_mode)
  check_direction(direction)
  check_input_mode(input_mode)
  graph_seed, op_seed = tf.random.get_seed(seed)
  return graph_seed or 0, op_seed or 0


def canonical_to_opaque(rnn_mode: str, num_layers: int, num_units: int, input_size: int,
                        weights: Sequence[tf.Tensor], biases: Sequence[tf.Tensor],
                        input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                        direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
                        seed: Optional[int] = None) -> tf.Tensor:
  """cuDNN's canonical weights and biases packed into one opaque buffer (1-D).

  Args:
    rnn_mode: 'lstm', 'gru', 'rnn_tanh' or 'rnn_relu'.
    num_layers: the number of layers.
    num_units: the number of units per layer and direction.
    input_size: the depth of the first layer's input.
    weights: cuDNN's canonical weights, in cuDNN's order (module docstring).
    biases: cuDNN's canonical biases, likewise.
    input_mode: 'linear_input', 'skip_input' or 'auto_select'.
    direction: 'unidirectional' or 'bidirectional'.
    dropout: the dropout rate between layers (part of cuDNN's RNN descriptor).
    seed: the op-level seed, combined with the graph's as tf.random ops do.

  Returns:
    The output of a CudnnRNNCanonicalToParams op (GPU kernel only).

  Raises:
    ValueError: on an invalid rnn_mode, direction or input_mode.
  """
  seed, seed2 = _checked_seeds(rnn_mode, direction, input_mode, seed)
  return gen_cudnn_rnn_ops.cudnn_rnn_canonical_to_params(
      num_layers=num_layers, num_units=num_units, input_size=input_size,
      weights=list(weights), biases=list(biases), rnn_mode=rnn_mode,
      input_mode=input_mode, direction=direction, dropout=dropout, seed=seed, seed2=seed2)


def cudnn_rnn(inputs: tf.Tensor, input_h: tf.Tensor, input_c: tf.Tensor, params: Any,
              is_training: bool, rnn_mode: str, sequence_lengths: Optional[Any] = None,
              time_major: bool = True, input_mode: str = CUDNN_INPUT_LINEAR_MODE,
              direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
              seed: Optional[int] = None,
              name: Optional[str] = None) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
  """Runs a cuDNN RNN over a sequence with TF 1.14's choice of op.

  ``CudnnRNNV3`` when ``sequence_lengths`` is given or the input is batch-major
  (all lengths the full time then), else ``CudnnRNN``, or ``CudnnRNNV2`` when the
  environment sets ``TF_CUDNN_RNN_USE_V2=1``. All three have gradients.

  Args:
    inputs: [time, batch, depth], or [batch, time, depth] when not ``time_major``.
    input_h: the initial hidden state, [num_layers * num_dirs, batch, num_units].
    input_c: the initial cell state (LSTM), of input_h's shape; for the other cells
      an empty tensor.
    params: the opaque parameter buffer.
    is_training: whether the op keeps what its gradient needs (and applies dropout).
    rnn_mode: 'lstm', 'gru', 'rnn_tanh' or 'rnn_relu'.
    sequence_lengths: int32 [batch], each sequence's length; None: all full.
    time_major: the layout of ``inputs`` and of the output.
    input_mode: 'linear_input', 'skip_input' or 'auto_select'.
    direction: 'unidirectional' or 'bidirectional'.
    dropout: the dropout rate between layers.
    seed: the op-level seed of the dropout.
    name: the op's name.

  Returns:
    (outputs, output_h, output_c).

  Raises:
    ValueError: on an invalid rnn_mode, direction or input_mode.
  """
  seed, seed2 = _checked_seeds(rnn_mode, direction, input_mode, seed)
  args = dict(input=inputs, input_h=input_h, input_c=input_c, params=params,
              is_training=is_training, rnn_mode=rnn_mode, input_mode=input_mode,
              direction=direction, dropout=dropout, seed=seed, seed2=seed2, name=name)
  if sequence_lengths is None and not time_major:
    # Only V3 knows batch-major input: every sequence is the full length.
    shape = tf.shape(inputs)
    sequence_lengths = tf.fill([shape[0]], shape[1])
  if sequence_lengths is not None:
    outputs, output_h, output_c, _, _ = gen_cudnn_rnn_ops.cudnn_rnnv3(
        sequence_lengths=sequence_lengths, time_major=time_major, **args)
  elif os.environ.get("TF_CUDNN_RNN_USE_V2", "0") == "1":
    outputs, output_h, output_c, _, _ = gen_cudnn_rnn_ops.cudnn_rnnv2(**args)
  else:
    outputs, output_h, output_c, _ = gen_cudnn_rnn_ops.cudnn_rnn(**args)
  return outputs, output_h, output_c


class CudnnParamsFormatConverter:
  """Converts between cuDNN's opaque buffer and TF's canonical weights (abstract).

  TF's canonical list is every layer's weights (layer by layer, forward direction
  first), then their biases in the same order; cuDNN's canonical lists are laid out
  likewise, ``num_params_per_layer`` per layer and direction. Subclasses say how one
  layer's cuDNN params map to its TF ones: ``_cudnn_to_tf_weights``,
  ``_tf_to_cudnn_weights``, ``_cudnn_to_tf_biases``, ``_tf_to_cudnn_biases``.
  """

  _rnn_mode: str = ""
  _num_params_per_layer: int = 0

  def __init__(self, num_layers: int, num_units: int, input_size: int,
               input_mode: str = CUDNN_INPUT_LINEAR_MODE,
               direction: str = CUDNN_RNN_UNIDIRECTION):
    """Creates a converter for one RNN configuration.

    Args:
      num_layers: the number of layers.
      num_units: the number of units per layer and direction.
      input_size: the depth of the first layer's input.
      input_mode: 'linear_input', 'skip_input' or 'auto_select'.
      direction: 'unidirectional' or 'bidirectional'.
    """
    self._num_layers = num_layers
    self._num_units = num_units
    self._input_size = input_size
    self._input_mode = input_mode
    self._direction = direction
    self._num_dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
    self._num_params = self._num_params_per_layer * num_layers * self._num_dirs

  def tf_canonical_to_opaque(self, tf_canonicals: Sequence[tf.Tensor]) -> tf.Tensor:
    """TF's canonical weights then biases, packed into cuDNN's opaque buffer.

    Args:
      tf_canonicals: every TF weight, then every TF bias (class docstring).

    Returns:
      The opaque buffer (a CudnnRNNCanonicalToParams op: it runs on a GPU only).
    """
    cu_weights, cu_biases = self._tf_canonical_to_cu_canonical(tf_canonicals)
    # The op takes each weight matrix flattened.
    cu_weights = [tf.reshape(w, [-1]) for w in cu_weights]
    return self._cu_canonical_to_opaque(cu_weights, cu_biases)

  def opaque_to_tf_canonical(
      self, opaque_param: Any) -> Tuple[List[tf.Tensor], List[tf.Tensor]]:
    """cuDNN's opaque buffer, unpacked into TF's canonical weights and biases.

    Args:
      opaque_param: the opaque buffer (a tensor or variable).

    Returns:
      (weights, biases), each a list in TF's canonical order (a
      CudnnRNNParamsToCanonical op computes them: it runs on a GPU only).
    """
    cu_weights, cu_biases = self._opaque_to_cu_canonical(opaque_param)
    return self._cu_canonical_to_tf_canonical(cu_weights, cu_biases)

  def _opaque_to_cu_canonical(
      self, opaque_param: Any) -> Tuple[List[tf.Tensor], List[tf.Tensor]]:
    with tf.device(_CONVERSION_DEVICE):
      weights, biases = gen_cudnn_rnn_ops.cudnn_rnn_params_to_canonical(
          num_layers=self._num_layers, num_units=self._num_units,
          input_size=self._input_size, params=opaque_param, num_params=self._num_params,
          rnn_mode=self._rnn_mode, input_mode=self._input_mode, direction=self._direction)
    return list(weights), list(biases)

  def _cu_canonical_to_opaque(self, cu_weights: Sequence[tf.Tensor],
                              cu_biases: Sequence[tf.Tensor]) -> tf.Tensor:
    with tf.device(_CONVERSION_DEVICE):
      return gen_cudnn_rnn_ops.cudnn_rnn_canonical_to_params(
          num_layers=self._num_layers, num_units=self._num_units,
          input_size=self._input_size, weights=list(cu_weights), biases=list(cu_biases),
          rnn_mode=self._rnn_mode, input_mode=self._input_mode, direction=self._direction)

  def _input_width(self, layer: int) -> int:
    # Above the first layer, a layer reads every direction's output of the one below.
    return self._input_size if layer == 0 else self._num_units * self._num_dirs

  # The per-layer hooks below keep TF 1.14's names and signatures: TF1 code subclasses
  # a converter and overrides them (magenta's music_vae shifts the LSTM forget bias by
  # 1 in _cudnn_to_tf_biases / _tf_to_cudnn_biases for its older checkpoints).

  def _cu_canonical_to_tf_canonical(
      self, cu_weights: Sequence[tf.Tensor],
      cu_biases: Sequence[tf.Tensor]) -> Tuple[List[tf.Tensor], List[tf.Tensor]]:
    """cuDNN's canonical lists (in cuDNN's order) to TF's (weights, biases)."""
    per = self._num_params_per_layer
    tf_weights, tf_biases = [], []
    for index in range(self._num_layers * self._num_dirs):
      self._cu_canonical_to_tf_canonical_single_layer(
          list(cu_weights[index * per:(index + 1) * per]),
          list(cu_biases[index * per:(index + 1) * per]), tf_weights, tf_biases)
    return tf_weights, tf_biases

  def _cu_canonical_to_tf_canonical_single_layer(
      self, cu_weights: List[tf.Tensor], cu_biases: List[tf.Tensor],
      tf_weights: List[tf.Tensor], tf_biases: List[tf.Tensor]) -> None:
    """One layer and direction: appends its TF weights and biases to the lists."""
    tf_weights.extend(self._cudnn_to_tf_weights(*cu_weights))
    tf_biases.extend(self._cudnn_to_tf_biases(*cu_biases))

  def _tf_canonical_to_cu_canonical(
      self, tf_canonicals: Sequence[tf.Tensor]) -> Tuple[List[tf.Tensor], List[tf.Tensor]]:
    """TF's canonical list (weights then biases) to cuDNN's (weights, biases)."""
    tf_canonicals = list(tf_canonicals)
    half = len(tf_canonicals) // 2
    weights, biases = tf_canonicals[:half], tf_canonicals[half:]
    per = len(weights) // (self._num_layers * self._num_dirs)
    cu_weights, cu_biases = [], []
    for index in range(self._num_layers * self._num_dirs):
      cu_weights.extend(self._tf_to_cudnn_weights(index // self._num_dirs,
                                                   *weights[index * per:(index + 1) * per]))
      cu_biases.extend(self._tf_to_cudnn_biases(*biases[index * per:(index + 1) * per]))
    return cu_weights, cu_biases

  def _cudnn_to_tf_weights(self, *cu_weights: tf.Tensor) -> Tuple[tf.Tensor, ...]:
    """One layer and direction: cuDNN's weights to TF's."""
    raise NotImplementedError("Abstract method")

  def _tf_to_cudnn_weights(self, layer: int, *tf_weights: tf.Tensor) -> Tuple[tf.Tensor, ...]:
    """One layer and direction: TF's weights to cuDNN's (``layer`` sets the width)."""
    raise NotImplementedError("Abstract method")

  def _cudnn_to_tf_biases(self, *cu_biases: tf.Tensor) -> Tuple[tf.Tensor, ...]:
    """One layer and direction: cuDNN's biases to TF's."""
    raise NotImplementedError("Abstract method")

  def _tf_to_cudnn_biases(self, *tf_biases: tf.Tensor) -> Tuple[tf.Tensor, ...]:
    """One layer and direction: TF's biases to cuDNN's."""
    raise NotImplementedError("Abstract method")

  def _split_kernel(self, layer: int, kernel: tf.Tensor,
                    gates: int) -> Tuple[List[tf.Tensor], List[tf.Tensor]]:
    """A TF kernel [width + units, gates * units] to cuDNN's matrices, each gate's
    (in the kernel's column order): (input ones [units, width], recurrent ones)."""
    by_gate = tf.split(tf.transpose(kernel), gates, axis=0)
    split = [tf.split(g, [self._input_width(layer), self._num_units], axis=1)
             for g in by_gate]
    return [w for w, _ in split], [r for _, r in split]


def _stitch_kernel(input_weights: Sequence[tf.Tensor],
                   recurrent_weights: Sequence[tf.Tensor]) -> tf.Tensor:
  """cuDNN's per-gate matrices to a TF kernel: [input; state] rows, gates as columns."""
  rows = [tf.concat([w, r], axis=1) for w, r in zip(input_weights, recurrent_weights)]
  return tf.transpose(tf.concat(rows, axis=0))


class CudnnParamsFormatConverterLSTM(CudnnParamsFormatConverter):
  """cuDNN LSTM <-> ``CudnnCompatibleLSTMCell``: one kernel and one bias per layer.

  cuDNN orders the gates input, forget, cell, output; the TF kernel's columns are
  input, cell, forget, output.
  """

  _rnn_mode = CUDNN_LSTM
  _num_params_per_layer = CUDNN_LSTM_PARAMS_PER_LAYER

  def _cudnn_to_tf_gate_params(self, *cu_gate_order: Any) -> List[Any]:
    """Four per-gate values from cuDNN's gate order (i, f, c, o) to TF's (i, c, f, o)."""
    i, f, c, o = cu_gate_order
    return [i, c, f, o]

  def _tf_to_cudnn_gate_params(self, *tf_gate_order: Any) -> List[Any]:
    """Four per-gate values from TF's gate order (i, c, f, o) to cuDNN's (i, f, c, o)."""
    i, c, f, o = tf_gate_order
    return [i, f, c, o]

  def _cudnn_to_tf_weights(self, *cu_weights):
    return (_stitch_kernel(self._cudnn_to_tf_gate_params(*cu_weights[:4]),
                           self._cudnn_to_tf_gate_params(*cu_weights[4:])),)

  def _tf_to_cudnn_weights(self, layer, *tf_weights):
    (kernel,) = tf_weights
    inputs, recurrent = self._split_kernel(layer, kernel, 4)
    return (*self._tf_to_cudnn_gate_params(*inputs),
            *self._tf_to_cudnn_gate_params(*recurrent))

  def _cudnn_to_tf_biases(self, *cu_biases):
    summed = [w + r for w, r in zip(cu_biases[:4], cu_biases[4:])]
    return (tf.concat(self._cudnn_to_tf_gate_params(*summed), axis=0),)

  def _tf_to_cudnn_biases(self, *tf_biases):
    (bias,) = tf_biases
    # cuDNN adds an input and a recurrent bias: each gets half of TF's.
    halves = self._tf_to_cudnn_gate_params(*[b * 0.5 for b in tf.split(bias, 4, axis=0)])
    return (*halves, *halves)


class CudnnParamsFormatConverterGRU(CudnnParamsFormatConverter):
  """cuDNN GRU <-> ``CudnnCompatibleGRUCell``: per layer ``gates/kernel`` (reset and
  update), ``candidate/input_projection/kernel``, ``candidate/hidden_projection/kernel``
  and the three matching biases."""

  _rnn_mode = CUDNN_GRU
  _num_params_per_layer = CUDNN_GRU_PARAMS_PER_LAYER

  def _cudnn_to_tf_weights(self, *cu_weights):
    # cuDNN: input reset, update, candidate; recurrent reset, update, candidate.
    gates = _stitch_kernel(cu_weights[0:2], cu_weights[3:5])
    return gates, tf.transpose(cu_weights[2]), tf.transpose(cu_weights[5])

  def _tf_to_cudnn_weights(self, layer, *tf_weights):
    gates, input_projection, hidden_projection = tf_weights
    (w_reset, w_update), (r_reset, r_update) = self._split_kernel(layer, gates, 2)
    return (w_reset, w_update, tf.transpose(input_projection),
            r_reset, r_update, tf.transpose(hidden_projection))

  def _cudnn_to_tf_biases(self, *cu_biases):
    # The candidate's two biases stay apart: the reset gate scales only the recurrent one.
    gate_bias = tf.concat(cu_biases[0:2], axis=0) + tf.concat(cu_biases[3:5], axis=0)
    return gate_bias, cu_biases[2], cu_biases[5]

  def _tf_to_cudnn_biases(self, *tf_biases):
    gate_bias, input_bias, hidden_bias = tf_biases
    b_reset, b_update = tf.split(gate_bias * 0.5, 2, axis=0)
    return b_reset, b_update, input_bias, b_reset, b_update, hidden_bias


class CudnnParamsFormatConverterBasic(CudnnParamsFormatConverterLSTM):
  """cuDNN tanh / relu RNN <-> ``BasicRNNCell``: one kernel and one bias per layer
  (a subclass of the LSTM converter, as in TF 1.14)."""

  def _cudnn_to_tf_weights(self, *cu_weights):
    w, r = cu_weights
    return (_stitch_kernel([w], [r]),)

  def _tf_to_cudnn_weights(self, layer, *tf_weights):
    (kernel,) = tf_weights
    (w,), (r,) = self._split_kernel(layer, kernel, 1)
    return w, r

  def _cudnn_to_tf_biases(self, *cu_biases):
    w, r = cu_biases
    return (w + r,)

  def _tf_to_cudnn_biases(self, *tf_biases):
    (bias,) = tf_biases
    return bias * 0.5, bias * 0.5


class CudnnParamsFormatConverterTanh(CudnnParamsFormatConverterBasic):
  """cuDNN's tanh RNN <-> ``BasicRNNCell``."""

  _rnn_mode = CUDNN_RNN_TANH
  _num_params_per_layer = CUDNN_RNN_TANH_PARAMS_PER_LAYER


class CudnnParamsFormatConverterRelu(CudnnParamsFormatConverterBasic):
  """cuDNN's relu RNN <-> ``BasicRNNCell`` (with a relu activation)."""

  _rnn_mode = CUDNN_RNN_RELU
  _num_params_per_layer = CUDNN_RNN_RELU_PARAMS_PER_LAYER


class CudnnOpaqueParamsSaveable(saveable_object.SaveableObject):
  """Saves a cuDNN layer's opaque buffer as canonical weights (abstract).

  The save specs are the TF canonical weights, then biases, named as the variables
  of the platform-independent cells that compute the same RNN:
  ``<scope>/rnn/multi_rnn_cell/cell_<layer>/<cell>/...`` for a unidirectional RNN
  (``MultiRNNCell`` in ``dynamic_rnn``), and
  ``<scope>/stack_bidirectional_rnn/cell_<layer>/bidirectional_rnn/{fw,bw}/<cell>/...``
  for a bidirectional one (``stack_bidirectional_dynamic_rnn``). Saving converts the
  buffer (``CudnnRNNParamsToCanonical``), restoring packs the tensors read back into
  it (``CudnnRNNCanonicalToParams``); both need a GPU, as in TF 1.x.
  """

  _format_converter_cls: type = CudnnParamsFormatConverter
  _rnn_cell_name: str = ""

  def __init__(self, opaque_params: Any, num_layers: int, num_units: int, input_size: int,
               input_mode: str = CUDNN_INPUT_LINEAR_MODE,
               direction: str = CUDNN_RNN_UNIDIRECTION, scope: Optional[Any] = None,
               name: str = "cudnn_rnn_saveable"):
    """Creates the saveable; its tensors to save are built now, in the current graph.

    Args:
      opaque_params: the variable holding the opaque buffer.
      num_layers: the number of layers.
      num_units: the number of units per layer and direction.
      input_size: the depth of the first layer's input.
      input_mode: 'linear_input', 'skip_input' or 'auto_select'.
      direction: 'unidirectional' or 'bidirectional'.
      scope: a VariableScope or its name: the prefix of the saved names (that of the
        graph the platform-independent cells will be built in).
      name: the saveable's name (a Saver's key for it).
    """
    self._num_layers = num_layers
    self._num_units = num_units
    self._input_size = input_size
    self._input_mode = input_mode
    self._direction = direction
    scope_name = scope.name if isinstance(scope, tf.VariableScope) else scope
    self._scope = scope_name or None
    self._variables = opaque_params
    self._num_dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
    self._format_converter = None
    weights, biases = self.format_converter.opaque_to_tf_canonical(opaque_params)
    self._weight_names, self._bias_names = self._tf_canonical_names()
    self._param_names = self._weight_names + self._bias_names
    prefix = f"{self._scope}/" if self._scope else ""
    specs = [saveable_object.SaveSpec(tensor, "", prefix + param_name)
             for tensor, param_name in zip(weights + biases, self._param_names)]
    super().__init__(tf.identity(opaque_params), specs, name)

  @property
  def format_converter(self) -> CudnnParamsFormatConverter:
    """The converter between this RNN's opaque buffer and its canonical weights."""
    if self._format_converter is None:
      self._format_converter = self._format_converter_cls(
          self._num_layers, self._num_units, self._input_size, self._input_mode,
          self._direction)
    return self._format_converter

  def restore(self, restored_tensors: Sequence[tf.Tensor],
              restored_shapes: Optional[Sequence[Any]]) -> tf.Operation:
    """Packs the canonical tensors read from a checkpoint into the opaque variable.

    Args:
      restored_tensors: the tensors read, in the order of the save specs.
      restored_shapes: unused (the buffer's size is cuDNN's to decide).

    Returns:
      The assign op.
    """
    del restored_shapes  # The opaque buffer has no static shape to check against.
    opaque = self.format_converter.tf_canonical_to_opaque(restored_tensors)
    assigned = tf.assign(self._variables, opaque, validate_shape=False)
    # A resource variable's assign returns the variable (to be read), a reference
    # variable's its new value: the Saver groups ops.
    return assigned if isinstance(assigned, tf.Operation) else assigned.op

  # As the converters', these hooks keep TF 1.14's names and signatures: TF1 code
  # overrides them (magenta's music_vae saves under its older cells' names through
  # _tf_canonical_name_prefix).

  def _tf_canonical_names(self) -> Tuple[List[str], List[str]]:
    """(weight names, bias names), without the scope, in the save specs' order."""
    weights, biases = [], []
    for layer in range(self._num_layers):
      if self._direction == CUDNN_RNN_UNIDIRECTION:
        prefixes = [self._tf_canonical_name_prefix(layer)]
      else:
        prefixes = [self._tf_canonical_name_prefix(layer, is_fwd=True),
                    self._tf_canonical_name_prefix(layer, is_fwd=False)]
      for prefix in prefixes:
        self._tf_canonical_names_single_layer(prefix, weights, biases)
    return weights, biases

  def _tf_canonical_name_prefix(self, layer: int, is_fwd: bool = True) -> str:
    """Where the compatible cell of ``layer`` (and direction) keeps its variables."""
    if self._direction == CUDNN_RNN_UNIDIRECTION:
      return f"rnn/multi_rnn_cell/cell_{layer}/{self._rnn_cell_name}"
    side = "fw" if is_fwd else "bw"
    return (f"stack_bidirectional_rnn/cell_{layer}/bidirectional_rnn/{side}/"
            f"{self._rnn_cell_name}")

  def _tf_canonical_names_single_layer(self, prefix: str, tf_weights_names: List[str],
                                       tf_biases_names: List[str]) -> None:
    """Appends one cell's weight and bias names (under ``prefix``) to the lists."""
    raise NotImplementedError("Abstract method")


class CudnnLSTMSaveable(CudnnOpaqueParamsSaveable):
  """A cuDNN LSTM's buffer saved as ``CudnnCompatibleLSTMCell``'s kernel and bias."""

  _format_converter_cls = CudnnParamsFormatConverterLSTM
  _rnn_cell_name = "cudnn_compatible_lstm_cell"

  def _tf_canonical_names_single_layer(self, prefix, tf_weights_names, tf_biases_names):
    tf_weights_names.append(f"{prefix}/kernel")
    tf_biases_names.append(f"{prefix}/bias")


class CudnnGRUSaveable(CudnnOpaqueParamsSaveable):
  """A cuDNN GRU's buffer saved as ``CudnnCompatibleGRUCell``'s six variables."""

  _format_converter_cls = CudnnParamsFormatConverterGRU
  _rnn_cell_name = "cudnn_compatible_gru_cell"

  def _tf_canonical_names_single_layer(self, prefix, tf_weights_names, tf_biases_names):
    for part in ("gates", "candidate/input_projection", "candidate/hidden_projection"):
      tf_weights_names.append(f"{prefix}/{part}/kernel")
      tf_biases_names.append(f"{prefix}/{part}/bias")


class CudnnRNNTanhSaveable(CudnnLSTMSaveable):
  """A cuDNN tanh RNN's buffer saved as ``BasicRNNCell``'s kernel and bias."""

  _format_converter_cls = CudnnParamsFormatConverterTanh
  _rnn_cell_name = "basic_rnn_cell"


class CudnnRNNReluSaveable(CudnnLSTMSaveable):
  """A cuDNN relu RNN's buffer saved as ``BasicRNNCell``'s kernel and bias."""

  _format_converter_cls = CudnnParamsFormatConverterRelu
  _rnn_cell_name = "basic_rnn_cell"
