//! [`Tracer`]: the world as the controller sees it, and the shape-offset view of it.
//!
//! Takes any world that sweeps shapes; gives the one trait the controller reaches the world
//! through ([`CompiledMap`] implements it with the player mask). Guarantees: the controller
//! never reads the map, its brushes or its tree directly, so a test or a game may script its
//! own world.

use glam::Vec3;

use super::ids::TriggerList;
use crate::compiled::CompiledMap;
use crate::contents::Contents;
use crate::trace::{TickCache, Trace, TraceShape};

/// The world as the controller sees it: sweeps of a shape (Quake 3's `pm->trace`).
///
/// Positions are the shape's reference point; the result follows the [`Trace`] contract
/// (stop distance in front of the hit, unit normal facing the mover, start-solid and
/// all-solid semantics).
pub trait Tracer {
    /// The first impact of `shape` moving from `start` to `end`.
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace;

    /// Whether `shape` placed at `at` overlaps solid (touching counts).
    fn overlaps(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.trace(shape, at, at).start_solid
    }

    /// Whether `shape` placed at `at` overlaps model `model` (a mover) where this world
    /// places it now, touching counting: the test a mover pushes with (Quake 3
    /// `g_mover.c G_MoverPush` tests against the pusher, not everything). A world that
    /// holds the model nowhere answers `false`. Default (a scripted world that cannot tell
    /// its parts apart): [`Self::overlaps`], whatever is overlapped.
    fn overlaps_model(&self, model: usize, shape: &TraceShape, at: Vec3) -> bool {
        let _ = model;
        self.overlaps(shape, at)
    }

