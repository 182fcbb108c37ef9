"""The example notebook runs headless from top to bottom (its last cell checks what
it shows) and saves its main chart, the delay hockey stick, as PNG: into a temporary
directory, or with MACSIM_UPDATE_DOCS=1 into docs/python-notebook-chart.png, the chart
the repository's README shows."""

import os
import pathlib
import re

import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "examples" / "backoff.ipynb"
DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs"
CHART = "python-notebook-chart.png"


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
    charts = DOCS if os.environ.get("MACSIM_UPDATE_DOCS") else tmp_path
    (charts / CHART).unlink(missing_ok=True)
    os.environ["MACSIM_CHART_DIR"] = str(charts)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    # Nothing on stderr but, on a slow or busy machine, a progress bar (a run that
    # lasts longer than the bar's delay shows one; a short run shows none): no
    # warning, no other text.
    stderr = [o.get("text") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "stream" and o.get("name") == "stderr"]
    bar = re.compile(r"^[^\n]*\d+%\|[^\n]*$")
    not_bars = [line for text in stderr for line in re.split(r"[\r\n]+", text)
                if line.strip() and not bar.match(line)]
    assert not not_bars, stderr
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) >= 5
    png = (charts / CHART).read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
