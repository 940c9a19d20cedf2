//! The partial-result format and shard assignment, through the library: exact round trips of
//! every tally integer, shards that partition the chunks, and malformed chunk ranges refused.

use paigow::engine::run::chunks::{ChunkSet, ShardSpec};
use paigow::engine::simulate::{MAX_SIDE_BETS, SimTally};
use paigow::game::paytable::MAX_LINES;
use paigow::game::wager::OutcomeCounts;
use paigow::report::partial::{Partial, field_digests};

type Tally = SimTally;

use crate::common::cli::simulate_ways;

#[test]
fn shards_partition_the_chunks_into_balanced_contiguous_ranges() {
    for chunks in [1u64, 2, 7, 29, 100, 1_000_003] {
        for count in [1u64, 2, 3, 7, 8, 64] {
            let mut next = 0;
            let mut sizes = Vec::new();
            for index in 1..=count {
                let range = ShardSpec { index, count }.chunks(chunks);
                assert_eq!(range.start, next, "{chunks} chunks, shard {index}/{count}");
                next = range.end;
                sizes.push(range.end - range.start);
            }
            assert_eq!(next, chunks, "{chunks} chunks in {count} shards");
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "{sizes:?}");
        }
    }
    assert_eq!(ShardSpec { index: 3, count: 7 }.chunks(29), 8..12);
}

#[test]
fn shard_specs_parse_and_name_their_files() {
    let spec: ShardSpec = "3/12".parse().unwrap();
    assert_eq!(
        spec,
        ShardSpec {
            index: 3,
            count: 12
        }
    );
    assert_eq!(spec.to_string(), "3/12");
    assert_eq!(spec.file_name(), "shard-03-of-12.json");
    for bad in ["0/1", "2/1", "1/0", "1", "x/2", "1/2/3", ""] {
        let err = bad.parse::<ShardSpec>().unwrap_err();
        assert!(err.contains("is not a shard K/M"), "{bad}: {err}");
    }
}

/// A tally with every field set, the wide sums at their extremes.
fn extreme_tally() -> Tally {
    let mut t = Tally::default();
    t.rounds = u64::MAX;
    t.hands = u64::MAX - 1;
    t.outcomes = OutcomeCounts([1, 2, 3, 4, 5, 6, u64::MAX - 7]);
    t.net_units = i128::MIN;
    t.net_units_squared = u128::MAX;
    for (i, c) in t.categories.iter_mut().enumerate() {
        *c = 1000 + i as u64;
    }
    for (i, bet) in t.side_bets.iter_mut().enumerate() {
        bet.net = if i % 2 == 0 {
            i128::MAX
        } else {
            -(i as i128) - 1
        };
        bet.net_squared = u128::MAX - i as u128;
        for (j, line) in bet.lines.iter_mut().enumerate() {
            *line = u64::MAX - (i * 100 + j) as u64;
        }
    }
    t
}

