//! Shared build-time geometry: planes, convex windings and convex solids in f64. Knows
//! nothing of maps or trees.
//!
//! Takes points, gives [`BuildPlane`]s (unit normal pointing out of solid, snapped when
//! near-axial), [`Winding`]s (convex polygons on a plane) and, for a solid bounded by planes,
//! its faces' windings, bounds and volume (`solid.rs`). Guarantees: a `BuildPlane` always has
//! a unit, finite normal with no `-0.0` components.

mod plane;
mod solid;
mod winding;

pub use plane::{BuildPlane, PlaneKind};
pub use solid::bounds_of;
pub(crate) use solid::{convex_volume, cut_planes};
pub use winding::Winding;
pub(crate) use winding::base_square;
#[cfg(feature = "mesh")]
pub(crate) use winding::PartBehind;