    /// The part of the world that never moves, for [`Self::overlaps_moving`]: two calls
    /// returning the same `Some(id)` answer whether a shape at a place overlaps that part
    /// alike, so a controller that proved its shape free of it where it still stands need
    /// not ask again. `None` (the default, and any world whose solids all may move): no part
    /// is known fixed, and every overlap test asks everything.
    ///
    /// # Examples
    /// ```
    /// use planeshift::movement::Tracer;
    /// let world = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// // A compiled map never changes: its whole solid is fixed.
    /// assert_eq!(world.fixed_solid(), world.clone().fixed_solid());
    /// assert!(world.fixed_solid().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fixed_solid(&self) -> Option<FixedSolid> {
        None
    }

    /// Whether `shape` placed at `at` overlaps something other than the fixed part that
    /// [`Self::fixed_solid`] names (another character, a mover), touching counting: when
    /// that part is free at `at`, this is [`Self::overlaps`]. Asked only of a world whose
    /// [`Self::fixed_solid`] is `Some`. Default: [`Self::overlaps`].
    fn overlaps_moving(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.overlaps(shape, at)
    }

    /// Whether nothing in this world moves: every sweep's answer is then a function of the
    /// shape, the segment and [`Self::fixed_solid`]'s identity, so a controller may reuse a
    /// probe made from where it still stands. Default: `false`.
    fn moves_nothing(&self) -> bool {
        false
    }

    /// Whether `shape` placed at `at` overlaps the fixed part that [`Self::fixed_solid`]
    /// names, touching counting (what moves left out). Asked only of a world whose
    /// [`Self::fixed_solid`] is `Some`. Default: [`Self::overlaps`] (a world whose solid is
    /// all fixed).
    fn overlaps_fixed(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.overlaps(shape, at)
    }

    /// [`Self::overlaps_fixed`] under `mask`. Default: [`Self::overlaps_masked`].
    fn overlaps_fixed_masked(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> bool {
        self.overlaps_masked(shape, at, mask)
    }

    /// [`Self::fixed_solid`] for sweeps under `mask` ([`Self::overlaps_masked`]).
    /// Default: `None`.
    fn fixed_solid_masked(&self, mask: Contents) -> Option<FixedSolid> {
        let _ = mask;
        None
    }

    /// [`Self::overlaps_moving`] under `mask`. Default: [`Self::overlaps_masked`].
    fn overlaps_moving_masked(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> bool {
        self.overlaps_masked(shape, at, mask)
    }

    /// What the world is made of at `point` (Quake 3's `pm->pointcontents`): liquids and
    /// ladders decide how the character moves. Default: empty (a dry world).
    fn contents(&self, point: Vec3) -> Contents {
        let _ = point;
        Contents::EMPTY
    }

    /// [`Self::contents`] at each of three points (the water level's samples); a world that
    /// can answer them together faster ([`CompiledMap::points_contents`]) overrides it.
    fn contents3(&self, points: [Vec3; 3]) -> [Contents; 3] {
        points.map(|p| self.contents(p))
    }

    /// An identity for the world's point contents: two calls returning the same `Some(id)`
    /// answer [`Self::contents`] alike at every point, so the controller may reuse a
    /// sample taken where the character still stands. `None` (the default, and any world
    /// whose contents move): nothing is reused.
    fn contents_id(&self) -> Option<u64> {
        None
    }

    /// The summed unit directions of the currents at `point` ([`CompiledMap::point_current`]).
    /// Default: none.
    fn current(&self, point: Vec3) -> Vec3 {
        let _ = point;
        Vec3::ZERO
    }

    /// Whether the world may hold a ladder (a brush of [`Contents::LADDER`] or a side
    /// flagged [`SurfaceFlags::LADDER`](crate::SurfaceFlags::LADDER)); when it cannot, the
    /// controller skips its ladder probe. Default: it may.
    fn may_have_ladders(&self) -> bool {
        true
    }

    /// The trigger models `shape` touches on its way from `start` to `end`, added to
    /// `touched`; those it is in at `end` are added to `inside` too
    /// ([`CompiledMap::touching_triggers_along`]). Default: no triggers.
    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        let _ = (shape, start, end, touched, inside);
    }

    /// [`Self::touch_triggers`], which may use what [`Self::gather`] put in `cache`; it
    /// must add the same models to the same lists. Default: [`Self::touch_triggers`]. A
    /// world wrapper that passes positions through unchanged forwards it to the world it
    /// wraps.
    fn touch_triggers_cached(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        let _ = cache;
        self.touch_triggers(shape, start, end, touched, inside);
    }

    /// Gathers into `cache` what sweeps of any of `shapes` whose reference point stays
    /// within `region` may meet, so that [`Self::trace_cached`] can answer them without
    /// searching the whole world. The controller calls it once when a tick begins, with
    /// the box its shape centres are expected to stay in. The region is only an estimate:
    /// a sweep beyond it must still be answered exactly. Default: nothing is gathered.
    /// A world wrapper forwards it to the world it wraps.
    fn gather(&self, shapes: &[&TraceShape], region: (Vec3, Vec3), cache: &mut TickCache) {
        let _ = (shapes, region);
        cache.clear();
    }

    /// [`Self::trace`], which may use what [`Self::gather`] put in `cache`; it must give
    /// the same result, bit for bit. Default: [`Self::trace`].
    fn trace_cached(&self, cache: &TickCache, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        let _ = cache;
        self.trace(shape, start, end)
    }

    /// [`Self::overlaps`], which may use what [`Self::gather`] put in `cache`; it must give
    /// the same answer. Default: [`Self::overlaps`].
    fn overlaps_cached(&self, cache: &TickCache, shape: &TraceShape, at: Vec3) -> bool {
        let _ = cache;
        self.overlaps(shape, at)
    }

    /// [`Self::trace`] with the world's brushes tested against `mask` instead of this
    /// world's own mask (a character's [`ControllerConfig::mask`](super::ControllerConfig),
    /// through [`Masked`]). Default: the mask is ignored (a scripted world has one rule).
    fn trace_masked(&self, shape: &TraceShape, start: Vec3, end: Vec3, mask: Contents) -> Trace {
        let _ = mask;
        self.trace(shape, start, end)
    }

    /// [`Self::overlaps`] under `mask` ([`Self::trace_masked`]). Default: the mask is
    /// ignored.
    fn overlaps_masked(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> bool {
        let _ = mask;
        self.overlaps(shape, at)
    }

    /// [`Self::gather`] for sweeps under `mask`. Default: the mask is ignored.
    fn gather_masked(
        &self,
        shapes: &[&TraceShape],
        region: (Vec3, Vec3),
        mask: Contents,
        cache: &mut TickCache,
    ) {
        let _ = mask;
        self.gather(shapes, region, cache);
    }

    /// [`Self::trace_cached`] under `mask`. Default: the mask is ignored.
    fn trace_cached_masked(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        let _ = mask;
        self.trace_cached(cache, shape, start, end)
    }

    /// [`Self::overlaps_cached`] under `mask`. Default: the mask is ignored.
    fn overlaps_cached_masked(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        at: Vec3,
        mask: Contents,
    ) -> bool {
        let _ = mask;
        self.overlaps_cached(cache, shape, at)
    }
}

/// The identity of a world's fixed solid under one mask ([`Tracer::fixed_solid`]): the map
/// (each load of a map is a new one; a clone keeps its original's) and what blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedSolid {
    map: u64,
    mask: Contents,
}

