//! Embeds the build's provenance for manifests and `paigow --version`: the git commit (with
//! `-modified` when the sources differ from it), the build profile (`release` or `debug`), the
//! compiler and the target. Read at compile time, never from wherever the binary later runs.

use std::path::Path;

include!("build/provenance.rs");

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rustc-env=PAIGOW_GIT_COMMIT={}", commit_of(dir));
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".to_string(), |s| s.trim().to_string());
    println!("cargo:rustc-env=PAIGOW_RUSTC={version}");
    // Cargo's profile as build scripts see it: `release` for release and bench builds, `debug`
    // for dev and test builds.
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=PAIGOW_PROFILE={profile}");
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=PAIGOW_TARGET={target}");
    for path in ["src", "build", "build.rs", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    for git_file in ["HEAD", "index", "packed-refs"] {
        watch_git_path(dir, git_file);
    }
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch_git_path(dir, &branch);
    }
}

/// Reruns the build script when a file of the repository's git directory changes (a commit, a
/// checkout, staging), wherever that directory is (a worktree keeps it elsewhere).
fn watch_git_path(dir: &Path, name: &str) {
    if let Some(path) = git(dir, &["rev-parse", "--git-path", name]) {
        let path = dir.join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
}
