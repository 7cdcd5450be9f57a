//! Stage 6: a kinematic character with Quake-grade movement on top of any sweep.
//!
//! Takes a [`Tracer`] (the world as sweeps; [`CompiledMap`] is one, [`WorldWithMovers`]
//! another, a test may script its own), a [`ControllerConfig`] and one [`MoveInput`] per
//! fixed tick; gives the character's new position, velocity and [`Ground`], and a
//! [`MoveOutcome`] with the planes touched in order.
//!
//! One tick ([`CharacterController::step`]), after Quake 3's `PmoveSingle`:
//! 1. if the shape overlaps solid, move it to the nearest free spot (`unstuck`);
//! 2. crouch, or stand up if the standing shape fits (headroom check);
//! 3. find the ground (`ground`): walkable, steep or air;
//! 4. jump, only with the key newly pressed and the landing delay over;
//! 5. on walkable ground: friction, acceleration along the ground, then a slide (`slide`)
//!    that steps up risers (`step`); otherwise air control and gravity, integrated as
//!    two half steps around the slide so the height follows `v·t − g·t²/2` exactly;
//! 6. walking off a step or down a slope snaps back onto walkable ground within a step;
//! 7. find the ground again; if the shape ended overlapping solid, recover or undo the tick.
//!
//! Guarantees: a tick never ends with the shape overlapping solid unless it started there
//! and no free spot was in reach (then it stays put and says so); the same inputs give
//! bit-identical results (no clocks, no randomness, no hashing, f32 only); no heap
//! allocation per tick.

mod config;
mod ground;
mod movers;
mod slide;
mod step;
mod unstuck;

use glam::Vec3;

pub use config::{CharacterShape, ConfigError, ControllerConfig};
pub use ground::Ground;
pub use movers::{Mover, WorldWithMovers, carried_point};

use crate::compiled::{CompiledMap, Plane};
use crate::contents::Contents;
use crate::tolerance::{
    CONE_SLACK, MAX_CLIP_PLANES, MAX_TOUCHES, MIN_MOVE_SPEED, SAME_PLANE_DOT, SNAP_MIN_CHANGE,
    WALL_PROBE,
};
use crate::trace::{ModelPlacement, Trace, TraceShape};
use slide::Slide;
use step::{StepRules, step_slide};
use unstuck::UnstuckTable;

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
}

impl Tracer for CompiledMap {
    /// Sweeps through the world model; what blocks a player blocks
    /// ([`Contents::MASK_PLAYER_SOLID`]).
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        CompiledMap::trace(self, shape, start, end, Contents::MASK_PLAYER_SOLID)
    }
}

/// A tracer seen from a shape whose centre sits `offset` above the character's origin.
struct Offset<'a, T: Tracer + ?Sized> {
    world: &'a T,
    offset: Vec3,
}

impl<T: Tracer + ?Sized> Tracer for Offset<'_, T> {
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        let mut trace = self
            .world
            .trace(shape, start + self.offset, end + self.offset);
        trace.end -= self.offset;
        trace
    }
}

/// What the player asks for in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInput {
    /// Wanted horizontal direction and strength, in the world frame: x and y, length at most
    /// 1 (longer is normalized; z and non-finite values are ignored).
    pub wish: Vec3,
    /// The jump key is down. A jump happens when it goes down (no pogo).
    pub jump: bool,
    /// The crouch key is down.
    pub crouch: bool,
}

/// What kind of ground is under the character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroundState {
    /// Ground with normal z at least the walkable limit: the character walks on it.
    Walkable,
    /// Ground too steep to stand on: the character slides down it.
    Steep,
    /// Nothing within the ground probe, or rising off the ground.
    Air,
}

/// A plane the character hit during a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Touch {
    /// The plane's unit normal, facing the character.
    pub normal: Vec3,
    /// The plane (world space).
    pub plane: Plane,
    /// Contents of the brush hit.
    pub contents: Contents,
    /// The model hit (0 is the world).
    pub model: usize,
}

/// The planes hit in one tick, in the order they were hit, each once (same model and plane),
/// at most [`MAX_TOUCHES`] (Quake 3's `touchents`). Fixed capacity: no allocation.
#[derive(Clone, Copy, PartialEq)]
pub struct TouchList {
    items: [Touch; MAX_TOUCHES],
    len: usize,
}