/// A world swept under one mask: every sweep of [`Tracer`] goes to the world's `*_masked`
/// method with `mask` (a monster's [`Contents::MASK_MONSTER_SOLID`]). The controller views
/// its world through it with its config's mask, so a player's sweeps (the player mask, the
/// map's own default) are bit for bit what they were. No allocation.
#[derive(Clone, Copy, Debug)]
pub struct Masked<'a, T: Tracer + ?Sized> {
    /// The world.
    pub world: &'a T,
    /// What blocks.
    pub mask: Contents,
}

impl<T: Tracer + ?Sized> Tracer for Masked<'_, T> {
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        self.world.trace_masked(shape, start, end, self.mask)
    }

    fn overlaps(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_masked(shape, at, self.mask)
    }

    fn gather(&self, shapes: &[&TraceShape], region: (Vec3, Vec3), cache: &mut TickCache) {
        self.world.gather_masked(shapes, region, self.mask, cache);
    }

    fn trace_cached(&self, cache: &TickCache, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        self.world
            .trace_cached_masked(cache, shape, start, end, self.mask)
    }

    fn overlaps_cached(&self, cache: &TickCache, shape: &TraceShape, at: Vec3) -> bool {
        self.world
            .overlaps_cached_masked(cache, shape, at, self.mask)
    }

    fn fixed_solid(&self) -> Option<FixedSolid> {
        self.world.fixed_solid_masked(self.mask)
    }

    fn moves_nothing(&self) -> bool {
        self.world.moves_nothing()
    }

    fn overlaps_fixed(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_fixed_masked(shape, at, self.mask)
    }

    fn overlaps_moving(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_moving_masked(shape, at, self.mask)
    }

    forward_world_queries!(world);
}

impl Tracer for CompiledMap {
    /// Sweeps through the world model; what blocks a player blocks
    /// ([`Contents::MASK_PLAYER_SOLID`]).
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        CompiledMap::trace(self, shape, start, end, Contents::MASK_PLAYER_SOLID)
    }

    /// The map's sweeps meet only the world model (0), where the map puts it; any other
    /// model is held nowhere.
    fn overlaps_model(&self, model: usize, shape: &TraceShape, at: Vec3) -> bool {
        model == 0 && self.overlaps_masked(shape, at, Contents::MASK_PLAYER_SOLID)
    }

    /// The map never changes: all of it is fixed, for the player mask.
    fn fixed_solid(&self) -> Option<FixedSolid> {
        self.fixed_solid_masked(Contents::MASK_PLAYER_SOLID)
    }

    /// Nothing in a map moves.
    fn overlaps_moving(&self, _shape: &TraceShape, _at: Vec3) -> bool {
        false
    }

    fn moves_nothing(&self) -> bool {
        true
    }

    fn fixed_solid_masked(&self, mask: Contents) -> Option<FixedSolid> {
        Some(FixedSolid {
            map: self.contents_id(),
            mask,
        })
    }

    fn overlaps_moving_masked(&self, _shape: &TraceShape, _at: Vec3, _mask: Contents) -> bool {
        false
    }

    fn trace_masked(&self, shape: &TraceShape, start: Vec3, end: Vec3, mask: Contents) -> Trace {
        CompiledMap::trace(self, shape, start, end, mask)
    }

    fn overlaps_masked(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> bool {
        CompiledMap::overlaps(self, shape, at, mask)
    }

    fn gather_masked(
        &self,
        shapes: &[&TraceShape],
        region: (Vec3, Vec3),
        mask: Contents,
        cache: &mut TickCache,
    ) {
        self.gather_near(shapes, region, mask, cache);
    }

    fn trace_cached_masked(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        CompiledMap::trace_cached(self, cache, shape, start, end, mask)
    }

    fn overlaps_cached_masked(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        at: Vec3,
        mask: Contents,
    ) -> bool {
        self.trace_cached(cache, shape, at, at, mask).start_solid
    }

    /// The world model's and the static models' brushes near `region`
    /// ([`TickCache`]), for the player mask.
    fn gather(&self, shapes: &[&TraceShape], region: (Vec3, Vec3), cache: &mut TickCache) {
        self.gather_near(shapes, region, Contents::MASK_PLAYER_SOLID, cache);
    }

    fn trace_cached(&self, cache: &TickCache, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        CompiledMap::trace_cached(self, cache, shape, start, end, Contents::MASK_PLAYER_SOLID)
    }

    fn overlaps_cached(&self, cache: &TickCache, shape: &TraceShape, at: Vec3) -> bool {
        self.trace_cached(cache, shape, at, at, Contents::MASK_PLAYER_SOLID)
            .start_solid
    }

    /// [`CompiledMap::point_contents`]: the world model and the static models.
    fn contents(&self, point: Vec3) -> Contents {
        self.point_contents(point)
    }

    /// [`CompiledMap::points_contents`]: one walk for the three.
    fn contents3(&self, points: [Vec3; 3]) -> [Contents; 3] {
        self.points_contents(points)
    }

    /// The map never changes, so its contents have an identity for its lifetime.
    fn contents_id(&self) -> Option<u64> {
        Some(CompiledMap::contents_id(self))
    }

    fn current(&self, point: Vec3) -> Vec3 {
        self.point_current(point)
    }

    fn may_have_ladders(&self) -> bool {
        self.has_ladders()
    }

    /// [`Tracer::touch_triggers`], answered at once (nothing touched) when the tick's
    /// cache shows no trigger model near the path.
    fn touch_triggers_cached(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        if !cache.no_triggers_along(self, shape, start, end) {
            Tracer::touch_triggers(self, shape, start, end, touched, inside);
        }
    }

    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
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
}

