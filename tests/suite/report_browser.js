// Appended to a copy of report.html by tests/suite/report_browser.rs and run by headless Chromium
// (--dump-dom): measures the page as laid out and writes what it found, as JSON, into
// <pre id="layout-findings">. It decides nothing; the test reads the JSON and asserts.
(function () {
  "use strict";
  const findings = {};
  for (const d of document.querySelectorAll("details")) {
    d.open = true; // every file's text laid out, so its box is measured too
  }

  // Whether the segment a-b passes through box b (Liang-Barsky clipping).
  function meets(a, c, box) {
    const dx = c[0] - a[0];
    const dy = c[1] - a[1];
    let t0 = 0;
    let t1 = 1;
    const sides = [
      [-dx, a[0] - box.x],
      [dx, box.x + box.width - a[0]],
      [-dy, a[1] - box.y],
      [dy, box.y + box.height - a[1]],
    ];
    for (const [p, q] of sides) {
      if (p === 0) {
        if (q < 0) return false;
      } else if (p < 0) {
        t0 = Math.max(t0, q / p);
      } else {
        t1 = Math.min(t1, q / p);
      }
    }
    return t0 <= t1;
  }

  function overlaps(a, b) {
    return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
  }

  // 1. Convergence plots: the box of the exact value's label against the simulated line (the
  //    unfilled polyline) and its dots, in the figure's own coordinates.
  findings.convergence = [];
  for (const svg of document.querySelectorAll("figure svg")) {
    const line = [...svg.querySelectorAll("polyline")].find((p) => p.getAttribute("fill") === "none");
    if (!line) continue;
    const label = [...svg.querySelectorAll("text")].find((t) => /^exact [-+]?[0-9]/.test(t.textContent));
    const found = { title: svg.querySelector("text").textContent, label: null, segments_crossed: 0, dots_covered: 0 };
    if (label) {
      const box = label.getBBox();
      const points = line.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
      found.label = label.textContent;
      for (let i = 0; i + 1 < points.length; i++) {
        if (meets(points[i], points[i + 1], box)) found.segments_crossed++;
      }
      for (const dot of svg.querySelectorAll("circle")) {
        if (overlaps(box, dot.getBBox())) found.dots_covered++;
      }
    }
    findings.convergence.push(found);
  }

  // 2. Forest plots: what the browser shows on top at each pixel of every interval. A 95%
  //    interval is a line of stroke width 5, a 99% interval one of 1.2; each is sampled along
  //    its length, one point a pixel, and document.elementFromPoint names the element painted
  //    there.
  function screen(svg, el, x, y) {
    const p = svg.createSVGPoint();
    p.x = x;
    p.y = y;
    return p.matrixTransform(el.getScreenCTM());
  }
  function samples(el) {
    const [x1, x2, y] = ["x1", "x2", "y1"].map((a) => Number(el.getAttribute(a)));
    const [lo, hi] = [Math.min(x1, x2), Math.max(x1, x2)];
    const out = [];
    if (hi - lo < 1) {
      out.push([(lo + hi) / 2, y]);
    } else {
      for (let x = lo + 0.5; x <= hi - 0.5; x += 1) out.push([x, y]);
    }
    return out;
  }
  findings.forest = { bars: 0, bar_points: 0, bar_points_hidden: 0, thin_points: 0, thin_points_hidden: 0, marks: 0, marks_shown: 0, hidden_by: [] };
  const forest = findings.forest;
  const horizontal = (l) => l.getAttribute("y1") === l.getAttribute("y2");
  for (const svg of document.querySelectorAll("figure svg")) {
    const bars = [...svg.querySelectorAll('line[stroke-width="5"]')].filter(horizontal);
    if (bars.length === 0) continue;
    svg.scrollIntoView({ block: "center" });
    // A 99% interval's end caps are vertical lines of the same width: part of it.
    const thin = [...svg.querySelectorAll('line[stroke-width="1.2"]')];
    const intervals = new Set(bars.concat(thin));
    for (const bar of bars) {
      forest.bars++;
      for (const [x, y] of samples(bar)) {
        const p = screen(svg, bar, x, y);
        const top = document.elementFromPoint(p.x, p.y);
        forest.bar_points++;
        if (top !== bar) {
          forest.bar_points_hidden++;
          forest.hidden_by.push(top ? top.tagName : "nothing");
        }
      }
    }
    for (const line of thin.filter(horizontal)) {
      for (const [x, y] of samples(line)) {
        const p = screen(svg, line, x, y);
        const top = document.elementFromPoint(p.x, p.y);
        forest.thin_points++;
        if (!intervals.has(top)) {
          forest.thin_points_hidden++;
          forest.hidden_by.push(top ? top.tagName : "nothing");
        }
      }
    }
    for (const mark of svg.querySelectorAll("line.estimate")) {
      forest.marks++;
      const x = Number(mark.getAttribute("x1"));
      const ys = ["y1", "y2"].map((a) => Number(mark.getAttribute(a)));
      const ends = [Math.min(...ys) + 1.5, Math.max(...ys) - 1.5].map((y) => screen(svg, mark, x, y));
      if (ends.every((p) => document.elementFromPoint(p.x, p.y) === mark)) forest.marks_shown++;
    }
  }

  // 3. Preformatted boxes (command lines, files): whether their text fits the box's width.
  findings.boxes = [...document.querySelectorAll("pre")].map((pre) => ({
    text: pre.textContent.slice(0, 80),
    scroll_width: pre.scrollWidth,
    client_width: pre.clientWidth,
  }));

  // The sections of a heading: the elements after it up to the next heading of its level or
  // above.
  function section(heading) {
    const level = Number(heading.tagName[1]);
    const out = [];
    for (let el = heading.nextElementSibling; el; el = el.nextElementSibling) {
      if (/^H[1-6]$/.test(el.tagName) && Number(el.tagName[1]) <= level) break;
      out.push(el);
    }
    return out;
  }
  const headings = (tag, pattern) => [...document.querySelectorAll(tag)].filter((h) => pattern.test(h.textContent));
  const top = (el) => el.getBoundingClientRect().top + window.scrollY;

  // 4. The house ways' words "above" and "below" against where the way they name is.
  findings.way_claims = [];
  for (const h3 of headings("h3", /^House ways and strategies$/)) {
    const part = section(h3);
    const ways = part.filter((el) => el.tagName === "H4");
    for (const p of part.filter((el) => el.tagName === "P")) {
      let target = null;
      let claim = null;
      const link = p.querySelector('a[href^="#"]');
      const named = p.textContent.match(/house way (\S+?) \((above|below)\)/);
      if (link && /\b(above|below)\b/.test(p.textContent)) {
        target = document.getElementById(link.getAttribute("href").slice(1));
        claim = p.textContent.match(/\b(above|below)\b/)[1];
      } else if (named) {
        const own = ways.filter((h) => top(h) < top(p)).pop();
        target = ways.find((h) => h !== own && h.textContent.toLowerCase().startsWith(named[1].toLowerCase()));
        claim = named[2];
      }
      if (!claim) continue;
      findings.way_claims.push({
        text: p.textContent,
        claim: claim,
        found: Boolean(target),
        target_is_above: Boolean(target) && top(target) < top(p),
      });
    }
  }

  // 5 and 6. Each wager's section: the first column of the first table under each "Exact:" and
  // "Simulated:" heading (its returns table), and the whole text of each simulated one.
  findings.wagers = [];
  for (const h3 of headings("h3", /^(Main wager|Side bet: .*)$/)) {
    const wager = { name: h3.textContent, exact: [], simulated: [], simulated_tables: [], simulated_runs: 0 };
    for (const h4 of section(h3).filter((el) => el.tagName === "H4")) {
      const kind = h4.textContent.startsWith("Exact:") ? "exact" : h4.textContent.startsWith("Simulated:") ? "simulated" : null;
      if (!kind) continue;
      if (kind === "simulated") wager.simulated_runs++;
      const table = section(h4).map((el) => el.querySelector("table")).find(Boolean);
      if (!table) continue;
      const labels = [...table.querySelectorAll("tbody tr")]
        .map((tr) => tr.cells[0].textContent)
        .filter((l) => l !== "Total");
      wager[kind].push(labels);
      if (kind === "simulated") wager.simulated_tables.push(table.textContent);
    }
    findings.wagers.push(wager);
  }

  const out = document.createElement("pre");
  out.id = "layout-findings";
  out.textContent = JSON.stringify(findings);
  document.body.appendChild(out);
})();
