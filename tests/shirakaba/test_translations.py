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


def test_the_organizer_is_the_kirokugakari_everywhere():
    """The club calls the one who enters the results 記録係 (README, the roles); an older word,
    まとめ役, was left in the sign-out warning of unsent games."""
    po = polib.pofile(str(LOCALE / "django.po"))
    assert [e.msgid for e in po if "まとめ役" in e.msgstr] == []
    warning = next(e for e in po if e.msgid.startswith("%(n)s games are not sent yet"))
    assert "記録係がこの端末でログインし直すと送信されます" in warning.msgstr