/// Writes, inside an `impl Tracer` block of a view that wraps a world in its field `$inner`,
/// the methods that ask the world rather than sweep it ([`Tracer::contents`],
/// [`Tracer::contents3`], [`Tracer::contents_id`], [`Tracer::current`],
/// [`Tracer::may_have_ladders`] and, unless told `but positions`, [`Tracer::touch_triggers`],
/// [`Tracer::touch_triggers_cached`] and [`Tracer::overlaps_model`], which take positions)
/// as calls on `self.$inner`: a view that only changes sweeps (an offset, other characters)
/// answers them as its world does.
macro_rules! forward_world_queries {
    ($inner:ident) => {
        forward_world_queries!($inner; but positions);

        fn overlaps_model(
            &self,
            model: usize,
            shape: &$crate::trace::TraceShape,
            at: glam::Vec3,
        ) -> bool {
            self.$inner.overlaps_model(model, shape, at)
        }

        fn touch_triggers(
            &self,
            shape: &$crate::trace::TraceShape,
            start: glam::Vec3,
            end: glam::Vec3,
            touched: &mut $crate::controller::TriggerList,
            inside: &mut $crate::controller::TriggerList,
        ) {
            self.$inner.touch_triggers(shape, start, end, touched, inside);
        }

        fn touch_triggers_cached(
            &self,
            cache: &$crate::trace::TickCache,
            shape: &$crate::trace::TraceShape,
            start: glam::Vec3,
            end: glam::Vec3,
            touched: &mut $crate::controller::TriggerList,
            inside: &mut $crate::controller::TriggerList,
        ) {
            self.$inner
                .touch_triggers_cached(cache, shape, start, end, touched, inside);
        }
    };
    ($inner:ident; but positions) => {
        fn contents(&self, point: glam::Vec3) -> $crate::contents::Contents {
            self.$inner.contents(point)
        }

        fn contents3(&self, points: [glam::Vec3; 3]) -> [$crate::contents::Contents; 3] {
            self.$inner.contents3(points)
        }

        fn contents_id(&self) -> Option<u64> {
            self.$inner.contents_id()
        }

        fn current(&self, point: glam::Vec3) -> glam::Vec3 {
            self.$inner.current(point)
        }

        fn may_have_ladders(&self) -> bool {
            self.$inner.may_have_ladders()
        }
    };
}
pub(crate) use forward_world_queries;

/// A tracer seen from a shape whose centre sits `offset` above the character's origin.
pub(crate) struct Offset<'a, T: Tracer + ?Sized> {
    pub(crate) world: &'a T,
    pub(crate) offset: Vec3,
}

