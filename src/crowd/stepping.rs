//! [`Crowd`]: many characters stepped together through one world, blocking each other
//! (Quake 3 runs every client's `Pmove` against the others' current boxes, `SV_Trace` with
//! `CONTENTS_BODY`), and movers pushing a crowd (Quake 3 `g_mover.c G_MoverPush`).
//!
//! Takes a [`Tracer`] for the world (a map, a map with movers) and one [`MoveInput`] per
//! character per tick; gives each character's [`CrowdOutcome`]. One tick:
//! 1. characters that overlap another (spawned or teleported into each other) are reported,
//!    and handled by the [`Arrival`] policy: each is moved to the nearest free spot
//!    reachable through the world by sweeps (a flood over open floor, never through a wall,
//!    resumed by the next arrival onto the same point, so a pile of n costs O(n)), or,
//!    when every spot of that floor is taken, over the pile's heads, a layer at a time
//!    (reached without crossing a ceiling), the lower id staying; a pair no
//!    free spot separates passes through each other until it parts, and is reported every
//!    tick. Or, [`Arrival::Telefrag`], the characters an arrival overlaps are killed
//!    ([`Crowd::telefrags`]). Only characters the game changed since the last tick, or
//!    that ended it overlapping, are checked: the others cannot overlap anyone;
//! 2. in increasing id order, each character steps against the world and the others where
//!    they stand now ([`WorldWithBodies`] over a grid broadphase, so the cost grows with the
//!    characters near each one, not the crowd);
//! 3. with pushing configured, a character walking into another gives it a share of its
//!    speed into it (Jolt's `mCanPushCharacter`; Quake blocks).
//!
//! [`Crowd::step_parallel`] (feature `parallel`) runs the same tick on rayon's threads
//! (`schedule.rs`), giving the same bits.
//!
//! Guarantees: characters that do not overlap when a tick begins do not overlap when it
//! ends (every move of every character is a sweep that also meets the others, and the
//! unstuck table only accepts spots free of them too); the same inputs give the same bits
//! whatever order the characters were added in; noclip and fly characters (spectators) pass
//! through the others and are not met; a tick allocates nothing once the crowd is built.

use glam::Vec3;

use super::arrival::{Arrival, Cell, Flood, Floods, Telefrag};
use super::bodies::{Bodies, CharacterIds, Near, WorldWithBodies, horizontal_reach};
use super::members::{
    CrowdConfig, CrowdOutcome, CrowdSchedule, Member, MoverPush, body_contents, is_solid, shoves,
};
use crate::controller::character::CharacterController;
use crate::controller::ride::Ride;
use crate::controller::tick::{MoveInput, MoveMode};
use crate::controller::tracer::{Sweeps, Tick, Tracer};
use crate::tolerance::SURFACE_CLIP_EPSILON;
use crate::trace::{HitTarget, ModelPlacement, TraceShape, Upright};

/// Fewest characters `Crowd::step_parallel` plans waves for: below it, the plan and the
/// threads' wake-ups cost about what the moves save (64 bots of the fps_movement soak step
/// in about 0.2 ms a tick on one thread, a few times rayon's cost of waking a pool; an
/// estimate, not a measured break-even).
pub const PARALLEL_MIN_CHARACTERS: usize = 64;

/// How many grid spots separation's flood visits beyond those it handed out before it gives
/// up: room to look round corners, along corridors and past a crowd standing round a spawn
/// point for each arrival, however many arrived on one point (each arrival onto a point
/// resumes that point's flood, `arrival.rs`). 1,024 left respawns unseparated on
/// LibreQuake's lqdm13 with 10,000 scattered bots after 300 ticks (338,075 overlapping
/// pair-ticks in 600), the spots near its spawn points taken by earlier respawns; 16,384
/// separated every one. A flood that finds nothing stops sooner when the space it can reach
/// is smaller.
const MAX_SEPARATION_SPOTS: usize = 16384;

/// How many layers over a pile's heads separation floods, about a character height apart,
/// when the floor its flood reaches is full (10,000 bots scattered on e2m2 left a respawn
/// on a packed spawn point overlapping for two ticks): a tall room's worth, each layer's
/// flood bounded as the floor's ([`MAX_SEPARATION_SPOTS`]).
const MAX_STACKED_LAYERS: usize = 8;

