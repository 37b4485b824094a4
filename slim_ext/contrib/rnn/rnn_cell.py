"""tf.contrib.rnn's extra cells and wrappers (contrib/rnn/python/ops/rnn_cell.py).

The cells TF1 code used most that have no core TensorFlow 2 twin, written on
tf.compat.v1 with TF1's equations, variable names and initial values:

- ``LayerNormBasicLSTMCell``: ``kernel`` (``bias`` only without layer norm), and a
  ``gamma``/``beta`` pair under each of ``input``, ``transform``, ``forget``,
  ``output``, ``state``; optional recurrent dropout on the candidate.
- ``LayerNormLSTMCell``: LSTMCell's ``kernel``/``bias``/peepholes/``projection``
  plus the same layer norm pairs.
- ``CoupledInputForgetGateLSTMCell``: ``W`` (sharded ``W_0``...), ``B``,
  ``W_F_diag``, ``W_O_diag``, ``W_P``.
- ``NASCell``, ``UGRNNCell``.
- ``AttentionCellWrapper`` (``attention/attn_w``, ``attention/attn_v``,
  ``attn_output_projection``) and ``HighwayWrapper`` (``carry_w``/``carry_b``,
  ``transform_w``/``transform_b``).

Each makes its variables while it runs, in the scope TF1 made them in, so a
checkpoint written by the TF1 model restores into the ported graph.
"""
from typing import Any, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import (
    Activation, LayerRNNCell, Linear, LSTMSizes, LSTMStateTuple, RNNCell, UnitSizes, Wrapper,
    check_cell, input_depth, layer_norm, sharded_variable)

__all__ = ["AttentionCellWrapper", "CoupledInputForgetGateLSTMCell", "HighwayWrapper",
           "LayerNormBasicLSTMCell", "LayerNormLSTMCell", "NASCell", "UGRNNCell"]


class _LayerNorm:
  """TF1's cells' ``_norm``: layer norm with the cell's initial gain and shift."""

  _norm_gain: float
  _norm_shift: float

  def _norm(self, value: tf.Tensor, scope: str) -> tf.Tensor:
    return layer_norm(value, scope, self._norm_gain, self._norm_shift)