impl Default for TouchList {
    fn default() -> Self {
        let none = Touch {
            normal: Vec3::ZERO,
            plane: Plane {
                normal: Vec3::ZERO,
                dist: 0.0,
            },
            contents: Contents::EMPTY,
            model: 0,
        };
        TouchList {
            items: [none; MAX_TOUCHES],
            len: 0,
        }
    }
}

impl std::fmt::Debug for TouchList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl TouchList {
    /// The touches, first hit first.
    #[must_use]
    pub fn as_slice(&self) -> &[Touch] {
        &self.items[..self.len]
    }

    /// How many touches.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was touched.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, trace: &Trace) {
        let (Some(normal), Some(plane)) = (trace.normal, trace.plane) else {
            return;
        };
        let touch = Touch {
            normal,
            plane,
            contents: trace.contents,
            model: trace.model.unwrap_or(0),
        };
        let seen = self
            .as_slice()
            .iter()
            .any(|t| t.model == touch.model && t.plane == touch.plane);
        if !seen && self.len < MAX_TOUCHES {
            self.items[self.len] = touch;
            self.len += 1;
        }
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

/// The walls the character is against, as unit normals (at most [`MAX_CLIP_PLANES`]). The
/// wish is kept from pushing into them, so the speed along a wall is the wish's share along
/// it: never more than the wish, and the same at every tick rate (Quake's accelerate would
/// otherwise keep adding speed along a wall the player pushes into at an angle, on every
/// other tick). A wall is kept from one tick to the next only while a short probe towards it
/// still hits it, so walking past a wall's end frees the wish at once.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WallContacts {
    normals: [Vec3; MAX_CLIP_PLANES],
    len: usize,
}

impl WallContacts {
    /// The walls' unit normals.
    #[must_use]
    pub fn normals(&self) -> &[Vec3] {
        &self.normals[..self.len]
    }

    fn push(&mut self, normal: Vec3) {
        let known = self
            .normals()
            .iter()
            .any(|n| n.dot(normal) > SAME_PLANE_DOT);
        if !known && self.len < MAX_CLIP_PLANES {
            self.normals[self.len] = normal;
            self.len += 1;
        }
    }

    fn merge(&mut self, other: &WallContacts) {
        for n in other.normals() {
            self.push(*n);
        }
    }

    /// `wish` (horizontal) without the parts that push into the walls.
    fn clip_wish(&self, wish: Vec3) -> Vec3 {
        let mut clipped = wish;
        let flat = |n: &Vec3| n.truncate().normalize_or_zero().extend(0.0);
        for n in self.normals().iter().map(flat) {
            let into = clipped.dot(n);
            if into < 0.0 {
                clipped -= n * into;
            }
        }
        // Two walls at an angle: what is left must enter neither (beyond rounding).
        let slack = CONE_SLACK * wish.length();
        if self
            .normals()
            .iter()
            .map(flat)
            .any(|n| clipped.dot(n) < -slack)
        {
            Vec3::ZERO
        } else {
            clipped
        }
    }
}

/// What one tick did, besides moving the character.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveOutcome {
    /// The planes hit, in order.
    pub touches: TouchList,
    /// Height gained by stepping up a riser this tick (0 if none).
    pub climbed: f32,
    /// Height the character was snapped down onto ground this tick (0 if none).
    pub snapped: f32,
    /// The character jumped this tick.
    pub jumped: bool,
    /// The character landed this tick, and how fast it was falling (units/s, positive).
    pub landed: Option<f32>,
    /// The shape overlapped solid and was moved out; the number of positions tried.
    pub unstuck_probes: Option<usize>,
    /// The shape overlapped solid and no free position was in reach: the character did not
    /// move this tick.
    pub stuck: bool,
}

/// The moving state of a character: everything a replay needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterState {
    /// The origin (the feet are `feet_to_origin` below it).
    pub position: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// The ground found at the end of the last tick.
    pub ground: Ground,
    /// Whether the crouched shape is in use.
    pub crouched: bool,
    /// The jump key was down last tick.
    pub jump_held: bool,
    /// Seconds left before a jump is allowed after a hard landing.
    pub land_timer: f32,
    /// The walls the last move ended against.
    pub walls: WallContacts,
}

