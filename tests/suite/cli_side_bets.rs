//! Side-bet guardrails through the binary: every refused paytable or game names the file and
//! the line, an unknown event lists the valid ones, warnings are printed and written to the
//! manifest, and EZ Pai Gow's queen-high push reaches `exact main` and the reports.

use std::fs;
use std::path::Path;

use crate::common::cli::paigow;

/// Writes a paytable with these lines and a game that offers it (`deck` cards); returns the
/// game's path.
fn game_with_bet(dir: &Path, deck: u8, paytable: &str) -> String {
    fs::write(dir.join("bet.toml"), paytable).unwrap();
    let game = format!("name = \"g\"\ndeck = {deck}\nside_bets = [\"bet.toml\"]\n");
    let path = dir.join("game.toml");
    fs::write(&path, game).unwrap();
    path.to_string_lossy().into_owned()
}

/// `exact bonus` on the game: its stderr, and whether it succeeded.
fn exact_bonus(game: &str, out: &Path) -> (bool, String) {
    let output = paigow()
        .args(["exact", "bonus", "--game", game, "--quiet", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    (output.status.success(), stderr)
}

#[test]
fn refused_paytables_name_the_file_the_line_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[[line]]\nevent = \"flush\"\npays = 4\n[[line]]\nevent = \"flushh\"\npays = 2\n",
            ":5:",
            "valid events: ",
        ),
        (
            "[[line]]\nevent = \"flush\"\npays = 0\n",
            ":4:",
            "must pay more than 0",
        ),
        (
            "[[line]]\nevent = \"flush\"\npays = 1000001\n",
            ":2:",
            "at most 1000000 to 1",
        ),
        (
            "[[line]]\nevent = \"flush\"\npays = \"9223372036854775807 to 1\"\n",
            ":2:",
            "at most 1000000 to 1",
        ),
        (
            "claimed_hit_rate = \"250%\"\n[[line]]\nevent = \"flush\"\npays = 4\n",
            ":2:",
            "0% to 100%",
        ),
    ];
    for (lines, at, reason) in cases {
        let text = format!("name = \"t\"\n{lines}");
        let game = game_with_bet(dir.path(), 53, &text);
        let (ok, stderr) = exact_bonus(&game, &dir.path().join("out"));
        assert!(!ok, "{lines}");
        assert!(stderr.contains(&format!("bet.toml{at}")), "{stderr}");
        assert!(stderr.contains(reason), "{stderr}");
    }
}

#[test]
fn a_bet_the_deck_cannot_make_is_a_load_error_naming_the_bet_and_the_event() {
    let dir = tempfile::tempdir().unwrap();
    let joker_bonus = include_str!("../../games/paytables/joker-bonus.toml");
    let game = game_with_bet(dir.path(), 52, joker_bonus);
    let (ok, stderr) = exact_bonus(&game, &dir.path().join("out"));
    assert!(!ok);
    assert!(
        stderr.contains("'Joker Bonus'") && stderr.contains("'two_jokers_player'"),
        "{stderr}"
    );
    assert!(stderr.contains("bet.toml:"), "{stderr}");
    let big_hand = include_str!("../../games/paytables/big-hand-bonus.toml");
    let game = game_with_bet(dir.path(), 53, big_hand);
    let (ok, stderr) = exact_bonus(&game, &dir.path().join("out"));
    assert!(!ok);
    assert!(
        stderr.contains("'Big Hand Bonus'") && stderr.contains("'six_aces'"),
        "{stderr}"
    );
    assert!(stderr.contains("(53 cards) has 1"), "{stderr}");
}

