//! `paigow cost-way`: the rules' costs add up to the gap exactly and the totals are `exact main`'s
//! and the optimum's; a rule costs nothing exactly where the way sets every hand of it as the
//! optimum does (every hand of a reduced deck set and priced here); bad input is refused. Reduced
//! decks only (four ranks and the joker: 19,448 hands, milliseconds a table).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use paigow::cards::Card;
use paigow::combin::for_each_subset;
use paigow::engine::cost_way::cost_way;
use paigow::engine::workbench::Bench;
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::game::wager::BET_UNITS;
use paigow::strategy::deck_shapes::{Shapes, SuitDeck};
use paigow::strategy::optimal::pricer::HandPricer;
use paigow::strategy::optimal::prices::PriceTable;
use paigow::strategy::resolve::{dealer_way, resolve};

use crate::common::cli::paigow;
use crate::common::report_rows::{csv_rows, field};

/// A2, 3, 4 and the joker.
const A234: u16 = 0b1_0000_0000_0111;

/// An exact fraction `n/d` as written in the reports.
fn fraction(text: &str) -> (i128, i128) {
    let (n, d) = text.split_once('/').unwrap_or_else(|| panic!("{text}"));
    (n.parse().unwrap(), d.parse().unwrap())
}

/// `n/d` over the denominator `over` (which `d` must divide).
fn over(text: &str, over: i128) -> i128 {
    let (n, d) = fraction(text);
    assert_eq!(over % d, 0, "{text} over {over}");
    n * (over / d)
}

/// A column of a CSV, every row.
fn column(path: &Path, name: &str) -> Vec<String> {
    let rows = csv_rows(path);
    (rows[1..].iter())
        .map(|r| field(&rows[0], r, name).to_string())
        .collect()
}

/// The exact figure `key` of a cost-way summary.csv.
fn figure(dir: &Path, key: &str) -> String {
    let rows = csv_rows(&dir.join("summary.csv"));
    let row = (rows[1..].iter())
        .find(|r| r[0] == key)
        .unwrap_or_else(|| panic!("no {key}"));
    field(&rows[0], row, "exact").to_string()
}

/// The exact player EV `paigow exact main --ranks A234` gives.
fn exact_main(player: &str, dealer: &str, out: &Path) -> String {
    paigow()
        .args(["exact", "main", "--ranks", "A234", "-q", "--out"])
        .arg(out)
        .args(["--player-way", player, "--dealer-way", dealer])
        .assert()
        .success();
    let rows = csv_rows(&out.join("summary.csv"));
    field(&rows[0], &rows[1], "player_ev_exact").to_string()
}