class CoupledInputForgetGateLSTMCell(_LayerNorm, RNNCell):
  """TF1's ``tf.contrib.rnn.CoupledInputForgetGateLSTMCell``: the input gate is 1 - forget."""

  def __init__(self, num_units: int, use_peepholes: bool = False,
               initializer: Optional[Any] = None, num_proj: Optional[int] = None,
               proj_clip: Optional[float] = None, num_unit_shards: int = 1,
               num_proj_shards: int = 1, forget_bias: float = 1.0,
               state_is_tuple: bool = True, activation: Activation = tf.tanh,
               reuse: Optional[bool] = None, layer_norm: bool = False,
               norm_gain: float = 1.0, norm_shift: float = 0.0):
    """Creates the cell (TF1's arguments; ``initializer`` is accepted and unused, as in TF1).

    Args:
      num_units: the number of units.
      use_peepholes: whether to use the diagonal peephole connections.
      initializer: unused (TF1 kept it without using it).
      num_proj: the size of an output projection (``W_P``), if any.
      proj_clip: clips the projected output to [-proj_clip, proj_clip].
      num_unit_shards: how many row shards ``W`` is stored in.
      num_proj_shards: how many row shards ``W_P`` is stored in.
      forget_bias: added to the forget gate's pre-activation.
      state_is_tuple: (c, m) tuples, else one concatenated state.
      activation: the activation of the candidate and the output.
      reuse: whether to reuse the variables of an existing scope.
      layer_norm: whether to layer-normalize the gates and the cell state.
      norm_gain: the layer norm's initial gain.
      norm_shift: the layer norm's initial shift.
    """
    super().__init__(_reuse=reuse)
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._num_proj = num_proj
    self._proj_clip = proj_clip
    self._num_unit_shards = num_unit_shards
    self._num_proj_shards = num_proj_shards
    self._forget_bias = forget_bias
    self._state_is_tuple = state_is_tuple
    self._activation = activation
    self._layer_norm = layer_norm
    self._norm_gain = norm_gain
    self._norm_shift = norm_shift
    state_size = LSTMStateTuple(num_units, num_proj or num_units)
    self._state_size = state_size if state_is_tuple else sum(state_size)
    self._output_size = num_proj or num_units

  @property
  def state_size(self) -> Any:
    return self._state_size

  @property
  def output_size(self) -> int:
    return self._output_size

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, Any]:
    num_proj = self._num_proj or self._num_units
    if self._state_is_tuple:
      c_prev, m_prev = state
    else:
      c_prev = tf.slice(state, [0, 0], [-1, self._num_units])
      m_prev = tf.slice(state, [0, self._num_units], [-1, num_proj])
    dtype = inputs.dtype
    input_size = input_depth(inputs)
    weights = sharded_variable("W", [input_size + num_proj, 3 * self._num_units], dtype,
                               self._num_unit_shards)
    bias = tf.get_variable("B", shape=[3 * self._num_units],
                           initializer=tf.zeros_initializer(), dtype=dtype)
    gates = tf.matmul(tf.concat([inputs, m_prev], 1), weights)
    if not self._layer_norm:
      gates = tf.nn.bias_add(gates, bias)
    j, f, o = tf.split(gates, 3, axis=1)
    if self._layer_norm:
      j, f, o = (self._norm(j, "transform"), self._norm(f, "forget"),
                 self._norm(o, "output"))
    if self._use_peepholes:
      w_f_diag = tf.get_variable("W_F_diag", shape=[self._num_units], dtype=dtype)
      w_o_diag = tf.get_variable("W_O_diag", shape=[self._num_units], dtype=dtype)
      f_act = tf.sigmoid(f + self._forget_bias + w_f_diag * c_prev)
    else:
      f_act = tf.sigmoid(f + self._forget_bias)
    c = f_act * c_prev + (1 - f_act) * self._activation(j)
    if self._layer_norm:
      c = self._norm(c, "state")
    if self._use_peepholes:
      m = tf.sigmoid(o + w_o_diag * c) * self._activation(c)
    else:
      m = tf.sigmoid(o) * self._activation(c)
    if self._num_proj is not None:
      projection = sharded_variable("W_P", [self._num_units, self._num_proj], dtype,
                                    self._num_proj_shards)
      m = tf.matmul(m, projection)
      if self._proj_clip is not None:
        m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
    new_state = LSTMStateTuple(c, m) if self._state_is_tuple else tf.concat([c, m], 1)
    return m, new_state


class LayerNormBasicLSTMCell(_LayerNorm, LSTMSizes, RNNCell):
  """TF1's ``tf.contrib.rnn.LayerNormBasicLSTMCell``: layer norm and recurrent dropout."""

  def __init__(self, num_units: int, forget_bias: float = 1.0,
               input_size: Optional[int] = None, activation: Activation = tf.tanh,
               layer_norm: bool = True, norm_gain: float = 1.0, norm_shift: float = 0.0,
               dropout_keep_prob: Any = 1.0, dropout_prob_seed: Optional[int] = None,
               reuse: Optional[bool] = None):
    """Creates the cell.

    Args:
      num_units: the number of units.
      forget_bias: added to the forget gate's pre-activation.
      input_size: deprecated in TF1 and unused.
      activation: the activation of the candidate and the output.
      layer_norm: whether to layer-normalize the gates and the cell state.
      norm_gain: the layer norm's initial gain.
      norm_shift: the layer norm's initial shift.
      dropout_keep_prob: keep probability of the recurrent dropout on the
        candidate (a float 1.0 means none; a tensor always applies it).
      dropout_prob_seed: the dropout's seed.
      reuse: whether to reuse the variables of an existing scope.
    """
    super().__init__(_reuse=reuse)
    if input_size is not None:
      tf.logging.warn("%s: The input_size parameter is deprecated.", self)
    self._num_units = num_units
    self._activation = activation
    self._forget_bias = forget_bias
    self._keep_prob = dropout_keep_prob
    self._seed = dropout_prob_seed
    self._layer_norm = layer_norm
    self._norm_gain = norm_gain
    self._norm_shift = norm_shift

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, LSTMStateTuple]:
    c, h = state
    args = tf.concat([inputs, h], 1)
    out_size = 4 * self._num_units
    kernel = tf.get_variable("kernel", [args.get_shape()[-1], out_size], dtype=args.dtype)
    gates = tf.matmul(args, kernel)
    if not self._layer_norm:
      gates = tf.nn.bias_add(gates, tf.get_variable("bias", [out_size], dtype=args.dtype))
    i, j, f, o = tf.split(gates, 4, axis=1)
    if self._layer_norm:
      i, j, f, o = (self._norm(i, "input"), self._norm(j, "transform"),
                    self._norm(f, "forget"), self._norm(o, "output"))
    g = self._activation(j)
    if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
      g = tf.nn.dropout(g, keep_prob=self._keep_prob, seed=self._seed)
    new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
    if self._layer_norm:
      new_c = self._norm(new_c, "state")
    new_h = self._activation(new_c) * tf.sigmoid(o)
    return new_h, LSTMStateTuple(new_c, new_h)