/// `exact bonus --bet NAME` puts a paytable beside the game's own: the deck is checked as a game
/// file's `side_bets` are, so the bet is refused, not counted at zero hits.
#[test]
fn a_bet_given_by_name_is_checked_against_the_deck() {
    let dir = tempfile::tempdir().unwrap();
    for (bet, event) in [
        ("big-hand-bonus", "'six_aces'"),
        ("joker-bonus", "'two_jokers_player'"),
    ] {
        let output = paigow()
            .args([
                "exact", "bonus", "--game", "standard", "--bet", bet, "--quiet",
            ])
            .arg("--out")
            .arg(dir.path().join(bet))
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!output.status.success(), "{bet}: {stderr}");
        assert!(stderr.contains(event), "{stderr}");
        assert!(stderr.contains("(53 cards) has 1"), "{stderr}");
        assert!(!dir.path().join(bet).exists());
    }
}

#[test]
fn two_paytables_of_one_name_are_told_apart_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let bet = "name = \"Same\"\n[[line]]\nevent = \"flush\"\npays = 4\n";
    fs::write(dir.path().join("a.toml"), bet).unwrap();
    fs::write(dir.path().join("b.toml"), bet).unwrap();
    let game = dir.path().join("game.toml");
    fs::write(
        &game,
        "name = \"g\"\ndeck = 53\nside_bets = [\"a.toml\", \"b.toml\"]\n",
    )
    .unwrap();
    let (ok, stderr) = exact_bonus(&game.to_string_lossy(), &dir.path().join("out"));
    assert!(!ok);
    assert!(stderr.contains("are both named 'Same'"), "{stderr}");
    assert!(
        stderr.contains("a.toml") && stderr.contains("b.toml"),
        "{stderr}"
    );
}

/// The Fortune game through the binary: `exact bonus` gives the Envy bonus per other player's
/// hand (no stake: what no line pays nets 0), and `simulate` with one player warns that it
/// never pays, in the manifest too, and reports it at exactly 0.
#[test]
fn envy_is_counted_per_other_player_and_warned_with_one_player() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("exact");
    let output = paigow()
        .args(["exact", "bonus", "--game", "fortune", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("N - 1 times that"), "{stdout}");
    let returns = fs::read_to_string(out.join("returns.csv")).unwrap();
    let no_line = (returns.lines())
        .find(|l| l.starts_with("Envy Bonus,no line pays"))
        .unwrap();
    assert!(no_line.contains(",0.0000,"), "{no_line}");
    let out = dir.path().join("sim");
    let output = paigow()
        .args(["simulate", "--game", "fortune", "--player-way", "foxwoods"])
        .args([
            "--dealer-way",
            "foxwoods",
            "--deals",
            "2000",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("with 1 player a round it never pays"),
        "{stderr}"
    );
    let manifest = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("it never pays"), "{manifest}");
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    let envy = summary
        .lines()
        .find(|l| l.starts_with("Envy Bonus"))
        .unwrap();
    assert!(envy.contains(",0.0000000000,"), "{envy}");
}

#[test]
fn warnings_are_printed_and_written_to_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    // Out of pay order (a hand with trips and a straight is paid 2, not 3; with trips and a
    // flush, 2, not 100), and a positive return (every flush pays 100 to 1).
    let text = "name = \"t\"\n[[line]]\nevent = \"three_of_a_kind\"\npays = 2\n\
                [[line]]\nevent = \"straight\"\npays = 3\n[[line]]\nevent = \"flush\"\npays = 100\n";
    let game = game_with_bet(dir.path(), 53, text);
    let out = dir.path().join("out");
    let (ok, stderr) = exact_bonus(&game, &out);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("bet.toml:5: line 'straight' pays 3 to 1"),
        "{stderr}"
    );
    assert!(stderr.contains("positive player return"), "{stderr}");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let warnings = manifest["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings[1]
            .as_str()
            .unwrap()
            .contains("bet.toml:8: line 'flush'")
    );
    // The shipped paytables load without a warning.
    let (ok, stderr) = exact_bonus("standard", &dir.path().join("std"));
    assert!(ok && !stderr.contains("warning"), "{stderr}");
}

