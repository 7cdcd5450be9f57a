//! Shapes and sweeps: make a shape of any kind, sweep it through a level (the world and its
//! static models) under a mask, or through a scene of the level and a crowd's characters
//! under a filter.
//!
//! Takes shape parameters, a level, a start, an end and a mask or filter; gives a `PsShape`
//! handle or one [`PsTrace`], the one hit type. Guarantees: the sweep is the library's
//! (`Scene::trace` with no movers: the bits `bspc trace` prints); a bad shape or a
//! non-finite point is [`PsStatus::InvalidArgument`]; shapes and levels are read-only, so
//! sweeps may run on any number of threads at once.

use std::ffi::c_char;

use glam::Vec3;
use planeshift::movement::Bodies;
use planeshift::{HitTarget, QueryFilter, Scene, Trace, TraceShape};

use crate::ffi::{PsVec3, finite, read_ref, text, write_out};
use crate::status::{Error, PsStatus, guard};
use crate::{CROWDS, LEVELS, PsCrowd, PsLevel, PsShape, SHAPES};

/// What a sweep met: nothing, the world, a submodel, or a character.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PsHitKind {
    /// Nothing (a miss).
    #[default]
    None = 0,
    /// The world model.
    World = 1,
    /// Submodel `target_id` (Quake's `*k`).
    Model = 2,
    /// Character `target_id` of the crowd.
    Character = 3,
}

/// The one result of every sweep.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PsTrace {
    /// How far along the sweep it stopped, 0 to 1 (1: nothing hit).
    pub fraction: f32,
    /// Where the shape's reference point stopped.
    pub end: PsVec3,
    /// The normal of the surface hit (valid when `has_normal`).
    pub normal: PsVec3,
    /// Whether `normal` holds one.
    pub has_normal: bool,
    /// The shape started inside something the mask meets.
    pub start_solid: bool,
    /// The whole sweep lay inside it.
    pub all_solid: bool,
    /// The contents of what was hit (`PS_CONTENTS_*` bits).
    pub contents: u32,
    /// The surface flags of the side hit.
    pub surface: u32,
    /// The side's material (`ps_level_material_name`), or -1 for none.
    pub material: i64,
    /// What was hit.
    pub target: PsHitKind,
    /// The model index or the character id of `target`.
    pub target_id: u32,
}

impl From<&Trace> for PsTrace {
    fn from(t: &Trace) -> PsTrace {
        let (target, target_id) = match t.target {
            None => (PsHitKind::None, 0),
            Some(HitTarget::World) => (PsHitKind::World, 0),
            Some(HitTarget::Model(m)) => (PsHitKind::Model, u32::try_from(m).unwrap_or(u32::MAX)),
            Some(HitTarget::Character(id)) => (PsHitKind::Character, id),
        };
        PsTrace {
            fraction: t.fraction,
            end: t.end.into(),
            normal: t.normal.unwrap_or(Vec3::ZERO).into(),
            has_normal: t.normal.is_some(),
            start_solid: t.start_solid,
            all_solid: t.all_solid,
            contents: t.contents.0,
            surface: t.surface.0,
            material: t.material.map_or(-1, |m| i64::from(m.0)),
            target,
            target_id,
        }
    }
}

/// Keeps `shape` (or refuses its parameters) and writes its handle.
unsafe fn make(shape: Option<TraceShape>, what: &str, out: *mut PsShape) -> Result<(), Error> {
    if out.is_null() {
        return Err(crate::ffi::null("out"));
    }
    let shape = shape.ok_or_else(|| {
        Error::new(
            PsStatus::InvalidArgument,
            format!("invalid {what} parameters"),
        )
    })?;
    let handle = SHAPES.insert(shape)?;
    // SAFETY: checked non-null; the caller promises it is writable.
    unsafe { write_out(out, PsShape(handle), "out") }
}

/// A point (a ray when swept).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_point(out: *mut PsShape) -> PsStatus {
    // SAFETY: the caller's promise.
    guard(|| unsafe { make(Some(TraceShape::point()), "point", out) })
}

/// A sphere of `radius` about its centre.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_sphere(radius: f32, out: *mut PsShape) -> PsStatus {
    // SAFETY: the caller's promise.
    guard(|| unsafe { make(TraceShape::sphere(radius), "sphere", out) })
}

/// An axis-aligned box from `mins` to `maxs` about the reference point (Quake's player:
/// -15,-15,-24 to 15,15,32).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_box(mins: PsVec3, maxs: PsVec3, out: *mut PsShape) -> PsStatus {
    // SAFETY: the caller's promise.
    guard(|| unsafe { make(TraceShape::aabb(mins.into(), maxs.into()), "box", out) })
}

/// An upright cylinder of `radius`, `half_height` above and below its centre.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_cylinder(
    radius: f32,
    half_height: f32,
    out: *mut PsShape,
) -> PsStatus {
    // SAFETY: the caller's promise.
    guard(|| unsafe { make(TraceShape::cylinder(radius, half_height), "cylinder", out) })
}

/// An upright capsule of `radius`, its segment `half_height` above and below its centre.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_capsule(
    radius: f32,
    half_height: f32,
    out: *mut PsShape,
) -> PsStatus {
    // SAFETY: the caller's promise.
    guard(|| unsafe { make(TraceShape::capsule(radius, half_height), "capsule", out) })
}