class LayerNormLSTMCell(_LayerNorm, LSTMSizes, RNNCell):
  """TF1's ``tf.contrib.rnn.LayerNormLSTMCell``: LSTMCell with layer-normalized gates."""

  def __init__(self, num_units: int, use_peepholes: bool = False,
               cell_clip: Optional[float] = None, initializer: Optional[Any] = None,
               num_proj: Optional[int] = None, proj_clip: Optional[float] = None,
               forget_bias: float = 1.0, activation: Optional[Activation] = None,
               layer_norm: bool = False, norm_gain: float = 1.0, norm_shift: float = 0.0,
               reuse: Optional[bool] = None):
    """Creates the cell.

    Args:
      num_units: the number of units.
      use_peepholes: whether to use the diagonal peephole connections.
      cell_clip: clips the cell state to [-cell_clip, cell_clip].
      initializer: the weights' initializer.
      num_proj: the size of an output projection (``projection/kernel``), if any.
      proj_clip: clips the projected output to [-proj_clip, proj_clip].
      forget_bias: added to the forget gate's pre-activation.
      activation: the activation of the candidate and the output (tanh).
      layer_norm: whether to layer-normalize the gates and the cell state.
      norm_gain: the layer norm's initial gain.
      norm_shift: the layer norm's initial shift.
      reuse: whether to reuse the variables of an existing scope.
    """
    super().__init__(_reuse=reuse)
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._cell_clip = cell_clip
    self._initializer = initializer
    self._num_proj = num_proj
    self._proj_clip = proj_clip
    self._forget_bias = forget_bias
    self._activation = activation or tf.tanh
    self._layer_norm = layer_norm
    self._norm_gain = norm_gain
    self._norm_shift = norm_shift

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, LSTMStateTuple]:
    c_prev, m_prev = state
    dtype = inputs.dtype
    input_depth(inputs)
    with tf.variable_scope(tf.get_variable_scope(), initializer=self._initializer) as unit:
      # The bias exists with layer norm too (TF1 made it, then did not add it).
      linear = Linear([inputs, m_prev], 4 * self._num_units, True)
      gates = (linear.product if self._layer_norm else linear)([inputs, m_prev])
      i, j, f, o = tf.split(gates, 4, axis=1)
      if self._layer_norm:
        i, j, f, o = (self._norm(i, "input"), self._norm(j, "transform"),
                      self._norm(f, "forget"), self._norm(o, "output"))
      if self._use_peepholes:
        with tf.variable_scope(unit):
          w_f_diag = tf.get_variable("w_f_diag", shape=[self._num_units], dtype=dtype)
          w_i_diag = tf.get_variable("w_i_diag", shape=[self._num_units], dtype=dtype)
          w_o_diag = tf.get_variable("w_o_diag", shape=[self._num_units], dtype=dtype)
        c = (tf.sigmoid(f + self._forget_bias + w_f_diag * c_prev) * c_prev
             + tf.sigmoid(i + w_i_diag * c_prev) * self._activation(j))
      else:
        c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * self._activation(j)
      if self._layer_norm:
        c = self._norm(c, "state")
      if self._cell_clip is not None:
        c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
      if self._use_peepholes:
        m = tf.sigmoid(o + w_o_diag * c) * self._activation(c)
      else:
        m = tf.sigmoid(o) * self._activation(c)
      if self._num_proj is not None:
        with tf.variable_scope("projection"):
          m = Linear(m, self._num_proj, False)(m)
        if self._proj_clip is not None:
          m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
    return m, LSTMStateTuple(c, m)