/// A character moved one fixed tick at a time through a [`Tracer`].
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::controller::{CharacterController, ControllerConfig, GroundState, MoveInput};
/// // A floor 1024 units square whose top is at z = 16.
/// let src = br#"{ "classname" "worldspawn"
/// { ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1
///   ( 1024 0 0 ) ( 1024 0 1 ) ( 1024 1 0 ) a 0 0 0 1 1
///   ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) a 0 0 0 1 1
///   ( 0 1024 0 ) ( 1 1024 0 ) ( 0 1024 1 ) a 0 0 0 1 1
///   ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) a 0 0 0 1 1
///   ( 0 0 16 ) ( 0 1 16 ) ( 1 0 16 ) a 0 0 0 1 1 } }"#;
/// let world = planeshift::compile::compile_map(src).unwrap().map;
/// let start = Vec3::new(100.0, 512.0, 64.0);
/// let mut player = CharacterController::new(ControllerConfig::default(), start).unwrap();
/// let run = MoveInput { wish: Vec3::X, ..MoveInput::default() };
/// for _ in 0..125 {
///     player.step(&world, &run); // one second at 8 ms
/// }
/// assert_eq!(player.ground().state, GroundState::Walkable);
/// assert!((player.velocity().x - 320.0).abs() < 1.0);
/// // The origin is 24 above the feet, which rest one stop distance (1/32) above the floor.
/// assert!((player.position().z - (16.0 + 24.0 + 1.0 / 32.0)).abs() < 1e-3);
/// ```
#[derive(Clone, Debug)]
pub struct CharacterController {
    config: ControllerConfig,
    state: CharacterState,
    stand_shape: TraceShape,
    crouch_shape: TraceShape,
    /// Where each shape's centre sits above the origin.
    stand_offset: Vec3,
    crouch_offset: Vec3,
    unstuck: UnstuckTable,
}

