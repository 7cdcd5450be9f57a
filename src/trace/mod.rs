//! Stage 5: sweeps through a [`CompiledMap`]: the first impact of a shape moving from
//! `start` to `end`.
//!
//! Takes a validated world, a [`TraceShape`], the two positions of its reference point and a
//! contents mask; gives a [`Trace`]. Every shape is handled the same way: each brush plane
//! is shifted by the shape's support distance (Melax's dynamic plane shifting; Quake 2/3 do
//! this for boxes), so the shape becomes a point against expanded brushes.
//!
//! Guarantees (checked by `tests/it/trace.rs` and, against an exact oracle,
//! `tests/it/trace_oracle.rs`):
//! - The end is never inside solid: it stops [`STOP_DISTANCE`](crate::STOP_DISTANCE) (1/32) in front of the hit.
//! - Exactness: points, and boxes thanks to the compiler's axial and edge × axis bevels, stop
//!   where the exact Minkowski sum says, minus the stop distance. Spheres, cylinders,
//!   capsules and hulls too: plane shifting only bounds their contact near convex edges and
//!   corners, and `rounded` then finds it on the exact distance to the brush (closed form for
//!   a sphere's centre and an upright cylinder, GJK for a capsule's segment, a hull's points
//!   or a rotated cylinder);
//!   edge and corner contacts get the true tangent plane. Their start-solid test is exact as
//!   well.
//! - `fraction == 1` returns `end` exactly; otherwise `end = start + fraction·(end − start)`.
//! - `start_solid` / `all_solid` follow Quake 2/3: a sweep leaving a brush it starts in is not
//!   blocked by it; starting and ending inside gives fraction 0 and names the lowest brush
//!   it is all-solid in, whichever way the brushes were found.
//! - No heap allocation per sweep; [`CompiledMap`] is `Send + Sync`; results of
//!   [`CompiledMap::trace_batch`] come back in query order.
//! - Input out of range (a coordinate that is not finite or beyond [`MAX_COORD`](crate::query::MAX_COORD),
//!   a model offset beyond it, a rotation that does not normalise) is answered, never
//!   computed with: a start-solid, all-solid result at `start` (so the controller treats
//!   such a place as solid and never moves there). Nothing of a valid world lies beyond the
//!   limit, and shapes are at most [`MAX_SHAPE_EXTENT`](crate::query::MAX_SHAPE_EXTENT)
//!   in size, so every number a sweep computes stays finite.
//!
//! Moving models: [`CompiledMap::trace_model`] sweeps through model `k` placed by a
//! [`ModelPlacement`]. The sweep is carried into the model's frame. Translation is exact for
//! every shape. Under rotation every shape stays exact: cores are rotated into the model's
//! frame and their refinement needs no bevels; a box becomes the rotated box, whose edge and
//! corner contacts (for which the model's bevels, made for its own axes, are only a bound)
//! are refined on its exact distance like a hull's (Quake 3's `CM_TransformedBoxTrace`
//! instead sweeps the unrotated box, which can pass into solid).
//!
//! Oriented shapes: [`CompiledMap::trace_rotated`] sweeps a shape rotated about its reference
//! point through the world, the same way (the sweep's frame is the world's, the shape's
//! support is read through the rotation), with no allocation; the identity is
//! [`CompiledMap::trace`] bit for bit.

mod body;
mod body_exact;
mod brush_clip;
mod clip_hull;
mod declared;
mod game_patch;
mod gjk;
mod rounded;
mod shape;
mod sweep_state;
mod tick_cache;
mod touch;
mod tree_walk;

use glam::{Mat3, Quat, Vec3};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

pub use clip_hull::{DIST_EPSILON, HullWalk};
pub(crate) use clip_hull::HullNear;
pub use shape::{ShapeKind, ShapeSpecError, TraceShape};
internal! {
    /// The brushes near a character, gathered for its tick (crate side but for planeshift's
    /// own tests).
    pub use tick_cache::TickCache;
}

pub(crate) use body::{Upright, UprightSweep, parts_overlap, trace_parts, uprights_overlap};

use crate::compiled::{CompiledMap, GameCollide, MaterialId, Plane};
use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use crate::tolerance::MAX_COMPILED_COORD;
use shape::Oriented;
use sweep_state::Outcome;
use tree_walk::{Sweep, Through};

