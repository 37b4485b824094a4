"""slim_ext.stdlib: Python 3.8's fractions.gcd, removed in 3.9.

Each expected value is what Python 3.8's ``fractions.gcd`` returned for the same
arguments (its sign follows ``b``, or ``a`` when ``b`` is 0; rationals by Euclid).
"""
from fractions import Fraction

import pytest

from slim_ext.stdlib import fractions_gcd

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


@pytest.mark.parametrize("a, b, expected", [
    (12, 18, 6), (4, -6, -2), (-4, 6, 2), (-4, -6, -2), (-4, 0, -4), (0, 0, 0),
    (0, 5, 5), (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)), (4.0, 6.0, 2.0),
    (True, 2, 1),
])
def test_as_python_3_8(a, b, expected):
  result = fractions_gcd(a, b)
  assert result == expected and type(result) is type(expected)
