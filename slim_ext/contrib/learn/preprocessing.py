"""tf.contrib.learn.preprocessing's text processors: documents to id matrices.

``VocabularyProcessor`` maps each document to a fixed-length vector of word
ids (0 is the unknown word and the padding), ``CategoricalVocabulary`` is the
word <-> id table it learns, ``ByteProcessor`` maps documents to UTF-8 byte
values, ``tokenizer`` is the default word splitter. Ids, padding, trimming by
frequency and tokenization are TF1's, so a vocabulary built here numbers words
as TF1 did, and ``VocabularyProcessor.restore`` reads files that TF1's
``save`` wrote (pickles that name the tensorflow.contrib classes).

One change: ``fit_transform`` reads its documents once, so it also works on a
generator (TF1 exhausted it while fitting and transformed nothing).
"""
from __future__ import annotations

import collections
import io
import itertools
import pickle
import re
from typing import Any, Callable, Hashable, Iterable, Iterator, List, Optional

import numpy as np

# Upper-case runs (acronyms), a capitalized word followed by another capital
# (CamelCase parts), else runs of word characters, apostrophes and hyphens.
TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|['\w\-]+", re.UNICODE)

# Where TF1's pickles say these classes (and the default tokenizer) live.
_TF1_MODULES = (
    "tensorflow.contrib.learn.python.learn.preprocessing.text",
    "tensorflow.contrib.learn.python.learn.preprocessing.categorical_vocabulary",
)


def tokenizer(iterator: Iterable[str]) -> Iterator[List[str]]:
  """Yields the list of tokens of each string."""
  for value in iterator:
    yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
  """A table of categories (words) to consecutive ids; id 0 is the unknown token."""

  def __init__(self, unknown_token: str = "<UNK>", support_reverse: bool = True):
    self._unknown_token = unknown_token
    self._mapping = {unknown_token: 0}
    self._support_reverse = support_reverse
    if support_reverse:
      self._reverse_mapping = [unknown_token]
    self._freq: Any = collections.defaultdict(int)
    self._freeze = False

  def __len__(self) -> int:
    """The number of ids, the unknown token's included."""
    return len(self._mapping)

  def freeze(self, freeze: bool = True) -> None:
    """When frozen, unseen categories get id 0 instead of a new id."""
    self._freeze = freeze

  def get(self, category: Hashable) -> int:
    """The category's id; an unseen one gets the next id unless frozen (then 0)."""
    if category not in self._mapping:
      if self._freeze:
        return 0
      self._mapping[category] = len(self._mapping)
      if self._support_reverse:
        self._reverse_mapping.append(category)
    return self._mapping[category]

  def add(self, category: Hashable, count: int = 1) -> None:
    """Counts ``count`` occurrences of the category (giving it an id if new)."""
    if self.get(category) <= 0:
      return
    self._freq[category] += count

  def trim(self, min_frequency: int, max_frequency: int = -1) -> None:
    """Keeps the categories seen more than ``min_frequency`` times, renumbered.

    Ids become 1..n by decreasing count; equal counts are ordered by the
    category itself (non-strings before strings).

    Args:
      min_frequency: categories counted this many times or fewer are dropped.
      max_frequency: if > 0, categories counted this many times or more are
        dropped too (e.g. stop words).
    """
    by_category = sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str), item[0]))
    by_count = sorted(by_category, key=lambda item: item[1], reverse=True)
    self._mapping = {self._unknown_token: 0}
    if self._support_reverse:
      self._reverse_mapping = [self._unknown_token]
    kept = {}
    for category, count in by_count:
      if 0 < max_frequency <= count:
        continue
      if count <= min_frequency:
        break
      self._mapping[category] = len(self._mapping)
      if self._support_reverse:
        self._reverse_mapping.append(category)
      kept[category] = count
    self._freq = kept

  def reverse(self, class_id: int) -> Hashable:
    """The category with this id.

    Raises:
      ValueError: the vocabulary was made with support_reverse=False.
    """
    if not self._support_reverse:
      raise ValueError("This vocabulary wasn't initalized with "
                       "support_reverse to support reverse() function.")
    return self._reverse_mapping[class_id]


