"""slim_ext.contrib.image: tf.contrib.image's ops give the numbers TF1 documented.

Transforms are checked against a NumPy rendering of the documented mapping
(output point -> input point, C++'s round for NEAREST, bilinear weights, zeros
outside), and against small results worked out by hand; connected components
and bipartite matching against hand-labelled arrays and plain-Python references.
"""
import math

import numpy as np
import pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def image(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib import image as module  # pylint: disable=g-import-not-at-top
  return module


def _round_half_away(value):
  return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


def _reference_transform(picture, transform, interpolation):
  """The documented mapping, pixel by pixel, on an HW float array."""
  a0, a1, a2, b0, b1, b2, c0, c1 = [float(t) for t in transform]
  height, width = picture.shape

  def read(y, x):
    return picture[y, x] if 0 <= y < height and 0 <= x < width else 0.0

  out = np.zeros_like(picture)
  for y in range(height):
    for x in range(width):
      k = c0 * x + c1 * y + 1
      if k == 0:
        continue
      in_x, in_y = (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k
      if interpolation == "NEAREST":
        out[y, x] = read(_round_half_away(in_y), _round_half_away(in_x))
      else:
        y0, x0 = math.floor(in_y), math.floor(in_x)
        wy, wx = in_y - y0, in_x - x0
        out[y, x] = ((1 - wy) * ((1 - wx) * read(y0, x0) + wx * read(y0, x0 + 1))
                     + wy * ((1 - wx) * read(y0 + 1, x0) + wx * read(y0 + 1, x0 + 1)))
  return out


TRANSFORMS = [
    [1, 0, 0, 0, 1, 0, 0, 0],                 # identity
    [1, 0, -1.25, 0, 1, 0.6, 0, 0],           # fractional shift
    [0.8, -0.3, 1.1, 0.25, 1.2, -0.7, 0, 0],  # affine
    [1, 0.1, 0, 0.05, 1, 0, 0.02, -0.03],     # projective
    [-1, 0, 5, 0, -1, 4, 0, 0],               # flips
]


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("interpolation", ["NEAREST", "BILINEAR"])
def test_transform_matches_the_documented_mapping(image, transform, interpolation):
  picture = np.random.RandomState(0).uniform(-1, 1, (5, 6)).astype(np.float32)
  result = image.transform(picture, transform, interpolation=interpolation).numpy()
  np.testing.assert_allclose(result, _reference_transform(picture, transform, interpolation),
                             atol=1e-5)


def test_translate_by_hand(image):
  row = np.array([[0.0, 2.0, 4.0]], np.float32)
  # Each output x reads the input at x - dx; outside is 0.
  np.testing.assert_array_equal(image.translate(row, [1, 0]).numpy(), [[0, 0, 2]])
  np.testing.assert_array_equal(image.translate(row, [-1, 0]).numpy(), [[2, 4, 0]])
  np.testing.assert_allclose(
      image.translate(row, [0.5, 0], interpolation="BILINEAR").numpy(), [[0, 1, 3]])
  column = row.T
  np.testing.assert_array_equal(image.translate(column, [0, 1]).numpy(), [[0], [0], [2]])


def test_rotate_by_hand(image):
  grid = np.arange(9, dtype=np.float32).reshape(3, 3)
  # Counterclockwise by 90 degrees about the centre.
  np.testing.assert_array_equal(image.rotate(grid, math.pi / 2).numpy(),
                                [[2, 5, 8], [1, 4, 7], [0, 3, 6]])
  np.testing.assert_array_equal(image.rotate(grid, math.pi).numpy(), grid[::-1, ::-1])
  wide = np.arange(12, dtype=np.float32).reshape(3, 4)
  np.testing.assert_array_equal(image.rotate(wide, math.pi).numpy(), wide[::-1, ::-1])


def test_rotate_a_batch_by_one_angle_each(image):
  grid = np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1)
  batch = np.concatenate([grid, grid])
  rotated = image.rotate(batch, [0.0, math.pi]).numpy()
  np.testing.assert_array_equal(rotated[0], grid[0])
  np.testing.assert_array_equal(rotated[1, :, :, 0], grid[0, ::-1, ::-1, 0])


def test_transform_builders_by_hand(image):
  transforms = image.angles_to_projective_transforms(math.pi / 2, 3.0, 5.0).numpy()
  # cos = 0, sin = 1: x_offset = (4 - (0 - 2)) / 2, y_offset = (2 - (4 + 0)) / 2.
  np.testing.assert_allclose(transforms, [[0, -1, 3, 1, 0, -1, 0, 0]], atol=1e-6)
  np.testing.assert_allclose(
      image.translations_to_projective_transforms([[2, 3], [-1, 0.5]]).numpy(),
      [[1, 0, -2, 0, 1, -3, 0, 0], [1, 0, 1, 0, 1, -0.5, 0, 0]])
  composed = image.compose_transforms([1, 0, -1, 0, 1, 0, 0, 0], [1, 0, -2, 0, 1, -1, 0, 0])
  np.testing.assert_allclose(composed.numpy(), [[1, 0, -3, 0, 1, -1, 0, 0]])


def test_matrices_round_trip_and_normalise(image):
  flat = np.array([[0.8, -0.3, 1.1, 0.25, 1.2, -0.7, 0.01, 0.02]], np.float32)
  matrices = image.flat_transforms_to_matrices(flat).numpy()
  assert matrices.shape == (1, 3, 3) and matrices[0, 2, 2] == 1
  np.testing.assert_allclose(image.matrices_to_flat_transforms(matrices).numpy(), flat)
  np.testing.assert_allclose(image.matrices_to_flat_transforms(2 * matrices[0]).numpy(), flat)
  with pytest.raises(ValueError, match="1D or 2D"):
    image.flat_transforms_to_matrices(np.zeros((1, 1, 8)))
  with pytest.raises(ValueError, match="2D or 3D"):
    image.matrices_to_flat_transforms(np.zeros(9))
  with pytest.raises(ValueError, match="at least one"):
    image.compose_transforms()


@pytest.mark.parametrize("shape", [(4, 5), (4, 5, 2), (3, 4, 5, 2)])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float16, np.float64])
def test_rank_and_dtype_are_kept(image, shape, dtype):
  pictures = (np.arange(np.prod(shape)) % 7).reshape(shape).astype(dtype)
  for result in (image.transform(pictures, [1, 0, 0, 0, 1, 0, 0, 0]),
                 image.rotate(pictures, 0.0), image.translate(pictures, [0, 0])):
    assert result.dtype == dtype and tuple(result.shape) == shape
    np.testing.assert_array_equal(result.numpy(), pictures)


