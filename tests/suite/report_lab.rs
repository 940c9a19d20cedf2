//! The figures a test lab asks of `paigow report` (issue 37), each recomputed here from the run
//! files the report reads: exact fractions beside the decimals, the volatility index, hold and
//! handle with a bet mix, the overqualifier's multiples, the maximum payout and liability, why
//! a simulated SD differs from the exact one, the chance of being ahead after N hands, the
//! chi-square of each simulation, the dealing assumptions and the package's manifest.
//!
//! Most tests read the Double Joker package of `cli_report` (made once per test process).

use std::fs;
use std::path::PathBuf;

use crate::cli_report::package;
use crate::common::cli::paigow;
use crate::common::report_rows::{csv_rows, field, fraction_value, markdown_tables, shown};

fn report_md() -> String {
    fs::read_to_string(package().join("report.md")).unwrap()
}

/// The cells of `row` under columns `a` and `b` of `header`, where the table has both.
fn pair<'a>(header: &[String], row: &'a [String], a: &str, b: &str) -> Option<(&'a str, &'a str)> {
    let i = header.iter().position(|h| h == a)?;
    let j = header.iter().position(|h| h == b)?;
    Some((&row[i], &row[j]))
}

#[test]
fn every_exact_fraction_equals_its_decimal() {
    let md = report_md();
    let mut compared = 0;
    for (header, rows) in markdown_tables(&md) {
        for row in &rows {
            for (decimal, exactly) in [
                ("probability", "probability, exactly"),
                ("return", "return, exactly"),
                ("value", "exactly"),
            ] {
                let Some((d, f)) = pair(&header, row, decimal, exactly) else {
                    continue;
                };
                if f.is_empty() || f == "-" {
                    continue;
                }
                let (d, f) = (shown(d).unwrap(), fraction_value(f).unwrap());
                assert!((d - f).abs() <= 5.1e-11, "{row:?}: {d} is not {f}");
                compared += 1;
            }
        }
    }
    // Two side bets' and the main wager's lines, totals and figures.
    assert!(
        compared >= 40,
        "only {compared} fractions beside their decimals"
    );
    // The main wager's EV is the one `exact main` wrote as a fraction.
    let summary = csv_rows(&package().join("runs/exact-main/summary.csv"));
    let ev = field(&summary[0], &summary[1], "player_ev_exact");
    assert!(
        md.contains(&format!(
            "| player EV per unit bet | {} | ",
            field(&summary[0], &summary[1], "player_ev")
        )) && md.contains(&format!(" | {ev} |")),
        "the exact EV {ev} is not shown"
    );
}

/// Each wager's SD per unit bet recomputed from `returns.csv` of an exact run (floats).
fn sds_from_returns(run: &str) -> Vec<(String, f64)> {
    let rows = csv_rows(&package().join(run).join("returns.csv"));
    let mut wagers: Vec<String> = rows[1..].iter().map(|r| r[0].clone()).collect();
    wagers.dedup();
    wagers
        .into_iter()
        .map(|wager| {
            let (mut n, mut sum, mut squares) = (0f64, 0f64, 0f64);
            for line in rows[1..]
                .iter()
                .filter(|r| r[0] == wager && r[1] != "total")
            {
                let Ok(pays) = field(&rows[0], line, "pays").parse::<f64>() else {
                    continue;
                };
                let count: f64 = field(&rows[0], line, "combinations").parse().unwrap();
                (n, sum, squares) = (n + count, sum + count * pays, squares + count * pays * pays);
            }
            (wager, (squares / n - (sum / n).powi(2)).sqrt())
        })
        .collect()
}

#[test]
fn the_volatility_index_is_z_times_the_sd() {
    let md = report_md();
    let shown_indices = |level: &str| -> Vec<f64> {
        (markdown_tables(&md).into_iter())
            .flat_map(|(_, rows)| rows)
            .filter(|r| r[0].starts_with(&format!("volatility index, {level}%")))
            .map(|r| shown(&r[1]).unwrap())
            .collect()
    };
    // Two-sided standard normal quantiles, from tables.
    for (level, z) in [("90", 1.6448536269514722), ("95", 1.959963984540054)] {
        let indices = shown_indices(level);
        for run in ["runs/exact-bonus", "runs/exact-main"] {
            for (wager, sd) in sds_from_returns(run) {
                assert!(
                    indices.iter().any(|i| (i - z * sd).abs() < 1e-8),
                    "{wager} at {level}%: {} not among {indices:?}",
                    z * sd
                );
            }
        }
    }
}