class VocabularyProcessor:
  """Maps documents to fixed-length vectors of word ids.

  Attributes:
    max_document_length: length of every vector: longer documents are cut,
      shorter ones padded with 0.
    min_frequency: words seen this many times or fewer while fitting get id 0.
    vocabulary_: the CategoricalVocabulary.
  """

  def __init__(self, max_document_length: int, min_frequency: int = 0,
               vocabulary: Optional[CategoricalVocabulary] = None,
               tokenizer_fn: Optional[Callable[[Iterable[str]], Iterable[List[str]]]] = None):
    self.max_document_length = max_document_length
    self.min_frequency = min_frequency
    self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
    self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

  def fit(self, raw_documents: Iterable[str], unused_y: Any = None) -> "VocabularyProcessor":
    """Learns the vocabulary of the documents, then freezes it; returns self."""
    for tokens in self._tokenizer(raw_documents):
      for token in tokens:
        self.vocabulary_.add(token)
    if self.min_frequency > 0:
      self.vocabulary_.trim(self.min_frequency)
    self.vocabulary_.freeze()
    return self

  def fit_transform(self, raw_documents: Iterable[str], unused_y: Any = None
                    ) -> Iterator[np.ndarray]:
    """fit, then transform the same documents."""
    documents = list(raw_documents)
    self.fit(documents)
    return self.transform(documents)

  def transform(self, raw_documents: Iterable[str]) -> Iterator[np.ndarray]:
    """Yields one int64 vector of word ids per document."""
    for tokens in self._tokenizer(raw_documents):
      word_ids = np.zeros(self.max_document_length, np.int64)
      for position, token in enumerate(itertools.islice(tokens, self.max_document_length)):
        word_ids[position] = self.vocabulary_.get(token)
      yield word_ids

  def reverse(self, documents: Iterable[Iterable[int]]) -> Iterator[str]:
    """Yields each id vector as its words joined by spaces (0 is ``<UNK>``)."""
    for ids in documents:
      yield " ".join(str(self.vocabulary_.reverse(class_id)) for class_id in ids)

  def save(self, filename: str) -> None:
    """Pickles the processor into ``filename`` (any tf.io.gfile path)."""
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    with tf.io.gfile.GFile(filename, "wb") as f:
      f.write(pickle.dumps(self))

  @classmethod
  def restore(cls, filename: str) -> "VocabularyProcessor":
    """Loads a processor that ``save`` wrote, here or in TF1.

    Like TF1's, this unpickles the file: restore only files you trust.
    """
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    with tf.io.gfile.GFile(filename, "rb") as f:
      return _TF1Unpickler(io.BytesIO(f.read())).load()


class _TF1Unpickler(pickle.Unpickler):
  """Reads TF1 pickles: their contrib module names are resolved to this module."""

  def find_class(self, module: str, name: str) -> Any:
    return super().find_class(__name__ if module in _TF1_MODULES else module, name)


class ByteProcessor:
  """Maps documents to fixed-length vectors of their UTF-8 bytes."""

  def __init__(self, max_document_length: int):
    self.max_document_length = max_document_length

  def fit(self, x: Any) -> None:
    """Nothing to learn."""

  def fit_transform(self, x: Iterable[Any]) -> Iterator[np.ndarray]:
    return self.transform(x)

  def reverse(self, x: Iterable[np.ndarray]) -> Iterator[str]:
    """Yields each byte vector as text (trailing zeros dropped; '' if not UTF-8)."""
    for data in x:
      document = np.trim_zeros(data.astype(np.int8), trim="b").tobytes()
      try:
        yield document.decode("utf-8")
      except UnicodeDecodeError:
        yield ""

  def transform(self, x: Iterable[Any]) -> Iterator[np.ndarray]:
    """Yields one uint8 vector per document (str is encoded as UTF-8), zero-padded."""
    for document in x:
      if isinstance(document, str):
        document = document.encode("utf-8")
      values = np.frombuffer(memoryview(document)[:self.max_document_length], dtype=np.uint8)
      yield np.pad(values, (0, self.max_document_length - len(values)), "constant")
