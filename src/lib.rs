//! paigow: Pai Gow Poker mathematics.
//!
//! Layers, each importing only from the ones below it (`tests/suite/architecture.rs` holds every file
//! to this):
//!
//! | layer | module | what it holds |
//! | --- | --- | --- |
//! | 0 | [`files`] | reading configuration text with positions, SHA-256, atomic writes |
//! | 1 | [`cards`] | cards, card sets, decks, shuffling and dealing |
//! | 2 | [`eval`] | 5- and 2-card values for every joker rule; the 21 splits |
//! | 3 | [`combin`] | binomials, colex ranks, hand enumeration |
//! | 4 | [`game`] | game files, the main wager and its settlement, paytables, side-bet events |
//! | 5 | [`strategy`] | house ways (language, compile, apply, lint), shape cache, optimal, exposed |
//! | 6 | [`engine`] | the run engine (simulate, compare, table), shards and checkpoints, exact counts |
//! | 7 | [`report`] | statistics, report writers, audits |
//! | 8 | [`cli`] | arguments to validated configurations; output to the terminal |
//!
//! Data flows one way: configuration files become validated [`game::GameRules`] and strategies;
//! the engines see only cards, the evaluator, compiled strategies and integer tallies; statistics
//! and reports are computed from those tallies last.

pub mod files;

pub mod cards;

pub mod eval;

pub mod combin;

pub mod game;

pub mod strategy;

pub mod engine;

pub mod report;

pub mod cli;