impl CharacterController {
    /// A character standing (not yet grounded) with its origin at `position`.
    ///
    /// # Errors
    /// The configuration is out of range, or `position` is not finite.
    pub fn new(config: ControllerConfig, position: Vec3) -> Result<Self, ConfigError> {
        config.validate()?;
        if !position.is_finite() {
            return Err(ConfigError::Invalid {
                field: "position",
                rule: "finite",
            });
        }
        let invalid = ConfigError::Invalid {
            field: "shape",
            rule: "a valid sweep shape",
        };
        let (stand_shape, stand_offset) =
            shape_for(&config, config.stand_height).ok_or(invalid.clone())?;
        let (crouch_shape, crouch_offset) =
            shape_for(&config, config.crouch_height).ok_or(invalid)?;
        Ok(CharacterController {
            config,
            state: CharacterState {
                position,
                velocity: Vec3::ZERO,
                ground: Ground::AIR,
                crouched: false,
                jump_held: false,
                land_timer: 0.0,
                walls: WallContacts::default(),
            },
            stand_shape,
            crouch_shape,
            stand_offset,
            crouch_offset,
            unstuck: UnstuckTable::new(config.step_height),
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &ControllerConfig {
        &self.config
    }

    /// The whole moving state (for replays and snapshots).
    #[must_use]
    pub fn state(&self) -> &CharacterState {
        &self.state
    }

    /// Replaces the moving state (teleports, respawns, rewinds). A non-finite position or
    /// velocity is refused and the state kept.
    pub fn set_state(&mut self, state: CharacterState) -> bool {
        if state.position.is_finite() && state.velocity.is_finite() {
            self.state = state;
            true
        } else {
            false
        }
    }

    /// The origin.
    #[must_use]
    pub fn position(&self) -> Vec3 {
        self.state.position
    }

    /// The velocity, units/s.
    #[must_use]
    pub fn velocity(&self) -> Vec3 {
        self.state.velocity
    }

    /// The ground under the character.
    #[must_use]
    pub fn ground(&self) -> Ground {
        self.state.ground
    }

    /// Whether the character is crouched.
    #[must_use]
    pub fn crouched(&self) -> bool {
        self.state.crouched
    }

    /// The shape in use, centred on [`Self::shape_center`].
    #[must_use]
    pub fn shape(&self) -> &TraceShape {
        if self.state.crouched {
            &self.crouch_shape
        } else {
            &self.stand_shape
        }
    }

    /// Where the shape in use is centred: the origin plus the shape's offset.
    #[must_use]
    pub fn shape_center(&self) -> Vec3 {
        self.state.position + self.offset()
    }

    fn offset(&self) -> Vec3 {
        if self.state.crouched {
            self.crouch_offset
        } else {
            self.stand_offset
        }
    }

    /// Whether the shape in use overlaps solid where the character stands.
    #[must_use]
    pub fn overlaps<T: Tracer + ?Sized>(&self, world: &T) -> bool {
        world.overlaps(self.shape(), self.shape_center())
    }

    /// Advances one fixed tick of [`ControllerConfig::tick`] seconds.
    pub fn step<T: Tracer + ?Sized>(&mut self, world: &T, input: &MoveInput) -> MoveOutcome {
        let mut outcome = MoveOutcome::default();
        let mut input = sanitize(input);
        self.state.walls = self.walls_still_touched(world);
        input.wish = self.state.walls.clip_wish(input.wish);
        let dt = self.config.tick;

        // 1. Never start a move inside solid.
        if !self.recover(world, &mut outcome) {
            outcome.stuck = true;
            self.state.velocity = Vec3::ZERO;
            self.state.jump_held = input.jump;
            return outcome;
        }
        // 2. Crouch or stand. Crouching only shrinks the shape and standing checks
        // headroom, so this state is free of solid: the tick falls back to it.
        self.update_crouch(world, input.crouch);
        let safe = self.state;
        // 3. Ground.
        let start_ground = self.find_ground(world, None);
        self.state.ground = start_ground;
        self.state.land_timer = (self.state.land_timer - dt).max(0.0);
        // 4. Jump.
        if input.jump
            && !self.state.jump_held
            && start_ground.is_walkable()
            && self.state.land_timer <= 0.0
        {
            self.state.velocity.z = self.config.jump_speed;
            self.state.ground = Ground::AIR;
            outcome.jumped = true;
        }
        self.state.jump_held = input.jump;
        // 5. Move.
        let fall_speed = -self.state.velocity.z;
        let walking = self.state.ground.is_walkable();
        if walking {
            self.walk_move(world, &input, &mut outcome);
        } else {
            self.air_move(world, &input, &mut outcome);
        }
        // 6. Snap down onto walkable ground after walking off a step or down a slope.
        let below = if walking {
            self.snap_to_ground(world, start_ground.normal, &mut outcome)
        } else {
            None
        };
        // 7. Ground again (from the snap's sweep when there was one), landing, and the
        // end-of-tick check.
        let walked_on = start_ground.normal.filter(|_| walking);
        let ground = self.find_ground_with(world, walked_on, below.as_ref());
        if ground.is_walkable() {
            let normal = ground.normal.unwrap_or(Vec3::Z);
            if walking {
                // Follow the ground's change of slope without losing speed (Quake 3).
                self.state.velocity = redirect_along(self.state.velocity, normal);
            } else {
                // Landing absorbs the speed into the ground.
                let into = self.state.velocity.dot(normal).min(0.0);
                self.state.velocity -= normal * into;
                outcome.landed = Some(fall_speed.max(0.0));
                if fall_speed > self.config.hard_landing_speed {
                    self.state.land_timer = self.config.land_jump_delay;
                }
            }
        }
        self.state.ground = ground;
        let broken = !self.state.position.is_finite() || !self.state.velocity.is_finite();
        if broken || !self.recover(world, &mut outcome) {
            // Nothing free in reach: undo the move rather than end inside solid.
            self.state = safe;
            self.state.velocity = Vec3::ZERO;
        }
        outcome
    }

    /// Carries the character with model `model` as it moves from `before` to `after`
    /// (rotating about `pivot`, the model's origin), if the character stands on it or the
    /// model now overlaps it (a push). Call it after moving the movers and before
    /// [`Self::step`], with `world` holding the movers at `after`.
    ///
    /// Returns whether the character was moved. The move is a sweep, so a carried character
    /// is stopped by walls; if the mover then still overlaps it, it is moved to the nearest
    /// free spot, or left where it was if none is in reach (the mover is blocked, as in
    /// Quake 3).
    pub fn ride<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        model: usize,
        pivot: Vec3,
        before: &ModelPlacement,
        after: &ModelPlacement,
    ) -> bool {
        let standing_on = self.state.ground.state != GroundState::Air
            && self.state.ground.model == Some(model)
            && model != 0;
        if !standing_on && !self.overlaps(world) {
            return false;
        }
        let start = self.state.position;
        let target = carried_point(pivot, before, after, start);
        if !target.is_finite() {
            return false;
        }
        let view = Offset {
            world,
            offset: self.offset(),
        };
        let carried = view.trace(self.shape(), start, target);
        if !carried.all_solid {
            self.state.position = carried.end;
        }
        let mut outcome = MoveOutcome::default();
        if !self.recover(world, &mut outcome) {
            self.state.position = start;
        }
        self.state.position != start
    }

    /// The remembered walls that a probe of [`WALL_PROBE`] towards each still hits.
    fn walls_still_touched<T: Tracer + ?Sized>(&self, world: &T) -> WallContacts {
        let view = Offset {
            world,
            offset: self.offset(),
        };
        let mut kept = WallContacts::default();
        for n in self.state.walls.normals() {
            let from = self.state.position;
            let probe = view.trace(self.shape(), from, from - *n * WALL_PROBE);
            let same = probe.normal.is_some_and(|hit| hit.dot(*n) > SAME_PLANE_DOT);
            if probe.hit() && !probe.all_solid && same {
                kept.push(*n);
            }
        }
        kept
    }

    /// Moves the shape out of solid if it overlaps; false if no free position is in reach.
    fn recover<T: Tracer + ?Sized>(&mut self, world: &T, outcome: &mut MoveOutcome) -> bool {
        if !self.overlaps(world) {
            return true;
        }
        let found = self
            .unstuck
            .find_free(world, self.shape(), self.shape_center());
        match found {
            Some((center, probes)) => {
                self.state.position = center - self.offset();
                outcome.unstuck_probes = Some(outcome.unstuck_probes.unwrap_or(0) + probes);
                true
            }
            None => false,
        }
    }

    /// Crouches, or stands up when the standing shape fits (Quake 3 `PM_CheckDuck`): on the
    /// ground the feet stay; in the air the head stays (Source), falling back to keeping the
    /// feet.
    fn update_crouch<T: Tracer + ?Sized>(&mut self, world: &T, crouch: bool) {
        let difference = self.config.stand_height - self.config.crouch_height;
        let in_air = self.state.ground.state == GroundState::Air;
        if crouch && !self.state.crouched {
            self.state.crouched = true;
            if in_air {
                self.state.position.z += difference;
            }
        } else if !crouch && self.state.crouched {
            let feet_stay = self.state.position;
            let head_stays = feet_stay - Vec3::Z * difference;
            let candidates: &[Vec3] = if in_air {
                &[head_stays, feet_stay]
            } else {
                &[feet_stay]
            };
            let free = candidates
                .iter()
                .find(|p| !world.overlaps(&self.stand_shape, **p + self.stand_offset));
            if let Some(p) = free {
                self.state.position = *p;
                self.state.crouched = false;
            }
        }
    }

    /// The ground under the character now; rising faster than walking on the ground (the
    /// tick's starting ground, if given, or the ground found) could explain means air.
    fn find_ground<T: Tracer + ?Sized>(&self, world: &T, walked_on: Option<Vec3>) -> Ground {
        self.find_ground_with(world, walked_on, None)
    }

    /// [`Self::find_ground`], reusing `below`, a downward sweep from the current position,
    /// instead of probing again: its first hit is the probe's when it lies within the probe,
    /// and beyond it the probe would find nothing.
    fn find_ground_with<T: Tracer + ?Sized>(
        &self,
        world: &T,
        walked_on: Option<Vec3>,
        below: Option<&Trace>,
    ) -> Ground {
        let view = Offset {
            world,
            offset: self.offset(),
        };
        let (shape, probe, walkable) = (
            self.shape(),
            self.config.ground_probe,
            self.config.walkable_normal_z,
        );
        let ground = match below {
            Some(trace) if self.state.position.z - trace.end.z <= probe => {
                ground::ground_hit(&view, shape, trace, probe, walkable)
            }
            Some(_) => Ground::AIR,
            None => ground::probe_ground(&view, shape, self.state.position, probe, walkable),
        };
        let Some(normal) = ground.normal else {
            return ground;
        };
        let limit = |n: Vec3| {
            let climb = self.config.max_speed * (1.0 - n.z * n.z).max(0.0).sqrt();
            self.config.airborne_rise_speed.max(climb) + MIN_MOVE_SPEED
        };
        let limit = walked_on.map_or(limit(normal), |w| limit(w).max(limit(normal)));
        if self.state.velocity.z > limit {
            Ground::AIR
        } else {
            ground
        }
    }

    fn walk_move<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let dt = self.config.tick;
        let normal = self.state.ground.normal.unwrap_or(Vec3::Z);
        let mut velocity = self.state.velocity;
        // Whatever still heads into the ground is gone (a landing last tick).
        velocity -= normal * velocity.dot(normal).min(0.0);
        velocity = self.friction(velocity);
        let scale = if self.state.crouched {
            self.config.crouch_speed_scale
        } else {
            1.0
        };
        let wish = input.wish * scale;
        let wish_speed = wish.length() * self.config.max_speed;
        let wish_dir = slide::clip_velocity(wish, normal).normalize_or_zero();
        velocity = accelerate(velocity, wish_dir, wish_speed, self.config.accelerate * dt);
        self.state.velocity = velocity;
        if velocity.truncate().length_squared() == 0.0 {
            return;
        }
        self.move_with(world, Some(normal), true, outcome);
    }

    fn air_move<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let dt = self.config.tick;
        let wish_speed = input.wish.length() * self.config.max_speed;
        let wish_dir = input.wish.normalize_or_zero();
        let mut velocity = accelerate(
            self.state.velocity,
            wish_dir,
            wish_speed,
            self.config.air_accelerate * dt,
        );
        let steep = self
            .state
            .ground
            .normal
            .filter(|_| self.state.ground.state == GroundState::Steep);
        if let Some(n) = steep {
            velocity = slide::clip_velocity(velocity, n);
        }
        // Gravity as two half steps around the move: the height is exactly v·t − g·t²/2.
        let half_drop = 0.5 * self.config.gravity * dt;
        velocity.z -= half_drop;
        self.state.velocity = velocity;
        self.move_with(world, steep, false, outcome);
        self.state.velocity.z -= half_drop;
    }