#[test]
fn the_rules_costs_add_up_to_the_gap_and_the_totals_are_exact_mains() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cost");
    let assert = paigow()
        .args(["cost-way", "ballys-ac", "--dealer-way", "foxwoods"])
        .args(["--ranks", "A234", "--both", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("The costliest rules"), "{stdout}");
    let names = crate::common::cli::names(&out);
    assert_eq!(
        names,
        ["classes.csv", "manifest.json", "rules.csv", "summary.csv"]
    );
    let pairs: i128 = figure(&out, "pairs").parse().unwrap();
    let units = pairs * i128::from(BET_UNITS);
    let rules = out.join("rules.csv");
    let costs: i128 = (column(&rules, "cost_exact").iter())
        .map(|c| over(c, units))
        .sum();
    assert_eq!(costs, over(&figure(&out, "gap"), units));
    assert!(costs > 0);
    let shares: Vec<String> = column(&rules, "hands_share_exact");
    let hands: i128 = figure(&out, "hands").parse().unwrap();
    assert_eq!(shares.iter().map(|s| over(s, hands)).sum::<i128>(), hands);
    let way_ev = over(&figure(&out, "way_ev"), units);
    let best_ev = over(&figure(&out, "optimal_ev"), units);
    assert_eq!(best_ev - way_ev, costs);
    // The way against the dealer, and against itself, as exact main counts them.
    let main = exact_main("ballys-ac", "foxwoods", &tmp.path().join("main"));
    assert_eq!(over(&main, units), way_ev);
    let both = exact_main("ballys-ac", "ballys-ac", &tmp.path().join("both"));
    assert_eq!(figure(&out, "way_vs_way_ev"), both);
    let fox = exact_main("foxwoods", "foxwoods", &tmp.path().join("fox"));
    assert_eq!(figure(&out, "dealer_vs_dealer_ev"), fox);
    let change = over(&figure(&out, "house_way_change"), units);
    assert_eq!(change, over(&both, units) - over(&fox, units));
    // The optimum: each shape's best, from a table built here, against each dealer's way.
    let game = GameRules::load("standard").unwrap();
    let deck = SuitDeck::new(A234, 1).unwrap();
    let optimum = |dealer: &str| {
        let dealer = dealer_way(dealer, &game).unwrap().way;
        let pricer = HandPricer::with_deck(&game, deck, &*dealer.strategy);
        let table = PriceTable::build(&pricer, &Evaluator::new(game.ranking), &|_| {});
        table.optimal_net(&game.main_wager)
    };
    assert_eq!(best_ev, optimum("foxwoods"));
    // `exact main --ranks` plays `optimal:D` as that deck's own optimum, as cost-way prices it
    // (it once played the full deck's best settings on the reduced deck: -6.78% for +4.28%).
    let optimal = exact_main("optimal:foxwoods", "foxwoods", &tmp.path().join("optimal"));
    assert_eq!(over(&optimal, units), best_ev);
    let best_vs_way = optimum("ballys-ac");
    assert_eq!(over(&figure(&out, "optimal_vs_way_ev"), units), best_vs_way);
    let optimal_change = over(&figure(&out, "optimal_change"), units);
    assert_eq!(optimal_change, best_vs_way - best_ev);
    // Each class listed costs something, no more than its rule.
    let classes = csv_rows(&out.join("classes.csv"));
    assert!(classes.len() > 1);
    let rule_cost: HashMap<String, i128> = (column(&rules, "rule").into_iter())
        .zip(column(&rules, "cost_exact").iter().map(|c| over(c, units)))
        .collect();
    for row in &classes[1..] {
        let cost = over(field(&classes[0], row, "cost_exact"), units);
        assert!(cost > 0 && cost <= rule_cost[field(&classes[0], row, "rule")]);
    }
}

