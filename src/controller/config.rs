//! The controller's tunables: one plain struct with mostly Quake 3's defaults (its docs
//! name the ones that are not, and why), loadable from TOML.
//!
//! Takes nothing or TOML text; gives a validated [`ControllerConfig`]. Guarantees: every value
//! a controller is built from is finite and in range ([`ControllerConfig::validate`]), so the
//! movement code never divides by zero or loops on a NaN. Units are Quake map units (about an
//! inch), seconds, units per second and units per second squared; Z is up.

use serde::{Deserialize, Serialize};

use crate::contents::Contents;
use crate::filter::CollisionGroups;
use crate::tolerance::{
    MAX_CHARACTER_HALF_WIDTH, MAX_CHARACTER_HEIGHT, MAX_CONFIG_ACCELERATION, MAX_CONFIG_DELAY,
    MAX_CONFIG_RATE, MAX_CONFIG_SPEED, MAX_STEP_TREAD_FRACTION, MAX_TICK, MIN_TICK,
};

/// How a tick's end state is quantized for the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NetworkSnap {
    /// Nothing: the f32 state as it is.
    #[default]
    None,
    /// Quake 3: each velocity component rounded to the nearest integer, ties to even (what
    /// `snapvector.nasm`'s `fistp` does in the FPU's default mode). The origin is kept.
    Quake3Velocity,
    /// Quake 2: velocity and origin in eighths of a unit, truncated toward zero; the origin
    /// tries the roundings away from zero too, in Quake 2's order, and keeps the first whose
    /// shape is free.
    Quake2Grid,
}

/// Whose movement code a character's tick runs ([`ControllerConfig::movement`]).
///
/// A profile is that game's player movement as its code does it, in its order, with its
/// numbers and its quirks, over planeshift's sweeps (`controller/games`); the configuration
/// fields it reads are named in its constructor ([`ControllerConfig::quake3`]). Adding a
/// game is one variant here, its constructor, its arm in `games::step` and its module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Movement {
    /// planeshift's own movement (the default): Quake 3's order with exact sweeps and the
    /// configuration's options (see the README's differences table).
    #[default]
    #[serde(rename = "planeshift")]
    Planeshift,
    /// Quake 3's `PmoveSingle` (ioquake3 `bg_pmove.c`, `bg_slidemove.c`): TOML `movement =
    /// "quake3"`, [`ControllerConfig::quake3`].
    #[serde(rename = "quake3")]
    Quake3,
    /// QuakeWorld's `SV_RunCmd` and `PlayerMove` (id's `pmove.c`, `pmovetst.c`), the player
    /// walked through the level's own clip hull 1 when it keeps one (an imported Quake 1
    /// family `.bsp`), otherwise the hull's box swept through the brushes (a `.map`, any
    /// other level): TOML `movement = "quakeworld"`, [`ControllerConfig::quakeworld`].
    /// The character's body is then the box hull 1 was grown by, (−16,−16,−24)–(16,16,32)
    /// about the origin, whatever `shape` and the heights say, so a crowd meets it as the
    /// game's `physents` do.
    #[serde(rename = "quakeworld")]
    QuakeWorld,
}

impl Movement {
    /// The name TOML and the command lines use: `planeshift`, `quake3`, `quakeworld`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Movement::Planeshift => "planeshift",
            Movement::Quake3 => "quake3",
            Movement::QuakeWorld => "quakeworld",
        }
    }

    /// The movement named `name` (as [`Self::name`] gives it), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Movement> {
        [Movement::Planeshift, Movement::Quake3, Movement::QuakeWorld]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// The shape the character sweeps, around its origin (the origin sits
/// [`ControllerConfig::feet_to_origin`] above the feet).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CharacterShape {
    /// An axis-aligned box of this half width on x and y (Quake 3: 15, so 30 wide). Boxes are
    /// swept exactly, so stairs, walls and floors are met flush.
    Box {
        /// Half the width on x and y, in units; in (0, 2048].
        half_width: f32,
    },
    /// A vertical cylinder of this radius. Flat bottom and top like the box, round in plan,
    /// so it slides round outside corners; edge hits may stop up to a few percent of the
    /// radius early (see `trace`).
    Cylinder {
        /// Radius, in units; in (0, 2048].
        radius: f32,
    },
    /// A vertical capsule of this radius (its height is the character's height, at least
    /// twice the radius; equal makes a sphere). Rounded feet roll over lips without stepping
    /// but never rest flush on an edge; see the README's controller notes.
    Capsule {
        /// Radius, in units; in (0, 2048].
        radius: f32,
    },
}

impl CharacterShape {
    /// The horizontal half extent: the box's half width or the cylinder's radius.
    #[must_use]
    pub fn half_width(&self) -> f32 {
        match *self {
            CharacterShape::Box { half_width } => half_width,
            CharacterShape::Cylinder { radius } | CharacterShape::Capsule { radius } => radius,
        }
    }
}

