//! Repository rules: every Rust file opens with a `//!` doc saying what it takes and gives,
//! and every path ARCHITECTURE.md names exists.

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir` (also the import-cycle rule's input, `tidy_imports.rs`).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_module_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tools", "tests", "benches", "examples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10);
    let missing: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a //! doc: {missing:?}");
}

#[test]
fn paths_named_in_architecture_md_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut named = 0;
    for word in text.split(['`', ' ', '(', ')', ',']) {
        let word = word.trim_end_matches(['.', ':']);
        let is_path = [
            "src/",
            "tests/",
            "tools/",
            "benches/",
            "maps/",
            "examples/",
            ".ci/",
        ]
        .iter()
        .any(|p| word.starts_with(p));
        if is_path && !word.contains('*') {
            named += 1;
            assert!(
                root.join(word).exists(),
                "ARCHITECTURE.md names missing path {word}"
            );
        }
    }
    assert!(
        named > 5,
        "ARCHITECTURE.md should name the code map's paths"
    );
}
