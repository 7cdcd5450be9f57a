//! [`CharacterController`]: one character moved a fixed tick at a time, in Quake 3's order
//! (the steps are listed in the module doc of `controller`).
//!
//! Takes a [`Tracer`], a validated [`ControllerConfig`] and one [`MoveInput`] per tick; gives
//! the new [`CharacterState`] and a [`MoveOutcome`]. Guarantees: a tick never ends with the
//! shape overlapping solid unless it started there and no free spot was in reach; the same
//! inputs give bit-identical results; no heap allocation per tick.

use glam::Vec3;

use super::config::{CharacterShape, ConfigError, ControllerConfig, JumpKey, Movement};
use super::ground::{Ground, GroundState};
use super::ids::TriggerList;
use super::slide::Slide;
use super::step::{StepRules, step_slide};
use super::tick::{
    Activity, CharacterState, MoveInput, MoveMode, MoveOutcome, WallContacts, microseconds,
};
use super::tracer::{FixedSolid, Offset, ShapeQuery, Sweeps, Tick, Tracer};
use super::unstuck::UnstuckTable;
use super::water_level::{WaterMemo, bits};
use super::{ground, slide};
use crate::compiled::MaterialId;
use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use crate::tolerance::{
    MAX_TICK, MIN_MOVE_SPEED, MIN_TICK, SAME_PLANE_DOT, SNAP_MIN_CHANGE, WALL_PROBE,
};
use crate::trace::{TickCache, Trace, TraceShape};

/// A character moved one fixed tick at a time through a [`Tracer`].
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::{CharacterController, ControllerConfig, MoveInput, movement::GroundState};
/// // A floor 1024 units square whose top is at z = 16.
/// let src = br#"{ "classname" "worldspawn"
/// { ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1
///   ( 1024 0 0 ) ( 1024 0 1 ) ( 1024 1 0 ) a 0 0 0 1 1
///   ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) a 0 0 0 1 1
///   ( 0 1024 0 ) ( 1 1024 0 ) ( 0 1024 1 ) a 0 0 0 1 1
///   ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) a 0 0 0 1 1
///   ( 0 0 16 ) ( 0 1 16 ) ( 1 0 16 ) a 0 0 0 1 1 } }"#;
/// let world = planeshift::compile_map(src).unwrap().map;
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
    pub(crate) config: ControllerConfig,
    pub(crate) state: CharacterState,
    stand_shape: TraceShape,
    crouch_shape: TraceShape,
    /// A corpse's shape ([`MoveMode::Dead`]).
    dead_shape: TraceShape,
    /// Where each shape's centre sits above the origin.
    stand_offset: Vec3,
    crouch_offset: Vec3,
    dead_offset: Vec3,
    unstuck: UnstuckTable,
    /// Ground friction factors per material (Source's surface friction), looked up in order.
    material_friction: Vec<(MaterialId, f32)>,
    /// What its ticks remember and reuse: memos and scratch ([`TickMemo`]).
    pub(crate) memo: TickMemo,
    /// The configured tick, seconds, which the timers count in, even while a tick of its
    /// own duration runs ([`Self::step_msec`]).
    timer_tick: f32,
    /// How many configured ticks the running tick counts on the timers (1 for a fixed tick).
    timer_units: u32,
}