use crate::tolerance::{MAX_STOP_DISTANCE, SURFACE_CLIP_EPSILON};

/// The stop distance of every sweep that does not ask for another.
const STOP: f32 = SURFACE_CLIP_EPSILON;

/// Whether every coordinate of `v` is finite and within the world limit
/// [`MAX_COORD`](crate::query::MAX_COORD) (a NaN fails the comparison).
fn in_range(v: Vec3) -> bool {
    v.abs().cmple(Vec3::splat(MAX_COMPILED_COORD)).all()
}

/// When a surface stops a sweep.
///
/// The default, [`StopRule::Touch`], is planeshift's (and Quake 2 and 3's): a sweep that
/// comes within the stop distance of a surface stops there, and a point or round shape at
/// an edge or a corner stops on its exact distance. [`StopRule::Cross`] is how Quake 1's
/// clip hulls stop a point (`world.c SV_RecursiveHullCheck`, `pmovetst.c
/// PM_RecursiveHullCheck`): only a sweep whose end lies behind a plane of a brush (inside
/// it) is stopped, [`STOP_DISTANCE`](crate::STOP_DISTANCE) off the last plane it crosses,
/// with that plane's normal, edges and corners included; a sweep that ends within the stop
/// distance in front of a surface is not stopped. Meant for a point swept through a clip
/// hull's world ([`import_bsp_clip_hull`](crate::build::import_bsp_clip_hull)); the
/// game's own walk of the file's tree, exact where the brushes of its regions cannot be, is
/// [`ShapeQuery::through_clip_hull`](crate::movement::ShapeQuery::through_clip_hull).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StopRule {
    /// Stopped on coming within the stop distance (planeshift, Quake 2 and 3).
    #[default]
    Touch,
    /// Stopped only on crossing into a brush, off the last plane crossed (Quake 1's hulls).
    Cross,
}

/// The result of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trace {
    /// How far the shape got, in `[0, 1]` along `start → end`; 1.0 means nothing was hit.
    pub fraction: f32,
    /// Where the shape's reference point stops: exactly `end` when `fraction == 1`.
    pub end: Vec3,
    /// The unit normal of the surface hit, facing the mover; `None` when nothing was hit or
    /// the sweep is all-solid (no normal is trusted there).
    pub normal: Option<Vec3>,
    /// The brush side hit (unshifted, in world space); for a point, sphere, cylinder,
    /// capsule, hull or rotated box meeting an edge or a corner, the tangent plane through
    /// the contact point. `None`
    /// exactly when `normal` is.
    pub plane: Option<Plane>,
    /// Contents of the brush hit (or started in, for all-solid); empty when nothing was hit.
    pub contents: Contents,
    /// The shape overlaps solid at `start`.
    pub start_solid: bool,
    /// The shape overlaps solid along the whole sweep; `fraction` is 0.
    pub all_solid: bool,
    /// Where the shape touches what it hit, at `end`, on the hit plane: exact where the
    /// contact is one point (a round shape against a face, any shape against an edge or a
    /// corner); where shape and surface touch along a side or an edge (a box on a floor), the
    /// middle of the shape's touching side or edge, on the plane. `None` exactly when
    /// `normal` is.
    pub contact: Option<Vec3>,
    /// What stopped the sweep: the world ([`HitTarget::World`], model 0), submodel `*k`
    /// ([`HitTarget::Model`]: a static model in a world sweep, or the model of
    /// [`CompiledMap::trace_model`]; Quake 3's `entityNum`), or a character by the id its
    /// crowd gave it ([`HitTarget::Character`]; then `contents` is [`Contents::BODY`]).
    /// `None` when nothing was hit.
    pub target: Option<HitTarget>,
    /// The surface flags of the side hit (a bevel reports the movement flags of the face it
    /// bevels, [`SurfaceFlags::MOVEMENT`]); empty when nothing was hit or the sweep is
    /// all-solid.
    pub surface: SurfaceFlags,
    /// The material (texture) of the side hit, named by [`CompiledMap::material_name`];
    /// `None` exactly when `normal` is.
    pub material: Option<MaterialId>,
}

