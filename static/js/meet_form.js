// The meet form (templates/scoring/meet_form.html): on a new meet, choosing the date sets the
// kind (水曜会 on a Wednesday, 土曜会 on a Saturday, その他 on the other days) until the
// organizer chooses a kind by hand. Then the kind stays, and the server is told so
// (kind_by_hand): it would otherwise take a その他 on a Wednesday or a Saturday as the date's
// kind (scoring/forms.py, MeetForm). Without JavaScript the server does that part alone.
// The start time and place follow the kind: the club's usual ones (scoring/planning.py).
(() => {
  const form = document.querySelector("form[data-kind-follows-date]");
  if (!form) return;
  const date = form.querySelector('input[name="date"]');
  const byHand = form.querySelector('input[name="kind_by_hand"]');
  const radios = Array.from(form.querySelectorAll('input[name="kind"]'));
  if (!date || !byHand || !radios.length) return;
  const KINDS = { 3: "wed", 6: "sat" }; // getUTCDay(): Sunday 0, Wednesday 3, Saturday 6
  const chosenByHand = () => byHand.value === "1" || byHand.value === "True";
  const follow = () => {
    if (chosenByHand()) return;
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.value);
    if (!match) return;
    const day = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])).getUTCDay();
    const kind = KINDS[day] ?? "other";
    for (const radio of radios) radio.checked = radio.value === kind;
    fillUsual(kind);
  };
  // The club's usual start and place for the kind (#usual-times, as the planned meets hold
  // them): put in as the kind changes, until the organizer types their own.
  const usualData = document.getElementById("usual-times");
  const usual = usualData ? JSON.parse(usualData.textContent) : {};
  const typed = new Set();
  const fillUsual = (kind) => {
    for (const name of ["start_time", "place"]) {
      const field = form.querySelector(`[name="${name}"]`);
      if (field && !typed.has(name) && usual[kind]) field.value = usual[kind][name];
    }
  };
  for (const name of ["start_time", "place"]) {
    const field = form.querySelector(`[name="${name}"]`);
    if (field) field.addEventListener("input", () => typed.add(name));
  }
  // A tap on the kind already offered chooses it too (a click, but no change).
  const chosen = () => {
    byHand.value = "1";
    const checked = radios.find((radio) => radio.checked);
    if (checked) fillUsual(checked.value);
  };
  for (const radio of radios) {
    radio.addEventListener("click", chosen);
    radio.addEventListener("change", chosen);
  }
  date.addEventListener("input", follow);
  date.addEventListener("change", follow);
})();
