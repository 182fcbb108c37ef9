"""The example notebook runs headless from top to bottom (its last cell checks what
it shows)."""

import os
import pathlib

import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "examples" / "backoff.ipynb"


def need(module: str):
    # test.sh installs them and sets MACSIM_REQUIRE_NOTEBOOK: there a missing one fails.
    if os.environ.get("MACSIM_REQUIRE_NOTEBOOK"):
        return __import__(module)
    return pytest.importorskip(module)


def test_example_notebook_runs(tmp_path):
    nbformat = need("nbformat")
    nbclient = need("nbclient")
    need("matplotlib")
    # Charts as inline images, as Jupyter shows them, with no display.
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) >= 3
