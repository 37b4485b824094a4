"""slimport verify on the ported bundled tree: every module imports, every net builds.

The tree is ported with the real CLI (``slimport rewrite examples/slim_tf1 --out``)
and verified as a user would, including ``--build nets.nets_factory``.
"""
import os
import shutil
import subprocess
import sys

import pytest

from tests.documented import documented
from tests.slimport.conftest import REPO_ROOT
from tests.slimport.verify._helpers import run_verify

pytestmark = pytest.mark.tf

EXAMPLE = REPO_ROOT / "examples" / "slim_tf1"


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    base = tmp_path_factory.mktemp("bundled")
    ported = base / "ported"
    subprocess.run([sys.executable, "-m", "slimport", "rewrite", str(EXAMPLE), "--out",
                    str(ported)], check=True, capture_output=True, timeout=300, cwd=REPO_ROOT)
    return run_verify(ported, ["--build", "nets.nets_factory"], base / "verify.json")


def test_every_module_imports(verified):
    modules = {path.relative_to(EXAMPLE).with_suffix("").as_posix().replace("/", ".")
               for path in EXAMPLE.rglob("*.py")}
    modules = {m[:-len(".__init__")] if m.endswith(".__init__") else m for m in modules}
    rows = verified.rows()
    assert set(rows) == modules
    assert {name: row["message"] for name, row in rows.items() if row["kind"] != "ok"} == {}


def test_entry_scripts_print_their_flags(verified):
    scripts = verified.rows("script")
    assert set(scripts) == {"train_image_classifier", "eval_image_classifier",
                            "make_synthetic_data"}
    assert all(row["kind"] == "ok" for row in scripts.values()), scripts
    train_flags = scripts["train_image_classifier"]["details"]["flags"]
    # slim's own flags, and the platform flags the port added (slim_ext.uflag).
    assert {"dataset_dir", "train_dir", "model_name", "data_dir", "output_dir"} <= set(
        train_flags)


def test_every_network_builds_and_trains_a_step(verified):
    builds = verified.rows("build")
    assert set(builds) == {"nets.nets_factory:lenet", "nets.nets_factory:cifarnet_bn"}
    lenet = builds["nets.nets_factory:lenet"]
    assert lenet["kind"] == "ok" and lenet["details"]["trainable_variables"] > 0, lenet


def test_networks_with_batch_norm_build_without_help_from_the_entry_script(verified):
    cifarnet = verified.rows("build")["nets.nets_factory:cifarnet_bn"]
    assert cifarnet["kind"] == "ok", cifarnet
    assert verified.returncode == 0, verified.stdout


def test_the_readme_commands_on_a_research_slim_shaped_tree(tmp_path):
    # The README's port and verify lines, as printed, on the bundled tree shaped as
    # research/slim is: an __init__.py at its root, and scripts that import
    # `from nets import nets_factory`.
    slim = tmp_path / "examples" / "slim_tf1"
    shutil.copytree(EXAMPLE, slim)
    (slim / "__init__.py").write_text("")
    rewrite = documented("slimport rewrite examples/slim_tf1 --out ported --report port.json")
    verify = documented("slimport verify ported --build nets.nets_factory")
    ported = subprocess.run([sys.executable, "-m", *rewrite], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300, check=False)
    assert ported.returncode == 0, ported.stdout + ported.stderr
    assert (tmp_path / "port.json").is_file()
    verified = subprocess.run([sys.executable, "-m", *verify], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600, check=False,
                              env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "sys.path root .: " in verified.stdout
    for network in ("lenet", "cifarnet_bn"):
        assert f"nets.nets_factory:{network}: built; one training step" in verified.stdout
