//! Where a report came from: the tool's commit and the exact command line, for manifests.

use std::path::{Path, PathBuf};

/// The commit of the repository the binary was started from, or "unknown"; with `-modified`
/// appended when the sources it builds from (`src/`, `Cargo.toml`, `Cargo.lock`) differ from that
/// commit, so a manifest never names a commit that would not rebuild the binary. Game and
/// house-way files are left out: manifests record their SHA-256 instead.
pub fn git_commit() -> String {
    let dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("."));
    commit_of(&dir)
}

/// [`git_commit`] for the repository holding `dir`.
fn commit_of(dir: &Path) -> String {
    let Some(head) = git(dir, &["rev-parse", "HEAD"]) else {
        return "unknown".to_string();
    };
    let changed = ["status", "--porcelain", "--untracked-files=no", "--"];
    match git(dir, &[&changed[..], SOURCES].concat()) {
        Some(lines) if lines.is_empty() => head,
        Some(_) => format!("{head}-modified"),
        None => format!("{head}-unknown-status"),
    }
}

/// The paths (from the repository root) whose changes make a build differ from its commit.
const SOURCES: &[&str] = &[":/src", ":/Cargo.toml", ":/Cargo.lock"];

/// What `git -C dir ARGS` prints, trimmed, when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
}

/// The command line as typed, arguments with spaces or quotes single-quoted.
pub fn command_line() -> String {
    std::env::args()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:".contains(c));
            if plain {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository made here: its commit, then the same commit marked modified once a source
    /// changes, and not for a change outside the sources.
    #[test]
    fn a_commit_is_marked_when_its_sources_change() {
        let dir = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| git(dir.path(), args).expect("git runs in the test repository");
        run(&["init", "-q"]);
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "// one\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "one\n").unwrap();
        run(&["add", "."]);
        let who = ["-c", "user.name=test", "-c", "user.email=test@example.com"];
        run(&[&who[..], &["commit", "-q", "-m", "first"]].concat());
        let head = run(&["rev-parse", "HEAD"]);
        assert_eq!(head.len(), 40);
        assert_eq!(commit_of(dir.path()), head);
        std::fs::write(dir.path().join("notes.txt"), "two\n").unwrap();
        assert_eq!(commit_of(dir.path()), head, "a change outside the sources");
        std::fs::write(dir.path().join("src/lib.rs"), "// two\n").unwrap();
        assert_eq!(commit_of(dir.path()), format!("{head}-modified"));
        assert_eq!(
            commit_of(&dir.path().join("src")),
            format!("{head}-modified")
        );
        let elsewhere = tempfile::tempdir().unwrap();
        if git(elsewhere.path(), &["rev-parse", "HEAD"]).is_none() {
            assert_eq!(commit_of(elsewhere.path()), "unknown");
        }
    }
}
