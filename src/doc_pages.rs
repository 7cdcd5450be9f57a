//! The pages of `docs/` as doc tests: takes each page that holds Rust examples and gives
//! one item whose doc is that page, so `cargo test --doc` compiles and runs every example
//! the way it runs the README's. Compiled only for doc tests; `tests/it/tidy.rs` checks
//! that every page with a Rust block is listed here.

/// `docs/sweeps.md`: shapes, the trace contract, masks and contents.
#[doc = include_str!("../docs/sweeps.md")]
pub struct SweepsPage;

/// `docs/levels.md`: loading a level, models, entities and triggers.
#[doc = include_str!("../docs/levels.md")]
pub struct LevelsPage;

/// `docs/custom-games.md`: a game of your own.
#[doc = include_str!("../docs/custom-games.md")]
pub struct CustomGamesPage;

/// `docs/controller.md`: the character controller.
#[doc = include_str!("../docs/controller.md")]
pub struct ControllerPage;

/// `docs/crowds-and-scenes.md`: many characters and the scene's queries.
#[doc = include_str!("../docs/crowds-and-scenes.md")]
pub struct CrowdsAndScenesPage;