    /// One step-slide move with the current velocity for one tick.
    fn move_with<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        ground: Option<Vec3>,
        walking: bool,
        outcome: &mut MoveOutcome,
    ) {
        let view = Offset {
            world,
            offset: self.offset(),
        };
        let slide = Slide {
            world: &view,
            shape: self.shape(),
            ground,
            walkable_normal_z: self.config.walkable_normal_z,
            walking,
        };
        let rules = StepRules {
            step_height: self.config.step_height,
            walkable_normal_z: self.config.walkable_normal_z,
            min_tread: self.config.min_step_tread * 2.0 * self.config.shape.half_width(),
            grounded: walking,
        };
        let result = step_slide(
            &slide,
            &rules,
            self.state.position,
            self.state.velocity,
            self.config.tick,
            &mut outcome.touches,
        );
        self.state.position = result.slide.position;
        self.state.velocity = result.slide.velocity;
        self.state.walls.merge(&result.slide.walls);
        outcome.climbed += result.climbed;
    }

    /// Snaps the character down onto walkable ground within a step; returns the downward
    /// sweep (from where the character now stands: unmoved, or snapped to its end), or
    /// `None` when the character is leaving the ground, or the step is shorter than the
    /// ground probe.
    fn snap_to_ground<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        walked_on: Option<Vec3>,
        outcome: &mut MoveOutcome,
    ) -> Option<Trace> {
        if walked_on.is_some_and(|n| self.state.velocity.dot(n) > MIN_MOVE_SPEED) {
            // Leaving the ground on purpose (launched off a ramp): no snap.
            return None;
        }
        let view = Offset {
            world,
            offset: self.offset(),
        };
        let from = self.state.position;
        let trace = view.trace(self.shape(), from, from - Vec3::Z * self.config.step_height);
        let landing = ground::snap_landing(&trace, self.config.walkable_normal_z);
        if let Some(p) = landing.filter(|p| from.z - p.z > SNAP_MIN_CHANGE) {
            outcome.snapped = from.z - p.z;
            self.state.position = p;
        }
        // Shorter than the ground probe, it cannot stand in for it.
        (self.config.step_height >= self.config.ground_probe).then_some(trace)
    }

    /// Quake 3 `PM_Friction` on walkable ground.
    fn friction(&self, velocity: Vec3) -> Vec3 {
        let speed = velocity.truncate().length();
        if speed < MIN_MOVE_SPEED {
            return Vec3::new(0.0, 0.0, velocity.z);
        }
        let control = speed.max(self.config.stop_speed);
        let drop = control * self.config.friction * self.config.tick;
        velocity * ((speed - drop).max(0.0) / speed)
    }
}

