"""tf.contrib.cudnn_rnn on TensorFlow 2: the cuDNN layers, their saveables, the compatible cells.

TF1 code trained with ``CudnnLSTM`` / ``CudnnGRU`` / ``CudnnRNNTanh`` / ``CudnnRNNRelu``
on a GPU and ran the same weights anywhere with ``CudnnCompatibleLSTMCell`` /
``CudnnCompatibleGRUCell`` / ``BasicRNNCell``. Here, as in TF 1.14:

* the layers are ``tf.compat.v1.layers.Layer`` subclasses that build in a graph anywhere
  (one variable, ``<layer scope>/opaque_kernel``, of no static shape, initialized from
  canonical weights by ``CudnnRNNCanonicalToParams``) and call core TensorFlow's cuDNN
  ops (``CudnnRNN``, ``CudnnRNNV3`` with sequence lengths or batch-major input), whose
  gradients TensorFlow 2 registers: ``tf.gradients`` and optimizers work in a graph.
  Running the graph needs a GPU with cuDNN (those ops have no CPU kernel), as it did;
* each layer registers a saveable in SAVEABLE_OBJECTS, so ``tf.train.Saver`` writes the
  canonical weights under the compatible cells' variable names
  (``<scope>/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/kernel``, ...) beside
  the opaque buffer, converting at save time (``CudnnRNNParamsToCanonical``, then the
  format converters' reshuffling: slim_ext.contrib.cudnn_rnn_ops);
* the compatible cells have TF1's variable names (``cudnn_compatible_lstm_cell/kernel``,
  ``.../bias``; ``gates/kernel``, ``candidate/input_projection/kernel``,
  ``candidate/hidden_projection/kernel`` and their biases), so those checkpoints
  restore into them, on a CPU too.

Object-based checkpoints (``tf.train.Checkpoint`` of a layer) are not supported: TF 1.14
had them for a unidirectional CudnnLSTM only; saving one raises NotImplementedError.
"""
from typing import Any, List, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib import cudnn_rnn_ops
from slim_ext.contrib.cudnn_rnn_ops import (
    CudnnGRUSaveable, CudnnLSTMSaveable, CudnnParamsFormatConverterGRU,
    CudnnParamsFormatConverterLSTM, CudnnParamsFormatConverterRelu,
    CudnnParamsFormatConverterTanh, CudnnRNNReluSaveable, CudnnRNNTanhSaveable)
from slim_ext.contrib.rnn.lstm_ops import LSTMBlockCell

__all__ = ["CudnnCompatibleGRUCell", "CudnnCompatibleLSTMCell", "CudnnGRU",
           "CudnnGRUSaveable", "CudnnLSTM", "CudnnLSTMSaveable",
           "CudnnParamsFormatConverterGRU", "CudnnParamsFormatConverterLSTM",
           "CudnnParamsFormatConverterRelu", "CudnnParamsFormatConverterTanh",
           "CudnnRNNRelu", "CudnnRNNReluSaveable", "CudnnRNNTanh", "CudnnRNNTanhSaveable"]


class CudnnCompatibleLSTMCell(LSTMBlockCell):
  """TF1's ``tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell``: LSTMBlockCell with forget
  bias 0 (cuDNN's biases carry it), no clipping or peepholes, named
  ``cudnn_compatible_lstm_cell``."""

  def __init__(self, num_units: int, reuse: Optional[bool] = None):
    super().__init__(num_units, forget_bias=0, cell_clip=None, use_peephole=False,
                     reuse=reuse, name="cudnn_compatible_lstm_cell")


