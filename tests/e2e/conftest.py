"""The web page in a real browser: one server and one headless Chromium for the module.

Chromium is Debian's (`apt-get install -y chromium`, as .ci/run does when it is missing), driven
by Playwright pointed at /usr/bin/chromium; no browser is ever downloaded. Missing, the tests FAIL
saying how to install it: they are never skipped. Screenshots of the main pages at a phone's and a
desktop's width are kept in .pytest_cache/d/web-screenshots/ (named at the end of the run).
"""
from __future__ import annotations

import os

import pytest

from tests import serving

CHROMIUM = os.environ.get("ADJUDICATOR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
SHOTS = "web-screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`adjudicator serve` on a free port, its progress file in a folder of its own."""
    data = tmp_path_factory.mktemp("web-progress")
    proc, base, said = serving.start({"ADJUDICATOR_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1"})
    yield {"url": base, "said": said, "data": str(data)}
    serving.stop(proc)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: the browser tests need it and are never skipped. "
                    "Install Debian's: `apt-get install -y chromium` (or set ADJUDICATOR_CHROMIUM to a "
                    "Chromium binary).", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: `pip install -e '.[test]'`", pytrace=False)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def phone_page(browser, server, viewport: dict):
    """A page in a phone's browser (touch, the viewport given), pointed at the test server
    (`page.base`); yields it and closes its context."""
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    p = context.new_page()
    p.set_default_timeout(20_000)
    p.base = server["url"]
    yield p
    context.close()


@pytest.fixture(scope="module")
def shots(request):
    """The screenshots' folder, emptied of an earlier run's."""
    folder = request.config.cache.mkdir(SHOTS)
    for old in folder.glob("*.png"):
        old.unlink(missing_ok=True)
    return str(folder)


def screenshot_summary(terminalreporter, config) -> None:
    """Name the screenshots' folder at the end of the run (called from the root conftest.py, which
    pytest-xdist's controller loads; this one only its workers do)."""
    cache = getattr(config, "cache", None)
    if cache is None:
        return
    folder = cache.mkdir(SHOTS)
    if any(folder.glob("*.png")):
        terminalreporter.write_line(f"web page screenshots (phone and desktop widths): {folder}")