/// The shape for a character of `height`, and where its centre sits above the origin.
fn shape_for(config: &ControllerConfig, height: f32) -> Option<(TraceShape, Vec3)> {
    let bottom = -config.feet_to_origin;
    let top = height - config.feet_to_origin;
    match config.shape {
        CharacterShape::Box { half_width } => {
            let w = Vec3::new(half_width, half_width, 0.0);
            let shape = TraceShape::aabb(-w + Vec3::Z * bottom, w + Vec3::Z * top)?;
            Some((shape, Vec3::ZERO))
        }
        CharacterShape::Cylinder { radius } => {
            let shape = TraceShape::cylinder(radius, 0.5 * height)?;
            Some((shape, Vec3::Z * (0.5 * (bottom + top))))
        }
        CharacterShape::Capsule { radius } => {
            // As tall as it is wide: a sphere, whose contacts the sweep finds exactly.
            let segment = (0.5 * height - radius).max(0.0);
            let shape = if segment == 0.0 {
                TraceShape::sphere(radius)?
            } else {
                TraceShape::capsule(radius, segment)?
            };
            Some((shape, Vec3::Z * (0.5 * (bottom + top))))
        }
    }
}

/// Quake 2's accelerate: add speed along `wish_dir` up to `wish_speed`, at most
/// `accel_dt · wish_speed` per tick. Leaves speed beyond the wish untouched (strafe-jumping).
fn accelerate(velocity: Vec3, wish_dir: Vec3, wish_speed: f32, accel_dt: f32) -> Vec3 {
    let current = velocity.dot(wish_dir);
    let add = wish_speed - current;
    if add <= 0.0 {
        return velocity;
    }
    velocity + wish_dir * (accel_dt * wish_speed).min(add)
}

