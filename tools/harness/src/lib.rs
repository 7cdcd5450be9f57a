//! The `fps_movement` harness: what `examples/fps_movement` runs, as a library that the
//! example, planeshift's tests and the Bevy package's replay share.
//!
//! Takes a map's bytes and the run's options; gives the soak's counts ([`soak`]), the replay
//! contract's lines and state ([`replay`], its input lines read by [`replay_input`]), the
//! level's triggers as Quake 3 plays them ([`game`]), scattered start spots ([`scatter`]),
//! the bots' hitscans ([`shots`]), whether a bot ended inside solid ([`inside`]) and the mixed crowd of teams and monsters ([`mix`]).
//! Guarantees: the same inputs give the same bits (the controller and the crowd are
//! deterministic; only timings differ), and bad input is an error message, never a panic.

pub mod game;
pub mod inside;
pub mod mix;
pub mod replay;
pub mod replay_input;
pub mod scatter;
pub mod shots;
pub mod soak;
