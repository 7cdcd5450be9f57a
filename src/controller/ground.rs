//! Ground: what the character stands on, found by sweeping its shape a little way down
//! (Quake 3 `PM_GroundTrace`), and the snap that keeps it on ground when walking down slopes
//! and stairs (Source `StayOnGround`).
//!
//! Takes the world ([`Tracer`](super::Tracer)), a shape and a position; gives a [`Ground`]: walkable, steep or air,
//! with the plane and model under the feet. Guarantees: only a real hit below the feet counts
//! (never an all-solid probe), and a crease of two steep planes whose combined normal is
//! walkable (a V valley), or a steep plane wedged against a wall, supports the character, as
//! Jolt's funnel check and Godot's averaged wall normals do.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::tracer::Sweeps;
use crate::compiled::{MaterialId, Plane};
use crate::surface::SurfaceFlags;
use crate::tolerance::{SAME_PLANE_DOT, SURFACE_CLIP_EPSILON};
use crate::trace::{HitTarget, Trace, TraceShape};

/// What kind of ground is under the character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroundState {
    /// Ground with normal z at least the walkable limit: the character walks on it.
    Walkable,
    /// Ground too steep to stand on: the character slides down it.
    Steep,
    /// Nothing within the ground probe, or rising off the ground.
    Air,
}

/// What is under the character.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SavedGround", into = "SavedGround")]
pub struct Ground {
    /// Walkable, steep or air.
    pub state: GroundState,
    /// The ground's unit normal (for a V valley, the normalized sum of its two planes); `None`
    /// in the air.
    pub normal: Option<Vec3>,
    /// The plane under the feet, as the sweep reported it; `None` in the air.
    pub plane: Option<Plane>,
    /// What is under the feet: the world, submodel `*k`, or a character (Quake 3's
    /// `groundEntityNum`; characters never carry the ones standing on them); `None` in the
    /// air.
    pub target: Option<HitTarget>,
    /// The surface flags of the side under the feet (slick, metal steps...); empty in the
    /// air.
    pub surface: SurfaceFlags,
    /// The material of the side under the feet; `None` in the air.
    pub material: Option<MaterialId>,
}

/// [`Ground`] as saved states write it: the model and the character under the feet in two
/// fields, as they were before [`Ground::target`] said both (a saved state reads back
/// unchanged, and a state saved now reads in an older build).
#[derive(Serialize, Deserialize)]
struct SavedGround {
    state: GroundState,
    normal: Option<Vec3>,
    plane: Option<Plane>,
    model: Option<usize>,
    surface: SurfaceFlags,
    material: Option<MaterialId>,
    #[serde(default)]
    character: Option<u32>,
}

impl From<SavedGround> for Ground {
    fn from(saved: SavedGround) -> Ground {
        let target = match (saved.character, saved.model) {
            (Some(id), _) => Some(HitTarget::Character(id)),
            (None, Some(model)) => Some(HitTarget::of_model(model)),
            (None, None) => None,
        };
        Ground {
            state: saved.state,
            normal: saved.normal,
            plane: saved.plane,
            target,
            surface: saved.surface,
            material: saved.material,
        }
    }
}

impl From<Ground> for SavedGround {
    fn from(ground: Ground) -> SavedGround {
        SavedGround {
            state: ground.state,
            normal: ground.normal,
            plane: ground.plane,
            model: ground.target.and_then(HitTarget::model),
            surface: ground.surface,
            material: ground.material,
            character: ground.target.and_then(HitTarget::character),
        }
    }
}

impl Ground {
    /// No ground.
    pub const AIR: Ground = Ground {
        state: GroundState::Air,
        normal: None,
        plane: None,
        target: None,
        surface: SurfaceFlags::EMPTY,
        material: None,
    };

    /// Whether the character stands on walkable ground.
    #[must_use]
    pub fn is_walkable(&self) -> bool {
        self.state == GroundState::Walkable
    }
}

/// Finds the ground within `probe` below `position`.
pub(crate) fn probe_ground<T: Sweeps + ?Sized>(
    world: &T,
    shape: &TraceShape,
    position: Vec3,
    probe: f32,
    walkable_normal_z: f32,
) -> Ground {
    let below = position - Vec3::Z * probe;
    let trace = world.trace(shape, position, below);
    ground_hit(world, shape, &trace, probe, walkable_normal_z)
}

/// The ground a downward sweep from the character's position found: the probe's own, or a
/// longer one such as the snap's, whose first hit is the same one when it lies within the
/// probe (the caller checks that distance).
pub(crate) fn ground_hit<T: Sweeps + ?Sized>(
    world: &T,
    shape: &TraceShape,
    trace: &Trace,
    probe: f32,
    walkable_normal_z: f32,
) -> Ground {
    let (Some(normal), Some(plane)) = (trace.normal, trace.plane) else {
        return Ground::AIR;
    };
    if trace.all_solid || !trace.hit() {
        return Ground::AIR;
    }
    if normal.z >= walkable_normal_z {
        return Ground {
            state: GroundState::Walkable,
            normal: Some(normal),
            plane: Some(plane),
            target: trace.target,
            surface: trace.surface,
            material: trace.material,
        };
    }
    if normal.z <= 0.0 {
        // A ceiling or an overhang below the feet is no ground.
        return Ground::AIR;
    }
    // Steep: slide the probe down the slope; a second steep plane that together with the
    // first makes walkable support means a valley the character rests in.
    // The probe leaves the first plane by the stop distance, so rounding cannot make it
    // graze that plane again.
    let downhill = (-Vec3::Z)
        .reject_from_normalized(normal)
        .normalize_or_zero()
        * probe
        + normal * SURFACE_CLIP_EPSILON;
    let along = world.trace(shape, trace.end, trace.end + downhill);
    let second = along
        .normal
        .filter(|n| along.hit() && !along.all_solid && n.dot(normal) < SAME_PLANE_DOT);
    if let Some(other) = second {
        let combined = (normal + other).normalize_or_zero();
        // A V of two slopes whose sum is walkable supports; so does a steep plane (or a
        // round shape's edge contact) wedged against a wall: sliding is blocked either way
        // (Jolt's "supported"), and the character may walk and jump, on level ground.
        let supported = if other.z > 0.0 && combined.z >= walkable_normal_z {
            Some(combined)
        } else if other.z.abs() < walkable_normal_z && combined.z > 0.0 {
            Some(Vec3::Z)
        } else {
            None
        };
        if let Some(support) = supported {
            return Ground {
                state: GroundState::Walkable,
                normal: Some(support),
                plane: Some(plane),
                target: trace.target,
                surface: trace.surface,
                material: trace.material,
            };
        }
    }
    Ground {
        state: GroundState::Steep,
        normal: Some(normal),
        plane: Some(plane),
        target: trace.target,
        surface: trace.surface,
        material: trace.material,
    }
}

/// Where a downward sweep lands the character, if on walkable ground (Source
/// `StayOnGround`: accept only walkable hits, not from inside).
pub(crate) fn snap_landing(trace: &Trace, walkable_normal_z: f32) -> Option<Vec3> {
    let normal = trace.normal?;
    let lands = trace.hit() && !trace.start_solid && normal.z >= walkable_normal_z;
    lands.then_some(trace.end)
}
