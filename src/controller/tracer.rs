//! [`Tracer`]: the seam between a character and its world, and the tick's view of it.
//!
//! Takes any world that sweeps shapes (a [`CompiledMap`], a map with movers, a crowd's view,
//! a game's own world); gives the one trait the controller reaches the world through, the
//! [`ShapeQuery`] every sweep and overlap test carries (shape, rotation, mask, which part,
//! and the tick's scratch, opaque), and, crate side, [`Tick`]: one tick's view of a world
//! (its mask and scratch) and [`Offset`], the same seen from a shape centre above the origin.
//! Guarantees: the controller never reads the map, its brushes or its tree but through
//! [`Tracer`] and the map [`SpeedFacts::map`] names, so a test or a game may script its own
//! world; the speed facts only make ticks cheaper, never change their answers.

use glam::{Quat, Vec3};

use super::ids::TriggerList;
use crate::compiled::CompiledMap;
use crate::contents::Contents;
use crate::trace::{StopRule, TickCache, Trace, TraceShape};

/// The world as a character sees it: what a game implements for its own world (Quake 3's
/// `pmove_t` callbacks: a sweep with a mask, a point contents).
///
/// Only [`Self::trace`] is required. Positions are the shape's reference point; a sweep's
/// result follows the [`Trace`] contract (stop distance in front of the hit, unit normal
/// facing the mover, start-solid and all-solid semantics). Every default is correct for any
/// world: a dry world without triggers, currents or ladders, in which nothing is known to
/// stay put. [`CompiledMap`] implements it, and so do
/// [`WorldWithMovers`](super::WorldWithMovers) and [`WorldWithBodies`](crate::movement::WorldWithBodies);
/// a world built around a compiled map passes each query on to it as it came, so the
/// map reads the tick's scratch the query carries.
///
/// # Examples
/// A floor at height 0 and nothing else:
/// ```
/// use glam::Vec3;
/// use planeshift::movement::{GroundState, ShapeQuery, Tracer};
/// use planeshift::query::Plane;
/// use planeshift::{CharacterController, ControllerConfig, MoveInput, Trace};
///
/// struct Floor;
///
/// impl Tracer for Floor {
///     fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
///         // The lowest point of the shape, upright (the controller never rotates it).
///         let low = query.shape.bounds().0.z;
///         let (a, b) = (start.z + low, end.z + low);
///         if a < 0.0 {
///             return Trace { start_solid: true, all_solid: b < 0.0, fraction: 0.0, ..Trace::miss(start) };
///         }
///         if b >= 1.0 / 32.0 {
///             return Trace::miss(end);
///         }
///         let fraction = ((a - 1.0 / 32.0) / (a - b)).max(0.0);
///         Trace {
///             fraction,
///             normal: Some(Vec3::Z),
///             plane: Some(Plane { normal: Vec3::Z, dist: 0.0 }),
///             contact: Some(start.lerp(end, fraction).with_z(0.0)),
///             ..Trace::miss(start.lerp(end, fraction))
///         }
///     }
/// }
///
/// let mut player = CharacterController::new(ControllerConfig::default(), Vec3::new(0.0, 0.0, 40.0))?;
/// for _ in 0..100 {
///     player.step(&Floor, &MoveInput::default());
/// }
/// assert_eq!(player.ground().state, GroundState::Walkable);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Tracer {
    /// The first impact of [`ShapeQuery::shape`] moving from `start` to `end` among what
    /// [`ShapeQuery::mask`] names, in [`ShapeQuery::part`] of the world. A world with one
    /// rule for what blocks may ignore the mask; one whose parts it cannot tell apart may
    /// ignore the part (see [`WorldPart`]).
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace;

    /// Whether the shape placed at `at` overlaps what the query names (touching counts).
    /// Default: a sweep that stays put starts solid.
    fn overlaps(&self, query: &ShapeQuery<'_>, at: Vec3) -> bool {
        self.trace(query, at, at).start_solid
    }

    /// What the world is made of at `point` (Quake 3's `pm->pointcontents`): liquids and
    /// ladder volumes decide how a character moves. Default: empty (a dry world).
    fn contents(&self, point: Vec3) -> Contents {
        let _ = point;
        Contents::EMPTY
    }

    /// The summed unit directions of the currents at `point`
    /// ([`CompiledMap::point_current`]), asked only where a character swims. Default: none.
    fn current(&self, point: Vec3) -> Vec3 {
        let _ = point;
        Vec3::ZERO
    }

    /// The trigger models the query's shape touches on its way from `start` to `end`, added
    /// to `touched`; those it is in at `end` are added to `inside` too
    /// ([`CompiledMap::touching_triggers_along`]). Default: no triggers.
    fn touch_triggers(
        &self,
        query: &ShapeQuery<'_>,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        let _ = (query, start, end, touched, inside);
    }

    /// What the controller may rely on to do less work ([`SpeedFacts`]). Default:
    /// [`SpeedFacts::NONE`], correct for any world.
    fn speed_facts(&self) -> SpeedFacts<'_> {
        SpeedFacts::NONE
    }
}

