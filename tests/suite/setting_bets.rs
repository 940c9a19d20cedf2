//! Setting bets (Jackpot Pai Gow's "+ pair" lines: the back as the player's way sets it, and
//! whether the front is a pair) counted exactly by hand shape, each check independent of that
//! count:
//! - on parts of the deck (every [`STRIDE`]th rank multiset and every multiset making four of a
//!   kind or better, all their hands; every flush pattern making a straight flush or better),
//!   every hand is dealt by an enumeration written here, set by the way's own rules (no shape
//!   cache) and paid by a line reading written here: the same counts as the shapes' count, for
//!   a house way, a built-in and `optimal:D` under one bug joker, two jokers and the wild joker,
//!   and every line the deck pays is paid in the parts;
//! - over the whole deck: no back beats the best five of the seven cards, `max-back`'s backs are
//!   `exact categories`' rows, and every hand is counted once.
//!
//! The whole deck dealt hand by hand (`paigow exact bonus --method brute --player-way W`, about
//! a minute of two cores) is the check `docs/verification.md` records, run by hand.

use rayon::prelude::*;

use paigow::cards::{Card, Cards, Deck};
use paigow::combin::choose;
use paigow::engine::exact::{LineCounts, Method, category_counts, paytable_counts};
use paigow::engine::exact::{NotCountable, countable, setting_counts_of_shapes};
use paigow::eval::{Category, Evaluator};
use paigow::game::GameRules;
use paigow::game::paytable::{Event, Paytable};
use paigow::strategy::Strategy;
use paigow::strategy::cached::CachedWay;
use paigow::strategy::resolve::resolve;
use paigow::strategy::way::shapes::{HandShape, every_shape};

/// Every this-many-th shape is dealt hand by hand (beside the rare ones, all dealt).
const STRIDE: usize = 127;

/// Two paytables holding every setting event: each category behind with a pair in front, and
/// each category behind (whatever the front); line `i` of both is the `i`th category, highest
/// first.
fn every_setting_event_tables() -> Vec<Paytable> {
    let table = |name: &str, suffix: &str| {
        let mut text = format!("name = \"{name}\"\n");
        for (i, c) in Category::ALL_DESCENDING.iter().enumerate() {
            let event = c.name().replace(' ', "_");
            text += &format!(
                "[[line]]\nevent = \"{event}_behind{suffix}\"\npays = {}\n",
                11 - i
            );
        }
        Paytable::from_toml(&text, name).unwrap()
    };
    vec![table("plus pair", "_plus_pair"), table("behind", "")]
}

/// The line of `table` paying a hand set with these front and back categories, read from the
/// events' definitions.
fn line_of(table: &Paytable, front: Category, back: Category) -> usize {
    let pays = |e: Event| match e {
        Event::Setting {
            back: b,
            front_pair,
        } => b == back && (!front_pair || front == Category::OnePair),
        _ => false,
    };
    let line = table.lines.iter().position(|l| pays(l.event));
    line.unwrap_or(table.lines.len())
}

/// The line of [`every_setting_event_tables`] for a category.
fn row(category: Category) -> usize {
    Category::ALL_DESCENDING
        .iter()
        .position(|&c| c == category)
        .unwrap()
}

fn zeros(tables: &[Paytable]) -> Vec<LineCounts> {
    (tables.iter())
        .map(|t| LineCounts {
            counts: vec![0; t.lines.len() + 1],
        })
        .collect()
}

fn add(a: Vec<LineCounts>, b: Vec<LineCounts>) -> Vec<LineCounts> {
    (a.into_iter().zip(b))
        .map(|(mut x, y)| {
            x.counts.iter_mut().zip(y.counts).for_each(|(p, q)| *p += q);
            x
        })
        .collect()
}

/// Hands checked one by one: every hand of some shapes, dealt by [`Part::for_each_hand`].
struct Part {
    /// The shapes whose hands these are.
    shapes: Vec<HandShape>,
    /// Cards of each rank, and jokers.
    counts: [u8; 13],
    jokers: u8,
    /// Only the hands in which one suit holds exactly these ranks (any suit); `None`: every
    /// hand of the rank multiset.
    flush: Option<u32>,
}

impl Part {
    /// Calls `visit` with every hand of the part (sorted by card index), each once: the deck's
    /// jokers chosen, then each rank's cards given distinct suits.
    fn for_each_hand(&self, deck: Deck, visit: &mut dyn FnMut(&[Card; 7])) {
        let deck_jokers: Vec<Card> = (deck.cards().into_iter())
            .filter(|c| c.is_joker())
            .collect();
        let joker_sets: Vec<Vec<Card>> = match self.jokers {
            0 => vec![Vec::new()],
            1 => deck_jokers.iter().map(|&j| vec![j]).collect(),
            _ => vec![deck_jokers],
        };
        let flushes: Vec<Option<(u8, u32)>> = match self.flush {
            None => vec![None],
            Some(mask) => (0..4).map(|suit| Some((suit, mask))).collect(),
        };
        for jokers in &joker_sets {
            for &flush in &flushes {
                self.suits_from(0, flush, &mut jokers.clone(), visit);
            }
        }
    }

