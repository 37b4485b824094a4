"""slim_ext.mnist_input_data: TF1's tutorial MNIST reader, on the idx .gz files.

Files are written here with the example's generator (examples/moxing_tf1/
make_mnist_data.py) or by hand, so every value read can be checked against
what was written.
"""
import gzip
import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.tf

GENERATOR = (Path(__file__).resolve().parents[2] / "examples" / "moxing_tf1"
             / "make_mnist_data.py")


@pytest.fixture(scope="module")
def reader(tf):  # pylint: disable=unused-argument
  from slim_ext import mnist_input_data  # pylint: disable=g-import-not-at-top
  return mnist_input_data


def _write_idx(path, magic, array):
  header = np.array([magic, *array.shape], dtype=">u4").tobytes()
  with gzip.open(path, "wb") as f:
    f.write(header + array.astype(np.uint8).tobytes())


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory):
  """12 training and 4 test images; pixel values and labels known."""
  directory = tmp_path_factory.mktemp("mnist_small")
  train = np.arange(12 * 28 * 28).reshape(12, 28, 28) % 256
  test = np.full((4, 28, 28), 255)
  _write_idx(directory / "train-images-idx3-ubyte.gz", 2051, train)
  _write_idx(directory / "train-labels-idx1-ubyte.gz", 2049, np.arange(12) % 10)
  _write_idx(directory / "t10k-images-idx3-ubyte.gz", 2051, test)
  _write_idx(directory / "t10k-labels-idx1-ubyte.gz", 2049, np.array([3, 1, 4, 1]))
  return directory


def test_splits_shapes_dtypes_and_values(reader, small_dir):
  data = reader.read_data_sets(str(small_dir), validation_size=5)
  assert (data.train.num_examples, data.validation.num_examples,
          data.test.num_examples) == (7, 5, 4)
  assert data.train.images.shape == (7, 784)
  assert data.train.images.dtype == np.float32
  assert data.train.labels.dtype == np.uint8
  # The validation split is the first 5 training images, scaled to [0, 1].
  expected = (np.arange(5 * 784) % 256).reshape(5, 784) / 255.0
  np.testing.assert_allclose(data.validation.images, expected, rtol=1e-6)
  np.testing.assert_array_equal(data.train.labels, [5, 6, 7, 8, 9, 0, 1])
  np.testing.assert_array_equal(data.test.images, np.ones((4, 784)))


def test_one_hot_uint8_and_unreshaped(reader, small_dir, tf):
  data = reader.read_data_sets(str(small_dir), one_hot=True, dtype=tf.uint8,
                               reshape=False, validation_size=0)
  assert data.test.labels.dtype == np.float64
  np.testing.assert_array_equal(data.test.labels.argmax(1), [3, 1, 4, 1])
  assert data.test.labels.sum() == 4
  assert data.train.images.shape == (12, 28, 28, 1)
  assert data.train.images.dtype == np.uint8
  assert data.train.images.max() == 255


def test_next_batch_crosses_epochs_with_full_batches(reader, small_dir):
  train = reader.read_data_sets(str(small_dir), validation_size=2,
                                seed=3).train  # 10 examples
  seen = []
  for _ in range(3):  # 12 examples: the third batch wraps into epoch 2
    images, labels = train.next_batch(4)
    assert images.shape == (4, 784) and labels.shape == (4,)
    seen.append(labels)
  assert train.epochs_completed == 1
  first_epoch = np.concatenate(seen)[:10]
  assert sorted(first_epoch) == sorted([2, 3, 4, 5, 6, 7, 8, 9, 0, 1])
  assert list(first_epoch) != [2, 3, 4, 5, 6, 7, 8, 9, 0, 1]  # shuffled


def test_next_batch_without_shuffle_is_in_file_order(reader, small_dir):
  test = reader.read_data_sets(str(small_dir), validation_size=0).test
  assert list(test.next_batch(3, shuffle=False)[1]) == [3, 1, 4]
  assert list(test.next_batch(3, shuffle=False)[1]) == [1, 3, 1]
  assert test.epochs_completed == 1


def test_same_seed_same_order(reader, small_dir):
  def order(seed):
    train = reader.read_data_sets(str(small_dir), validation_size=0,
                                  seed=seed).train
    return [list(train.next_batch(5)[1]) for _ in range(4)]
  assert order(7) == order(7)
  assert order(7) != order(8)


def test_fake_data_needs_no_files(reader, tmp_path):
  data = reader.read_data_sets(str(tmp_path), fake_data=True, one_hot=True)
  assert data.train.num_examples == 10000
  images, labels = data.train.next_batch(2, fake_data=True)
  assert len(images) == 2 and len(images[0]) == 784
  assert labels == [[1] + [0] * 9] * 2


def test_missing_files_are_named_and_nothing_is_downloaded(reader, small_dir,
                                                          tmp_path):
  (tmp_path / "t10k-images-idx3-ubyte.gz").write_bytes(
      (small_dir / "t10k-images-idx3-ubyte.gz").read_bytes())
  with pytest.raises(FileNotFoundError) as raised:
    reader.read_data_sets(str(tmp_path), one_hot=True)
  message = str(raised.value)
  assert message.startswith(f"read_data_sets: {tmp_path} lacks "
                            "train-images-idx3-ubyte.gz, "
                            "train-labels-idx1-ubyte.gz, "
                            "t10k-labels-idx1-ubyte.gz.")
  assert "does not download" in message
  assert sorted(p.name for p in tmp_path.iterdir()) == [
      "t10k-images-idx3-ubyte.gz"]


@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"validation_size": 13}, ValueError,
     r"Validation size should be between 0 and 12. Received: 13."),
    ({"validation_size": -1}, ValueError, r"between 0 and 12"),
    ({"dtype": np.int32, "validation_size": 0}, TypeError,
     r"Invalid image dtype 'int32', expected uint8 or float32"),
])
def test_bad_arguments(reader, small_dir, kwargs, error, pattern):
  with pytest.raises(error, match=pattern):
    reader.read_data_sets(str(small_dir), **kwargs)


def test_a_file_that_is_not_mnist_is_rejected(reader, small_dir, tmp_path):
  for path in small_dir.iterdir():
    (tmp_path / path.name).write_bytes(path.read_bytes())
  # Labels where images belong: the magic number says so.
  (tmp_path / "train-images-idx3-ubyte.gz").write_bytes(
      (small_dir / "train-labels-idx1-ubyte.gz").read_bytes())
  with pytest.raises(ValueError, match=r"Invalid magic number 2049 in MNIST "
                     r"image file: .*train-images-idx3-ubyte.gz"):
    reader.read_data_sets(str(tmp_path))


def test_reads_the_example_generator_files(reader, tmp_path):
  spec = importlib.util.spec_from_file_location("make_mnist_data", GENERATOR)
  generator = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(generator)
  generator.write_dataset(str(tmp_path))
  data = reader.read_data_sets(str(tmp_path), one_hot=True)
  assert (data.train.num_examples, data.validation.num_examples,
          data.test.num_examples) == (5000, 5000, 2000)
  # All ten classes, in roughly equal numbers.
  counts = data.test.labels.sum(0)
  assert counts.min() > 150 and counts.max() < 250
