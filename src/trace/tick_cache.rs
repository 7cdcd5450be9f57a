//! [`TickCache`]: the brushes near one character, gathered once for its tick, so that every
//! sweep of the tick runs against that short list instead of walking the tree (issue 18; the
//! volume PhysX's character controller caches around itself). A gather reaches
//! [`REGATHER_MARGIN`] beyond the tick's region, and the next ticks keep it while their
//! regions stay inside, so a walking character walks the trees about one tick in six.
//!
//! Takes a world, the shapes a character sweeps with, a box its shape centres stay in for the
//! tick (an estimate) and a contents mask; gives, per sweep, the same [`Outcome`] as the
//! tree walk (`Through::World`), bit for bit. Guarantees:
//! - correctness never depends on the estimate: a sweep uses the gathered brushes only when
//!   its padded segment box lies inside the gathered box and its shape has exactly the cull
//!   figures ([`CullReach`], bounds) of a gathered shape; any other sweep walks the tree;
//! - the gathered list holds every brush that such a sweep's tree walk reaches and whose
//!   per-brush bounds cull it would pass: the gather walks the same trees with the same node
//!   reaches (the support's own `Support::node_reaches`), from a box of followed points
//!   instead of a segment (grown by [`GATHER_SLACK`]), and applies the same bounds test
//!   (`sweep_state::brush_grow`, the sweep's padding) to the gathered box, which by
//!   monotone rounding rejects only brushes the sweep would reject. Clipping that list in
//!   increasing id order with the walk's own per-brush culls gives the tree's answer (ties
//!   go to the lower plane, then the lower brush, and an all-solid sweep names the lowest
//!   brush it is all-solid in, whatever the order: invariant I3);
//! - a list made for the game's patches (`CompiledMap::gather_game_patches`) holds no
//!   patch facet of the world model, which the sweeps that meet the game's patches skip
//!   before any other test; any other sweep walks the tree instead;
//! - a list kept from an earlier tick serves only a region inside the one it was gathered
//!   for, from the same map (immutable once loaded, named by its contents id), with the same
//!   mask and shape figures: exactly what a fresh gather would accept;
//! - nothing allocates once the list has grown to the largest neighbourhood seen.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use glam::Vec3;

use super::shape::{CullReach, Oriented, Repr, Support, WithSupport};
use super::sweep_state::{brush_grow, stop_pad};
use crate::compiled::{CompiledMap, NodeChild};
use crate::contents::Contents;
use crate::tolerance::SURFACE_CLIP_EPSILON;
use crate::trace::TraceShape;

/// How much farther than a sweep's own node test the gather walk reaches on each side of a
/// node plane, in map units: covers the f32 rounding of `n·p − dist` at the world limit
/// (a few ulps of 2^17, under 0.1) and of the sub-segment ends the sweep's walk
/// interpolates, which may stray an ulp outside the segment's box. Only gathers more.
pub(crate) const GATHER_SLACK: f32 = 1.0;

/// Most brushes one gather keeps, reserved when the cache is made: a gather that finds
/// more keeps none (its sweeps walk the tree), so a tick never grows the buffer, and
/// never allocates. A character's neighbourhood holds tens to a few hundred brushes on
/// the real maps (patch facets included); 4 KB per character.
pub(crate) const MAX_TICK_BRUSHES: usize = 1024;

/// How much farther than the tick's region a new gather reaches on every side, in map
/// units: a character moving 2.6 units a tick (320 units/s at 125 Hz) then reuses the list
/// for about six ticks instead of walking the trees each tick, while the list grows only by
/// a 16-unit shell, which every cached sweep's per-brush cull still visits. Measured with 64
/// bots on dm4, e1m2 and kaos (ns per tick, 0 / 4 / 8 / 16 / 32 / 64 units): 16 is the
/// fastest on all three, 10–26 % below no margin; 64 is slower than none on dm4.
pub(crate) const REGATHER_MARGIN: f32 = 16.0;

/// Most game patches ([`CompiledMap::gather_game_patches`]) one gather keeps, reserved when
/// the cache is made: a gather that finds more keeps none (its sweeps test every patch).
/// A character's neighbourhood meets a few to a few tens of the real maps' patches; 1 KB
/// per character.
pub(crate) const MAX_TICK_PATCHES: usize = 256;

/// How much farther than the gathered region grown by the shapes' extent the patch gather
/// reaches, in map units: covers the game's own [`SURFACE_CLIP_EPSILON`] slack of 1/8 in its
/// bounds test (`game_patch.rs`) and the f32 rounding of a sweep's box corners (a few ulps
/// of 2^17, under 0.1). Only gathers more.
const PATCH_GATHER_SLACK: f32 = 1.0;

