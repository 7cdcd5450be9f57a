//! Repository rule: a small front door. Takes the text of `src/lib.rs` and of the public
//! modules it declares; gives a failure when the crate root has more than
//! `MOST_ROOT_ITEMS` public items, or when one name has two public paths (the root and a
//! module, or two modules). The modules public only with a feature (`view`) and those public
//! only with `internals` (`internal_mod!`) are not the surface and are not read.

use std::collections::BTreeMap;
use std::path::Path;

/// The most public items the crate root may have: modules, re-exports, constants, functions,
/// types and exported macros alike.
const MOST_ROOT_ITEMS: usize = 30;

/// The code of `text` at brace depth 0, one item a line, without comments.
fn top_level(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for line in text.lines() {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    if depth == 1 {
                        current.push(c);
                    }
                    continue;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        current.push(c);
                        // A braced item (a module, a macro) ends here unless a `;` follows.
                        if !current.trim_start().starts_with("pub use") {
                            items.push(std::mem::take(&mut current));
                        }
                    }
                    continue;
                }
                _ => {}
            }
            if depth == 0 {
                current.push(c);
                if c == ';' {
                    items.push(std::mem::take(&mut current));
                }
            } else if depth >= 1 && current.trim_start().starts_with("pub use") {
                current.push(c);
            }
        }
        current.push(' ');
    }
    items
        .into_iter()
        .map(|i| i.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|i| !i.is_empty())
        .collect()
}

/// The names a top-level item makes public, and whether it is a module declared by a file
/// (`pub mod name;`) and public whatever the features.
fn public_names(items: &[String]) -> (Vec<String>, Vec<String>) {
    let mut names = Vec::new();
    let mut modules = Vec::new();
    let mut gated = false;
    for item in items {
        // Attributes arrive glued to the item they precede.
        gated = gated || item.contains("#[cfg(feature");
        let body = item.rsplit(']').next().unwrap_or(item).trim();
        if let Some(tree) = body.strip_prefix("pub use ") {
            let tree = tree.trim_end_matches(';');
            let leaves = match (tree.find('{'), tree.rfind('}')) {
                (Some(open), Some(close)) => tree[open + 1..close].to_owned(),
                _ => tree.to_owned(),
            };
            for leaf in leaves.split(',') {
                let leaf = leaf.trim();
                let name = match leaf.split_once(" as ") {
                    Some((_, alias)) => alias.trim(),
                    None => leaf.rsplit("::").next().unwrap_or(leaf),
                };
                if !name.is_empty() && name != "self" {
                    names.push(name.to_owned());
                }
            }
        } else if let Some(rest) = [
            "pub mod ",
            "pub const ",
            "pub static ",
            "pub fn ",
            "pub struct ",
            "pub enum ",
            "pub trait ",
            "pub type ",
        ]
        .iter()
        .find_map(|p| body.strip_prefix(p))
        {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if body.starts_with("pub mod ") {
                if gated {
                    gated = false;
                    continue;
                }
                if body.ends_with(';') {
                    modules.push(name.clone());
                }
            }
            names.push(name);
        } else if body.starts_with("macro_rules!") && item.contains("#[macro_export]") {
            names.push(body.split(['!', ' ', '{']).nth(2).unwrap_or("").to_owned());
        }
        gated = false;
    }
    (names, modules)
}

/// The text of module `name` of the crate whose source folder is `src`.
fn module_text(src: &Path, name: &str) -> String {
    std::fs::read_to_string(src.join(format!("{name}.rs")))
        .or_else(|_| std::fs::read_to_string(src.join(name).join("mod.rs")))
        .unwrap_or_default()
}

fn library_root() -> (std::path::PathBuf, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let text = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    (src, text)
}

#[test]
fn the_root_has_at_most_30_public_items() {
    let (_, text) = library_root();
    let (names, _) = public_names(&top_level(&text));
    assert!(names.len() >= 10, "the reading found too few: {names:?}");
    assert!(
        names.len() <= MOST_ROOT_ITEMS,
        "{} public items at the crate root (at most {MOST_ROOT_ITEMS}): {names:?}",
        names.len()
    );
}

#[test]
fn every_public_item_has_one_path() {
    let (src, text) = library_root();
    let (root_names, modules) = public_names(&top_level(&text));
    let mut paths: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in root_names {
        paths
            .entry(name.clone())
            .or_default()
            .push(format!("planeshift::{name}"));
    }
    for module in &modules {
        let (names, _) = public_names(&top_level(&module_text(&src, module)));
        for name in names {
            paths
                .entry(name.clone())
                .or_default()
                .push(format!("planeshift::{module}::{name}"));
        }
    }
    let twice: Vec<String> = paths
        .values()
        .filter(|p| p.len() > 1)
        .map(|p| p.join(" and "))
        .collect();
    assert!(
        twice.is_empty(),
        "names with two public paths:\n{}",
        twice.join("\n")
    );
}

#[test]
fn the_rules_count_and_find_a_second_path() {
    let text = "//! x\nmod a;\n/// doc { not code }\npub mod b;\n#[cfg(feature = \"v\")]\npub mod v;\n\
                pub use a::{X, Y as Z};\npub use a::W;\npub const C: u8 = 1;\n\
                internal_mod! { mod d; }\n#[macro_export]\nmacro_rules! m { () => {} }\n";
    let (names, modules) = public_names(&top_level(text));
    assert_eq!(names, ["b", "X", "Z", "W", "C", "m"]);
    assert_eq!(modules, ["b"]);
    let (in_b, _) = public_names(&top_level(
        "//! b\npub use crate::a::{W, Q};\npub struct R;\n",
    ));
    assert_eq!(in_b, ["W", "Q", "R"]);
}
