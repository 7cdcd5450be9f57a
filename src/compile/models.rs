//! A brush entity's model: its bounds and its pivot (what the model is to its game,
//! [`ModelKind`](crate::compiled::ModelKind), is the game's rule: `crate::game::rules`).
//!
//! Takes a brush entity and its brushes; gives the model's bounds and `origin` key.
//! Guarantees: bounds cover every brush; a pivot is finite and within the world limit.

use glam::{DVec3, Vec3};

use crate::brush::Brush;
use crate::map::MapEntity;

/// The bounds of `brushes` (zero for none).
pub(super) fn model_bounds(brushes: &[&Brush]) -> (Vec3, Vec3) {
    if brushes.is_empty() {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    let mins = brushes.iter().fold(DVec3::INFINITY, |m, b| m.min(b.mins));
    let maxs = brushes
        .iter()
        .fold(DVec3::NEG_INFINITY, |m, b| m.max(b.maxs));
    (mins.as_vec3(), maxs.as_vec3())
}

/// The entity's `origin` key as three finite numbers within the world limit.
pub(super) fn origin_key(entity: &MapEntity) -> Option<Vec3> {
    let v = entity.origin()?;
    (v.abs().max_element() <= crate::tolerance::MAX_MAP_COORD).then_some(v.as_vec3())
}