def test_bad_inputs_raise_as_tf1_did(image, tf):
  with pytest.raises(TypeError, match="Invalid dtype"):
    image.rotate(np.zeros((3, 3), bool), 1.0)
  with pytest.raises(TypeError, match="rank between 2 and 4"):
    image.transform(np.zeros(3, np.float32), [1, 0, 0, 0, 1, 0, 0, 0])
  with pytest.raises(TypeError, match="rank 1 or 2"):
    image.transform(np.zeros((3, 3), np.float32), np.zeros((1, 1, 8)))
  with pytest.raises(TypeError, match="rank 0 or 1"):
    image.angles_to_projective_transforms(np.zeros((2, 2)), 3.0, 3.0)
  with pytest.raises(ValueError, match="output_shape"):
    image.transform(np.zeros((3, 3), np.float32), [1, 0, 0, 0, 1, 0, 0, 0], output_shape=[3])
  with tf.Graph().as_default():
    unknown = tf.placeholder(tf.float32, None)
    with pytest.raises(TypeError, match="statically known"):
      image.rotate(unknown, 1.0)


def test_output_shape(image):
  picture = np.arange(4, dtype=np.float32).reshape(2, 2)
  result = image.transform(picture, [1, 0, 0, 0, 1, 0, 0, 0], output_shape=[3, 4]).numpy()
  np.testing.assert_array_equal(result, [[0, 1, 0, 0], [2, 3, 0, 0], [0, 0, 0, 0]])


