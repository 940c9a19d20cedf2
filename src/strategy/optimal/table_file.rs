//! The whole price table ([`super::prices`]) on disk, so that it is built once per game, dealer
//! way and version and every later question (a way's exact counts, the cost of each of its
//! rules, a sweep, a derived way) is a pass over it: [`load_or_build_table`].
//!
//! Format. A few `#` text lines (the format, the tool's version, the key of
//! [`super::cache::key`], the checksum), then the table in LEB128 varints: the value index's
//! sizes, the number of shapes, and for each shape (ascending id) its id, hands, dealer hands,
//! not-qualified and overqualified counts and settings, each setting its front and back value
//! indices and its nine relation cells. About 4 million settings for the standard deck.
//!
//! Invariants: only full decks are cached (a reduced deck's table builds in milliseconds); the
//! checksum (`# sha256`) is the SHA-256 of the file without that line, so a file cut short or with
//! a flipped byte is refused; a table read is checked as it is read (ids ascending and dealt by
//! the deck, every setting's cells and dealer classes adding up to the shape's dealer hands, the
//! shape's dealer hands its hands x `C(n - 7, 7)`, the hands adding up to every 7-card hand of
//! the deck, value indices inside the game's index), and a refused file is rebuilt with a note
//! saying why, never trusted. Files are written atomically ([`crate::files::write_atomic`]); the
//! bytes are a function of the key, so two processes building one table leave the same file.
//! The checksum guards against damage and careless edits, not against someone who recomputes it.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::PREFIX;
use super::cache::{self, DealerWay};
use super::grid::ValueIndex;
use super::pricer::HandPricer;
use super::prices::{PriceTable, SettingPrice, ShapePrices};
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::game::settlement::CELLS;
use crate::strategy::deck_shapes::{Shapes, SuitDeck};

/// The first line of a price-table file.
const FORMAT: &str = "# paigow price table v1";
/// The line that holds the checksum, before the digest.
const CHECKSUM: &str = "# sha256 ";

/// The price table of `deck` (the game's deck, or a reduced one) against `dealer` under `game`'s
/// rules: read from the cache folder `dir` when a valid file with the right key is there (full
/// decks only), else built here with `note` hearing the progress by tenths, and cached. The
/// flag says whether it was built. A damaged or stale file is read once, named in a note and
/// replaced.
pub fn load_or_build_table(
    dealer: &DealerWay,
    game: &GameRules,
    deck: SuitDeck,
    dir: Option<&Path>,
    note: &(dyn Fn(&str) + Sync),
) -> (PriceTable, bool) {
    let dir = dir.filter(|_| deck.is_full());
    if let Some(path) = dir.map(|d| d.join(file_name(dealer, game)))
        && path.exists()
    {
        match read(&path, &cache::key(dealer, game), &value_index(game), deck) {
            Ok(table) => return (table, false),
            Err(e) => note(&format!("{}: {e}; rebuilding", path.display())),
        }
    }
    let pricer = HandPricer::with_deck(game, deck, &*dealer.strategy);
    let ev = Evaluator::new(game.ranking);
    let table = build(dealer, game, &pricer, &ev, deck, note);
    if let Some(dir) = dir {
        store(dealer, game, &table, dir, note);
    }
    (table, true)
}

/// Writes the table of the game's deck against `dealer` to the cache folder `dir` (a failure to
/// write is a note, not an error).
pub fn store(
    dealer: &DealerWay,
    game: &GameRules,
    table: &PriceTable,
    dir: &Path,
    note: &(dyn Fn(&str) + Sync),
) {
    let path = dir.join(file_name(dealer, game));
    match crate::files::write_atomic(&path, &write(&cache::key(dealer, game), table)) {
        Ok(()) => note(&format!(
            "{PREFIX}{}: price table cached at {}",
            dealer.label,
            path.display()
        )),
        Err(e) => note(&format!("{}: not cached: {e}", path.display())),
    }
}

/// The cached price table of the game's deck against `dealer`, when a valid one is there (none
/// built).
pub fn cached_table(
    dealer: &DealerWay,
    game: &GameRules,
    dir: Option<&Path>,
) -> Option<PriceTable> {
    let path = dir?.join(file_name(dealer, game));
    let (key, deck) = (cache::key(dealer, game), SuitDeck::of(game.deck));
    cache::used_or_named(&path, read(&path, &key, &value_index(game), deck))
}

/// The value index a table of `game` is written over: the pricer's, without setting every dealer
/// shape to get it (a table read needs only the index).
fn value_index(game: &GameRules) -> Arc<ValueIndex> {
    Arc::new(ValueIndex::of(&Evaluator::new(game.ranking), game.deck))
}

