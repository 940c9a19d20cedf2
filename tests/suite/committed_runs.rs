//! The committed run directories under `reports/` against the files they were made from: a run
//! whose manifest names a game, way or paytable file of this repository holds that file's
//! SHA-256 as it is now, so an edit to a shipped file (even a comment) is followed by the runs
//! it changes being made again, and a lab that checks the manifest against the shipped file finds
//! them equal; and none was built from sources that differed from its commit (`-modified`),
//! which no one could check out.

use std::fs;
use std::path::{Path, PathBuf};

use paigow::files::sha256_hex;

/// Every `manifest.json` under `dir`.
fn manifests(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            manifests(&path, found);
        } else if path.file_name().is_some_and(|n| n == "manifest.json") {
            found.push(path);
        }
    }
}

#[test]
fn committed_runs_hold_the_hashes_of_the_shipped_files_they_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    manifests(&root.join("reports"), &mut found);
    assert!(found.len() > 50, "{} manifests", found.len());
    let mut checked = 0;
    let mut stale = Vec::new();
    for manifest in &found {
        let text = fs::read_to_string(manifest).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let commit = json["git_commit"].as_str().unwrap_or_default();
        if commit.ends_with("-modified") {
            let run = manifest.strip_prefix(root).unwrap().display();
            stale.push(format!("{run}: built from modified sources ({commit})"));
        }
        let files = json["config_files"].as_array().cloned().unwrap_or_default();
        for file in files {
            let (Some(origin), Some(recorded)) = (file["origin"].as_str(), file["sha256"].as_str())
            else {
                continue;
            };
            let shipped = ["games/", "strategies/"];
            let path = root.join(origin);
            if !shipped.iter().any(|dir| origin.starts_with(dir)) || !path.is_file() {
                continue;
            }
            checked += 1;
            if sha256_hex(&fs::read(&path).unwrap()) != recorded {
                let run = manifest.strip_prefix(root).unwrap().display();
                stale.push(format!("{run}: {origin}"));
            }
        }
    }
    assert!(checked > 100, "{checked} files checked");
    assert!(
        stale.is_empty(),
        "stale committed runs:\n{}",
        stale.join("\n")
    );
}