impl<T: Tracer + ?Sized> Tracer for Offset<'_, T> {
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        let mut trace = self
            .world
            .trace(shape, start + self.offset, end + self.offset);
        trace.end -= self.offset;
        trace
    }

    forward_world_queries!(world; but positions);

    fn fixed_solid(&self) -> Option<FixedSolid> {
        self.world.fixed_solid()
    }

    fn moves_nothing(&self) -> bool {
        self.world.moves_nothing()
    }

    fn overlaps_fixed(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_fixed(shape, at + self.offset)
    }

    fn overlaps_moving(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_moving(shape, at + self.offset)
    }

    fn overlaps_model(&self, model: usize, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_model(model, shape, at + self.offset)
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

/// A tracer whose sweeps read the [`TickCache`] gathered for the running tick: what the
/// controller's tick sweeps through, so the tick's code is the same with or without it.
pub(crate) struct Cached<'a, T: Tracer + ?Sized> {
    pub(crate) world: &'a T,
    pub(crate) cache: &'a TickCache,
}

impl<T: Tracer + ?Sized> Tracer for Cached<'_, T> {
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        self.world.trace_cached(self.cache, shape, start, end)
    }

    fn overlaps(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_cached(self.cache, shape, at)
    }

    fn fixed_solid(&self) -> Option<FixedSolid> {
        self.world.fixed_solid()
    }

    fn moves_nothing(&self) -> bool {
        self.world.moves_nothing()
    }

    fn overlaps_fixed(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_fixed(shape, at)
    }

    fn overlaps_moving(&self, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_moving(shape, at)
    }

    forward_world_queries!(world; but positions);

    fn overlaps_model(&self, model: usize, shape: &TraceShape, at: Vec3) -> bool {
        self.world.overlaps_model(model, shape, at)
    }

    /// The world's [`Tracer::touch_triggers_cached`] with the tick's cache.
    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        self.world
            .touch_triggers_cached(self.cache, shape, start, end, touched, inside);
    }
}

/// `world`'s sweep under `mask`, or under its own mask when `mask` is `None` (the views
/// over a crowd sweep the world with the mover's mask only when it is not the player's
/// default, so a player's sweeps are the world's own, bit for bit).
pub(crate) fn trace_under<T: Tracer + ?Sized>(
    world: &T,
    mask: Option<Contents>,
    shape: &TraceShape,
    start: Vec3,
    end: Vec3,
) -> Trace {
    match mask {
        None => world.trace(shape, start, end),
        Some(mask) => world.trace_masked(shape, start, end, mask),
    }
}

/// [`trace_under`] for [`Tracer::overlaps`].
pub(crate) fn overlaps_under<T: Tracer + ?Sized>(
    world: &T,
    mask: Option<Contents>,
    shape: &TraceShape,
    at: Vec3,
) -> bool {
    match mask {
        None => world.overlaps(shape, at),
        Some(mask) => world.overlaps_masked(shape, at, mask),
    }
}

/// [`trace_under`] for [`Tracer::fixed_solid`].
pub(crate) fn fixed_solid_under<T: Tracer + ?Sized>(
    world: &T,
    mask: Option<Contents>,
) -> Option<FixedSolid> {
    match mask {
        None => world.fixed_solid(),
        Some(mask) => world.fixed_solid_masked(mask),
    }
}

/// [`trace_under`] for [`Tracer::gather`].
pub(crate) fn gather_under<T: Tracer + ?Sized>(
    world: &T,
    mask: Option<Contents>,
    shapes: &[&TraceShape],
    region: (Vec3, Vec3),
    cache: &mut TickCache,
) {
    match mask {
        None => world.gather(shapes, region, cache),
        Some(mask) => world.gather_masked(shapes, region, mask, cache),
    }
}

/// [`trace_under`] for [`Tracer::trace_cached`].
pub(crate) fn trace_cached_under<T: Tracer + ?Sized>(
    world: &T,
    mask: Option<Contents>,
    cache: &TickCache,
    shape: &TraceShape,
    start: Vec3,
    end: Vec3,
) -> Trace {
    match mask {
        None => world.trace_cached(cache, shape, start, end),
        Some(mask) => world.trace_cached_masked(cache, shape, start, end, mask),
    }
}

/// [`trace_under`] for [`Tracer::overlaps_cached`].
pub(crate) fn overlaps_cached_under<T: Tracer + ?Sized>(
    world: &T,
    mask: Option<Contents>,
    cache: &TickCache,
    shape: &TraceShape,
    at: Vec3,
) -> bool {
    match mask {
        None => world.overlaps_cached(cache, shape, at),
        Some(mask) => world.overlaps_cached_masked(cache, shape, at, mask),
    }
}
