//! What one tick takes, gives and keeps: [`MoveInput`], [`MoveOutcome`] with its
//! [`TouchList`], and [`CharacterState`] with its [`WallContacts`], [`MoveMode`] and
//! [`Activity`].
//!
//! Takes nothing; gives plain data with fixed capacity (no allocation per tick). Guarantees:
//! a touch list holds each (model or character, plane) once, in hit order, at most
//! `MAX_TOUCHES` (32); wall contacts hold distinct normals, at most `MAX_CLIP_PLANES` (5);
//! the state serializes with serde, floats as they are (a format that keeps f32 bits, such
//! as postcard or JSON read back as f32, restores it exactly).

use std::mem::MaybeUninit;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::command::MoveCommand;
use super::ground::Ground;
use super::ids::{TriggerList, TriggerReport};
use crate::compiled::MaterialId;
use crate::compiled::Plane;
use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use crate::tolerance::{CONE_SLACK, MAX_CLIP_PLANES, MAX_TOUCHES, SAME_PLANE_DOT};
use crate::trace::{HitTarget, Trace};

/// What the player asks for in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInput {
    /// Wanted direction and strength, in the world frame, length at most 1 (longer is
    /// normalized; non-finite values are ignored). Walking uses x and y only; swimming,
    /// climbing a ladder, noclip and fly use z too (Quake 3's `upmove`), and the
    /// horizontal part is the way the character faces for the water jump and ladders.
    pub wish: Vec3,
    /// The jump key is down. A jump happens when it goes down (no pogo); in water it swims
    /// up (Quake 3 `upmove` +127), on a ladder it jumps off.
    pub jump: bool,
    /// The crouch key is down (in water and in fly or noclip mode it also moves down).
    pub crouch: bool,
    /// A player's command (view angles and moves). When given, it replaces `wish`: the
    /// tick turns it into the wish once it knows how the character moves, as Quake 3 does
    /// (walking and the air use the flattened view, so pitch never changes ground speed;
    /// swimming, ladders, fly and noclip use the whole view). `None` (default): `wish`, for
    /// scripted movement.
    pub command: Option<MoveCommand>,
}

impl MoveInput {
    /// The input of a player's `command`, no button down (set `jump` and `crouch` after).
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{CharacterController, ControllerConfig, MoveCommand, MoveInput};
    /// let world = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// let mut player = CharacterController::new(ControllerConfig::default(), Vec3::new(0.0, 0.0, 24.0))?;
    /// // Running along +y while looking 45° down.
    /// let run = MoveInput::from_command(MoveCommand { pitch: 45.0, yaw: 90.0, forward: 1.0, ..MoveCommand::default() });
    /// for _ in 0..100 {
    ///     player.step(&world, &run);
    /// }
    /// assert!(player.position().y > 50.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn from_command(command: MoveCommand) -> Self {
        MoveInput {
            command: Some(command),
            ..MoveInput::default()
        }
    }
}

/// How the character moves, as the game set it ([`crate::controller::CharacterController::set_mode`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveMode {
    /// Walks, swims and climbs ladders, as the world's contents decide.
    #[default]
    Walk,
    /// Flies through everything: no trace, no gravity (Quake 3 `PM_NoclipMove`).
    Noclip,
    /// Flies and collides, no gravity (Quake 3 `PM_FlyMove`, the spectator).
    Fly,
    /// Does not move at all, not even by gravity (Quake 3 `PM_FREEZE`).
    Frozen,
    /// A corpse (Quake 3 `PM_DEAD`): the input is ignored, the shape is the dead box
    /// ([`ControllerConfig::dead_height`](crate::controller::ControllerConfig::dead_height)),
    /// and on walkable ground the speed drops by
    /// [`ControllerConfig::dead_friction`](crate::controller::ControllerConfig::dead_friction)
    /// instead of the ground friction (`PM_DeadMove`); it falls, sinks and slides as a
    /// walker does.
    Dead,
}

