//! The integration tests, in one test binary (one link, one process: the suite's time goes to
//! the tests). Each module is one subject; `common` holds the helpers they share.

mod common;

mod architecture;
mod cache_integrity;
mod checkpoint_resume;
mod cli_check_way;
mod cli_compare;
mod cli_diff_ways;
mod cli_eval;
mod cli_exact_main;
mod cli_inputs;
mod cli_merge;
mod cli_report;
mod cli_set;
mod cli_side_bets;
mod cli_simulate;
mod cli_table;
mod compare_engine;
mod doc_figures;
mod evaluator_exhaustive;
mod exact_counts;
mod exact_main;
mod exact_prices;
mod fuzz_inputs;
mod optimal;
mod provenance;
mod report_lab;
mod report_sets;
mod run_check;
mod run_engine;
mod run_identity;
mod self_consistency;
mod setting_bets;
mod settlement_rules;
mod shard_format;
mod side_bets;
mod simulate_engine;
mod splits_property;
mod table_engine;
mod way_cache;
mod way_diff;
mod way_exposed;
mod way_lint;
mod way_properties;
mod way_shipped;
