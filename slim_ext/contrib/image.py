"""tf.contrib.image on TensorFlow 2: projective transforms, connected components, matching.

The transforms run on core TensorFlow's ``ImageProjectiveTransformV3`` kernel,
which is contrib's ``ImageProjectiveTransformV2`` kernel moved into core (same
output-to-input mapping, same ``round`` for NEAREST and bilinear weights, zeros
outside the image); its gradient with respect to the images is registered in
core too. ``connected_components`` and ``bipartite_match`` had C++ kernels that
TensorFlow 2 does not ship; here they are built from core ops (they stay in
the graph, so frozen / exported graphs keep working) and give the labels and
matches the kernels documented. The contrib ops with no exact counterpart are
stand-ins that raise RemovedInTF2Error when called.

A transform is 8 numbers ``[a0, a1, a2, b0, b1, b2, c0, c1]`` mapping each
*output* point (x, y) to the *input* point
``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``.
"""
from typing import Any, Optional, Tuple

import tensorflow as tf

from slim_ext.removed import removed_function

_IMAGE_DTYPES = frozenset(
    [tf.uint8, tf.int32, tf.int64, tf.float16, tf.float32, tf.float64])


def _name_scope(name: Optional[str], default_name: str):
  return tf.compat.v1.name_scope(name, default_name)


def _to_batch(images: Any) -> Tuple[tf.Tensor, int]:
  """``images`` (HW, HWC or NHWC) as an NHWC tensor, with the original rank.

  Raises:
    TypeError: a dtype the kernel does not take, or a rank that is unknown or
      not 2 to 4.
  """
  image_or_images = tf.convert_to_tensor(images, name="images")
  if image_or_images.dtype.base_dtype not in _IMAGE_DTYPES:
    raise TypeError(f"Invalid dtype {image_or_images.dtype}.")
  rank = image_or_images.shape.ndims
  if rank is None:
    raise TypeError("image_or_images rank must be statically known")
  if rank == 2:
    return image_or_images[None, :, :, None], rank
  if rank == 3:
    return image_or_images[None, :, :, :], rank
  if rank == 4:
    return image_or_images, rank
  raise TypeError("Images should have rank between 2 and 4.")


def _from_batch(images: tf.Tensor, rank: int) -> tf.Tensor:
  """Undoes _to_batch's added dimensions."""
  if rank == 2:
    return images[0, :, :, 0]
  if rank == 3:
    return images[0, :, :, :]
  return images


def _batch_of_vectors(values: tf.Tensor, what: str) -> tf.Tensor:
  """A vector as a batch of one; a matrix as it is."""
  rank = values.shape.ndims
  if rank is None:
    raise TypeError(f"{what} rank must be statically known")
  if rank == 1:
    return values[None]
  if rank == 2:
    return values
  raise TypeError(f"{what.capitalize()} should have rank 1 or 2.")


def transform(images: Any, transforms: Any, interpolation: str = "NEAREST",
              output_shape: Any = None, name: Optional[str] = None) -> tf.Tensor:
  """Applies projective transform(s) to the image(s).

  Args:
    images: NHWC, HWC or HW tensor of uint8, int32, int64, float16, float32 or
      float64, with a statically known rank.
    transforms: a transform of 8 numbers, or an N x 8 batch (one per image).
    interpolation: "NEAREST" or "BILINEAR".
    output_shape: [height, width] of the output; the input's by default.
    name: name scope of the ops.

  Returns:
    The transformed image(s), the type and rank of ``images``; points that
    map outside the input are 0.

  Raises:
    TypeError: bad image dtype or rank, or bad transforms rank.
    ValueError: output_shape is not 2 numbers.
  """
  with _name_scope(name, "transform"):
    batch, rank = _to_batch(images)
    transforms = _batch_of_vectors(
        tf.convert_to_tensor(transforms, name="transforms", dtype=tf.float32), "transforms")
    if output_shape is None:
      output_shape = tf.shape(batch)[1:3]
      if not tf.executing_eagerly():
        static_shape = tf.get_static_value(output_shape)
        if static_shape is not None:
          output_shape = static_shape
    output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
    if not output_shape.shape.is_compatible_with([2]):
      raise ValueError("output_shape must be a 1-D Tensor of 2 elements: new_height, new_width")
    output = tf.raw_ops.ImageProjectiveTransformV3(
        images=batch, transforms=transforms, output_shape=output_shape,
        fill_value=tf.constant(0, tf.float32), interpolation=interpolation.upper(),
        fill_mode="CONSTANT")
    return _from_batch(output, rank)