/// The package's runs that `report_with` reports.
const RUNS: [&str; 3] = ["exact-bonus", "exact-main", "simulate"];

/// `paigow report` of the package's own runs with `options`, into a new directory.
fn report_dir(options: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    paigow()
        .arg("report")
        .args(RUNS.map(|r| package().join("runs").join(r)))
        .args(options)
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    (dir, out)
}

/// The report.md of [`report_dir`].
fn report_with(options: &[&str]) -> String {
    let (_dir, out) = report_dir(options);
    fs::read_to_string(out.join("report.md")).unwrap()
}

/// One wager's lines in an exact run's `returns.csv`: (event, pays, probability), lines with a
/// pay only.
fn lines(run: &str, wager: &str) -> Vec<(String, f64, f64)> {
    let rows = csv_rows(&package().join(run).join("returns.csv"));
    let total: f64 = (rows[1..].iter())
        .find(|r| r[0] == wager && r[1] == "total")
        .map(|r| field(&rows[0], r, "combinations").parse().unwrap())
        .unwrap();
    (rows[1..].iter())
        .filter(|r| r[0] == wager && r[1] != "total")
        .filter_map(|r| {
            let pays: f64 = field(&rows[0], r, "pays").parse().ok()?;
            let n: f64 = field(&rows[0], r, "combinations").parse().unwrap();
            Some((r[1].clone(), pays, n / total))
        })
        .collect()
}

fn ev(lines: &[(String, f64, f64)]) -> f64 {
    lines.iter().map(|(_, pays, p)| pays * p).sum()
}

/// The rows of the first table whose header starts with `first` and holds `column`.
fn table_of(md: &str, first: &str, column: &str) -> Vec<Vec<String>> {
    (markdown_tables(md).into_iter())
        .find(|(h, _)| h[0] == first && h.iter().any(|c| c == column))
        .unwrap_or_else(|| panic!("no table with {first} and {column}"))
        .1
}

fn percent_close(cell: &str, fraction: f64) {
    let shown = shown(cell).unwrap_or_else(|| panic!("{cell} is not a number"));
    assert!(
        (shown - 100.0 * fraction).abs() <= 5.1e-5,
        "{cell} is not {}%",
        100.0 * fraction
    );
}

#[test]
fn hold_and_the_bet_mix_come_from_the_returns() {
    let (_dir, out) = report_dir(&["--mix", "main=1,big-hand-bonus=0.2"]);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let main = lines("runs/exact-main", "main wager");
    let bhb = lines("runs/exact-bonus", "Big Hand Bonus");
    let push: f64 = (main.iter()).filter(|l| l.1 == 0.0).map(|l| l.2).sum();
    let hold = table_of(&md, "wager", "edge per hand resolved");
    let main_row = hold.iter().find(|r| r[0] == "main wager").unwrap();
    percent_close(&main_row[2], -ev(&main));
    percent_close(&main_row[3], push);
    percent_close(&main_row[4], -ev(&main) / (1.0 - push));
    let mix = table_of(&md, "wager", "units a round");
    let total = mix.iter().find(|r| r[0] == "the mix").unwrap();
    assert_eq!(total[1], "1.2", "{total:?}");
    let combined = (-ev(&main) - 0.2 * ev(&bhb)) / 1.2;
    percent_close(&total[2], combined);
    assert!(
        md.contains(&format!(
            "per unit on the main wager: {:.4}%",
            100.0 * (-ev(&main) - 0.2 * ev(&bhb))
        )),
        "no edge per unit of main bet"
    );
    let joker = mix.iter().find(|r| r[0] == "Joker Bonus").unwrap();
    assert_eq!(
        joker[1], "0",
        "a wager not in --mix gets nothing: {joker:?}"
    );
    // The values behind the table, linked from the report.
    let file = "tables/mix-double-joker-pai-gow-poker.csv";
    assert!(md.contains(&format!("]({file})")), "no link to {file}");
    let data = csv_rows(&out.join(file));
    let row = data.iter().find(|r| r[0] == "mix").unwrap();
    let edge: f64 = field(&data[0], row, "house_edge").parse().unwrap();
    assert!((edge - combined).abs() < 1e-10, "{row:?}");
    let per_main: f64 = field(&data[0], row, "edge_per_main_unit").parse().unwrap();
    assert!((per_main - combined * 1.2).abs() < 1e-10, "{row:?}");
}