/// Which jump key state jumps ([`ControllerConfig::jump_key`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JumpKey {
    /// Only a key that goes down jumps (Source `CheckJumpButton`): a key pressed in the air
    /// and held through the landing does not.
    #[default]
    Press,
    /// The key must be released between jumps (Quake 3 `PMF_JUMP_HELD`, QuakeWorld, Quake
    /// 2): released after a jump and held again at any time before landing, it jumps on the
    /// landing tick.
    Held,
}

/// How ladders are climbed ([`ControllerConfig::ladder_rule`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LadderRule {
    /// Source `LadderMove` (default): attach with a 2-unit probe along the wish (then along
    /// the ladder's normal); the velocity is the wish at `ladder_speed` with its part into
    /// the ladder turned into up (level view into it: 200 up); jump leaves at
    /// `ladder_jump_speed` along the normal; no gravity, friction or steps.
    #[default]
    Source,
    /// Quake 2 `PM_CheckSpecialMovement`: attach with a 1-unit probe along the facing; the
    /// wish pitched 15° or more up or down (or jump, crouch) climbs at `ladder_speed`, the
    /// horizontal wish is held to ±25 per axis, ground friction and acceleration apply,
    /// an idle climber's vertical speed is pulled to 0, and steps are taken. Jump climbs.
    Quake2,
}

