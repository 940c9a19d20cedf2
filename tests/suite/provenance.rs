//! Build provenance: the commit a binary was built from is embedded at compile time (see
//! `build.rs`), marked `-modified` when the sources differ from it, and shown by `--version` and
//! in every manifest whatever directory the binary runs from.

use crate::common::cli::paigow;

include!("../../build/provenance.rs");

/// A repository made here: its commit, then the same commit marked modified once a source
/// changes (tracked or new), and not for a change outside the sources.
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
    std::fs::write(dir.path().join("src/new.rs"), "// new\n").unwrap();
    assert_eq!(
        commit_of(dir.path()),
        format!("{head}-modified"),
        "a new source"
    );
    std::fs::remove_file(dir.path().join("src/new.rs")).unwrap();
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

/// `--version` names the embedded commit, and a manifest written from another directory (a
/// repository of its own) records the same commit, not that directory's.
#[test]
fn the_version_and_every_manifest_name_the_build_commit() {
    let version = paigow().arg("--version").output().unwrap();
    let text = String::from_utf8(version.stdout).unwrap();
    let commit = text
        .split("(commit ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no commit in {text}"))
        .to_string();
    assert!(commit == "unknown" || commit.len() >= 40, "{text}");
    assert!(text.contains("rustc"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]).unwrap();
    paigow()
        .current_dir(dir.path())
        .args([
            "simulate",
            "--player-way",
            "max-back",
            "--dealer-way",
            "max-front",
        ])
        .args(["--deals", "1000", "--quiet", "--out", "r"])
        .assert()
        .success();
    let manifest = std::fs::read_to_string(dir.path().join("r/manifest.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(json["git_commit"], commit.as_str());
    assert!(json["rustc"].as_str().unwrap().starts_with("rustc"));
    assert_the_identity_of_this_binary(&json, &text);
}

/// `json` (a manifest) records the build profile `--version` (`version`) names and the SHA-256
/// of the binary the tests run.
fn assert_the_identity_of_this_binary(json: &serde_json::Value, version: &str) {
    let profile = json["profile"].as_str().expect("a profile");
    assert!(["release", "debug"].contains(&profile), "{profile}");
    assert!(
        version.contains(&format!("; {profile} build;")),
        "{version}"
    );
    let binary = std::fs::read(assert_cmd::cargo::cargo_bin("paigow")).unwrap();
    assert_eq!(json["binary_sha256"], paigow::files::sha256_hex(&binary));
}

/// An `optimal:D` run lists its dealer table among its inputs, by its cache file and with the
/// SHA-256 of that file's text, and embeds the texts of every input it read in its spec.
#[test]
fn manifests_list_the_dealer_table_and_embed_every_input() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    paigow()
        .env("PAIGOW_CACHE_DIR", &cache)
        .args(["simulate", "--player-way", "full-deck-optimal:max-front"])
        .args([
            "--dealer-way",
            "max-front",
            "--deals",
            "1000",
            "--quiet",
            "--out",
        ])
        .arg(dir.path().join("r"))
        .assert()
        .success();
    let manifest = std::fs::read_to_string(dir.path().join("r/manifest.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let inputs = json["config_files"].as_array().unwrap();
    let table = inputs
        .iter()
        .find(|i| i["role"] == "dealer table of full-deck-optimal:max-front")
        .unwrap_or_else(|| panic!("no dealer table in {inputs:?}"));
    let files: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(table["origin"], format!("cache: {name}"));
    let text = std::fs::read(&files[0]).unwrap();
    assert_eq!(table["sha256"], paigow::files::sha256_hex(&text));
    assert_eq!(json["command"], "simulate");
    let game = std::fs::read_to_string("games/standard.toml").unwrap();
    assert_eq!(json["spec"]["game"]["text"], game.as_str());
    assert_eq!(json["spec"]["side_bets"].as_array().unwrap().len(), 2);
}
