//! Figures as SVG: a convergence plot (a running estimate with its band, on a log axis, and a
//! reference line), horizontal bars, and a forest plot (estimates with nested intervals).
//! Labels and marks are placed so that none covers the data it stands beside: the exact value's
//! label keeps clear of the simulated line, and a forest plot's marks lie under its intervals
//! (`tests/suite/report_browser.rs` measures both in Chromium).
//!
//! Each drawing is a standalone `<svg>` element with a `viewBox`, so it scales in a page and
//! opens on its own; it uses no fonts or resources beyond a generic font family. Invariants:
//! every text is XML-escaped; every coordinate is finite (values are clamped into the plot
//! range, which is never empty); the output depends only on the inputs (fixed decimals).

use std::fmt::Write as _;

use super::html::escape;

const WIDTH: f64 = 760.0;
const FONT: &str = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";
const BLUE: &str = "#1f5fa8";
const BAND: &str = "#9ec3ea";
const RED: &str = "#c0392b";
const GRID: &str = "#e3e6ea";
const AXIS: &str = "#57606a";

/// A linear or base-10 logarithmic map from values to pixels.
#[derive(Clone, Copy, Debug)]
struct Scale {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
    log: bool,
}

impl Scale {
    fn new(lo: f64, hi: f64, from: f64, to: f64, log: bool) -> Scale {
        // Finite ends, low below high (and above zero on a log scale), whatever the data: `at`
        // clamps into them.
        let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
            (true, true) if hi > lo && (!log || lo > 0.0) => (lo, hi),
            (true, _) if log && lo > 0.0 => (lo, lo * 10.0),
            _ if log => (1.0, 10.0),
            (true, _) => (lo - 1.0, lo + 1.0),
            _ => (0.0, 1.0),
        };
        Scale {
            lo,
            hi,
            from,
            to,
            log,
        }
    }

    fn at(&self, v: f64) -> f64 {
        let t = |x: f64| {
            if self.log {
                x.max(f64::MIN_POSITIVE).log10()
            } else {
                x
            }
        };
        let f = (t(v.clamp(self.lo, self.hi)) - t(self.lo)) / (t(self.hi) - t(self.lo));
        self.from + f * (self.to - self.from)
    }
}

/// About `count` round tick values covering `[lo, hi]`.
fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = (hi - lo).max(f64::EPSILON);
    let raw = span / count.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Decimals that tell ticks `step` apart.
fn decimals_for(step: f64) -> usize {
    if step <= 0.0 {
        return 2;
    }
    (-(step.log10().floor())).max(0.0) as usize
        + usize::from(step / 10f64.powf(step.log10().floor()) == 2.5)
}

/// A percentage label for a fraction `v` with `decimals` decimals of percent.
fn percent(v: f64, decimals: usize) -> String {
    let text = format!("{:.*}%", decimals, 100.0 * v);
    if text
        .trim_start_matches('-')
        .trim_matches(|c| c == '0' || c == '.' || c == '%')
        .is_empty()
    {
        format!("{:.*}%", decimals, 0.0)
    } else {
        text
    }
}

/// A count for a log axis: 1k, 10k, 1M, 1G ...
fn count_label(v: f64) -> String {
    let units = [(1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (size, suffix) in units {
        if v >= size {
            return format!("{}{suffix}", (v / size).round());
        }
    }
    format!("{}", v.round())
}

/// Opens an SVG of `height` pixels with a title line.
fn open(height: f64, title: &str) -> String {
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {WIDTH} {height:.0}\" role=\"img\" {FONT} font-size=\"12\">\n\
         <rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height:.0}\" fill=\"#ffffff\"/>\n"
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"20\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\">{}</text>",
        WIDTH / 2.0,
        escape(title)
    );
    out
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
    let _ = writeln!(
        out,
        "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {style}/>"
    );
}

fn label(out: &mut String, (x, y): (f64, f64), anchor: &str, text: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" stroke=\"#ffffff\" \
         stroke-width=\"3\" paint-order=\"stroke\">{}</text>",
        escape(text)
    );
}