class CudnnCompatibleGRUCell(tf.nn.rnn_cell.GRUCell):
  """TF1's ``tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell``: cuDNN's GRU variant, where the
  reset gate scales the projected previous state (plus its own bias):

    h' = tanh(x @ W_h + b_Wh + r * (h_prev @ R_h + b_Rh)); h = (1 - u) * h' + u * h_prev
  """

  def __init__(self, num_units: int, reuse: Optional[bool] = None,
               kernel_initializer: Optional[Any] = None):
    super().__init__(num_units, activation=None, reuse=reuse,
                     kernel_initializer=kernel_initializer)

  def build(self, inputs_shape: tf.TensorShape) -> None:
    input_depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
    if input_depth is None:
      raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
    units = self._num_units

    def bias(name: str, shape: list, default: Any) -> tf.Variable:
      return self.add_weight(name, shape=shape,
                             initializer=self._bias_initializer or default)

    self._gate_kernel = self.add_weight("gates/kernel", shape=[input_depth + units, 2 * units],
                                        initializer=self._kernel_initializer)
    self._gate_bias = bias("gates/bias", [2 * units],
                           tf.constant_initializer(1.0, dtype=self.dtype))
    self._candidate_input_kernel = self.add_weight(
        "candidate/input_projection/kernel", shape=[input_depth, units],
        initializer=self._kernel_initializer)
    self._candidate_hidden_kernel = self.add_weight(
        "candidate/hidden_projection/kernel", shape=[units, units],
        initializer=self._kernel_initializer)
    self._candidate_input_bias = bias("candidate/input_projection/bias", [units],
                                      tf.zeros_initializer(dtype=self.dtype))
    self._candidate_hidden_bias = bias("candidate/hidden_projection/bias", [units],
                                       tf.zeros_initializer(dtype=self.dtype))
    self.built = True

  def call(self, inputs: tf.Tensor, state: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    gates = tf.sigmoid(tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1),
                                                self._gate_kernel), self._gate_bias))
    r, u = tf.split(gates, 2, axis=1)
    candidate = tf.nn.bias_add(tf.matmul(inputs, self._candidate_input_kernel),
                               self._candidate_input_bias)
    candidate += r * tf.nn.bias_add(tf.matmul(state, self._candidate_hidden_kernel),
                                    self._candidate_hidden_bias)
    new_h = (1 - u) * self._activation(candidate) + u * state
    return new_h, new_h


_DTYPES = (tf.float16, tf.float32, tf.float64)