/// How far beyond its shape's travel at its current speed a character's shape centre is
/// expected to go in one tick, in map units, on top of the step height: the snap down, the
/// probes (wall, ground, ladder), a crouch's or a stand's move of the centre and a few units
/// of acceleration. Only an estimate that sizes the tick cache: a sweep beyond it walks the
/// tree, with the same result (measured: see `ARCHITECTURE.md`, decision on the tick cache).
const TICK_CACHE_SLACK: f32 = 8.0;

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
            body_for(&config, config.stand_height).ok_or(invalid.clone())?;
        let (crouch_shape, crouch_offset) =
            body_for(&config, config.crouch_height).ok_or(invalid.clone())?;
        let (dead_shape, dead_offset) = shape_for(&config, config.dead_height).ok_or(invalid)?;
        let unstuck = UnstuckTable::new(config.step_height);
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
                mode: MoveMode::Walk,
                water_level: 0,
                liquid: Contents::EMPTY,
                ladder: None,
                hold_ticks: 0,
                water_jump_us: 0,
                air_ticks: LAUNCHED,
                press_ticks: u32::MAX,
                teleports: 0,
                launched: false,
                contents: Contents::EMPTY,
                triggers: TriggerList::default(),
                tick_carry_us: 0,
                profile: super::tick::ProfileState::default(),
            },
            stand_shape,
            crouch_shape,
            dead_shape,
            stand_offset,
            crouch_offset,
            dead_offset,
            memo: TickMemo {
                water_memo: None,
                fixed_free: None,
                ground_memo: None,
                snap_memo: None,
                walls_memo: None,
                stuck_place: None,
                fixed_blocked: vec![0; unstuck.mark_words()],
                tick_cache: Some(Box::new(TickCache::new())),
                use_tick_cache: true,
                trigger_scratch: TriggerList::with_reserve(),
                profile: super::games::ProfileMemo::default(),
            },
            unstuck,
            material_friction: Vec::new(),
            timer_tick: config.tick,
            timer_units: 1,
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
    /// velocity is refused and the state kept. A state taken from [`Self::state`] (or read
    /// back from its serialized form) continues the run bit for bit.
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
        if self.state.mode == MoveMode::Dead {
            &self.dead_shape
        } else if self.state.crouched {
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

    /// The eye's height above the feet as the character stands now: `eye_height`, or
    /// `crouch_eye_height` crouched, or `dead_eye_height` for a corpse (Quake 3's
    /// `viewheight`: `DEFAULT_VIEWHEIGHT` 26, `CROUCH_VIEWHEIGHT` 12, `DEAD_VIEWHEIGHT` −16
    /// above the origin, which sits `feet_to_origin` above the feet).
    #[must_use]
    pub fn eye_height(&self) -> f32 {
        if self.state.mode == MoveMode::Dead {
            self.config.dead_eye_height
        } else if self.state.crouched {
            self.config.crouch_eye_height
        } else {
            self.config.eye_height
        }
    }

    /// Where the character's eye is: [`Self::eye_height`] above the feet (Quake 3's
    /// `origin + viewheight`), where a hitscan or a camera starts. The view's vectors come
    /// from the command ([`MoveCommand::view_vectors`](crate::controller::MoveCommand::view_vectors)).
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{CharacterController, ControllerConfig};
    /// let player = CharacterController::new(ControllerConfig::default(), Vec3::new(0.0, 0.0, 24.0))?;
    /// // Quake 3: the origin 24 above the feet, the eye 26 above the origin.
    /// assert_eq!(player.eye_position(), Vec3::new(0.0, 0.0, 50.0));
    /// # Ok::<(), planeshift::movement::ConfigError>(())
    /// ```
    #[must_use]
    pub fn eye_position(&self) -> Vec3 {
        self.state.position + Vec3::Z * (self.eye_height() - self.config.feet_to_origin)
    }

    pub(crate) fn offset(&self) -> Vec3 {
        if self.state.mode == MoveMode::Dead {
            self.dead_offset
        } else if self.state.crouched {
            self.crouch_offset
        } else {
            self.stand_offset
        }
    }

    /// Whether the shape in use overlaps solid where the character stands.
    #[must_use]
    pub fn overlaps<T: Tracer + ?Sized>(&self, world: &T) -> bool {
        world.overlaps(&ShapeQuery::new(self.shape()), self.shape_center())
    }

    /// Advances one fixed tick of [`ControllerConfig::tick`] seconds: the move, then the
    /// network snap if configured ([`ControllerConfig::network_snap`]), then the triggers
    /// touched on the way ([`MoveOutcome::triggers`]).
    pub fn step<T: Tracer + ?Sized>(&mut self, world: &T, input: &MoveInput) -> MoveOutcome {
        let mut outcome = MoveOutcome::default();
        self.write_step(world, input, &mut outcome);
        outcome
    }

    /// [`Self::step`], writing the outcome over `outcome` (its touch and trigger lists are
    /// emptied, not rewritten, and keep their capacity): a crowd keeps each character's
    /// outcome in place instead of copying 2 KB per character and tick, and a tick written
    /// into the same outcome allocates nothing once its trigger lists have held their most
    /// (the first call reserves room for [`TRIGGER_RESERVE`](super::TRIGGER_RESERVE) models in each; [`Self::step`]
    /// returns a new outcome, whose trigger lists allocate when a trigger is touched).
    pub fn step_into<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        outcome.triggers.reserve();
        self.write_step(world, input, outcome);
    }

    /// [`Self::step_into`] without reserving the outcome's lists: the tick's view of
    /// `world` sweeps under the configured mask and, when the map its speed facts name
    /// was gathered near the character, reads the gathered brushes.
    fn write_step<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        outcome.reset();
        // A game's movement profile runs its own tick (`games`), then the triggers.
        if self.config.movement != Movement::Planeshift {
            let start = self.state.position;
            let mut cache = if self.memo.use_tick_cache {
                self.memo.tick_cache.take()
            } else {
                None
            };
            super::games::step(
                &self.config,
                &mut self.state,
                (world, cache.as_deref_mut()),
                &mut self.memo.profile,
                input,
                outcome,
            );
            // The trigger query reads the gathered brushes' region: no trigger near, none
            // asked (`TickCache::no_triggers_along`).
            let tick = Tick {
                world,
                mask: self.config.mask,
                scratch: cache.as_deref(),
            };
            self.update_triggers(&tick, start, outcome);
            if cache.is_some() {
                self.memo.tick_cache = cache;
            }
            return;
        }
        let mask = self.config.mask;
        if !self.memo.use_tick_cache {
            return self.step_through(&Tick::masked(world, mask), input, outcome);
        }
        // Taken out for the tick (a pointer moved: nothing allocates or copies the cache)
        // so the view can borrow it while the tick borrows the controller. Always there
        // between ticks; without it the tick walks the trees.
        let Some(mut cache) = self.memo.tick_cache.take() else {
            return self.step_through(&Tick::masked(world, mask), input, outcome);
        };
        match world.speed_facts().map {
            Some(map) => {
                map.gather_near(
                    &[self.current_shape()],
                    self.tick_region(),
                    mask,
                    &mut cache,
                );
            }
            None => cache.clear(),
        }
        let tick = Tick {
            world,
            mask,
            scratch: Some(&cache),
        };
        self.step_through(&tick, input, outcome);
        self.memo.tick_cache = Some(cache);
    }

    /// The box the shape centres of the coming tick are expected to stay in (standing or
    /// crouched): the current centre grown by the travel at the current speed, the
    /// difference between the two centres and [`TICK_CACHE_SLACK`], and vertically by the
    /// step height too (the step up and the snap down are vertical; only the rare tread
    /// probe of a step reaches farther across, and walks the tree). Every brush in the box
    /// costs each of the tick's sweeps its cull, so the box is no wider than that.
    fn tick_region(&self) -> (Vec3, Vec3) {
        let center = self.shape_center();
        let shift = (self.stand_offset - self.crouch_offset).abs();
        let travel = self.state.velocity.abs() * self.config.tick;
        let step = Vec3::Z * self.config.step_height;
        let grow = travel + shift + step + Vec3::splat(TICK_CACHE_SLACK);
        (center - grow, center + grow)
    }

    internal! {
        /// Turns the tick cache off (or back on): every sweep then walks the tree. For the
        /// tests that compare ticks with and without it, bit for bit.
        pub fn set_tick_cache(&mut self, on: bool) {
            self.memo.use_tick_cache = on;
        }
    }

    internal! {
        /// How many sweeps of this character's ticks read the tick cache, and how many
        /// walked the tree instead ([`TickCache::counts`]).
        #[must_use]
        pub fn tick_cache_counts(&self) -> (u64, u64) {
            self.memo.tick_cache.as_ref().map_or((0, 0), |cache| cache.counts())
        }
    }

    internal! {
        /// How many of this character's ticks walked the trees to gather, and how many
        /// kept the brushes of an earlier tick ([`TickCache::gather_counts`]).
        #[must_use]
        pub fn tick_cache_gathers(&self) -> (u64, u64) {
            self.memo.tick_cache
                .as_ref()
                .map_or((0, 0), |cache| cache.gather_counts())
        }
    }

    /// [`Self::step`] through `world` as it is.
    fn step_through<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let start = self.state.position;
        // The move neither reads nor changes the trigger set: kept aside, so the state it
        // saves to fall back to copies no list.
        let triggers = std::mem::take(&mut self.state.triggers);
        self.advance(world, input, outcome);
        self.snap_for_network(world);
        self.state.triggers = triggers;
        self.update_triggers(world, start, outcome);
    }

    /// Advances one tick that lasts `msec` milliseconds, as a Quake 3 command carries its
    /// own (`usercmd_t.serverTime` minus the last one; `PmoveSingle` clamps it to 1..=200):
    /// the move integrates over that time; the water jump's timer counts down the
    /// command's own microseconds ([`CharacterState::water_jump_us`], Quake 3's `pm_time`),
    /// and the timers that count configured ticks advance by the whole configured ticks it
    /// covers, the remainder kept in [`CharacterState::tick_carry_us`] so no time is lost
    /// or gained over many commands.
    /// `msec` is clamped to 1..=200 (and to the accepted tick range).
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{CharacterController, ControllerConfig, MoveInput};
    /// let world = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// let mut a = CharacterController::new(ControllerConfig::default(), Vec3::new(0.0, 0.0, 64.0))?;
    /// let mut b = a.clone();
    /// // One 16 ms command and two 8 ms ticks fall by the same exact parabola.
    /// a.step_msec(&world, &MoveInput::default(), 16);
    /// b.step(&world, &MoveInput::default());
    /// b.step(&world, &MoveInput::default());
    /// assert!((a.position().z - b.position().z).abs() < 1e-3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step_msec<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        msec: u32,
    ) -> MoveOutcome {
        let msec = msec.clamp(MIN_COMMAND_MSEC, MAX_COMMAND_MSEC);
        let tick_us = microseconds(self.timer_tick).max(1);
        let carried = self.state.tick_carry_us.min(tick_us - 1) + msec * 1000;
        self.state.tick_carry_us = carried % tick_us;
        self.timer_units = carried / tick_us;
        self.config.tick = (msec as f32 / 1000.0).clamp(MIN_TICK, MAX_TICK);
        let outcome = self.step(world, input);
        self.config.tick = self.timer_tick;
        self.timer_units = 1;
        outcome
    }

    /// The move of one tick, without the snap and the triggers, into `outcome` (reset).
    fn advance<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let dead = self.state.mode == MoveMode::Dead;
        // Quake 3 `PmoveSingle`: a corpse's input is zeroed.
        let raw_input = if dead { &MoveInput::default() } else { input };
        let input = sanitize(raw_input);
        match self.state.mode {
            MoveMode::Frozen => {
                // Quake 3 `PM_FREEZE`: nothing moves, nothing is remembered.
                outcome.activity = Activity::Frozen;
                self.report_water(outcome);
                return;
            }
            MoveMode::Noclip => {
                self.noclip_move(&input);
                self.finish_timers(&input);
                self.cap_velocity();
                self.set_water_level(world);
                outcome.activity = Activity::Noclip;
                self.report_water(outcome);
                return;
            }
            MoveMode::Walk | MoveMode::Fly | MoveMode::Dead => {}
        }
        // Walking uses the wish's horizontal part at its own length (capped at 1), as Quake 3
        // flattens the view's forward before normalizing.
        let flat_wish = walk_wish(raw_input);
        self.state.walls = self.walls_still_touched(world);
        let dt = self.config.tick;

        // 1. Never start a move inside solid.
        if !self.recover(world, outcome) {
            outcome.stuck = true;
            self.state.velocity = Vec3::ZERO;
            self.keep_jump_key(input.jump, false);
            self.report_water(outcome);
            return;
        }
        // 2. Crouch or stand (a corpse keeps its shape). Crouching only shrinks the shape
        // and standing checks headroom, so this state is free of solid: the tick falls back
        // to it.
        if !dead {
            self.update_crouch(world, input.crouch);
        }
        let safe = self.state.clone();
        // 3. Ground and water level (Quake 3 `PM_GroundTrace`, `PM_SetWaterLevel`).
        let launched = std::mem::take(&mut self.state.launched);
        let start_ground = if launched {
            Ground::AIR
        } else {
            self.find_ground(world, None)
        };
        self.state.ground = start_ground;
        self.set_water_level(world);
        if dead && start_ground.is_walkable() {
            self.dead_move();
        }
        self.state.land_timer = (self.state.land_timer - dt).max(0.0);
        let fresh_press = input.jump && !self.state.jump_held;
        if fresh_press {
            self.state.press_ticks = 0;
        }
        if self.state.mode == MoveMode::Fly {
            self.fly_move(world, &input, outcome);
            self.state.ground = self.find_ground(world, None);
            self.keep_jump_key(input.jump, false);
            outcome.activity = Activity::Fly;
            return self.end_tick(world, &input, safe, outcome);
        }
        // The wall memory keeps the wish out of walls; with Source's air cap or Quake 3's
        // falling steps not in the air, where it would spoil surf ramps and wall-strafing
        // and keep a falling character from pressing into a lip it could step onto.
        let airborne = !start_ground.is_walkable();
        let free_air = self.config.air_wish_cap.is_some() || self.config.air_step_falling;
        let wish = if airborne && free_air {
            flat_wish
        } else {
            self.state.walls.clip_wish(flat_wish)
        };
        let walk_input = MoveInput { wish, ..input };
        // 4. Special moves: the water jump's flight, a ladder, swimming.
        if self.state.water_jump_us > 0 {
            self.water_jump_move(world, outcome);
            self.keep_jump_key(input.jump, false);
            outcome.activity = Activity::Swim;
            return self.end_tick(world, &input, safe, outcome);
        }
        if !dead && self.ladder_move(world, &input, outcome) {
            self.keep_jump_key(input.jump, outcome.jumped);
            outcome.activity = Activity::Ladder;
            return self.end_tick(world, &input, safe, outcome);
        }
        if self.state.water_level >= 2 {
            self.swim_move(world, &input, outcome);
            self.keep_jump_key(input.jump, false);
            outcome.activity = Activity::Swim;
            return self.end_tick(world, &input, safe, outcome);
        }
        // 5. Jump: a fresh press (or a held key with auto-hop, or a press buffered before
        // the landing) on walkable ground, or within the coyote time after walking off it.
        let buffered = self.config.jump_buffer > 0.0
            && (self.state.press_ticks as f32) * self.timer_tick <= self.config.jump_buffer;
        let wants = fresh_press || buffered || (self.config.auto_hop && input.jump);
        let coyote = self.config.coyote_time > 0.0
            && self.state.air_ticks != LAUNCHED
            && self.state.air_ticks > 0
            && (self.state.air_ticks as f32) * self.timer_tick <= self.config.coyote_time
            && self.state.velocity.z <= 0.0;
        if wants && (start_ground.is_walkable() || coyote) && self.state.land_timer <= 0.0 {
            self.state.velocity.z = self.config.jump_speed;
            self.state.ground = Ground::AIR;
            self.state.air_ticks = LAUNCHED;
            self.state.press_ticks = u32::MAX;
            outcome.jumped = true;
        }
        self.keep_jump_key(input.jump, outcome.jumped);
        // 6. Move.
        let fall_speed = -self.state.velocity.z;
        let walking = self.state.ground.is_walkable();
        if walking {
            self.walk_move(world, &walk_input, outcome);
        } else {
            self.air_move(world, &walk_input, outcome);
        }
        // 7. Snap down onto walkable ground after walking off a step or down a slope.
        let below = if walking {
            self.snap_to_ground(world, start_ground.normal, outcome)
        } else {
            None
        };
        // 8. Ground again (from the snap's sweep when there was one), landing, and the
        // end-of-tick check.
        let walked_on = start_ground.normal.filter(|_| walking);
        let ground = self.find_ground_with(world, walked_on, below.as_ref());
        if ground.is_walkable() {
            let normal = ground.normal.unwrap_or(Vec3::Z);
            if walking {
                // Follow the ground's change of slope without losing speed (Quake 3).
                self.state.velocity = redirect_along(self.state.velocity, normal);
            } else {
                // Landing absorbs the speed into the ground; in water it costs nothing.
                let into = self.state.velocity.dot(normal).min(0.0);
                self.state.velocity -= normal * into;
                outcome.landed = Some(fall_speed.max(0.0));
                let wet = self.state.water_level > 0;
                if fall_speed > self.config.hard_landing_speed && !wet {
                    self.state.land_timer = self.config.land_jump_delay;
                }
            }
        }
        self.state.ground = ground;
        outcome.activity = Activity::Walk;
        self.end_tick(world, &input, safe, outcome);
    }

    /// The end of every tick that moved: timers, the velocity cap, the end-of-tick check,
    /// the water level and the reports.
    fn end_tick<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        safe: CharacterState,
        outcome: &mut MoveOutcome,
    ) {
        self.finish_timers(input);
        self.cap_velocity();
        let broken = !self.state.position.is_finite() || !self.state.velocity.is_finite();
        if broken || !self.recover(world, outcome) {
            // Nothing free in reach: undo the move rather than end inside solid.
            self.state = safe;
            self.state.velocity = Vec3::ZERO;
        }
        self.set_water_level(world);
        self.report_water(outcome);
        outcome.ground_surface = self.state.ground.surface;
        outcome.ground_material = self.state.ground.material;
        let mut surfaces = self.state.ground.surface;
        for touch in outcome.touches.as_slice() {
            surfaces |= touch.surface;
        }
        outcome.surfaces = surfaces;
    }

    /// Counts the tick down on every timer and clock (after the move: a 200 ms hold covers
    /// 25 moves at 8 ms).
    fn finish_timers(&mut self, input: &MoveInput) {
        let units = self.timer_units;
        let state = &mut self.state;
        state.hold_ticks = state.hold_ticks.saturating_sub(units);
        state.water_jump_us = state
            .water_jump_us
            .saturating_sub(microseconds(self.config.tick));
        state.press_ticks = state.press_ticks.saturating_add(units);
        if state.ground.is_walkable() {
            state.air_ticks = 0;
        } else if state.air_ticks != LAUNCHED {
            state.air_ticks = state.air_ticks.saturating_add(units).min(LAUNCHED - 1);
        }
        if !input.jump && state.press_ticks == u32::MAX {
            state.press_ticks = u32::MAX - 1;
        }
    }

    /// Remembers the jump key for the next tick's press test ([`CharacterState::jump_held`]):
    /// with [`JumpKey::Press`] the key as it is (Source `CheckJumpButton`: only a key that
    /// goes down jumps); with [`JumpKey::Held`] set by a jump and cleared by any tick with
    /// the key up (Quake 3 `PMF_JUMP_HELD`), so a key released after a jump and held again
    /// before landing jumps on the landing tick.
    pub(crate) fn keep_jump_key(&mut self, down: bool, jumped: bool) {
        self.state.jump_held = match self.config.jump_key {
            JumpKey::Press => down,
            JumpKey::Held => down && (self.state.jump_held || jumped),
        };
    }

    /// Source `CheckVelocity`: each axis within ±`max_velocity`.
    pub(crate) fn cap_velocity(&mut self) {
        if let Some(cap) = self.config.max_velocity {
            self.state.velocity = self
                .state
                .velocity
                .clamp(Vec3::splat(-cap), Vec3::splat(cap));
        }
    }

    /// Copies the state's water level and liquid into the outcome.
    fn report_water(&self, outcome: &mut MoveOutcome) {
        outcome.water_level = self.state.water_level;
        outcome.liquid = self.state.liquid;
        outcome.contents = self.state.contents;
    }

    /// Ground friction factors per material, replacing any given before (Source's surface
    /// friction, bevy_ahoy's friction coefficient): the ground friction on a side of
    /// `material` is multiplied by its factor; unlisted materials keep 1. The table is
    /// searched in order, so list each material once.
    pub fn set_material_friction(&mut self, table: &[(MaterialId, f32)]) {
        self.material_friction.clear();
        self.material_friction.extend(
            table
                .iter()
                .filter(|(_, f)| f.is_finite() && *f >= 0.0)
                .copied(),
        );
    }

    /// The ground friction factor of the ground under the character: 0 on a slick surface
    /// (Quake 3 `SURF_SLICK`), during a knockback hold (`PMF_TIME_KNOCKBACK`), at water
    /// level 2 and above, or for a corpse (its own slowdown replaces it), else the
    /// material's factor.
    pub(crate) fn ground_friction_factor(&self) -> f32 {
        let ground = &self.state.ground;
        if ground.surface.contains(SurfaceFlags::SLICK)
            || self.state.hold_ticks > 0
            || self.state.water_level > 1
            || self.state.mode == MoveMode::Dead
        {
            return 0.0;
        }
        ground
            .material
            .and_then(|m| self.material_friction.iter().find(|(id, _)| *id == m))
            .map_or(1.0, |(_, f)| *f)
    }

    /// The remembered walls that a probe of [`WALL_PROBE`] towards each still hits.
    fn walls_still_touched<T: Sweeps + ?Sized>(&mut self, world: &T) -> WallContacts {
        let walls = self.state.walls;
        if walls.normals().is_empty() {
            return WallContacts::default();
        }
        let place = self.motionless_place(world);
        let known = self
            .memo
            .walls_memo
            .filter(|(p, asked, _)| place == Some(*p) && *asked == walls);
        if let Some((_, _, kept)) = known {
            return kept;
        }
        let kept = self.probe_walls(world);
        self.memo.walls_memo = place.map(|p| (p, walls, kept));
        kept
    }

    /// [`Self::walls_still_touched`], probing each wall.
    fn probe_walls<T: Sweeps + ?Sized>(&self, world: &T) -> WallContacts {
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
    pub(crate) fn recover<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        outcome: &mut MoveOutcome,
    ) -> bool {
        let fixed = world.fixed_solid();
        let here = fixed.map(|solid| self.free_place(solid));
        let overlapping = if here.is_some() && here == self.memo.fixed_free {
            // Free of the fixed solid where it still stands: only what moves may overlap.
            world.overlaps_moving(self.shape(), self.shape_center())
        } else {
            world.overlaps(self.shape(), self.shape_center())
        };
        if !overlapping {
            self.memo.fixed_free = here;
            return true;
        }
        let found = match here {
            Some(place) => {
                if self.memo.stuck_place != Some(place) {
                    self.memo.fixed_blocked.fill(0);
                    self.memo.stuck_place = Some(place);
                }
                let mut marks = std::mem::take(&mut self.memo.fixed_blocked);
                let found = self.unstuck.find_free_marking(
                    world,
                    self.shape(),
                    self.shape_center(),
                    &mut marks,
                );
                self.memo.fixed_blocked = marks;
                found
            }
            None => self
                .unstuck
                .find_free(world, self.shape(), self.shape_center()),
        };
        match found {
            Some((center, probes)) => {
                self.state.position = center - self.offset();
                outcome.unstuck_probes = Some(outcome.unstuck_probes.unwrap_or(0) + probes);
                // Free of everything there (the table's test asks the whole world).
                self.memo.fixed_free = fixed.map(|solid| self.free_place(solid));
                true
            }
            None => false,
        }
    }

    /// The shape in use at its place now, when nothing in `world` moves: every sweep from
    /// the same place then answers the same.
    fn motionless_place<T: Sweeps + ?Sized>(&self, world: &T) -> Option<FreePlace> {
        if !world.moves_nothing() {
            return None;
        }
        world.fixed_solid().map(|solid| self.free_place(solid))
    }

    /// The shape in use at its place now, in the world whose fixed solid is `solid`.
    fn free_place(&self, solid: FixedSolid) -> FreePlace {
        let shape = if self.state.mode == MoveMode::Dead {
            ShapeInUse::Dead
        } else if self.state.crouched {
            ShapeInUse::Crouched
        } else {
            ShapeInUse::Standing
        };
        FreePlace {
            center: bits(self.shape_center()),
            shape,
            solid,
        }
    }

    /// The nearest free centre for the shape in use from the unstuck table, among the
    /// offsets that do not go against `toward` (all of them when it is zero).
    pub(crate) fn unstuck_toward<T: Sweeps + ?Sized>(
        &self,
        world: &T,
        toward: Vec3,
    ) -> Option<Vec3> {
        self.unstuck
            .find_free_toward(world, self.shape(), self.shape_center(), toward)
            .map(|(center, _)| center)
    }

    /// Crouches, or stands up when the standing shape fits (Quake 3 `PM_CheckDuck`): on the
    /// ground the feet stay; in the air the head stays (Source), falling back to keeping the
    /// feet.
    fn update_crouch<T: Sweeps + ?Sized>(&mut self, world: &T, crouch: bool) {
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
    pub(crate) fn find_ground<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        walked_on: Option<Vec3>,
    ) -> Ground {
        self.find_ground_with(world, walked_on, None)
    }

    /// [`Self::find_ground`], reusing `below`, a downward sweep from the current position,
    /// instead of probing again: its first hit is the probe's when it lies within the probe,
    /// and beyond it the probe would find nothing.
    fn find_ground_with<T: Sweeps + ?Sized>(
        &mut self,
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
            None => {
                let place = self.motionless_place(world);
                match self.memo.ground_memo.filter(|(p, _)| place == Some(*p)) {
                    Some((_, ground)) => ground,
                    None => {
                        let position = self.state.position;
                        let ground = ground::probe_ground(&view, shape, position, probe, walkable);
                        self.memo.ground_memo = place.map(|p| (p, ground));
                        ground
                    }
                }
            }
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

    fn walk_move<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let dt = self.config.tick;
        let normal = self.state.ground.normal.unwrap_or(Vec3::Z);
        let mut velocity = self.state.velocity;
        let factor = self.ground_friction_factor();
        let held = factor == 0.0;
        if held {
            // Slick or held (Quake 3 `PM_WalkMove`): gravity before the ground clip, so a
            // slick slope is slid down.
            velocity.z -= self.config.gravity * dt;
        }
        // Small upward impulses (Source `CategorizePosition` zeroes them): what is left
        // along the ground normal goes, whatever the horizontal speed; only rising faster
        // than the ground limit (`find_ground`) leaves the ground.
        velocity -= normal * velocity.dot(normal);
        velocity = self.friction(velocity, factor);
        let scale = if self.state.crouched {
            self.config.crouch_speed_scale
        } else {
            1.0
        };
        let wish = input.wish * scale;
        let mut wish_speed = wish.length() * self.config.max_speed;
        if self.state.water_level > 0 {
            // Wading (Quake 3 `PM_WalkMove`): at level 1, 266.7 of 320.
            let level = f32::from(self.state.water_level);
            let wade = 1.0 - (1.0 - self.config.swim_scale) * level / 3.0;
            wish_speed = wish_speed.min(self.config.max_speed * wade);
        }
        let wish_dir = slide::clip_velocity(wish, normal).normalize_or_zero();
        let accel = if held {
            self.config.air_accelerate
        } else {
            self.config.accelerate
        };
        velocity = accelerate(velocity, wish_dir, wish_speed, accel * dt);
        self.state.velocity = velocity;
        if velocity.truncate().length_squared() == 0.0 {
            return;
        }
        self.move_with(world, Some(normal), true, true, outcome);
    }

    fn air_move<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let dt = self.config.tick;
        let wish_speed = input.wish.length() * self.config.max_speed;
        let wish_dir = input.wish.normalize_or_zero();
        // Quake 3 `PM_AirMove` runs `PM_Friction`: in the air only its water part.
        let velocity = self.friction(self.state.velocity, 0.0);
        let mut velocity = air_accelerate(
            velocity,
            wish_dir,
            wish_speed,
            self.config.air_accelerate * dt,
            self.config.air_wish_cap,
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
        self.move_with(world, steep, false, true, outcome);
        self.state.velocity.z -= half_drop;
    }

    /// One step-slide move with the current velocity for one tick (a plain slide without
    /// `steps`: Quake 3 `PM_SlideMove`).
    pub(crate) fn move_with<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        ground: Option<Vec3>,
        walking: bool,
        steps: bool,
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
        // A corpse is lower than a step: it slides, never steps.
        let steps = steps && self.state.mode != MoveMode::Dead;
        let rules = StepRules {
            step_height: if steps { self.config.step_height } else { 0.0 },
            walkable_normal_z: self.config.walkable_normal_z,
            min_tread: self.config.min_step_tread * 2.0 * self.config.shape.half_width(),
            grounded: walking,
            falling_steps: self.config.air_step_falling,
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
    fn snap_to_ground<T: Sweeps + ?Sized>(
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
        let place = self.motionless_place(world);
        let trace = match self.memo.snap_memo.filter(|(p, _)| place == Some(*p)) {
            Some((_, trace)) => trace,
            None => {
                let trace =
                    view.trace(self.shape(), from, from - Vec3::Z * self.config.step_height);
                self.memo.snap_memo = place.map(|p| (p, trace));
                trace
            }
        };
        let landing = ground::snap_landing(&trace, self.config.walkable_normal_z);
        if let Some(p) = landing.filter(|p| from.z - p.z > SNAP_MIN_CHANGE) {
            outcome.snapped = from.z - p.z;
            self.state.position = p;
        }
        // Shorter than the ground probe, it cannot stand in for it.
        (self.config.step_height >= self.config.ground_probe).then_some(trace)
    }

    /// Quake 3 `PM_Friction`: ground friction times `ground_factor` on the horizontal
    /// speed (0 in the air), plus water friction on the full speed at water level 1 and
    /// above.
    pub(crate) fn friction(&self, velocity: Vec3, ground_factor: f32) -> Vec3 {
        let level = f32::from(self.state.water_level);
        let speed = if ground_factor > 0.0 {
            velocity.truncate().length()
        } else {
            velocity.length()
        };
        if speed < MIN_MOVE_SPEED {
            if ground_factor > 0.0 {
                return Vec3::new(0.0, 0.0, velocity.z);
            }
            return velocity;
        }
        let dt = self.config.tick;
        let mut drop = 0.0;
        if ground_factor > 0.0 {
            let control = speed.max(self.config.stop_speed);
            drop += control * self.config.friction * ground_factor * dt;
        }
        drop += speed * self.config.water_friction * level * dt;
        if drop == 0.0 {
            return velocity;
        }
        velocity * ((speed - drop).max(0.0) / speed)
    }

    /// The shape and its centre's offset above the origin.
    pub(crate) fn view<'a, T: Sweeps + ?Sized>(&self, world: &'a T) -> Offset<'a, T> {
        Offset {
            world,
            offset: self.offset(),
        }
    }

    /// The shape in use (crate side).
    pub(crate) fn current_shape(&self) -> &TraceShape {
        self.shape()
    }
}