def angles_to_projective_transforms(angles: Any, image_height: Any, image_width: Any,
                                    name: Optional[str] = None) -> tf.Tensor:
  """Transforms that rotate images counterclockwise about their centre.

  Args:
    angles: a scalar angle in radians, or a vector (one per image).
    image_height: height of the images.
    image_width: width of the images.
    name: name scope of the ops.

  Returns:
    A float32 N x 8 tensor of transforms for ``transform``.

  Raises:
    TypeError: angles is not a scalar or a vector.
  """
  with _name_scope(name, "angles_to_projective_transforms"):
    angles = tf.convert_to_tensor(angles, name="angles", dtype=tf.float32)
    if angles.shape.ndims == 0:
      angles = angles[None]
    elif angles.shape.ndims != 1:
      raise TypeError("Angles should have rank 0 or 1.")
    cos, sin = tf.math.cos(angles), tf.math.sin(angles)
    # The offsets keep the image centre ((w - 1) / 2, (h - 1) / 2) in place.
    x_offset = ((image_width - 1) - (cos * (image_width - 1) - sin * (image_height - 1))) / 2.0
    y_offset = ((image_height - 1) - (sin * (image_width - 1) + cos * (image_height - 1))) / 2.0
    zeros = tf.zeros_like(angles)
    return tf.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], axis=1)


def translations_to_projective_transforms(translations: Any,
                                          name: Optional[str] = None) -> tf.Tensor:
  """Transforms that move images by [dx, dy] (one pair, or one per image).

  Returns:
    A float32 N x 8 tensor of transforms for ``transform``.

  Raises:
    TypeError: translations is not a vector or a matrix.
  """
  with _name_scope(name, "translations_to_projective_transforms"):
    translations = _batch_of_vectors(
        tf.convert_to_tensor(translations, name="translations", dtype=tf.float32),
        "translations")
    ones = tf.ones_like(translations[:, 0])
    zeros = tf.zeros_like(ones)
    # The output point (x, y) reads the input at (x - dx, y - dy).
    return tf.stack([ones, zeros, -translations[:, 0], zeros, ones, -translations[:, 1],
                     zeros, zeros], axis=1)


def rotate(images: Any, angles: Any, interpolation: str = "NEAREST",
           name: Optional[str] = None) -> tf.Tensor:
  """Rotates image(s) counterclockwise by angle(s) in radians, about the centre.

  Args:
    images: as for ``transform``.
    angles: a scalar, or a vector with one angle per image.
    interpolation: "NEAREST" or "BILINEAR".
    name: name scope of the ops.

  Returns:
    The rotated image(s), type and rank of ``images``; uncovered pixels are 0.

  Raises:
    TypeError: bad image dtype or rank.
  """
  with _name_scope(name, "rotate"):
    batch, rank = _to_batch(images)
    height = tf.cast(tf.shape(batch)[1], tf.float32)[None]
    width = tf.cast(tf.shape(batch)[2], tf.float32)[None]
    output = transform(batch, angles_to_projective_transforms(angles, height, width),
                       interpolation=interpolation)
    return _from_batch(output, rank)


def translate(images: Any, translations: Any, interpolation: str = "NEAREST",
              name: Optional[str] = None) -> tf.Tensor:
  """Moves image(s) by [dx, dy] (or one pair per image); uncovered pixels are 0."""
  with _name_scope(name, "translate"):
    return transform(images, translations_to_projective_transforms(translations),
                     interpolation=interpolation)


def _of_rank(values: Any, name: str, ranks: Tuple[int, int]) -> tf.Tensor:
  """``values`` as a tensor, checked to have one of two ranks.

  Raises:
    ValueError: another rank.
  """
  tensor = tf.convert_to_tensor(values, name=name)
  if tensor.shape.ndims not in ranks:
    raise ValueError(f"{name} should be {ranks[0]}D or {ranks[1]}D, got: {tensor}")
  return tensor