impl MoveMode {
    /// The mode's name, as the replay files spell it (`walk`, `noclip`, `fly`, `frozen`,
    /// `dead`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            MoveMode::Walk => "walk",
            MoveMode::Noclip => "noclip",
            MoveMode::Fly => "fly",
            MoveMode::Frozen => "frozen",
            MoveMode::Dead => "dead",
        }
    }

    /// The mode named `name` ([`MoveMode::name`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<MoveMode> {
        [
            MoveMode::Walk,
            MoveMode::Noclip,
            MoveMode::Fly,
            MoveMode::Frozen,
            MoveMode::Dead,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }
}

/// Which move a tick ran (the mode, refined by the world in [`MoveMode::Walk`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activity {
    /// Walking or in the air (water level 0 or 1); a corpse too.
    #[default]
    Walk,
    /// Swimming (water level 2 or 3), or the water jump out of it; a corpse in water too.
    Swim,
    /// On a ladder.
    Ladder,
    /// Noclip.
    Noclip,
    /// Fly.
    Fly,
    /// Frozen.
    Frozen,
}

impl Activity {
    /// The name the replay files use: `walk`, `swim`, `ladder`, `noclip`, `fly`, `frozen`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Activity::Walk => "walk",
            Activity::Swim => "swim",
            Activity::Ladder => "ladder",
            Activity::Noclip => "noclip",
            Activity::Fly => "fly",
            Activity::Frozen => "frozen",
        }
    }
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
    /// What was touched: the world, a submodel or a character (then `contents` is
    /// [`Contents::BODY`]).
    pub target: HitTarget,
    /// The surface flags of the side hit.
    pub surface: SurfaceFlags,
    /// The material of the side hit.
    pub material: Option<MaterialId>,
}

/// The planes hit in one tick, in the order they were hit, each once (same target and plane),
/// at most `MAX_TOUCHES` (32) (Quake 3's `touchents`). Fixed capacity: no allocation. Two
/// lists are equal when their touches are.
///
/// Making an empty list writes only its length, not its 32 slots (2 KB): a slot is written
/// when a touch is pushed into it, so a tick's outcome costs what its touches cost.
#[derive(Clone, Copy)]
pub struct TouchList {
    /// The slots; the first `len` hold touches, the others are never read.
    items: [MaybeUninit<Touch>; MAX_TOUCHES],
    /// How many slots hold touches: at most `MAX_TOUCHES`, raised only after a slot is
    /// written ([`TouchList::push`]), otherwise only lowered.
    len: usize,
}

impl Default for TouchList {
    fn default() -> Self {
        TouchList {
            items: [const { MaybeUninit::uninit() }; MAX_TOUCHES],
            len: 0,
        }
    }
}

impl PartialEq for TouchList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
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
        let written = &self.items[..self.len.min(MAX_TOUCHES)];
        // SAFETY: the first `len` slots hold touches (`push` writes a slot before it raises
        // `len`; nothing else raises it), and `MaybeUninit<Touch>` has the layout of
        // `Touch`, so a slice of written slots is a slice of touches (as
        // `MaybeUninit::slice_assume_init_ref`, not yet stable, does).
        unsafe { &*(std::ptr::from_ref(written) as *const [Touch]) }
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

    pub(crate) fn push(&mut self, trace: &Trace) {
        let (Some(normal), Some(plane)) = (trace.normal, trace.plane) else {
            return;
        };
        let touch = Touch {
            normal,
            plane,
            contents: trace.contents,
            target: trace.target.unwrap_or(HitTarget::World),
            surface: trace.surface,
            material: trace.material,
        };
        let seen = self
            .as_slice()
            .iter()
            .any(|t| t.target == touch.target && t.plane == touch.plane);
        if !seen && let Some(slot) = self.items.get_mut(self.len) {
            *slot = MaybeUninit::new(touch);
            self.len += 1;
        }
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Empties the list (the slots beyond the length are never read).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

/// The walls the character is against, as unit normals (at most `MAX_CLIP_PLANES` (5)). The
/// wish is kept from pushing into them, so the speed along a wall is the wish's share along
/// it: never more than the wish, and the same at every tick rate (Quake's accelerate would
/// otherwise keep adding speed along a wall the player pushes into at an angle, on every
/// other tick). A wall is kept from one tick to the next only while a short probe towards it
/// still hits it, so walking past a wall's end frees the wish at once.
///
/// Part of [`CharacterState`], so a replay or a rewind restores it; it serializes as the list
/// of its normals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(into = "Vec<Vec3>", try_from = "Vec<Vec3>")]
pub struct WallContacts {
    normals: [Vec3; MAX_CLIP_PLANES],
    len: usize,
}

impl From<WallContacts> for Vec<Vec3> {
    fn from(walls: WallContacts) -> Vec<Vec3> {
        walls.normals().to_vec()
    }
}

impl TryFrom<Vec<Vec3>> for WallContacts {
    type Error = &'static str;

    fn try_from(normals: Vec<Vec3>) -> Result<WallContacts, &'static str> {
        WallContacts::from_normals(&normals)
            .ok_or("at most 5 finite wall normals, each of unit length")
    }
}