/// One sweep or overlap test of a [`Tracer`]: the shape, its rotation, what blocks, which
/// part of the world, and (opaque) the running tick's scratch, which a world built around
/// a [`CompiledMap`] passes on with the query.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::movement::{ShapeQuery, Tracer};
/// use planeshift::{Contents, TraceShape};
/// let world = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
/// let ball = TraceShape::sphere(8.0).ok_or("a sphere")?;
/// let query = ShapeQuery::new(&ball).with_mask(Contents::MASK_ANY_BLOCKING);
/// let down = Tracer::trace(&world, &query, Vec3::new(0.0, 0.0, 16.0), Vec3::new(0.0, 0.0, -1000.0));
/// assert!(down.hit());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ShapeQuery<'a> {
    /// The shape swept or placed.
    pub shape: &'a TraceShape,
    /// Its rotation about its reference point; `None`: upright (every query of the
    /// controller).
    pub rotation: Option<Quat>,
    /// What blocks (a character's [`ControllerConfig::mask`](super::ControllerConfig)).
    pub mask: Contents,
    /// Which part of the world is asked.
    pub part: WorldPart,
    /// How far in front of what it hits a sweep stops, in map units: the crate's
    /// [`STOP_DISTANCE`](crate::STOP_DISTANCE) (1/32) by default; Quake 3's 1/8
    /// ([`QUAKE3_STOP_DISTANCE`](crate::QUAKE3_STOP_DISTANCE)) for its movement profile
    /// ([`CompiledMap::trace_stopping`]). A world that stops at one distance only may
    /// ignore it.
    pub stop_distance: f32,
    /// When a surface stops the sweep ([`StopRule::Touch`] by default; [`StopRule::Cross`]
    /// for a point through a Quake 1 clip hull, as the game's own traces stop).
    pub stop: StopRule,
    /// A Quake 1 family level's own hull to walk the query's point through (0 to 3; see
    /// [`Self::through_clip_hull`]), or `None`: the shape sweeps the brushes.
    pub clip_hull: Option<u8>,
    /// Whether curved patches are collided as Quake 3 collides with them (see
    /// [`Self::with_game_patches`]); `false`: planeshift's exact patches.
    pub game_patches: bool,
    /// The running tick's gathered brushes, or `None` (then sweeps walk the trees).
    scratch: Option<&'a TickCache>,
}

impl<'a> ShapeQuery<'a> {
    /// `shape`, upright, against all of the world, blocked by what blocks a player
    /// ([`Contents::MASK_PLAYER_SOLID`]).
    #[inline]
    #[must_use]
    pub fn new(shape: &'a TraceShape) -> ShapeQuery<'a> {
        ShapeQuery {
            shape,
            rotation: None,
            mask: Contents::MASK_PLAYER_SOLID,
            part: WorldPart::All,
            stop_distance: crate::STOP_DISTANCE,
            stop: StopRule::Touch,
            clip_hull: None,
            game_patches: false,
            scratch: None,
        }
    }

    /// This query stopping `stop` units in front of what its sweeps hit (see
    /// [`Self::stop_distance`]).
    #[inline]
    #[must_use]
    pub fn with_stop_distance(self, stop: f32) -> ShapeQuery<'a> {
        ShapeQuery {
            stop_distance: stop,
            ..self
        }
    }