/// A vertical value axis (percent) with grid lines across `[x0, x1]`.
fn y_axis(out: &mut String, y: &Scale, x0: f64, x1: f64, title: &str) {
    let marks = ticks(y.lo, y.hi, 6);
    let step = marks.windows(2).map(|w| w[1] - w[0]).next().unwrap_or(1.0);
    for v in marks {
        let py = y.at(v);
        line(out, (x0, py), (x1, py), &format!("stroke=\"{GRID}\""));
        label(
            out,
            (x0 - 6.0, py + 4.0),
            "end",
            &percent(v, decimals_for(100.0 * step)),
        );
    }
    let (cy, cx) = ((y.from + y.to) / 2.0, 16.0);
    let _ = writeln!(
        out,
        "<text x=\"{cx}\" y=\"{cy:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 {cx} {cy:.1})\">{}</text>",
        escape(title)
    );
}

/// One point of a convergence plot: after `deals` deals, the estimate and its 95% band.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunningPoint {
    pub deals: f64,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

/// A running estimate (line) with its band (shaded) against the deals (log axis), and where
/// known the exact value (a dashed line).
pub fn convergence(title: &str, points: &[RunningPoint], exact: Option<f64>) -> String {
    let (left, right, top, bottom, height) = (86.0, 24.0, 36.0, 76.0, 360.0);
    let mut out = open(height, title);
    let xs = || points.iter().map(|p| p.deals);
    let first = xs().fold(f64::INFINITY, f64::min).max(1.0);
    let power = 10f64.powf(first.log10().floor());
    let first = if first < 1.1 * power { power } else { first };
    let x = Scale::new(first, xs().fold(1.0, f64::max), left, WIDTH - right, true);
    let mut values: Vec<f64> = points.iter().flat_map(|p| [p.low, p.high]).collect();
    values.extend(exact);
    let (lo, hi) = padded_range(&values);
    let y = Scale::new(lo, hi, height - bottom, top, false);
    y_axis(&mut out, &y, left, WIDTH - right, "player EV per unit bet");
    log_x_axis(&mut out, &x, height - bottom, "deals (log scale)");
    if points.len() > 1 {
        let upper = points.iter().map(|p| (x.at(p.deals), y.at(p.high)));
        let lower = points.iter().rev().map(|p| (x.at(p.deals), y.at(p.low)));
        let _ = writeln!(
            out,
            "<polygon points=\"{}\" fill=\"{BAND}\" fill-opacity=\"0.55\" stroke=\"none\"/>",
            path(upper.chain(lower))
        );
        let mid = points.iter().map(|p| (x.at(p.deals), y.at(p.estimate)));
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{BLUE}\" stroke-width=\"2\"/>",
            path(mid)
        );
    }
    for p in points {
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{BLUE}\"/>",
            x.at(p.deals),
            y.at(p.estimate)
        );
    }
    if let Some(e) = exact {
        let py = y.at(e);
        line(
            &mut out,
            (left, py),
            (WIDTH - right, py),
            &format!("stroke=\"{RED}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\""),
        );
        let words = format!("exact {}", percent(e, 4));
        let simulated: Vec<(f64, f64)> = (points.iter())
            .map(|p| (x.at(p.deals), y.at(p.estimate)))
            .collect();
        let plot = Box2 {
            x0: left,
            y0: top,
            x1: WIDTH - right,
            y1: height - bottom,
        };
        if let Some(at) = clear_spot(&words, py, &plot, &simulated) {
            label(&mut out, at, "start", &words);
        }
    }
    legend(&mut out, left, height - 14.0, exact.map(|e| percent(e, 4)));
    out.push_str("</svg>\n");
    out
}

/// A rectangle in pixels, `x0 <= x1` and `y0 <= y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Box2 {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Box2 {
    fn contains(&self, (x, y): (f64, f64)) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    fn holds(&self, other: &Box2) -> bool {
        self.contains((other.x0, other.y0)) && self.contains((other.x1, other.y1))
    }

    fn overlaps(&self, other: &Box2) -> bool {
        self.x0 <= other.x1 && other.x0 <= self.x1 && self.y0 <= other.y1 && other.y0 <= self.y1
    }

    /// Whether the segment from `a` to `b` passes through the box (Liang-Barsky clipping).
    fn meets_segment(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else if p < 0.0 {
                t0 = t0.max(q / p);
            } else {
                t1 = t1.min(q / p);
            }
        }
        t0 <= t1
    }
}

