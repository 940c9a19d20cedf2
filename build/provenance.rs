// Build provenance, shared by `build.rs` (which embeds it) and `tests/provenance.rs` (which
// tests it on a repository it makes): the commit of the repository the crate is built from,
// marked `-modified` when the sources that build the binary differ from it.

/// The paths (from the repository root) whose changes make a build differ from its commit.
const SOURCES: &[&str] = &[":/src", ":/build", ":/build.rs", ":/Cargo.toml", ":/Cargo.lock"];

/// What `git -C dir ARGS` prints, trimmed, when it succeeds.
fn git(dir: &std::path::Path, args: &[&str]) -> Option<String> {
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

/// The commit of the repository holding `dir`, `-modified` appended when a source (tracked, or
/// untracked and not ignored) differs from it; `unknown` outside a repository.
fn commit_of(dir: &std::path::Path) -> String {
    let Some(head) = git(dir, &["rev-parse", "HEAD"]) else {
        return "unknown".to_string();
    };
    let status = ["status", "--porcelain", "--"];
    match git(dir, &[&status[..], SOURCES].concat()) {
        Some(lines) if lines.is_empty() => head,
        Some(_) => format!("{head}-modified"),
        None => format!("{head}-unknown-status"),
    }
}
