//! planeshift: FPS character collision against Quake-family level geometry.
//!
//! The pipeline, one module per stage, in data-flow order:
//!
//! ```text
//! .map bytes --map--> MapFile --brush--> Vec<Brush> --bsp--> BspTree --compiled--> CompiledMap
//!                                                        --trace--> Trace --controller--> movement
//! ```
//!
//! Beside the pipeline, `view` draws a compiled world and its sweeps from above into a
//! pixmap (no window; the windowed viewer is `examples/trace_visualizer.rs`).
//!
//! Conventions: Quake map units (about an inch), Z up, right-handed; plane normals point out
//! of solid; a brush is the intersection of `{ x : n·x <= dist }` over its planes. The
//! compiler works in f64; the runtime in f32.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![warn(missing_docs)]

pub mod brush;
pub mod bsp;
pub mod compile;
pub mod compiled;
pub mod contents;
pub mod controller;
pub mod geom;
pub mod map;
pub mod tolerance;
pub mod trace;
pub mod view;
