//! One compile per large map per test run: [`compile`] keeps the output of every source of
//! at least [`CACHED_FROM_BYTES`] (the real and bundled maps) and gives later callers, on any
//! test thread, a clone of it. The compiler is deterministic
//! (`compiled::every_map_compiles_to_the_same_bytes_twice` compares two fresh compiles), so a
//! clone is what a fresh compile would give; a test that needs a fresh compile calls
//! `planeshift::compile_map` itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use planeshift::{CompileError, CompileOutput};

/// Sources shorter than this are compiled afresh each time, in bytes: the hand-written maps
/// of single tests (a few boxes) compile in microseconds and are many, so keeping them
/// would only hold memory.
const CACHED_FROM_BYTES: usize = 4_096;

/// A compile output per source, each behind its own cell so that two threads asking for one
/// map compile it once and a map being compiled does not hold up lookups of others.
type Cache = Mutex<HashMap<Vec<u8>, Arc<OnceLock<Compiled>>>>;

/// What a compile gave: the output or the error.
type Compiled = Result<CompileOutput, CompileError>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// Compiles `.map` bytes (with default options), panicking on failure; large sources are
/// compiled once per test run (see the module's documentation).
pub fn compile(src: &[u8]) -> CompileOutput {
    try_compile(src).unwrap_or_else(|e| panic!("compile failed: {e}"))
}

/// Compiles `.map` bytes (with default options); large sources are compiled once per test
/// run, their errors too (see the module's documentation).
pub fn try_compile(src: &[u8]) -> Compiled {
    if src.len() < CACHED_FROM_BYTES {
        return planeshift::compile_map(src);
    }
    let cell = {
        let mut map = cache()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(map.entry(src.to_vec()).or_default())
    };
    cell.get_or_init(|| planeshift::compile_map(src)).clone()
}