/// What a sweep hit: the world, a submodel, or a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HitTarget {
    /// The world model (model 0).
    World,
    /// Submodel `*k` (`k >= 1`): a mover or a static model.
    Model(usize),
    /// A character, by the id its crowd gave it.
    Character(u32),
}

impl HitTarget {
    /// Model `model`'s target: the world for model 0, else [`HitTarget::Model`].
    pub(crate) const fn of_model(model: usize) -> HitTarget {
        if model == 0 {
            HitTarget::World
        } else {
            HitTarget::Model(model)
        }
    }

    /// The model hit: 0 for the world, `k` for submodel `*k`; `None` for a character.
    #[must_use]
    pub const fn model(self) -> Option<usize> {
        match self {
            HitTarget::World => Some(0),
            HitTarget::Model(k) => Some(k),
            HitTarget::Character(_) => None,
        }
    }

    /// The character hit, by its crowd id; `None` for the world or a model.
    #[must_use]
    pub const fn character(self) -> Option<u32> {
        match self {
            HitTarget::Character(id) => Some(id),
            HitTarget::World | HitTarget::Model(_) => None,
        }
    }
}

impl Trace {
    /// The result of a sweep that hit nothing: it reaches `end`. A custom
    /// [`Tracer`](crate::controller::Tracer) starts from this and fills in what it hits.
    #[must_use]
    pub fn miss(end: Vec3) -> Trace {
        Trace {
            fraction: 1.0,
            end,
            normal: None,
            plane: None,
            contact: None,
            contents: Contents::EMPTY,
            surface: SurfaceFlags::EMPTY,
            material: None,
            start_solid: false,
            all_solid: false,
            target: None,
        }
    }

    /// Whether the sweep was stopped (by a hit or by starting in solid).
    #[must_use]
    pub fn hit(&self) -> bool {
        self.fraction < 1.0
    }
}

/// One sweep for [`CompiledMap::trace_batch`].
#[derive(Clone, Debug, PartialEq)]
pub struct TraceQuery {
    /// The moving shape.
    pub shape: TraceShape,
    /// Start of the reference point.
    pub start: Vec3,
    /// Requested end of the reference point.
    pub end: Vec3,
    /// What blocks.
    pub mask: Contents,
}

/// Where a model stands: rotated about its `origin` pivot by `rotation`, then moved by
/// `offset` (both relative to where the map places it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelPlacement {
    /// Translation from the map position.
    pub offset: Vec3,
    /// Rotation about the model's origin pivot.
    pub rotation: Quat,
}

impl Default for ModelPlacement {
    fn default() -> Self {
        ModelPlacement {
            offset: Vec3::ZERO,
            rotation: Quat::IDENTITY,
        }
    }
}