/// The flood's steps between neighbouring spots, on the grid of the separation spacing:
/// across the floor, and down (a spawn over a shaft). Never up: a spot above a crowd would
/// stack a character on a head, and take the room the one below needs to step out of its
/// floor (a pile is stacked only once this floor is full: [`MAX_STACKED_LAYERS`]).
const FLOOD_STEPS: [(i32, i32, i32); 5] =
    [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, -1)];

/// What separates two characters beyond touching, in units: twice the stop distance, so
/// the first sweep after it starts clear of the stop distance.
const SEPARATION_MARGIN: f32 = 2.0 * SURFACE_CLIP_EPSILON;

/// Many characters, by id, stepped together through one world.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::{CharacterController, ControllerConfig, MoveInput};
/// use planeshift::{Crowd, CrowdConfig};
/// use planeshift::HitTarget;
/// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
/// let config = ControllerConfig::default();
/// let mut crowd = Crowd::new(CrowdConfig::default());
/// // Two players 100 apart run at each other.
/// crowd.insert(1, CharacterController::new(config, Vec3::new(-50.0, 0.0, 24.0 + 1.0 / 32.0))?);
/// crowd.insert(2, CharacterController::new(config, Vec3::new(50.0, 0.0, 24.0 + 1.0 / 32.0))?);
/// let mut met = false;
/// for _ in 0..125 {
///     crowd.step(&map, |id| MoveInput {
///         wish: if id == 1 { Vec3::X } else { -Vec3::X },
///         ..MoveInput::default()
///     });
///     assert_eq!(crowd.overlapping_pairs(), 0);
///     // The tick they meet, each lists the other among what it touched.
///     let touches = crowd.outcome(1).unwrap().tick.touches;
///     met |= touches.as_slice().iter().any(|t| t.target == HitTarget::Character(2));
/// }
/// assert!(met);
/// let gap = crowd.get(2).unwrap().position().x - crowd.get(1).unwrap().position().x;
/// assert!((gap - (30.0 + 1.0 / 32.0)).abs() < 1.0 / 64.0, "{gap}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Crowd {
    /// Sorted by id.
    members: Vec<Member>,
    bodies: Bodies,
    config: CrowdConfig,
    /// Separation's floods, one per start this tick (buffers kept between ticks).
    floods: Floods,
    /// The telefrags of the last tick ([`Arrival::Telefrag`]), in order.
    telefrags: Vec<Telefrag>,
    /// One arrival's victims (a buffer kept between ticks).
    victims: Vec<u32>,
    /// The bodies near the character stepping (a buffer kept between ticks).
    near: Near,
    /// The parallel step's plan and buffers.
    #[cfg(feature = "parallel")]
    schedule: super::schedule::Schedule,
    /// How the last step was scheduled.
    stats: CrowdSchedule,
}

impl Crowd {
    /// An empty crowd.
    #[must_use]
    pub fn new(config: CrowdConfig) -> Crowd {
        Crowd {
            members: Vec::new(),
            bodies: Bodies::new(),
            config,
            floods: Floods::default(),
            telefrags: Vec::new(),
            victims: Vec::new(),
            near: Near::default(),
            #[cfg(feature = "parallel")]
            schedule: super::schedule::Schedule::default(),
            stats: CrowdSchedule::default(),
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &CrowdConfig {
        &self.config
    }

    /// How many characters.
    #[must_use]
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the crowd is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    fn index(&self, id: u32) -> Option<usize> {
        self.members.binary_search_by_key(&id, |m| m.id).ok()
    }

    /// Adds character `id`, or replaces it (returning the one it had): a respawn. It may
    /// overlap others; the next tick reports and separates them.
    pub fn insert(
        &mut self,
        id: u32,
        controller: CharacterController,
    ) -> Option<CharacterController> {
        self.bodies
            .insert(id, controller.shape(), controller.shape_center());
        let member = Member {
            id,
            controller,
            outcome: CrowdOutcome::default(),
            ghosts: Vec::new(),
            watch: true,
        };
        let old = match self.members.binary_search_by_key(&id, |m| m.id) {
            Ok(i) => Some(std::mem::replace(&mut self.members[i], member).controller),
            Err(i) => {
                self.members.insert(i, member);
                None
            }
        };
        self.sync(id);
        old
    }

    /// Removes character `id`.
    pub fn remove(&mut self, id: u32) -> Option<CharacterController> {
        let i = self.index(id)?;
        self.bodies.remove(id);
        Some(self.members.remove(i).controller)
    }

    /// Character `id`.
    #[must_use]
    pub fn get(&self, id: u32) -> Option<&CharacterController> {
        self.index(id).map(|i| &self.members[i].controller)
    }

    /// Changes character `id` (a teleport, an impulse, a mode): `f` runs on it and the
    /// crowd then sees it where `f` left it. `None` when there is no such character.
    pub fn update<R>(
        &mut self,
        id: u32,
        f: impl FnOnce(&mut CharacterController) -> R,
    ) -> Option<R> {
        let i = self.index(id)?;
        let result = f(&mut self.members[i].controller);
        self.members[i].watch = true;
        self.sync(id);
        Some(result)
    }

    /// What the last tick did to character `id`.
    #[must_use]
    pub fn outcome(&self, id: u32) -> Option<&CrowdOutcome> {
        self.index(id).map(|i| &self.members[i].outcome)
    }

    /// The ids, increasing.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.members.iter().map(|m| m.id)
    }

    /// Every character with its id and its last outcome, in increasing id order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &CharacterController, &CrowdOutcome)> + '_ {
        self.members
            .iter()
            .map(|m| (m.id, &m.controller, &m.outcome))
    }

