//! Querying a level, beyond [`Trace`](crate::Trace), [`TraceShape`](crate::TraceShape),
//! [`Scene`](crate::Scene) and [`QueryFilter`](crate::QueryFilter): batches of sweeps, the
//! shapes' kinds and spec errors, collision groups, area queries, the planes a sweep reports,
//! the limits every query keeps, and a point walked through a Quake 1 level's own
//! clip hulls ([`HullWalk`]).
//!
//! Takes nothing of its own: it names, once each, the items of the sweep and scene stages a
//! game needs beside the daily ones at the root. Guarantees: every item here has this one
//! public path.

pub use crate::compiled::Plane;
pub use crate::compiled::{HULL_COUNT, MAX_CLIP_HULL_DEPTH};
pub use crate::filter::CollisionGroups;
pub use crate::scene::{AREA_DISTANCE_TOLERANCE, AreaHit};
pub use crate::trace::{DIST_EPSILON, HullWalk, ShapeKind, ShapeSpecError, StopRule, TraceQuery};

use crate::tolerance;

/// The largest size or coordinate of a shape, relative to its reference point, in map
/// units: the shape constructors refuse more.
pub const MAX_SHAPE_EXTENT: f32 = tolerance::MAX_SHAPE_EXTENT;

/// The most points a convex hull shape may have.
pub const MAX_HULL_POINTS: usize = tolerance::MAX_HULL_POINTS;

/// The longest stop distance a sweep may ask for ([`CompiledMap::trace_stopping`](crate::CompiledMap::trace_stopping)),
/// in map units.
pub const MAX_STOP_DISTANCE: f32 = tolerance::MAX_STOP_DISTANCE;

/// The largest coordinate a sweep may start or end at, in map units: beyond it (or not
/// finite) a sweep answers start-solid and all-solid at its start.
pub const MAX_COORD: f32 = tolerance::MAX_COMPILED_COORD;