#[test]
fn each_exact_run_has_its_fractions_in_a_csv() {
    let (_dir, out) = report_dir(&[]);
    let data = csv_rows(&out.join("tables/exact-main-wager-runs-exact-main.csv"));
    let summary = csv_rows(&package().join("runs/exact-main/summary.csv"));
    let total = data.iter().find(|r| r[0] == "total").unwrap();
    assert_eq!(
        field(&data[0], total, "return_exact"),
        field(&summary[0], &summary[1], "player_ev_exact")
    );
    for row in &data[1..] {
        let p: f64 = field(&data[0], row, "probability").parse().unwrap();
        let exact = fraction_value(field(&data[0], row, "probability_exact")).unwrap();
        assert!((p - exact).abs() <= 5.1e-11, "{row:?}");
    }
}

#[test]
fn a_mix_naming_no_wager_or_a_bad_amount_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runs = ["exact-bonus", "exact-main"].map(|r| package().join("runs").join(r));
    for (mix, says) in [
        (
            "main=1,big-hand-bonsu=1",
            "'big-hand-bonsu' is no wager of these runs",
        ),
        ("main=x", "'main=x': expected NAME=AMOUNT"),
        ("main=-1", "'main=-1': expected NAME=AMOUNT"),
        // Once accepted: the mix's SD of a round came out inf, with exit status 0.
        ("main=1e160", "'main=1e160': expected NAME=AMOUNT"),
        ("main=1,main=2", "main is given twice"),
    ] {
        paigow()
            .arg("report")
            .args(&runs)
            .args(["--mix", mix, "--out"])
            .arg(dir.path().join("r"))
            .assert()
            .failure()
            .stderr(predicates::str::contains(says));
    }
}

#[test]
fn liability_is_the_largest_pay_times_the_table_maximum() {
    let md = report_with(&["--table-max", "500,big-hand-bonus=25"]);
    let table = table_of(&md, "wager", "liability per hand");
    for (wager, run, name, most) in [
        ("main wager", "runs/exact-main", "main wager", 500.0),
        ("Big Hand Bonus", "runs/exact-bonus", "Big Hand Bonus", 25.0),
        ("Joker Bonus", "runs/exact-bonus", "Joker Bonus", 500.0),
    ] {
        let largest = (lines(run, wager).iter())
            .map(|l| l.1)
            .fold(f64::MIN, f64::max);
        let row = table.iter().find(|r| r[0] == name).unwrap();
        assert_eq!(shown(&row[1]), Some(largest), "{row:?}");
        assert_eq!(shown(&row[5]), Some(largest * most), "{row:?}");
    }
    // Without --table-max: the largest pays, no liability.
    let plain = report_md();
    assert!(table_of(&plain, "wager", "largest pay (to 1)")[0].len() == 4);
}

#[test]
fn every_overqualifier_multiple_is_a_row() {
    let md = report_md();
    let main = lines("runs/exact-main", "main wager");
    let win = main.iter().find(|l| l.0 == "win both").unwrap().1;
    let rows = table_of(&md, "multiple", "player EV");
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (m, row) in (1..=4).zip(&rows) {
        assert!(row[0].starts_with(&format!("{m}x")), "{row:?}");
        let at: Vec<(String, f64, f64)> = (main.iter())
            .map(|(e, pays, p)| {
                let pays = if e == "dealer overqualifies" {
                    m as f64 * win
                } else {
                    *pays
                };
                (e.clone(), pays, *p)
            })
            .collect();
        let shown_ev = shown(&row[2]).unwrap();
        assert!(
            (shown_ev - ev(&at)).abs() < 1e-9,
            "{m}x: {row:?} vs {}",
            ev(&at)
        );
        assert!((fraction_value(&row[3]).unwrap() - shown_ev).abs() < 5.1e-11);
    }
    assert!(
        rows[2][0].contains("this run"),
        "Double Joker pays 3x: {rows:?}"
    );
}

