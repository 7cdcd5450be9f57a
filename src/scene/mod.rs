//! The scene: queries across the world, its movers and a crowd's characters, with a filter.
//!
//! Takes a compiled map, movers at their placements and a crowd's [`Bodies`]; gives one
//! query type ([`Scene`]) answering traces and overlaps of upright and rotated shapes
//! (`query.rs`), every hit along a sweep in order (`through.rs`, penetration) and
//! everything a shape reaches with its distance (`area.rs`, explosions), with a
//! [`QueryFilter`], and the filters themselves ([`CollisionGroups`], [`QueryFilter`]) that
//! characters' movement applies too. Guarantees: a hit names what it hit
//! ([`Trace::target`](crate::trace::Trace::target)); no allocation per query (the buffered queries reuse the caller's
//! buffer). `through.rs` and `area.rs` build on `query.rs`, never the other way.
//!
//! [`Bodies`]: crate::crowd::Bodies

mod area;
mod query;
mod through;

pub use crate::filter::{CollisionGroups, QueryFilter};
pub use area::{AREA_DISTANCE_TOLERANCE, AreaHit};
pub use query::Scene;