    /// Every way to give ranks `rank..` their suits (the flush suit holding exactly its mask).
    fn suits_from(
        &self,
        rank: u8,
        flush: Option<(u8, u32)>,
        cards: &mut Vec<Card>,
        visit: &mut dyn FnMut(&[Card; 7]),
    ) {
        if rank == 13 {
            let mut hand: [Card; 7] = cards.as_slice().try_into().unwrap();
            hand.sort();
            return visit(&hand);
        }
        let count = u32::from(self.counts[rank as usize]);
        for suits in (0u8..16).filter(|m| m.count_ones() == count) {
            let fits = |(suit, mask): (u8, u32)| u32::from(suits >> suit & 1) == mask >> rank & 1;
            if flush.is_some_and(|f| !fits(f)) {
                continue;
            }
            let before = cards.len();
            let picked = (0..4).filter(|s| suits >> s & 1 == 1);
            cards.extend(picked.map(|s| Card::new(rank, s).unwrap()));
            self.suits_from(rank + 1, flush, cards, visit);
            cards.truncate(before);
        }
    }
}

/// The parts of the deck checked hand by hand: every [`STRIDE`]th rank multiset and every
/// multiset that makes four of a kind or better without a flush (all their hands), and every
/// flush pattern that makes a straight flush or better (its hands).
fn parts(ev: &Evaluator, deck: Deck) -> Vec<Part> {
    let shapes = every_shape(deck);
    let key = |s: &HandShape| {
        let cards = Cards::from_cards(&s.hand);
        (cards.rank_counts(), cards.jokers() as u8)
    };
    let best = |s: &HandShape| ev.best_five_of_seven(&s.hand).category();
    let mut out = Vec::new();
    for (i, group) in shapes.chunk_by(|a, b| key(a) == key(b)).enumerate() {
        let (counts, jokers) = key(&group[0]);
        let part = |shapes: &[HandShape], flush| Part {
            shapes: shapes.to_vec(),
            counts,
            jokers,
            flush,
        };
        assert_eq!(
            group[0].flush_ranks(),
            None,
            "the shape with no flush comes first"
        );
        if i % STRIDE == 0 || best(&group[0]) >= Category::FourOfAKind {
            out.push(part(group, None));
            continue;
        }
        for shape in group.iter().filter(|s| best(s) >= Category::StraightFlush) {
            out.push(part(std::slice::from_ref(shape), shape.flush_ranks()));
        }
    }
    out
}

/// Every hand of the parts dealt, set by `way` and paid by [`line_of`].
fn dealt_counts(
    ev: &Evaluator,
    deck: Deck,
    parts: &[Part],
    tables: &[Paytable],
    way: &dyn Strategy,
) -> Vec<LineCounts> {
    let one_part = |part: &Part| {
        let mut out = zeros(tables);
        part.for_each_hand(deck, &mut |hand| {
            let splits = ev.split_values(hand);
            let k = way.choose(hand, &splits, None);
            assert!(splits.is_legal(k), "{hand:?}");
            let (front, back) = (splits.front[k].category(), splits.back[k].category());
            for (table, counts) in tables.iter().zip(out.iter_mut()) {
                counts.counts[line_of(table, front, back)] += 1;
            }
        });
        out
    };
    (parts.par_iter().map(one_part)).reduce(|| zeros(tables), add)
}

/// Counts by shape (with the shape cache, as a simulation sets hands) against the hands of
/// [`parts`] dealt and set by the way's own rules (no cache); every line that pays some hand of
/// the deck pays some hand of the parts, so each line is checked.
fn assert_shapes_count_as_hands_dealt(
    game_name: &str,
    ways: &[(&str, &dyn Strategy, &dyn Strategy)],
) {
    let game = GameRules::load(game_name).unwrap();
    let ev = Evaluator::new(game.ranking);
    let tables = every_setting_event_tables();
    let refs: Vec<&Paytable> = tables.iter().collect();
    let parts = parts(&ev, game.deck);
    let shapes: Vec<HandShape> = parts.iter().flat_map(|p| p.shapes.clone()).collect();
    let hands: u64 = shapes.iter().map(|s| s.hands).sum();
    for &(name, cached, own) in ways {
        let by_shape = setting_counts_of_shapes(&ev, &shapes, &refs, cached);
        let dealt = dealt_counts(&ev, game.deck, &parts, &tables, own);
        assert_eq!(by_shape, dealt, "{game_name}, {name}");
        assert!(dealt.iter().all(|c| c.total() == hands));
        let whole = paytable_counts(&ev, game.deck, &tables, Method::Structure, Some(cached));
        for (part, all) in dealt.iter().zip(&whole) {
            let paid_somewhere = |(&s, &a): (&u64, &u64)| a == 0 || s > 0;
            assert!(
                part.counts.iter().zip(&all.counts).all(paid_somewhere),
                "{game_name}, {name}: a line paid in the deck is not in the parts: {part:?} of {all:?}"
            );
        }
    }
}

