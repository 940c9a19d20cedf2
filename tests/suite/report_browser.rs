//! The report's HTML page as a reader sees it: rendered in headless Chromium, which measures the
//! laid-out page (`report_browser.js`, appended to a copy of the page) and writes its findings
//! as JSON into the DOM; `--dump-dom` hands them back. Each test checks one defect of issue 37
//! by layout: the exact value's label clear of the simulated line, a forest plot's intervals
//! never covered by a mark, preformatted boxes as wide as their text, the house ways' "above"
//! and "below" true of where the way is; and by the page's tables: an exact and a simulated
//! table name each line alike, and a simulation whose results for a wager are another's is not
//! shown twice.
//!
//! The page is the report of the committed Double Joker package's runs (10^7 deals: the label
//! crossed the line there, and its exposed run repeated the side bets), with a small house-way
//! comparison for the forest plot. Where no browser is found the tests say plainly on stderr
//! that they were skipped, and pass; `.ci/run` installs Debian's chromium, so CI runs them.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli::paigow;

/// The page's measuring script.
const MEASURE: &str = include_str!("report_browser.js");

/// The browsers tried, in order, on `PATH`.
const BROWSERS: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// How long the browser may take to load and measure the page.
const BROWSER_LIMIT: Duration = Duration::from_secs(120);

/// The first browser of [`BROWSERS`] on `PATH`.
fn browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    (BROWSERS.iter())
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The findings of [`MEASURE`] on the page, made once per test process; `None` where no browser
/// is found, said once on stderr (written past the test harness's capture, so that `cargo
/// test` shows it). A browser that fails fails every test, once.
fn findings() -> Option<&'static Value> {
    static FINDINGS: OnceLock<Option<Result<Value, String>>> = OnceLock::new();
    let found = FINDINGS.get_or_init(|| {
        let Some(chromium) = browser() else {
            let _ = writeln!(
                std::io::stderr(),
                "report_browser: SKIPPED: no Chromium on PATH ({}), so the report's page was not \
                 rendered and its layout not checked; .ci/run installs Debian's chromium.",
                BROWSERS.join(", ")
            );
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let page = report_page(dir.path());
        Some(measure(&chromium, &page, dir.path()))
    });
    match found {
        None => None,
        Some(Ok(value)) => Some(value),
        Some(Err(why)) => panic!("{why}"),
    }
}

/// The report of the committed Double Joker runs and a small comparison, written under `dir`,
/// its page copied with the measuring script appended: the copy's path.
fn report_page(dir: &Path) -> PathBuf {
    let compare = dir.join("compare");
    paigow()
        .args(["compare", "--game", "standard", "--dealer-way", "foxwoods"])
        .args(["--ways", "foxwoods", "canterbury-park", "max-back"])
        .args(["--deals", "2e4", "--quiet", "--out"])
        .arg(&compare)
        .assert()
        .success();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/package/double-joker/runs");
    let runs = [
        "exact-categories",
        "exact-bonus",
        "exact-main",
        "simulate",
        "double-joker-exposed-vs-double-joker-dealer",
    ];
    let out = dir.join("report");
    paigow()
        .arg("report")
        .args(runs.map(|r| committed.join(r)))
        .arg(&compare)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    let script = format!("<script>\n{MEASURE}\n</script>\n</body>");
    assert!(html.contains("</body>"));
    let page = out.join("measured.html");
    fs::write(&page, html.replacen("</body>", &script, 1)).unwrap();
    page
}

