//! paigow: Pai Gow Poker mathematics.
//!
//! Data flows one way: configuration files become validated [`game::GameRules`] (and house ways);
//! the engine sees only cards ([`card`]), the evaluator ([`eval`]), the 21 splits ([`split`]) and
//! integer tallies; [`exact`] enumerates; reports are written last.

pub mod audit;
pub mod bonus;
pub mod card;
pub mod checkpoint;
pub mod cli;
pub mod compare;
pub mod config;
pub mod deal;
pub mod eval;
pub mod exact;
pub mod game;
pub mod optimal;
pub mod output;
pub mod paytable;
pub mod report;
pub mod shard;
pub mod sim;
pub mod split;
pub mod stats;
pub mod strategy;
pub mod table;
pub mod wager;
pub mod way;