impl WallContacts {
    /// Walls from their unit normals, kept in order (a normal within
    /// `SAME_PLANE_DOT` of one already listed is merged into it, as the controller does);
    /// `None` for more than `MAX_CLIP_PLANES` (5) normals, or one that is not finite or not
    /// of unit length (within 1e-3), so a state read from a file is one the controller
    /// could have made.
    ///
    /// ```
    /// use glam::Vec3;
    /// use planeshift::movement::WallContacts;
    /// let walls = WallContacts::from_normals(&[Vec3::X, -Vec3::Y]).unwrap();
    /// assert_eq!(walls.normals(), &[Vec3::X, -Vec3::Y]);
    /// assert!(WallContacts::from_normals(&[Vec3::new(2.0, 0.0, 0.0)]).is_none());
    /// ```
    #[must_use]
    pub fn from_normals(normals: &[Vec3]) -> Option<WallContacts> {
        let unit = |n: &Vec3| n.is_finite() && (n.length() - 1.0).abs() <= UNIT_NORMAL_SLACK;
        if normals.len() > MAX_CLIP_PLANES || !normals.iter().all(unit) {
            return None;
        }
        let mut walls = WallContacts::default();
        for n in normals {
            walls.push(*n);
        }
        Some(walls)
    }

    /// The walls' unit normals.
    #[must_use]
    pub fn normals(&self) -> &[Vec3] {
        &self.normals[..self.len]
    }

    pub(crate) fn push(&mut self, normal: Vec3) {
        let known = self
            .normals()
            .iter()
            .any(|n| n.dot(normal) > SAME_PLANE_DOT);
        if !known && self.len < MAX_CLIP_PLANES {
            self.normals[self.len] = normal;
            self.len += 1;
        }
    }

    pub(crate) fn merge(&mut self, other: &WallContacts) {
        for n in other.normals() {
            self.push(*n);
        }
    }