/// `velocity` turned to run along the plane of `normal`, keeping its speed.
fn redirect_along(velocity: Vec3, normal: Vec3) -> Vec3 {
    let speed = velocity.length();
    let along = velocity.reject_from_normalized(normal);
    along.normalize_or_zero() * speed
}

fn sanitize(input: &MoveInput) -> MoveInput {
    let mut wish = Vec3::new(input.wish.x, input.wish.y, 0.0);
    if !wish.is_finite() {
        wish = Vec3::ZERO;
    }
    if wish.length_squared() > 1.0 {
        wish = wish.normalize_or_zero();
    }
    MoveInput {
        wish,
        jump: input.jump,
        crouch: input.crouch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wish_along_a_wall_survives_rounding() {
        // Regression from the e2m2 soak: a wish parallel to a remembered wall came out a
        // hair into it after the projection and was zeroed.
        let mut walls = WallContacts::default();
        walls.push(Vec3::new(-0.57179266, 0.82039815, 0.0));
        let wish = Vec3::new(0.8206377, 0.5714488, 0.0);
        let clipped = walls.clip_wish(wish);
        assert!(clipped.length() > 0.99, "{clipped}");
        // Into an inside corner of two walls: nothing left; out of it: untouched.
        let mut corner = WallContacts::default();
        corner.push(Vec3::X);
        corner.push(Vec3::Y);
        let into = Vec3::new(-1.0, -1.0, 0.0).normalize();
        assert_eq!(corner.clip_wish(into), Vec3::ZERO);
        assert_eq!(corner.clip_wish(-into), -into);
        assert_eq!(
            corner.clip_wish(Vec3::new(-1.0, 0.5, 0.0)),
            Vec3::new(0.0, 0.5, 0.0)
        );
    }
}