/// The box a 12-pixel label of `words` takes when written from `(x, y)` (anchored at its
/// start), its white halo and a margin included. Glyphs are taken as 7.6 pixels wide, the
/// widest digit of the sans-serif fonts named (a `%` is wider, so it counts twice).
fn label_box(words: &str, (x, y): (f64, f64)) -> Box2 {
    let chars = words.chars().map(|c| if c == '%' { 2.0 } else { 1.0 });
    let width = 7.6 * chars.sum::<f64>() + 8.0;
    Box2 {
        x0: x - 4.0,
        y0: y - 14.0,
        x1: x - 4.0 + width,
        y1: y + 6.0,
    }
}

/// Where the exact value's label `words` goes beside its dashed line at height `py`: the first
/// place along the line, from the left end to the right, above the line and then below (just
/// off it, then a little farther), whose box stays inside `plot` and clear of the simulated
/// line (`simulated`, its dots included).
/// `None` where there is none (the legend gives the value then).
fn clear_spot(words: &str, py: f64, plot: &Box2, simulated: &[(f64, f64)]) -> Option<(f64, f64)> {
    let width = label_box(words, (0.0, 0.0)).x1;
    let (first, last) = (plot.x0 + 8.0, plot.x1 - width);
    let steps = 12;
    let xs = (0..=steps).map(|i| first + (last - first) * f64::from(i) / f64::from(steps));
    let dot = |&(x, y): &(f64, f64)| Box2 {
        x0: x - 4.0,
        y0: y - 4.0,
        x1: x + 4.0,
        y1: y + 4.0,
    };
    let clear = |b: &Box2| {
        plot.holds(b)
            && simulated.windows(2).all(|s| !b.meets_segment(s[0], s[1]))
            && simulated.iter().map(dot).all(|d| !b.overlaps(&d))
    };
    // Just above or below the line first, then a little farther off.
    let offsets = [[-6.0, 16.0], [-18.0, 28.0]];
    (offsets.iter())
        .flat_map(|pair| xs.clone().flat_map(move |x| pair.map(|dy| (x, py + dy))))
        .find(|&at| clear(&label_box(words, at)))
}

/// The legend of a convergence plot, with the exact value where known.
fn legend(out: &mut String, x: f64, y: f64, exact: Option<String>) {
    let _ = writeln!(
        out,
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"18\" height=\"10\" fill=\"{BAND}\"/>",
        y - 9.0
    );
    label(out, (x + 24.0, y), "start", "95% interval");
    line(
        out,
        (x + 130.0, y - 4.0),
        (x + 150.0, y - 4.0),
        &format!("stroke=\"{BLUE}\" stroke-width=\"2\""),
    );
    label(
        out,
        (x + 156.0, y),
        "start",
        "simulated EV after that many deals",
    );
    if let Some(value) = exact {
        line(
            out,
            (x + 400.0, y - 4.0),
            (x + 420.0, y - 4.0),
            &format!("stroke=\"{RED}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\""),
        );
        label(out, (x + 426.0, y), "start", &format!("exact EV, {value}"));
    }
}

/// A log axis along the bottom with a tick at each power of ten in range.
fn log_x_axis(out: &mut String, x: &Scale, y: f64, title: &str) {
    line(out, (x.from, y), (x.to, y), &format!("stroke=\"{AXIS}\""));
    let (first, last) = (x.lo.log10().ceil() as i32, x.hi.log10().floor() as i32);
    for power in first..=last {
        let v = 10f64.powi(power);
        let px = x.at(v);
        line(out, (px, y), (px, y + 5.0), &format!("stroke=\"{AXIS}\""));
        label(out, (px, y + 18.0), "middle", &count_label(v));
    }
    label(out, ((x.from + x.to) / 2.0, y + 34.0), "middle", title);
}

/// Points as an SVG `points` attribute.
fn path(points: impl Iterator<Item = (f64, f64)>) -> String {
    let parts: Vec<String> = points.map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    parts.join(" ")
}

/// The range of `values` with 6% padding (a unit range around a single value).
fn padded_range(values: &[f64]) -> (f64, f64) {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let pad = ((hi - lo) * 0.06)
        .max(hi.abs().max(lo.abs()) * 1e-6)
        .max(1e-9);
    (lo - pad, hi + pad)
}