    /// `wish` (horizontal) without the parts that push into the walls.
    pub(crate) fn clip_wish(&self, wish: Vec3) -> Vec3 {
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

/// How far from 1 the length of a wall normal read back from a file may be (unitless): f32
/// unit vectors are within a few ulps of 1; anything farther was not made by the controller.
const UNIT_NORMAL_SLACK: f32 = 1e-3;

/// What one tick did, besides moving the character.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Which move ran.
    pub activity: Activity,
    /// The water level at the end of the tick: 0 dry, 1 feet, 2 waist, 3 eyes (Quake 3
    /// `PM_SetWaterLevel`). A landing's water level is this one.
    pub water_level: u8,
    /// The liquid at the lowest wet sample point ([`Contents::MASK_LIQUID`] bits: water,
    /// slime or lava); empty when dry. Damage is the game's.
    pub liquid: Contents,
    /// Everything at the water level's sample points (feet + 1, waist, eyes) at the end of
    /// the tick.
    pub contents: Contents,
    /// A water jump started this tick (Quake 3 `PM_CheckWaterJump`).
    pub water_jumped: bool,
    /// The ground's surface flags and material at the end of the tick (empty in the air).
    pub ground_surface: SurfaceFlags,
    /// The ground's material at the end of the tick.
    pub ground_material: Option<MaterialId>,
    /// The surface flags of everything touched this tick, the ground included.
    pub surfaces: SurfaceFlags,
    /// The trigger models touched this tick, entered and left (Quake 3 `G_TouchTriggers`,
    /// with Source's start and end of touch); empty in noclip.
    pub triggers: TriggerReport,
}

impl MoveOutcome {
    /// Makes this the outcome of a tick that did nothing yet, as
    /// [`MoveOutcome::default`] but keeping the trigger lists' capacity.
    pub(crate) fn reset(&mut self) {
        // Every field by name: a new field must be reset here too.
        let MoveOutcome {
            touches,
            climbed,
            snapped,
            jumped,
            landed,
            unstuck_probes,
            stuck,
            activity,
            water_level,
            liquid,
            contents,
            water_jumped,
            ground_surface,
            ground_material,
            surfaces,
            triggers,
        } = self;
        touches.clear();
        *climbed = 0.0;
        *snapped = 0.0;
        *jumped = false;
        *landed = None;
        *unstuck_probes = None;
        *stuck = false;
        *activity = Activity::default();
        *water_level = 0;
        *liquid = Contents::EMPTY;
        *contents = Contents::EMPTY;
        *water_jumped = false;
        *ground_surface = SurfaceFlags::EMPTY;
        *ground_material = None;
        *surfaces = SurfaceFlags::EMPTY;
        triggers.touched.clear();
        triggers.entered.clear();
        triggers.left.clear();
    }
}

/// `seconds` in whole microseconds, rounded to nearest: the unit of the state's timers of
/// command time ([`CharacterState::water_jump_us`], [`CharacterState::tick_carry_us`]).
/// Saturating: a time beyond `u32::MAX` µs (71 minutes) is that, a negative or NaN one 0
/// (Rust's float-to-integer `as`).
pub(crate) fn microseconds(seconds: f32) -> u32 {
    (f64::from(seconds) * 1e6).round() as u32
}

/// The moving state of a character: everything a replay needs. Restoring it
/// ([`crate::controller::CharacterController::set_state`]) into a controller of the same
/// configuration continues the run bit for bit; it serializes with serde (field names as
/// here, the wall memory and the trigger set as lists). A state saved before the water jump
/// counted microseconds (its key `water_jump_ticks`) reads back when no water jump was
/// running (the count 0, nearly every save); mid-jump it is refused with an error naming
/// the key, since the state does not say how long its ticks were.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SavedState")]
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
    /// The mode the game set.
    pub mode: MoveMode,
    /// The water level found at the end of the last tick (0 to 3).
    pub water_level: u8,
    /// The liquid found at the end of the last tick ([`Contents::MASK_LIQUID`] bits).
    pub liquid: Contents,
    /// The ladder the character is on: its unit normal, facing the character.
    pub ladder: Option<Vec3>,
    /// Ticks left during which ground friction does not apply (Quake 3
    /// `PMF_TIME_KNOCKBACK`), after a knockback or a teleport.
    pub hold_ticks: u32,
    /// Microseconds left of a water jump (Quake 3 `PMF_TIME_WATERJUMP` with `pm_time`,
    /// which counts milliseconds): no control, gravity. Counted down by each command's own
    /// duration ([`crate::controller::CharacterController::step_msec`] or the configured
    /// tick), so the jump lasts `water_jump_time` of commands whatever their lengths.
    pub water_jump_us: u32,
    /// Ticks since the character last stood on walkable ground, saturating (coyote time).
    pub air_ticks: u32,
    /// Ticks since the jump key last went down, saturating (jump buffering).
    pub press_ticks: u32,
    /// How many times the character was teleported (Quake 3 `EF_TELEPORT_BIT`, counted).
    pub teleports: u32,
    /// Launched since the last tick ([`crate::controller::CharacterController::launch`]):
    /// the next tick starts in the air whatever the ground probe finds.
    pub launched: bool,
    /// Everything at the water level's sample points at the end of the last tick (what a
    /// frozen tick reports).
    pub contents: Contents,
    /// The trigger models the shape was in at the end of the last tick: a tick's
    /// [`TriggerReport`] says which it entered and left against these.
    pub triggers: TriggerList,
    /// Microseconds of command time not yet counted on the timers, which count the
    /// configuration's ticks ([`crate::controller::CharacterController::step_msec`]); below
    /// one tick.
    pub tick_carry_us: u32,
    /// What a game's movement profile keeps between its commands
    /// ([`ControllerConfig::movement`](crate::ControllerConfig::movement)); all zero under
    /// planeshift's own movement, which never reads it. A state saved before it existed
    /// reads back with it zero.
    pub profile: ProfileState,
}