#[test]
fn a_simulated_sd_is_set_against_the_exact_sd() {
    let md = report_md();
    let summary = csv_rows(&package().join("runs/simulate/summary.csv"));
    let row = (summary[1..].iter())
        .find(|r| r[0] == "Big Hand Bonus")
        .unwrap();
    let (s, n): (f64, f64) = (
        field(&summary[0], row, "sd").parse().unwrap(),
        field(&summary[0], row, "trials").parse().unwrap(),
    );
    let exact = lines("runs/exact-bonus", "Big Hand Bonus");
    let mean = ev(&exact);
    let moment = |k: i32| -> f64 { exact.iter().map(|(_, x, p)| p * (x - mean).powi(k)).sum() };
    let sigma = moment(2).sqrt();
    let se = (moment(4) - sigma.powi(4)).sqrt() / (2.0 * sigma * n.sqrt());
    let said = format!("**Its SD** {s:.10} against the exact {sigma:.10} (");
    let at = md.find(&said).unwrap_or_else(|| panic!("no {said}"));
    let k = format!("{:+.2} standard errors of a sample SD", (s - sigma) / se);
    assert!(
        md[at..at + 400].contains(&k),
        "no {k} in {}",
        &md[at..at + 400]
    );
}

/// The chances after N hands by direct convolution of integer pays, one hand at a time.
fn convolved(lines: &[(String, f64, f64)], hands: usize) -> (f64, f64, f64) {
    let pays: Vec<i64> = lines.iter().map(|l| l.1 as i64).collect();
    assert!(lines.iter().all(|l| l.1.fract() == 0.0), "integer pays");
    let (low, high) = (*pays.iter().min().unwrap(), *pays.iter().max().unwrap());
    let width = (high - low) as usize;
    let mut totals = vec![1.0];
    for _ in 0..hands {
        let mut next = vec![0.0; totals.len() + width];
        for (t, p) in totals.iter().enumerate() {
            for (pay, line) in pays.iter().zip(lines) {
                next[t + (pay - low) as usize] += p * line.2;
            }
        }
        totals = next;
    }
    let mut chances = (0.0, 0.0, 0.0);
    for (t, p) in totals.iter().enumerate() {
        match (t as i64 + hands as i64 * low).cmp(&0) {
            std::cmp::Ordering::Greater => chances.0 += p,
            std::cmp::Ordering::Equal => chances.1 += p,
            std::cmp::Ordering::Less => chances.2 += p,
        }
    }
    chances
}

#[test]
fn ahead_even_and_behind_are_the_convolution_of_the_outcomes() {
    let md = report_md();
    let rows = table_of(&md, "wager", "ahead");
    let main = lines("runs/exact-main", "main wager");
    for hands in [1, 10, 100] {
        let row = (rows.iter())
            .find(|r| r[0] == "main wager" && r[1] == hands.to_string())
            .unwrap_or_else(|| panic!("no row for {hands} hands"));
        let (ahead, even, behind) = convolved(&main, hands);
        percent_close(&row[2], ahead);
        percent_close(&row[3], even);
        percent_close(&row[4], behind);
    }
    for hands in ["1,000", "10,000"] {
        let row = (rows.iter())
            .find(|r| r[0] == "main wager" && r[1] == hands)
            .unwrap_or_else(|| panic!("no row for {hands} hands"));
        let sum: f64 = row[2..].iter().map(|c| shown(c).unwrap()).sum();
        assert!((sum - 100.0).abs() < 2e-4, "{row:?}");
    }
}

#[test]
fn each_simulation_has_a_chi_square_against_the_exact_counts() {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let md = report_md();
    let exact = lines("runs/exact-main", "main wager");
    let sim = csv_rows(&package().join("runs/simulate/returns.csv"));
    let n: f64 = (sim[1..].iter())
        .find(|r| r[0] == "main" && r[1] == "total")
        .map(|r| field(&sim[0], r, "count").parse().unwrap())
        .unwrap();
    let mut statistic = 0.0;
    for (event, _, p) in &exact {
        let row = (sim[1..].iter())
            .find(|r| r[0] == "main" && &r[1] == event)
            .unwrap();
        let observed: f64 = field(&sim[0], row, "count").parse().unwrap();
        assert!(n * p >= 5.0, "{event}: no pooling in this test");
        statistic += (observed - n * p).powi(2) / (n * p);
    }
    let df = exact.len() - 1;
    let p_value = ChiSquared::new(df as f64).unwrap().sf(statistic);
    let said = format!("{statistic:.4} on {df} degrees of freedom, p-value {p_value:.4}");
    assert!(md.contains(&said), "no {said}");
    assert!(md.contains(&format!("chi-square over all {} lines", exact.len())));
}