/// The file name of the price table: `prices-` and the dealer table's readable name.
fn file_name(dealer: &DealerWay, game: &GameRules) -> String {
    let key = cache::key(dealer, game);
    let name = cache::file_name_of(&game.origin, &dealer.label, &key);
    name.replacen("dealer-", "prices-", 1)
        .replacen(".csv", ".bin", 1)
}

/// Every shape of `deck` priced, with progress by tenths.
fn build(
    dealer: &DealerWay,
    game: &GameRules,
    pricer: &HandPricer,
    ev: &Evaluator,
    deck: SuitDeck,
    note: &(dyn Fn(&str) + Sync),
) -> PriceTable {
    let label = format!("{PREFIX}{}", dealer.label);
    let total = Shapes::new(deck).dealt_ids().count() as u64;
    let how_long = match deck.is_full() {
        true => "once; a few minutes on two cores",
        false => "a reduced deck: moments, not cached",
    };
    note(&format!(
        "{label}: pricing every setting of all {total} hand shapes of {} against {} \
         ({how_long}) ...",
        game.name, dealer.label
    ));
    let started = std::time::Instant::now();
    let priced = AtomicU64::new(0);
    let table = PriceTable::build(pricer, ev, &|n| {
        let before = priced.fetch_add(n, Ordering::Relaxed);
        let tenth = |count: u64| count * 10 / total.max(1);
        if tenth(before + n) > tenth(before) {
            note(&format!(
                "{label}: {}% of the shapes priced",
                tenth(before + n) * 10
            ));
        }
    });
    note(&format!(
        "{label}: price table built in {:.1} s",
        started.elapsed().as_secs_f64()
    ));
    table
}

/// The bytes of a table file.
pub fn write(key: &str, table: &PriceTable) -> Vec<u8> {
    let mut body = Vec::with_capacity(table.shapes.len() * 400);
    let mut put = |n: u64| leb128(&mut body, n);
    put(table.index.fronts.len() as u64);
    put(table.index.backs.len() as u64);
    put(table.shapes.len() as u64);
    for shape in &table.shapes {
        put(u64::from(shape.id));
        for n in [
            shape.hands,
            shape.dealer_hands,
            shape.not_qualified,
            shape.overqualified,
        ] {
            put(n);
        }
        put(shape.settings.len() as u64);
        for setting in &shape.settings {
            put(u64::from(setting.front));
            put(u64::from(setting.back));
            setting.cells.iter().for_each(|&n| put(n));
        }
    }
    let head = head(key);
    let digest = digest(&head, &body);
    let mut out = format!("{head}{CHECKSUM}{digest}\n").into_bytes();
    out.extend_from_slice(&body);
    out
}

/// The header lines the checksum covers.
fn head(key: &str) -> String {
    format!(
        "{FORMAT}\n# paigow {}\n# key {key}\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// The checksum of a file's header and body.
fn digest(head: &str, body: &[u8]) -> String {
    let mut bytes = head.as_bytes().to_vec();
    bytes.extend_from_slice(body);
    crate::files::sha256_hex(&bytes)
}

/// Appends `n` as an LEB128 varint.
fn leb128(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The table in the file at `path`, when its key is `key` and it passes every check.
pub fn read(
    path: &Path,
    key: &str,
    index: &Arc<ValueIndex>,
    deck: SuitDeck,
) -> Result<PriceTable, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let head = head(key);
    if !bytes.starts_with(FORMAT.as_bytes()) {
        return Err("not a price table of this format".to_string());
    }
    if !bytes.starts_with(head.as_bytes()) {
        return Err("made for other rules, way or version".to_string());
    }
    let rest = &bytes[head.len()..];
    let line_end = (rest.iter().position(|&b| b == b'\n')).ok_or("cut short in its header")?;
    let checksum = std::str::from_utf8(&rest[..line_end]).ok();
    let Some(checksum) = checksum.and_then(|l| l.strip_prefix(CHECKSUM)) else {
        return Err(format!("expected a `{}` line (line 4)", CHECKSUM.trim()));
    };
    let body = &rest[line_end + 1..];
    if digest(&head, body) != checksum {
        return Err("its checksum does not match its contents: damaged or edited".to_string());
    }
    let table = decode(body, index)?;
    check(&table, deck)?;
    Ok(table)
}

/// Reads varints from a body.
struct Varints<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Varints<'_> {
    fn next(&mut self) -> Result<u64, String> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at).ok_or("cut short")?;
            self.at += 1;
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(format!("a number too long at byte {}", self.at))
    }

    /// The next number as a value index below `len`.
    fn index_below(&mut self, len: usize) -> Result<u16, String> {
        let n = self.next()?;
        (usize::try_from(n).ok().filter(|&i| i < len))
            .and_then(|i| u16::try_from(i).ok())
            .ok_or_else(|| format!("value index {n} outside the game's {len}"))
    }
}