impl CompiledMap {
    /// Sweeps `shape` from `start` to `end` through the world model and its static models
    /// ([`ModelKind::Static`](crate::compiled::ModelKind::Static): `func_wall` and kin);
    /// what `mask` names blocks.
    ///
    /// Input out of range (`start` or `end` not finite or beyond [`MAX_COORD`](crate::query::MAX_COORD) on
    /// some axis) returns a start-solid, all-solid result at `start`.
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{Contents, TraceShape};
    /// let src = br#"{ "classname" "worldspawn"
    /// { ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1
    ///   ( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) a 0 0 0 1 1
    ///   ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) a 0 0 0 1 1
    ///   ( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) a 0 0 0 1 1
    ///   ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) a 0 0 0 1 1
    ///   ( 0 0 16 ) ( 0 1 16 ) ( 1 0 16 ) a 0 0 0 1 1 } }"#;
    /// let world = planeshift::compile_map(src).unwrap().map;
    /// let sphere = TraceShape::sphere(8.0).unwrap();
    /// let down = world.trace(&sphere, Vec3::new(32.0, 32.0, 100.0), Vec3::new(32.0, 32.0, 0.0), Contents::MASK_ANY_BLOCKING);
    /// assert!((down.end.z - (16.0 + 8.0 + 1.0 / 32.0)).abs() < 1e-3);
    /// assert_eq!(down.normal, Some(Vec3::Z));
    /// ```
    #[must_use]
    pub fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3, mask: Contents) -> Trace {
        self.sweep_world(shape, start, end, mask, Through::World, STOP)
    }

    /// [`Self::trace`] stopping `stop` units in front of what it hits instead of
    /// [`STOP_DISTANCE`](crate::STOP_DISTANCE): Quake 3's `CM_BoxTrace` stops 1/8 unit off
    /// (`SURFACE_CLIP_EPSILON` 0.125, [`QUAKE3_STOP_DISTANCE`](crate::QUAKE3_STOP_DISTANCE)), and
    /// a sweep ending within `stop` of a plane is a hit backed off to `stop`; a start within
    /// `stop` moving in stops at fraction 0; and, as Quake's `CM_TraceThroughBrush`, a
    /// longer stop distance than the default leaves a brush `stop` before its exit plane (a
    /// sweep starting within `stop` of leaving a brush is not blocked by it), where
    /// [`Self::trace`] leaves at the plane. `stop` is held to
    /// [`STOP_DISTANCE`](crate::STOP_DISTANCE)`..=`[`MAX_STOP_DISTANCE`](crate::query::MAX_STOP_DISTANCE)
    /// (NaN: the default). Exact for boxes and points, whose hits are the shifted planes'; a
    /// rounded shape's refined edge contact keeps the default stop distance.
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{Contents, TraceShape, QUAKE3_STOP_DISTANCE};
    /// let world = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// let player = TraceShape::aabb(Vec3::splat(-15.0), Vec3::splat(15.0)).ok_or("a box")?;
    /// let (from, to) = (Vec3::new(0.0, 0.0, 64.0), Vec3::new(0.0, 0.0, -1000.0));
    /// let ours = world.trace(&player, from, to, Contents::MASK_PLAYER_SOLID);
    /// let q3 = world.trace_stopping(&player, from, to, Contents::MASK_PLAYER_SOLID, QUAKE3_STOP_DISTANCE);
    /// assert!((q3.end.z - ours.end.z - (0.125 - 1.0 / 32.0)).abs() < 1e-4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn trace_stopping(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        stop: f32,
    ) -> Trace {
        self.sweep_world(shape, start, end, mask, Through::World, held_stop(stop))
    }

    /// Whether `shape` placed at `at` overlaps anything `mask` names (touching counts).
    #[must_use]
    pub fn overlaps(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> bool {
        self.trace(shape, at, at, mask).start_solid
    }

    /// Sweeps `shape` rotated by `rotation` about its reference point from `start` to `end`
    /// through the world model and its static models, as [`Self::trace`] does for the
    /// upright shape (the identity gives [`Self::trace`], bit for bit): a box becomes an
    /// oriented box, a cylinder or capsule a tilted one, a hull its rotated points, with no
    /// allocation and no hull built. The stop, normal, plane and contact are in world space.
    ///
    /// Input out of range (as for [`Self::trace`], or a rotation that is not finite or does
    /// not normalise) returns a start-solid, all-solid result at `start`.
    ///
    /// # Examples
    /// ```
    /// use glam::{Quat, Vec3};
    /// use planeshift::{Contents, TraceShape};
    /// let src = br#"{ "classname" "worldspawn"
    /// { ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1
    ///   ( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) a 0 0 0 1 1
    ///   ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) a 0 0 0 1 1
    ///   ( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) a 0 0 0 1 1
    ///   ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) a 0 0 0 1 1
    ///   ( 0 0 16 ) ( 0 1 16 ) ( 1 0 16 ) a 0 0 0 1 1 } }"#;
    /// let world = planeshift::compile_map(src).unwrap().map;
    /// // A capsule 2·(20 + 4) long, laid on its side: it lands on its round side, 4 above
    /// // the floor, where the upright one stands 24 above it.
    /// let capsule = TraceShape::capsule(4.0, 20.0).unwrap();
    /// let lying = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    /// let (from, to) = (Vec3::new(32.0, 32.0, 100.0), Vec3::new(32.0, 32.0, 0.0));
    /// let down = world.trace_rotated(&capsule, lying, from, to, Contents::MASK_ANY_BLOCKING);
    /// assert!((down.end.z - (16.0 + 4.0 + 1.0 / 32.0)).abs() < 1e-3);
    /// let upright = world.trace(&capsule, from, to, Contents::MASK_ANY_BLOCKING);
    /// assert_eq!(world.trace_rotated(&capsule, glam::Quat::IDENTITY, from, to, Contents::MASK_ANY_BLOCKING), upright);
    /// assert!(world.overlaps_rotated(&capsule, lying, Vec3::new(32.0, 32.0, 19.0), Contents::MASK_ANY_BLOCKING));
    /// assert!(!world.overlaps_rotated(&capsule, lying, Vec3::new(32.0, 32.0, 21.0), Contents::MASK_ANY_BLOCKING));
    /// ```
    #[must_use]
    pub fn trace_rotated(
        &self,
        shape: &TraceShape,
        rotation: Quat,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        self.sweep_rotated(shape, rotation, start, end, mask, Through::World, STOP)
    }

    /// Whether `shape` rotated by `rotation` about its reference point, placed at `at`,
    /// overlaps anything `mask` names (touching counts); see [`Self::trace_rotated`].
    #[must_use]
    pub fn overlaps_rotated(
        &self,
        shape: &TraceShape,
        rotation: Quat,
        at: Vec3,
        mask: Contents,
    ) -> bool {
        self.trace_rotated(shape, rotation, at, at, mask)
            .start_solid
    }

    /// Sweeps through model `model` (0 is the world) standing at `placement`. Positions and
    /// the result are in world space. An unknown model is never hit. Input out of range (as
    /// for [`Self::trace`], or an offset beyond [`MAX_COORD`](crate::query::MAX_COORD), or a rotation that
    /// is not finite or does not normalise) returns a start-solid, all-solid result at
    /// `start`.
    #[must_use]
    pub fn trace_model(
        &self,
        model: usize,
        placement: &ModelPlacement,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        self.trace_model_rotated(model, placement, shape, Quat::IDENTITY, start, end, mask)
    }

    /// [`Self::trace_model`] for `shape` rotated by `rotation` about its reference point, as
    /// [`Self::trace_rotated`] sweeps it through the world (the identity gives
    /// [`Self::trace_model`], bit for bit). A rotation that is not finite or does not
    /// normalise gives a start-solid, all-solid result at `start`.
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn trace_model_rotated(
        &self,
        model: usize,
        placement: &ModelPlacement,
        shape: &TraceShape,
        rotation: Quat,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        let unit = placement.rotation.normalize();
        if !in_range(start) || !in_range(end) || !in_range(placement.offset) || !unit.is_finite() {
            return out_of_range(start);
        }
        // The shape's frame into the world (`None`: upright, the movers' every-tick case,
        // with no normalisation).
        let shape_to_world = if rotation == Quat::IDENTITY {
            None
        } else {
            let shape_unit = rotation.normalize();
            if !shape_unit.is_finite() {
                return out_of_range(start);
            }
            Some(Mat3::from_quat(shape_unit))
        };
        let Some(info) = self.models().get(model) else {
            return miss(end);
        };
        let rotated = placement.rotation != Quat::IDENTITY;
        let model_to_world = if rotated {
            Mat3::from_quat(unit)
        } else {
            Mat3::IDENTITY
        };
        let inverse = model_to_world.transpose();
        let pivot = info.origin;
        let to_model = |p: Vec3| {
            let local = p - pivot - placement.offset;
            pivot + if rotated { inverse * local } else { local }
        };
        // `Oriented` takes the map from the sweep's (model) directions into the shape's frame.
        let model_to_shape = match (rotated, shape_to_world) {
            (false, None) => None,
            (true, None) => Some(model_to_world),
            (false, Some(s)) => Some(s.transpose()),
            (true, Some(s)) => Some(s.transpose() * model_to_world),
        };
        let oriented = Oriented::new(shape, model_to_shape);
        let (local_start, local_end) = (to_model(start), to_model(end));
        let outcome = oriented.dispatch(Sweep {
            map: self,
            shape: oriented,
            start: local_start,
            end: local_end,
            mask,
            through: Through::Tree(info.root),
            stop: STOP,
            rule: StopRule::Touch,
            skip_patches: false,
        });
        self.finish(
            &outcome,
            |u| match shape_to_world {
                None => shape.support_point(u),
                Some(s) => s * shape.support_point(s.transpose() * u),
            },
            Some(model),
            start,
            end,
            |n| if rotated { model_to_world * n } else { n },
            |p| {
                let local = p - pivot;
                pivot
                    + placement.offset
                    + if rotated {
                        model_to_world * local
                    } else {
                        local
                    }
            },
        )
    }

    internal! {
        /// The same sweep as [`CompiledMap::trace`], clipping every brush of the world without
        /// the tree: the reference the tree must match (property 13).
        #[must_use]
        pub fn trace_all_brushes(
            &self,
            shape: &TraceShape,
            start: Vec3,
            end: Vec3,
            mask: Contents,
        ) -> Trace {
            self.sweep_world(shape, start, end, mask, Through::AllWorldBrushes, STOP)
        }
    }

    internal! {
        /// The same sweep as [`CompiledMap::trace_rotated`], clipping every brush of the
        /// world without the tree: the reference the tree must match.
        #[must_use]
        pub fn trace_all_brushes_rotated(
            &self,
            shape: &TraceShape,
            rotation: Quat,
            start: Vec3,
            end: Vec3,
            mask: Contents,
        ) -> Trace {
            self.sweep_rotated(shape, rotation, start, end, mask, Through::AllWorldBrushes, STOP)
        }
    }

    internal! {
        /// [`Self::trace`] answered from the brushes `cache` gathered ([`Self::gather_near`])
        /// when the sweep lies inside what was gathered, by walking the tree otherwise: the
        /// same result either way, bit for bit.
        #[must_use]
        pub fn trace_cached(
            &self,
            cache: &TickCache,
            shape: &TraceShape,
            start: Vec3,
            end: Vec3,
            mask: Contents,
        ) -> Trace {
            self.sweep_world(shape, start, end, mask, Through::Cached(cache), STOP)
        }
    }

    internal! {
        /// [`Self::trace_cached`] stopping `stop` units in front (as [`Self::trace_stopping`]).
        #[must_use]
        pub fn trace_cached_stopping(
            &self,
            cache: &TickCache,
            shape: &TraceShape,
            (start, end): (Vec3, Vec3),
            mask: Contents,
            stop: f32,
        ) -> Trace {
            self.sweep_world(shape, start, end, mask, Through::Cached(cache), held_stop(stop))
        }
    }

    /// Answers many sweeps through the world, in query order: in parallel on rayon's current
    /// pool with the `parallel` feature (the default; `ThreadPool::install` chooses the
    /// pool), one after the other without it.
    #[must_use]
    pub fn trace_batch(&self, queries: &[TraceQuery]) -> Vec<Trace> {
        #[cfg(feature = "parallel")]
        let queries = queries.par_iter();
        #[cfg(not(feature = "parallel"))]
        let queries = queries.iter();
        queries
            .map(|q| self.trace(&q.shape, q.start, q.end, q.mask))
            .collect()
    }

    /// A sweep of `shape` rotated by `rotation` through the brushes `through` names (the
    /// identity: [`Self::sweep_world`]).
    #[allow(clippy::too_many_arguments)]
    fn sweep_rotated(
        &self,
        shape: &TraceShape,
        rotation: Quat,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        through: Through<'_>,
        stop: f32,
    ) -> Trace {
        if rotation == Quat::IDENTITY {
            return self.sweep_world(shape, start, end, mask, through, stop);
        }
        let unit = rotation.normalize();
        if !unit.is_finite() {
            return out_of_range(start);
        }
        self.sweep_oriented(
            shape,
            Some(Mat3::from_quat(unit)),
            start,
            end,
            mask,
            (through, StopRule::Touch, false),
            stop,
        )
    }

    /// An unrotated sweep in world space through the brushes `through` names; out of range
    /// (not finite, or beyond the world limit) it is start-solid and all-solid at `start`.
    #[allow(clippy::too_many_arguments)]
    fn sweep_world(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        through: Through<'_>,
        stop: f32,
    ) -> Trace {
        self.sweep_oriented(shape, None, start, end, mask, (through, StopRule::Touch, false), stop)
    }

    /// [`Self::trace`] stopped by `rule` ([`StopRule::Cross`]: only on crossing into a
    /// brush, Quake 1's clip hulls).
    pub(crate) fn trace_stopped_by(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        rule: StopRule,
    ) -> Trace {
        self.sweep_oriented(shape, None, start, end, mask, (Through::World, rule, false), STOP)
    }

    /// A sweep of `shape` turned into the world by `to_world` (`None`: upright) through the
    /// brushes `through` names; out of range (not finite, or beyond the world limit) it is
    /// start-solid and all-solid at `start`.
    #[allow(clippy::too_many_arguments)]
    fn sweep_oriented(
        &self,
        shape: &TraceShape,
        to_world: Option<Mat3>,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        (through, rule, skip_patches): (Through<'_>, StopRule, bool),
        stop: f32,
    ) -> Trace {
        if !in_range(start) || !in_range(end) {
            return out_of_range(start);
        }
        // `Oriented` takes the map from the sweep's (world) directions into the shape's own
        // frame: the inverse rotation.
        let oriented = Oriented::new(shape, to_world.map(|m| m.transpose()));
        let outcome = oriented.dispatch(Sweep {
            map: self,
            shape: oriented,
            start,
            end,
            mask,
            through,
            stop,
            rule,
            skip_patches,
        });
        match to_world {
            None => self.finish(
                &outcome,
                |u| shape.support_point(u),
                None,
                start,
                end,
                |n| n,
                |p| p,
            ),
            Some(m) => self.finish(
                &outcome,
                |u| m * shape.support_point(m.transpose() * u),
                None,
                start,
                end,
                |n| n,
                |p| p,
            ),
        }
    }

    /// The [`Trace`] of a sweep's outcome; `support_point` gives the moving shape's support
    /// point along a world direction (for the contact).
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        work: &Outcome,
        support_point: impl Fn(Vec3) -> Vec3,
        model: Option<usize>,
        start: Vec3,
        end: Vec3,
        normal_to_world: impl Fn(Vec3) -> Vec3,
        point_to_world: impl Fn(Vec3) -> Vec3,
    ) -> Trace {
        let plane = work
            .hit_plane
            .filter(|_| !work.all_solid)
            .and_then(|id| self.planes().get(id as usize))
            .map(|p| work.hit_tangent.unwrap_or(*p))
            .map(|p| {
                let normal = normal_to_world(p.normal);
                Plane {
                    normal,
                    dist: normal.dot(point_to_world(p.normal * p.dist)),
                }
            });
        let end = if work.fraction >= 1.0 {
            end
        } else {
            start + (end - start) * work.fraction
        };
        let contact = plane.map(|p| {
            let touching = end + support_point(-p.normal);
            touching - p.normal * p.distance(touching)
        });
        let side = match (plane, work.hit_brush, work.hit_plane) {
            (Some(_), Some(brush), Some(id)) => self.hit_surface(brush, id),
            _ => None,
        };
        let model = match (model, work.hit_brush) {
            (Some(model), _) => model,
            (None, Some(brush)) => self.world_model_of(brush),
            (None, None) => 0,
        };
        Trace {
            fraction: work.fraction,
            end,
            normal: plane.map(|p| p.normal),
            plane,
            contact,
            contents: work.contents,
            start_solid: work.start_solid,
            all_solid: work.all_solid,
            target: (work.fraction < 1.0).then_some(HitTarget::of_model(model)),
            surface: side.map_or(SurfaceFlags::EMPTY, |(surface, _)| surface),
            material: plane.and(side.map(|(_, material)| material)),
        }
    }
}