#[test]
fn counts_by_shape_equal_every_hand_dealt_and_set_by_the_way() {
    let game = GameRules::load("standard").unwrap();
    let resolved: Vec<_> = ["foxwoods", "max-front"]
        .iter()
        .map(|name| resolve(name, &game).unwrap())
        .collect();
    let optimal = &crate::optimal::fixture().optimal;
    let cached_optimal = CachedWay::new(optimal.clone());
    let mut ways: Vec<(&str, &dyn Strategy, &dyn Strategy)> = (resolved.iter())
        .map(|r| (r.label.as_str(), &*r.strategy, r.uncached()))
        .collect();
    ways.push(("full-deck-optimal:foxwoods", &cached_optimal, optimal));
    assert_shapes_count_as_hands_dealt("standard", &ways);
    for (game_name, way) in [
        ("double-joker", "double-joker-dealer"),
        ("jokers-wild", "foxwoods"),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let r = resolve(way, &game).unwrap();
        assert_shapes_count_as_hands_dealt(game_name, &[(way, &*r.strategy, r.uncached())]);
    }
}

/// Over the whole deck, for every way: no back makes more than the best five of the seven
/// cards (hands with a back of category `c` or better are at most `exact categories`' hands of
/// `c` or better), no pair is in front of a high-card back, and every hand is counted once.
/// `max-back` keeps the best five behind (always a legal back: the two cards left cannot make
/// a pair above it), so its backs are exactly the category rows; a house way keeps a lone pair
/// behind, so its high-card backs are exactly the high-card hands.
#[test]
fn backs_never_beat_the_best_five_and_max_back_keeps_it_behind() {
    let tables = every_setting_event_tables();
    for (game_name, ways) in [
        (
            "standard",
            &["max-back", "max-front", "foxwoods", "ballys-ac"][..],
        ),
        ("double-joker", &["max-back", "double-joker-dealer"][..]),
        ("jokers-wild", &["max-back", "foxwoods"][..]),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        let categories = category_counts(&ev, game.deck, Method::Structure);
        for way in ways {
            let r = resolve(way, &game).unwrap();
            let player = Some(&*r.strategy);
            let counts = paytable_counts(&ev, game.deck, &tables, Method::Structure, player);
            let (plus_pair, behind) = (&counts[0], &counts[1]);
            let hands = choose(game.deck.size() as u64, 7);
            let at = format!("{game_name}, {way}");
            assert_eq!((plus_pair.total(), behind.total()), (hands, hands), "{at}");
            assert_eq!(plus_pair.counts[row(Category::HighCard)], 0, "{at}");
            let (mut backs, mut best) = (0, 0);
            for c in Category::ALL_DESCENDING {
                backs += behind.counts[row(c)];
                best += categories.get(c);
                assert!(
                    backs <= best,
                    "{at}: {c:?} or better: {backs} backs, {best} hands"
                );
                if *way == "max-back" {
                    assert_eq!(behind.counts[row(c)], categories.get(c), "{at}: {c:?}");
                }
            }
            if r.house_way().is_some() {
                let high = behind.counts[row(Category::HighCard)];
                assert_eq!(high, categories.get(Category::HighCard), "{at}");
            }
            // Some hands, not all, are set with a pair in front.
            let paired: u64 = plus_pair.counts[..11].iter().sum();
            assert!(paired > 0 && paired < hands, "{at}");
        }
    }
}

#[test]
fn a_setting_bet_needs_a_way_that_sets_from_the_players_cards() {
    let tables = every_setting_event_tables();
    let game = GameRules::load("double-joker").unwrap();
    assert_eq!(countable(&tables[0], None), Err(NotCountable::NoPlayerWay));
    let exposed = resolve("exposed", &game).unwrap();
    assert_eq!(
        countable(&tables[0], Some(&*exposed.strategy)),
        Err(NotCountable::WaySeesDealer(
            exposed.strategy.name().to_string()
        ))
    );
    let foxwoods = resolve("foxwoods", &game).unwrap();
    assert_eq!(countable(&tables[0], Some(&*foxwoods.strategy)), Ok(()));
    let other = Paytable::load("big-hand-bonus").unwrap();
    assert_eq!(countable(&other, None), Ok(()));
}