    /// The characters' shapes behind their broadphase.
    #[must_use]
    pub fn bodies(&self) -> &Bodies {
        &self.bodies
    }

    /// The solid characters `shape` placed at `at` would overlap, but `skip`, increasing:
    /// whom a teleport there telefrags (Quake 3 `G_KillBox`), or whether a spawn point is
    /// taken (`SpotWouldTelefrag`). At most [`MAX_CONTACTS`](super::MAX_CONTACTS), the
    /// lowest ids, with `CharacterIds::dropped` set when there were more: an area query
    /// that needs them all (an explosion in a crowd) uses [`Self::overlapping_at_into`].
    #[must_use]
    pub fn overlapping_at(&self, shape: &TraceShape, at: Vec3, skip: Option<u32>) -> CharacterIds {
        self.bodies.overlapping(shape, at, skip)
    }

    /// Every solid character `shape` placed at `at` overlaps (touching counts), but `skip`,
    /// written into `out` (cleared first) in increasing id order, however many: the caller's
    /// buffer, so a query allocates nothing once it has held its most.
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{CharacterController, ControllerConfig};
    /// use planeshift::{Crowd, CrowdConfig};
    /// use planeshift::TraceShape;
    /// let mut crowd = Crowd::new(CrowdConfig::default());
    /// for id in 0..20u32 {
    ///     let at = Vec3::new((id % 5) as f32 * 40.0, (id / 5) as f32 * 40.0, 24.0);
    ///     crowd.insert(id, CharacterController::new(ControllerConfig::default(), at)?);
    /// }
    /// // A blast 200 across over all of them.
    /// let blast = TraceShape::sphere(100.0).unwrap();
    /// let mut hit = Vec::new();
    /// crowd.overlapping_at_into(&blast, Vec3::new(80.0, 60.0, 24.0), None, &mut hit);
    /// assert_eq!(hit, (0..20).collect::<Vec<u32>>());
    /// // The capped form keeps the lowest 8 and says it dropped the rest.
    /// let capped = crowd.overlapping_at(&blast, Vec3::new(80.0, 60.0, 24.0), None);
    /// assert_eq!(capped.as_slice(), &[0, 1, 2, 3, 4, 5, 6, 7]);
    /// assert!(capped.dropped());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn overlapping_at_into(
        &self,
        shape: &TraceShape,
        at: Vec3,
        skip: Option<u32>,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        self.bodies
            .for_each_overlapping(shape, at, skip, |id| out.push(id));
        out.sort_unstable();
        out.dedup();
    }

    /// How many pairs of solid characters overlap now (touching counts).
    #[must_use]
    pub fn overlapping_pairs(&self) -> usize {
        self.bodies.overlapping_pairs()
    }

    /// Brings character `id`'s body in line with its controller.
    fn sync(&mut self, id: u32) {
        if let Some(i) = self.index(id) {
            let c = &self.members[i].controller;
            let (mask, groups) = (c.config().mask, c.config().groups);
            self.bodies
                .update_as(id, c.shape(), c.shape_center(), body_contents(c.mode()));
            self.bodies.set_mask(id, mask);
            self.bodies.set_groups(id, groups);
        }
    }

    /// Advances every character one fixed tick, in increasing id order; `input` gives each
    /// one's input by id. The outcomes are read with [`Self::outcome`] or [`Self::iter`].
    pub fn step<T: Tracer + ?Sized>(&mut self, world: &T, mut input: impl FnMut(u32) -> MoveInput) {
        self.stats = CrowdSchedule::default();
        self.begin(world);
        self.step_in_order(world, |_, id| input(id));
        self.finish();
    }

    /// [`Self::step`] on the threads of the current rayon pool (feature `parallel`): the
    /// same bits as [`Self::step`], whatever the number of threads. `input` is called once
    /// per character, in increasing id order, before any moves.
    ///
    /// Characters whose ticks cannot reach each other step at once; a character near
    /// others waits for its lower-id neighbours and is waited for by its higher-id ones
    /// (`schedule.rs`; [`Self::schedule`] tells how the last tick was planned). A tick that
    /// leaves the reach it was planned with is redone in id order. Below
    /// [`PARALLEL_MIN_CHARACTERS`] characters, or in a pool of one thread, it is
    /// [`Self::step`].
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{CharacterController, ControllerConfig, MoveInput};
    /// use planeshift::{Crowd, CrowdConfig};
    /// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// let config = ControllerConfig::default();
    /// let mut one = Crowd::new(CrowdConfig::default());
    /// for id in 0..100u32 {
    ///     let at = Vec3::new((id % 10) as f32 * 40.0 - 180.0, (id / 10) as f32 * 40.0 - 180.0, 24.0 + 1.0 / 32.0);
    ///     one.insert(id, CharacterController::new(config, at)?);
    /// }
    /// let mut two = one.clone();
    /// let input = |id: u32| MoveInput { wish: Vec3::new(1.0, (id % 3) as f32 - 1.0, 0.0), ..MoveInput::default() };
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
    /// for _ in 0..50 {
    ///     one.step(&map, input);
    ///     pool.install(|| two.step_parallel(&map, input));
    /// }
    /// for ((_, a, _), (_, b, _)) in one.iter().zip(two.iter()) {
    ///     assert_eq!(a.state(), b.state());
    /// }
    /// assert!(two.schedule().waves >= 1 && two.schedule().threads == 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "parallel")]
    pub fn step_parallel<T: Tracer + Sync + ?Sized>(
        &mut self,
        world: &T,
        mut input: impl FnMut(u32) -> MoveInput,
    ) {
        if rayon::current_num_threads() < 2 || self.members.len() < PARALLEL_MIN_CHARACTERS {
            self.step(world, input);
            return;
        }
        self.begin(world);
        self.schedule.inputs.clear();
        self.schedule
            .inputs
            .extend(self.members.iter().map(|m| input(m.id)));
        let push = self.config.push.map(|share| share.clamp(0.0, 1.0));
        let done = self.schedule.run(
            &mut self.members,
            &mut self.bodies,
            world,
            self.config.collide,
            push,
        );
        self.stats = self.schedule.stats;
        if !done {
            let mut inputs = std::mem::take(&mut self.schedule.inputs);
            self.step_in_order(world, |i, _| inputs[i]);
            inputs.clear();
            self.schedule.inputs = inputs;
        }
        self.finish();
    }

    /// The kills of the last tick's arrivals under [`Arrival::Telefrag`] (each arrival's
    /// victims in increasing id order, the arrivals in increasing id order); empty under
    /// [`Arrival::Separate`]. The victims are corpses ([`MoveMode::Dead`]) for the game to
    /// respawn.
    #[must_use]
    pub fn telefrags(&self) -> &[Telefrag] {
        &self.telefrags
    }

    /// How the last step was planned ([`Self::step_parallel`]; all zero after [`Self::step`]).
    #[must_use]
    pub fn schedule(&self) -> &CrowdSchedule {
        &self.stats
    }

    /// A tick's start: the outcomes cleared, and overlapping characters reported and
    /// separated.
    fn begin<T: Tracer + ?Sized>(&mut self, world: &T) {
        self.bodies.keep_compact();
        for m in &mut self.members {
            // The tick's own outcome is written by every move (a large list of touches:
            // not cleared twice).
            m.outcome.overlapped = CharacterIds::default();
            m.outcome.separated = None;
            m.outcome.overlapping = CharacterIds::default();
            m.ghosts.clear();
        }
        self.telefrags.clear();
        self.floods.clear();
        if self.config.collide {
            self.separate(world);
        }
    }

    /// Every character's move, in increasing id order; `input` gives each one's input by
    /// index and id.
    fn step_in_order<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        mut input: impl FnMut(usize, u32) -> MoveInput,
    ) {
        let push = self.config.push.map(|share| share.clamp(0.0, 1.0));
        for i in 0..self.members.len() {
            let Crowd {
                members,
                bodies,
                near,
                ..
            } = self;
            let member = &mut members[i];
            let id = member.id;
            let wanted = member.controller.velocity();
            let input = input(i, id);
            let solid = is_solid(member.controller.mode());
            let outcome = &mut member.outcome.tick;
            if self.config.collide && solid {
                let me = bodies.movement_filter_at(i, id);
                near.gather(bodies, tick_reach(&member.controller), &me, &member.ghosts);
                let view = WorldWithBodies {
                    world,
                    bodies,
                    mover: Some(id),
                    ghosts: &member.ghosts,
                };
                let world = view.near(&me, near);
                member.controller.step_into(&world, &input, outcome);
            } else {
                member.controller.step_into(world, &input, outcome);
            }
            let c = &member.controller;
            bodies.update_as(id, c.shape(), c.shape_center(), body_contents(c.mode()));
            if let Some(share) = push.filter(|_| self.config.collide && solid) {
                self.push_touched(i, wanted, share);
            }
        }
    }

    /// A tick's end: which characters still overlap (only those with ghosts can).
    fn finish(&mut self) {
        if self.config.collide {
            // Only characters with ghosts can end overlapping anyone.
            for m in &mut self.members {
                let c = &m.controller;
                m.watch = !m.ghosts.is_empty() && is_solid(c.mode()) && {
                    m.outcome.overlapping =
                        self.bodies
                            .overlapping(c.shape(), c.shape_center(), Some(m.id));
                    !m.outcome.overlapping.is_empty()
                };
            }
        }
    }

    /// Reports who overlaps whom, moves each character that overlaps one of a lower id to
    /// the nearest free spot in reach, and keeps the pairs left as ghosts for this tick.
    fn separate<T: Tracer + ?Sized>(&mut self, world: &T) {
        // A character placed in the world's solid (a spawn point touching its floor) is
        // first lifted out of it, as its own tick would, but ignoring the others: so one
        // standing where it must go (on the head of whoever stood on that spawn before) is
        // an overlap to separate, not a block that keeps it in the floor.
        for i in 0..self.members.len() {
            let c = &self.members[i].controller;
            if !self.members[i].watch || !is_solid(c.mode()) || !c.overlaps(world) {
                continue;
            }
            if let Some(free) = c.unstuck_toward(&Tick::plain(world), Vec3::ZERO) {
                let by = free - c.shape_center();
                self.members[i].controller.nudge(by);
                let id = self.members[i].id;
                self.sync(id);
            }
        }
        for i in 0..self.members.len() {
            let c = &self.members[i].controller;
            if !self.members[i].watch || !is_solid(c.mode()) {
                continue;
            }
            let id = self.members[i].id;
            let overlapped = self
                .bodies
                .overlapping(c.shape(), c.shape_center(), Some(id));
            self.members[i].outcome.overlapped =
                self.members[i].outcome.overlapped.union(&overlapped);
            // Both of a pair report it, watched or not.
            for &other in overlapped.as_slice() {
                if let Some(j) = self.index(other) {
                    self.members[j].outcome.overlapped.insert(id);
                }
            }
        }
        if self.config.arrival == Arrival::Telefrag {
            self.telefrag();
            return;
        }
        for i in 0..self.members.len() {
            let id = self.members[i].id;
            let c = &self.members[i].controller;
            if self.members[i].outcome.overlapped.is_empty() || !is_solid(c.mode()) {
                continue;
            }
            let now = self
                .bodies
                .overlapping(c.shape(), c.shape_center(), Some(id));
            if now.as_slice().iter().any(|&other| other < id)
                && let Some(moved) = self.free_spot(world, i, now)
            {
                let center = self.members[i].controller.shape_center();
                self.members[i].controller.nudge(moved - center);
                self.members[i].outcome.separated = Some(moved - center);
                self.sync(id);
            }
        }
        for member in &mut self.members {
            let c = &member.controller;
            if member.outcome.overlapped.is_empty() || !is_solid(c.mode()) {
                continue;
            }
            let ghosts = &mut member.ghosts;
            self.bodies.for_each_overlapping(
                c.shape(),
                c.shape_center(),
                Some(member.id),
                |other| {
                    ghosts.push(other);
                },
            );
        }
    }

    /// [`Arrival::Telefrag`]: each character the game changed since the last tick, in id
    /// order and while still solid, kills every solid character it overlaps (all of them,
    /// however many; Quake 3 `G_KillBox`), each listed in [`Self::telefrags`].
    fn telefrag(&mut self) {
        let mut victims = std::mem::take(&mut self.victims);
        for i in 0..self.members.len() {
            let (m, id) = (&self.members[i], self.members[i].id);
            let c = &m.controller;
            if !m.watch || !is_solid(c.mode()) {
                continue;
            }
            victims.clear();
            self.bodies
                .for_each_overlapping(c.shape(), c.shape_center(), Some(id), |other| {
                    victims.push(other);
                });
            victims.sort_unstable();
            victims.dedup();
            for &victim in &victims {
                let Some(j) = self.index(victim) else {
                    continue;
                };
                self.members[j].controller.set_mode(MoveMode::Dead);
                self.sync(victim);
                self.telefrags.push(Telefrag { by: id, victim });
            }
        }
        victims.clear();
        self.victims = victims;
    }

    /// The nearest free centre for member `i`, reached through the world from where it
    /// stands (passing through the other characters, but ending clear of them): first
    /// straight away from each partner it overlaps, then a flood over a grid of spots one
    /// character apart, breadth first, each reached from its neighbour by a sweep (or a
    /// step up, across and down), so the spot found is the nearest by way of open floor
    /// and no wall is ever crossed; when that floor is full, the same over the pile's
    /// heads, a layer at a time.
    fn free_spot<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        i: usize,
        partners: CharacterIds,
    ) -> Option<Vec3> {
        let member = &self.members[i];
        let c = &member.controller;
        let (shape, center) = (c.shape(), c.shape_center());
        let step = c.config().step_height;
        let own = crate::trace::Upright::of(shape);
        let own_center = center + own.center;
        let strict = WorldWithBodies {
            world,
            bodies: &self.bodies,
            mover: Some(member.id),
            ghosts: &[],
        };
        let strict = Tick::plain(&strict);
        let world = Tick::plain(world);
        // Sweeps leave from a spot free of the world (a spawn point touching its floor is
        // not), found as the tick's own recovery would find it.
        let from = if world.overlaps(shape, center) {
            c.unstuck_toward(&world, Vec3::ZERO)?
        } else {
            center
        };
        let free = |p: Vec3| !strict.overlaps(shape, p);
        for &p in partners.as_slice() {
            let Some((parts, at)) = self.bodies.parts(p) else {
                continue;
            };
            let delta = (own_center - (at + parts.center)).truncate();
            let Some(dir) = delta.try_normalize() else {
                continue;
            };
            // Far enough along `dir` that the two bounds no longer meet horizontally.
            let (own_low, own_high) = own.bounds();
            let (other_low, other_high) = parts.bounds();
            let half = ((own_high - own_low) + (other_high - other_low)).truncate() * 0.5
                + glam::Vec2::splat(SEPARATION_MARGIN);
            let along = |axis: usize| {
                let d = dir[axis];
                (d != 0.0).then(|| (half[axis] - delta[axis] * d.signum()) / d.abs())
            };
            let t = [along(0), along(1)]
                .into_iter()
                .flatten()
                .fold(f32::INFINITY, f32::min);
            if !t.is_finite() {
                continue;
            }
            let sweep = world.trace(shape, from, from + dir.extend(0.0) * t.max(0.0));
            if !sweep.all_solid && free(sweep.end) {
                return Some(sweep.end);
            }
        }
        let (reach_xy, reach_z) = self.bodies.reach();
        let (own_low, own_high) = own.bounds();
        let spacing = Vec3::new(
            horizontal_reach(&own) + reach_xy,
            horizontal_reach(&own) + reach_xy,
            0.5 * (own_high.z - own_low.z) + reach_z,
        ) + Vec3::splat(SEPARATION_MARGIN);
        // The flood from this start, resumed where the last arrival onto it stopped: the
        // spots it handed out are taken (a fresh flood would find them taken too), so the
        // k-th of a pile starts at the k-th candidate, not at the first. When every spot of
        // the floor it reaches is taken (a room packed to its walls; or the flood reached
        // its bound, [`MAX_SEPARATION_SPOTS`]), the same over the pile's heads, layer by
        // layer: from the spot the spacing's height above the last layer's start (clear of
        // any body level with it), reached by a sweep straight up (never through a
        // ceiling), a flood across that height that never steps down (the layers below are
        // full).
        let mut start = from;
        for layer in 0..=MAX_STACKED_LAYERS {
            if layer > 0 {
                let above = from + Vec3::Z * (layer as f32 * spacing.z);
                if world.trace(shape, from, above).hit() {
                    return None;
                }
                start = above;
                if free(start) {
                    return Some(start);
                }
            }
            let flood = self.floods.get(start, spacing, step, shape);
            let grid = FloodGrid {
                shape,
                start,
                spacing,
                step,
                down: layer == 0,
            };
            if let Some(spot) = next_free_spot(flood, &world, &grid, free) {
                return Some(spot);
            }
        }
        None
    }

    /// Gives the characters member `i` walked into a share of its speed into them.
    fn push_touched(&mut self, i: usize, wanted: Vec3, share: f32) {
        let touches = self.members[i].outcome.tick.touches;
        shoves(&touches, wanted, share, |other, shove| {
            if let Some(j) = self.index(other)
                && is_solid(self.members[j].controller.mode())
            {
                self.members[j].controller.apply_impulse(shove, 0.0);
            }
        });
    }

    /// Moves the crowd out of a mover's way as the mover goes from `before` to `after`
    /// (rotating about `pivot`): characters standing on it, and characters standing on
    /// those, are carried; characters its new placement overlaps are pushed by its move
    /// (Quake 3 `G_MoverPush`). Call it after placing the mover at `after` in `world` and
    /// before [`Self::step`]. Characters are moved farthest along the mover's motion first
    /// (a stack on a lift moves top down), ties by id; each by [`CharacterController::ride`]
    /// against the world and the other characters.
    ///
    /// If one cannot get out of the way, every character this call moved is put back and
    /// the answer names it ([`MoverPush::Blocked`]); nobody is ever left inside the mover
    /// silently.
    pub fn push_mover<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        model: usize,
        pivot: Vec3,
        before: &ModelPlacement,
        after: &ModelPlacement,
    ) -> MoverPush {
        // Who is involved: riders, riders of riders, and those the mover now overlaps (this
        // mover: one touching only a wall or another mover is not).
        let mut involved: Vec<(usize, bool)> = Vec::new();
        for (i, m) in self.members.iter().enumerate() {
            let c = &m.controller;
            if !is_solid(c.mode()) {
                continue;
            }
            let g = c.ground();
            let rides = g.state != crate::controller::GroundState::Air
                && g.target == Some(HitTarget::Model(model))
                && model != 0;
            if rides {
                involved.push((i, true));
            } else if c.overlaps_model(world, model) {
                involved.push((i, false));
            }
        }
        loop {
            let carried: Vec<u32> = involved
                .iter()
                .filter(|(_, carry)| *carry)
                .map(|&(i, _)| self.members[i].id)
                .collect();
            let more: Vec<usize> = (0..self.members.len())
                .filter(|i| involved.iter().all(|(j, _)| j != i))
                .filter(|&i| {
                    let c = &self.members[i].controller;
                    is_solid(c.mode())
                        && c.ground().state != crate::controller::GroundState::Air
                        && c.ground()
                            .target
                            .and_then(HitTarget::character)
                            .is_some_and(|k| carried.contains(&k))
                })
                .collect();
            if more.is_empty() {
                break;
            }
            involved.extend(more.into_iter().map(|i| (i, true)));
        }
        let motion = after.offset - before.offset;
        let key = |i: usize| self.members[i].controller.shape_center().dot(motion);
        involved.sort_by(|a, b| {
            key(b.0)
                .total_cmp(&key(a.0))
                .then(self.members[a.0].id.cmp(&self.members[b.0].id))
        });
        let mut done: Vec<(usize, crate::controller::CharacterState)> = Vec::new();
        let (mut carried, mut pushed) = (0, 0);
        for (i, carry) in involved {
            let id = self.members[i].id;
            let saved = self.members[i].controller.state().clone();
            let Crowd {
                members, bodies, ..
            } = self;
            let member = &mut members[i];
            let tracer = WorldWithBodies {
                world,
                bodies,
                mover: Some(id),
                ghosts: &member.ghosts,
            };
            let ride = member
                .controller
                .ride_as(&tracer, model, pivot, before, after, carry);
            match ride {
                Ride::Blocked => {
                    for (j, state) in done.into_iter().rev() {
                        self.members[j].controller.set_state(state);
                        let other = self.members[j].id;
                        self.sync(other);
                    }
                    return MoverPush::Blocked { character: id };
                }
                Ride::Carried => carried += 1,
                Ride::Pushed => pushed += 1,
                Ride::NotInvolved => {}
            }
            done.push((i, saved));
            self.sync(id);
        }
        MoverPush::Moved { carried, pushed }
    }
}

