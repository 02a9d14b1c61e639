// The game form's live check on the device: "The live sum check, the name check and
// the plausibility warnings work offline. The page carries the rule set's parameters as data,
// and one table of cases runs against both the Python check and the JavaScript check, so the
// two cannot drift apart."
//
// ShirakabaCheck.check(input, data) says what GameForm.preview() says (scoring/forms.py), and
// in `refusal` the messages the server would refuse the same form with when it is saved
// (GameForm.is_valid, then Hanchan.settle and rules.check_game). `data` is
// scoring.entry_check.entry_check_data(meet), put on the page as JSON (#entry-check-data);
// every text in it is the server's own, translated. Places and P are worked out here as
// rules.settle works them out (`settle`, in whole tenths of a P), so the organizer can read each
// player's P back to the table offline; the server settles the game again when it is sent.
// Exact integers only (every score fits in a double).
// The one table of cases: tests/scoring/entry_check_cases.json (tests/scoring/test_entry_check.py
// runs it against both checks, and compares them on forms made at random too).
//
// API (the offline queue is built on these names):
// - read(form): the #game-form's fields as typed: {rule_set, unit, deposits_held,
//   confirm_scores (bool), table_no, round_no, note, seats: [{player, score, chombo, hands,
//   guest (bool)} x 4]}.
// - check(input, data): {ready, complete, players, entered, total, held, short, over,
//   excess_off_top, filled_seat, filled_score, names: [{seat, text, several, candidates,
//   guest_taken}], guest_hint, scores: [{seat, message}], deposits, doubts, seat_names,
//   confirm_scores, problem, refusal, points, rows, settled}: GameForm.preview's facts
//   (`rows`: its table of places and points, as forms.settlement_rows gives it; `settled`:
//   each seat's place, total P and chombo, and its big hands, for the offline queue's list) (`problem`: what settling
//   refuses, shown when the table is complete), and `refusal`, the messages of the top of the
//   form and beside the fields (in the form's order) that saving it online would give; empty
//   when the device may keep the game. Not known here: the table and round taken by another
//   game, a player seated at another table, the meet finalised, a name or note longer than
//   the field takes (the browser's maxlength keeps them short). The server refuses those when
//   the game is sent.
// - settle(rule, seats, deposits): rules.settle of one game the check let through.
// - render(result, data): the inside of <section id="settlement">, as the template's partial
//   `settlement` draws it.
//
// A plain script (the CSP is script-src 'self'); Node loads it with require() for the tests.
(function (root) {
  "use strict";

  const SEATS = 4;
  const MINUS = "\u2212";
  const HUNDREDS = "hundreds";
  const UNITS = ["points", HUNDREDS];
  // Python's str.isspace() characters: what str.strip() and str.split() take away.
  const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const STRIP = new RegExp("^[" + PY_SPACE + "]+|[" + PY_SPACE + "]+$", "g");
  const SPACES = new RegExp("[" + PY_SPACE + "]", "g");
  // members.models.no_control_characters: Unicode categories Cc and Cf.
  const CONTROL = /[\p{Cc}\p{Cf}]/u;

  const strip = (text) => String(text == null ? "" : text).replace(STRIP, "");

  // message % params, as Python's %-formatting with a dict (ValidationError with params).
  const fmt = (message, params) => {
    if (!params) return message;
    return message.replace(/%\((\w+)\)s|%%/g, (all, name) =>
      name === undefined ? "%" : String(params[name]),
    );
  };

  // f"{value:,}": 32,600 / -3,200 (the forms' and the models' messages). BigInt too.
  const comma = (value) => {
    const text = String(value);
    const negative = text.startsWith("-");
    const digits = negative ? text.slice(1) : text;
    return (negative ? "-" : "") + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  };

  // scoring.notation.points (the template's |points): 32,600 / −3,200.
  const points = (value) => (value < 0 ? MINUS + comma(-value) : comma(value));

  const escape = (text) =>
    String(text)
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");

  // members.models.normalise_name: NFKC, no spaces, katakana as hiragana, lower case.
  const normaliseName = (text) => {
    const folded = String(text).normalize("NFKC").replace(/[ \u3000]/g, "");
    let out = "";
    for (const c of folded) {
      const code = c.codePointAt(0);
      out += code >= 0x30a1 && code <= 0x30f6 ? String.fromCodePoint(code - 0x60) : c;
    }
    return out.toLowerCase();
  };

  // members.models.name_key: NFKC and no spaces of any width (as str.split() sees spaces).
  const nameKey = (text) => String(text).normalize("NFKC").replace(SPACES, "");

  // MemberQuerySet.matching: "Members whose name or furigana is ``text`` exactly, else those
  // it begins." `pool` keeps the members' order (the server's queryset order).
  const matching = (pool, text) => {
    const key = normaliseName(text);
    if (!key) return [];
    const exact = pool.filter((m) => m.key === key || m.kanaKey === key);
    if (exact.length) return exact;
    return pool.filter((m) => m.key.startsWith(key) || m.kanaKey.startsWith(key));
  };

  // scoring.notation.parse_score: NFKC, commas and spaces out, a minus sign of SCORE_SIGNS or
  // a +, then 1 to 9 digits. null for anything else.
  const parseScore = (text, signs) => {
    let folded = strip(String(text).normalize("NFKC")).replace(/[, ]/g, "");
    let sign = 1;
    if (folded === "" || signs.includes(folded[0])) {
      sign = -1;
      folded = folded.slice(1);
    } else if (folded[0] === "+") {
      folded = folded.slice(1);
    }
    if (!/^[0-9]{1,9}$/.test(folded)) return null;
    const value = Number(folded);
    return Number.isSafeInteger(value) ? sign * value : null;
  };

  // django.forms.IntegerField (Python's int()): "" is nothing, "10", " +10 ", "1_000",
  // "10.0" and full-width "１０" are numbers. (int() reads the digits of every script; this
  // reads ASCII and full-width ones, what a Japanese keyboard types.)
  // Returns {empty}, {value: BigInt} or {invalid}.
  const parseInteger = (text) => {
    const ascii = String(text == null ? "" : text).replace(/[\uff10-\uff19]/g, (d) =>
      String.fromCharCode(d.charCodeAt(0) - 0xfee0),
    );
    const raw = strip(ascii.replace(/\.0*[\s]*$/, ""));
    if (text == null || String(text) === "") return { empty: true };
    if (!/^[+-]?[0-9]+(_[0-9]+)*$/.test(raw)) return { invalid: true };
    return { value: BigInt(raw.replace(/_/g, "")) };
  };

  // rules.doubtful_scores: "any score from 0 to under 1,000 (Doubt.UNDER) or over 100,000
  // points (Doubt.OVER) ... the score filled in from the table total (filled_seat), when it is
  // not asked about already, and is more than 30,000 points (FILLED_GAP) above the highest
  // typed score or below the lowest (Doubt.FAR)."
  const doubtfulScores = (scores, filledSeat, data) => {
    const [low, high] = data.likely_scores;
    const seats = Object.keys(scores)
      .map(Number)
      .sort((a, b) => a - b);
    const doubts = [];
    for (const seat of seats) {
      const score = scores[seat];
      if (score >= 0 && score < low) doubts.push({ seat, score, doubt: "under" });
      else if (score > high) doubts.push({ seat, score, doubt: "over" });
    }
    const typed = seats.filter((s) => s !== filledSeat).map((s) => scores[s]);
    if (filledSeat === null || !(filledSeat in scores) || !typed.length) return doubts;
    const filled = scores[filledSeat];
    const already = doubts.some((d) => d.seat === filledSeat);
    const far =
      filled > Math.max(...typed) + data.filled_gap || filled < Math.min(...typed) - data.filled_gap;
    if (!already && far) {
      doubts.push({ seat: filledSeat, score: filled, doubt: "far" });
      doubts.sort((a, b) => a.seat - b.seat);
    }
    return doubts;
  };

  // GameForm.days_ahead: the days from today (the device's, in the club's time zone) to the
  // meet's date; 0 for today or a day past.
  const daysAhead = (data) => {
    if (!data.meet_date) return 0;
    let today;
    try {
      today = new Intl.DateTimeFormat("en-CA", {
        timeZone: data.time_zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }).format(new Date());
    } catch (error) {
      const now = new Date();
      today = [now.getFullYear(), now.getMonth() + 1, now.getDate()]
        .map((n, i) => String(n).padStart(i ? 2 : 4, "0"))
        .join("-");
    }
    return Math.max(0, Math.round((Date.parse(data.meet_date) - Date.parse(today)) / 86400000));
  };

  // The game form's fields, as typed.
  const read = (form) => {
    const field = (name) => form.elements.namedItem(name);
    const text = (name) => {
      const el = field(name);
      return el && el.value != null ? String(el.value) : "";
    };
    const ticked = (name) => {
      const el = field(name);
      return Boolean(el && el.checked);
    };
    const seats = [];
    for (let n = 0; n < SEATS; n += 1) {
      seats.push({
        player: text(`seat-${n}-player`),
        score: text(`seat-${n}-score`),
        chombo: text(`seat-${n}-chombo`),
        hands: text(`seat-${n}-hands`),
        guest: ticked(`seat-${n}-guest`),
      });
    }
    return {
      rule_set: text("rule_set"),
      unit: text("unit"),
      deposits_held: text("deposits_held"),
      confirm_scores: ticked("confirm_scores"),
      confirm_date: ticked("confirm_date"),
      table_no: text("table_no"),
      round_no: text("round_no"),
      note: text("note"),
      seats,
    };
  };

  // SeatForm.clean_player: the member a typed name finds ({member}), a new guest ({guest}),
  // or the error with the candidates for the live check.
  const findPlayer = (text, guest, members, said) => {
    if (guest) {
      // SeatForm._new_guest: "A name like a member's (spaces and widths folded) is refused".
      const name = text.replace(/[ \u3000]+/g, " ");
      if (CONTROL.test(name)) return { error: said.control_character, code: "control_character" };
      const key = nameKey(name);
      const namesake = members.find((m) => nameKey(m.name) === key);
      if (namesake) {
        return {
          error: fmt(said.guest_exists, { name: namesake.name }),
          code: "guest_exists",
          candidates: [],
        };
      }
      return { guest: { name } };
    }
    // "the meet's attendees first", then everyone.
    for (const pool of [members.filter((m) => m.attendee), members]) {
      const found = matching(pool, text);
      if (found.length === 1) return { member: found[0] };
      if (found.length) {
        const candidates = found.slice(0, 5);
        const names = candidates.map((m) => m.name).join("、");
        return {
          error: fmt(said.several, { text, names }),
          code: "ambiguous",
          candidates,
        };
      }
    }
    // "Nobody: the members the longest matching start of the text finds, if any."
    const letters = Array.from(text);
    let candidates = [];
    for (let end = letters.length - 1; end > 0; end -= 1) {
      candidates = matching(members, letters.slice(0, end).join("")).slice(0, 5);
      if (candidates.length) break;
    }
    return { error: fmt(said.unknown, { text }), code: "unknown", candidates };
  };

  // scoring.notation.parse_big_hands: "Read 満貫;跳満;役満(国士無双) (or short 満 跳 倍 三 役,
  // separated by ; 、 , or spaces)." Returns {hands: [[level, name]]} or {error}.
  const HAND_SEPARATORS = new RegExp("[;；,，、" + PY_SPACE + "]+");
  const HAND_WITH_NAME = /^([^()（）]+)(?:[(（]([^()（）]*)[)）])?$/;
  const parseBigHands = (text, data) => {
    const said = data.messages;
    const hands = [];
    for (const word of strip(text).split(HAND_SEPARATORS)) {
      if (!word) continue;
      const match = HAND_WITH_NAME.exec(word);
      const key = match ? strip(match[1]).toLowerCase() : "";
      const level = match && Object.hasOwn(data.hand_words, key) ? data.hand_words[key] : null;
      if (level === null) return { error: fmt(said.bad_hand, { word }) };
      const name = strip(match[2] || "");
      if (CONTROL.test(name)) return { error: said.control_character };
      if (name && level !== data.yakuman) return { error: said.named_hand };
      hands.push([level, name]);
    }
    return { hands };
  };

  // SeatForm.clean_score: "The score in points, read in the game's unit".
  const readScore = (text, hundreds, data) => {
    const said = data.messages;
    const value0 = parseScore(text, data.score_signs);
    if (value0 === null) return { error: fmt(said.bad_score, { value: text }) };
    const value = value0 * (hundreds ? 100 : 1);
    if (Math.abs(value) > data.score_limit) {
      return { error: fmt(said.score_beyond, { ...data.limits, score: comma(value) }) };
    }
    if (value % data.score_unit) {
      return { error: fmt(said.score_not_hundreds, { ...data.limits, score: comma(value) }) };
    }
    return { value };
  };

  // An IntegerField with bounds (chombo 0..CHOMBO_LIMIT; deposits 0..).
  const readInteger = (text, min, max, said) => {
    const read = parseInteger(text);
    if (read.empty) return { value: null };
    if (read.invalid) return { error: said.whole_number };
    if (min !== null && read.value < BigInt(min)) {
      return { error: fmt(said.min_value, { limit_value: min }) };
    }
    if (max !== null && read.value > BigInt(max)) {
      return { error: fmt(said.max_value, { limit_value: max }) };
    }
    return { value: read.value };
  };

  const check = (input, data) => {
    const said = data.messages;
    const labels = data.seat_labels;
    const members = data.members.map((m, index) => ({
      ...m,
      index,
      key: normaliseName(m.name),
      kanaKey: normaliseName(m.furigana),
    }));
    const ruleSetKey = input.rule_set == null ? "" : String(input.rule_set);
    const rule = data.rule_sets[ruleSetKey];
    if (!rule) {
      const refusal = [ruleSetKey.trim() ? said.invalid_choice : said.required];
      return { ready: false, refusal };
    }
    const tableTotal = rule.players * rule.start_points;
    const nonField = [];
    const errors = {
      table_no: [],
      round_no: [],
      unit: [],
      deposits_held: [],
      note: [],
      confirm_scores: [],
      confirm_date: [],
    };

    // GameForm's fields in their order: table, round, (rule set), unit, deposits, note.
    for (const [name, last] of [
      ["table_no", data.last_table],
      ["round_no", data.last_round],
    ]) {
      const number = readInteger(input[name], 1, last, said);
      if (number.error) errors[name].push(number.error);
      else if (number.value === null) errors[name].push(said.required);
    }

    // GameForm: unit, then deposits_held (clean_deposits_held reads the cleaned unit).
    const unit = input.unit == null ? "" : String(input.unit);
    if (!unit) errors.unit.push(said.required);
    else if (!UNITS.includes(unit)) errors.unit.push(fmt(said.unit_invalid, { value: unit }));
    let deposits = null; // points (BigInt), when it reads
    const typedDeposits = readInteger(input.deposits_held, 0, null, said);
    if (typedDeposits.error) {
      errors.deposits_held.push(typedDeposits.error);
    } else {
      // "預かり in points, read in the scores' unit (ScoreUnit): 10 in hundreds is 1,000."
      const value = (typedDeposits.value || 0n) * (unit === HUNDREDS ? 100n : 1n);
      if (value % BigInt(data.deposit_unit)) {
        errors.deposits_held.push(
          fmt(said.deposits_unit, { ...data.limits, deposits: comma(value) }),
        );
      } else {
        deposits = value;
      }
    }
    const depositsHeld = deposits === null ? 0 : Number(deposits);
    if (CONTROL.test(strip(input.note == null ? "" : String(input.note)))) {
      errors.note.push(said.control_character);
    }

    // The seat rows (SeatForm), read in the unit as typed.
    const hundreds = unit === HUNDREDS;
    const seats = [];
    for (let n = 0; n < SEATS; n += 1) {
      const typed = (input.seats && input.seats[n]) || {};
      const rawPlayer = typed.player == null ? "" : String(typed.player);
      const rawScore = typed.score == null ? "" : String(typed.score);
      const row = {
        seat: n,
        rawPlayer,
        player: null, // {member} or {guest}
        found: null,
        score: null,
        hands: [],
        chombo: 0,
        errors: { player: [], score: [], chombo: [], hands: [] },
        empty: strip(rawPlayer + rawScore) === "",
      };
      const name = strip(rawPlayer);
      if (name) {
        const found = findPlayer(name, Boolean(typed.guest), members, said);
        row.found = found;
        if (found.error) row.errors.player.push(found.error);
        else row.player = found;
      }
      const scoreText = strip(rawScore);
      if (scoreText) {
        const score = readScore(scoreText, hundreds, data);
        if (score.error) row.errors.score.push(score.error);
        else row.score = score.value;
      }
      const chombo = readInteger(typed.chombo, 0, data.chombo_limit, said);
      if (chombo.error) row.errors.chombo.push(chombo.error);
      else row.chombo = chombo.value === null ? 0 : Number(chombo.value);
      const hands = parseBigHands(typed.hands == null ? "" : String(typed.hands), data);
      if (hands.error) row.errors.hands.push(hands.error);
      else row.hands = hands.hands;
      // SeatForm.clean: a score without a name. (A name of spaces only is taken as none: the
      // server takes it as a player of nobody.)
      const noName = rawPlayer === "" || (name === "" && scoreText !== "");
      if (noName && rawScore !== "" && !row.errors.player.length) {
        row.errors.player.push(said.who_sat_here);
      }
      seats.push(row);
    }

    const hasErrors = () =>
      nonField.length > 0 ||
      Object.values(errors).some((list) => list.length) ||
      seats.some((row) => Object.values(row.errors).some((list) => list.length));

    // GameForm.clean
    const rows = seats.filter((row) => !row.empty);
    let filledSeat = null;
    let filledScore = null;
    if (!hasErrors()) {
      // _fill_the_blank_score: "With every player named and exactly one score blank, that
      // score is the rest."
      const blank = rows.filter((row) => row.score === null);
      if (rows.length === rule.players && blank.length === 1) {
        const known = rows.filter((row) => row.score !== null).reduce((a, r) => a + r.score, 0);
        filledScore = tableTotal - depositsHeld - known;
        blank[0].score = filledScore;
        filledSeat = blank[0].seat;
      }
    }
    const scores = {};
    for (const row of rows) if (row.score !== null) scores[row.seat] = row.score;
    let doubts = [];
    let entries = [];
    const validate = () => {
      if (hasErrors()) return;
      if (!rows.length) {
        nonField.push(said.nothing_entered);
        return;
      }
      const guests = new Set();
      for (const row of rows) {
        if (row.player && row.player.guest) {
          const key = nameKey(row.player.guest.name);
          if (guests.has(key)) {
            row.errors.player.push(said.guest_twice);
            row.player = null; // an error on a field takes its value out (Form.add_error)
          }
          guests.add(key);
        }
      }
      if (hasErrors()) return;
      for (const row of rows) {
        if (row.score === null) row.errors.score.push(said.enter_score);
        else entries.push(row);
      }
      doubts = doubtfulScores(scores, filledSeat, data);
      if (doubts.length && !input.confirm_scores) errors.confirm_scores.push(said.doubtful);
      // GameForm.clean: a meet dated ahead asks before its results are taken.
      const ahead = daysAhead(data);
      if (ahead && !input.confirm_date) {
        errors.confirm_date.push(fmt(said.meet_ahead, { days: String(ahead) }));
      }
    };
    validate();

    // What settling refuses (Hanchan.settle, rules.check_game, rules.settle), when the form
    // itself is valid: the live check shows it as GameForm.preview's `problem` (an unticked
    // 「Save anyway」 aside); the save is refused with it.
    const unconfirmed = errors.confirm_scores.splice(0);
    const undated = errors.confirm_date.splice(0);
    const settling = [];
    let settled = null;
    if (!hasErrors()) {
      const seen = new Set();
      for (const row of entries) {
        const member = row.player && row.player.member;
        // a new guest: "the game form has checked that no two of them share a name"
        if (member && seen.has(member.index)) {
          settling.push(fmt(said.member_twice, { name: member.name }));
        }
        if (member) seen.add(member.index);
        for (const [, name] of row.hands) {
          if (Array.from(name).length > data.yakuman_name_length) {
            settling.push(fmt(said.yakuman_name_long, { n: data.yakuman_name_length }));
          }
        }
      }
      if (!settling.length) {
        const refused = checkGame(rule, entries, deposits, data);
        if (refused) settling.push(refused);
      }
      // GameForm.preview: "when the game is complete and valid, each player's settlement".
      if (!settling.length && Object.keys(scores).length === rule.players) {
        settled = settle(rule, entries, depositsHeld);
      }
    }
    errors.confirm_scores.push(...unconfirmed);
    errors.confirm_date.push(...undated);
    if (!hasErrors()) nonField.push(...settling);

    const total = Object.values(scores).reduce((a, b) => a + b, 0);
    const balance = total - (tableTotal - depositsHeld);
    const names = [];
    for (const row of seats) {
      const found = row.found;
      if (!found || !["ambiguous", "unknown", "guest_exists"].includes(found.code)) continue;
      names.push({
        seat: labels[row.seat],
        text: strip(row.rawPlayer),
        several: found.code === "ambiguous",
        candidates: (found.candidates || []).map((m) => m.name).join("、"),
        guest_taken: found.code === "guest_exists",
      });
    }
    const refusal = [...nonField];
    for (const name of Object.keys(errors)) refusal.push(...errors[name]);
    for (const row of seats) {
      for (const name of ["player", "score", "chombo", "hands"]) refusal.push(...row.errors[name]);
    }
    const doubtSaid = { under: said.doubt_under, over: said.doubt_over, far: said.doubt_far };
    const complete = Object.keys(scores).length === rule.players;
    return {
      ready: true,
      complete,
      players: rule.players,
      entered: Object.keys(scores).length,
      total,
      held: depositsHeld,
      short: Math.max(0, -balance),
      over: Math.max(0, balance),
      excess_off_top: rule.total_policy === "excess_off_top",
      filled_seat: filledSeat === null ? "" : labels[filledSeat],
      filled_score: filledScore,
      names,
      guest_hint: names.some((n) => !(n.several || n.guest_taken)),
      scores: seats.flatMap((row) =>
        row.errors.score.map((message) => ({ seat: labels[row.seat], message })),
      ),
      deposits: [...errors.deposits_held],
      doubts: doubts.map((d) =>
        fmt(doubtSaid[d.doubt], { ...data.limits, seat: labels[d.seat], score: comma(d.score) }),
      ),
      confirm_scores: Boolean(input.confirm_scores),
      seat_names: seats.map((row) => {
        if (row.player && row.player.member) return row.player.member.name;
        if (row.player && row.player.guest) return row.player.guest.name;
        return strip(row.rawPlayer);
      }),
      problem: complete ? settling.join(" ") : "",
      refusal,
      // Each seat's score in points as read (the blank filled in), null where none: the
      // offline queue's list shows them (static/js/game_form.js).
      points: [0, 1, 2, 3].map((seat) => (seat in scores ? scores[seat] : null)),
      rows: settled ? settlementRows(settled, seats, data) : [],
      // For the offline queue's list: each seat's place, total P and chombo (when settled),
      // and its big hands as the record sheet writes them.
      settled: seats.map((row) => {
        const result = settled && settled.find((r) => r.seat === row.seat);
        return {
          place: result ? String(result.place) : "",
          total: result ? signedP(result.total) : "",
          chombo: row.chombo || 0,
          hands: formatBigHands(row.hands, data),
        };
      }),
    };
  };

  // rules.settle, in whole tenths of a P: "30,000 start and return, 100 points = 0.1 P, rank
  // points +30/+10/−10/−30, tied players share the rank points of the places they occupy
  // evenly (折半), −10 P per chombo after the places are settled", each figure the rule set's
  // (`data.rule_sets`, scoring/entry_check.py). `seats`: [{seat, score, chombo}], which
  // checkGame let through. Returns [{seat, score, final_score, place, score_points, uma, oka,
  // chombo, chombo_points, total}] in seat order, the P figures in tenths.
  const settle = (rule, seats, deposits) => {
    const players = rule.players;
    const expected = players * rule.start_points - deposits;
    // _order: "Seats from the top down; equal scores in seat order from the first dealer."
    const ordered = [...seats].sort((a, b) => b.score - a.score || a.seat - b.seat);
    const total = seats.reduce((a, s) => a + s.score, 0);
    const finalScores = {};
    for (const s of seats) finalScores[s.seat] = s.score;
    // Only EXCESS_OFF_TOP lets a table run over: the excess comes off the top.
    finalScores[ordered[0].seat] -= Math.max(0, total - expected);
    if (rule.floor_at_zero) {
      // 「箱下精算はありません」: below zero settles as 0, the points below zero off the top.
      let below = 0;
      for (const s of seats) {
        if (finalScores[s.seat] < 0) {
          below -= finalScores[s.seat];
          finalScores[s.seat] = 0;
        }
      }
      finalScores[ordered[0].seat] -= below;
    }
    // _points_to_tenths: 100 points = 0.1 P with 1,000 points a P.
    const toTenths = (pointsGiven) => (pointsGiven * 10) / rule.points_per_p;
    const okaTenths = rule.scores_count
      ? toTenths((rule.return_points - rule.start_points) * players)
      : 0;
    const okaByRank = [okaTenths, ...Array(players - 1).fill(0)];
    // _share: the sum split evenly in whole tenths (Python's divmod: the share rounded down),
    // the remaining tenths one each to the tied players from the first dealer (or the last).
    const share = (sum, tied) => {
      const base = Math.floor(sum / tied.length);
      const remainder = sum - base * tied.length;
      const inOrder = [...tied].sort((a, b) =>
        rule.split_rounding === "reverse_seat" ? b.seat - a.seat : a.seat - b.seat,
      );
      const out = {};
      inOrder.forEach((s, i) => {
        out[s.seat] = base + (i < remainder ? 1 : 0);
      });
      return out;
    };
    // Places: ties on the recorded score share the better place under SPLIT; under SEAT the
    // order from the first dealer decides.
    const groups = [];
    for (const s of ordered) {
      const last = groups[groups.length - 1];
      if (rule.tie_break === "split" && last && last[0].score === s.score) last.push(s);
      else groups.push([s]);
    }
    const places = {};
    const uma = {};
    const oka = {};
    let position = 0;
    for (const group of groups) {
      let rankSum = 0;
      let okaSum = 0;
      for (let i = position; i < position + group.length; i += 1) {
        rankSum += rule.rank_tenths[i];
        okaSum += okaByRank[i];
      }
      for (const s of group) places[s.seat] = position + 1;
      Object.assign(uma, share(rankSum, group));
      Object.assign(oka, share(okaSum, group));
      position += group.length;
    }
    return [...seats]
      .sort((a, b) => a.seat - b.seat)
      .map((s) => {
        const scoreTenths = rule.scores_count ? toTenths(finalScores[s.seat] - rule.return_points) : 0;
        const chomboTenths = -rule.chombo_tenths * (s.chombo || 0);
        return {
          seat: s.seat,
          score: s.score,
          final_score: finalScores[s.seat],
          place: places[s.seat],
          score_points: scoreTenths,
          uma: uma[s.seat],
          oka: oka[s.seat],
          chombo: s.chombo || 0,
          chombo_points: chomboTenths,
          total: scoreTenths + uma[s.seat] + oka[s.seat] + chomboTenths,
        };
      });
  };

  // scoring.notation.signed_p of tenths: +2.6 / −33.2 / 0.0.
  const signedP = (tenths) => {
    if (tenths === 0) return "0.0";
    const size = Math.abs(tenths);
    return (tenths > 0 ? "+" : MINUS) + `${Math.floor(size / 10)}.${size % 10}`;
  };
  // scoring.notation.sign_class
  const signClass = (tenths) => (tenths < 0 ? "neg" : tenths > 0 ? "pos" : "zero");

  // forms.settlement_rows: the table of places and points, each figure as shown.
  const settlementRows = (settled, seats, data) =>
    settled.map((r) => {
      const player = seats[r.seat].player;
      return {
        seat: data.seat_labels[r.seat],
        name: player.member ? player.member.name : player.guest.name,
        place: String(r.place),
        score_points: signedP(r.score_points),
        rank_points: signedP(r.uma + r.oka),
        chombo_points: r.chombo ? signedP(r.chombo_points) : "",
        total: signedP(r.total),
        total_class: signClass(r.total),
      };
    });

  // notation.format_big_hands: 満貫;役満(国士無双).
  const formatBigHands = (hands, data) =>
    hands
      .map(([level, name]) => (name ? `${data.hand_labels[level]}(${name})` : data.hand_labels[level]))
      .join(";");

  // rules.check_game (and settle's single top) as far as the device can tell, with the
  // messages of INVALID_GAME_MESSAGES, figures as invalid_game_error formats them.
  const checkGame = (rule, entries, deposits, data) => {
    const said = data.messages;
    const players = rule.players;
    const tableTotal = players * rule.start_points;
    if (entries.length !== players) {
      return fmt(said.wrong_player_count, {
        expected: comma(players),
        given: comma(entries.length),
      });
    }
    const seatNumbers = entries.map((row) => row.seat).sort((a, b) => a - b);
    if (seatNumbers.some((seat, i) => seat !== i)) {
      return fmt(said.seat_missing, { players: comma(players) });
    }
    const held = deposits === null ? 0n : deposits;
    if (held < 0n || held % BigInt(data.deposit_unit) || held > BigInt(tableTotal)) {
      return fmt(said.bad_deposits, { deposits: comma(held), unit: comma(data.deposit_unit) });
    }
    if (held && !rule.holds_deposits) return fmt(said.deposits_not_held, { deposits: comma(held) });
    // "The four scores must add up to 4 × 30,000, less any riichi deposits held"; an excess
    // stands under EXCESS_OFF_TOP, a shortfall under EXCESS_OFF_TOP and SHORT_ALLOWED.
    const expected = tableTotal - Number(held);
    const total = entries.reduce((a, row) => a + row.score, 0);
    const policy = rule.total_policy;
    const shortStands = policy === "excess_off_top" || policy === "short_allowed";
    const overStands = policy === "excess_off_top";
    if ((total < expected && !shortStands) || (total > expected && !overStands)) {
      const code = total < expected ? "table_short" : "table_over";
      return fmt(said[code], {
        total: comma(total),
        expected: comma(expected),
        difference: comma(Math.abs(total - expected)),
      });
    }
    if (rule.single_top && entries.length > 1) {
      const ordered = [...entries].sort((a, b) => b.score - a.score || a.seat - b.seat);
      if (ordered[0].score === ordered[1].score) {
        return fmt(said.tied_top, { score: comma(ordered[0].score) });
      }
    }
    return null;
  };

  // django.utils.html.json_script's escapes.
  const jsonScript = (value, id) => {
    const json = JSON.stringify(value)
      .replace(/&/g, "\\u0026")
      .replace(/</g, "\\u003C")
      .replace(/>/g, "\\u003E");
    return `<script id="${id}" type="application/json">${json}</script>`;
  };

  // forms.settlement_lines: the live check's lines above the doubtful scores, as data: each
  // line's class, the message it says (a key of forms.SETTLEMENT_MESSAGES; "" for a message
  // the check said already, in `text` alone), its parameters as shown, and its text. The same
  // lines as the server's of the same form (the table of cases holds the two to each other).
  const settlementLines = (result, data) => {
    const lines = [];
    const say = (css, key, params = {}) =>
      lines.push({ class: css, say: key, params, text: fmt(data.messages[key], params) });
    for (const n of result.names) {
      let key;
      if (n.guest_taken) key = "name_guest_taken";
      else if (n.several) key = "name_several";
      else key = n.candidates ? "name_close" : "name_nobody";
      say("check bad", key, { seat: n.seat, text: n.text, names: n.candidates });
    }
    if (result.guest_hint) say("help", "guest_hint");
    for (const e of result.deposits) lines.push({ class: "check bad", say: "", params: {}, text: e });
    for (const s of result.scores) {
      say("check bad", "seat_message", { seat: s.seat, message: s.message });
    }
    const total = points(result.total);
    if (!result.complete) {
      const n = String(result.entered);
      say("check", "so_far", { n, players: String(result.players), total });
    } else if (result.short) {
      say("check bad", "total_short", { total, short: points(result.short) });
    } else if (result.over && result.excess_off_top) {
      say("check warn", "total_over_off_top", { total, over: points(result.over) });
    } else if (result.over) {
      say("check bad", "total_over", { total, over: points(result.over) });
    } else if (result.held) {
      // 預かり: the table is short by exactly the deposits held, and says so.
      const held = points(result.held);
      say("check ok", "total_ok_held", { total, held, expected: points(result.total + result.held) });
    } else {
      say("check ok", "total_ok", { total });
    }
    if (result.filled_seat) {
      say("filled", "filled", { seat: result.filled_seat, score: points(result.filled_score) });
    }
    return lines;
  };

  // The inside of <section id="settlement">, as the template's partial `settlement` draws it.
  const render = (result, data) => {
    const said = data.messages;
    const line = (cls, text) => `<p class="${cls}">${escape(text)}</p>`;
    if (!result.ready) return line("muted", said.placeholder);
    const out = settlementLines(result, data).map((l) => line(l.class, l.text));
    if (result.doubts.length) {
      // As Django draws the box: marked invalid while unticked (the save is refused then).
      const box = result.confirm_scores
        ? '<input type="checkbox" name="confirm_scores" id="id_confirm_scores" checked>'
        : '<input type="checkbox" name="confirm_scores" aria-invalid="true" id="id_confirm_scores">';
      out.push(
        '<div class="score-doubts">' +
          result.doubts.map((d) => line("check warn", d)).join("") +
          `<label class="choice">${box} ${escape(said.save_anyway)}</label></div>`,
      );
    }
    out.push(jsonScript(result.seat_names, "seat-names"));
    if (result.problem) out.push(line("field-error", result.problem));
    if (result.rows.length) {
      const head = (key, cls) => `<th scope="col"${cls ? ` class="${cls}"` : ""}>${escape(said[key])}</th>`;
      const num = (text, cls = "num") => `<td class="${cls}">${escape(text)}</td>`;
      out.push(
        '<table class="results preview"><thead><tr>' +
          head("head_seat") +
          ["head_place", "head_score_p", "head_rank_p", "head_chombo", "head_total_p"]
            .map((key) => head(key, "num"))
            .join("") +
          "</tr></thead><tbody>" +
          result.rows
            .map(
              (r) =>
                `<tr><td><span class="seat">${escape(r.seat)}</span> <span class="name">${escape(r.name)}</span></td>` +
                num(r.place) +
                num(r.score_points) +
                num(r.rank_points) +
                num(r.chombo_points) +
                num(r.total, `num strong ${r.total_class}`) +
                "</tr>",
            )
            .join("") +
          "</tbody></table>",
      );
    }
    return out.join("\n");
  };

  const api = { read, check, settle, settlementLines, render, parseScore, normaliseName };
  root.ShirakabaCheck = api;
  if (typeof module !== "undefined") module.exports = api;
})(typeof self !== "undefined" ? self : globalThis);