class NASCell(LSTMSizes, LayerRNNCell):
  """TF1's ``tf.contrib.rnn.NASCell`` (Zoph and Le, 2017); a layer cell (``nas_cell``)."""

  _NAS_BASE = 8

  def __init__(self, num_units: int, num_proj: Optional[int] = None, use_bias: bool = False,
               reuse: Optional[bool] = None, **kwargs: Any):
    """Creates the cell.

    Args:
      num_units: the number of units.
      num_proj: the size of an output projection (``projection_weights``), if any.
      use_bias: whether to add a ``bias`` to the recurrent branch.
      reuse: whether to reuse the variables of an existing scope.
      **kwargs: the layer's (name, dtype).
    """
    super().__init__(_reuse=reuse, **kwargs)
    self._num_units = num_units
    self._num_proj = num_proj
    self._use_bias = use_bias

  def build(self, inputs_shape: tf.TensorShape) -> None:
    input_size = tf.compat.dimension_value(tf.TensorShape(inputs_shape).with_rank(2)[1])
    if input_size is None:
      raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
    width = self._NAS_BASE * self._num_units
    self.recurrent_kernel = self.add_weight("recurrent_kernel",
                                            [self._num_proj or self._num_units, width])
    self.kernel = self.add_weight("kernel", [input_size, width])
    if self._use_bias:
      self.bias = self.add_weight("bias", shape=[width], initializer=tf.zeros_initializer)
    if self._num_proj is not None:
      self.projection_weights = self.add_weight("projection_weights",
                                                [self._num_units, self._num_proj])
    self.built = True

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, LSTMStateTuple]:
    c_prev, m_prev = state
    recurrent = tf.matmul(m_prev, self.recurrent_kernel)
    if self._use_bias:
      recurrent = tf.nn.bias_add(recurrent, self.bias)
    m_s = tf.split(recurrent, self._NAS_BASE, axis=1)
    x_s = tf.split(tf.matmul(inputs, self.kernel), self._NAS_BASE, axis=1)
    layer1 = [tf.sigmoid(x_s[0] + m_s[0]), tf.nn.relu(x_s[1] + m_s[1]),
              tf.sigmoid(x_s[2] + m_s[2]), tf.nn.relu(x_s[3] * m_s[3]),
              tf.tanh(x_s[4] + m_s[4]), tf.sigmoid(x_s[5] + m_s[5]),
              tf.tanh(x_s[6] + m_s[6]), tf.sigmoid(x_s[7] + m_s[7])]
    l2_0 = tf.tanh(tf.tanh(layer1[0] * layer1[1]) + c_prev)
    l2_1 = tf.tanh(layer1[2] + layer1[3])
    l2_2 = tf.tanh(layer1[4] * layer1[5])
    l2_3 = tf.sigmoid(layer1[6] + layer1[7])
    new_c = l2_0 * l2_1
    new_m = tf.tanh(new_c * tf.tanh(l2_2 + l2_3))
    if self._num_proj is not None:
      new_m = tf.matmul(new_m, self.projection_weights)
    return new_m, LSTMStateTuple(new_c, new_m)