/// Which of a controller's shapes is in use (its configuration never changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ShapeInUse {
    Standing,
    Crouched,
    Dead,
}

/// A place where a shape was proven free of a world's fixed solid: its centre as bits (the
/// proof holds only there exactly), which shape, and which fixed solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FreePlace {
    center: [u32; 3],
    shape: ShapeInUse,
    solid: FixedSolid,
}

/// What a controller's ticks remember and reuse, in one place: the memos of answers that
/// are pure functions of the shape's place and the world (replays and restored states give
/// the same results with or without them), the tick cache and the trigger scratch list.
#[derive(Clone, Debug)]
pub(crate) struct TickMemo {
    /// The last water-level sample, reused while the character stands where it was taken
    /// in the same world (a pure function of place, eye height and world: replays and
    /// restored states give the same results with or without it).
    pub(crate) water_memo: Option<WaterMemo>,
    /// Where the shape in use was last proven free of the world's fixed solid
    /// ([`SpeedFacts::map_is_fixed`](super::SpeedFacts::map_is_fixed)): an overlap test there, in the same world, asks only what
    /// moves (a pure function of place, shape and world: replays and restored states give
    /// the same results with or without it).
    fixed_free: Option<FreePlace>,
    /// The last ground probe ([`ground::probe_ground`]) and where it was made, in a world
    /// where nothing moves ([`SpeedFacts::moves_nothing`](super::SpeedFacts::moves_nothing)): a probe from the same place in the
    /// same world finds the same (a tick that ends with a probe, in the air, starts the
    /// next from where it ended).
    ground_memo: Option<(FreePlace, Ground)>,
    /// The last snap's downward sweep and where it started, in a world where nothing moves:
    /// a character standing still sweeps the same every tick.
    snap_memo: Option<(FreePlace, Trace)>,
    /// The last wall memory checked ([`CharacterController::walls_still_touched`]), where, and what was
    /// kept, in a world where nothing moves.
    walls_memo: Option<(FreePlace, WallContacts, WallContacts)>,
    /// Where the unstuck table was last searched in a world with a named fixed solid, and
    /// which of its offsets overlap that solid there (one bit each; sized when the
    /// controller is made, so a search allocates nothing).
    stuck_place: Option<FreePlace>,
    fixed_blocked: Vec<u64>,
    /// The world's brushes near the character, gathered when each tick begins (issue 18):
    /// the tick's sweeps read them instead of walking the tree, with the same results.
    /// Boxed, so a tick takes it out by moving a pointer; `None` only while a tick runs.
    tick_cache: Option<Box<TickCache>>,
    /// Whether ticks gather and read `tick_cache` (always, but for the tests that
    /// compare against ticks without it).
    use_tick_cache: bool,
    /// The trigger set a tick ends in is built here, then swapped with the state's (so the
    /// two lists keep their capacity and a tick allocates nothing once they have held
    /// their most).
    pub(crate) trigger_scratch: TriggerList,
    /// What a game's movement profile keeps between its ticks ([`super::games`]).
    profile: super::games::ProfileMemo,
}