    /// This query walked through the level's own clip hull `hull` (1 to 3; 0 is the level
    /// as drawn) as Quake 1's games walk a point through it (`pmovetst.c
    /// PM_RecursiveHullCheck`, [`HullWalk`](crate::query::HullWalk)): the shape is taken as
    /// the hull's point, the mask is the hull's solid, and the stop is the game's, 1/32
    /// off the split it crosses. A [`CompiledMap`] answers it from the hull trees an
    /// imported Quake 1 family `.bsp` keeps, for model 0 only (the world; its brush
    /// models are not walked, and [`WorldPart::Moving`] or another model meets nothing);
    /// a level without such a hull answers as if the option were not set.
    #[inline]
    #[must_use]
    pub fn through_clip_hull(self, hull: u8) -> ShapeQuery<'a> {
        ShapeQuery {
            clip_hull: Some(hull),
            ..self
        }
    }

    /// This query meeting curved patches as Quake 3 does (ioquake3 `cm_patch.c`): a
    /// [`CompiledMap`] that keeps an imported Quake 3 `.bsp`'s patches
    /// ([`CompiledMap::has_game_patches`]) sweeps an upright box through its brushes but
    /// the world's patch facets, then through the game's own coarse, zero-thickness facets
    /// of those patches (16-unit subdivision, the game's bevels and f32 arithmetic, hit
    /// only entering from the front, never start-solid in a sweep, a position test when
    /// the box does not move). Other shapes, rotated boxes, other world parts and levels
    /// without such patches answer as if the option were not set. planeshift's exact
    /// patches stay the default.
    #[inline]
    #[must_use]
    pub fn with_game_patches(self) -> ShapeQuery<'a> {
        ShapeQuery {
            game_patches: true,
            ..self
        }
    }

    /// This query stopped by `stop` (see [`StopRule`]).
    #[inline]
    #[must_use]
    pub fn stopped_by(self, stop: StopRule) -> ShapeQuery<'a> {
        ShapeQuery { stop, ..self }
    }

    /// This query blocked by what `mask` names.
    #[inline]
    #[must_use]
    pub fn with_mask(self, mask: Contents) -> ShapeQuery<'a> {
        ShapeQuery { mask, ..self }
    }

    /// This query with the shape rotated by `rotation` about its reference point.
    #[inline]
    #[must_use]
    pub fn rotated(self, rotation: Quat) -> ShapeQuery<'a> {
        ShapeQuery {
            rotation: Some(rotation),
            ..self
        }
    }

    /// This query asking only `part` of the world.
    #[inline]
    #[must_use]
    pub fn of_part(self, part: WorldPart) -> ShapeQuery<'a> {
        ShapeQuery { part, ..self }
    }

    /// This query reading `scratch`, the brushes gathered for the running tick.
    #[inline]
    pub(crate) fn with_scratch(self, scratch: Option<&'a TickCache>) -> ShapeQuery<'a> {
        ShapeQuery { scratch, ..self }
    }
}

/// Which part of a world a [`ShapeQuery`] asks. A world that cannot tell its parts apart
/// answers every part as [`WorldPart::All`], which is correct as long as its
/// [`SpeedFacts::map_is_fixed`] is `false` (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WorldPart {
    /// Everything.
    #[default]
    All,
    /// Only the part that never moves: the map [`SpeedFacts::map`] names, when
    /// [`SpeedFacts::map_is_fixed`].
    Fixed,
    /// Everything but [`WorldPart::Fixed`] (other characters, movers).
    Moving,
    /// Only model `k` (0 the world, `k` submodel `*k`) where this world places it now: the
    /// test a mover pushes with (Quake 3 `g_mover.c G_MoverPush` tests against the pusher,
    /// not everything). A world that holds the model nowhere meets nothing.
    Model(usize),
}