/// Every committed cost-way run: its rules' costs add up to its gap, and its way's EV and gap are
/// those `exact prices` committed for the way against the same dealer.
#[test]
fn the_committed_runs_add_up_and_agree_with_the_committed_prices() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/exact");
    let mut runs: Vec<_> = (std::fs::read_dir(&root).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with("-cost-way"))
        .collect();
    runs.sort();
    assert!(!runs.is_empty());
    for run in runs {
        let manifest = std::fs::read_to_string(run.join("manifest.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        let text = |value: &serde_json::Value| value.as_str().unwrap().to_string();
        let origin = text(&manifest["spec"]["game"]["origin"]);
        let game = Path::new(&origin).file_stem().unwrap().to_string_lossy();
        let (way, dealer) = (text(&manifest["way"]), text(&manifest["dealer_way"]));
        let prices = root.join(format!("{game}-{dealer}-prices/summary.csv"));
        let rows = csv_rows(&prices);
        let row = (rows[1..].iter())
            .find(|r| field(&rows[0], r, "strategy") == way)
            .unwrap_or_else(|| panic!("{}: no {way}", prices.display()));
        let units = figure(&run, "pairs").parse::<i128>().unwrap() * i128::from(BET_UNITS);
        let gap = figure(&run, "gap");
        let name = run.display();
        assert_eq!(gap, field(&rows[0], row, "below_optimal_exact"), "{name}");
        let way_ev = field(&rows[0], row, "player_ev_exact");
        assert_eq!(figure(&run, "way_ev"), way_ev, "{name}");
        let costs: i128 = (column(&run.join("rules.csv"), "cost_exact").iter())
            .map(|c| over(c, units))
            .sum();
        assert_eq!(costs, over(&gap, units), "{name}");
    }
}

/// A rule costs nothing exactly where the way's setting of every hand it sets is worth the
/// optimum's: every hand of the deck set by the way and priced from the table by its own shape.
#[test]
fn a_rule_costs_nothing_exactly_where_it_sets_every_hand_as_the_optimum() {
    let game = GameRules::load("standard").unwrap();
    let dealer = dealer_way("foxwoods", &game).unwrap().way;
    let deck = SuitDeck::new(A234, 1).unwrap();
    let bench = Bench::load(&dealer, &game, deck, None, &|_| {});
    let resolved = resolve("foxwoods", &game).unwrap();
    let way = resolved.house_way().unwrap();
    let cost = cost_way(&bench, way, 5);
    let ev = Evaluator::new(game.ranking);
    let shapes = Shapes::new(deck);
    let by_id: HashMap<u32, usize> = (bench.table.shapes.iter().enumerate())
        .map(|(i, s)| (s.id, i))
        .collect();
    // Per rule: each shape it sets once, with what the way gives up on it.
    let mut lost: BTreeMap<usize, BTreeMap<u32, i128>> = BTreeMap::new();
    let cards = deck.cards();
    for_each_subset(cards.len(), 7, |p| {
        let mut hand: [Card; 7] = std::array::from_fn(|i| cards[p[i]]);
        hand.sort();
        let splits = ev.split_values(&hand);
        let set = way.set(&hand, &splits);
        let id = shapes.id_of(&hand);
        let prices = &bench.table.shapes[by_id[&id]];
        let [front, back] = bench.table.index.split_point(&splits, set.split);
        let net = prices.net_units(prices.setting(front, back).unwrap(), &game.main_wager);
        let best = prices.ranked(&game.main_wager)[0].1;
        let shape = lost
            .entry(set.rule)
            .or_default()
            .entry(id)
            .or_insert(best - net);
        assert_eq!(*shape, best - net, "the hands of a shape are set alike");
    });
    let (mut free, mut costly) = (0, 0);
    for rule in &cost.rules {
        let here: i128 = lost.get(&rule.rule).map_or(0, |s| s.values().sum());
        assert_eq!(rule.tally.cost_net(), here, "rule {}", rule.name);
        assert_eq!(rule.classes.is_empty(), here == 0, "rule {}", rule.name);
        match (here, lost.contains_key(&rule.rule)) {
            (0, true) => free += 1,
            (0, false) => {}
            _ => costly += 1,
        }
    }
    assert!(
        free > 0 && costly > 0,
        "{free} free and {costly} costly rules"
    );
}

#[test]
fn bad_input_is_refused_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let bad_way = tmp.path().join("bad.toml");
    std::fs::write(
        &bad_way,
        "name = \"bad\"\nsource = \"test\"\n\n[[rule]]\nname = \"the broken rule\"\n\
         when = { pairs = \"many\" }\nset = [ { maximize = [\"back\"] } ]\n",
    )
    .unwrap();
    let bad_way = bad_way.to_str().unwrap().to_string();
    let cases: [(&[&str], &str); 5] = [
        (&["no-such-way", "--dealer-way", "foxwoods"], "no-such-way"),
        (
            &["foxwoods", "--dealer-way", "optimal:foxwoods"],
            "dealer's way",
        ),
        (
            &["optimal:foxwoods", "--dealer-way", "foxwoods"],
            "not a house way",
        ),
        (&[&bad_way, "--dealer-way", "foxwoods"], "the broken rule"),
        (
            &["foxwoods", "--dealer-way", "foxwoods", "--ranks", "A2"],
            "--ranks A2",
        ),
    ];
    for (args, names) in cases {
        let output = paigow()
            .arg("cost-way")
            .args(args)
            .arg("--out")
            .arg(tmp.path().join("out"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr.contains(names), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!tmp.path().join("out").exists(), "{args:?}");
    }
}