/// Most shapes one gather serves (a character's standing and crouched shapes).
pub(crate) const MAX_GATHERED_SHAPES: usize = 2;

/// A shape's cull figures as a sweep derives them: a sweep may use a gather made for
/// figures equal to its own. Compared as bits (one pass over 20 words, where comparing
/// the floats one by one cost about 70 instructions a sweep): equal bits are equal figures,
/// and figures equal only as floats (a zero of the other sign) merely walk the tree. A
/// gather keeps only a finite key ([`ShapeKey::is_finite`]), so a figure that is not finite
/// (a NaN equal to itself as bits) never finds a gather.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShapeKey {
    reach: CullReach,
    boxed: bool,
    mins: Vec3,
    maxs: Vec3,
}

/// The words of a [`ShapeKey`]: the cull figures and the bounds' six coordinates.
const KEY_WORDS: usize = CullReach::KEY_WORDS + 6;

impl ShapeKey {
    /// The key's figures as bits: the cull figures' ([`CullReach::key_bits`]), then the
    /// bounds' (mins, maxs).
    fn words(&self) -> [u32; KEY_WORDS] {
        let mut words = [0; KEY_WORDS];
        let (figures, bounds) = words.split_at_mut(CullReach::KEY_WORDS);
        figures.copy_from_slice(&self.reach.key_bits());
        let (mins, maxs) = (self.mins, self.maxs);
        let coordinates = [mins.x, mins.y, mins.z, maxs.x, maxs.y, maxs.z];
        for (word, value) in bounds.iter_mut().zip(coordinates) {
            *word = value.to_bits();
        }
        words
    }

    /// Whether every figure is finite.
    fn is_finite(&self) -> bool {
        self.reach.is_finite() && self.mins.is_finite() && self.maxs.is_finite()
    }
}

impl PartialEq for ShapeKey {
    fn eq(&self, other: &ShapeKey) -> bool {
        // The differences of all the words folded into one, tested once: inline and branch
        // free (the arrays' own `==` called libc's `memcmp`, about 2 % of a tick).
        let (mine, theirs) = (self.words(), other.words());
        let differ = mine.iter().zip(&theirs).fold(0, |d, (a, b)| d | (a ^ b));
        self.boxed == other.boxed && differ == 0
    }
}

impl ShapeKey {
    /// The key of a sweep whose support is `S`, with cull figures `reach` and bounds
    /// `(mins, maxs)`: how a sweep and a gather both derive it.
    pub(crate) fn new<S: Support>(reach: CullReach, (mins, maxs): (Vec3, Vec3)) -> ShapeKey {
        ShapeKey {
            reach,
            boxed: S::BOXED,
            mins,
            maxs,
        }
    }
}

/// The brushes near a character for one tick: what the controller gathers from the map its
/// world names ([`SpeedFacts::map`](crate::controller::SpeedFacts::map)) when its tick
/// begins, and what every query of that tick carries as its scratch
/// ([`ShapeQuery`](crate::controller::ShapeQuery)) for the map to read back.
///
/// Opaque: a world built around a map only passes it on with the query. A sweep outside
/// what was gathered (or through another map than the one gathered from) walks the tree, so
/// the answers never depend on the cache, only their cost. The buffers are kept from tick to
/// tick: no allocation after [`TickCache::new`]. A clone starts empty.
#[derive(Debug)]
pub struct TickCache {
    /// The map gathered from ([`CompiledMap::contents_id`]); `None` before any gather.
    map: Option<u64>,
    mask: Contents,
    /// The box a sweep's padded segment must lie in.
    region: (Vec3, Vec3),
    shapes: [Option<ShapeKey>; MAX_GATHERED_SHAPES],
    /// The shapes gathered for, slot by slot, when they are not hulls (a copy of a hull's
    /// points would allocate): a later gather for an equal shape in the same slot takes its
    /// key as found, without deriving the cull figures again.
    seen: [Option<Repr>; MAX_GATHERED_SHAPES],
    /// Brush ids, increasing, without repeats.
    brushes: Vec<u32>,
    /// Indices of the map's game patches whose bounds meet `region` grown by
    /// `shape_extent` (and [`PATCH_GATHER_SLACK`]), increasing; meaningful only when
    /// `patches_ready`.
    patches: Vec<u32>,
    /// Whether `patches` was gathered for the current gather (cleared with it).
    patches_ready: bool,
    /// Whether the world model's patch facets were taken out of `brushes`
    /// ([`CompiledMap::gather_game_patches`]: sweeps that meet the game's own patches skip
    /// those facets, so scanning them cost a load and a test each for nothing). Only a
    /// sweep that skips them then uses the list; any other walks the tree.
    facets_left_out: bool,
    /// How far the gathered shapes' bounds reach from their reference point on each axis
    /// (the largest of `−mins` and `maxs` over them).
    shape_extent: Vec3,
    /// Whether some trigger model's bounds meet `region` grown by `shape_extent`: when
    /// none does, no shape within `shape_extent` moving inside `region` touches a trigger
    /// ([`TickCache::no_triggers_along`]).
    triggers_near: bool,
    /// Sweeps answered from the list, and sweeps that walked the tree instead (plain
    /// loads and stores: one writer, read for statistics only).
    cached: AtomicU64,
    walked: AtomicU64,
    /// Tree walks that gathered, and gathers answered by the list already held.
    gathers: u64,
    reused: u64,
    /// The stop distance the gather was made for (`CompiledMap::gather_near_stopping`):
    /// its sweeps' keys and padding are that stop distance's.
    stop: f32,
}

