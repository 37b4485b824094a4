"""uai_flags: the --map option on libcst.tool's command line, and the default mappings
slim_ext.uflag applies (cases/uai_flags.py has the before/after, no-op and reported cases)."""
from __future__ import annotations

import argparse

import pytest
from libcst.codemod import CodemodContext

from slimport.codemods.uai_flags import EVAL_MAPPING, TRAIN_MAPPING, UaiFlagsCommand


def test_map_option_parses_from_the_libcst_tool_command_line() -> None:
    parser = argparse.ArgumentParser()
    UaiFlagsCommand.add_args(parser)
    args = parser.parse_args(["--map", "data_dir=train_dir", "--map", "work_dir=dataset_dir"])
    command = UaiFlagsCommand(CodemodContext(), **vars(args))
    assert command.mapping == {"data_dir": "train_dir", "work_dir": "dataset_dir"}
    assert UaiFlagsCommand(CodemodContext(), **vars(parser.parse_args(
        ["--map", "data_dir=train_dir,log_dir=eval_dir"]))).mapping == {
            "data_dir": "train_dir", "log_dir": "eval_dir"}
    # Checked as `slimport rewrite --map` checks it: FROM=TO, FROM a platform flag.
    for bad in ("data_dir", "dataset_dir=data_dir", "data_dir=not-a-flag"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--map", bad])


def test_mapping_is_a_declared_option() -> None:
    assert UaiFlagsCommand.OPTIONS == ("mapping",)
    assert UaiFlagsCommand.NAME == "uai_flags"


@pytest.mark.tf
def test_defaults_are_slim_ext_uflags_mappings() -> None:
    """The rewrite repeats uflag's defaults (it must not import TF); keep them equal."""
    from slim_ext import uflag

    assert TRAIN_MAPPING == dict(uflag.TRAIN_MAPPING)
    assert EVAL_MAPPING == dict(uflag.EVAL_MAPPING)