/// What a world tells the controller so that a tick does less work with the same answers
/// ([`Tracer::speed_facts`]). [`SpeedFacts::NONE`] is correct for any world.
#[derive(Clone, Copy, Debug)]
pub struct SpeedFacts<'a> {
    /// A compiled map that every query of this world sweeps, passed the query as it came:
    /// the controller gathers its brushes near a character when a tick begins, into the
    /// scratch the tick's queries carry.
    pub map: Option<&'a CompiledMap>,
    /// Whether [`Self::map`] is this world's part that never moves ([`WorldPart::Fixed`]):
    /// a character proven free of it where it still stands asks only [`WorldPart::Moving`].
    pub map_is_fixed: bool,
    /// Whether the world is [`Self::map`] and nothing else: a probe made from where a
    /// character still stands is then reused.
    pub moves_nothing: bool,
    /// Whether [`Tracer::contents`] is [`Self::map`]'s [`CompiledMap::point_contents`]
    /// everywhere: a water-level sample taken where a character still stands is reused,
    /// and the three samples go down the tree together.
    pub contents_are_map: bool,
    /// Whether the world may hold a ladder (a brush of [`Contents::LADDER`] or a side
    /// flagged [`SurfaceFlags::LADDER`](crate::SurfaceFlags::LADDER)); when it cannot, the
    /// controller skips its ladder probe.
    pub may_have_ladders: bool,
}

impl SpeedFacts<'_> {
    /// Nothing known: no map to gather from, nothing fixed, ladders possible.
    pub const NONE: SpeedFacts<'static> = SpeedFacts {
        map: None,
        map_is_fixed: false,
        moves_nothing: false,
        contents_are_map: false,
        may_have_ladders: true,
    };
}

impl Default for SpeedFacts<'_> {
    fn default() -> Self {
        SpeedFacts::NONE
    }
}

impl Tracer for CompiledMap {
    /// [`CompiledMap::trace`], [`CompiledMap::trace_rotated`] or the tick's cached sweep,
    /// as `query` asks: the world model and its static models, all of which are fixed
    /// (no part moves; model 0 is the world).
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        let (shape, mask) = (query.shape, query.mask);
        if let Some(hull) = query.clip_hull
            && let Some(walk) = self.walk_clip_hull(usize::from(hull), start, end)
        {
            return match query.part {
                WorldPart::All | WorldPart::Fixed | WorldPart::Model(0) => walk.to_trace(),
                WorldPart::Moving | WorldPart::Model(_) => Trace::miss(end),
            };
        }
        if query.stop == StopRule::Cross
            && query.rotation.is_none()
            && matches!(query.part, WorldPart::All | WorldPart::Fixed)
        {
            // Quake 1's rule walks the tree (the tick's scratch gathers for the default).
            return self.trace_stopped_by(shape, start, end, mask, StopRule::Cross);
        }
        if query.rotation.is_some() || !matches!(query.part, WorldPart::All | WorldPart::Fixed) {
            return self.trace_posed(query, start, end);
        }
        // Every sweep of a tick: upright, all of the map.
        let stop = query.stop_distance;
        if query.game_patches
            && query.stop == StopRule::Touch
            && let Some(trace) =
                self.trace_game_patches(shape, (start, end), mask, stop, query.scratch)
        {
            return trace;
        }
        if stop != crate::STOP_DISTANCE {
            return match query.scratch {
                Some(cache) => self.trace_cached_stopping(cache, shape, (start, end), mask, stop),
                None => self.trace_stopping(shape, start, end, mask, stop),
            };
        }
        match query.scratch {
            Some(cache) => self.trace_cached(cache, shape, start, end, mask),
            None => self.trace(shape, start, end, mask),
        }
    }

    /// [`CompiledMap::point_contents`]: the world model and the static models.
    fn contents(&self, point: Vec3) -> Contents {
        self.point_contents(point)
    }

    fn current(&self, point: Vec3) -> Vec3 {
        self.point_current(point)
    }

    /// [`CompiledMap::touching_triggers_along`], answered at once (nothing touched) when
    /// the tick's scratch shows no trigger model near the path.
    fn touch_triggers(
        &self,
        query: &ShapeQuery<'_>,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        let shape = query.shape;
        if query
            .scratch
            .is_some_and(|cache| cache.no_triggers_along(self, shape, start, end))
        {
            return;
        }
        for (model, at_end) in self.touching_triggers_along(shape, start, end) {
            let Ok(model) = u32::try_from(model) else {
                continue;
            };
            touched.insert(model);
            if at_end {
                inside.insert(model);
            }
        }
    }

    /// The map never changes: all of it is fixed, and its contents are its own.
    #[inline]
    fn speed_facts(&self) -> SpeedFacts<'_> {
        SpeedFacts {
            map: Some(self),
            map_is_fixed: true,
            moves_nothing: true,
            contents_are_map: true,
            may_have_ladders: self.has_ladders(),
        }
    }
}

