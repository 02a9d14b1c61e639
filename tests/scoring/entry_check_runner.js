// Runs the table of cases (tests/scoring/entry_check_cases.json) against the JavaScript check,
// static/js/entry_check.js, each with the data scoring.entry_check.entry_check_data made for it.
//
//   node tests/scoring/entry_check_runner.js CASES.json
//
// CASES.json: [{name, input, data, expected, render_contains?, render_lacks?, lines?, rows?,
// server_lines?}],
// written by
// tests/scoring/test_entry_check.py. Prints one line per case that differs and exits 1 then;
// prints "N cases" and exits 0 when every case gives its expected values.
"use strict";

const fs = require("fs");
const path = require("path");
const check = require(path.join(__dirname, "..", "..", "static", "js", "entry_check.js"));

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const failures = [];
for (const c of cases) {
  let result;
  let html;
  try {
    result = check.check(c.input, c.data);
    html = check.render(result, c.data);
  } catch (error) {
    failures.push({ case: c.name, error: String(error && error.stack) });
    continue;
  }
  for (const [key, want] of Object.entries(c.expected)) {
    if (!same(result[key], want)) failures.push({ case: c.name, key, want, got: result[key] });
  }
  if (c.lines) {
    // The live check's lines as data, as the server makes them of the same form.
    const lines = result.ready ? check.settlementLines(result, c.data) : [];
    if (!same(lines, c.lines)) failures.push({ case: c.name, key: "lines", want: c.lines, got: lines });
  }
  if (c.rows) {
    // The table of places and points, as the server makes it of the same form.
    const rows = result.rows || [];
    if (!same(rows, c.rows)) failures.push({ case: c.name, key: "rows", want: c.rows, got: rows });
  }
  if (c.server_lines) {
    // The live check's lines as the server's partial draws them.
    const lines = html.match(/<p class="[^"]*">.*?<\/p>/gs) || [];
    if (!same(lines, c.server_lines)) {
      failures.push({ case: c.name, key: "render", want: c.server_lines, got: lines });
    }
  }
  for (const text of c.render_contains || []) {
    if (!html.includes(text)) failures.push({ case: c.name, render_lacks: text, html });
  }
  for (const text of c.render_lacks || []) {
    if (html.includes(text)) failures.push({ case: c.name, render_has: text, html });
  }
}
for (const failure of failures) console.log(JSON.stringify(failure));
console.log(`${cases.length} cases, ${failures.length} differences`);
process.exit(failures.length || !cases.length ? 1 : 0);
