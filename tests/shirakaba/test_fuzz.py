"""Property-based guards (hypothesis) against odd input: no request gives a 500, and a refused
request writes nothing.

- every GET URL pattern (the URLconf walked, the admin's too) with random query parameters, as
  a visitor, a member and an organizer;
- random values posted to every form of the app, as the organizer;
- the import fed random bytes and broken zip structures.

The number of examples each runs is set here (``EXAMPLES``) and printed by
``--hypothesis-show-statistics``.
"""

import io
import zipfile

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.imports import plan_import
from tests.builders import concrete, content, every_path

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # fuzzes (hypothesis)

EXAMPLES = {"get": 300, "post": 200, "import": 200}
FUZZ = settings(
    deadline=None,
    derandomize=True,  # the same examples on every run: CI is reproducible
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ODD = [
    "",
    "0",
    "-1",
    "²",
    "ａ",
    "9" * 30,
    "FY9998",
    "9999-H1",
    "9999-11",
    "0001-01",
    "0001-01-01..",
    "9999-12-31..",
    "2025-13",
    "2025-04",
    "2025-H1",
    "all",
    "..",
    "wed",
    "▲3,200",
    "ー3200",
    "\x1b",
    "\x00",
    "%",
    "'",
    '=HYPERLINK("http://x","y")',
    "<script>alert(1)</script>",
    "9999-12-31",
    "2025-04-09",
    "on",
    "東",
]
VALUES = st.one_of(st.sampled_from(ODD), st.text(max_size=24), st.integers().map(str))
QUERY_KEYS = ["period", "kind", "group", "rule", "min", "sort", "dl", "table", "round", "next"]
QUERY_KEYS += ["o", "p", "q", "e", "_changelist_filters", "all", "date__gte", "is_final__exact"]
QUERY = st.dictionaries(
    st.one_of(st.sampled_from(QUERY_KEYS), st.text(min_size=1, max_size=8)), VALUES, max_size=5
)
# Content that changes on requests without anyone writing club data: sign-in records.
SIGN_IN_RECORDS = {"axes.accessfailurelog"}


def club_content() -> dict:
    return {k: v for k, v in content().items() if k not in SIGN_IN_RECORDS}


@pytest.fixture
def clients(alice, bob) -> dict[str, Client]:
    organizer, member = Client(), Client()
    organizer.force_login(alice)
    member.force_login(bob)
    return {"visitor": Client(), "member": member, "organizer": organizer}


@settings(FUZZ, max_examples=EXAMPLES["get"])
@given(data=st.data())
def test_no_get_with_odd_parameters_gives_a_500_or_writes(sample, clients, data):
    paths = [p for p in every_path(sample) if p not in ("/logout/", "/admin/logout/")]
    before = club_content()
    role = data.draw(st.sampled_from(sorted(clients)), label="role")
    path = data.draw(st.sampled_from(paths), label="path")
    query = data.draw(QUERY, label="query")
    response = clients[role].get(path, query)
    assert response.status_code < 500, (role, path, query, response.status_code)
    assert club_content() == before, (role, path, query)


# The fields of each form of the app (the routes as the URLconf writes them).
FORM_FIELDS = {
    "meets/new/": ["date", "kind", "rule_set", "attendees", "note", "kind_by_hand"],
    "meets/<int:pk>/edit/": ["date", "kind", "rule_set", "attendees", "note"],
    "meets/<int:pk>/reopen/": ["reason"],
    "meets/<int:pk>/finalise/": ["confirm", "missing"],
    "meets/<int:meet_pk>/games/new/": [
        "table_no",
        "round_no",
        "rule_set",
        "unit",
        "deposits_held",
        "note",
        "version",
        "preview",
        *(f"{f}_{seat}" for seat in range(4) for f in ("player", "score", "chombo", "hands")),
    ],
    "members/new/": ["name", "furigana", "is_active", "is_guest", "joined_on", "note"],
    "members/<int:pk>/edit/": ["name", "furigana", "is_active", "is_guest", "joined_on", "note"],
    "rules/<int:pk>/copy/": ["name"],
    "import/confirm/": ["token"],
    "password/": ["old_password", "new_password1", "new_password2"],
    "standings/visibility/": ["public"],
}
FORM_FIELDS["games/<int:pk>/edit/"] = FORM_FIELDS["meets/<int:meet_pk>/games/new/"]


def form_paths(sample_objects: dict) -> dict[str, list[str]]:

    return {concrete(route, sample_objects): f for route, f in FORM_FIELDS.items()}


@settings(FUZZ, max_examples=EXAMPLES["post"])
@given(data=st.data())
def test_no_post_of_odd_values_gives_a_500_and_a_refusal_writes_nothing(
    sample,
    clients,
    data,
):
    forms = form_paths(sample)
    path = data.draw(st.sampled_from(sorted(forms)), label="path")
    fields = forms[path]
    chosen = (
        data.draw(st.lists(st.sampled_from(fields), unique=True), label="fields") if fields else []
    )
    body = {name: data.draw(VALUES, label=name) for name in chosen}
    headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
    before = club_content()
    response = clients["organizer"].post(path, body, headers=headers)
    assert response.status_code < 500, (path, body, response.status_code)
    if response.status_code >= 400:
        assert club_content() == before, (path, body, response.status_code)


def zip_of(parts: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, payload in parts:
            archive.writestr(name, payload)
    return out.getvalue()


XLSX_PARTS = [
    "[Content_Types].xml",
    "_rels/.rels",
    "xl/workbook.xml",
    "xl/_rels/workbook.xml.rels",
    "xl/worksheets/sheet1.xml",
    "xl/sharedStrings.xml",
    "xl/styles.xml",
]
XML_BITS = st.sampled_from(
    [
        b"<?xml version='1.0'?>",
        b"<worksheet><sheetData><row r='1'><c r='A1' t='s'><v>99</v></c></row>",
        b"<dimension ref='A1:XFD1048576'/>",
        b"<sheets><sheet name='x' sheetId='1' r:id='rId1'/></sheets>",
        b"<sst><si><t>\xe6\x97\xa5\xe4\xbb\x98</t></si></sst>",
        b"<!DOCTYPE x [<!ENTITY a 'aaaa'>]><x>&a;&a;</x>",
        b"</sheetData></worksheet>",
        b"<c r='ZZZZZ99999999'><v>1e309</v></c>",
    ]
)
BROKEN_ZIPS = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(XLSX_PARTS), st.text(min_size=1, max_size=12)),
        st.one_of(st.binary(max_size=200), st.lists(XML_BITS, max_size=5).map(b"".join)),
    ),
    max_size=8,
    unique_by=lambda part: part[0],
).map(zip_of)
FILES = st.one_of(
    st.binary(max_size=2_000),
    BROKEN_ZIPS,
    BROKEN_ZIPS.map(lambda z: z[: len(z) // 2]),  # truncated
    st.text(max_size=500).map(lambda t: ("日付,例会,卓,回戦,席,氏名,持ち点\n" + t).encode()),
)


@settings(FUZZ, max_examples=EXAMPLES["import"])
@given(data=FILES)
def test_the_import_answers_any_bytes_with_a_plan_never_an_error(club_rule, data):
    before = club_content()
    plan = plan_import(data)
    assert plan.errors or plan.games is not None
    assert club_content() == before


@settings(FUZZ, max_examples=40)
@given(data=FILES)
def test_the_import_page_answers_any_upload_without_a_500(clients, club_rule, data):
    from django.core.files.uploadedfile import SimpleUploadedFile

    before = club_content()
    upload = SimpleUploadedFile("file.xlsx", data)
    response = clients["organizer"].post(
        "/import/", {"file": upload, "rule_set": club_rule.pk, "create_members": "on"}
    )
    assert response.status_code < 500
    assert club_content() == before