/// The table in a verified body.
fn decode(body: &[u8], index: &Arc<ValueIndex>) -> Result<PriceTable, String> {
    let mut v = Varints { bytes: body, at: 0 };
    let sizes = [v.next()?, v.next()?];
    if sizes != [index.fronts.len() as u64, index.backs.len() as u64] {
        return Err("made for another value index".to_string());
    }
    let count = v.next()?;
    let mut shapes = Vec::with_capacity(count.min(1 << 20) as usize);
    for _ in 0..count {
        let id = u32::try_from(v.next()?).map_err(|_| "a shape id too large")?;
        let [hands, dealer_hands, not_qualified, overqualified] =
            [v.next()?, v.next()?, v.next()?, v.next()?];
        let n = v.next()?;
        let mut settings = Vec::with_capacity(n.min(64) as usize);
        for _ in 0..n {
            let front = v.index_below(index.fronts.len())?;
            let back = v.index_below(index.backs.len())?;
            let mut cells = [0u64; CELLS];
            for cell in &mut cells {
                *cell = v.next()?;
            }
            settings.push(SettingPrice { front, back, cells });
        }
        shapes.push(ShapePrices {
            id,
            hands,
            dealer_hands,
            not_qualified,
            overqualified,
            settings,
        });
    }
    if v.at != body.len() {
        return Err(format!("{} bytes after the table", body.len() - v.at));
    }
    Ok(PriceTable {
        index: index.clone(),
        shapes,
    })
}

/// Whether a decoded table is one of `deck`: every dealt shape once, in order, each setting's
/// dealer hands adding up, the hands adding up to every hand of the deck.
fn check(table: &PriceTable, deck: SuitDeck) -> Result<(), String> {
    let ids: Vec<usize> = Shapes::new(deck).dealt_ids().collect();
    if ids.len() != table.shapes.len() {
        return Err(format!(
            "{} shapes, the deck has {}",
            table.shapes.len(),
            ids.len()
        ));
    }
    let dealer_per_hand = crate::combin::choose(deck.size() as u64 - 7, 7);
    for (&id, shape) in ids.iter().zip(&table.shapes) {
        let at = |what: &str| format!("shape {}: {what}", shape.id);
        if shape.id as usize != id {
            return Err(format!("shape {} where shape {id} was expected", shape.id));
        }
        if shape.hands.checked_mul(dealer_per_hand) != Some(shape.dealer_hands) {
            return Err(at("its dealer hands are not its hands x C(n - 7, 7)"));
        }
        if shape.settings.is_empty() {
            return Err(at("no setting"));
        }
        let classes = shape.not_qualified + shape.overqualified;
        for s in &shape.settings {
            let live: u64 = s.cells.iter().sum();
            if live.checked_add(classes) != Some(shape.dealer_hands) {
                return Err(at("a setting's dealer hands do not add up"));
            }
        }
        let ordered = shape
            .settings
            .windows(2)
            .all(|w| (w[0].back, w[0].front) < (w[1].back, w[1].front));
        if !ordered {
            return Err(at("settings out of order"));
        }
    }
    let hands = crate::combin::choose(deck.size() as u64, 7);
    if table.hands() != hands {
        return Err(format!("{} hands, the deck deals {hands}", table.hands()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::way::HouseWay;

    /// The table of a reduced deck (four ranks and the joker) against Foxwoods, its deck and key.
    fn a_small_table() -> (PriceTable, SuitDeck) {
        let game = GameRules::load("standard").unwrap();
        let dealer = HouseWay::load("foxwoods").unwrap();
        let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
        let pricer = HandPricer::with_deck(&game, deck, &dealer);
        let table = PriceTable::build(&pricer, &Evaluator::new(game.ranking), &|_| {});
        (table, deck)
    }

    #[test]
    fn a_table_round_trips_and_refuses_another_key() {
        let (table, deck) = a_small_table();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.bin");
        std::fs::write(&path, write("abc", &table)).unwrap();
        let read_back = read(&path, "abc", &table.index, deck).unwrap();
        assert_eq!(read_back.shapes, table.shapes);
        let err = read(&path, "abd", &table.index, deck).unwrap_err();
        assert!(err.contains("other rules"), "{err}");
    }

    /// A flipped byte, a file cut short, and counts moved with the checksum recomputed are each
    /// refused, and say why.
    #[test]
    fn a_damaged_or_edited_table_is_refused() {
        let (mut table, deck) = a_small_table();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.bin");
        let bytes = write("abc", &table);
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        let cut = &bytes[..bytes.len() - 5];
        for (bad, why) in [(&flipped[..], "checksum"), (cut, "checksum")] {
            std::fs::write(&path, bad).unwrap();
            let err = read(&path, "abc", &table.index, deck).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
        table.shapes[3].settings[0].cells[0] += 1;
        std::fs::write(&path, write("abc", &table)).unwrap();
        let err = read(&path, "abc", &table.index, deck).unwrap_err();
        assert!(err.contains("do not add up"), "{err}");
    }
}