impl Clone for TickCache {
    fn clone(&self) -> Self {
        let (cached, walked) = self.counts();
        TickCache {
            cached: AtomicU64::new(cached),
            walked: AtomicU64::new(walked),
            gathers: self.gathers,
            reused: self.reused,
            ..TickCache::new()
        }
    }
}

impl Default for TickCache {
    fn default() -> Self {
        TickCache::new()
    }
}

impl TickCache {
    /// An empty cache (its buffer reserved): every sweep walks the tree until something
    /// is gathered.
    #[must_use]
    pub fn new() -> TickCache {
        TickCache {
            brushes: Vec::with_capacity(MAX_TICK_BRUSHES),
            patches: Vec::with_capacity(MAX_TICK_PATCHES),
            ..TickCache::unreserved()
        }
    }

    /// An empty cache without a buffer (allocates nothing): it never gathers anything.
    pub(crate) fn unreserved() -> TickCache {
        TickCache {
            map: None,
            mask: Contents::EMPTY,
            region: (Vec3::ZERO, Vec3::ZERO),
            shapes: [None; MAX_GATHERED_SHAPES],
            seen: [const { None }; MAX_GATHERED_SHAPES],
            brushes: Vec::new(),
            patches: Vec::new(),
            patches_ready: false,
            facets_left_out: false,
            shape_extent: Vec3::ZERO,
            triggers_near: true,
            cached: AtomicU64::new(0),
            walked: AtomicU64::new(0),
            gathers: 0,
            reused: 0,
            stop: SURFACE_CLIP_EPSILON,
        }
    }

    /// Forgets what was gathered (keeping the buffer and the counts).
    pub fn clear(&mut self) {
        self.map = None;
        self.shapes = [None; MAX_GATHERED_SHAPES];
        self.seen = [const { None }; MAX_GATHERED_SHAPES];
        self.brushes.clear();
        self.patches.clear();
        self.patches_ready = false;
        self.facets_left_out = false;
        self.triggers_near = true;
    }

    /// How many sweeps were answered from gathered brushes, and how many walked the tree
    /// instead (through a map, since the cache was made).
    #[must_use]
    pub fn counts(&self) -> (u64, u64) {
        (
            self.cached.load(Ordering::Relaxed),
            self.walked.load(Ordering::Relaxed),
        )
    }

    /// How many gathers walked the trees, and how many kept the list already held because
    /// it covered the new region (a gather reaches 16 units beyond the region asked for, so
    /// a walking character's next few ticks find their region inside it).
    #[must_use]
    pub fn gather_counts(&self) -> (u64, u64) {
        (self.gathers, self.reused)
    }

    /// Whether the list held is a gather from map `map` with `mask`, for every one of
    /// the first [`MAX_GATHERED_SHAPES`] of `shapes` (the others are never gathered) and for
    /// a box holding `region`.
    fn holds(
        &self,
        map: u64,
        mask: Contents,
        region: (Vec3, Vec3),
        shapes: &[&TraceShape],
    ) -> bool {
        self.map == Some(map)
            && self.mask == mask
            && self.region.0.cmple(region.0).all()
            && region.1.cmple(self.region.1).all()
            && shapes
                .iter()
                .take(MAX_GATHERED_SHAPES)
                .enumerate()
                .all(|(slot, shape)| {
                    // The shape gathered in this slot, equal field by field: its figures,
                    // derived by the same operations from equal inputs, are equal too.
                    if self
                        .seen
                        .get(slot)
                        .is_some_and(|seen| seen.as_ref() == Some(&shape.0))
                    {
                        return true;
                    }
                    let oriented = Oriented::new(shape, None);
                    let key = oriented.dispatch(KeyOf(oriented));
                    self.shapes.iter().flatten().any(|k| *k == key)
                })
    }