/// Horizontal bars, one per `(label, value)` (fractions, drawn in percent), from a zero line.
pub fn bars(title: &str, rows: &[(String, f64)], axis_title: &str) -> String {
    let row_height = 24.0;
    let left = label_width(rows.iter().map(|(l, _)| l.as_str()));
    let (right, top, bottom) = (90.0, 38.0, 46.0);
    let height = top + bottom + row_height * rows.len() as f64;
    let mut out = open(height, title);
    let mut values: Vec<f64> = rows.iter().map(|(_, v)| *v).collect();
    values.push(0.0);
    let (lo, hi) = padded_range(&values);
    let x = Scale::new(lo, hi, left, WIDTH - right, false);
    value_axis(&mut out, &x, top, height - bottom, axis_title);
    let zero = x.at(0.0);
    for (i, (name, v)) in rows.iter().enumerate() {
        let y = top + row_height * i as f64;
        let (a, b) = (zero.min(x.at(*v)), zero.max(x.at(*v)));
        let fill = if *v < 0.0 { RED } else { BLUE };
        let _ = writeln!(
            out,
            "<rect x=\"{a:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"/>",
            y + 4.0,
            (b - a).max(0.5),
            row_height - 8.0
        );
        label(
            &mut out,
            (left - 8.0, y + row_height / 2.0 + 4.0),
            "end",
            name,
        );
        let at = if *v < 0.0 { a - 4.0 } else { b + 4.0 };
        let anchor = if *v < 0.0 { "end" } else { "start" };
        let anchor = if *v < 0.0 && at < left + 50.0 {
            "start"
        } else {
            anchor
        };
        let at = if anchor == "start" && *v < 0.0 {
            b + 4.0
        } else {
            at
        };
        label(
            &mut out,
            (at, y + row_height / 2.0 + 4.0),
            anchor,
            &percent(*v, 4),
        );
    }
    line(
        &mut out,
        (zero, top),
        (zero, height - bottom),
        &format!("stroke=\"{AXIS}\""),
    );
    out.push_str("</svg>\n");
    out
}

/// The left margin for these labels (about 6.8 pixels a character at 12 px), within bounds.
fn label_width<'a>(labels: impl Iterator<Item = &'a str>) -> f64 {
    let longest = labels.map(|l| l.chars().count()).max().unwrap_or(0);
    (longest as f64 * 6.8 + 16.0).clamp(90.0, 330.0)
}

/// A horizontal value axis (percent) along the bottom with vertical grid lines.
fn value_axis(out: &mut String, x: &Scale, top: f64, y: f64, title: &str) {
    let marks = ticks(x.lo, x.hi, 6);
    let step = marks.windows(2).map(|w| w[1] - w[0]).next().unwrap_or(1.0);
    for v in marks {
        let px = x.at(v);
        line(out, (px, top), (px, y), &format!("stroke=\"{GRID}\""));
        label(
            out,
            (px, y + 16.0),
            "middle",
            &percent(v, decimals_for(100.0 * step)),
        );
    }
    line(out, (x.from, y), (x.to, y), &format!("stroke=\"{AXIS}\""));
    label(out, ((x.from + x.to) / 2.0, y + 34.0), "middle", title);
}

/// One row of a forest plot: an estimate with its 95% and 99% intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct ForestRow {
    pub label: String,
    pub estimate: f64,
    pub ci95: (f64, f64),
    pub ci99: (f64, f64),
}

/// The colour of a forest plot's estimate marks.
const INK: &str = "#1b1f24";