#[test]
fn ez_pai_gow_pushes_on_a_dealer_queen_high_pai_gow_in_exact_main() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ez");
    paigow()
        .args([
            "exact",
            "main",
            "--game",
            "ez-pai-gow",
            "--player-way",
            "foxwoods",
        ])
        .args([
            "--dealer-way",
            "foxwoods",
            "--ranks",
            "234679Q",
            "--quiet",
            "--no-cache",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let returns = fs::read_to_string(out.join("returns.csv")).unwrap();
    let row = returns
        .lines()
        .find(|l| l.contains("dealer queen-high pai gow (push)"))
        .unwrap_or_else(|| panic!("{returns}"));
    let count: u64 = row.split(',').nth(3).unwrap().parse().unwrap();
    assert!(count > 0, "{row}");
}

/// A setting bet is counted with the player's way `--player-way` names (refused without one,
/// or with a way that sees the dealer's hand), the way named in the reports with its file's
/// SHA-256; `simulate` sets its EV against that exact EV.
#[test]
fn setting_bets_are_counted_with_the_player_way() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"Jackpot\"\n[[line]]\nevent = \"full_house_behind_plus_pair\"\npays = 60\n\
                [[line]]\nevent = \"three_of_a_kind_behind_plus_pair\"\npays = 5\n";
    let game = game_with_bet(dir.path(), 53, text);
    let (ok, stderr) = exact_bonus(&game, &dir.path().join("out"));
    assert!(!ok);
    assert!(
        stderr.contains("bet.toml: side bet 'Jackpot' is judged on the player's setting")
            && stderr.contains("--player-way"),
        "{stderr}"
    );
    let bonus = |way: &str, out: &str| {
        paigow()
            .args([
                "exact",
                "bonus",
                "--game",
                &game,
                "--quiet",
                "--player-way",
                way,
            ])
            .arg("--out")
            .arg(dir.path().join(out))
            .output()
            .unwrap()
    };
    let refused = bonus("exposed", "exposed");
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(!refused.status.success());
    assert!(
        stderr.contains("sets by the dealer's exposed hand"),
        "{stderr}"
    );
    let counted = bonus("foxwoods", "fox");
    assert!(counted.status.success(), "{counted:?}");
    let out = dir.path().join("fox");
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        summary.contains("set by the player's way foxwoods, by hand shape"),
        "{summary}"
    );
    let returns = fs::read_to_string(out.join("returns.csv")).unwrap();
    let total = returns.lines().last().unwrap();
    assert!(
        total.starts_with("Jackpot,total,Total,-,154143080,"),
        "{total}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["player_way"], "foxwoods");
    let way_file = (manifest["config_files"].as_array().unwrap().iter())
        .find(|f| f["role"] == "player way")
        .unwrap_or_else(|| panic!("{manifest}"));
    let text = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/strategies/foxwoods.toml"
    ));
    let sha = paigow::files::sha256_hex(text.unwrap().as_bytes());
    assert_eq!(way_file["sha256"], sha.as_str());
    assert_eq!(manifest["spec"]["strategies"][0]["name"], "foxwoods");
    // Bets not judged on the setting take no player's way.
    let output = paigow()
        .args([
            "exact",
            "bonus",
            "--game",
            "standard",
            "--quiet",
            "--player-way",
            "foxwoods",
        ])
        .arg("--out")
        .arg(dir.path().join("std"))
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success());
    assert!(
        stderr.contains("no bet counted here is judged on the player's setting"),
        "{stderr}"
    );
    // The exact EV, as summary.csv gives it, in simulate's comparison.
    let mut rows = csv::Reader::from_reader(summary.as_bytes());
    let ev: f64 = rows.records().next().unwrap().unwrap()[4].parse().unwrap();
    let output = paigow()
        .args([
            "simulate",
            "--game",
            &game,
            "--player-way",
            "foxwoods",
            "--dealer-way",
            "foxwoods",
        ])
        .args(["--deals", "20000", "--threads", "1", "--out"])
        .arg(dir.path().join("sim"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    let row = stdout.lines().find(|l| l.starts_with("Jackpot")).unwrap();
    let fields: Vec<&str> = row.split_whitespace().collect();
    let n = fields.len();
    assert_eq!(fields[n - 2], format!("{:+.4}%", 100.0 * ev), "{row}");
    let standard_errors: f64 = fields[n - 1].parse().unwrap();
    assert!(standard_errors.abs() < 4.0, "{row}");
}

/// `exact bonus --target-edge --vary`: every combination priced from one count, nearest the
/// target first, equals the bet counted afresh with those pays written in its file; the
/// manifest records the grid; a bad grid is an error naming the item, before anything is
/// counted or written.
#[test]
fn vary_prices_every_combination_as_its_own_paytable() {
    let dir = tempfile::tempdir().unwrap();
    let bonus = |bet: Option<&str>, extra: &[&str], out: &Path| {
        let mut command = paigow();
        command.args(["exact", "bonus", "--game", "double-joker"]);
        command.args(bet.map(|b| ["--bet", b]).iter().flatten());
        command.args(extra).arg("--out").arg(out);
        command.assert()
    };
    let vary = "flush=4..5,full_house=5..7,four_of_a_kind=25..30";
    let grid = ["--target-edge", "5%", "--vary", vary];
    let out = dir.path().join("vary");
    let done = bonus(Some("big-hand-bonus"), &grid, &out).success();
    let stdout = String::from_utf8(done.get_output().stdout.clone()).unwrap();
    let heading = "36 combinations of flush 4..5, full_house 5..7, four_of_a_kind 25..30";
    assert!(stdout.contains(heading), "{stdout}");
    let csv = fs::read_to_string(out.join("vary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 37);
    // rank,flush,full_house,four_of_a_kind,house_edge,house_edge_exactly,from_target,hit_rate,sd
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let shown = format!(
        " 1. flush {}, full_house {}, four_of_a_kind {}: house edge",
        first[1], first[2], first[3]
    );
    assert!(stdout.contains(&shown), "{stdout}");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["vary"]["combinations"], 36);
    assert_eq!(manifest["vary"]["lines"][2]["high"], 30);
    assert_eq!(manifest["spec"]["options"]["vary"], vary);
    // The first combination, written into the paytable and counted afresh.
    let mut edited = String::new();
    let mut event = "";
    for line in include_str!("../../games/paytables/big-hand-bonus.toml").lines() {
        if let Some(rest) = line.strip_prefix("event = \"") {
            event = rest.split('"').next().unwrap();
        }
        let column = ["flush", "full_house", "four_of_a_kind"]
            .iter()
            .position(|e| *e == event);
        match column.filter(|_| line.starts_with("pays = ")) {
            Some(i) => edited += &format!("pays = {}\n", first[1 + i]),
            None => edited += &format!("{line}\n"),
        }
    }
    let file = dir.path().join("edited.toml");
    fs::write(&file, edited).unwrap();
    let again = dir.path().join("again");
    bonus(file.to_str(), &["--quiet"], &again).success();
    let mut summary = csv::Reader::from_path(again.join("summary.csv")).unwrap();
    let row = summary.records().next().unwrap().unwrap();
    // wager,method,trials,hit_rate,player_ev,house_edge,variance,sd,...
    assert_eq!((&row[5], &row[3], &row[7]), (first[4], first[7], first[8]));
    // Bad grids: an error naming the item, nothing written.
    let refused = |bet: Option<&str>, vary: &str, needle: &str| {
        let out = dir.path().join("refused");
        let grid = ["--target-edge", "5%", "--vary", vary];
        let stderr = predicates::str::contains(needle.to_string());
        bonus(bet, &grid, &out).failure().stderr(stderr);
        assert!(!out.exists());
    };
    let bhb = Some("big-hand-bonus");
    let unknown = "--vary item 'flsh=4..8': 'flsh' is not a line of 'Big Hand Bonus'";
    refused(bhb, "flsh=4..8", unknown);
    refused(bhb, "flush=8..4", "the range 8..4 is empty");
    refused(
        bhb,
        "flush=1..1000,full_house=1..1001",
        "more than the 1000000",
    );
    refused(None, "flush=4..8", "--vary prices the lines of one bet");
}