/// Where `shape` gets going from `from` to `target` (level with it): straight across, or up
/// a step, across and back down onto the floor; `None` when a wall is in the way.
/// What a separation flood steps over: the grid of `spacing` about `start` for `shape`,
/// reached across with steps up to `step` high, and downwards too when `down` (a pile's
/// layers over the heads never step down: the layers below are full).
struct FloodGrid<'a> {
    shape: &'a TraceShape,
    start: Vec3,
    spacing: Vec3,
    step: f32,
    down: bool,
}

/// The next spot of `flood` that `free` accepts, its candidates offered in the order found
/// and the flood grown breadth first over `grid` while none is: `None` when the flood is
/// exhausted or holds [`MAX_SEPARATION_SPOTS`] more spots than it has served.
fn next_free_spot<S: Sweeps + ?Sized>(
    flood: &mut Flood,
    world: &S,
    grid: &FloodGrid<'_>,
    free: impl Fn(Vec3) -> bool,
) -> Option<Vec3> {
    let limit = MAX_SEPARATION_SPOTS + flood.served;
    loop {
        while let Some(&(_, spot)) = flood.spots.get(flood.cursor) {
            flood.cursor += 1;
            if free(spot) {
                flood.served += 1;
                return Some(spot);
            }
        }
        if flood.head >= flood.spots.len() || flood.spots.len() >= limit {
            return None;
        }
        let (cell, at) = flood.spots[flood.head];
        flood.head += 1;
        for (dx, dy, dz) in FLOOD_STEPS {
            let next = (cell.0 + dx, cell.1 + dy, cell.2 + dz);
            if flood.seen.contains(&next) || (!grid.down && dz != 0) {
                continue;
            }
            if let Some(spot) = flood_step(world, grid, at, (next, dz)) {
                flood.seen.insert(next);
                flood.spots.push((next, spot));
            }
        }
    }
}

