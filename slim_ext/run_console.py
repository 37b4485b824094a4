"""Where ``slim_ext.run`` prints its progress: a console logger of its own.

Progress (the loss and log_info every ``log_every_n_steps``, the averaged metrics
after evaluation) goes to the Python logger ``slim_ext.run`` (CONSOLE_LOGGER), which
has its own handler, so it is printed whatever absl's logging set-up is; silence it
with ``logging.getLogger("slim_ext.run").setLevel(logging.WARNING)``.
"""
from __future__ import annotations

import logging as pylogging
import sys

CONSOLE_LOGGER = "slim_ext.run"


class _ConsoleHandler(pylogging.StreamHandler):
  """Writes to the sys.stderr of the moment (test runners and notebooks swap
  it), never to one captured when the handler was made."""

  def __init__(self):
    super().__init__(sys.stderr)

  @property
  def stream(self):
    return sys.stderr

  @stream.setter
  def stream(self, unused_stream):
    pass


def console() -> pylogging.Logger:
  """The logger run() reports progress on; printed whatever absl's set-up."""
  logger = pylogging.getLogger(CONSOLE_LOGGER)
  if not logger.handlers:
    handler = _ConsoleHandler()
    handler.setFormatter(pylogging.Formatter("%(asctime)s %(message)s",
                                             "%H:%M:%S"))
    logger.addHandler(handler)
    if logger.level == pylogging.NOTSET:  # a level the user chose stays
      logger.setLevel(pylogging.INFO)
    # absl's handler sits on the root logger; going there too would print
    # every line twice once absl logs at INFO.
    logger.propagate = False
  return logger