    /// The gathered brushes, increasing, when a sweep of `key` through `map` with `mask`
    /// whose padded segment box is `segment` may use them (counted either way);
    /// `skips_facets`: whether the sweep skips the world model's patch facets (it meets
    /// the game's own patches instead), as a list without them requires.
    pub(crate) fn brushes_for(
        &self,
        map: &CompiledMap,
        mask: Contents,
        key: &ShapeKey,
        segment: (Vec3, Vec3),
        skips_facets: bool,
    ) -> Option<&[u32]> {
        let fits = self.map == Some(map.contents_id())
            && (skips_facets || !self.facets_left_out)
            && self.mask == mask
            && self.region.0.cmple(segment.0).all()
            && segment.1.cmple(self.region.1).all()
            && self.shapes.iter().flatten().any(|k| k == key);
        let counter = if fits { &self.cached } else { &self.walked };
        counter.store(counter.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        fits.then_some(&self.brushes[..])
    }

    /// The gathered game patches ([`CompiledMap::gather_game_patches`]), increasing, when a
    /// sweep through `map` of a shape whose bounds about its reference point are
    /// `(low, high)`, moving that point from `start` to `end`, may use them: the list was
    /// gathered from `map` for the current region, both ends lie inside the region and the
    /// bounds within the gathered shapes' extent. Then every patch the sweep's box meets
    /// (with the game's slack of 1/8) is on the list.
    pub(crate) fn patches_for(
        &self,
        map: &CompiledMap,
        (low, high): (Vec3, Vec3),
        start: Vec3,
        end: Vec3,
    ) -> Option<&[u32]> {
        let fits = self.patches_ready
            && self.map == Some(map.contents_id())
            && self.region.0.cmple(start.min(end)).all()
            && start.max(end).cmple(self.region.1).all()
            && (-low).cmple(self.shape_extent).all()
            && high.cmple(self.shape_extent).all();
        fits.then_some(&self.patches[..])
    }

    /// Whether `shape` moving from `start` to `end` (its reference point) through `map`
    /// surely touches no trigger model: the list held was gathered from `map`, the path
    /// lies inside the gathered region, the shape's bounds within the gathered shapes'
    /// extent, and no trigger model's bounds meet that region grown by that extent. Then
    /// the trigger query's broad phase (`CompiledMap::touching_triggers_along`: model
    /// bounds against the path's box grown by the shape's bounds, touching counts) finds
    /// none either: its box lies inside the grown region, each corner by the same f32
    /// sum of a smaller (or larger) pair of terms, and rounding is monotone.
    pub(crate) fn no_triggers_along(
        &self,
        map: &CompiledMap,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
    ) -> bool {
        if self.triggers_near || self.map != Some(map.contents_id()) {
            return false;
        }
        // A shape gathered for (equal field by field) has its bounds within the extent:
        // they were part of it.
        let within_extent = || {
            self.seen.iter().any(|seen| seen.as_ref() == Some(&shape.0)) || {
                let (low, high) = shape.bounds();
                (-low).cmple(self.shape_extent).all() && high.cmple(self.shape_extent).all()
            }
        };
        self.region.0.cmple(start.min(end)).all()
            && start.max(end).cmple(self.region.1).all()
            && within_extent()
    }
}

impl CompiledMap {
    /// Whether some trigger model's bounds meet the box `(lo, hi)` (touching counts, as
    /// the trigger queries' broad phase counts it).
    fn triggers_meet(&self, (lo, hi): (Vec3, Vec3)) -> bool {
        let models = self.models();
        self.trigger_models().iter().any(|&model| {
            models
                .get(model as usize)
                .is_none_or(|m| m.mins.cmple(hi).all() && lo.cmple(m.maxs).all())
        })
    }

    internal! {
        /// Gathers into `cache` the brushes of the world model and its static models that a
        /// sweep of any of `shapes` (unrotated), whose segment stays inside `region`, may clip
        /// with `mask` (see the module doc). Shapes beyond `MAX_GATHERED_SHAPES` are ignored:
        /// their sweeps walk the tree.
        ///
        /// When `cache` already holds a gather from this map, with this mask, for these shapes
        /// and a box around `region`, it is kept as it is: the map never changes, so that list
        /// still holds every brush such a sweep may clip. A new gather takes `region` grown by
        /// `REGATHER_MARGIN`, so the ticks that follow at walking speed reuse it; when that
        /// overflows the buffer, `region` alone.
        pub fn gather_near(
            &self,
            shapes: &[&TraceShape],
            region: (Vec3, Vec3),
            mask: Contents,
            cache: &mut TickCache,
        ) {
            self.gather_near_stopping(shapes, region, mask, SURFACE_CLIP_EPSILON, cache);
        }
    }

