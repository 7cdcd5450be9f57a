//! Repository rule: no import cycle anywhere. Takes the Rust sources of the library, `bspc`,
//! the `fps_movement` example and the harness, test support and viewer packages; gives a failure naming every cycle, (a) between the files of one
//! module folder (siblings that import each other, directly or around a loop) and (b) between
//! the library's top-level modules (stages that import each other), and between folders of one
//! stage.
//!
//! Imports are read from the text: `use` trees (braces expanded) and paths written inline
//! (`super::water::…`, `crate::brush::…`), with comments, `#[cfg(test)]` modules and
//! `#[cfg(doc)]` imports left out (a test module sees its parent; a doc link imports nothing).
//! A path is followed through the `pub use` re-exports of the modules it passes (the root's
//! included) to the module that defines its item: `crate::Game`, re-exported by the root
//! from `game`, is an import of `game`; `super::Thing`, re-exported by the parent's `mod.rs`
//! from a sibling, is an import of that sibling. A path to an item an ancestor defines itself
//! is the module tree, not an edge.

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

/// Whether the text after an attribute starts with a `mod` item with its body inline (a test
/// module; `#[cfg(test)] mod name;` declares a file and is skipped alone).
fn is_module_item(after: &str) -> bool {
    let rest = after.trim_start();
    let declared = rest
        .lines()
        .next()
        .is_some_and(|l| l.trim_end().ends_with(';'));
    !declared
        && (rest.starts_with("mod ")
            || rest.starts_with("pub mod ")
            || rest.starts_with("pub(crate) mod "))
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

/// What a module re-exports (`pub use`, `pub(crate) use`, `pub(super) use`): each name it
/// gives, with the path it names, as written in that module.
type Reexports = BTreeMap<ModPath, BTreeMap<String, String>>;

/// The names `code` re-exports and the paths they stand for (an `as` alias names the item
/// by the alias; a glob gives no name).
fn reexports_in(code: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let before = rest[..at].trim_end();
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        let public = ["pub", "pub(crate)", "pub(super)"].iter().any(|v| {
            before.ends_with(v)
                && !before[..before.len() - v.len()]
                    .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        });
        if public {
            let tree: String = after[..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let mut leaves = Vec::new();
            expand_use_named(&tree, "", &mut leaves);
            for (name, path) in leaves {
                out.insert(name, path);
            }
        }
        rest = &after[end..];
    }
    out
}

/// [`expand_use`] keeping each leaf's name: its alias, or its last segment.
fn expand_use_named(tree: &str, prefix: &str, out: &mut Vec<(String, String)>) {
    let mut paths = Vec::new();
    expand_use(tree, prefix, &mut paths);
    let mut aliases = Vec::new();
    collect_aliases(tree, &mut aliases);
    for path in paths {
        let last = path.rsplit("::").next().unwrap_or(&path).to_owned();
        if last == "*" || last == "self" {
            continue;
        }
        let name = aliases
            .iter()
            .find(|(original, _)| *original == last)
            .map_or(last.clone(), |(_, alias)| alias.clone());
        out.push((name, path));
    }
}

/// The `original as alias` pairs of a use tree.
fn collect_aliases(tree: &str, out: &mut Vec<(String, String)>) {
    let words: Vec<&str> = tree.split([',', '{', '}']).collect();
    for word in words {
        if let Some((original, alias)) = word.split_once(" as ") {
            let original = original.trim().rsplit("::").next().unwrap_or("").to_owned();
            out.push((original, alias.trim().to_owned()));
        }
    }
}

/// The module a path names, resolved from `module` to the longest known module prefix, then
/// through re-exports (`pub use`) to the module that defines the item it names: `crate::Game`
/// re-exported by the root from `game` names `game`.
fn resolve_through(
    module: &ModPath,
    path: &str,
    known: &BTreeSet<ModPath>,
    reexports: &Reexports,
) -> Option<ModPath> {
    const MOST_HOPS: usize = 8;
    let mut from = module.clone();
    let mut path = path.to_owned();
    let mut found = resolve(&from, &path, known)?;
    for _ in 0..MOST_HOPS {
        let Some(item) = item_after(&from, &path, &found) else {
            break;
        };
        let Some(target) = reexports.get(&found).and_then(|r| r.get(&item)) else {
            break;
        };
        // A path in a `use` of `found` is relative to `found` unless it starts at `crate`,
        // `super` or `self` (2018 paths: a leading child module name).
        let next = if ["crate", "super", "self"]
            .iter()
            .any(|root| target == root || target.starts_with(&format!("{root}::")))
        {
            target.clone()
        } else {
            format!("self::{target}")
        };
        let Some(next_found) = resolve(&found, &next, known) else {
            break;
        };
        from = found;
        path = next;
        found = next_found;
    }
    Some(found)
}

/// The module a path written in `module` starts from (`crate`, `self`, `super`...), taking
/// those leading segments; `None` for a path from outside the crate.
fn path_start<'a>(
    module: &ModPath,
    segments: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Option<ModPath> {
    match segments.next()? {
        "crate" => Some(Vec::new()),
        "self" => Some(module.clone()),
        "super" => {
            let mut base = module.clone();
            base.pop()?;
            while segments.peek() == Some(&"super") {
                segments.next();
                base.pop()?;
            }
            Some(base)
        }
        _ => None,
    }
}

/// The segment of `path` (written in `module`) right after the module it resolved to.
fn item_after(module: &ModPath, path: &str, resolved: &ModPath) -> Option<String> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut at = path_start(module, &mut segments)?;
    if at == *resolved {
        return segments.next().map(str::to_owned);
    }
    for segment in segments.by_ref() {
        at.push(segment.to_owned());
        if at == *resolved {
            break;
        }
    }
    segments.next().map(str::to_owned)
}

/// The module a path names, resolved from `module` to the longest known module prefix.
fn resolve(module: &ModPath, path: &str, known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut base = path_start(module, &mut segments)?;
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
    let reexports: Reexports = modules
        .iter()
        .map(|(module, code)| (module.clone(), reexports_in(code)))
        .collect();
    let mut graph: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (module, code) in &modules {
        for path in paths_in(code) {
            let Some(target) = resolve_through(module, &path, &known, &reexports) else {
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
fn the_rules_follow_reexports_to_a_cycle() {
    // `one` names `two`'s item by the root's re-export (`crate::Thing`), `two` imports `one`:
    // a cycle between stages the root's `pub use` would hide.
    let dir = std::env::temp_dir().join(format!("planeshift-tidy-re-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "//! x\nmod one;\n#[cfg(test)]\nmod test_only;\nmod two;\npub use two::{Other as Renamed, Thing};\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("one.rs"),
        "//! x\nfn f() { crate::Thing::new(); }\n",
    )
    .unwrap();
    std::fs::write(dir.join("two.rs"), "//! x\nuse crate::one::f;\n").unwrap();
    let through_root = crate_cycles(&dir, "planted");
    // The same through an alias.
    std::fs::write(dir.join("one.rs"), "//! x\nuse crate::Renamed;\n").unwrap();
    let through_alias = crate_cycles(&dir, "planted");
    // And not when the root's item is its own.
    std::fs::write(
        dir.join("lib.rs"),
        "//! x\nmod one;\nmod two;\npub struct Thing;\npub struct Renamed;\n",
    )
    .unwrap();
    let own = crate_cycles(&dir, "planted");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(through_root, ["planted: one <-> two"]);
    assert_eq!(through_alias, ["planted: one <-> two"]);
    assert!(own.is_empty(), "{own:?}");
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
