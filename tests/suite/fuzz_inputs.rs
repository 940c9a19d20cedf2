//! Malformed input never panics: a deterministic mutation fuzzer over every text a user gives
//! the tool (card text, house-way, game and paytable TOML, counts, shard specs, seatings, banks,
//! collection schedules). Each case starts from a valid input (the shipped files, sample
//! arguments), mutates it (bytes deleted, inserted or flipped; lines duplicated, swapped or cut;
//! numbers replaced by extremes; tokens replaced by other keys and values of the languages) and
//! parses it inside `catch_unwind`: a panic fails the test with the input that caused it. Every
//! error from a house-way, game or paytable file must name the file and a line of it
//! (`FILE:LINE:COLUMN: ...`, the line within the file), never a Rust type name, and stay short
//! whatever the input.
//!
//! `PAIGOW_FUZZ_CASES` sets the cases per input kind (default 3,000, a few seconds: the fast set
//! CI runs); the long run `docs/verification.md` records is
//! `PAIGOW_FUZZ_CASES=200000 cargo test --test suite fuzz_inputs -- --nocapture`
//! (200,000 cases for each of the 6 kinds: 1.2 x 10^6 inputs).

use std::panic::{AssertUnwindSafe, catch_unwind};

use paigow::cards::Deck;
use paigow::cards::deal::{below, chunk_rng};
use paigow::engine::run::chunks::ShardSpec;
use paigow::engine::table::{Collection, Layout, parse_bank};
use paigow::files::ConfigError;
use paigow::game::paytable::{Paytable, SHIPPED_PAYTABLES};
use paigow::game::{GameRules, SHIPPED_GAMES};
use paigow::strategy::way::{HouseWay, SHIPPED_WAYS};
use rand_xoshiro::rand_core::Rng;

/// Cases per input kind.
fn cases() -> u64 {
    std::env::var("PAIGOW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000)
}

/// Words of the input languages, spliced in by the mutator.
const TOKENS: &[&str] = &[
    "[[rule]]",
    "[[line]]",
    "[main_wager]",
    "name",
    "when",
    "set",
    "min",
    "max",
    "is",
    "any",
    "pairs",
    "trips",
    "quads",
    "jokers",
    "joker",
    "high_pair",
    "low_pair",
    "best_five",
    "back",
    "front",
    "pair",
    "top",
    "second",
    "maximize",
    "only_if_better_than",
    "next",
    "event",
    "pays",
    "deck",
    "side_bets",
    "commission",
    "commission_percent",
    "overqualifier",
    "five_aces",
    "wheel",
    "flush",
    "straight",
    "royal_flush",
    "five_aces",
    "A",
    "K",
    "T",
    "10",
    "Jk",
    "Jk2",
    "=",
    "\"",
    "'",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\n",
    "#",
    "true",
    "false",
    "to",
    "D",
    "-",
    "+",
    "unlimited",
    "none",
    "/",
    "e",
    "_",
    ".",
    "♠",
    "\u{0}",
    "\u{FEFF}",
];

/// Numbers spliced in place of numbers.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "7",
    "255",
    "256",
    "65536",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "1e400",
    "-0",
    "0.0001",
    "1e-9",
    "NaN",
    "inf",
];

/// A reproducible stream of mutations of `seed_text`.
struct Mutator {
    rng: rand_xoshiro::Xoshiro256PlusPlus,
}