#[test]
fn the_dealing_assumptions_are_stated() {
    let md = report_md();
    let part = md
        .split("### Dealing assumptions")
        .nth(1)
        .expect("a dealing section");
    assert!(part.contains("shuffled afresh") && part.contains("no continuous shuffler"));
    assert!(
        part.contains("The dealer sets first, face up"),
        "Double Joker's dealer exposes"
    );
    let rows = table_of(&md, "run", "seats");
    let sim = rows.iter().find(|r| r[0] == "runs/simulate").unwrap();
    assert!(
        sim[1].starts_with("20,000 rounds, each from the full deck"),
        "{sim:?}"
    );
    assert_eq!(sim[2], "1 player and the dealer");
    assert_eq!(sim[3], "Foxwoods");
}

#[test]
fn the_package_holds_every_run_it_reads_and_a_manifest_of_its_files() {
    let (_dir, out) = report_dir(&[]);
    for run in RUNS {
        let original = package().join("runs").join(run);
        for entry in fs::read_dir(&original).unwrap() {
            let name = entry.unwrap().file_name();
            assert_eq!(
                fs::read(original.join(&name)).unwrap(),
                fs::read(out.join("runs").join(run).join(&name)).unwrap(),
                "{run}/{name:?} copied"
            );
        }
    }
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("#### Exact: runs/exact-bonus"),
        "the report reads the copies"
    );
    let sums = fs::read_to_string(out.join("SHA256SUMS")).unwrap();
    let mut listed = Vec::new();
    for line in sums.lines() {
        let (sha, name) = line.split_once("  ").unwrap();
        assert_eq!(
            sha,
            paigow::files::sha256_hex(&fs::read(out.join(name)).unwrap()),
            "{name}"
        );
        listed.push(name.to_string());
    }
    let mut every = Vec::new();
    let mut pending = vec![out.clone()];
    while let Some(d) = pending.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path
                    .strip_prefix(&out)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if name != "SHA256SUMS" {
                    every.push(name);
                }
            }
        }
    }
    every.sort();
    assert_eq!(listed, every, "every file listed once, sorted");
    // An earlier package is replaced by the next report.
    paigow()
        .arg("report")
        .arg(package().join("runs/exact-bonus"))
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
}

/// The report names the software of itself and of each run it reads (the binary's SHA-256 is
/// the one the tests run), and lists each figure and table file with the SHA-256 that
/// `SHA256SUMS` gives it; `SHA256SUMS` lists the documents.
#[test]
fn the_report_names_its_software_and_the_digests_of_its_files() {
    let md = report_md();
    let binary = fs::read(assert_cmd::cargo::cargo_bin("paigow")).unwrap();
    let sha = paigow::files::sha256_hex(&binary);
    let software = (markdown_tables(&md).into_iter())
        .find(|(header, _)| header.iter().any(|h| h == "binary SHA-256"))
        .expect("a software table");
    let made: Vec<&str> = (software.1.iter()).map(|r| r[0].as_str()).collect();
    assert_eq!(made[0], "this report");
    for run in RUNS {
        assert!(made.contains(&format!("runs/{run}").as_str()), "{made:?}");
    }
    for row in &software.1 {
        assert_eq!(field(&software.0, row, "binary SHA-256"), sha, "{row:?}");
    }
    let sums = fs::read_to_string(package().join("SHA256SUMS")).unwrap();
    let mut shown = 0;
    for line in sums.lines() {
        let (digest, name) = line.split_once("  ").unwrap();
        if name.starts_with("plots/") || name.starts_with("tables/") {
            assert!(md.contains(&format!("| {name} | {digest} |")), "{name}");
            shown += 1;
        }
    }
    assert!(shown >= 10, "{shown} figure and table files");
    for document in ["report.md", "report.html"] {
        assert!(sums.contains(&format!("  {document}\n")), "{document}");
    }
}