/// A stop distance a sweep may use: `stop` held to `STOP..=MAX_STOP_DISTANCE`, NaN the default.
fn held_stop(stop: f32) -> f32 {
    if stop > STOP {
        stop.min(MAX_STOP_DISTANCE)
    } else {
        STOP
    }
}

/// The answer to input out of range (not finite, or beyond the world limit): start-solid
/// and all-solid at the start.
fn out_of_range(start: Vec3) -> Trace {
    Trace {
        fraction: 0.0,
        end: start,
        normal: None,
        plane: None,
        contact: None,
        contents: Contents::EMPTY,
        start_solid: true,
        all_solid: true,
        target: None,
        surface: SurfaceFlags::EMPTY,
        material: None,
    }
}

impl CompiledMap {
    /// Whether `shape`, an upright box placed at `at`, is inside what `mask` names in the
    /// world Quake 3's movement meets ([`ShapeQuery::with_game_patches`]): overlapping the
    /// brushes (touching counts, as [`Tracer::overlaps`]) or a patch facet of the game's own
    /// collision with depth (`game_patch::patch_penetrated`: a box resting exactly on a
    /// facet's plane, where the game's sweeps may leave it, touches and is not inside,
    /// though the game's position test counts it). For judging a soak's ticks; movement
    /// keeps the game's test. `None` when the level keeps no game patches or `shape` is not
    /// a box (ask [`Tracer::overlaps`]).
    ///
    /// [`ShapeQuery::with_game_patches`]: crate::movement::ShapeQuery::with_game_patches
    /// [`Tracer::overlaps`]: crate::movement::Tracer::overlaps
    #[must_use]
    pub fn inside_game_world(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> Option<bool> {
        if self.game_collides().is_empty() || shape.kind() != ShapeKind::Box {
            return None;
        }
        let brushes = self.sweep_oriented(
            shape,
            None,
            at,
            at,
            mask,
            (Through::World, StopRule::Touch, true),
            STOP,
        );
        if brushes.start_solid || !in_range(at) {
            return Some(true);
        }
        let (mins, maxs) = shape.bounds();
        let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
        let meets = |p: &GameCollide| p.contents.intersects(mask);
        Some(game_patch::patch_penetrated(self.game_collides(), at + centre, half, meets))
    }

    /// An upright box swept `start → end` as Quake 3 sweeps it among curved patches: the
    /// world's brushes but its patch facets (the cached sweep when `cache` is given,
    /// stopping `stop` in front as [`Self::trace_stopping`]), then the game's own patch
    /// collision (`game_patch.rs`): a patch facet entered strictly before the brushes' hit
    /// becomes the hit, with its plane, the patch's contents, surface flags and material;
    /// a sweep that does not move is also a position test against the facets. `None` when
    /// the level keeps no game patches or `shape` is not a box (the caller sweeps as
    /// usual).
    pub(crate) fn trace_game_patches(
        &self,
        shape: &TraceShape,
        (start, end): (Vec3, Vec3),
        mask: Contents,
        stop: f32,
        cache: Option<&TickCache>,
    ) -> Option<Trace> {
        if self.game_collides().is_empty() || shape.kind() != ShapeKind::Box {
            return None;
        }
        let through = cache.map_or(Through::World, Through::Cached);
        let stop = held_stop(stop);
        let brushes =
            self.sweep_oriented(shape, None, start, end, mask, (through, StopRule::Touch, true), stop);
        if brushes.all_solid || !in_range(start) || !in_range(end) {
            return Some(brushes);
        }
        let (mins, maxs) = shape.bounds();
        let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
        let meets = |p: &GameCollide| p.contents.intersects(mask);
        let patches = self.game_collides();
        if start == end {
            let inside = game_patch::patch_containing(patches, start + centre, half, meets);
            return Some(match inside.and_then(|i| patches.get(i)) {
                Some(patch) => Trace {
                    fraction: 0.0,
                    end: start,
                    contents: patch.contents,
                    start_solid: true,
                    all_solid: true,
                    ..out_of_range(start)
                },
                None => brushes,
            });
        }
        let listed = cache.and_then(|c| c.patches_for(self, (mins, maxs), start, end));
        let hit = game_patch::trace_patches(
            patches,
            listed,
            (start + centre, end + centre),
            half,
            brushes.fraction,
            meets,
        );
        let Some(hit) = hit else {
            return Some(brushes);
        };
        let Some(patch) = patches.get(hit.patch) else {
            return Some(brushes);
        };
        let normal = Vec3::new(hit.plane[0], hit.plane[1], hit.plane[2]);
        let reach = half.dot(normal.abs());
        let plane = Plane {
            normal,
            dist: hit.plane[3] - reach,
        };
        let stopped = start + (end - start) * hit.fraction;
        let touching = stopped + shape.support_point(-normal);
        Some(Trace {
            fraction: hit.fraction,
            end: stopped,
            normal: Some(normal),
            plane: Some(plane),
            contact: Some(touching - normal * plane.distance(touching)),
            contents: patch.contents,
            start_solid: brushes.start_solid,
            all_solid: false,
            target: Some(HitTarget::World),
            surface: patch.surface,
            material: patch.material,
        })
    }
}

fn miss(end: Vec3) -> Trace {
    Trace::miss(end)
}

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<CompiledMap>();
};