    internal! {
        /// [`Self::gather_near`] for sweeps that stop `stop` units in front of what they hit
        /// ([`Self::trace_stopping`]): the region is padded and the shapes' cull reaches
        /// grown as those sweeps pad and grow theirs, so their keys are the gather's.
        pub fn gather_near_stopping(
            &self,
            shapes: &[&TraceShape],
            region: (Vec3, Vec3),
            mask: Contents,
            stop: f32,
            cache: &mut TickCache,
        ) {
            if !(region.0.is_finite() && region.1.is_finite()) {
                cache.clear();
                return;
            }
            // The sweep's padded segment box must lie inside: pad as the sweep pads.
            let pad = stop_pad(stop);
            let wanted = (region.0 - pad, region.1 + pad);
            if cache.stop == stop && cache.holds(self.contents_id(), mask, wanted, shapes) {
                cache.reused += 1;
                return;
            }
            let margin = Vec3::splat(REGATHER_MARGIN);
            if !self.gather_into(shapes, (wanted.0 - margin, wanted.1 + margin), mask, stop, cache) {
                self.gather_into(shapes, wanted, mask, stop, cache);
            }
        }
    }

    /// Adds to the gather `cache` holds from this map the game patches
    /// ([`Self::has_game_patches`]) a sweep it serves may meet: those whose bounds meet the
    /// gathered region grown by the gathered shapes' extent and [`PATCH_GATHER_SLACK`]
    /// (`game_patch.rs` tests a sweep's box against a patch's bounds with 1/8 of slack, and
    /// a sweep served lies inside that grown region, so a patch left out fails that test).
    /// Nothing when the cache holds no gather from this map, already holds the patches, or
    /// they would overflow [`MAX_TICK_PATCHES`] (its sweeps then test every patch).
    ///
    /// Also, on a map with game patches, takes the world model's patch facets out of the
    /// gathered brushes: the sweeps that meet the game's patches skip them before any other
    /// test (`tree_walk.rs`), so their answers are the same without them, and from then on
    /// the list serves only such sweeps ([`TickCache::brushes_for`]).
    pub(crate) fn gather_game_patches(&self, cache: &mut TickCache) {
        if cache.map != Some(self.contents_id()) {
            return;
        }
        if !cache.facets_left_out && self.has_game_patches() {
            let facets = self.models().first().map_or(0..0, |world| world.brush_range());
            let brushes = self.brushes();
            cache.brushes.retain(|&id| {
                let id = id as usize;
                !(facets.contains(&id) && brushes.get(id).is_some_and(|b| b.patch))
            });
            cache.facets_left_out = true;
        }
        if cache.patches_ready {
            return;
        }
        let grow = cache.shape_extent + Vec3::splat(PATCH_GATHER_SLACK);
        let (lo, hi) = (cache.region.0 - grow, cache.region.1 + grow);
        if !(lo.is_finite() && hi.is_finite()) {
            return;
        }
        cache.patches.clear();
        for (index, patch) in self.game_collides().iter().enumerate() {
            let c = &patch.collide;
            if !(c.mins.cmple(hi).all() && lo.cmple(c.maxs).all()) {
                continue;
            }
            let Ok(index) = u32::try_from(index) else {
                return;
            };
            if cache.patches.len() >= cache.patches.capacity().min(MAX_TICK_PATCHES) {
                // Too many: nothing kept, every sweep tests every patch (never allocates).
                cache.patches.clear();
                return;
            }
            cache.patches.push(index);
        }
        cache.patches_ready = true;
    }