/// `exposed:W` sets against the dealer's exposed hand: it is not W, and its simulation is not
/// set against an exact run of W (it was, for both read W's file).
#[test]
fn an_exposed_simulation_is_not_set_against_the_exact_run_of_its_way() {
    let dir = tempfile::tempdir().unwrap();
    let exposed = dir.path().join("exposed");
    paigow()
        .args([
            "simulate",
            "--game",
            "double-joker",
            "--player-way",
            "exposed",
        ])
        .args([
            "--dealer-way",
            "double-joker-dealer",
            "--deals",
            "2e3",
            "--quiet",
            "--out",
        ])
        .arg(&exposed)
        .assert()
        .success();
    let out = dir.path().join("report");
    paigow()
        .arg("report")
        .arg(package().join("runs/exact-main"))
        .arg(&exposed)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let part = md.split("#### Simulated: runs/exposed").nth(1).unwrap();
    let main = part.split("### ").next().unwrap();
    assert!(!main.contains("Against the exact counts"), "{main}");
}

/// The range of returns: exact runs of the house way and of the optimal strategy (`exposed`,
/// where the dealer sets face up) against one dealer's way give the main wager's minimum and
/// maximum, each the EV its run wrote; with the house way's run alone there is no range.
#[test]
fn the_range_of_returns_is_the_house_ways_and_the_optimums_exact_ev() {
    let dir = tempfile::tempdir().unwrap();
    let run = |player: &str| {
        let out = dir.path().join(player);
        paigow()
            .args([
                "exact",
                "main",
                "--game",
                "double-joker",
                "--player-way",
                player,
            ])
            .args([
                "--dealer-way",
                "double-joker-dealer",
                "--ranks",
                "A234",
                "--quiet",
            ])
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let summary = csv_rows(&out.join("summary.csv"));
        let ev: f64 = field(&summary[0], &summary[1], "player_ev")
            .parse()
            .unwrap();
        (
            out,
            ev,
            field(&summary[0], &summary[1], "player_ev_exact").to_string(),
        )
    };
    let (house, house_ev, house_exact) = run("double-joker-dealer");
    let (optimal, optimal_ev, optimal_exact) = run("exposed");
    assert!(optimal_ev > house_ev);
    let report = |dirs: &[&PathBuf]| {
        let out = dir.path().join(format!("report-{}", dirs.len()));
        paigow()
            .arg("report")
            .args(dirs)
            .args(["--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();
        (fs::read_to_string(out.join("report.md")).unwrap(), out)
    };
    let (md, out) = report(&[&house, &optimal]);
    let table = table_of(&md, "bound", "player's way");
    assert_eq!(table.len(), 2, "{table:?}");
    for (row, (bound, player, ev, exact)) in table.iter().zip([
        ("minimum", "double-joker-dealer", house_ev, &house_exact),
        ("maximum", "exposed", optimal_ev, &optimal_exact),
    ]) {
        assert_eq!((row[0].as_str(), row[1].as_str()), (bound, player));
        percent_close(&row[2], ev);
        assert_eq!(&row[3], exact, "{row:?}");
    }
    let csv = fs::read_dir(out.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().file_name());
    assert!(
        csv.into_iter()
            .any(|n| n.to_string_lossy().starts_with("range-")),
        "the range's values as a CSV file"
    );
    let (alone, _) = report(&[&house]);
    assert!(
        !alone.contains("Range of returns"),
        "a range needs both bounds"
    );
}

/// Each simulated side bet's EV is set against the exact one in standard errors, and the report
/// says so in words when the exact EV lies outside the run's 95% interval (the committed standard
/// package's Pai Gow Mania run at 10^7 deals is +2.60 standard errors away, once said only by the
/// number; its 10^9-deal run is within).
#[test]
fn a_simulated_ev_outside_its_interval_is_said_in_words() {
    let runs =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/package/standard/runs");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    paigow()
        .arg("report")
        .arg(runs.join("simulate"))
        .arg(runs.join("exact-bonus"))
        .arg(runs.join("standard-foxwoods-vs-foxwoods-1e9"))
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let mut checked = Vec::new();
    for line in md.lines().filter(|l| l.starts_with("Simulated EV ")) {
        let k: f64 = line
            .split("the simulation is **")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("no distance in: {line}"));
        let outside = line.contains("The exact EV lies outside this 95% interval");
        let far = line.contains("The exact EV lies far outside this interval");
        let expected = (k.abs() > 1.96 && k.abs() <= 4.0, k.abs() > 4.0);
        assert_eq!((outside, far), expected, "{line}");
        checked.push(k);
    }
    assert!(checked.iter().any(|k| k.abs() > 1.96), "{checked:?}");
    assert!(checked.iter().any(|k| k.abs() <= 1.96), "{checked:?}");
}