class _CudnnRNN(tf.layers.Layer):
  """TF 1.14's cuDNN RNN layer (abstract): ``num_layers`` stacked layers of one cell.

  ``build`` creates one variable, ``opaque_kernel``, holding every weight and bias in
  cuDNN's opaque layout (no static shape: cuDNN decides its size), and, unless the
  variable scope reuses, registers the saveable that writes canonical weights;
  ``call`` runs the whole sequence with one cuDNN op.
  """

  _rnn_mode: str = ""
  _num_params_per_layer: int = 0
  _saveable_cls: type = cudnn_rnn_ops.CudnnOpaqueParamsSaveable

  def __init__(self, num_layers: int, num_units: int,
               input_mode: str = cudnn_rnn_ops.CUDNN_INPUT_LINEAR_MODE,
               direction: str = cudnn_rnn_ops.CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
               seed: Optional[int] = None, dtype: Any = tf.float32,
               kernel_initializer: Optional[Any] = None,
               bias_initializer: Optional[Any] = None, name: Optional[str] = None):
    """Creates the layer; its variable is made by ``build`` (or the first call).

    Args:
      num_layers: the number of stacked layers.
      num_units: the number of units per layer and direction.
      input_mode: 'linear_input' (the first layer projects its input), 'skip_input'
        (no projection: input depth must equal num_units) or 'auto_select' (skip
        when they are equal).
      direction: 'unidirectional' or 'bidirectional'.
      dropout: the dropout rate between layers (none after the last).
      seed: the op-level seed of the dropout and of the default kernel initializer.
      dtype: tf.float16, tf.float32 or tf.float64.
      kernel_initializer: initializes each canonical weight matrix (default: Glorot
        uniform).
      bias_initializer: initializes each canonical bias (default: zeros).
      name: the layer's name and default variable scope.

    Raises:
      ValueError: on an invalid direction, input_mode or dtype.
    """
    cudnn_rnn_ops.check_direction(direction)
    cudnn_rnn_ops.check_input_mode(input_mode)
    plain_dtype = tf.as_dtype(dtype)
    if plain_dtype not in _DTYPES:
      raise ValueError(f"Only support float16, float32, float64, provided {dtype}")
    super().__init__(dtype=plain_dtype, name=name)
    # The Layer keeps its dtype as a name; the DType is what the ops and
    # initializers take.
    self._plain_dtype = plain_dtype
    self._num_layers = num_layers
    self._num_units = num_units
    self._input_mode = input_mode
    self._direction = direction
    self._dropout = dropout
    self._seed = seed
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer
    self._input_size = None
    self._saveable = None

  @property
  def num_layers(self) -> int:
    return self._num_layers

  @property
  def num_units(self) -> int:
    return self._num_units

  @property
  def input_mode(self) -> str:
    """'linear_input', 'skip_input' or 'auto_select' (see the constructor)."""
    return self._input_mode

  @property
  def input_size(self) -> int:
    """The depth of the input, known once the layer is built.

    Raises:
      ValueError: before the layer is built.
    """
    if not self._input_size:
      raise ValueError("'input_size' is unknown since layer has not been built.")
    return self._input_size

  @property
  def rnn_mode(self) -> str:
    """'lstm', 'gru', 'rnn_relu' or 'rnn_tanh'."""
    return self._rnn_mode

  @property
  def direction(self) -> str:
    """'unidirectional' or 'bidirectional'."""
    return self._direction

  @property
  def num_dirs(self) -> int:
    return 1 if self._direction == cudnn_rnn_ops.CUDNN_RNN_UNIDIRECTION else 2

  @property
  def saveable(self) -> Optional[cudnn_rnn_ops.CudnnOpaqueParamsSaveable]:
    """The saveable ``build`` registered (None before, or when built reusing)."""
    return self._saveable

  @property
  def canonical_weight_shapes(self) -> List[Tuple[int, int]]:
    """cuDNN's canonical weight shapes, layer by layer and direction by direction.

    Raises:
      RuntimeError: before the input depth is known (the layer is built).
    """
    if not self._input_size:
      raise RuntimeError(f"{type(self).__name__}.canonical_weight_shapes invoked before "
                         "input shape is known")
    shapes = []
    for layer in range(self._num_layers):
      shapes.extend(self._canonical_weight_shape(layer))
    return shapes

  @property
  def canonical_bias_shapes(self) -> List[List[int]]:
    """cuDNN's canonical bias shapes: [num_units] for each weight."""
    return [[self._num_units]] * (self.num_dirs * self._num_params_per_layer *
                                  self._num_layers)

  def _canonical_weight_shape(self, layer: int) -> List[Tuple[int, int]]:
    gates = self._num_params_per_layer // 2
    width = self._input_size if layer == 0 else self._num_units * self.num_dirs
    one_direction = ([(self._num_units, width)] * gates +
                     [(self._num_units, self._num_units)] * gates)
    return one_direction * self.num_dirs

  def state_shape(self, batch_size: Any) -> Tuple[List[Any], ...]:
    """The shapes of the states: ([num_layers * num_dirs, batch_size, num_units],)
    for each state (two for an LSTM: h and c, one otherwise)."""
    shape = [self._num_layers * self.num_dirs, batch_size, self._num_units]
    return (shape, list(shape)) if self._rnn_mode == cudnn_rnn_ops.CUDNN_LSTM else (shape,)

  def _update_trainable_weights(self, getter: Any, *args: Any, **kwargs: Any) -> Any:
    # A custom getter: the variable made by tf.get_variable in build belongs to the
    # layer's weights, as add_weight's would.
    variable = getter(*args, **kwargs)
    weights = (self._trainable_weights if kwargs.get("trainable", True)
               else self._non_trainable_weights)
    if not any(variable is weight for weight in weights):
      weights.append(variable)
    return variable

  def build(self, input_shape: Any) -> None:
    """Creates the opaque parameter variable and registers the saveable.

    Args:
      input_shape: the input's shape, three dimensions, the last one known.

    Raises:
      ValueError: if the shape has not 3 dimensions or its last is unknown.
    """
    if self.built:
      return
    input_shape = tf.TensorShape(input_shape)
    if input_shape.ndims != 3:
      raise ValueError(f"Expecting input_shape with 3 dims, got {input_shape.ndims}")
    input_size = tf.compat.dimension_value(input_shape[-1])
    if input_size is None:
      raise ValueError("The last dimension of the inputs to `CudnnRNN` should be "
                       "defined. Found `None`.")
    self._input_size = input_size
    self.input_spec = tf.layers.InputSpec(ndim=3, axes={-1: input_size})
    self._set_scope(None)
    with tf.variable_scope(self._scope, custom_getter=self._update_trainable_weights):
      if self._kernel_initializer is None:
        self._kernel_initializer = tf.glorot_uniform_initializer(seed=self._seed)
      if self._bias_initializer is None:
        self._bias_initializer = tf.constant_initializer(0.0)
      if tf.get_variable_scope().partitioner is not None:
        tf.logging.warn("Partitioner is not supported for Cudnn RNN layer variables, "
                        "using it will create forward-compatibility issues with future "
                        "CUDA/CuDNN generations.")
      # The buffer's size is cuDNN's to decide: the variable has no static shape
      # (TF 1.14's had none either), so it is given one explicitly unknown and a
      # callable initial value (a tensor initializer would fix its rank).
      self.kernel = tf.get_variable(
          "opaque_kernel", dtype=self._plain_dtype, shape=tf.TensorShape(None),
          initializer=self._initial_opaque_params, validate_shape=False)
    # The saveable takes the scope the layer was built in (the layer's own when built
    # by its first call), the prefix of the canonical names it saves.
    if not (self.built or tf.get_variable_scope().reuse is True):
      self._create_saveable()
    self.built = True

  def _initial_opaque_params(self) -> tf.Tensor:
    weights = [self._kernel_initializer(shape, dtype=self._plain_dtype)
               for shape in self.canonical_weight_shapes]
    biases = [self._bias_initializer(shape, dtype=self._plain_dtype)
              for shape in self.canonical_bias_shapes]
    return self._canonical_to_opaque(weights, biases)

  def _canonical_to_opaque(self, cu_weights: List[tf.Tensor],
                           cu_biases: List[tf.Tensor]) -> tf.Tensor:
    if not self._input_size:
      raise RuntimeError(f"{type(self).__name__}._canonical_to_opaque invoked before "
                         "input shape is known")
    # TF 1.14 pinned the conversion to the GPU, the only device with its kernel.
    with tf.device("/gpu:0"):
      return cudnn_rnn_ops.canonical_to_opaque(
          self._rnn_mode, self._num_layers, self._num_units, self._input_size,
          cu_weights, cu_biases, input_mode=self._input_mode, direction=self._direction,
          dropout=self._dropout, seed=self._seed)

  def _create_saveable(self) -> None:
    if self._saveable is not None:
      raise RuntimeError("Cudnn saveable already created.")
    self._saveable = self._saveable_cls(
        opaque_params=self.kernel, num_layers=self._num_layers, num_units=self._num_units,
        input_size=self._input_size, input_mode=self._input_mode,
        direction=self._direction, scope=tf.get_variable_scope(),
        name=f"{self.kernel.name.split(':')[0]}_saveable")
    tf.add_to_collection(tf.GraphKeys.SAVEABLE_OBJECTS, self._saveable)

  def _gather_saveables_for_checkpoint(self) -> Any:
    # tf.train.Checkpoint would otherwise write the opaque buffer alone, a format
    # cuDNN may not read back on another GPU or version: refuse instead.
    raise NotImplementedError(
        f"Object-based saving (tf.train.Checkpoint) of {type(self).__name__} is not "
        "supported by slim_ext: save the graph with tf.compat.v1.train.Saver, which "
        "writes the canonical weights (the layer's saveable), or build the model with "
        "CudnnCompatibleLSTMCell / CudnnCompatibleGRUCell to checkpoint it canonically "
        "anywhere.")

  def call(self, inputs: Any, initial_state: Optional[Tuple[Any, ...]] = None,
           sequence_lengths: Optional[Any] = None, time_major: bool = True,
           training: bool = True) -> Tuple[tf.Tensor, Tuple[tf.Tensor, ...]]:
    """Runs the RNN over the whole sequence (one cuDNN op).

    Args:
      inputs: [time, batch, depth] when ``time_major``, else [batch, time, depth].
      initial_state: a tuple of [num_layers * num_dirs, batch, num_units] tensors
        ((h, c) for an LSTM, (h,) otherwise); None: zeros, sized as TF 1.14 sized
        them, by dimension 1 of ``inputs`` even when it is the time (batch-major
        input with time != batch needs a state passed, as it did).
      sequence_lengths: int32 [batch], each sequence's length; None: all full.
      time_major: the layout of ``inputs`` and of the output.
      training: whether the graph will be trained (dropout, and what the gradient
        needs; the gradient refuses an op built with False).

    Returns:
      (outputs, output_states): outputs [time, batch, num_dirs * num_units] (batch
      first when not ``time_major``), the directions' outputs concatenated;
      output_states of initial_state's structure.

    Raises:
      TypeError: if initial_state is not a tuple.
    """
    if initial_state is not None and not isinstance(initial_state, tuple):
      raise TypeError(f"Invalid initial_state type: {initial_state}, expecting tuple.")
    inputs = tf.convert_to_tensor(inputs, dtype=self.dtype)
    if initial_state is None:
      # TF 1.14 took the batch size from dimension 1 whatever the layout; kept so
      # that the graph is TF 1.14's (a batch-major call passes its own state).
      batch_size = tf.shape(inputs)[1]
      initial_state = tuple(tf.zeros(shape, dtype=self.dtype)
                            for shape in self.state_shape(batch_size))
    is_lstm = self._rnn_mode == cudnn_rnn_ops.CUDNN_LSTM
    if is_lstm:
      h, c = initial_state
      c = tf.convert_to_tensor(c, dtype=self.dtype)
    else:
      h, = initial_state
      # The op takes a cell state only an LSTM has: the others get an empty one.
      c = tf.constant([], dtype=self.dtype)
    h = tf.convert_to_tensor(h, dtype=self.dtype)
    outputs, output_h, output_c = cudnn_rnn_ops.cudnn_rnn(
        inputs, h, c, self.kernel, training, self._rnn_mode,
        sequence_lengths=sequence_lengths, time_major=time_major,
        input_mode=self._input_mode, direction=self._direction, dropout=self._dropout,
        seed=self._seed)
    return outputs, ((output_h, output_c) if is_lstm else (output_h,))


