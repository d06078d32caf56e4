"""The shipped code documentation is generated from the registry and covers every spec code."""

from grooph_core.ide.code_docs import PAGE, page_uri, render
from grooph_core.issues import CODES


def test_code_page_is_up_to_date():
    assert PAGE.read_text("utf-8") == render(), "run: python -m grooph_core.ide.code_docs"


def test_every_code_has_a_section_and_a_link():
    text = PAGE.read_text("utf-8")
    for code in CODES:
        assert f"## {code}\n" in text
        assert page_uri(code).endswith("#" + code.lower())
