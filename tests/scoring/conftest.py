"""Fixtures of the scoring tests."""

import os
import uuid

import psycopg
import pytest

from scoring.reports import pdf, xlsx
from tests.builders import FakeRenderer, make_club


@pytest.fixture
def databases(tmp_path):
    """Two scratch databases of the suite's kind: (live URL, restore URL)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'live.sqlite3'}", f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    base = url.rsplit("/", 1)[0]
    names = [f"shirakaba_bk_{uuid.uuid4().hex[:8]}_{n}" for n in ("live", "restored")]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{base}/{names[0]}", f"{base}/{names[1]}"
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def fake(monkeypatch) -> FakeRenderer:
    renderer = FakeRenderer()
    monkeypatch.setattr(pdf, "render_standings_pdf", renderer)
    monkeypatch.setattr(xlsx, "render_standings_xlsx", renderer)
    return renderer


@pytest.fixture
def club(club_rule):
    return make_club(club_rule, members=8, meets=3)