/// The shortest command [`CharacterController::step_msec`] runs, ms (Quake 3
/// `PmoveSingle`: `if ( pml.msec < 1 ) pml.msec = 1`).
const MIN_COMMAND_MSEC: u32 = 1;

/// The longest command [`CharacterController::step_msec`] runs, ms (Quake 3
/// `PmoveSingle`: `else if ( pml.msec > 200 ) pml.msec = 200`).
const MAX_COMMAND_MSEC: u32 = 200;

/// [`CharacterState::air_ticks`] after a jump, launch or teleport: no coyote jump.
pub(crate) const LAUNCHED: u32 = u32::MAX;

/// The living character's shape `height` tall and its offset, as [`shape_for`] gives it,
/// but for QuakeWorld's movement the box its clip hull 1 was grown by, whatever the
/// configuration says (`games/quakeworld/physents.rs`: the body a crowd meets).
fn body_for(config: &ControllerConfig, height: f32) -> Option<(TraceShape, Vec3)> {
    if config.movement == Movement::QuakeWorld {
        return Some((super::games::quakeworld::quakeworld_body(), Vec3::ZERO));
    }
    shape_for(config, height)
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
            // As tall as it is wide: a sphere, whose contacts the sweep finds exactly; a
            // corpse lower than the capsule is wide is a sphere as tall as the corpse.
            let radius = radius.min(0.5 * height);
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
pub(crate) fn accelerate(velocity: Vec3, wish_dir: Vec3, wish_speed: f32, accel_dt: f32) -> Vec3 {
    air_accelerate(velocity, wish_dir, wish_speed, accel_dt, None)
}

/// [`accelerate`] with Source's air speed cap (`AirAccelerate`): the speed counted against
/// the velocity along the wish is at most `cap`, while the step keeps the full wish.
fn air_accelerate(
    velocity: Vec3,
    wish_dir: Vec3,
    wish_speed: f32,
    accel_dt: f32,
    cap: Option<f32>,
) -> Vec3 {
    let counted = cap.map_or(wish_speed, |cap| wish_speed.min(cap));
    let add = counted - velocity.dot(wish_dir);
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

/// The input the tick's 3-D moves read (swimming, ladders, fly, noclip, the water jump's
/// facing): the wish at most 1 long, or the command's whole-view wish (then no command is
/// left in it, so nothing reads the command twice).
fn sanitize(input: &MoveInput) -> MoveInput {
    let wish = input.command.map_or(input.wish, |c| c.view_wish());
    MoveInput {
        wish: at_most_unit(wish),
        jump: input.jump,
        crouch: input.crouch,
        command: None,
    }
}

/// The wish of walking and the air: the wish's horizontal part at its own length, or the
/// command's flattened view (Quake 3 `PM_WalkMove`), at most 1 long.
fn walk_wish(input: &MoveInput) -> Vec3 {
    let wish = input
        .command
        .map_or(input.wish.with_z(0.0), |c| c.walk_wish());
    at_most_unit(wish)
}

/// `wish` at most 1 long (longer ones normalized), zero when not finite.
pub(crate) fn at_most_unit(wish: Vec3) -> Vec3 {
    if !wish.is_finite() {
        Vec3::ZERO
    } else if wish.length_squared() > 1.0 {
        wish.normalize_or_zero()
    } else {
        wish
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
