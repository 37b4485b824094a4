"""Python standard-library functions that Python 3.9+ removed, as Python 3.8 had them.

``slimport rewrite`` sends TF1-era calls of them here where the function that replaced
them computes something else for some arguments (``fractions.gcd`` -> ``math.gcd``
differs in sign).
"""
from __future__ import annotations

import math
import numbers


def fractions_gcd(a: numbers.Rational, b: numbers.Rational) -> numbers.Rational:
  """``fractions.gcd(a, b)`` of Python <= 3.8 (removed in 3.9).

  The greatest common divisor of ``a`` and ``b``, with the sign of ``b`` (of ``a`` when
  ``b`` is 0); ``math.gcd`` is never negative. For two ints it is ``math.gcd`` signed
  so; for other rationals (``Fraction``, floats) Euclid's algorithm on their values, as
  the old function ran it.

  Args:
    a: a rational number.
    b: a rational number.

  Returns:
    Their greatest common divisor, of the type the old function returned.
  """
  if type(a) is int and type(b) is int:  # pylint: disable=unidiomatic-typecheck
    divisor = math.gcd(a, b)
    return -divisor if (b or a) < 0 else divisor
  while b:
    a, b = b, a % b
  return a