/// How a character moves: every field in Quake units. Each field's documentation says where
/// its default comes from; most are Quake 3's (Quake III Arena `bg_pmove.c`, `bg_local.h`).
///
/// The defaults that differ from Quake 3's own movement, and why:
///
/// | field | default | Quake 3 | why |
/// |---|---|---|---|
/// | `jump_key` | [`JumpKey::Press`] (Source) | [`JumpKey::Held`] | a held key never re-jumps by surprise; Quake 3's rule is one setting away |
/// | `air_step_falling` | off | steps while falling | a falling character does not pop onto ledges |
/// | `network_snap` | none | integer velocity (`SnapVector`) | the f32 state needs no snapping unless a network sends it |
/// | `min_step_tread` | 0.5 of the width (Rapier) | none | no climbing onto ledges too narrow to stand on |
/// | `airborne_rise_speed` | 140 (Source) | none | a ramp hit at speed launches instead of braking |
/// | `ladder_rule`, `ladder_speed`, `ladder_jump_speed` | Source's | no ladders | Quake 3 has none |
/// | `current_speed` | 400 (Quake 2) | no currents | Quake 3 has none |
///
/// The other tuning that is not Quake 3's is off by default: `air_wish_cap` (QuakeWorld's
/// 30-unit air wish cap, which Source keeps), `max_velocity`, `auto_hop`, `coyote_time`,
/// `jump_buffer`, `current_push`.
///
/// Loads from TOML with `ControllerConfig::from_toml` (feature `toml`) or from any serde
/// format followed by [`ControllerConfig::validate`]; a missing field keeps its default,
/// an unknown field is an error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ControllerConfig {
    /// Whose movement code the tick runs: planeshift's own (default) or a game's profile
    /// ([`Movement`]). A profile reads the fields its constructor names (for Quake 3: the
    /// box, heights, speeds, accelerations, friction, gravity, jump, step, tick, mask) and
    /// ignores planeshift's options.
    pub movement: Movement,
    /// The swept shape. Default: Quake 3's 30-wide box.
    pub shape: CharacterShape,
    /// Height of the standing shape, feet to head (Quake 3: 56). At least
    /// `crouch_height`.
    ///
    /// In (0, 4096] units.
    pub stand_height: f32,
    /// Height of the crouched shape (Quake 3: 40). The feet stay put when crouching on the
    /// ground; in the air the head stays and the feet tuck up (Source).
    ///
    /// In (0, 4096] units, at most `stand_height`.
    pub crouch_height: f32,
    /// How far the origin sits above the feet (Quake 3: 24, so the box is −24..32 around it).
    ///
    /// In [0, 4096] units, at most `crouch_height`.
    pub feet_to_origin: f32,
    /// Tallest riser climbed without jumping (Quake 3 `STEPSIZE` 18). Also the distance the
    /// character is snapped down to walkable ground when walking off a step or down a slope.
    /// Too large and the character teleports up and down ledges.
    ///
    /// In [0, 4096] units, below `crouch_height`.
    pub step_height: f32,
    /// Smallest tread accepted when stepping up, as a fraction of the shape's width (Rapier's
    /// `min_width` 0.5; Quake 3 has no minimum): a riser topped by a ledge narrower than this
    /// is not climbed.
    ///
    /// In [0, 4].
    pub min_step_tread: f32,
    /// Ground whose normal z is at least this is walkable (Quake 3 `MIN_WALK_NORMAL` 0.7,
    /// about 45.57°); steeper ground is slid down.
    ///
    /// In (0, 1].
    pub walkable_normal_z: f32,
    /// Gravity, units/s² (Quake 3 800).
    ///
    /// In [0, 100000] units/s².
    pub gravity: f32,
    /// Upward speed of a jump, units/s (Quake 3 270: apex 45.56).
    ///
    /// In [0, 100000] units/s.
    pub jump_speed: f32,
    /// After landing faster than `hard_landing_speed`, jumping waits this long, seconds
    /// (Quake 3 `PMF_TIME_LAND` 0.25).
    ///
    /// In [0, 60] s.
    pub land_jump_delay: f32,
    /// Downward speed above which a landing delays the next jump, units/s (Quake 3 200).
    ///
    /// In [0, 100000] units/s.
    pub hard_landing_speed: f32,
    /// Top running speed, units/s (Quake 3 `g_speed` 320).
    ///
    /// In (0, 100000] units/s.
    pub max_speed: f32,
    /// Ground acceleration, in multiples of the wish speed per second (Quake 3 10).
    ///
    /// In [0, 1000] per second.
    pub accelerate: f32,
    /// Air acceleration, same unit (Quake 3 1: little air control).
    ///
    /// In [0, 1000] per second.
    pub air_accelerate: f32,
    /// Ground friction, per second (Quake 3 6).
    ///
    /// In [0, 1000] per second.
    pub friction: f32,
    /// Friction acts as if the speed were at least this, units/s (Quake 3 100), so slow
    /// characters stop quickly.
    ///
    /// In [0, 100000] units/s.
    pub stop_speed: f32,
    /// Speed multiplier while crouched (Quake 3 `pm_duckScale` 0.25).
    ///
    /// In [0, 1].
    pub crouch_speed_scale: f32,
    /// How far below the feet ground is looked for, units (Quake 3 0.25).
    ///
    /// In [0, 4096] units, at most `step_height` (or 1 when that is smaller).
    pub ground_probe: f32,
    /// Rising faster than this (units/s), and faster than running up the ground could
    /// explain, leaves the ground: a ramp hit at speed launches the character instead of
    /// braking it with friction (Source `NON_JUMP_VELOCITY` 140; Quake 3 has no such rule).
    ///
    /// In [0, 100000] units/s.
    pub airborne_rise_speed: f32,
    /// The fixed tick, seconds (Quake 3 `pmove_msec` 8 ms). Every step advances exactly this.
    ///
    /// In [0.0001, 0.2] s.
    pub tick: f32,
    /// Eye height above the feet when standing, units (Quake 3 `DEFAULT_VIEWHEIGHT` 26 above
    /// the origin, so 50). The water level samples the feet + 1, half this (rounded down, as
    /// Quake 3's integer `sample1`) and this (`PM_SetWaterLevel`).
    ///
    /// In [1, 4096] units.
    pub eye_height: f32,
    /// Eye height above the feet when crouched (Quake 3 `CROUCH_VIEWHEIGHT` 12: 36).
    ///
    /// In [1, 4096] units.
    pub crouch_eye_height: f32,
    /// Height of a corpse's shape ([`MoveMode::Dead`](crate::controller::MoveMode::Dead)),
    /// feet up (Quake 3 `PM_CheckDuck`: the box −24..−8 about the origin, so 16). The feet
    /// stay where they are; the origin may lie above the shape. A capsule shorter than its
    /// width becomes a sphere as tall as this.
    ///
    /// In (0, 4096] units, at most `crouch_height`.
    pub dead_height: f32,
    /// Eye height above the feet of a corpse (Quake 3 `DEAD_VIEWHEIGHT` −16: 8), for the
    /// water level.
    ///
    /// In [1, 4096] units.
    pub dead_eye_height: f32,
    /// How fast a corpse on walkable ground slows down, units/s² (Quake 3 `PM_DeadMove`: 20
    /// per command, 2500 at 8 ms ticks; it replaces the ground friction, so 320 u/s stops
    /// in 16 ticks).
    ///
    /// In [0, 100000] units/s².
    pub dead_friction: f32,
    /// Swimming speed as a fraction of `max_speed` (Quake 3 `pm_swimScale` 0.5). Wading at
    /// water level 1 caps the wish at `max_speed · (1 − (1 − swim_scale)/3)` (Quake 3
    /// `PM_WalkMove`).
    ///
    /// In [0, 1].
    pub swim_scale: f32,
    /// Acceleration in water (Quake 3 `pm_wateraccelerate` 4), as `accelerate`.
    ///
    /// In [0, 1000] per second.
    pub water_accelerate: f32,
    /// Water friction per second and per water level, on the full 3-D speed (Quake 3
    /// `pm_waterfriction` 1).
    ///
    /// In [0, 1000] per second.
    pub water_friction: f32,
    /// Sinking speed of an idle swimmer, units/s (Quake 3 `PM_WaterMove`'s 60).
    ///
    /// In [0, 100000] units/s.
    pub sink_speed: f32,
    /// Upward speed of the water jump out onto a ledge, units/s (Quake 3 350).
    ///
    /// In [0, 100000] units/s.
    pub water_jump_speed: f32,
    /// Forward speed of the water jump, units/s (Quake 3 200).
    ///
    /// In [0, 100000] units/s.
    pub water_jump_forward: f32,
    /// Longest water jump without control, seconds (Quake 3 2000 ms); it ends sooner once
    /// falling or on ground.
    ///
    /// In [0, 60] s.
    pub water_jump_time: f32,
    /// Quake 2 currents: speed added to a swimmer's wish along the current (Quake 2's
    /// `pm_waterspeed` 400 by default; halved at water level 1 on ground; `PM_AddCurrents`;
    /// Quake 3 has no currents). 0 disables.
    ///
    /// In [0, 100000] units/s.
    pub current_speed: f32,
    /// Half-Life and Source currents: speed per water level added to the motion (never
    /// stored in the velocity) along the current (50; `PM_CheckWater`). 0 (default)
    /// disables.
    ///
    /// In [0, 100000] units/s.
    pub current_push: f32,
    /// Climbing speed on a ladder, units/s (Source `MAX_CLIMB_SPEED` 200 by default; Quake 2's
    /// vertical wish 200; Quake 3 has no ladders).
    ///
    /// In [0, 100000] units/s.
    pub ladder_speed: f32,
    /// Which ladder rule climbs: [`LadderRule::Source`] (default) or [`LadderRule::Quake2`].
    pub ladder_rule: LadderRule,
    /// Speed of a jump off a ladder, along its normal, units/s (Source 270; not used by
    /// Quake 2's rule, where jump climbs).
    ///
    /// In [0, 100000] units/s.
    pub ladder_jump_speed: f32,
    /// Speed of noclip and fly modes, units/s (Quake 3: spectators 400).
    ///
    /// In (0, 100000] units/s.
    pub fly_speed: f32,
    /// Fly-mode friction per second on the 3-D speed (Quake 3 `pm_spectatorfriction` 5).
    ///
    /// In [0, 1000] per second.
    pub fly_friction: f32,
    /// Fly-mode acceleration (Quake 3 `pm_flyaccelerate` 8).
    ///
    /// In [0, 1000] per second.
    pub fly_accelerate: f32,
    /// Largest speed along each axis, units/s (Source `sv_maxvelocity` 3500); `None` (the
    /// default, Quake 3) caps nothing. Applied after every velocity change.
    ///
    /// In (0, 100000] units/s.
    pub max_velocity: Option<f32>,
    /// The air wish cap: in the air the wish speed counted against the velocity is at most
    /// this, while the step keeps the full wish, so air-strafing and surfing work. It is
    /// QuakeWorld's (`PM_AirAccelerate` caps the wish at 30 and accelerates with the ground's
    /// `accelerate`), kept by Half-Life and Source (`GetAirSpeedCap` 30, `AirAccelerate`).
    /// `None` (default): Quake 3's air control, which has no cap. With the cap the wall memory does not clip the air wish and steep ground
    /// is not treated as a wall, so a surf ramp is not spoiled.
    ///
    /// In (0, 100000] units/s.
    pub air_wish_cap: Option<f32>,
    /// A held jump key jumps again on every landing (auto-hop). Default off: see `jump_key`.
    pub auto_hop: bool,
    /// Which key state jumps: [`JumpKey::Press`] (default, Source's rule, not Quake 3's:
    /// the key must go down on the ground) or [`JumpKey::Held`] (Quake 3's
    /// `PMF_JUMP_HELD`: released since the last jump, held on landing). `auto_hop` overrides
    /// both.
    pub jump_key: JumpKey,
    /// Coyote time: a jump pressed within this long after leaving walkable ground still
    /// jumps (once), seconds (bevy_ahoy 0.1). 0 (default) disables.
    ///
    /// In [0, 60] s.
    pub coyote_time: f32,
    /// Jump buffer: a press this long before landing jumps on the landing tick, seconds
    /// (bevy_ahoy 0.15). 0 (default) disables.
    ///
    /// In [0, 60] s.
    pub jump_buffer: f32,
    /// Steps up while falling (Quake 3 `PM_StepSlideMove` refuses only while rising), so a
    /// falling character catches a lip up to `step_height` above its feet; the wall memory
    /// then does not clip the air wish (the character keeps pressing into the lip). Default
    /// off, unlike Quake 3: stepping in the air needs walkable ground within a step below.
    pub air_step_falling: bool,
    /// Quantizes the state at the end of every tick, identically on server and client, so
    /// what the network sends is what both sides step from: Quake 3's integer velocity
    /// (`trap_SnapVector`, so `msg.c` sends it in 13 bits) or Quake 2's 1/8-unit grid
    /// (`PM_SnapPosition`). Default none, unlike Quake 3 (which snaps the velocity): the full
    /// f32 state needs no snapping.
    pub network_snap: NetworkSnap,
    /// What blocks the character's movement, brushes and other characters alike, by
    /// contents: [`Contents::MASK_PLAYER_SOLID`] by default; a monster moves with
    /// [`Contents::MASK_MONSTER_SOLID`] (it stops at monster clip and passes player clip), a
    /// bot with [`Contents::MASK_BOT_SOLID`]. Must hold [`Contents::SOLID`]. Serialized as
    /// the bits (a number).
    pub mask: Contents,
    /// The character's collision groups in a crowd: two characters block each other only
    /// when their groups interact ([`CollisionGroups::team`] for teams whose members pass
    /// through each other, [`CollisionGroups::NONE`] for a spectator). Default: every group.
    pub groups: CollisionGroups,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            movement: Movement::Planeshift,
            shape: CharacterShape::Box { half_width: 15.0 },
            stand_height: 56.0,
            crouch_height: 40.0,
            feet_to_origin: 24.0,
            step_height: 18.0,
            min_step_tread: 0.5,
            walkable_normal_z: 0.7,
            gravity: 800.0,
            jump_speed: 270.0,
            land_jump_delay: 0.25,
            hard_landing_speed: 200.0,
            max_speed: 320.0,
            accelerate: 10.0,
            air_accelerate: 1.0,
            friction: 6.0,
            stop_speed: 100.0,
            crouch_speed_scale: 0.25,
            ground_probe: 0.25,
            airborne_rise_speed: 140.0,
            tick: 0.008,
            eye_height: 50.0,
            crouch_eye_height: 36.0,
            dead_height: 16.0,
            dead_eye_height: 8.0,
            dead_friction: 2500.0,
            swim_scale: 0.5,
            water_accelerate: 4.0,
            water_friction: 1.0,
            sink_speed: 60.0,
            water_jump_speed: 350.0,
            water_jump_forward: 200.0,
            water_jump_time: 2.0,
            current_speed: 400.0,
            current_push: 0.0,
            ladder_speed: 200.0,
            ladder_rule: LadderRule::Source,
            ladder_jump_speed: 270.0,
            fly_speed: 400.0,
            fly_friction: 5.0,
            fly_accelerate: 8.0,
            max_velocity: None,
            air_wish_cap: None,
            auto_hop: false,
            jump_key: JumpKey::Press,
            coyote_time: 0.0,
            jump_buffer: 0.0,
            air_step_falling: false,
            network_snap: NetworkSnap::None,
            mask: Contents::MASK_PLAYER_SOLID,
            groups: CollisionGroups::ALL,
        }
    }
}