/// Runs headless `chromium` on `page` (its profile, cache and home under `dir`) and reads the
/// JSON the script left in `<pre id="layout-findings">`.
fn measure(chromium: &Path, page: &Path, dir: &Path) -> Result<Value, String> {
    let home = dir.join("browser-home");
    fs::create_dir_all(&home).unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1280,1000",
        ])
        .arg(format!(
            "--user-data-dir={}",
            home.join("profile").display()
        ))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{} does not start: {e}", chromium.display()))?;
    // The DOM is megabytes: read it as it comes, or the browser waits on a full pipe.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = Vec::new();
        stdout.read_to_end(&mut dom).map(|_| dom)
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > BROWSER_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{} took more than {BROWSER_LIMIT:?} on {}",
                chromium.display(),
                page.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = reader.join().unwrap().map_err(|e| e.to_string())?;
    let dom = String::from_utf8_lossy(&dom);
    // The last one: the script's own text names the element too.
    let json = (dom.rsplit_once("<pre id=\"layout-findings\">"))
        .and_then(|(_, rest)| rest.split("</pre>").next())
        .ok_or_else(|| format!("the script left no findings ({} bytes of DOM)", dom.len()))?;
    let json = json
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).map_err(|e| format!("the findings are not JSON: {e}"))
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// A convergence plot's "exact" label was written over the simulated line where the line
/// crossed the exact value near the left (the committed main wager's, from 1,024 to 2,048
/// deals).
#[test]
fn the_exact_label_keeps_clear_of_the_simulated_line() {
    let Some(f) = findings() else { return };
    let plots = f["convergence"].as_array().unwrap();
    let labelled: Vec<&Value> = plots.iter().filter(|p| !p["label"].is_null()).collect();
    assert!(
        !labelled.is_empty(),
        "no convergence plot has an exact label: {plots:?}"
    );
    for plot in labelled {
        assert_eq!(plot["segments_crossed"], 0, "{plot}");
        assert_eq!(plot["dots_covered"], 0, "{plot}");
    }
}

/// A forest plot's estimate was a white dot 13 pixels wide drawn over its intervals: a pair
/// whose interval is narrower (close ways, beside ways 34% apart) showed no interval at all.
#[test]
fn no_forest_mark_covers_an_interval() {
    let Some(f) = findings() else { return };
    let forest = &f["forest"];
    assert!(
        number(&forest["bar_points"]) > 0.0,
        "no forest plot: {forest}"
    );
    assert_eq!(
        forest["bar_points_hidden"], 0,
        "95% intervals covered: {forest}"
    );
    assert_eq!(
        forest["thin_points_hidden"], 0,
        "99% intervals covered: {forest}"
    );
    assert!(
        number(&forest["marks"]) > 0.0,
        "no estimate marks: {forest}"
    );
    assert_eq!(
        forest["marks_shown"], forest["marks"],
        "estimates hidden: {forest}"
    );
}

/// Command lines (and the files' texts) ran past their box, which scrolled sideways: a printed
/// page cut them off.
#[test]
fn every_preformatted_box_holds_its_text() {
    let Some(f) = findings() else { return };
    let boxes = f["boxes"].as_array().unwrap();
    assert!(
        boxes
            .iter()
            .any(|b| b["text"].as_str().unwrap().contains("paigow simulate")),
        "no command line measured: {boxes:?}"
    );
    for b in boxes {
        assert!(
            number(&b["scroll_width"]) <= number(&b["client_width"]),
            "a box scrolls sideways: {b}"
        );
    }
}

/// The exposed way's words said its tie-breaking way's rules were "(below)" when they were
/// shown above it.
#[test]
fn the_house_ways_say_truly_where_a_way_is() {
    let Some(f) = findings() else { return };
    let claims = f["way_claims"].as_array().unwrap();
    assert!(!claims.is_empty(), "no way is said to be above or below");
    for claim in claims {
        assert_eq!(claim["found"], true, "{claim}");
        let above = claim["claim"] == "above";
        assert_eq!(claim["target_is_above"], above, "{claim}");
    }
}

/// The exact main wager's table named its lines as the run's file does ("win both"), the
/// simulation's as the game does ("Player wins both hands").
#[test]
fn exact_and_simulated_tables_name_each_line_alike() {
    let Some(f) = findings() else { return };
    let mut compared = 0;
    for wager in f["wagers"].as_array().unwrap() {
        let Some(exact) = wager["exact"].as_array().and_then(|e| e.first()) else {
            continue;
        };
        for simulated in wager["simulated"].as_array().unwrap() {
            assert_eq!(simulated, exact, "{}", wager["name"]);
            compared += 1;
        }
    }
    assert!(compared >= 3, "{compared} tables compared");
}

/// A side bet paid on the player's seven cards came out line for line the same in the exposed
/// run as in the Foxwoods run (the same deals), and every table was shown twice.
#[test]
fn a_simulation_is_not_shown_twice() {
    let Some(f) = findings() else { return };
    let mut with_two = 0;
    for wager in f["wagers"].as_array().unwrap() {
        let tables = wager["simulated_tables"].as_array().unwrap();
        for (i, table) in tables.iter().enumerate() {
            assert!(
                !tables[..i].contains(table),
                "{}: a table shown twice",
                wager["name"]
            );
        }
        with_two += usize::from(number(&wager["simulated_runs"]) >= 2.0);
    }
    assert!(with_two >= 2, "{with_two} wagers with two simulations");
}
