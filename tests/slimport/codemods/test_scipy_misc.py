"""scipy_misc through the engine (cases/scipy_misc.py has the before/after, no-op and
reported cases): its statement filter reads every statement of a skeleton."""
from __future__ import annotations

from slimport import engine
from slimport.codemods.scipy_misc import ScipyMiscCommand

# tensorlayer 1.11.1's prepro.py: chains broken by a call or a subscript, beside a
# scipy.misc call, inside functions (the skeleton asks the filter of each statement).
CHAINS = """\
import scipy
import scipy.misc


def resize(x, size):
    unused = 1
    return scipy.misc.imresize(x, size)


def others(images):
    unused = 2
    return load().misc.imread(images), images[0].misc
"""


def test_filter_reads_chains_broken_by_a_call() -> None:
    ported = engine.port_source(CHAINS.encode("utf-8"), "prepro.py", [ScipyMiscCommand], {})
    assert ported.error is None
    assert "slim_ext.scipy_misc.imresize(x, size)" in ported.after
    assert "load().misc.imread(images)" in ported.after
