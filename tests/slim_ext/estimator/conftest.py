"""Fixtures of the Estimator runtime tests."""
import json

import pytest


@pytest.fixture()
def tf_config(monkeypatch):
  """Sets TF_CONFIG for one test (``tf_config({...})``); unset until it is called."""
  def set_config(config):
    monkeypatch.setenv("TF_CONFIG", json.dumps(config))
  monkeypatch.delenv("TF_CONFIG", raising=False)
  return set_config