/// A forest plot: each row's 95% interval (a thick bar), its 99% interval (a thin line with
/// end caps) and its estimate (a tall thin mark), against a zero line, with the three values
/// written at the row's right.
///
/// Invariant: no mark is drawn over an interval. The estimate's mark is drawn first and is taller
/// than the bars, so it shows above and below them, and an interval narrower than any mark
/// still shows, on top of it; the written values give each interval whatever the scale (pairs
/// whose differences are far apart leave the close ones a few pixels wide).
pub fn forest(title: &str, rows: &[ForestRow], axis_title: &str) -> String {
    let row_height = 26.0;
    let left = label_width(rows.iter().map(|r| r.label.as_str()));
    let values: Vec<String> = rows.iter().map(forest_values).collect();
    let right = label_width(values.iter().map(String::as_str)).max(120.0) + 8.0;
    let (top, bottom) = (38.0, 64.0);
    let height = top + bottom + row_height * rows.len() as f64;
    let mut out = open(height, title);
    let mut ends: Vec<f64> = rows.iter().flat_map(|r| [r.ci99.0, r.ci99.1]).collect();
    ends.push(0.0);
    let (lo, hi) = padded_range(&ends);
    let x = Scale::new(lo, hi, left, WIDTH - right, false);
    value_axis(&mut out, &x, top, height - bottom, axis_title);
    let zero = x.at(0.0);
    line(
        &mut out,
        (zero, top),
        (zero, height - bottom),
        &format!("stroke=\"{AXIS}\" stroke-dasharray=\"4 3\""),
    );
    for (i, (r, written)) in rows.iter().zip(&values).enumerate() {
        let y = top + row_height * (i as f64 + 0.5);
        forest_row(&mut out, &x, y, r);
        label(&mut out, (left - 8.0, y + 4.0), "end", &r.label);
        label(&mut out, (WIDTH - right + 10.0, y + 4.0), "start", written);
    }
    forest_legend(&mut out, left, height - 12.0);
    out.push_str("</svg>\n");
    out
}

/// A forest row's estimate and 95% interval in words: "+0.01% [-0.15%, +0.13%]".
fn forest_values(r: &ForestRow) -> String {
    let signed = |v: f64| {
        let text = percent(v, 2);
        if text.starts_with('-') {
            text
        } else {
            format!("+{text}")
        }
    };
    format!(
        "{} [{}, {}]",
        signed(r.estimate),
        signed(r.ci95.0),
        signed(r.ci95.1)
    )
}

/// One forest row at height `y`: the estimate's mark, then the intervals over it.
fn forest_row(out: &mut String, x: &Scale, y: f64, r: &ForestRow) {
    let at = x.at(r.estimate);
    line(
        out,
        (at, y - 9.0),
        (at, y + 9.0),
        &format!("stroke=\"{INK}\" stroke-width=\"2\" class=\"estimate\""),
    );
    let (a, b) = (x.at(r.ci99.0), x.at(r.ci99.1));
    let thin = format!("stroke=\"{BLUE}\" stroke-width=\"1.2\"");
    line(out, (a, y), (b, y), &thin);
    for end in [a, b] {
        line(out, (end, y - 4.0), (end, y + 4.0), &thin);
    }
    line(
        out,
        (x.at(r.ci95.0), y),
        (x.at(r.ci95.1), y),
        &format!("stroke=\"{BLUE}\" stroke-width=\"5\""),
    );
}

/// The legend of a forest plot.
fn forest_legend(out: &mut String, left: f64, y: f64) {
    line(
        out,
        (left, y - 4.0),
        (left + 20.0, y - 4.0),
        &format!("stroke=\"{BLUE}\" stroke-width=\"5\""),
    );
    label(out, (left + 26.0, y), "start", "95% interval");
    line(
        out,
        (left + 130.0, y - 4.0),
        (left + 150.0, y - 4.0),
        &format!("stroke=\"{BLUE}\" stroke-width=\"1.2\""),
    );
    label(out, (left + 156.0, y), "start", "99% interval");
    line(
        out,
        (left + 260.0, y - 11.0),
        (left + 260.0, y + 3.0),
        &format!("stroke=\"{INK}\" stroke-width=\"2\""),
    );
    label(out, (left + 268.0, y), "start", "estimate");
}

/// One point of a profile: the parameter's value as written, and the value there (none where
/// there is no value, as for a variant that is not a valid house way).
#[derive(Clone, Debug, PartialEq)]
pub struct ProfilePoint {
    pub label: String,
    pub value: Option<f64>,
}