/// The spot of grid cell `next`, reached from the spot `at` of its neighbour by a step of
/// `dz` cells in height: across the floor (0, climbing a step) or straight down; `None`
/// when the way is blocked.
fn flood_step<S: Sweeps + ?Sized>(
    world: &S,
    grid: &FloodGrid<'_>,
    at: Vec3,
    (next, dz): (Cell, i32),
) -> Option<Vec3> {
    if dz == 0 {
        let offset = Vec3::new(next.0 as f32, next.1 as f32, 0.0) * grid.spacing;
        return reach(world, grid.shape, at, (grid.start + offset).with_z(at.z), grid.step);
    }
    let target = at + Vec3::Z * (dz as f32 * grid.spacing.z);
    (!world.trace(grid.shape, at, target).hit()).then_some(target)
}

fn reach<S: Sweeps + ?Sized>(
    world: &S,
    shape: &TraceShape,
    from: Vec3,
    target: Vec3,
    step: f32,
) -> Option<Vec3> {
    let across = world.trace(shape, from, target);
    if !across.hit() {
        return Some(target);
    }
    let up = world.trace(shape, from, from + Vec3::Z * step);
    if up.all_solid {
        return None;
    }
    let raised = up.end - from;
    let over = world.trace(shape, up.end, target + raised);
    if over.hit() {
        return None;
    }
    let down = world.trace(shape, over.end, over.end - raised * 2.0);
    (!down.all_solid).then_some(down.end)
}

/// How far beyond its shape and its travel at its current speed a character's sweeps
/// usually reach in one tick, in units: a step up or the snap down, plus a few units of
/// acceleration and probes. Only a bound that saves grid lookups, never one results depend
/// on: a sweep beyond it asks the grid.
const TICK_REACH_SLACK: f32 = 8.0;

/// The box a character's sweeps of the coming tick are expected to stay in. The shape's
/// bounds are its parts' (`trace/body.rs`: a few additions, where the shape's own bounds
/// take six support queries), which are the shape's bounds up to rounding: a difference
/// moves the bound, which no answer depends on.
pub(crate) fn tick_reach(c: &CharacterController) -> (Vec3, Vec3) {
    let (low, high) = Upright::of(c.shape()).bounds();
    let center = c.shape_center();
    let travel = c.velocity().abs() * c.config().tick;
    let grow = travel + Vec3::splat(c.config().step_height + TICK_REACH_SLACK);
    (center + low - grow, center + high + grow)
}