def flat_transforms_to_matrices(transforms: Any) -> tf.Tensor:
  """N x 8 transforms (or one of 8) as N x 3 x 3 matrices (output -> input points).

  Raises:
    ValueError: transforms is not 1-D or 2-D.
  """
  with tf.compat.v1.name_scope("flat_transforms_to_matrices"):
    transforms = tf.reshape(_of_rank(transforms, "transforms", (1, 2)), [-1, 8])
    # The ninth entry, implicit in the flat form, is 1.
    ones = tf.ones_like(transforms[:, :1])
    return tf.reshape(tf.concat([transforms, ones], axis=1), [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices: Any) -> tf.Tensor:
  """3 x 3 matrices (or N x 3 x 3) as N x 8 transforms, scaled so the ninth entry is 1.

  Raises:
    ValueError: transform_matrices is not 2-D or 3-D.
  """
  with tf.compat.v1.name_scope("matrices_to_flat_transforms"):
    flat = tf.reshape(_of_rank(transform_matrices, "transform_matrices", (2, 3)), [-1, 9])
    return (flat / flat[:, 8:9])[:, :8]


def compose_transforms(*transforms: Any) -> tf.Tensor:
  """One transform equal to applying the given ones in order (all of one shape).

  Raises:
    ValueError: no transform was given.
  """
  if not transforms:
    raise ValueError("compose_transforms needs at least one transform")
  with tf.compat.v1.name_scope("compose_transforms"):
    composed = flat_transforms_to_matrices(transforms[0])
    for later in transforms[1:]:
      composed = tf.matmul(composed, flat_transforms_to_matrices(later))
    return matrices_to_flat_transforms(composed)


def _shifted(values: tf.Tensor, fill: Any, axis: int, step: int) -> tf.Tensor:
  """``values`` moved ``step`` (+1 or -1) along axis 1 or 2 of NHW, ``fill`` coming in."""
  edge_shape = tf.tensor_scatter_nd_update(tf.shape(values), [[axis]], [1])
  edge = tf.fill(edge_shape, tf.cast(fill, values.dtype))
  if step > 0:
    kept = values[:, :-1] if axis == 1 else values[:, :, :-1]
    return tf.concat([edge, kept], axis=axis)
  kept = values[:, 1:] if axis == 1 else values[:, :, 1:]
  return tf.concat([kept, edge], axis=axis)


def connected_components(images: Any) -> tf.Tensor:
  """Labels the 4-connected components of image(s).

  A component is a set of pixels, all of the same nonzero value, joined
  through their neighbours above, below, left and right (scipy.ndimage.label's
  default structure). Components of all images of the batch get consecutive
  ids from 1, in the order of their first pixel in (image, row, column) order;
  zero pixels get 0.

  Args:
    images: a 2-D (HW) or 3-D (NHW) tensor, e.g. of bools.

  Returns:
    int64 ids, shaped like ``images``.

  Raises:
    TypeError: images is not 2-D or 3-D.
  """
  with tf.compat.v1.name_scope("connected_components"):
    image_or_images = tf.convert_to_tensor(images, name="images")
    rank = image_or_images.shape.ndims
    if rank not in (2, 3):
      raise TypeError(
          f"images should have rank 2 (HW) or 3 (NHW). Static shape is {image_or_images.shape}")
    values = image_or_images[None] if rank == 2 else image_or_images
    foreground = tf.not_equal(values, tf.zeros_like(values))
    size = tf.size(values, out_type=tf.int64)
    background = size + 1
    # Each pixel starts with its own flat index + 1 and takes the smallest label
    # of its component: the label of the component's first pixel.
    own_labels = tf.reshape(tf.range(1, size + 1, dtype=tf.int64), tf.shape(values))
    neighbours = [(axis, step) for axis in (1, 2) for step in (1, -1)]
    joined = [tf.logical_and(
        tf.logical_and(foreground, _shifted(foreground, False, axis, step)),
        tf.equal(values, _shifted(values, 0, axis, step))) for axis, step in neighbours]

    def smaller_labels(labels: tf.Tensor, unused_changed: tf.Tensor):
      smallest = labels
      for (axis, step), is_joined in zip(neighbours, joined):
        smallest = tf.minimum(smallest, tf.where(
            is_joined, _shifted(labels, background, axis, step), background))
      # A label names a pixel of the same component whose label is no larger:
      # taking that pixel's label too shortens long chains (pointer jumping).
      flat = tf.reshape(smallest, [-1])
      jumped = tf.where(foreground, tf.reshape(
          tf.gather(flat, tf.minimum(flat, size) - 1), tf.shape(values)), background)
      return jumped, tf.reduce_any(tf.not_equal(jumped, labels))

    start = tf.where(foreground, own_labels, background)
    labels, _ = tf.while_loop(lambda unused, changed: changed, smaller_labels,
                              [start, tf.constant(True)])
    is_first = tf.logical_and(foreground, tf.equal(labels, own_labels))
    component_of_first = tf.cumsum(tf.reshape(tf.cast(is_first, tf.int64), [-1]))
    ids = tf.where(foreground, tf.reshape(
        tf.gather(component_of_first, tf.minimum(labels, size) - 1), tf.shape(values)),
        tf.zeros_like(labels))
    return ids[0] if rank == 2 else ids


def bipartite_match(distance_mat: Any, num_valid_rows: Any, top_k: int = -1,
                    name: str = "bipartite_match") -> Tuple[tf.Tensor, tf.Tensor]:
  """Greedy bipartite matching: repeatedly pairs the closest free row and column.

  Args:
    distance_mat: float32 [num_rows, num_columns] distances (smaller = closer).
    num_valid_rows: a scalar (or 1-element tensor): only the first this many
      rows are matched; negative means all rows.
    top_k: stop after this many matches; <= 0 means as many as possible.
    name: name scope of the ops.

  Returns:
    row_to_col_match_indices: int32 [num_rows], the column of each row or -1.
    col_to_row_match_indices: int32 [num_columns], the row of each column or -1.
    Between equal distances, the pair of the lower row (then column) is taken
    first (TF1's kernel left that order to its heap).
  """
  with tf.compat.v1.name_scope(name):
    distances = tf.convert_to_tensor(distance_mat, tf.float32, name="distance_mat")
    if distances.shape.ndims not in (None, 2):
      raise ValueError(f"distance_mat should be 2-dimensional, but got {distances.shape}")
    # NaN would never be the smallest; treat it as the farthest.
    distances = tf.where(tf.math.is_nan(distances), float("inf"), distances)
    num_rows, num_columns = tf.shape(distances)[0], tf.shape(distances)[1]
    requested = tf.reshape(tf.cast(num_valid_rows, tf.float32), [])
    valid_rows = tf.where(requested >= 0, tf.cast(requested + 0.1, tf.int32), num_rows)
    check = tf.debugging.assert_less_equal(
        valid_rows, num_rows, message="bipartite_match: num_valid_rows exceeds the rows of "
        "distance_mat")
    with tf.control_dependencies([check]):
      num_matches = tf.minimum(valid_rows, num_columns)
    if top_k > 0:
      num_matches = tf.minimum(num_matches, top_k)
    row_ids, column_ids = tf.range(num_rows), tf.range(num_columns)
    free = tf.logical_and(tf.less(row_ids, valid_rows)[:, None],
                          tf.ones_like(distances, dtype=tf.bool))

    def match_closest(step, free, row_to_col, col_to_row):
      free_distances = tf.where(free, distances, float("inf"))
      closest = tf.logical_and(free, tf.equal(free_distances, tf.reduce_min(free_distances)))
      flat = tf.argmax(tf.reshape(tf.cast(closest, tf.int32), [-1]), output_type=tf.int32)
      row, column = flat // num_columns, flat % num_columns
      row_to_col = tf.tensor_scatter_nd_update(row_to_col, [[row]], [column])
      col_to_row = tf.tensor_scatter_nd_update(col_to_row, [[column]], [row])
      free = tf.logical_and(free, tf.logical_and(tf.not_equal(row_ids, row)[:, None],
                                                 tf.not_equal(column_ids, column)[None, :]))
      return step + 1, free, row_to_col, col_to_row

    _, _, row_to_col, col_to_row = tf.while_loop(
        lambda step, *unused: step < num_matches, match_closest,
        [tf.constant(0), free, -tf.ones_like(row_ids), -tf.ones_like(column_ids)])
    return row_to_col, col_to_row


_ADDONS = ("its port in tensorflow-addons (tfa.image.{}) on TensorFlow <= 2.15, or copy that "
           "function into your tree")
dense_image_warp = removed_function(
    "tf.contrib.image.dense_image_warp", _ADDONS.format("dense_image_warp"))
interpolate_spline = removed_function(
    "tf.contrib.image.interpolate_spline", _ADDONS.format("interpolate_spline"))
sparse_image_warp = removed_function(
    "tf.contrib.image.sparse_image_warp", _ADDONS.format("sparse_image_warp"))
_HSV = ("tf.image.adjust_hue / adjust_saturation / adjust_brightness (they work in HSV, "
        "not YIQ, so colours differ slightly)")
adjust_hsv_in_yiq = removed_function("tf.contrib.image.adjust_hsv_in_yiq", _HSV)
random_hsv_in_yiq = removed_function("tf.contrib.image.random_hsv_in_yiq", _HSV)
single_image_random_dot_stereograms = removed_function(
    "tf.contrib.image.single_image_random_dot_stereograms",
    "a NumPy rendering of the stereogram (no TensorFlow op draws them any more)")
