"""The game form's check on the device (static/js/entry_check.js) in the page itself: it reads
the form as typed (ShirakabaCheck.read), with the data the page carries (#entry-check-data),
and says what the server's live check says, line for line; its refusal of a wrong sum is the
message the server puts at the top of the form when the form is saved (issue 31: "an offline
save with a wrong sum is refused on the device with the same message as online")."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import ORGANIZER, grant
from scoring.models import Meet, RuleSet
from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = [
    ("東山 一郎", "ひがしやま いちろう"),
    ("南野 花子", "みなみの はなこ"),
    ("西川 次郎", "にしかわ じろう"),
    ("北村 三郎", "きたむら さぶろう"),
]

ON_THE_DEVICE = """() => {
  const form = document.getElementById("game-form");
  const data = JSON.parse(document.getElementById("entry-check-data").textContent);
  const input = ShirakabaCheck.read(form);
  const result = ShirakabaCheck.check(input, data);
  const drawn = document.createElement("template");
  drawn.innerHTML = ShirakabaCheck.render(result, data);
  const lines = (root) =>
    Array.from(root.querySelectorAll("p")).map((p) => [p.className, p.textContent.trim()]);
  const rows = (root) =>
    Array.from(root.querySelectorAll("table.results tr")).map((tr) =>
      Array.from(tr.children).map((cell) => [cell.className, cell.textContent.trim()]));
  const server = document.getElementById("settlement");
  return {
    input,
    refusal: result.refusal,
    device: lines(drawn.content),
    server: lines(server),
    deviceRows: rows(drawn.content),
    serverRows: rows(server),
  };
}"""


@pytest.fixture
def meet_of_four():
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    meet = Meet.objects.create(
        date=date(2025, 4, 9), kind="wed", rule_set=RuleSet.objects.default()
    )
    meet.attendees.set([Member.objects.create(name=n, furigana=f) for n, f in PLAYERS])
    return meet


def test_the_device_says_what_the_server_says(page: Page, live_server, meet_of_four):
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet_of_four.pk}/games/new/?table=1&round=1")
    for seat, (name, score) in enumerate(
        [("ひがしや", "32600"), ("みなみ", "30000"), ("にし", "30000"), ("山田 太郎", "27000")]
    ):
        page.locator(f"#id_seat-{seat}-player").fill(name)
        page.locator(f"#id_seat-{seat}-score").fill(score)
    settlement = page.locator("#settlement")
    expect(settlement).to_contain_text("北「山田 太郎」：該当なし")
    expect(settlement).to_contain_text("あと 400 点 不足")  # the answer to the last key
    seen = page.evaluate(ON_THE_DEVICE)
    assert seen["device"] == seen["server"]
    assert seen["refusal"] == ["「山田 太郎」という会員はいません。"]
    assert seen["input"]["seats"][3] == {
        "player": "山田 太郎",
        "score": "27000",
        "chombo": "",
        "hands": "",
        "guest": False,
    }
    assert seen["input"]["unit"] == "points"
    assert seen["input"]["rule_set"] == str(meet_of_four.rule_set_id)

    # A new guest, ticked below the save button: now the table is 400 points short.
    page.locator("details.extras summary").click()
    page.locator("#id_seat-3-guest").check()
    expect(settlement).not_to_contain_text("該当なし")
    seen = page.evaluate(ON_THE_DEVICE)
    assert seen["device"] == seen["server"]
    assert seen["input"]["seats"][3]["guest"] is True
    short = "卓の合計は 119,600 点です。120,000 点まであと 400 点不足しています。"
    assert seen["refusal"] == [short]

    # Saved online, the form comes back with the same message at the top.
    page.get_by_role("button", name="保存").click()
    expect(page.locator(".form-errors:not(#offline-refusal)")).to_have_text(short)

    # The table adding up, with a chombo: the device's table of places and points is the
    # server's, cell for cell (class and text).
    page.locator("#id_seat-0-chombo").fill("1")
    page.locator("#id_seat-3-score").fill("27400")
    expect(settlement).to_contain_text("合計 120,000 点 ✓")
    expect(settlement.locator("table.results tbody tr")).to_have_count(4)
    seen = page.evaluate(ON_THE_DEVICE)
    assert seen["device"] == seen["server"]
    assert seen["deviceRows"] == seen["serverRows"]
    assert seen["serverRows"][1][-1] == ["num strong pos", "+22.6"]  # 東: +2.6 +30 −10