impl CompiledMap {
    /// [`Tracer::trace`] of a rotated shape or of a part of the map: model 0 is the whole
    /// map, no other model and nothing that moves is in it.
    fn trace_posed(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        match (query.part, query.rotation) {
            (WorldPart::Moving, _) => Trace::miss(end),
            (WorldPart::Model(k), _) if k != 0 => Trace::miss(end),
            (_, Some(rotation)) => {
                self.trace_rotated(query.shape, rotation, start, end, query.mask)
            }
            (_, None) => Tracer::trace(self, &query.of_part(WorldPart::All), start, end),
        }
    }
}

/// The identity of a world's fixed solid under one mask ([`SpeedFacts::map_is_fixed`]): the
/// map (each load of a map is a new one; a clone keeps its original's) and what blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FixedSolid {
    map: u64,
    mask: Contents,
}

/// What the controller's code sweeps through: a [`Tick`] or an [`Offset`] view of one. The
/// queries of the old wide seam, each answered once, here, from the narrow one.
pub(crate) trait Sweeps {
    /// The world the tick sweeps.
    type World: Tracer + ?Sized;

    /// The tick underneath (its world, mask and scratch).
    fn tick(&self) -> &Tick<'_, Self::World>;

    /// The first impact of `shape` moving from `start` to `end`.
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace;

    /// Whether `shape` placed at `at` overlaps solid (touching counts). Default: a sweep
    /// that stays put starts solid.
    fn overlaps(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.trace(shape, at, at).start_solid
    }

    /// Whether `shape` placed at `at` overlaps `part` of the world, without the scratch.
    fn overlaps_part(&self, part: WorldPart, shape: &TraceShape, at: Vec3) -> bool;

