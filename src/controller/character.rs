//! [`CharacterController`]: one character moved a fixed tick at a time, in Quake 3's order
//! (the steps are listed in the module doc of `controller`).
//!
//! Takes a [`Tracer`], a validated [`ControllerConfig`] and one [`MoveInput`] per tick; gives
//! the new [`CharacterState`] and a [`MoveOutcome`]. Guarantees: a tick never ends with the
//! shape overlapping solid unless it started there and no free spot was in reach; the same
//! inputs give bit-identical results; no heap allocation per tick.

use glam::Vec3;

use super::config::{CharacterShape, ConfigError, ControllerConfig};
use super::ground::{Ground, GroundState};
use super::movers::carried_point;
use super::slide::Slide;
use super::step::{StepRules, step_slide};
use super::tick::{CharacterState, MoveInput, MoveOutcome, WallContacts};
use super::tracer::{Offset, Tracer};
use super::unstuck::UnstuckTable;
use super::{ground, slide};
use crate::tolerance::{MIN_MOVE_SPEED, SAME_PLANE_DOT, SNAP_MIN_CHANGE, WALL_PROBE};
use crate::trace::{ModelPlacement, Trace, TraceShape};

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