/// The per-game state a movement profile keeps between ticks, beside the fields of
/// [`CharacterState`] that every movement shares (position, velocity, ground, crouched, jump
/// held). Which fields a game uses is its profile's business (`controller/games`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProfileState {
    /// The game's movement flags (Quake 3 `pm_flags`: `PMF_DUCKED` 1, `PMF_JUMP_HELD` 2,
    /// `PMF_TIME_LAND` 32, `PMF_TIME_KNOCKBACK` 64, `PMF_TIME_WATERJUMP` 256).
    pub flags: u32,
    /// The game's timer in milliseconds (Quake 3 `pm_time`).
    pub time_ms: i32,
    /// The buttons of the last command (QuakeWorld `oldbuttons`).
    pub buttons: u32,
    /// A game's float timer as its f32 bits, so it continues bit for bit (QuakeWorld's
    /// `waterjumptime`, seconds).
    pub timer_bits: u32,
}

/// Every field is `Copy` but the trigger list, which [`Clone::clone_from`] refills in place
/// (a state saved into the same place every tick allocates nothing).
impl Clone for CharacterState {
    fn clone(&self) -> Self {
        CharacterState {
            triggers: self.triggers.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let mut triggers = std::mem::take(&mut self.triggers);
        triggers.clone_from(&source.triggers);
        *self = CharacterState {
            triggers,
            ..*source
        };
    }
}

/// [`CharacterState`] as read from a save: the same fields, with the water jump's timer
/// under its key of today (`water_jump_us`) or of older saves (`water_jump_ticks`).
#[derive(Deserialize)]
struct SavedState {
    position: Vec3,
    velocity: Vec3,
    ground: Ground,
    crouched: bool,
    jump_held: bool,
    land_timer: f32,
    walls: WallContacts,
    mode: MoveMode,
    water_level: u8,
    liquid: Contents,
    ladder: Option<Vec3>,
    hold_ticks: u32,
    water_jump_us: Option<u32>,
    water_jump_ticks: Option<u32>,
    air_ticks: u32,
    press_ticks: u32,
    teleports: u32,
    launched: bool,
    contents: Contents,
    triggers: TriggerList,
    tick_carry_us: u32,
    #[serde(default)]
    profile: ProfileState,
}

impl TryFrom<SavedState> for CharacterState {
    type Error = String;

