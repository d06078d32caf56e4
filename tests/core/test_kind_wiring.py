"""Adding a kind is a recipe (issue 22 item 3; ARCHITECTURE.md "Adding a document kind"): each registered
kind has every step, and a kind the readers know but `ide.kinds.KINDS` does not register fails here,
as tests/core/rules/test_code_wiring.py does for codes. The steps: its name and file names in
`source/kinds.py`; a model in `model/`; a schema in `schema/`; a rules package `rules/<kind>/` with its
`RULES` and its codes in `issues.py`; fixtures; its face in `ide/<family>/face.py`, registered once; and
the face answers every request of the editor on its documents."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import typing

import pytest

from grooph_core.ide.face import FACES
from grooph_core.ide.grooph.actions import OpsOutcome, QuickFix
from grooph_core.ide.kinds import BY_NAME, KINDS, DocumentKind, analyse, kind_named, kind_of_file
from grooph_core.ide.refused import Refused
from grooph_core.issues import CODES
from grooph_core.schema.generate import META
from grooph_core.source import kinds as detection
from tests.conftest import FIXTURES

NAMES = [k.name for k in KINDS]
# Where each kind's fixtures are (the first two kinds' folders predate the others' `<kind>/valid`).
VALID = {"graph": FIXTURES / "valid", "map": FIXTURES / "maps" / "valid"}


def _valid_fixtures(kind: DocumentKind) -> list:
    folder = VALID.get(kind.name, FIXTURES / kind.name / "valid")
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name.lower().endswith(kind.suffixes))


def test_every_kind_the_readers_know_is_registered_once():
    known = set(typing.get_args(detection.Kind)) | set(detection.NEIGHBOUR_KINDS)
    assert sorted(NAMES) == sorted(known), "a kind is read but not registered in ide.kinds.KINDS (or the reverse)"
    assert len(NAMES) == len(set(NAMES)) and set(BY_NAME) == set(NAMES)
    # each registered face was made through `face.made`, so an analysis of its kind finds it (`document_kind`)
    assert all(FACES.get(k.name) is k for k in KINDS) and set(FACES) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_kind_has_its_face_module_citing_its_spec(name):
    kind = kind_named(name)
    assert isinstance(kind, DocumentKind) and kind.name == name and kind.title
    module = sys.modules[type(kind).__module__]
    family = module.__name__.removeprefix("grooph_core.ide.").removesuffix(".face")
    assert module.__name__ == f"grooph_core.ide.{family}.face" and "." not in family, \
        "a kind's face lives in its family's package, ide/<family>/face.py"
    assert f"{name}.md" in (module.__doc__ or ""), "the face's docstring cites its spec"


@pytest.mark.parametrize("name", NAMES)
def test_each_kind_is_said_by_its_file_names(name):
    kind = kind_named(name)
    assert kind.suffixes, "a kind has file names"
    for suffix in kind.suffixes:
        assert kind_of_file(f"x{suffix}") is kind
        assert kind_of_file(f"X{suffix.upper()}") is kind  # file names are compared without case


@pytest.mark.parametrize("name", NAMES)
def test_each_kind_has_a_model_a_schema_and_a_rules_package_with_its_codes(name):
    assert importlib.util.find_spec(f"grooph_core.model.{name}") is not None, "its model: model/<kind>.py"
    schema = META[name]["$id"].rsplit("/", 1)[-1] if name in META else f"{name}.schema.json"
    assert (FIXTURES.parent / "grooph_core" / "schema" / schema).is_file(), f"its JSON Schema: schema/{schema}"
    rules = kind_named(name).rules
    assert rules.__name__ == f"grooph_core.rules.{name}" and rules.RULES, "its rules package registers its rules"
    own = {c for r in rules.RULES for c in r.codes}
    assert own and all(name in CODES[c].applies_to for c in own), "its codes are in issues.py, applying to it"


@pytest.mark.parametrize("name", NAMES)
def test_each_kind_reads_its_valid_fixtures_clean_by_its_name(name):
    kind = kind_named(name)
    fixtures = _valid_fixtures(kind)
    assert fixtures, f"a kind has valid fixtures ({VALID.get(name, FIXTURES / name / 'valid')})"
    for path in fixtures:
        a = analyse(path.read_text("utf-8"), name=path.name, tolerant=False)
        assert a.document_kind is kind, path
        errors = [i for i in a.issues if i.severity == "error"]
        assert errors == [], f"{path}: {errors[:1]}"


@pytest.mark.parametrize("name", NAMES)
def test_each_kind_answers_every_request_of_the_editor(name):
    """The face is whole: on its first valid fixture, read tolerantly, every request answers (an answer or
    "not offered"), and what every kind has (hover on a key, completion, the outline, formatting's
    answer) is there."""
    kind = kind_named(name)
    path = _valid_fixtures(kind)[0]
    text = path.read_text("utf-8")
    a = kind.read(text, name=path.name)
    assert a.kind == name and a.document_kind is kind
    first_key = text.index('"') + 1 if text.lstrip().startswith("{") else 0  # inside the first key
    assert kind.hover(a, first_key) is not None, "hover on a key says what it means"
    assert kind.outline(a), "the outline lists the document"
    assert kind.complete(a, first_key) is not None, "completion is offered"
    assert kind.format(a) is not None  # edits, or a refusal saying why
    # the rest: an answer of the request's shape, or "not offered" (None), never an exception
    for answer in (kind.folds(a), kind.definition(a, first_key), kind.references(a, first_key)):
        assert answer is None or isinstance(answer, list)
    assert isinstance(kind.prepare_rename(a, first_key), (type(None), tuple, Refused))
    assert isinstance(kind.rename(a, first_key, "x"), (list, Refused))
    assert isinstance(kind.fix_all(a), (type(None), QuickFix))
    assert isinstance(kind.picture(a), (type(None), str, Refused))
    assert isinstance(kind.operations(a, []), (type(None), OpsOutcome))
    assert isinstance(kind.quick_fixes(a, list(a.issues)), list)
    assert isinstance(kind.fix_offers(a, list(a.issues)), list)
    assert kind.pointer_span(a, "") == a.pointer_span("")