class UGRNNCell(UnitSizes, RNNCell):
  """TF1's ``tf.contrib.rnn.UGRNNCell`` (Collins et al., 2017): one update gate."""

  def __init__(self, num_units: int, initializer: Optional[Any] = None,
               forget_bias: float = 1.0, activation: Activation = tf.tanh,
               reuse: Optional[bool] = None):
    """Creates the cell.

    Args:
      num_units: the number of units.
      initializer: the weights' initializer.
      forget_bias: added to the gate's pre-activation.
      activation: the candidate's activation.
      reuse: whether to reuse the variables of an existing scope.
    """
    super().__init__(_reuse=reuse)
    self._num_units = num_units
    self._initializer = initializer
    self._forget_bias = forget_bias
    self._activation = activation
    self._linear = None

  def call(self, inputs: tf.Tensor, state: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    input_depth(inputs)
    with tf.variable_scope(tf.get_variable_scope(), initializer=self._initializer):
      cell_inputs = tf.concat([inputs, state], 1)
      if self._linear is None:
        self._linear = Linear(cell_inputs, 2 * self._num_units, True)
      g_act, c_act = tf.split(self._linear(cell_inputs), 2, axis=1)
      g = tf.sigmoid(g_act + self._forget_bias)
      new_state = g * state + (1.0 - g) * self._activation(c_act)
    return new_state, new_state


class AttentionCellWrapper(RNNCell):
  """TF1's ``tf.contrib.rnn.AttentionCellWrapper``: attention over the last outputs
  (Bahdanau et al.), kept in the state as a window of ``attn_length``."""

  def __init__(self, cell: RNNCell, attn_length: int, attn_size: Optional[int] = None,
               attn_vec_size: Optional[int] = None, input_size: Optional[int] = None,
               state_is_tuple: bool = True, reuse: Optional[bool] = None):
    """Wraps ``cell``.

    Args:
      cell: the cell attention is added to.
      attn_length: the size of the attention window.
      attn_size: the size of an attention vector (the cell's output size).
      attn_vec_size: the size of the attention's hidden features (attn_size).
      input_size: the size of the linear layer over inputs and attention (the
        input's depth).
      state_is_tuple: (cell state, attention, window) tuples, else concatenated.
      reuse: whether to reuse the variables of an existing scope.

    Raises:
      TypeError: cell is not an RNN cell.
      ValueError: a tuple state with state_is_tuple False, or attn_length <= 0.
    """
    super().__init__(_reuse=reuse)
    check_cell(cell)
    if tf.nest.is_nested(cell.state_size) and not state_is_tuple:
      raise ValueError("Cell returns tuple of states, but the flag state_is_tuple is not "
                       f"set. State size is: {cell.state_size}")
    if attn_length <= 0:
      raise ValueError(f"attn_length should be greater than zero, got {attn_length}")
    if not state_is_tuple:
      tf.logging.warn("%s: Using a concatenated state is slower and will soon be "
                      "deprecated.  Use state_is_tuple=True.", self)
    self._state_is_tuple = state_is_tuple
    self._cell = cell
    self._attn_size = attn_size or cell.output_size
    self._attn_vec_size = attn_vec_size or self._attn_size
    self._input_size = input_size
    self._attn_length = attn_length
    self._linear1 = self._linear2 = self._linear3 = None

  @property
  def state_size(self) -> Any:
    size = (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)
    return size if self._state_is_tuple else sum(size)

  @property
  def output_size(self) -> int:
    return self._attn_size

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, Any]:
    if self._state_is_tuple:
      state, attns, attn_states = state
    else:
      states = state
      cell_size = self._cell.state_size
      state = tf.slice(states, [0, 0], [-1, cell_size])
      attns = tf.slice(states, [0, cell_size], [-1, self._attn_size])
      attn_states = tf.slice(states, [0, cell_size + self._attn_size],
                             [-1, self._attn_size * self._attn_length])
    attn_states = tf.reshape(attn_states, [-1, self._attn_length, self._attn_size])
    input_size = self._input_size or inputs.get_shape().as_list()[1]
    if self._linear1 is None:
      self._linear1 = Linear([inputs, attns], input_size, True)
    inputs = self._linear1([inputs, attns])
    cell_output, new_state = self._cell(inputs, state)
    new_state_cat = (tf.concat(tf.nest.flatten(new_state), 1) if self._state_is_tuple
                     else new_state)
    new_attns, new_attn_states = self._attention(new_state_cat, attn_states)
    with tf.variable_scope("attn_output_projection"):
      if self._linear2 is None:
        self._linear2 = Linear([cell_output, new_attns], self._attn_size, True)
      output = self._linear2([cell_output, new_attns])
    new_attn_states = tf.reshape(
        tf.concat([new_attn_states, tf.expand_dims(output, 1)], 1),
        [-1, self._attn_length * self._attn_size])
    new_state = (new_state, new_attns, new_attn_states)
    if not self._state_is_tuple:
      new_state = tf.concat(list(new_state), 1)
    return output, new_state

  def _attention(self, query: tf.Tensor, attn_states: tf.Tensor) -> Tuple[tf.Tensor,
                                                                           tf.Tensor]:
    with tf.variable_scope("attention"):
      k = tf.get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
      v = tf.get_variable("attn_v", [self._attn_vec_size])
      hidden = tf.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
      hidden_features = tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME")
      if self._linear3 is None:
        self._linear3 = Linear(query, self._attn_vec_size, True)
      y = tf.reshape(self._linear3(query), [-1, 1, 1, self._attn_vec_size])
      weights = tf.nn.softmax(tf.reduce_sum(v * tf.tanh(hidden_features + y), [2, 3]))
      attended = tf.reduce_sum(
          tf.reshape(weights, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
      new_attns = tf.reshape(attended, [-1, self._attn_size])
      return new_attns, tf.slice(attn_states, [0, 1, 0], [-1, -1, -1])


class HighwayWrapper(Wrapper):
  """TF1's ``tf.contrib.rnn.HighwayWrapper``: a highway connection from the cell's
  input to its output (Srivastava et al., 2015).

  As in TF1, it runs the cell in the caller's scope and makes its variables
  there (it has no scope of its own).
  """

  def __init__(self, cell: RNNCell, couple_carry_transform_gates: bool = True,
               carry_bias_init: float = 1.0):
    """Wraps ``cell``.

    Args:
      cell: the cell; its inputs and outputs must have the same structure and sizes.
      couple_carry_transform_gates: the transform gate is 1 - the carry gate.
      carry_bias_init: the carry gate bias's initial value (the transform gate's is
        its negative).
    """
    super().__init__()
    self._cell = cell
    self._couple_carry_transform_gates = couple_carry_transform_gates
    self._carry_bias_init = carry_bias_init

  def _highway(self, inp: tf.Tensor, out: tf.Tensor) -> tf.Tensor:
    input_size = input_depth(inp)
    carry = tf.sigmoid(tf.nn.xw_plus_b(
        inp, tf.get_variable("carry_w", [input_size, input_size]),
        tf.get_variable("carry_b", [input_size],
                        initializer=tf.constant_initializer(self._carry_bias_init))))
    if self._couple_carry_transform_gates:
      transform = 1 - carry
    else:
      transform = tf.sigmoid(tf.nn.xw_plus_b(
          inp, tf.get_variable("transform_w", [input_size, input_size]),
          tf.get_variable("transform_b", [input_size],
                          initializer=tf.constant_initializer(-self._carry_bias_init))))
    return inp * carry + out * transform

  def __call__(self, inputs: Any, state: Any, scope: Optional[Any] = None) -> Tuple[Any, Any]:
    """Runs the cell and adds the highway connection.

    Raises:
      TypeError, ValueError: the cell's inputs and outputs differ in structure or shape.
    """
    outputs, new_state = self._cell(inputs, state, scope=scope)
    tf.nest.assert_same_structure(inputs, outputs)
    tf.nest.map_structure(
        lambda inp, out: inp.get_shape().assert_is_compatible_with(out.get_shape()),
        inputs, outputs)
    return tf.nest.map_structure(self._highway, inputs, outputs), new_state
