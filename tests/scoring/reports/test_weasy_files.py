"""What a handout's layout may read (a review's finding): the app's own static files (the font)
and the charts it is given, nothing else of the server, and the club's minus sign only as
one of its two signs, whatever a restored database holds."""

import io

import pikepdf
import pytest

from scoring.reports import weasy


def attachments(pdf: bytes) -> list[bytes]:
    found = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            for annot in page.get("/Annots", []):
                if annot.get("/Subtype") == "/FileAttachment":
                    found.append(annot.FS.EF.F.read_bytes())
    return found


def test_a_handout_attaches_no_file_of_the_server(tmp_path):
    secret = tmp_path / "secret_key"
    secret.write_text("the-secret-key")
    html = (
        f'<p><a rel="attachment" href="{secret.as_uri()}">−</a></p>'
        f'<p><img src="{secret.as_uri()}"></p>'
    )
    pdf, _pages = weasy.lay_out(html)
    assert not any(b"the-secret-key" in body for body in attachments(pdf))
    assert b"the-secret-key" not in pdf


def test_the_font_and_the_charts_are_still_read(tmp_path):
    fetcher = weasy._fetcher({"1.jpg": b"chart"})
    font = fetcher.fetch(weasy.BASE_URL + "fonts/ipaexg.ttf")
    assert len(font.read()) > 1_000_000
    font.close()
    assert fetcher.fetch("chart:1.jpg").read() == b"chart"
    for outside in (
        (tmp_path / "x").as_uri(),
        weasy.BASE_URL + "../shirakaba/settings.py",
        weasy.BASE_URL + "..%2Fshirakaba%2Fsettings.py",
    ):
        with pytest.raises(ValueError):
            fetcher.fetch(outside)


def test_the_minus_sign_is_one_of_the_clubs_two_signs():
    html = "<td>−3.2</td>"
    assert weasy.signed_with(html, "▲") == "<td>▲3.2</td>"
    assert weasy.signed_with(html, "−") == html
    crafted = '<a rel="attachment" href="file:///etc/passwd">−</a>'
    assert weasy.signed_with(html, crafted) == html