impl Mutator {
    fn new(kind: u64, case: u64) -> Mutator {
        Mutator {
            rng: chunk_rng(0xF022 ^ kind, case),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        below(&mut self.rng, n.max(1) as u64) as usize
    }

    /// One to four mutations of `text`.
    fn mutate(&mut self, text: &str) -> String {
        let mut out = text.to_string();
        for _ in 0..=self.below(4) {
            out = self.once(&out);
        }
        out
    }

    fn once(&mut self, text: &str) -> String {
        let bytes = text.as_bytes();
        let at = self.below(bytes.len() + 1);
        let lossy = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
        match self.below(8) {
            0 => {
                let end = (at + 1 + self.below(12)).min(bytes.len());
                lossy([&bytes[..at], &bytes[end.max(at)..]].concat())
            }
            1 => {
                let token = TOKENS[self.below(TOKENS.len())];
                lossy([&bytes[..at], token.as_bytes(), &bytes[at..]].concat())
            }
            2 => {
                let byte = [self.rng.next_u64() as u8];
                lossy([&bytes[..at], &byte, &bytes[at..]].concat())
            }
            3 => self.on_lines(text, |lines, i, j| lines.insert(j, lines[i].clone())),
            4 => self.on_lines(text, |lines, i, j| lines.swap(i, j)),
            5 => self.on_lines(text, |lines, i, _| {
                lines.remove(i);
            }),
            6 => self.replace_number(text),
            _ => {
                let token = TOKENS[self.below(TOKENS.len())];
                let end = (at + self.below(8)).min(bytes.len());
                lossy([&bytes[..at], token.as_bytes(), &bytes[end.max(at)..]].concat())
            }
        }
    }

    /// Applies `edit` to the lines with two random line indices.
    fn on_lines(&mut self, text: &str, edit: impl Fn(&mut Vec<String>, usize, usize)) -> String {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.is_empty() {
            return text.to_string();
        }
        let (i, j) = (self.below(lines.len()), self.below(lines.len()));
        edit(&mut lines, i, j);
        lines.join("\n")
    }

    /// Replaces one run of digits with an extreme number.
    fn replace_number(&mut self, text: &str) -> String {
        let starts: Vec<usize> = text
            .char_indices()
            .filter(|&(i, c)| {
                c.is_ascii_digit() && !text[..i].ends_with(|p: char| p.is_ascii_digit())
            })
            .map(|(i, _)| i)
            .collect();
        if starts.is_empty() {
            return text.to_string();
        }
        let start = starts[self.below(starts.len())];
        let end = text[start..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(text.len(), |n| start + n);
        let number = EXTREMES[self.below(EXTREMES.len())];
        format!("{}{number}{}", &text[..start], &text[end..])
    }
}

/// What the cases of one kind did.
#[derive(Default, Debug)]
struct Outcomes {
    accepted: u64,
    refused: u64,
    refused_with_line: u64,
}

/// Runs `parse` on `cases()` mutations of each seed, failing on the first panic. `parse`
/// returns Ok, or the error message and whether it names a line.
fn fuzz(
    kind: u64,
    seeds: &[String],
    parse: impl Fn(&str) -> Result<(), (String, bool)>,
) -> Outcomes {
    let mut outcomes = Outcomes::default();
    let per_seed = cases().div_ceil(seeds.len() as u64);
    for (s, seed) in seeds.iter().enumerate() {
        for case in 0..per_seed {
            let mut mutator = Mutator::new(kind, case * seeds.len() as u64 + s as u64);
            let input = mutator.mutate(seed);
            match catch_unwind(AssertUnwindSafe(|| parse(&input))) {
                Err(_) => panic!("panicked on input {input:?}"),
                Ok(Ok(())) => outcomes.accepted += 1,
                Ok(Err((_, with_line))) => {
                    outcomes.refused += 1;
                    outcomes.refused_with_line += u64::from(with_line);
                }
            }
        }
    }
    eprintln!("kind {kind}: {outcomes:?}");
    outcomes
}

/// A configuration error of the file `origin` holding `input` must name the file and a line of
/// it, name no Rust type and stay short; reports whether it names a line (always, or it fails).
fn config_error(e: ConfigError, origin: &str, input: &str) -> (String, bool) {
    let text = e.to_string();
    let Some(rest) = text.strip_prefix(&format!("{origin}:")) else {
        panic!("error without its file: {text}\ninput: {input:?}");
    };
    let mut place = rest.splitn(3, ':');
    let line = place.next().and_then(|l| l.parse::<usize>().ok());
    let column = place.next().and_then(|c| c.parse::<usize>().ok());
    let lines = input.split('\n').count();
    assert!(
        line.is_some_and(|l| (1..=lines).contains(&l)) && column.is_some_and(|c| c >= 1),
        "error without a line of the file: {text}\ninput: {input:?}"
    );
    assert_eq!(e.line(), line);
    assert!(
        !names_rust_type(&text),
        "error names a Rust type: {text}\ninput: {input:?}"
    );
    assert!(
        text.chars().count() <= 1_000,
        "error too long ({} characters): {text}",
        text.chars().count()
    );
    (text, true)
}

/// Whether a message shows an internal type name (`WhenFile`, `Spanned<...>`, `struct X`, a
/// number type such as `u8`: once "deck = 53.0: expected u8").
fn names_rust_type(text: &str) -> bool {
    let camel_file = |w: &str| {
        w.len() > 4 && w.ends_with("File") && w.starts_with(|c: char| c.is_ascii_uppercase())
    };
    let number_type = |w: &str| {
        [
            "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "i128", "f32", "f64",
        ]
        .contains(&w)
    };
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| camel_file(w) || w == "Spanned" || w == "DeValue" || number_type(w))
        || text.contains("struct ")
        || text.contains("enum ")
}

fn shipped(files: &[(&str, &str, &str)]) -> Vec<String> {
    files.iter().map(|(_, _, text)| text.to_string()).collect()
}

#[test]
fn house_way_files_never_panic() {
    let seeds = shipped(SHIPPED_WAYS);
    let o = fuzz(1, &seeds, |text| {
        HouseWay::from_toml(text, "fuzz.toml")
            .map(|_| ())
            .map_err(|e| config_error(e, "fuzz.toml", text))
    });
    assert!(o.refused > 0 && o.accepted > 0, "{o:?}");
    assert_eq!(o.refused_with_line, o.refused, "{o:?}");
}

#[test]
fn game_files_never_panic() {
    let seeds = shipped(SHIPPED_GAMES);
    let o = fuzz(2, &seeds, |text| {
        GameRules::from_toml(text, "games/fuzz.toml")
            .map(|_| ())
            .map_err(|e| config_error(e, "games/fuzz.toml", text))
    });
    assert!(o.refused > 0 && o.accepted > 0, "{o:?}");
    assert_eq!(o.refused_with_line, o.refused, "{o:?}");
}

#[test]
fn paytable_files_never_panic() {
    let seeds = shipped(SHIPPED_PAYTABLES);
    let o = fuzz(3, &seeds, |text| {
        Paytable::from_toml(text, "fuzz.toml")
            .map(|_| ())
            .map_err(|e| config_error(e, "fuzz.toml", text))
    });
    assert!(o.refused > 0 && o.accepted > 0, "{o:?}");
    assert_eq!(o.refused_with_line, o.refused, "{o:?}");
}

#[test]
fn card_text_never_panics() {
    let seeds: Vec<String> = [
        "As Kd Qh Jc Ts 9s Jk",
        "10s td 9H a♠ jk",
        "Jk Jk Ah Ad Ac As 2c",
        "2c,3d,4h,5s,6c,7d,8h",
    ]
    .map(str::to_string)
    .to_vec();
    let decks = [0, 1, 2].map(|j| Deck::with_jokers(j).unwrap());
    let o = fuzz(4, &seeds, |text| {
        let mut refused = None;
        for deck in decks {
            if let Err(e) = deck.parse_cards(text) {
                refused = Some((e.to_string(), false));
            }
            let _ = deck.parse_hand7(text);
        }
        refused.map_or(Ok(()), Err)
    });
    assert!(o.refused > 0 && o.accepted > 0, "{o:?}");
}

#[test]
fn counts_and_shard_specs_never_panic() {
    let seeds: Vec<String> = ["1e9", "1_000_000", "2.5e8", "65536", "3/8", "12/12"]
        .map(str::to_string)
        .to_vec();
    let o = fuzz(5, &seeds, |text| {
        let count = paigow::cli::run_args::parse_count(text);
        let shard = text.parse::<ShardSpec>();
        match (count, shard) {
            (Err(e), Err(_)) => Err((e, false)),
            _ => Ok(()),
        }
    });
    assert!(o.refused > 0 && o.accepted > 0, "{o:?}");
}

#[test]
fn table_arguments_never_panic() {
    let seeds: Vec<String> = [
        "D,100,-,50+20,40,-,200",
        "D,1,-,-,-,-,-",
        "1=1,60=2,200=3",
        "300",
        "unlimited",
    ]
    .map(str::to_string)
    .to_vec();
    let o = fuzz(6, &seeds, |text| {
        let results = [
            Layout::parse(text).map(|_| ()).map_err(|e| e.to_string()),
            Collection::parse(text)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            parse_bank(text).map(|_| ()).map_err(|e| e.to_string()),
        ];
        match results.iter().find(|r| r.is_ok()) {
            Some(_) => Ok(()),
            None => Err((results[0].clone().unwrap_err(), false)),
        }
    });
    assert!(o.refused > 0 && o.accepted > 0, "{o:?}");
}

/// Issue 19's findings, each named: a 100 KB bad value is never echoed whole, `duplicate key`
/// names the key, and no message shows an internal type name (`WhenFile`); every one of these
/// errors names its file and line.
#[test]
fn errors_are_short_name_the_duplicate_key_and_no_rust_type() {
    const LONGEST_SHOWN: usize = 65;
    let huge = "x".repeat(100_000);
    let way = |body: &str| format!("name = \"w\"\nsource = \"s\"\n{body}");
    let way_error = |text: &str| HouseWay::from_toml(text, "w.toml").map(|_| ()).unwrap_err();
    let table_error = |text: &str| Paytable::from_toml(text, "p.toml").map(|_| ()).unwrap_err();
    let game_error = |text: &str| {
        GameRules::from_toml(text, "games/g.toml")
            .map(|_| ())
            .unwrap_err()
    };
    let cases: Vec<(String, ConfigError, &str)> = vec![
        {
            let text = way(&format!("[[rule]]\nname = \"{huge}\"\nset = []\n"));
            (text.clone(), way_error(&text), "w.toml:5:")
        },
        {
            let text = way(&format!(
                "[[rule]]\nname = \"r\"\nwhen = {{ pairs = \"{huge}\" }}\nset = [{{}}]\n"
            ));
            (text.clone(), way_error(&text), "w.toml:")
        },
        {
            let text = format!("name = \"p\"\n[[line]]\nevent = \"{huge}\"\npays = 5\n");
            (text.clone(), table_error(&text), "p.toml:")
        },
        {
            let text = format!("name = \"p\"\n[[line]]\nevent = \"flush\"\npays = \"{huge}\"\n");
            (text.clone(), table_error(&text), "p.toml:")
        },
        {
            let text = format!("name = \"g\"\ndeck = 53\nside_bets = [\"{huge}\"]\n");
            (text.clone(), game_error(&text), "games/g.toml:3:")
        },
        {
            let text = format!("name = \"g\"\ndeck = 53\njoker = \"{huge}\"\n");
            (text.clone(), game_error(&text), "games/g.toml:3:")
        },
        // Number types in words: once "expected u8", "expected f64", "expected u64".
        {
            let text = "name = \"g\"\ndeck = 53.0\n".to_string();
            (text.clone(), game_error(&text), "games/g.toml:2:")
        },
        {
            let text = "name = \"g\"\n[main_wager]\ncommission_percent = \"5\"\n".to_string();
            (text.clone(), game_error(&text), "games/g.toml:3:")
        },
        {
            let text =
                "name = \"p\"\n[[line]]\nevent = \"flush\"\npays = 5\nclaimed_combinations = -1\n"
                    .to_string();
            (text.clone(), table_error(&text), "p.toml:5:")
        },
    ];
    for (input, error, start) in cases {
        let origin = start.split(':').next().unwrap();
        let (text, _) = config_error(error, origin, &input);
        assert!(text.starts_with(start), "{text}");
        assert!(
            text.len() < 1_000 && !text.contains(&"x".repeat(LONGEST_SHOWN)),
            "{text}"
        );
    }
    let card = paigow::cards::Deck::with_jokers(1)
        .unwrap()
        .parse_cards(&format!("As {huge}"))
        .unwrap_err()
        .to_string();
    assert!(
        card.len() < 200 && card.contains("100000 characters"),
        "{card}"
    );

    let text = way("name = \"again\"\n[[rule]]\nname = \"r\"\nset = [{}]\n");
    let (message, _) = config_error(way_error(&text), "w.toml", &text);
    assert!(
        message.starts_with("w.toml:3:") && message.contains("duplicate key `name`"),
        "{message}"
    );
    let text = "[[line]]\nevent = \"flush\"\npays = 1\npays = 2\n";
    let (message, _) = config_error(table_error(text), "p.toml", text);
    assert!(message.contains("duplicate key `pays`"), "{message}");

    for when in [
        "when = 5",
        "when = [1]",
        "when = { any = 5 }",
        "when = { any = [5] }",
        "when = \"pairs\"",
    ] {
        let text = way(&format!("[[rule]]\nname = \"r\"\n{when}\nset = [{{}}]\n"));
        let (message, _) = config_error(way_error(&text), "w.toml", &text);
        assert!(message.starts_with("w.toml:5:"), "{when}: {message}");
    }
    for pays in ["pays = -1", "pays = 2.5", "pays = true", "pays = [1]"] {
        let text = format!("name = \"p\"\n[[line]]\nevent = \"flush\"\n{pays}\n");
        let (message, _) = config_error(table_error(&text), "p.toml", &text);
        assert!(message.starts_with("p.toml:4:"), "{pays}: {message}");
    }
}
