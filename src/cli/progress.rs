//! Progress display on stderr, shown only when stderr is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A spinner with a message, hidden unless stderr is a terminal.
pub fn spinner(message: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").expect("template"));
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A bar over `total` units with rate and ETA, hidden unless stderr is a terminal.
pub fn bar(total: u64, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let template = format!(
        "{{bar:40}} {{percent:>3}}% {{human_pos}}/{{human_len}} {unit} {{per_sec:0}} ETA {{eta}}"
    );
    let bar = ProgressBar::new(total);
    bar.set_style(ProgressStyle::with_template(&template).expect("template"));
    bar
}

/// A [`bar`] over `total` units, or a hidden one when the command runs with `--quiet`.
pub fn bar_unless_quiet(quiet: bool, total: u64, unit: &str) -> ProgressBar {
    if quiet {
        ProgressBar::hidden()
    } else {
        bar(total, unit)
    }
}
