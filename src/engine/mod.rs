//! Engines: what turns a game and its strategies into integer tallies.

pub mod checkpoint;
pub mod compare;
pub mod exact;
pub mod exact_main;
pub mod shard;
pub mod simulate;
pub mod table;
