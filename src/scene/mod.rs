//! The scene: queries across the world, its movers and a crowd's characters, with a filter.
//!
//! Takes a compiled map, movers at their placements and a crowd's [`Bodies`]; gives one
//! query type ([`Scene`]) answering traces and overlaps with a [`QueryFilter`], and the
//! filters themselves ([`CollisionGroups`], [`QueryFilter`]) that characters' movement
//! applies too. Guarantees: a hit names what it hit ([`HitTarget`]); no allocation per
//! query.
//!
//! [`Bodies`]: crate::controller::Bodies

mod query;

pub use crate::filter::{CollisionGroups, HitTarget, QueryFilter};
pub use query::{Scene, SceneHit};
