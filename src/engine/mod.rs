//! Engines: what turns a game and its strategies into integer tallies. The Monte Carlo commands
//! are jobs on the one run engine ([`run`]); [`exact`] and [`exact_main`] enumerate, and
//! [`brute_main`] deals every pair of a small deck as the reference `exact main` is held to;
//! [`diff_ways`] compares two house ways over every hand; [`workbench`] prices ways from the
//! price table, shape by shape, and [`derive_way`] derives short ways on it; [`self_test`]
//! reproduces the published figures of [`anchors`].

pub mod anchors;
pub mod brute_main;
pub mod compare;
pub mod cost_way;
pub mod derive_way;
pub mod diff_ways;
pub mod exact;
pub mod exact_main;
pub mod run;
pub mod self_test;
pub mod simulate;
pub mod sweep_way;
pub mod table;
pub mod table_check;
pub mod workbench;