class CudnnLSTM(_CudnnRNN):
  """TF 1.14's ``tf.contrib.cudnn_rnn.CudnnLSTM``: states (h, c); checkpoints as
  ``CudnnCompatibleLSTMCell``."""

  _rnn_mode = cudnn_rnn_ops.CUDNN_LSTM
  _num_params_per_layer = cudnn_rnn_ops.CUDNN_LSTM_PARAMS_PER_LAYER
  _saveable_cls = CudnnLSTMSaveable


class CudnnGRU(_CudnnRNN):
  """TF 1.14's ``tf.contrib.cudnn_rnn.CudnnGRU``: state (h,); checkpoints as
  ``CudnnCompatibleGRUCell``."""

  _rnn_mode = cudnn_rnn_ops.CUDNN_GRU
  _num_params_per_layer = cudnn_rnn_ops.CUDNN_GRU_PARAMS_PER_LAYER
  _saveable_cls = CudnnGRUSaveable


class CudnnRNNTanh(_CudnnRNN):
  """TF 1.14's ``tf.contrib.cudnn_rnn.CudnnRNNTanh``: state (h,); checkpoints as
  ``BasicRNNCell``."""

  _rnn_mode = cudnn_rnn_ops.CUDNN_RNN_TANH
  _num_params_per_layer = cudnn_rnn_ops.CUDNN_RNN_TANH_PARAMS_PER_LAYER
  _saveable_cls = CudnnRNNTanhSaveable


class CudnnRNNRelu(_CudnnRNN):
  """TF 1.14's ``tf.contrib.cudnn_rnn.CudnnRNNRelu``: state (h,); checkpoints as
  ``BasicRNNCell`` with a relu activation."""

  _rnn_mode = cudnn_rnn_ops.CUDNN_RNN_RELU
  _num_params_per_layer = cudnn_rnn_ops.CUDNN_RNN_RELU_PARAMS_PER_LAYER
  _saveable_cls = CudnnRNNReluSaveable
