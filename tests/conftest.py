import glob
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True))


@pytest.fixture(scope="session")
def case_files():
    return CASES