/// The convex hull of `points[0..count]` (at least 4 not in one plane).
///
/// # Safety
/// `points` holds `count` readable vectors; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_hull(
    points: *const PsVec3,
    count: usize,
    out: *mut PsShape,
) -> PsStatus {
    guard(|| {
        if count == 0 {
            return Err(Error::new(PsStatus::InvalidArgument, "a hull needs points"));
        }
        if points.is_null() {
            return Err(crate::ffi::null("points"));
        }
        if count > isize::MAX as usize / std::mem::size_of::<PsVec3>() {
            return Err(Error::new(
                PsStatus::InvalidArgument,
                "`count` is larger than any buffer",
            ));
        }
        // SAFETY: non-null, the length is in range, the caller promises `count` vectors.
        let points = unsafe { std::slice::from_raw_parts(points, count) };
        let points: Vec<Vec3> = points.iter().map(|p| Vec3::from(*p)).collect();
        // SAFETY: the caller's promise.
        unsafe { make(TraceShape::hull(points), "hull", out) }
    })
}

/// A shape from its text form, as `bspc trace --shape` reads it: `point`, `sphere:R`,
/// `box:MINX,MINY,MINZ,MAXX,MAXY,MAXZ`, `cylinder:R,H`, `capsule:R,H`,
/// `hull:X,Y,Z;X,Y,Z;...`.
///
/// # Safety
/// `spec` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_shape_from_spec(spec: *const c_char, out: *mut PsShape) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let spec = unsafe { text(spec, "spec") }?;
        let shape = TraceShape::from_spec(spec)
            .map_err(|e| Error::new(PsStatus::InvalidArgument, e.to_string()))?;
        // SAFETY: the caller's promise.
        unsafe { make(Some(shape), "shape", out) }
    })
}

/// Frees a shape (a second free is [`PsStatus::BadHandle`]).
#[unsafe(no_mangle)]
pub extern "C" fn ps_shape_free(shape: PsShape) -> PsStatus {
    guard(|| SHAPES.remove(shape.0))
}

/// Sweeps `shape` from `start` to `end` through the level (its world and static models),
/// stopped by brushes whose contents meet `mask` (`PS_MASK_*`). May run on any number of
/// threads at once.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_trace(
    level: PsLevel,
    shape: PsShape,
    start: PsVec3,
    end: PsVec3,
    mask: u32,
    out: *mut PsTrace,
) -> PsStatus {
    guard(|| {
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let (start, end) = (finite(start, "start")?, finite(end, "end")?);
        let filter = QueryFilter::new(planeshift::Contents(mask));
        let trace = SHAPES.with(shape.0, |shape| {
            LEVELS.with(level.0, |map| {
                let scene = Scene {
                    map,
                    movers: &[],
                    bodies: empty_bodies(),
                };
                PsTrace::from(&scene.trace(shape, start, end, &filter))
            })
        })??;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { out.write(trace) };
        Ok(())
    })
}

/// One empty set of characters, for sweeps of the level alone.
fn empty_bodies() -> &'static Bodies {
    static EMPTY: std::sync::OnceLock<Bodies> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Bodies::new)
}

/// What a scene query meets and skips.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PsFilter {
    /// What blocks (`PS_MASK_*`): brushes and characters whose contents meet it.
    pub mask: u32,
    /// The query's collision groups: `memberships` of the query, `filter` of what it meets
    /// (both `0xffffffff`: every group).
    pub groups_memberships: u32,
    /// See `groups_memberships`.
    pub groups_filter: u32,
    /// A character never met (the shooter), when `has_skip_character`.
    pub skip_character: u32,
    /// Whether `skip_character` is set.
    pub has_skip_character: bool,
}

/// Sweeps `shape` through the level and the characters of `crowd` (0: none) under
/// `filter`: the world, then the characters, the earliest hit named by `target`. The
/// crowd must not step during the call (one thread at a time per crowd).
///
/// # Safety
/// `filter` points at a valid `PsFilter`; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_scene_trace(
    level: PsLevel,
    crowd: PsCrowd,
    shape: PsShape,
    start: PsVec3,
    end: PsVec3,
    filter: *const PsFilter,
    out: *mut PsTrace,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let f = unsafe { read_ref(filter, "filter") }?;
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let (start, end) = (finite(start, "start")?, finite(end, "end")?);
        let mut query = QueryFilter::new(planeshift::Contents(f.mask)).groups(
            planeshift::query::CollisionGroups::new(f.groups_memberships, f.groups_filter),
        );
        if f.has_skip_character {
            query = query.skip_character(f.skip_character);
        }
        let trace = SHAPES.with(shape.0, |shape| {
            LEVELS.with(level.0, |map| {
                let run = |bodies: &Bodies| {
                    let scene = Scene {
                        map,
                        movers: &[],
                        bodies,
                    };
                    PsTrace::from(&scene.trace(shape, start, end, &query))
                };
                if crowd.0 == 0 {
                    Ok(run(empty_bodies()))
                } else {
                    CROWDS.with(crowd.0, |c| {
                        let c = c.lock().unwrap_or_else(|e| e.into_inner());
                        run(c.crowd.bodies())
                    })
                }
            })
        })???;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { out.write(trace) };
        Ok(())
    })
}
