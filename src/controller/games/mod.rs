//! Other games' own player movement, ported tick for tick beside planeshift's controller.
//!
//! Takes a world through the crate's seam ([`Tracer`](super::Tracer)) and a game's command;
//! gives that game's next player state. Guarantees: each profile follows its game's code in
//! its order and its float precision, with no platform maths (sines and cosines are
//! computed here), so the same inputs give the same bits on every machine.

pub mod quakeworld;
