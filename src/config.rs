//! Reading TOML configuration files with errors that say where.
//!
//! Every configuration file (games, house ways, paytables) goes through [`parse_toml`], so a
//! syntax error, an unknown key (all config structs use `deny_unknown_fields`) or a bad value is
//! reported with the file, line and column. Shipped files are embedded in the binary and named
//! by their path under the project (`games/standard.toml`), so the same error names them too.

use std::path::Path;

use serde::de::DeserializeOwned;
use thiserror::Error;

/// A configuration file that could not be read or understood.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("{origin}:{line}:{column}: {message}")]
    At {
        origin: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{origin}: {message}")]
    File { origin: String, message: String },
}

impl ConfigError {
    /// An error about a whole file (or a rule in it) rather than a position.
    pub fn file(origin: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::File {
            origin: origin.to_string(),
            message: message.into(),
        }
    }
}

/// 1-based line and column of a byte offset in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Parses TOML `text` read from `origin` into `T`.
pub fn parse_toml<T: DeserializeOwned>(text: &str, origin: &str) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = line_column(text, e.span().map_or(0, |s| s.start));
        ConfigError::At {
            origin: origin.to_string(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })
}

/// The text of a configuration given as a shipped name or a path, with the name to report it by.
/// A path that exists wins over a shipped name.
pub fn read_named(
    name_or_path: &str,
    shipped: &[(&str, &str, &str)],
    what: &str,
) -> Result<(String, String), ConfigError> {
    let path = Path::new(name_or_path);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::file(name_or_path, format!("cannot read: {e}")))?;
        return Ok((text, name_or_path.to_string()));
    }
    if let Some((_, origin, text)) = shipped.iter().find(|(n, _, _)| *n == name_or_path) {
        return Ok((text.to_string(), origin.to_string()));
    }
    let names: Vec<&str> = shipped.iter().map(|(n, _, _)| *n).collect();
    Err(ConfigError::file(
        name_or_path,
        format!(
            "no such file, and not a shipped {what} (shipped: {})",
            names.join(", ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_from_one() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        assert_eq!(line_column(text, 8), (2, 3));
    }
}
