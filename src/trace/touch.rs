//! Area queries: which models a box overlaps, and which trigger volumes a shape touches.
//!
//! Takes a validated [`CompiledMap`] and a box or a placed [`TraceShape`]; gives model
//! indices in increasing order. [`CompiledMap::touching_triggers`] is Quake 3's
//! `G_TouchTriggers` (`code/game/g_active.c`) made exact the way `SV_EntityContact`
//! (`code/server/sv_game.c`) is: a zero-length sweep of the shape against each trigger
//! model's brushes, start-solid meaning touch, so a sloped trigger is its brushes, not its
//! bounding box. Guarantees: no heap allocation (the queries are iterators over the model
//! table, the exact test is a sweep, and sweeps never allocate); touching counts, as a point
//! on a plane is inside in Quake 3's `CM_TestBoxInBrush`; triggers never block a sweep, since
//! their brushes hold only [`Contents::TRIGGER`], which no blocking mask contains.

use glam::Vec3;

use super::{ModelPlacement, TraceShape};
use crate::compiled::CompiledMap;
use crate::contents::Contents;

/// Whether the closed boxes `a` and `b` overlap (touching counts).
fn boxes_overlap(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

impl CompiledMap {
    /// The models with brushes whose bounds overlap the box `mins..maxs` (touching counts),
    /// the world included, in increasing order: the broad phase of an area query.
    ///
    /// ```
    /// let world = planeshift::compile_map(&std::fs::read("maps/arena.map")?)?.map;
    /// let (mins, maxs) = (glam::Vec3::splat(-1e5), glam::Vec3::splat(1e5));
    /// assert_eq!(world.models_overlapping(mins, maxs).count(), world.models().len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn models_overlapping(&self, mins: Vec3, maxs: Vec3) -> impl Iterator<Item = usize> + '_ {
        self.models()
            .iter()
            .enumerate()
            .filter(move |(_, m)| {
                m.brush_count > 0 && boxes_overlap((m.mins, m.maxs), (mins, maxs))
            })
            .map(|(i, _)| i)
    }

    internal! {
        /// The brushes of model `model` (indices into the brush table) whose bounds overlap
        /// the box `mins..maxs` (touching counts); none for an unknown model.
        pub fn brushes_overlapping(
            &self,
            model: usize,
            mins: Vec3,
            maxs: Vec3,
        ) -> impl Iterator<Item = usize> + '_ {
            let range = self.models().get(model).map(|m| m.brush_range()).unwrap_or_default();
            range.filter(move |&b| {
                self.brushes()
                    .get(b)
                    .is_some_and(|brush| boxes_overlap((brush.mins, brush.maxs), (mins, maxs)))
            })
        }
    }

    /// The trigger models (models whose brushes are [`Contents::TRIGGER`]: `trigger_*`
    /// entities) that `shape` placed at `at` overlaps, in increasing order, exactly: the
    /// shape touches a trigger when it overlaps one of its brushes (touching counts), as
    /// Quake 3's `G_TouchTriggers` tests with a zero-length sweep. Models are taken as
    /// compiled, in map space. Allocation-free; the cost is a bounds test per trigger model
    /// (listed once, at load), then one zero-length sweep per trigger model whose bounds
    /// the shape reaches. Pair an index
    /// with its entity through [`CompiledMap::model_entity`].
    ///
    /// Triggers never block: sweeps and the controller pass through them.
    ///
    /// ```
    /// use glam::Vec3;
    /// use planeshift::TraceShape;
    /// let world = planeshift::compile_map(&std::fs::read("maps/arena.map")?)?.map;
    /// let player = TraceShape::quake1_player();
    /// let touched: Vec<usize> = world.touching_triggers(&player, Vec3::new(960.0, 1472.0, 64.0)).collect();
    /// assert_eq!(touched.len(), 1);
    /// let trigger = world.model_entity(touched[0]).unwrap();
    /// assert_eq!(trigger.classname(), "trigger_multiple");
    /// assert_eq!(world.touching_triggers(&player, Vec3::new(1024.0, 768.0, 32.0)).count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn touching_triggers<'a>(
        &'a self,
        shape: &'a TraceShape,
        at: Vec3,
    ) -> impl Iterator<Item = usize> + 'a {
        let (low, high) = shape.bounds();
        self.trigger_models_reaching((at + low, at + high))
            .filter(move |&model| {
                self.trace_model(
                    model,
                    &ModelPlacement::default(),
                    shape,
                    at,
                    at,
                    Contents::TRIGGER,
                )
                .start_solid
            })
    }

    /// The trigger models `shape` touches on its way from `start` to `end` (a sweep through
    /// each trigger model whose bounds the way reaches: starting in it or hitting it
    /// counts), in increasing order, each with whether the shape is in it at `end` (as
    /// [`Self::touching_triggers`] says there). A trigger thinner than a tick's travel is
    /// found, which a test at the end alone misses (Source passes the previous origin to
    /// `SolidMoved` for the same reason). Allocation-free.
    ///
    /// ```
    /// use glam::Vec3;
    /// use planeshift::TraceShape;
    /// let world = planeshift::compile_map(&std::fs::read("maps/arena.map")?)?.map;
    /// let player = TraceShape::quake1_player();
    /// // Through the trigger_multiple (x 896..1024) in one sweep, ending beyond it.
    /// let (from, to) = (Vec3::new(800.0, 1472.0, 64.0), Vec3::new(1200.0, 1472.0, 64.0));
    /// let crossed: Vec<(usize, bool)> = world.touching_triggers_along(&player, from, to).collect();
    /// assert_eq!(crossed.len(), 1);
    /// assert!(!crossed[0].1, "not in it at the end");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn touching_triggers_along<'a>(
        &'a self,
        shape: &'a TraceShape,
        start: Vec3,
        end: Vec3,
    ) -> impl Iterator<Item = (usize, bool)> + 'a {
        let (low, high) = shape.bounds();
        let placement = ModelPlacement::default();
        self.trigger_models_reaching((start.min(end) + low, start.max(end) + high))
            .filter_map(move |model| {
                let at_end = self
                    .trace_model(model, &placement, shape, end, end, Contents::TRIGGER)
                    .start_solid;
                let touched = at_end || {
                    let way =
                        self.trace_model(model, &placement, shape, start, end, Contents::TRIGGER);
                    way.start_solid || way.hit()
                };
                touched.then_some((model, at_end))
            })
    }

    /// The trigger models whose bounds overlap the box `reach` (touching counts), in
    /// increasing order: the broad phase of the trigger queries.
    fn trigger_models_reaching(&self, reach: (Vec3, Vec3)) -> impl Iterator<Item = usize> + '_ {
        self.trigger_models()
            .iter()
            .map(|&model| model as usize)
            .filter(move |&model| {
                self.models()
                    .get(model)
                    .is_some_and(|m| boxes_overlap((m.mins, m.maxs), reach))
            })
    }
}
