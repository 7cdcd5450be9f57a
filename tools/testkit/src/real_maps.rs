//! Where the test maps are: the real maps written by others (`$PLANESHIFT_REAL_MAPS`) and
//! the hand-made ones in `maps/`. Shared by the library's tests, `tools/bspc/tests` and the
//! viewer's tests.

use std::path::{Path, PathBuf};

/// The repository's top folder: the nearest folder above the running package's manifest
/// that holds `ARCHITECTURE.md` (the workspace root, for `planeshift` and `bspc` alike).
pub fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("ARCHITECTURE.md").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// The folder of real maps written by others: `$PLANESHIFT_REAL_MAPS`, default
/// `../shared/maps` beside the repository. `None` (and a printed skip) when absent.
pub fn real_maps_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("PLANESHIFT_REAL_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/maps"));
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "{test}: skipped, real maps folder {} is missing (set PLANESHIFT_REAL_MAPS)",
            dir.display()
        );
        None
    }
}

/// Every `.map` under `dir`, sorted, as (relative name, path).
pub fn maps_in(dir: &Path) -> Vec<(String, PathBuf)> {
    files_in(dir, "map")
}

/// Every file with the extension `extension` under `dir`, sorted, as (path relative to
/// `dir` with `/` separators, path).
pub fn files_in(dir: &Path, extension: &str) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((name, path));
            }
        }
    }
    out.sort();
    out
}

/// The real maps, or an empty list (after printing a skip) when the folder is missing.
pub fn real_maps(test: &str) -> Vec<(String, PathBuf)> {
    real_maps_dir(test).map(|d| maps_in(&d)).unwrap_or_default()
}

/// The hand-authored maps bundled in `maps/`.
pub fn bundled_maps() -> Vec<(String, PathBuf)> {
    maps_in(&repo_root().join("maps"))
}
