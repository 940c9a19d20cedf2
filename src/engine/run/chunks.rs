//! Which chunks a run, a shard or a checkpoint covers.
//!
//! Shard `K/M` (1-based `K`) of a run of `chunks` chunks runs the contiguous chunk range
//! `[floor((K-1) * chunks / M), floor(K * chunks / M))`: the M ranges are disjoint, cover every
//! chunk, differ in size by at most one chunk, and depend on the chunk count alone. Contiguous
//! ranges (rather than `chunk mod M`) keep a shard's chunk list one range long, so a partial file
//! and a merge error stay short; chunks take the same time on average, so the balance is the same.
//!
//! Invariant: a [`ChunkSet`] holds sorted, disjoint, non-adjacent, non-empty half-open ranges
//! (its deserializer refuses anything else).

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which chunks a shard runs: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    pub index: u64,
    pub count: u64,
}

impl ShardSpec {
    /// The chunk range of this shard in a run of `chunks` chunks (empty when `count > chunks`
    /// leaves this shard nothing).
    pub fn chunks(&self, chunks: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(chunks) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// The partial file name: `shard-K-of-M.json`, K zero-padded to M's width so names sort.
    pub fn file_name(&self) -> String {
        let width = self.count.to_string().len();
        format!("shard-{:0width$}-of-{}.json", self.index, self.count)
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("'{text}' is not a shard K/M with 1 <= K <= M, such as 3/8");
        let (k, m) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            m.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(ShardSpec { index, count })
    }
}

/// A set of chunk indices as sorted, disjoint, non-adjacent half-open ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkSet {
    ranges: Vec<Range<u64>>,
}

impl ChunkSet {
    /// The set holding `range`.
    pub fn range(range: Range<u64>) -> ChunkSet {
        let mut set = ChunkSet::default();
        set.push_range(range);
        set
    }

    /// The set of the given chunk indices.
    pub fn from_chunks(chunks: &BTreeSet<u64>) -> ChunkSet {
        let mut set = ChunkSet::default();
        for &c in chunks {
            set.push_range(c..c + 1);
        }
        set
    }

    /// Appends a range starting at or after the last one's end, joining adjacent ranges.
    pub fn push_range(&mut self, range: Range<u64>) {
        if range.is_empty() {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if last.end == range.start => last.end = range.end,
            _ => self.ranges.push(range),
        }
    }

    /// The ranges, sorted.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// Every chunk index, in order.
    pub fn chunks(&self) -> impl Iterator<Item = u64> + '_ {
        self.ranges.iter().flat_map(|r| r.clone())
    }

    /// Number of chunks.
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no chunk is in the set.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The ranges as `a-b` (inclusive) or `a`, comma separated.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.ranges.iter().map(describe_range).collect();
        parts.join(", ")
    }
}

/// A chunk range for messages: "chunk 4" or "chunks 4-9" (inclusive).
pub fn describe_range(r: &Range<u64>) -> String {
    if r.end - r.start == 1 {
        format!("chunk {}", r.start)
    } else {
        format!("chunks {}-{}", r.start, r.end - 1)
    }
}

impl Serialize for ChunkSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pairs: Vec<[u64; 2]> = self.ranges.iter().map(|r| [r.start, r.end]).collect();
        pairs.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ChunkSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let pairs = Vec::<[u64; 2]>::deserialize(d)?;
        let mut set = ChunkSet::default();
        for [start, end] in pairs {
            if start >= end {
                return Err(serde::de::Error::custom(format!(
                    "chunk range [{start}, {end}) is empty or reversed"
                )));
            }
            if set.ranges.last().is_some_and(|last| start < last.end) {
                return Err(serde::de::Error::custom(format!(
                    "chunk range [{start}, {end}) is out of order or overlaps the one before"
                )));
            }
            set.push_range(start..end);
        }
        Ok(set)
    }
}
