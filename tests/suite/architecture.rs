//! The layering of `src/`: every file imports only from its own layer or the layers below it, and
//! no two files import each other, directly or through others (`docs/ARCHITECTURE.md`).
//!
//! Method: each source file's `crate::` and `super::` paths (in `use` trees, groups expanded, and
//! inline) are resolved to the module file they name; an edge runs from the file to that file.
//! Layers are the top-level modules in [`LAYERS`] order. Comments are skipped; `pub mod`
//! declarations are not imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules, lowest layer first.
const LAYERS: [&str; 9] = [
    "files", "cards", "eval", "combin", "game", "strategy", "engine", "report", "cli",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `src/strategy/way/mod.rs` is `[strategy, way]`.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// The file of the deepest module that `path` (segments from the crate root) names.
fn file_of(path: &[String]) -> PathBuf {
    let mut dir = src();
    let mut file = src().join("lib.rs");
    for segment in path {
        let (single, nested) = (
            dir.join(format!("{segment}.rs")),
            dir.join(segment).join("mod.rs"),
        );
        if single.is_file() {
            file = single;
            dir = dir.join(segment);
        } else if nested.is_file() {
            file = nested;
            dir = dir.join(segment);
        } else {
            break;
        }
    }
    file
}

/// The text with comments blanked (line comments outside string literals; block comments).
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            }
            if !in_string && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

/// Every full path (segments after the root keyword) of the use trees and inline paths that
/// start with `root` (`crate` or `super`).
fn paths_from(text: &str, root: &str) -> Vec<Vec<String>> {
    let needle = format!("{root}::");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(&needle) {
        let start = from + at;
        from = start + needle.len();
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        expand(&text[from..], Vec::new(), &mut out);
    }
    out
}

/// Expands the use tree at the start of `rest` (after `prefix::`) into full paths.
fn expand(rest: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let ident: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let after = &rest[ident.len()..];
    if ident.is_empty() {
        if let Some(group) = after.strip_prefix('{') {
            for item in split_group(group) {
                expand(item.trim_start(), prefix.clone(), out);
            }
        } else if !prefix.is_empty() {
            out.push(prefix);
        }
        return;
    }
    let mut path = prefix;
    path.push(ident);
    match after.strip_prefix("::") {
        Some(next) => expand(next, path, out),
        None => out.push(path),
    }
}

/// The top-level items of a `{ ... }` group (the text after its opening brace).
fn split_group(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// Edges file -> imported file, for every source file.
fn import_graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut graph = BTreeMap::new();
    for file in files {
        let text = without_comments(&std::fs::read_to_string(&file).unwrap());
        let module = module_of(&file);
        let mut targets = BTreeSet::new();
        for path in paths_from(&text, "crate") {
            targets.insert(file_of(&path));
        }
        for path in paths_from(&text, "super") {
            let mut full = module[..module.len().saturating_sub(1)].to_vec();
            full.extend(path);
            targets.insert(file_of(&full));
        }
        targets.remove(&file);
        graph.insert(file, targets);
    }
    graph
}

fn layer_of(file: &Path) -> Option<usize> {
    let top = module_of(file).into_iter().next()?;
    LAYERS.iter().position(|&l| l == top)
}

fn short(file: &Path) -> String {
    file.strip_prefix(src()).unwrap().display().to_string()
}

#[test]
fn every_top_level_module_has_a_layer() {
    let graph = import_graph();
    for file in graph.keys() {
        let module = module_of(file);
        if module.is_empty() {
            continue;
        }
        assert!(
            layer_of(file).is_some(),
            "{} is in no layer: add its module to LAYERS and to docs/ARCHITECTURE.md",
            short(file)
        );
    }
}

#[test]
fn nothing_imports_from_a_layer_above_it() {
    let graph = import_graph();
    let mut upward = Vec::new();
    for (file, targets) in &graph {
        let Some(layer) = layer_of(file) else {
            continue;
        };
        for target in targets {
            if let Some(t) = layer_of(target).filter(|&t| t > layer) {
                upward.push(format!(
                    "{} ({}) imports {} ({})",
                    short(file),
                    LAYERS[layer],
                    short(target),
                    LAYERS[t]
                ));
            }
        }
    }
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn no_two_files_import_each_other() {
    let graph = import_graph();
    // Depth-first search with colours; the first back edge found is reported as a cycle.
    fn visit(
        node: &PathBuf,
        graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        state: &mut BTreeMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        state.insert(node.clone(), 1);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|f| f == next).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, graph, state, stack) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node).copied().unwrap_or(0) == 0
            && let Some(cycle) = visit(node, &graph, &mut state, &mut Vec::new())
        {
            let names: Vec<String> = cycle.iter().map(|f| short(f)).collect();
            panic!("import cycle: {}", names.join(" -> "));
        }
    }
}

/// The checker itself finds what it is meant to find.
#[test]
fn the_parser_expands_use_trees() {
    let text = "use crate::strategy::{exposed::Exposed, shape::{A, b::C}, way};\nlet x = crate::eval::Value(1); // crate::cli::x\n";
    let paths = paths_from(&without_comments(text), "crate");
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "strategy::exposed::Exposed",
            "strategy::shape::A",
            "strategy::shape::b::C",
            "strategy::way",
            "eval::Value"
        ]
    );
    assert_eq!(
        file_of(&["strategy".into(), "way".into(), "HouseWay".into()]),
        src().join("strategy/way/mod.rs")
    );
    assert_eq!(
        file_of(&["eval".into(), "split".into(), "SplitValues".into()]),
        src().join("eval/split.rs")
    );
}
