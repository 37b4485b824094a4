"""The platform SDK's TensorFlow modules, and slim_ext's stand-ins for them.

Scripts written for the UAI Train platform import two modules of its SDK
(``uaitrain.arch.tensorflow``). The SDK was never on PyPI: users copied its
``uaitrain/`` folder into their tree, or did not. When the tree lacks the folder the
``sdk_imports`` codemod moves these imports to ``slim_ext.uai``, which defines the
names below with the SDK's behaviour (tests/slim_ext/test_uai_facades.py checks);
every other ``uaitrain`` name is reported, not moved.
"""

SDK_PACKAGE = "uaitrain"
# The package scripts import the modules from, and where slim_ext keeps them.
SDK_TF_PACKAGE = "uaitrain.arch.tensorflow"
STAND_IN_PACKAGE = "slim_ext.uai"
# SDK module -> the names its stand-in in STAND_IN_PACKAGE provides.
SDK_MODULES = {
    "uflag": frozenset({"flags", "FLAGS"}),
    "uai_dist": frozenset({"UAITensorFlowDistRunConfigParser"}),
}
