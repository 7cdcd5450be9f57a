//! The bundled maps (`maps/` of this repository) compiled for the crate's unit tests.
//!
//! Takes a file name under `maps/`; gives its compiled map. Guarantees: a missing or
//! uncompilable bundled map fails the test that asked, naming the file.

use crate::CompiledMap;

/// `maps/NAME` compiled with the default options.
pub(crate) fn bundled(name: &str) -> CompiledMap {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("maps")
        .join(name);
    let Ok(src) = std::fs::read(&path) else {
        panic!("maps/{name} is bundled");
    };
    match crate::compile::compile_map(&src) {
        Ok(compiled) => compiled.map,
        Err(e) => panic!("maps/{name} compiles: {e}"),
    }
}
