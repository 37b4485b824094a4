"""slimport.analysis.regex_words: a word every match contains, read off re's parse."""
import re
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from slimport.analysis.regex_words import may_match, required_words
from slimport.codemods import CODEMODS

ROOT = Path(__file__).resolve().parents[2]
TRIGGERS = [codemod for codemod in CODEMODS if codemod.TRIGGER is not None]
# Text with many shapes of code: the bundled TF1 trees, the codemods' own sources (they
# spell every trigger word) and the unit tests' before/after tables.
TEXTS = [path.read_text(encoding="utf-8") for path in sorted(
    [*ROOT.glob("examples/**/*.py"), *ROOT.glob("slimport/codemods/*.py"),
     *ROOT.glob("tests/slimport/codemods/**/*.py")])]

WORDS = [
    # pattern, the words one of which every match contains
    (r"\bInt64List\(", {"Int64List("}),
    (r"getargspec|FLOAT_REPR|\bc?StringIO\b", {"getargspec", "FLOAT_REPR", "StringIO"}),
    # a word that contains another is the same question as the shorter one
    (r"\b(?:column_stack|dstack|hstack|vstack|stack)\(", {"stack("}),
    # items next to each other with few spellings are spelt out, choices and all
    (r"\.(?:keys|values)\(\s*\)", {".keys(", ".values("}),
    (r"fft[23]d|ab{1,2}c", {"fft2d", "fft3d", "abc", "abbc"}),
    (r"[\"'](?:Add|Sub)[\"']x", {'"Add"x', '"Add\'x', "'Add\"x", "'Add'x",
                                   '"Sub"x', '"Sub\'x', "'Sub\"x", "'Sub'x"}),
    # the rarest candidate wins: the longest run, or a choice whose words are longer
    (r"\w+\.x\s(?:alpha|beta)", {"alpha", "beta"}),
    (r"x*yz", {"yz"}),
    (r"(?:foo)+bar?", {"foo"}),
    # an atomic group (Python 3.11's syntax) is matched as its contents are
    *([(r"(?>abc)d", {"abcd"})] if sys.version_info >= (3, 11) else []),
    # a case-insensitive part gives no word; the literals around it still do
    (r"a(?i:bcd)e", {"a"}),
]
NO_WORDS = [
    r"(?i)abc",  # the whole pattern is case-insensitive
    r"\d+",  # classes and repeats alone
    r"(?:x|\d)y?",  # one branch has no word
    r"(?:abc)*",  # may repeat zero times
    r"\b(?:x?)\b",  # spelt out, it may be empty
]


@pytest.mark.parametrize("pattern, words", WORDS)
def test_the_words_of_a_pattern(pattern, words):
  assert required_words(re.compile(pattern)) == frozenset(words)


@pytest.mark.parametrize("pattern", NO_WORDS)
def test_no_words_where_a_match_may_have_none(pattern):
  assert required_words(re.compile(pattern)) is None


@pytest.mark.parametrize("codemod", TRIGGERS, ids=lambda codemod: codemod.NAME)
def test_every_match_of_a_codemod_trigger_contains_one_of_its_words(codemod):
  words = required_words(codemod.TRIGGER)
  assert words, f"{codemod.NAME}'s trigger gives no word: its pre-check searches every position"
  matches = [match.group(0) for text in TEXTS for match in codemod.TRIGGER.finditer(text)]
  assert matches, f"no text here spells {codemod.NAME}'s trigger: the check would test nothing"
  assert [match for match in matches if not any(word in match for word in words)] == []


@pytest.mark.parametrize("codemod", TRIGGERS, ids=lambda codemod: codemod.NAME)
def test_may_match_answers_as_the_pattern_does(codemod):
  words = required_words(codemod.TRIGGER)
  assert [may_match(codemod.TRIGGER, words, text) for text in TEXTS] == [
      codemod.TRIGGER.search(text) is not None for text in TEXTS]


# Patterns built of what the spelling-out reads (literals, \\b, short classes, ?, {1,2},
# groups, choices) and of what ends a run (\\s*, {4}, a negated class); no unbounded
# repeat of a repeat (backtracking would take the test's time).
_ATOMS = st.sampled_from(["a", "b", r"\.", r"\(", r"\b", "[ab]", "[a-c]", r"\s*", "[^a]", "x"])


def _patterns(inner):
  return st.one_of(
      st.lists(inner, min_size=1, max_size=4).map("".join),
      st.lists(inner, min_size=2, max_size=3).map(lambda parts: "(?:" + "|".join(parts) + ")"),
      inner.map(lambda part: f"(?:{part})?"), inner.map(lambda part: f"(?:{part}){{1,2}}"),
      inner.map(lambda part: f"(?:{part}){{4}}"))


PATTERNS = st.recursive(_ATOMS, _patterns, max_leaves=8)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(PATTERNS, st.lists(st.text(alphabet="ab.( xc", max_size=12), min_size=1, max_size=4))
def test_every_match_of_any_pattern_contains_one_of_its_words(pattern, texts):
  try:
    compiled = re.compile(pattern)
  except re.error:  # a repeat of a bare \\b, say
    assume(False)
  words = required_words(compiled)
  for text in texts:
    if words is not None:
      for match in compiled.finditer(text):
        assert any(word in match.group(0) for word in words), (pattern, text, words)
    assert may_match(compiled, words, text) == (compiled.search(text) is not None)