/// Why a configuration was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The TOML text did not parse or named an unknown field; the parser's error, which says
    /// where, is the source.
    #[cfg(feature = "toml")]
    #[error("controller config: the TOML does not read")]
    Toml(#[source] toml::de::Error),
    /// A field is out of range; names the field and the rule.
    #[error("controller config: `{field}` must be {rule}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What it must satisfy.
        rule: &'static str,
    },
}

impl ControllerConfig {
    /// Quake 3's movement ([`Movement::Quake3`]): ioquake3's `PmoveSingle` with its
    /// numbers, which are this type's defaults: the box (−15, −15, −24)..(15, 15, 32)
    /// (`shape`, `feet_to_origin`, `stand_height`), crouched to z 16 (`crouch_height`),
    /// view heights 26 and 12 above the origin (`eye_height`, `crouch_eye_height`),
    /// `g_speed` 320 (`max_speed`), gravity 800, `JUMP_VELOCITY` 270 (`jump_speed`),
    /// `pm_accelerate` 10, `pm_airaccelerate` 1, `pm_friction` 6, `pm_stopspeed` 100,
    /// `pm_duckScale` 0.25, `pm_swimScale` 0.5, `pm_wateraccelerate` 4, `pm_waterfriction` 1,
    /// `STEPSIZE` 18, `MIN_WALK_NORMAL` 0.7, the 0.25 ground trace (`ground_probe`), 8 ms
    /// commands (`tick`, whole milliseconds) and `MASK_PLAYERSOLID` (`mask`). Its quirks are
    /// the code's: the velocity rounded at the end of each command, traces stopping 1/8 off
    /// a plane, the jump that needs the key released, air control scaled with the up move.
    ///
    /// # Examples
    /// ```
    /// use planeshift::{ControllerConfig, movement::Movement};
    /// let q3 = ControllerConfig::quake3();
    /// assert_eq!(q3.movement, Movement::Quake3);
    /// assert_eq!(ControllerConfig::from_toml("movement = \"quake3\"").unwrap(), q3);
    /// ```
    #[must_use]
    pub fn quake3() -> ControllerConfig {
        ControllerConfig {
            movement: Movement::Quake3,
            ..ControllerConfig::default()
        }
    }

