//! Shared build-time geometry: planes and convex windings in f64. Knows nothing of maps or
//! trees.
//!
//! Takes points, gives [`BuildPlane`]s (unit normal pointing out of solid, snapped when
//! near-axial) and [`Winding`]s (convex polygons on a plane). Guarantees: a `BuildPlane`
//! always has a unit, finite normal with no `-0.0` components.

mod plane;
mod winding;

pub use plane::{BuildPlane, PlaneKind};
pub use winding::Winding;
pub(crate) use winding::base_square;
