"""slim_ext.contrib.learn.preprocessing: TF1's VocabularyProcessor numbering and files."""
import pickle

import numpy as np
import pytest

pytestmark = pytest.mark.tf  # the slim_ext package import loads TensorFlow


@pytest.fixture(scope="module")
def pre(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib.learn import preprocessing  # pylint: disable=g-import-not-at-top
  return preprocessing


@pytest.mark.parametrize("text, tokens", [
    ("a b, c!", ["a", "b", "c"]),
    ("I'm well-known", ["I'm", "well-known"]),
    ("HTTPServer TensorFlow camelCase", ["HTTP", "Server", "Tensor", "Flow", "camelCase"]),
    ("naïve café", ["naïve", "café"]),
    ("", []),
])
def test_tokenizer(pre, text, tokens):
  assert list(pre.tokenizer([text])) == [tokens]


def test_fit_transform_numbers_words_in_order_of_first_sight(pre):
  processor = pre.VocabularyProcessor(4)
  ids = list(processor.fit_transform(["a b c", "c b", "a d e f g"]))
  np.testing.assert_array_equal(ids, [[1, 2, 3, 0], [3, 2, 0, 0], [1, 4, 5, 6]])
  assert all(row.dtype == np.int64 for row in ids)
  # fit counts every word (g too); transform cuts documents to 4 ids.
  assert len(processor.vocabulary_) == 8
  # Fitting froze the vocabulary: unseen words are 0.
  np.testing.assert_array_equal(list(processor.transform(["a zz b"])), [[1, 0, 2, 0]])
  assert list(processor.reverse([[1, 0, 2, 0]])) == ["a <UNK> b <UNK>"]


def test_fit_transform_reads_a_generator_once(pre):
  processor = pre.VocabularyProcessor(2)
  ids = list(processor.fit_transform(text for text in ["x y", "y"]))
  np.testing.assert_array_equal(ids, [[1, 2], [2, 0]])


def test_min_frequency_keeps_words_seen_more_often_by_count(pre):
  processor = pre.VocabularyProcessor(5, min_frequency=1)
  processor.fit(["b a c", "a b", "a d"])
  # a: 3, b: 2 kept (count > 1), renumbered by count; c, d dropped.
  vocabulary = processor.vocabulary_
  assert [vocabulary.reverse(i) for i in range(len(vocabulary))] == ["<UNK>", "a", "b"]
  np.testing.assert_array_equal(list(processor.transform(["d b a"])), [[0, 2, 1, 0, 0]])


def test_trim_orders_equal_counts_by_category_and_drops_the_too_frequent(pre):
  vocabulary = pre.CategoricalVocabulary()
  for word, count in [("the", 9), ("zeta", 2), ("alpha", 2), ("mid", 4), ("rare", 1)]:
    vocabulary.add(word, count)
  vocabulary.trim(min_frequency=1, max_frequency=9)
  assert [vocabulary.reverse(i) for i in range(len(vocabulary))] == [
      "<UNK>", "mid", "alpha", "zeta"]
  assert vocabulary.get("the") == 4  # not frozen: a new id


def test_categorical_vocabulary_basics(pre):
  vocabulary = pre.CategoricalVocabulary(unknown_token="?", support_reverse=False)
  assert (vocabulary.get("x"), vocabulary.get(7), vocabulary.get("x"), len(vocabulary)) == (
      1, 2, 1, 3)
  vocabulary.freeze()
  assert vocabulary.get("new") == 0
  vocabulary.add("?")  # the unknown token is never counted
  with pytest.raises(ValueError, match="support_reverse"):
    vocabulary.reverse(1)


def test_save_and_restore(pre, tmp_path):
  processor = pre.VocabularyProcessor(3)
  processor.fit(["hello world", "hello there"])
  path = str(tmp_path / "vocab.pickle")
  processor.save(path)
  restored = pre.VocabularyProcessor.restore(path)
  assert isinstance(restored, pre.VocabularyProcessor)
  np.testing.assert_array_equal(list(restored.transform(["there hello"])), [[3, 1, 0]])


def test_restore_reads_a_file_tf1_wrote(pre, tmp_path):
  """A TF1 pickle names the tensorflow.contrib modules; restore maps them here."""
  processor = pre.VocabularyProcessor(4, min_frequency=0)
  processor.fit(["one two", "two three"])
  ours = pickle.dumps(processor, protocol=0).decode("latin-1")
  module = pre.__name__
  tf1 = (ours
         .replace(f"{module}\nCategoricalVocabulary",
                  "tensorflow.contrib.learn.python.learn.preprocessing."
                  "categorical_vocabulary\nCategoricalVocabulary")
         .replace(f"{module}\n", "tensorflow.contrib.learn.python.learn.preprocessing.text\n"))
  assert module not in tf1
  path = tmp_path / "tf1_vocab"
  path.write_bytes(tf1.encode("latin-1"))
  restored = pre.VocabularyProcessor.restore(str(path))
  assert type(restored.vocabulary_) is pre.CategoricalVocabulary
  assert restored._tokenizer is pre.tokenizer  # pylint: disable=protected-access
  np.testing.assert_array_equal(list(restored.transform(["three one"])), [[3, 1, 0, 0]])


def test_byte_processor(pre):
  processor = pre.ByteProcessor(4)
  rows = list(processor.fit_transform(["ab", b"\x01\x02\x03\x04\x05", "é"]))
  np.testing.assert_array_equal(rows, [[97, 98, 0, 0], [1, 2, 3, 4], [195, 169, 0, 0]])
  assert list(processor.reverse(rows)) == ["ab", "\x01\x02\x03\x04", "é"]
  assert list(processor.reverse([np.array([195, 0, 0, 0])])) == [""]  # not UTF-8


def test_contrib_paths(pre):
  import slim_ext.contrib  # pylint: disable=g-import-not-at-top
  assert slim_ext.contrib.learn.preprocessing is pre
  from slim_ext.contrib.learn import run_config  # pylint: disable=g-import-not-at-top
  assert slim_ext.contrib.learn.RunConfig is run_config.RunConfig
