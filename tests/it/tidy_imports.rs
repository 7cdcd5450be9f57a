//! Repository rule: no import cycle anywhere. Takes the Rust sources of the library, `bspc`,
//! the `fps_movement` example and the harness, test support and viewer packages; gives a failure naming every cycle, (a) between the files of one
//! module folder (siblings that import each other, directly or around a loop) and (b) between
//! the library's top-level modules (stages that import each other), and between folders of one
//! stage.
//!
//! Imports are read from the text: `use` trees (braces expanded) and paths written inline
//! (`super::water::…`, `crate::brush::…`), with comments, `#[cfg(test)]` modules and
//! `#[cfg(doc)]` imports left out (a test module sees its parent; a doc link imports nothing).
//! A path to an ancestor (`super::Thing` re-exported by the parent's `mod.rs`) is the module
//! tree, not a sibling import, and is not an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::tidy::rust_files;

/// A module by its path from the crate root (`["controller", "water"]`).
type ModPath = Vec<String>;

/// The module path of `file` in the crate whose root file is `root_file`.
fn module_of(root_dir: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(root_dir).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments, string contents, test modules and doc-only imports.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut skip_next_item = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let after = &text[offset + line.len()..];
        offset += line.len();
        let trimmed = line.trim();
        if trimmed.starts_with("#[cfg(test)]") {
            // The rest of the file is the test module (the crate's convention).
            if is_module_item(after) {
                break;
            }
            skip_next_item = true;
            continue;
        }
        if trimmed.starts_with("#[cfg(doc)]") {
            skip_next_item = true;
            continue;
        }
        if skip_next_item {
            skip_next_item = !trimmed.ends_with(';') && !trimmed.ends_with('}');
            continue;
        }
        let code = match trimmed.find("//") {
            Some(at) => &trimmed[..at],
            None => trimmed,
        };
        let mut in_string = false;
        for c in code.chars() {
            if c == '"' {
                in_string = !in_string;
            } else if !in_string {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Whether the text after an attribute starts with a `mod` item.
fn is_module_item(after: &str) -> bool {
    let rest = after.trim_start();
    rest.starts_with("mod ") || rest.starts_with("pub mod ") || rest.starts_with("pub(crate) mod ")
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand_use(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim_end_matches("::");
        let inner = tree[open + 1..].trim_end().trim_end_matches('}');
        let base = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use(&inner[start..i], &base, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_use(&inner[start..], &base, out);
    } else if !tree.is_empty() {
        let tree = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(join(prefix, tree));
    }
}

fn join(prefix: &str, tail: &str) -> String {
    match (prefix.is_empty(), tail.is_empty()) {
        (true, _) => tail.to_owned(),
        (_, true) => prefix.to_owned(),
        _ => format!("{prefix}::{tail}"),
    }
}

/// Every path a file's code names from `crate`, `super` or `self`.
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    // `use` statements, which may span lines.
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        let tree: String = after[..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        expand_use(&tree, "", &mut paths);
        rest = &after[end..];
    }
    // Inline paths.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            if at > 0
                && (bytes[at - 1].is_ascii_alphanumeric()
                    || bytes[at - 1] == b'_'
                    || bytes[at - 1] == b':')
            {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            paths.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
    paths
}

/// The byte offset of `word` as a whole word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        let before_ok =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let after = at + word.len();
        let after_ok = after < bytes.len() && bytes[after].is_ascii_whitespace();
        if before_ok && after_ok {
            return Some(at);
        }
        from = after;
    }
    None
}

/// The module a path names, resolved from `module` to the longest known module prefix.
fn resolve(module: &ModPath, path: &str, known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut base: ModPath = match segments.next()? {
        "crate" => Vec::new(),
        "self" => module.clone(),
        "super" => {
            let mut b = module.clone();
            b.pop()?;
            while segments.peek() == Some(&"super") {
                segments.next();
                b.pop()?;
            }
            b
        }
        _ => return None,
    };
    let mut best = None;
    if known.contains(&base) {
        best = Some(base.clone());
    }
    for segment in segments {
        base.push(segment.to_owned());
        if known.contains(&base) {
            best = Some(base.clone());
        }
    }
    best
}

/// The cycles of a directed graph, each as its members (strongly connected components of more
/// than one node).
fn cycles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    let nodes: Vec<&ModPath> = graph.keys().collect();
    let reach = |from: &ModPath| -> BTreeSet<ModPath> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for next in graph.get(&n).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&ModPath, BTreeSet<ModPath>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut found: BTreeSet<Vec<ModPath>> = BTreeSet::new();
    for n in &nodes {
        let members: Vec<ModPath> = nodes
            .iter()
            .filter(|m| reaches[*n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if members.len() > 1 {
            found.insert(members);
        }
    }
    found.into_iter().collect()
}

/// The import graph of one crate: sibling edges and top-level module edges.
fn crate_cycles(root_dir: &Path, name: &str) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(root_dir, &mut files);
    let modules: BTreeMap<ModPath, String> = files
        .iter()
        .map(|f| {
            (
                module_of(root_dir, f),
                code_of(&std::fs::read_to_string(f).unwrap_or_default()),
            )
        })
        .collect();
    let known: BTreeSet<ModPath> = modules.keys().cloned().collect();
    let mut graph: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (module, code) in &modules {
        for path in paths_in(code) {
            let Some(target) = resolve(module, &path, &known) else {
                continue;
            };
            if module.starts_with(&target) {
                continue;
            }
            // The edge is between the two children of the modules' nearest common ancestor
            // on each side: siblings in one folder, folders in one stage, or stages.
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common < module.len() && common < target.len() {
                graph
                    .entry(module[..=common].to_vec())
                    .or_default()
                    .insert(target[..=common].to_vec());
            }
        }
    }
    let show = |c: &Vec<ModPath>| {
        let names: Vec<String> = c.iter().map(|m| m.join("::")).collect();
        format!("{name}: {}", names.join(" <-> "))
    };
    cycles(&graph).iter().map(show).collect()
}

#[test]
fn the_rules_find_a_planted_cycle() {
    let dir = std::env::temp_dir().join(format!("planeshift-tidy-{}", std::process::id()));
    let module = dir.join("stage");
    std::fs::create_dir_all(&module).unwrap();
    std::fs::write(dir.join("lib.rs"), "//! x\nmod stage;\n").unwrap();
    std::fs::write(module.join("mod.rs"), "//! x\nmod a;\nmod b;\n").unwrap();
    std::fs::write(
        module.join("a.rs"),
        "//! x\nuse super::{b::{Thing, Other}};\n",
    )
    .unwrap();
    std::fs::write(
        module.join("b.rs"),
        "//! x\nfn f() { super::a::g(); }\n#[cfg(test)]\nmod tests { use super::super::a::h; }\n",
    )
    .unwrap();
    let found = crate_cycles(&dir, "planted");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found, ["planted: stage::a <-> stage::b"]);
}

#[test]
fn no_import_cycle_anywhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (dir, name) in [
        ("src", "planeshift"),
        ("tools/bspc/src", "bspc"),
        ("examples/fps_movement", "fps_movement"),
        ("tools/harness/src", "planeshift_harness"),
        ("tools/testkit/src", "planeshift_testkit"),
        ("tools/viewer/src", "planeshift_viewer"),
    ] {
        found.extend(crate_cycles(&root.join(dir), name));
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}