    /// QuakeWorld's movement ([`Movement::QuakeWorld`]): its 32-wide player box (hull 1,
    /// −24..32 about the origin), its 22-unit view height, and the game's own code for the
    /// rest (movevars as the server sends them: friction 4, accelerate 10, the 30-unit air
    /// wish cap).
    ///
    /// # Examples
    /// ```
    /// use planeshift::{ControllerConfig, movement::Movement};
    /// let qw = ControllerConfig::quakeworld();
    /// assert_eq!(qw.movement, Movement::QuakeWorld);
    /// assert_eq!(ControllerConfig::from_toml(
    ///     "movement = \"quakeworld\"\nshape = { kind = \"box\", half_width = 16.0 }\neye_height = 46.0",
    /// ).unwrap(), qw);
    /// ```
    #[must_use]
    pub fn quakeworld() -> ControllerConfig {
        ControllerConfig {
            movement: Movement::QuakeWorld,
            shape: CharacterShape::Box { half_width: 16.0 },
            eye_height: 46.0,
            ..ControllerConfig::default()
        }
    }

    /// Reads a configuration from TOML (feature `toml`); absent fields keep their defaults.
    /// Any other serde format works too: deserialize, then [`ControllerConfig::validate`].
    ///
    /// # Errors
    /// [`ConfigError::Toml`] for bad syntax or an unknown field, [`ConfigError::Invalid`] for
    /// a value out of range.
    ///
    /// # Examples
    /// ```
    /// use planeshift::{movement::CharacterShape, ControllerConfig};
    /// let config = ControllerConfig::from_toml(
    ///     "max_speed = 400.0\nshape = { kind = \"cylinder\", radius = 16.0 }\n",
    /// )
    /// .unwrap();
    /// assert_eq!(config.max_speed, 400.0);
    /// assert_eq!(config.shape, CharacterShape::Cylinder { radius: 16.0 });
    /// assert_eq!(config.step_height, 18.0);
    /// ```
    #[cfg(feature = "toml")]
    pub fn from_toml(text: &str) -> Result<ControllerConfig, ConfigError> {
        let config: ControllerConfig = toml::from_str(text).map_err(ConfigError::Toml)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every field's range: each value finite and within the range its doc gives
    /// (the limits are named in `src/tolerance.rs`), then the relations between fields.
    ///
    /// # Errors
    /// The first field out of range, named with its accepted range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        // (field, value, lowest, whether the lowest itself is accepted, highest, rule).
        let ranges = [
            (
                "shape",
                self.shape.half_width(),
                0.0,
                false,
                MAX_CHARACTER_HALF_WIDTH,
                "a half width or radius in (0, 2048] units",
            ),
            (
                "stand_height",
                self.stand_height,
                0.0,
                false,
                MAX_CHARACTER_HEIGHT,
                "in (0, 4096] units",
            ),
            (
                "crouch_height",
                self.crouch_height,
                0.0,
                false,
                MAX_CHARACTER_HEIGHT,
                "in (0, 4096] units",
            ),
            (
                "feet_to_origin",
                self.feet_to_origin,
                0.0,
                true,
                MAX_CHARACTER_HEIGHT,
                "in [0, 4096] units",
            ),
            (
                "step_height",
                self.step_height,
                0.0,
                true,
                MAX_CHARACTER_HEIGHT,
                "in [0, 4096] units",
            ),
            (
                "min_step_tread",
                self.min_step_tread,
                0.0,
                true,
                MAX_STEP_TREAD_FRACTION,
                "in [0, 4] (a fraction of the width)",
            ),
            (
                "walkable_normal_z",
                self.walkable_normal_z,
                0.0,
                false,
                1.0,
                "in (0, 1]",
            ),
            (
                "gravity",
                self.gravity,
                0.0,
                true,
                MAX_CONFIG_ACCELERATION,
                "in [0, 100000] units/s²",
            ),
            (
                "jump_speed",
                self.jump_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "land_jump_delay",
                self.land_jump_delay,
                0.0,
                true,
                MAX_CONFIG_DELAY,
                "in [0, 60] s",
            ),
            (
                "hard_landing_speed",
                self.hard_landing_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "max_speed",
                self.max_speed,
                0.0,
                false,
                MAX_CONFIG_SPEED,
                "in (0, 100000] units/s",
            ),
            (
                "accelerate",
                self.accelerate,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "air_accelerate",
                self.air_accelerate,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "friction",
                self.friction,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "stop_speed",
                self.stop_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "crouch_speed_scale",
                self.crouch_speed_scale,
                0.0,
                true,
                1.0,
                "in [0, 1]",
            ),
            (
                "ground_probe",
                self.ground_probe,
                0.0,
                true,
                MAX_CHARACTER_HEIGHT,
                "in [0, 4096] units",
            ),
            (
                "airborne_rise_speed",
                self.airborne_rise_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "tick",
                self.tick,
                MIN_TICK,
                true,
                MAX_TICK,
                "in [0.0001, 0.2] s (Quake 3's longest command is 0.2 s)",
            ),
            (
                "eye_height",
                self.eye_height,
                1.0,
                true,
                MAX_CHARACTER_HEIGHT,
                "in [1, 4096] units",
            ),
            (
                "crouch_eye_height",
                self.crouch_eye_height,
                1.0,
                true,
                MAX_CHARACTER_HEIGHT,
                "in [1, 4096] units",
            ),
            (
                "dead_height",
                self.dead_height,
                0.0,
                false,
                MAX_CHARACTER_HEIGHT,
                "in (0, 4096] units",
            ),
            (
                "dead_eye_height",
                self.dead_eye_height,
                1.0,
                true,
                MAX_CHARACTER_HEIGHT,
                "in [1, 4096] units",
            ),
            (
                "dead_friction",
                self.dead_friction,
                0.0,
                true,
                MAX_CONFIG_ACCELERATION,
                "in [0, 100000] units/s²",
            ),
            ("swim_scale", self.swim_scale, 0.0, true, 1.0, "in [0, 1]"),
            (
                "water_accelerate",
                self.water_accelerate,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "water_friction",
                self.water_friction,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "sink_speed",
                self.sink_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "water_jump_speed",
                self.water_jump_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "water_jump_forward",
                self.water_jump_forward,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "water_jump_time",
                self.water_jump_time,
                0.0,
                true,
                MAX_CONFIG_DELAY,
                "in [0, 60] s",
            ),
            (
                "current_speed",
                self.current_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "current_push",
                self.current_push,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "ladder_speed",
                self.ladder_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "ladder_jump_speed",
                self.ladder_jump_speed,
                0.0,
                true,
                MAX_CONFIG_SPEED,
                "in [0, 100000] units/s",
            ),
            (
                "fly_speed",
                self.fly_speed,
                0.0,
                false,
                MAX_CONFIG_SPEED,
                "in (0, 100000] units/s",
            ),
            (
                "fly_friction",
                self.fly_friction,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "fly_accelerate",
                self.fly_accelerate,
                0.0,
                true,
                MAX_CONFIG_RATE,
                "in [0, 1000] per second",
            ),
            (
                "max_velocity",
                self.max_velocity.unwrap_or(MAX_CONFIG_SPEED),
                0.0,
                false,
                MAX_CONFIG_SPEED,
                "in (0, 100000] units/s",
            ),
            (
                "air_wish_cap",
                self.air_wish_cap.unwrap_or(MAX_CONFIG_SPEED),
                0.0,
                false,
                MAX_CONFIG_SPEED,
                "in (0, 100000] units/s",
            ),
            (
                "coyote_time",
                self.coyote_time,
                0.0,
                true,
                MAX_CONFIG_DELAY,
                "in [0, 60] s",
            ),
            (
                "jump_buffer",
                self.jump_buffer,
                0.0,
                true,
                MAX_CONFIG_DELAY,
                "in [0, 60] s",
            ),
        ];
        for (field, value, lowest, closed, highest, rule) in ranges {
            // Comparisons with NaN are false, so NaN fails both.
            let above = if closed {
                value >= lowest
            } else {
                value > lowest
            };
            if !(above && value <= highest) {
                return Err(ConfigError::Invalid { field, rule });
            }
        }
        let checks = [
            (
                "crouch_height",
                self.crouch_height <= self.stand_height,
                "at most stand_height",
            ),
            (
                "dead_height",
                self.dead_height <= self.crouch_height,
                "at most crouch_height",
            ),
            (
                "feet_to_origin",
                self.feet_to_origin <= self.crouch_height,
                "at most crouch_height (the origin lies inside the shape)",
            ),
            (
                "crouch_height",
                !matches!(self.shape, CharacterShape::Capsule { radius } if self.crouch_height < 2.0 * radius),
                "at least twice the capsule radius",
            ),
            (
                "step_height",
                self.step_height < self.crouch_height,
                "below crouch_height",
            ),
            (
                "ground_probe",
                self.ground_probe <= self.step_height.max(1.0),
                "at most step_height (or 1 unit when that is smaller)",
            ),
            (
                "mask",
                self.mask.contains(Contents::SOLID),
                "a contents mask holding solid",
            ),
            (
                "shape",
                self.movement == Movement::Planeshift
                    || matches!(self.shape, CharacterShape::Box { .. }),
                "a box for a game's movement profile (the games sweep boxes)",
            ),
            (
                "tick",
                self.movement == Movement::Planeshift || whole_milliseconds(self.tick),
                "whole milliseconds for a game's movement profile (a command's msec)",
            ),
        ];
        for (field, ok, rule) in checks {
            if !ok {
                return Err(ConfigError::Invalid { field, rule });
            }
        }
        Ok(())
    }
}