def test_graph_mode_session_and_gradient(image, tf):
  with tf.Graph().as_default():
    pictures = tf.placeholder(tf.float32, [None, 3, 4, 1])
    moved = image.translate(pictures, [1, 0])
    rotated = image.rotate(pictures, tf.placeholder_with_default(0.3, []), "BILINEAR")
    gradient, = tf.gradients(tf.reduce_sum(moved), pictures)
    names = {op.type for op in tf.get_default_graph().get_operations()}
    assert "ImageProjectiveTransformV3" in names
    with tf.Session() as session:
      data = np.random.RandomState(1).rand(2, 3, 4, 1)
      moved_value, rotated_value, gradient_value = session.run(
          [moved, rotated, gradient], {pictures: data})
  np.testing.assert_allclose(moved_value[:, :, 1:], data[:, :, :-1], rtol=1e-6)
  assert rotated_value.shape == (2, 3, 4, 1)
  # Every pixel but the last column lands once in the output.
  expected = np.ones_like(data)
  expected[:, :, -1] = 0
  np.testing.assert_array_equal(gradient_value, expected)


# --- connected_components ----------------------------------------------------


def _reference_components(batch):
  """Plain flood fill: ids in order of each component's first pixel."""
  labels = np.zeros(batch.shape, np.int64)
  next_id = 0
  for index in np.ndindex(*batch.shape):
    if batch[index] == 0 or labels[index]:
      continue
    next_id += 1
    labels[index] = next_id
    stack = [index]
    while stack:
      n, y, x = stack.pop()
      for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        near = (n, y + dy, x + dx)
        if (0 <= near[1] < batch.shape[1] and 0 <= near[2] < batch.shape[2]
            and not labels[near] and batch[near] == batch[n, y, x]):
          labels[near] = next_id
          stack.append(near)
  return labels


def test_connected_components_by_hand(image):
  mask = np.array([[1, 1, 0, 1],
                   [0, 1, 0, 1],
                   [1, 0, 1, 1],
                   [1, 0, 0, 0]], bool)
  expected = [[1, 1, 0, 2],
              [0, 1, 0, 2],
              [3, 0, 2, 2],
              [3, 0, 0, 0]]
  result = image.connected_components(mask)
  assert result.dtype.name == "int64"
  np.testing.assert_array_equal(result.numpy(), expected)


def test_connected_components_values_and_batches(image):
  # Equal nonzero values join; different ones do not; ids run across the batch.
  batch = np.array([[[0, 2, 2], [3, 3, 2]],
                    [[0, 0, 0], [0, 0, 0]],
                    [[5, 0, 5], [5, 5, 5]]], np.int32)
  expected = [[[0, 1, 1], [2, 2, 1]],
              [[0, 0, 0], [0, 0, 0]],
              [[3, 0, 3], [3, 3, 3]]]
  np.testing.assert_array_equal(image.connected_components(batch).numpy(), expected)
  np.testing.assert_array_equal(image.connected_components(np.zeros((2, 3), bool)).numpy(),
                                np.zeros((2, 3)))


def test_connected_components_spiral_and_random(image):
  spiral = np.zeros((9, 9), bool)
  y, x, dy, dx = 0, 0, 0, 1
  for _ in range(45):
    spiral[y, x] = True
    if not (0 <= y + 2 * dy < 9 and 0 <= x + 2 * dx < 9) or spiral[y + 2 * dy, x + 2 * dx]:
      dy, dx = dx, -dy
    y, x = y + dy, x + dx
  np.testing.assert_array_equal(image.connected_components(spiral).numpy(),
                                _reference_components(spiral[None])[0])
  masks = np.random.RandomState(3).randint(0, 3, (4, 12, 10))
  np.testing.assert_array_equal(image.connected_components(masks).numpy(),
                                _reference_components(masks))


