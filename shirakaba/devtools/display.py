"""What a page offers older eyes and hands, read in the browser: its touch targets, whether it
scrolls sideways, how much of its text is under 16 px, and boxes that cut their text off.
Used by manage.py measure_display and by the browser tests (tests/browser/test_display.py)."""

from typing import Any

# One pass over the page, in the page: targets, sideways scroll, small text, cut-off boxes.
PROBE = r"""
() => {
  const px = (v) => parseFloat(v) || 0;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0';
  };
  const name = (el) => (el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '') + ' 「' + (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 14) + '」');
  // A link in running text: shown inline, inside a paragraph or list item that has text of its own.
  const inText = (el) => {
    if (getComputedStyle(el).display !== 'inline') return false;
    const block = el.closest('p, li, dd, .help, .note, .lead');
    if (!block || el.closest('nav, table, .actions, .card-actions, .tabs, .downloads')) return false;
    const own = block.innerText.replace(el.innerText, '').trim();
    return own.length > 8;
  };
  const targets = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    if (!visible(el) && !(el.matches('input[type=checkbox], input[type=radio]'))) continue;
    if (el.closest('details:not([open]) > :not(summary)')) continue;
    let box = el;
    if (el.matches('input[type=checkbox], input[type=radio]')) {
      box = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
    }
    if (!visible(box) || seen.has(box)) continue;
    seen.add(box);
    if (el.matches('a') && inText(el)) continue;
    const r = box.getBoundingClientRect();
    if (r.right <= 0) continue;  // off the screen until focused (the skip link)
    const row = !!el.closest('table tbody tr') && !el.closest('table.entry');
    targets.push({what: name(box), w: Math.round(r.width), h: Math.round(r.height), row});
  }
  const doc = document.documentElement;
  const sideways = doc.scrollWidth - doc.clientWidth;
  // Text under 16 px: characters of visible text, by the size they are drawn in.
  let all = 0, small = 0;
  const smallWhere = {};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent.replace(/\s+/g, '');
    if (!t) continue;
    const el = n.parentElement;
    if (!el || el.closest('script, style, template, noscript, [hidden]') || !visible(el)) continue;
    if (el.closest('details:not([open]) > :not(summary)')) continue;
    const size = px(getComputedStyle(el).fontSize);
    all += t.length;
    if (size < 15.95) {
      small += t.length;
      const key = name(el).slice(0, 40) + ' ' + size.toFixed(1) + 'px';
      smallWhere[key] = (smallWhere[key] || 0) + t.length;
    }
  }
  // Boxes that cut their text off: inputs narrower than their value, and elements that hide
  // what overflows them (not scroll boxes) with more inside than shown.
  const cut = [];
  for (const el of document.querySelectorAll('input[type=text], input[type=number], input:not([type]), select')) {
    if (!visible(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) cut.push(name(el) + ' ' + el.clientWidth + '<' + el.scrollWidth);
  }
  for (const el of document.querySelectorAll('body *')) {
    const s = getComputedStyle(el);
    if (!['hidden', 'clip'].includes(s.overflowX) || !visible(el)) continue;
    if (el.matches('.visually-hidden, .skip-link')) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.innerText.trim()) cut.push(name(el) + ' ' + el.clientWidth + '<' + el.scrollWidth);
  }
  const header = document.querySelector('.site-header');
  return {targets, sideways, all, small, smallWhere, cut,
          header: header ? Math.round(header.getBoundingClientRect().height) : 0,
          viewport: innerHeight};
}
"""


def small_targets(probe: dict[str, Any], under: int = 44, rows: bool = False) -> list[str]:
    """The targets of one PROBE smaller than `under` px either way (a data table's row links
    left out unless `rows`)."""
    return [
        f"{t['what']} {t['w']}×{t['h']}"
        for t in probe["targets"]
        if min(t["w"], t["h"]) < under and (rows or not t["row"])
    ]