/// Whether `seconds` is a whole number of milliseconds, as a game's command carries its
/// duration (its f32 nearest to n ms).
fn whole_milliseconds(seconds: f32) -> bool {
    let ms = (seconds * 1000.0).round();
    ms >= 1.0 && ms / 1000.0 == seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_movement_profile_reads_from_toml_and_is_checked() {
        let q3 = ControllerConfig::from_toml("movement = \"quake3\"").unwrap();
        assert_eq!(q3, ControllerConfig::quake3());
        assert_eq!(
            ControllerConfig::from_toml("").unwrap().movement,
            Movement::Planeshift
        );
        assert!(ControllerConfig::from_toml("movement = \"doom\"").is_err());
        let got = refused("movement = \"quake3\"\nshape = { kind = \"capsule\", radius = 15.0 }");
        assert!(got.contains("`shape` must be a box"), "{got}");
        let got = refused("movement = \"quake3\"\ntick = 0.0085");
        assert!(got.contains("`tick` must be whole milliseconds"), "{got}");
        for m in [Movement::Planeshift, Movement::Quake3] {
            assert_eq!(Movement::from_name(m.name()), Some(m));
        }
    }

    fn refused(text: &str) -> String {
        match ControllerConfig::from_toml(text) {
            Err(e @ ConfigError::Invalid { .. }) => e.to_string(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn out_of_range_values_are_refused_with_the_field_and_its_range() {
        let cases = [
            (
                "stand_height = 1e9",
                "`stand_height` must be in (0, 4096] units",
            ),
            (
                "crouch_height = -1.0",
                "`crouch_height` must be in (0, 4096] units",
            ),
            (
                "max_speed = 200000.0",
                "`max_speed` must be in (0, 100000] units/s",
            ),
            (
                "jump_speed = inf",
                "`jump_speed` must be in [0, 100000] units/s",
            ),
            ("gravity = nan", "`gravity` must be in [0, 100000] units/s²"),
            ("tick = 1e-9", "`tick` must be in [0.0001, 0.2] s"),
            ("tick = 0.5", "`tick` must be in [0.0001, 0.2] s"),
            (
                "friction = 1e30",
                "`friction` must be in [0, 1000] per second",
            ),
            (
                "land_jump_delay = 3600.0",
                "`land_jump_delay` must be in [0, 60] s",
            ),
            (
                "shape = { kind = \"capsule\", radius = 1e7 }",
                "`shape` must be a half width or radius in (0, 2048] units",
            ),
            (
                "ground_probe = 1e6",
                "`ground_probe` must be in [0, 4096] units",
            ),
            (
                "crouch_speed_scale = 2.0",
                "`crouch_speed_scale` must be in [0, 1]",
            ),
        ];
        for (text, message) in cases {
            let got = refused(text);
            assert!(got.contains(message), "{text}: {got}");
        }
    }

    #[test]
    fn the_largest_accepted_values_make_a_working_controller() {
        let config = ControllerConfig {
            shape: CharacterShape::Capsule {
                radius: MAX_CHARACTER_HALF_WIDTH,
            },
            stand_height: MAX_CHARACTER_HEIGHT,
            crouch_height: MAX_CHARACTER_HEIGHT,
            feet_to_origin: MAX_CHARACTER_HEIGHT,
            step_height: MAX_CHARACTER_HEIGHT - 1.0,
            gravity: MAX_CONFIG_ACCELERATION,
            max_speed: MAX_CONFIG_SPEED,
            jump_speed: MAX_CONFIG_SPEED,
            friction: MAX_CONFIG_RATE,
            accelerate: MAX_CONFIG_RATE,
            tick: MAX_TICK,
            ..ControllerConfig::default()
        };
        assert_eq!(config.validate(), Ok(()));
        assert!(crate::controller::CharacterController::new(config, glam::Vec3::ZERO).is_ok());
    }
}