/// A partial of a real small run, as `simulate --shard 1/1` writes it.
fn real_partial() -> Partial<Tally> {
    let dir = tempfile::tempdir().unwrap();
    simulate_ways("max-back", "max-back")
        .args(["--deals", "500", "--chunk-size", "100"])
        .args(["--shard", "1/1", "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.path().join("shard-1-of-1.json")).unwrap();
    Partial::from_json(&text, "shard-1-of-1.json").unwrap()
}

#[test]
fn every_tally_integer_round_trips_exactly() {
    let mut partial = real_partial();
    assert_eq!(partial.tally.rounds, 500);
    assert_eq!(partial.spec.command, "simulate");
    assert_eq!(partial.chunk_ranges.describe(), "chunks 0-4");
    let reread: Partial<Tally> = serde_json::from_str(&partial.to_json()).unwrap();
    assert_eq!(reread, partial);
    partial.tally = extreme_tally();
    let json = partial.to_json();
    assert!(json.contains(&format!("\"net_units\": \"{}\"", i128::MIN)));
    assert!(json.contains(&format!("\"net_units_squared\": \"{}\"", u128::MAX)));
    let reread: Partial<Tally> = serde_json::from_str(&json).unwrap();
    assert_eq!(reread.tally, extreme_tally());
    assert_eq!(reread.tally.side_bets.len(), MAX_SIDE_BETS);
    assert_eq!(reread.tally.side_bets[0].lines.len(), MAX_LINES + 1);
    // The extreme tally does not describe 500 deals, so a full read refuses it.
    let err = Partial::<Tally>::from_json(&json, "x.json")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("x.json: tally has"), "{err}");
}

#[test]
fn malformed_chunk_ranges_and_tally_slots_are_refused() {
    let text = real_partial().to_json();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let with = |key: &str, new: serde_json::Value| {
        let mut v = value.clone();
        v[key] = new;
        Partial::<Tally>::from_json(&v.to_string(), "p.json")
            .unwrap_err()
            .to_string()
    };
    let overlapping = with("chunk_ranges", serde_json::json!([[0, 3], [2, 5]]));
    assert!(
        overlapping.contains("overlaps the one before"),
        "{overlapping}"
    );
    let reversed = with("chunk_ranges", serde_json::json!([[3, 3]]));
    assert!(reversed.contains("empty or reversed"), "{reversed}");
    let outside = with("chunk_ranges", serde_json::json!([[0, 6]]));
    assert!(outside.contains("the run has only chunks 0-4"), "{outside}");
    let mut tally = value["tally"].clone();
    tally["side_bets"].as_array_mut().unwrap().pop();
    let slots = with("tally", tally);
    assert!(
        slots.contains("malformed") && slots.contains("length"),
        "{slots}"
    );
}

/// A tally edited by hand is refused, naming the field, even when its counts still add up: one
/// hand moved from "no line pays" to a side bet's top line, and one from a loss to a win.
#[test]
fn an_edited_tally_is_refused_naming_the_field() {
    let text = real_partial().to_json();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let refused = |v: serde_json::Value| {
        Partial::<Tally>::from_json(&v.to_string(), "p.json")
            .unwrap_err()
            .to_string()
    };
    let mut edited = value.clone();
    let lines = &mut edited["tally"]["side_bets"][0]["lines"];
    let counts: Vec<u64> = (lines.as_array().unwrap().iter())
        .map(|c| c.as_u64().unwrap())
        .collect();
    let most = (0..counts.len()).max_by_key(|&i| counts[i]).unwrap();
    lines[0] = serde_json::json!(counts[0] + 1);
    lines[most] = serde_json::json!(counts[most] - 1);
    let err = refused(edited);
    assert!(err.contains("tally field 'side_bets'"), "{err}");
    let mut edited = value.clone();
    let outcomes = &mut edited["tally"]["outcomes"];
    outcomes[0] = serde_json::json!(outcomes[0].as_u64().unwrap() + 1);
    outcomes[4] = serde_json::json!(outcomes[4].as_u64().unwrap() - 1);
    let err = refused(edited);
    assert!(err.contains("tally field 'outcomes'"), "{err}");
    let partial: Partial<Tally> = serde_json::from_str(&text).unwrap();
    assert_eq!(
        partial.tally_sha256,
        field_digests(
            &partial.tally,
            &partial.config_sha256,
            &partial.chunk_ranges
        )
    );
}

#[test]
fn chunk_sets_join_adjacent_chunks() {
    let chunks = [0u64, 1, 2, 5, 7, 8].into_iter().collect();
    let set = ChunkSet::from_chunks(&chunks);
    assert_eq!(set.ranges(), &[0..3, 5..6, 7..9]);
    assert_eq!(set.len(), 6);
    assert_eq!(set.describe(), "chunks 0-2, chunk 5, chunks 7-8");
    assert_eq!(set.chunks().collect::<Vec<_>>(), vec![0, 1, 2, 5, 7, 8]);
}