/// A value (a fraction, drawn in percent) against a parameter: the parameter's values evenly
/// along the bottom in the order given, a dot at each value joined by a line (broken where a
/// point has none, which is marked with a cross on the bottom axis), a dashed reference line
/// with its name (`reference`), and the highest point's value written beside it.
pub fn profile(
    title: &str,
    points: &[ProfilePoint],
    reference: Option<(&str, f64)>,
    (x_title, y_title): (&str, &str),
) -> String {
    let labels: Vec<String> = points.iter().map(|p| shortened(&p.label, 28)).collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let slanted = points.len() > 16 || longest > 6;
    let label_room = match slanted {
        true => (longest as f64 * 4.8).max(20.0),
        false => 16.0,
    };
    let (left, right, top) = (96.0, 40.0, 38.0);
    let bottom = 40.0 + label_room;
    let height = 300.0 + top + bottom;
    let mut out = open(height, title);
    let mut values: Vec<f64> = points.iter().filter_map(|p| p.value).collect();
    values.extend(reference.map(|(_, v)| v));
    let (lo, hi) = padded_range(&values);
    let y = Scale::new(lo, hi, height - bottom, top, false);
    y_axis(&mut out, &y, left, WIDTH - right, y_title);
    let step = (WIDTH - left - right) / points.len().max(1) as f64;
    let x = |i: usize| left + step * (i as f64 + 0.5);
    let base = height - bottom;
    line(
        &mut out,
        (left, base),
        (WIDTH - right, base),
        &format!("stroke=\"{AXIS}\""),
    );
    if let Some((name, v)) = reference {
        let at = y.at(v);
        line(
            &mut out,
            (left, at),
            (WIDTH - right, at),
            &format!("stroke=\"{RED}\" stroke-dasharray=\"6 4\""),
        );
        label(&mut out, (WIDTH - right - 4.0, at - 6.0), "end", name);
    }
    profile_line(&mut out, points, &y, &x);
    for (i, (p, text)) in points.iter().zip(&labels).enumerate() {
        let (px, py) = (x(i), base + 16.0);
        match slanted {
            true => {
                let _ = writeln!(
                    out,
                    "<text x=\"{px:.1}\" y=\"{py:.1}\" text-anchor=\"end\" \
                     transform=\"rotate(-40 {px:.1} {py:.1})\">{}</text>",
                    escape(text)
                );
            }
            false => label(&mut out, (px, py), "middle", text),
        }
        if p.value.is_none() {
            let style = format!("stroke=\"{RED}\" stroke-width=\"2\"");
            line(
                &mut out,
                (px - 5.0, base - 5.0),
                (px + 5.0, base + 5.0),
                &style,
            );
            line(
                &mut out,
                (px - 5.0, base + 5.0),
                (px + 5.0, base - 5.0),
                &style,
            );
        }
    }
    label(
        &mut out,
        ((left + WIDTH - right) / 2.0, height - 10.0),
        "middle",
        x_title,
    );
    out.push_str("</svg>\n");
    out
}

/// `text` cut to `most` characters, the cut marked with an ellipsis.
fn shortened(text: &str, most: usize) -> String {
    match text.chars().count() > most {
        true => text.chars().take(most - 1).chain(['…']).collect(),
        false => text.to_string(),
    }
}

