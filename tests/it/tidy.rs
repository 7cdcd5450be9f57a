//! Repository rules: every Rust file opens with a `//!` doc saying what it takes and gives;
//! every path ARCHITECTURE.md, README.md and the pages of `docs/` name exists, and so does
//! every file their relative links point at; README.md and ARCHITECTURE.md stay within
//! their line budgets; and every page of `docs/` with Rust examples is included by
//! `src/doc_pages.rs`, so its examples run as doc tests.

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

/// The prefixes that make a word of the docs a repository path.
const REPOSITORY_PATH_PREFIXES: [&str; 11] = [
    "src/",
    "tests/",
    "tools/",
    "benches/",
    "maps/",
    "examples/",
    ".ci/",
    "docs/",
    "planeshift_bevy/",
    "planeshift-c/",
    "bindings/",
];

/// The most lines README.md may have (issue 38: the front door stays short).
const README_MAX_LINES: usize = 250;

/// The most lines ARCHITECTURE.md may have (issue 38: the code map, the data's way, the
/// invariants; decisions live in `docs/decisions/`). 400 when the front door landed; the
/// movement profiles, the mesh stage, the stored clip hulls and the C API (issues 37, 39
/// and 40) each took a paragraph of the code map.
const ARCHITECTURE_MAX_LINES: usize = 460;

/// Every `.md` file below `dir`.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The words of `text` that name a repository path (a known top folder first, no
/// wildcard), each as written.
fn repository_paths_named(text: &str) -> Vec<&str> {
    text.split(['`', ' ', '\n', '(', ')', ',', ';'])
        .map(|word| word.trim_end_matches(['.', ':']))
        .filter(|word| {
            REPOSITORY_PATH_PREFIXES.iter().any(|p| word.starts_with(p)) && !word.contains('*')
        })
        .collect()
}

/// The repository paths a markdown file names that do not exist, and how many it names.
fn missing_paths_named_in(root: &Path, file: &Path) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let named = repository_paths_named(&text);
    let missing = named
        .iter()
        .filter(|word| !root.join(word).exists())
        .map(|word| word.to_string())
        .collect();
    (missing, named.len())
}

#[test]
fn paths_named_in_architecture_md_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (missing, named) = missing_paths_named_in(root, &root.join("ARCHITECTURE.md"));
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names missing paths {missing:?}"
    );
    assert!(
        named > 5,
        "ARCHITECTURE.md should name the code map's paths"
    );
}

#[test]
fn paths_named_in_readme_and_docs_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    markdown_files(&root.join("docs"), &mut files);
    assert!(files.len() > 5, "README.md and the docs pages: {files:?}");
    let mut named = 0;
    for file in &files {
        let (missing, count) = missing_paths_named_in(root, file);
        named += count;
        assert!(
            missing.is_empty(),
            "{} names missing paths {missing:?}",
            file.strip_prefix(root).unwrap_or(file).display()
        );
    }
    assert!(named > 20, "the docs should name the code they describe");
}

/// The relative link targets of a markdown file (`[text](target)`), without their `#anchor`;
/// web addresses and in-page anchors left out.
fn relative_links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or_default())
        .filter(|target| !target.is_empty() && !target.contains("://"))
        .collect()
}

#[test]
fn links_between_the_docs_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    markdown_files(&root.join("docs"), &mut files);
    let mut links = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let dir = file.parent().unwrap_or(root);
        for target in relative_links(&text) {
            links += 1;
            assert!(
                dir.join(target).exists(),
                "{} links to missing {target}",
                file.strip_prefix(root).unwrap_or(file).display()
            );
        }
    }
    assert!(links > 20, "the docs link to each other");
}

#[test]
fn readme_and_architecture_md_stay_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, most) in [
        ("README.md", README_MAX_LINES),
        ("ARCHITECTURE.md", ARCHITECTURE_MAX_LINES),
    ] {
        let text = std::fs::read_to_string(root.join(name)).unwrap_or_default();
        let lines = text.lines().count();
        assert!(lines > 0, "{name} is missing or empty");
        assert!(lines <= most, "{name} has {lines} lines, more than {most}");
    }
}

#[test]
fn every_docs_page_with_rust_examples_runs_them_as_doc_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let hook = std::fs::read_to_string(root.join("src/doc_pages.rs")).unwrap_or_default();
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap_or_default();
    assert!(
        lib.contains("mod doc_pages;"),
        "src/lib.rs declares the doc pages' doc tests"
    );
    assert!(
        lib.contains("include_str!(\"../README.md\")"),
        "src/lib.rs runs the README's examples as doc tests"
    );
    let mut pages = Vec::new();
    markdown_files(&root.join("docs"), &mut pages);
    let mut with_rust = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap_or_default();
        if !text.contains("```rust") {
            continue;
        }
        with_rust += 1;
        let relative = page.strip_prefix(root).unwrap_or(page);
        let include = format!("include_str!(\"../{}\")", relative.display());
        assert!(
            hook.contains(&include),
            "{} has Rust examples but src/doc_pages.rs does not include it",
            relative.display()
        );
    }
    assert!(with_rust > 0, "the docs pages hold Rust examples");
}
