//! `paigow exact main`: the main wager's exact outcome counts over every ordered pair of
//! disjoint (player, dealer) 7-card hands, each set by its strategy.

pub mod classes;
pub mod codes;
pub mod core;
pub mod shapes;
pub mod sweep;
