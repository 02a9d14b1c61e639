"""The Japanese catalogue is complete and the committed .mo matches the .po."""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "ja" / "LC_MESSAGES"


def test_every_message_has_a_japanese_translation():
    po = polib.pofile(str(LOCALE / "django.po"))
    assert len(po) > 100
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []


def test_the_compiled_catalogue_is_up_to_date():
    po = {
        (e.msgid, e.msgstr) for e in polib.pofile(str(LOCALE / "django.po")) if not e.msgid_plural
    }
    mo = {
        (e.msgid, e.msgstr) for e in polib.mofile(str(LOCALE / "django.mo")) if not e.msgid_plural
    }
    assert po - mo == set()