/// A profile's line and dots, and the highest point's value.
fn profile_line(out: &mut String, points: &[ProfilePoint], y: &Scale, x: &dyn Fn(usize) -> f64) {
    let mut path = String::new();
    let mut pen_down = false;
    for (i, p) in points.iter().enumerate() {
        match p.value {
            Some(v) => {
                let _ = write!(
                    path,
                    "{}{:.1},{:.1} ",
                    if pen_down { "L" } else { "M" },
                    x(i),
                    y.at(v)
                );
                pen_down = true;
            }
            None => pen_down = false,
        }
    }
    let _ = writeln!(
        out,
        "<path d=\"{}\" fill=\"none\" stroke=\"{BLUE}\" stroke-width=\"2\"/>",
        path.trim_end()
    );
    for (i, p) in points.iter().enumerate() {
        if let Some(v) = p.value {
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{BLUE}\"/>",
                x(i),
                y.at(v)
            );
        }
    }
    let highest = (points.iter().enumerate())
        .filter_map(|(i, p)| Some((i, p.value?)))
        .fold(None, |best: Option<(usize, f64)>, (i, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((i, v)),
        });
    if let Some((i, v)) = highest {
        let anchor = if i + 1 > points.len() / 2 {
            "end"
        } else {
            "start"
        };
        let dx = if anchor == "end" { -8.0 } else { 8.0 };
        label(out, (x(i) + dx, y.at(v) - 8.0), anchor, &percent(v, 6));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            ticks(0.0, 1.0, 5),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        let t = ticks(-0.031, -0.024, 6);
        assert!(
            t.len() >= 3 && t.iter().all(|v| (-0.031..=-0.024).contains(v)),
            "{t:?}"
        );
        assert_eq!(percent(-1e-12, 2), "0.00%");
        assert_eq!(count_label(1e6), "1M");
        assert_eq!(count_label(1e3), "1k");
    }

    #[test]
    fn scales_clamp_and_never_divide_by_zero() {
        let s = Scale::new(5.0, 5.0, 0.0, 100.0, false);
        assert!(s.at(5.0).is_finite());
        let log = Scale::new(1.0, 1000.0, 0.0, 300.0, true);
        assert_eq!(log.at(10.0), 100.0);
        assert_eq!(log.at(1e9), 300.0);
        let one = Scale::new(1.0, 1.0, 0.0, 300.0, true);
        assert!((one.lo, one.hi) == (1.0, 10.0), "{} {}", one.lo, one.hi);
        assert!(Scale::new(0.0, 5.0, 0.0, 300.0, true).lo > 0.0);
    }

    /// The label's place is clear of every segment and dot of the simulated line, here a line
    /// that crosses the exact value near the left end, where the label used to go.
    #[test]
    fn the_exact_label_keeps_clear_of_the_simulated_line() {
        let plot = Box2 {
            x0: 86.0,
            y0: 36.0,
            x1: 736.0,
            y1: 284.0,
        };
        let line = [
            (91.0, 166.0),
            (241.0, 131.0),
            (391.0, 101.0),
            (736.0, 138.0),
        ];
        let words = "exact -8.6782%";
        let at = clear_spot(words, 142.0, &plot, &line).unwrap();
        let b = label_box(words, at);
        assert!(plot.holds(&b), "{b:?}");
        assert!(
            line.windows(2).all(|s| !b.meets_segment(s[0], s[1])),
            "{b:?}"
        );
        let old = label_box(words, (94.0, 136.0));
        assert!(
            old.meets_segment(line[0], line[1]),
            "the old place was over the line"
        );
        let flat = Box2 {
            y0: 135.0,
            y1: 150.0,
            ..plot
        };
        assert_eq!(clear_spot(words, 142.0, &flat, &line), None, "no room");
    }

    /// A forest row draws its estimate's mark before its intervals, so no mark covers them.
    #[test]
    fn a_forest_mark_is_drawn_under_its_intervals() {
        let row = ForestRow {
            label: "a - b".into(),
            estimate: 0.0001,
            ci95: (-0.001, 0.0012),
            ci99: (-0.0015, 0.0017),
        };
        let svg = forest("pairs", &[row], "difference");
        let mark = svg.find("class=\"estimate\"").unwrap();
        let bar = svg.find("stroke-width=\"5\"").unwrap();
        let thin = svg.find("stroke-width=\"1.2\"").unwrap();
        assert!(mark < bar && mark < thin, "{svg}");
        assert!(!svg.contains("<circle"), "{svg}");
        assert!(svg.contains("+0.01% [-0.10%, +0.12%]"), "{svg}");
    }

    /// A run of one deal (one point, at 1 deal) made the log axis run from 10^i32::MIN: the
    /// report hung writing two billion ticks.
    #[test]
    fn a_convergence_plot_of_one_deal_has_a_few_ticks() {
        let point = RunningPoint {
            deals: 1.0,
            estimate: 0.5,
            low: 0.5,
            high: 0.5,
        };
        let svg = convergence("one deal", &[point], None);
        assert!(svg.len() < 20_000, "{} bytes", svg.len());
    }

    /// A profile draws a dot a value, breaks its line at a point with none (marked on the axis),
    /// writes the highest value, and parses as XML with every coordinate finite.
    #[test]
    fn a_profile_breaks_at_a_missing_value_and_names_the_highest() {
        let point = |label: &str, value: Option<f64>| ProfilePoint {
            label: label.into(),
            value,
        };
        let points = [
            point("2", Some(-0.0273)),
            point("3", None),
            point("4", Some(-0.0271)),
            point("5", Some(-0.0272)),
        ];
        let svg = profile("t", &points, Some(("unedited way", -0.02721)), ("x", "y"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let circles = doc.descendants().filter(|n| n.has_tag_name("circle"));
        assert_eq!(circles.count(), 3);
        let path = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
        let d = path.attribute("d").unwrap();
        assert_eq!(d.matches('M').count(), 2, "{d}");
        assert!(
            svg.contains("-2.710000%") && svg.contains("unedited way"),
            "{svg}"
        );
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    }
}