    /// One gather of `region` (already padded) into `cache`; false, with nothing kept,
    /// when the brushes overflowed the buffer.
    fn gather_into(
        &self,
        shapes: &[&TraceShape],
        region: (Vec3, Vec3),
        mask: Contents,
        stop: f32,
        cache: &mut TickCache,
    ) -> bool {
        cache.clear();
        cache.gathers += 1;
        cache.region = region;
        cache.mask = mask;
        cache.stop = stop;
        cache.map = Some(self.contents_id());
        for (slot, shape) in shapes.iter().take(MAX_GATHERED_SHAPES).enumerate() {
            let oriented = Oriented::new(shape, None);
            let gathered = oriented.dispatch(Gather {
                map: self,
                shape: oriented,
                region: cache.region,
                mask,
                stop,
                out: &mut cache.brushes,
            });
            let Some(key) = gathered else {
                // Too many brushes (duplicates included): nothing gathered, every sweep walks.
                cache.clear();
                return false;
            };
            // Only finite keys are kept: keys compare as bits, where a NaN would match itself.
            cache.shapes[slot] = key.is_finite().then_some(key);
            if let (Some(seen), false) = (
                cache.seen.get_mut(slot),
                matches!(shape.0, Repr::Hull { .. }),
            ) {
                *seen = Some(shape.0.clone());
            }
        }
        cache.brushes.sort_unstable();
        cache.brushes.dedup();
        let extent = shapes
            .iter()
            .map(|shape| {
                let (low, high) = shape.bounds();
                (-low).max(high)
            })
            .fold(Vec3::ZERO, Vec3::max);
        cache.shape_extent = extent;
        cache.triggers_near = !extent.is_finite()
            || self.triggers_meet((cache.region.0 - extent, cache.region.1 + extent));
        true
    }
}

/// A shape's cull figures, without gathering anything.
struct KeyOf<'a>(Oriented<'a>);

impl WithSupport for KeyOf<'_> {
    type Output = ShapeKey;

    fn run<S: Support>(self, support: S) -> ShapeKey {
        shape_key(&self.0, &support)
    }
}

/// The cull figures a sweep of `shape` with `support` derives (`TraceWork::new`'s own).
fn shape_key<S: Support>(shape: &Oriented<'_>, support: &S) -> ShapeKey {
    let bounds = support.bounds();
    ShapeKey::new::<S>(shape.cull_reach(bounds), bounds)
}

/// [`shape_key`] of a sweep stopping `stop` in front: its cull reach grown as
/// `TraceWork::new` grows it.
fn shape_key_stopping<S: Support>(shape: &Oriented<'_>, support: &S, stop: f32) -> ShapeKey {
    if stop > SURFACE_CLIP_EPSILON {
        let bounds = support.bounds();
        let reach = shape.cull_reach(bounds).grown(stop - SURFACE_CLIP_EPSILON);
        ShapeKey::new::<S>(reach, bounds)
    } else {
        shape_key(shape, support)
    }
}

/// One shape's gather: walks the world's trees from the box of points its sweeps follow.
struct Gather<'a> {
    map: &'a CompiledMap,
    shape: Oriented<'a>,
    region: (Vec3, Vec3),
    mask: Contents,
    /// The stop distance of the sweeps served (`TraceWork::stop`).
    stop: f32,
    out: &'a mut Vec<u32>,
}

impl WithSupport for Gather<'_> {
    /// The shape's key, or `None` when the brushes overflowed the buffer.
    type Output = Option<ShapeKey>;

    fn run<S: Support>(self, support: S) -> Option<ShapeKey> {
        let key = shape_key_stopping(&self.shape, &support, self.stop);
        let mut walk = GatherWalk::<S> {
            support: PhantomData,
            map: self.map,
            key,
            region: self.region,
            mask: self.mask,
            out: self.out,
            overflow: false,
        };
        let offset = key.reach.center();
        let followed = (self.region.0 + offset, self.region.1 + offset);
        let models = self.map.models();
        if let Some(world) = models.first() {
            walk.walk(world.root, followed);
        }
        for &(model, _) in self.map.static_models() {
            if let Some(model) = models.get(model as usize) {
                walk.walk(model.root, followed);
            }
        }
        (!walk.overflow).then_some(key)
    }
}

/// The gather's walk for a shape whose support is `S`: the node reaches are `S`'s own
/// (`Support::node_reaches`), as its sweeps take them.
struct GatherWalk<'a, 'o, S> {
    support: PhantomData<S>,
    map: &'a CompiledMap,
    key: ShapeKey,
    region: (Vec3, Vec3),
    mask: Contents,
    out: &'o mut Vec<u32>,
    /// The buffer was full: the walk stops, and the gather keeps nothing.
    overflow: bool,
}

