"""tensorflow.contrib.learn: its text preprocessing, and stand-ins for the rest.

``preprocessing`` (VocabularyProcessor and friends) is re-implemented; the
Estimator-era launchers (Experiment, RunConfig) are stand-ins that raise
RemovedInTF2Error when used.
"""
from slim_ext.contrib import Experiment
from slim_ext.contrib import LearnRunConfig as RunConfig
from slim_ext.contrib.learn import preprocessing

__all__ = ["Experiment", "RunConfig", "preprocessing"]