def test_connected_components_rank(image):
  with pytest.raises(TypeError, match="rank 2"):
    image.connected_components(np.zeros((1, 2, 2, 1), bool))


# --- bipartite_match ---------------------------------------------------------


def _reference_match(distances, num_valid_rows, top_k):
  rows, columns = distances.shape
  valid = rows if num_valid_rows < 0 else int(num_valid_rows + 0.1)
  limit = top_k if top_k > 0 else valid * columns
  row_to_col, col_to_row = [-1] * rows, [-1] * columns
  matched = 0
  for _, row, column in sorted((distances[r, c], r, c)
                               for r in range(valid) for c in range(columns)):
    if matched >= limit:
      break
    if row_to_col[row] == -1 and col_to_row[column] == -1:
      row_to_col[row], col_to_row[column] = column, row
      matched += 1
  return row_to_col, col_to_row


def test_bipartite_match_by_hand(image):
  distances = np.array([[0.1, 0.5, 0.9],
                        [0.2, 0.05, 0.3]], np.float32)
  rows, columns = image.bipartite_match(distances, -1)
  assert rows.dtype.name == columns.dtype.name == "int32"
  np.testing.assert_array_equal(rows.numpy(), [0, 1])
  np.testing.assert_array_equal(columns.numpy(), [0, 1, -1])
  # Greedy, not optimal: row 0 takes column 0 first, row 1 is left column 1.
  greedy = np.array([[1.0, 2.0], [1.1, 10.0]], np.float32)
  np.testing.assert_array_equal(image.bipartite_match(greedy, -1)[0].numpy(), [0, 1])
  # Only the first valid row; only the best match.
  np.testing.assert_array_equal(image.bipartite_match(distances, 1.0)[1].numpy(), [0, -1, -1])
  np.testing.assert_array_equal(image.bipartite_match(distances, -1, top_k=1)[0].numpy(),
                                [-1, 1])


def test_bipartite_match_random_against_greedy_reference(image):
  state = np.random.RandomState(4)
  for rows, columns, valid, top_k in [(5, 7, -1, -1), (7, 5, 4, -1), (6, 6, 6, 3), (1, 4, 0, -1)]:
    distances = state.rand(rows, columns).astype(np.float32)
    result = image.bipartite_match(distances, valid, top_k=top_k)
    expected = _reference_match(distances, valid, top_k)
    np.testing.assert_array_equal(result[0].numpy(), expected[0])
    np.testing.assert_array_equal(result[1].numpy(), expected[1])


def test_bipartite_match_in_a_graph_like_the_object_detection_matcher(image, tf):
  with tf.Graph().as_default():
    similarity = tf.placeholder(tf.float32, [None, None])
    valid_rows = tf.placeholder(tf.bool, [None])
    _, match = image.bipartite_match(-similarity, tf.reduce_sum(tf.cast(valid_rows, tf.float32)))
    with tf.Session() as session:
      result = session.run(match, {similarity: [[0.9, 0.1, 0.4], [0.8, 0.7, 0.2]],
                                   valid_rows: [True, True]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="num_valid_rows"):
        session.run(match, {similarity: [[0.9]], valid_rows: [True, True]})
  np.testing.assert_array_equal(result, [0, 1, -1])


def test_ops_with_no_exact_counterpart_name_the_alternative(image):
  from slim_ext.contrib import RemovedInTF2Error  # pylint: disable=g-import-not-at-top
  for stand_in, alternative in [(image.dense_image_warp, "tensorflow-addons"),
                                (image.adjust_hsv_in_yiq, "tf.image.adjust_hue"),
                                (image.single_image_random_dot_stereograms, "NumPy")]:
    with pytest.raises(RemovedInTF2Error, match=alternative):
      stand_in(np.zeros((2, 2)))
