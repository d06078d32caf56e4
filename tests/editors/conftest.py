"""The real-editor tests' hooks: each test's outcome is kept on its item (`item.outcome_call`), so a
fixture can tell, after the test, whether it failed (test_vscode_e2e.py then saves a screenshot of
what the workbench showed)."""

from __future__ import annotations

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.outcome_call = report
    return report