impl<S: Support> GatherWalk<'_, '_, S> {
    /// Every leaf under `child` that a sweep followed within `(lo, hi)` may reach.
    fn walk(&mut self, mut child: NodeChild, (lo, hi): (Vec3, Vec3)) {
        let (center, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let nodes = self.map.runtime_nodes();
        loop {
            if self.overflow {
                return;
            }
            let index = match child {
                NodeChild::Leaf(leaf) => return self.leaf(leaf as usize),
                NodeChild::Node(node) => node as usize,
            };
            let Some(node) = nodes.get(index) else {
                return;
            };
            let n = node.normal;
            let [front_reach, back_reach] =
                S::node_reaches(&self.key.reach, n, node.kappa, node.kappa_inexact);
            let t = n.dot(center) - node.dist;
            let spread = n.abs().dot(half) + GATHER_SLACK;
            // The sweep takes the front where some followed point has t > −front_reach, the
            // back where some has t < back_reach.
            let front = t + spread > -front_reach;
            let back = t - spread < back_reach;
            match (front, back) {
                (true, true) => {
                    self.walk(node.children[0], (lo, hi));
                    child = node.children[1];
                }
                (true, false) => child = node.children[0],
                (false, true) => child = node.children[1],
                (false, false) => return,
            }
        }
    }

    /// The leaf's brushes that a sweep inside the region may clip: those `mask` names whose
    /// bounds pass the walk's bounds cull (`TraceWork::consider`) against the region.
    fn leaf(&mut self, index: usize) {
        let map = self.map;
        let Some(leaf) = map.leaves().get(index) else {
            return;
        };
        if !leaf.contents.intersects(self.mask) {
            return;
        }
        for &brush_id in map.leaf_brush_ids(leaf) {
            let Some(brush) = map.brushes().get(brush_id as usize) else {
                continue;
            };
            if !brush.contents.intersects(self.mask) {
                continue;
            }
            let shape_bounds = (self.key.mins, self.key.maxs);
            let (grow_low, grow_high) =
                brush_grow(map, brush_id, brush, shape_bounds, self.key.reach.radius());
            if (brush.mins - grow_low).cmpgt(self.region.1).any()
                || (brush.maxs + grow_high).cmplt(self.region.0).any()
            {
                continue;
            }
            // Never past the reserved capacity (no allocation).
            if self.out.len() >= self.out.capacity().min(MAX_TICK_BRUSHES) {
                self.overflow = true;
                return;
            }
            self.out.push(brush_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::{ShapeQuery, Tracer, TriggerList};
    use crate::test_rng::XorShift;

    /// A seeded uniform draw in `[lo, hi)`.
    fn draw(rng: &mut XorShift, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (rng.unit() * 0.5 + 0.5)
    }

    /// A Quake 3 level from the shared real maps (`planeshift_testkit::real_maps_dir`) with
    /// its shaders; `None`, printed, when it is not there.
    fn real_quake3_level(test: &str, level: &str) -> Option<CompiledMap> {
        let dir = planeshift_testkit::real_maps_dir(test)?.join("openarena-lostlevels");
        let Ok(bytes) = std::fs::read(dir.join(format!("{level}.bsp"))) else {
            println!("{test}: skipped, no {level}.bsp under {}", dir.display());
            return None;
        };
        let options = crate::CompileOptions {
            shader_folders: vec![dir.join("scripts")],
            ..crate::CompileOptions::default()
        };
        match crate::build::compile_level(&bytes, &options) {
            Ok(compiled) => Some(compiled.map),
            Err(e) => panic!("{level}.bsp compiles: {e}"),
        }
    }

    /// Near kaos's curves, a gather for the game's patches keeps none of the world's patch
    /// facets (it held some before), its game-patch sweeps answer as the same sweeps
    /// without a gather, bit for bit (all-solid ones too, where solid and player clip
    /// overlap: both name the lowest brush), and a sweep that meets the facets (no game
    /// patches) through the same gather walks the tree and answers as without it.
    #[test]
    fn a_gather_for_the_game_s_patches_leaves_the_facets_to_the_sweeps_that_meet_them() {
        let test = "a_gather_for_the_game_s_patches_leaves_the_facets_to_the_sweeps_that_meet_them";
        let Some(map) = real_quake3_level(test, "kaos") else {
            return;
        };
        assert!(map.has_game_patches());
        let player = TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0))
            .unwrap_or_else(TraceShape::point);
        let mask = Contents::MASK_PLAYER_SOLID;
        let stop = crate::QUAKE3_STOP_DISTANCE;
        let plain = ShapeQuery::new(&player).with_stop_distance(stop);
        let game = plain.with_game_patches();
        let is_facet = |id: u32| map.brushes().get(id as usize).is_some_and(|b| b.patch);
        let mut rng = XorShift::new(41);
        let mut cache = TickCache::new();
        let (mut facets_before, mut served, mut sweeps) = (0usize, 0u64, 0usize);
        let mut all_solid = 0usize;
        for patch in map.game_collides().iter().step_by(7) {
            let centre = (patch.collide.mins + patch.collide.maxs) * 0.5;
            let region = (centre - Vec3::splat(40.0), centre + Vec3::splat(40.0));
            cache.clear();
            map.gather_near_stopping(&[&player], region, mask, stop, &mut cache);
            facets_before += cache.brushes.iter().filter(|&&id| is_facet(id)).count();
            map.gather_game_patches(&mut cache);
            assert!(!cache.brushes.iter().any(|&id| is_facet(id)), "{centre}");
            for _ in 0..16 {
                let spread = |rng: &mut XorShift| {
                    Vec3::new(
                        draw(rng, -36.0, 36.0),
                        draw(rng, -36.0, 36.0),
                        draw(rng, -36.0, 36.0),
                    )
                };
                let (start, end) = (centre + spread(&mut rng), centre + spread(&mut rng));
                let (cached_before, _) = cache.counts();
                let through = Tracer::trace(&map, &game.with_scratch(Some(&cache)), start, end);
                let walked_trace = Tracer::trace(&map, &game, start, end);
                assert_eq!(through, walked_trace, "{start} {end}");
                all_solid += usize::from(through.all_solid);
                served += cache.counts().0 - cached_before;
                let walked = cache.counts().1;
                let facets = Tracer::trace(&map, &plain.with_scratch(Some(&cache)), start, end);
                assert_eq!(facets, Tracer::trace(&map, &plain, start, end), "{start} {end}");
                assert_eq!(cache.counts().1, walked + 1, "the facets' sweep walked the tree");
                sweeps += 1;
            }
        }
        assert!(facets_before > 0, "the gathers met facets");
        assert!(all_solid > 0, "some sweeps were all-solid");
        println!("{sweeps} sweeps, {served} served by the list, {all_solid} all-solid");
        assert!(served > sweeps as u64 / 2, "{served} of {sweeps} game-patch sweeps served");
    }

    /// The trigger query through a gather gives the plain query's lists, near triggers and
    /// away from them, for the gathered shapes and for others; both ways are exercised.
    #[test]
    fn triggers_through_a_gather_are_the_plain_query_s() {
        let map = crate::test_maps::bundled("many_triggers.map");
        assert!(!map.trigger_models().is_empty());
        let Some(world) = map.models().first() else {
            panic!("a world model");
        };
        let (lo, hi) = (world.mins, world.maxs);
        let standing = TraceShape::quake3_player();
        let shapes = [
            standing.clone(),
            TraceShape::aabb(Vec3::new(-15.0, -15.0, -12.0), Vec3::new(15.0, 15.0, 12.0))
                .unwrap_or_else(TraceShape::point),
            TraceShape::sphere(40.0).unwrap_or_else(TraceShape::point),
        ];
        let mut cache = TickCache::new();
        let mut rng = XorShift::new(28);
        let (mut early, mut asked, mut touched_any) = (0, 0, 0);
        for _ in 0..4000 {
            let at = Vec3::new(
                draw(&mut rng, lo.x, hi.x),
                draw(&mut rng, lo.y, hi.y),
                draw(&mut rng, lo.z, hi.z),
            );
            let half = Vec3::splat(draw(&mut rng, 2.0, 48.0));
            let mask = Contents::MASK_PLAYER_SOLID;
            map.gather_near(&[&standing], (at - half, at + half), mask, &mut cache);
            let shape = &shapes[(draw(&mut rng, 0.0, 3.0) as usize).min(2)];
            let spread = |rng: &mut XorShift| draw(rng, -48.0, 48.0);
            let start = at + Vec3::new(spread(&mut rng), spread(&mut rng), spread(&mut rng));
            let end = at + Vec3::new(spread(&mut rng), spread(&mut rng), spread(&mut rng));
            let (mut touched, mut inside) = (TriggerList::default(), TriggerList::default());
            let plain = ShapeQuery::new(shape);
            Tracer::touch_triggers(&map, &plain, start, end, &mut touched, &mut inside);
            let (mut touched_c, mut inside_c) = (TriggerList::default(), TriggerList::default());
            let cached = plain.with_scratch(Some(&cache));
            Tracer::touch_triggers(&map, &cached, start, end, &mut touched_c, &mut inside_c);
            assert_eq!(
                touched.as_slice(),
                touched_c.as_slice(),
                "{at} {start} {end}"
            );
            assert_eq!(inside.as_slice(), inside_c.as_slice(), "{at} {start} {end}");
            if cache.no_triggers_along(&map, shape, start, end) {
                early += 1;
            } else {
                asked += 1;
            }
            touched_any += usize::from(!touched.is_empty());
        }
        assert!(
            early > 100 && asked > 100 && touched_any > 50,
            "{early} {asked} {touched_any}"
        );
    }
}