    fn try_from(s: SavedState) -> Result<CharacterState, String> {
        let water_jump_us = match (s.water_jump_us, s.water_jump_ticks) {
            (Some(us), None) | (Some(us), Some(0)) | (None, Some(us @ 0)) => us,
            (_, Some(ticks)) => {
                return Err(format!(
                    "water_jump_ticks {ticks}: a state saved mid water jump before the timer \
                     counted microseconds (water_jump_us); the state does not say how long its \
                     ticks were, so it cannot be read"
                ));
            }
            (None, None) => return Err("missing field `water_jump_us`".to_string()),
        };
        Ok(CharacterState {
            position: s.position,
            velocity: s.velocity,
            ground: s.ground,
            crouched: s.crouched,
            jump_held: s.jump_held,
            land_timer: s.land_timer,
            walls: s.walls,
            mode: s.mode,
            water_level: s.water_level,
            liquid: s.liquid,
            ladder: s.ladder,
            hold_ticks: s.hold_ticks,
            water_jump_us,
            air_ticks: s.air_ticks,
            press_ticks: s.press_ticks,
            teleports: s.teleports,
            launched: s.launched,
            contents: s.contents,
            triggers: s.triggers,
            tick_carry_us: s.tick_carry_us,
            profile: s.profile,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    /// A seeded draw in `0..n`.
    fn below(rng: &mut XorShift, n: u64) -> u64 {
        u64::from(rng.next_u32()) % n
    }

    /// A hit on one of a few planes of one of a few models (so pushes repeat), now and
    /// then on a character or without a plane.
    fn hit(rng: &mut XorShift) -> Trace {
        let mut trace = Trace::miss(Vec3::ZERO);
        let axis = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z];
        let normal = axis[below(rng, 6) as usize];
        let plane = Plane {
            normal,
            dist: below(rng, 8) as f32 * 16.0,
        };
        if below(rng, 10) > 0 {
            trace.normal = Some(normal);
            trace.plane = Some(plane);
        }
        trace.target = Some(HitTarget::of_model(below(rng, 4) as usize));
        trace.contents = Contents::SOLID;
        trace.material = (below(rng, 2) == 0).then_some(MaterialId(below(rng, 3) as u32));
        if below(rng, 8) == 0 {
            trace.target = Some(HitTarget::Character(below(rng, 3) as u32));
        }
        trace
    }

    /// The list as a plain vector: each (target, plane) once, in push order,
    /// at most `MAX_TOUCHES`.
    fn model_push(model: &mut Vec<Touch>, trace: &Trace) {
        let (Some(normal), Some(plane)) = (trace.normal, trace.plane) else {
            return;
        };
        let target = trace.target.unwrap_or(HitTarget::World);
        let seen = model.iter().any(|t| t.target == target && t.plane == plane);
        if !seen && model.len() < MAX_TOUCHES {
            model.push(Touch {
                normal,
                plane,
                contents: trace.contents,
                target,
                surface: trace.surface,
                material: trace.material,
            });
        }
    }

    /// The list whose empty slots are never written reads back exactly what a vector holds,
    /// through 4,000 seeded runs of pushes (repeats, full lists), truncations, clears,
    /// copies and clones, and compares as its touches do.
    #[test]
    fn touch_list_reads_back_what_was_pushed() {
        let mut rng = XorShift::new(0x7041_c415);
        let mut longest = 0;
        for _ in 0..4_000 {
            let mut list = TouchList::default();
            let mut model = Vec::new();
            for _ in 0..below(&mut rng, 120) {
                match below(&mut rng, 20) {
                    0 => {
                        let len = below(&mut rng, 40) as usize;
                        list.truncate(len);
                        model.truncate(len);
                    }
                    1 => {
                        list.clear();
                        model.clear();
                    }
                    2 => {
                        let copy = list;
                        // Clone is part of the public API too (derived with Copy).
                        #[allow(clippy::clone_on_copy)]
                        let clone = list.clone();
                        assert_eq!(copy.as_slice(), list.as_slice());
                        assert_eq!(clone, list);
                        list = copy;
                    }
                    _ => {
                        let trace = hit(&mut rng);
                        list.push(&trace);
                        model_push(&mut model, &trace);
                    }
                }
                assert_eq!(list.as_slice(), model.as_slice());
                assert_eq!(list.len(), model.len());
                assert_eq!(list.is_empty(), model.is_empty());
                longest = longest.max(list.len());
            }
            let mut other = TouchList::default();
            for touch in &model {
                let mut trace = Trace::miss(Vec3::ZERO);
                trace.normal = Some(touch.normal);
                trace.plane = Some(touch.plane);
                trace.contents = touch.contents;
                trace.target = Some(touch.target);
                trace.material = touch.material;
                other.push(&trace);
            }
            assert_eq!(other, list);
            assert_eq!(format!("{other:?}"), format!("{model:?}"));
        }
        // The runs filled lists to the cap.
        assert_eq!(longest, MAX_TOUCHES);
    }
}