    /// The trigger models `shape` touches from `start` to `end` ([`Tracer::touch_triggers`]).
    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    );

    /// The fixed part ([`WorldPart::Fixed`]) at `at`.
    fn overlaps_fixed(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.overlaps_part(WorldPart::Fixed, shape, at)
    }

    /// What moves ([`WorldPart::Moving`]) at `at`: nothing, without asking, in a world
    /// whose speed facts say it is its fixed map alone.
    fn overlaps_moving(&self, shape: &TraceShape, at: Vec3) -> bool {
        let facts = self.tick().world.speed_facts();
        if facts.moves_nothing && facts.map_is_fixed {
            return false;
        }
        self.overlaps_part(WorldPart::Moving, shape, at)
    }

    /// The identity of the world's fixed part under the tick's mask, if it names one.
    fn fixed_solid(&self) -> Option<FixedSolid> {
        let tick = self.tick();
        let facts = tick.world.speed_facts();
        let map = facts.map.filter(|_| facts.map_is_fixed)?;
        Some(FixedSolid {
            map: map.contents_id(),
            mask: tick.mask,
        })
    }

    /// Whether nothing in the world moves ([`SpeedFacts::moves_nothing`]).
    fn moves_nothing(&self) -> bool {
        self.tick().world.speed_facts().moves_nothing
    }

    /// The world's point contents.
    fn contents(&self, point: Vec3) -> Contents {
        self.tick().world.contents(point)
    }

    /// The contents at three points (the water level's samples): one walk of the map's
    /// tree when the world's contents are its map's.
    fn contents3(&self, points: [Vec3; 3]) -> [Contents; 3] {
        let world = self.tick().world;
        let facts = world.speed_facts();
        match facts.map.filter(|_| facts.contents_are_map) {
            Some(map) => map.points_contents(points),
            None => points.map(|p| world.contents(p)),
        }
    }

    /// An identity for the world's point contents: the same `Some(id)` twice answers
    /// [`Self::contents`] alike at every point.
    fn contents_id(&self) -> Option<u64> {
        let facts = self.tick().world.speed_facts();
        facts
            .map
            .filter(|_| facts.contents_are_map)
            .map(CompiledMap::contents_id)
    }

    /// The currents at `point`.
    fn current(&self, point: Vec3) -> Vec3 {
        self.tick().world.current(point)
    }

    /// Whether the world may hold a ladder.
    fn may_have_ladders(&self) -> bool {
        self.tick().world.speed_facts().may_have_ladders
    }
}

/// One tick's view of a world: its queries carry the character's mask and, when the tick
/// gathered one, its scratch.
pub(crate) struct Tick<'a, T: Tracer + ?Sized> {
    pub(crate) world: &'a T,
    pub(crate) mask: Contents,
    pub(crate) scratch: Option<&'a TickCache>,
}

impl<'a, T: Tracer + ?Sized> Tick<'a, T> {
    /// `world` as it is asked outside a tick: under a player's mask, without scratch.
    pub(crate) fn plain(world: &'a T) -> Tick<'a, T> {
        Tick::masked(world, Contents::MASK_PLAYER_SOLID)
    }

    /// `world` under `mask`, without scratch.
    pub(crate) fn masked(world: &'a T, mask: Contents) -> Tick<'a, T> {
        Tick {
            world,
            mask,
            scratch: None,
        }
    }

    /// The tick's query for `shape`.
    fn query<'q>(&self, shape: &'q TraceShape) -> ShapeQuery<'q>
    where
        'a: 'q,
    {
        ShapeQuery::new(shape)
            .with_mask(self.mask)
            .with_scratch(self.scratch)
    }
}

impl<T: Tracer + ?Sized> Sweeps for Tick<'_, T> {
    type World = T;

    fn tick(&self) -> &Tick<'_, T> {
        self
    }

    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        self.world.trace(&self.query(shape), start, end)
    }

    fn overlaps(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps(&self.query(shape), at)
    }

    fn overlaps_part(&self, part: WorldPart, shape: &TraceShape, at: Vec3) -> bool {
        let query = ShapeQuery::new(shape).with_mask(self.mask).of_part(part);
        self.world.overlaps(&query, at)
    }

    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        self.world
            .touch_triggers(&self.query(shape), start, end, touched, inside);
    }
}

/// A view seen from a shape whose centre sits `offset` above the character's origin: its
/// overlap tests are sweeps that stay put.
pub(crate) struct Offset<'a, S: Sweeps + ?Sized> {
    pub(crate) world: &'a S,
    pub(crate) offset: Vec3,
}

impl<S: Sweeps + ?Sized> Sweeps for Offset<'_, S> {
    type World = S::World;

    fn tick(&self) -> &Tick<'_, S::World> {
        self.world.tick()
    }

    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        let mut trace = self
            .world
            .trace(shape, start + self.offset, end + self.offset);
        trace.end -= self.offset;
        trace
    }

    fn overlaps_part(&self, part: WorldPart, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_part(part, shape, at + self.offset)
    }

    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        self.world.touch_triggers(
            shape,
            start + self.offset,
            end + self.offset,
            touched,
            inside,
        );
    }
}
