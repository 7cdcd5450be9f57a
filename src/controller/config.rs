//! The controller's tunables: one plain struct with Quake 3 defaults, loadable from TOML.
//!
//! Takes nothing or TOML text; gives a validated [`ControllerConfig`]. Guarantees: every value
//! a controller is built from is finite and in range ([`ControllerConfig::validate`]), so the
//! movement code never divides by zero or loops on a NaN. Units are Quake map units (about an
//! inch), seconds, units per second and units per second squared; Z is up.

use serde::{Deserialize, Serialize};

use crate::tolerance::MAX_TICK;

/// The shape the character sweeps, around its origin (the origin sits
/// [`ControllerConfig::feet_to_origin`] above the feet).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CharacterShape {
    /// An axis-aligned box of this half width on x and y (Quake 3: 15, so 30 wide). Boxes are
    /// swept exactly, so stairs, walls and floors are met flush.
    Box {
        /// Half the width on x and y, in units.
        half_width: f32,
    },
    /// A vertical cylinder of this radius. Flat bottom and top like the box, round in plan,
    /// so it slides round outside corners; edge hits may stop up to a few percent of the
    /// radius early (see `trace`).
    Cylinder {
        /// Radius, in units.
        radius: f32,
    },
    /// A vertical capsule of this radius (its height is the character's height, at least
    /// twice the radius; equal makes a sphere). Rounded feet roll over lips without stepping
    /// but never rest flush on an edge; see the README's controller notes.
    Capsule {
        /// Radius, in units.
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

/// How a character moves: every field in Quake units, with Quake 3's values as defaults
/// (`bg_pmove.c`, `bg_local.h`; controller.md 1.1).
///
/// Loads from TOML with `ControllerConfig::from_toml` (feature `toml`) or from any serde
/// format followed by [`ControllerConfig::validate`]; a missing field keeps its default,
/// an unknown field is an error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ControllerConfig {
    /// The swept shape. Default: Quake 3's 30-wide box.
    pub shape: CharacterShape,
    /// Height of the standing shape, feet to head (Quake 3: 56). Must exceed
    /// `crouch_height`.
    pub stand_height: f32,
    /// Height of the crouched shape (Quake 3: 40). The feet stay put when crouching on the
    /// ground; in the air the head stays and the feet tuck up (Source).
    pub crouch_height: f32,
    /// How far the origin sits above the feet (Quake 3: 24, so the box is −24..32 around it).
    pub feet_to_origin: f32,
    /// Tallest riser climbed without jumping (Quake 3 `STEPSIZE` 18). Also the distance the
    /// character is snapped down to walkable ground when walking off a step or down a slope.
    /// Too large and the character teleports up and down ledges.
    pub step_height: f32,
    /// Smallest tread accepted when stepping up, as a fraction of the shape's width (Rapier's
    /// `min_width` 0.5): a riser topped by a ledge narrower than this is not climbed.
    pub min_step_tread: f32,
    /// Ground whose normal z is at least this is walkable (Quake 3 `MIN_WALK_NORMAL` 0.7,
    /// about 45.57°); steeper ground is slid down.
    pub walkable_normal_z: f32,
    /// Gravity, units/s² (Quake 3 800).
    pub gravity: f32,
    /// Upward speed of a jump, units/s (Quake 3 270: apex 45.56).
    pub jump_speed: f32,
    /// After landing faster than `hard_landing_speed`, jumping waits this long, seconds
    /// (Quake 3 `PMF_TIME_LAND` 0.25).
    pub land_jump_delay: f32,
    /// Downward speed above which a landing delays the next jump, units/s (Quake 3 200).
    pub hard_landing_speed: f32,
    /// Top running speed, units/s (Quake 3 `g_speed` 320).
    pub max_speed: f32,
    /// Ground acceleration, in multiples of the wish speed per second (Quake 3 10).
    pub accelerate: f32,
    /// Air acceleration, same unit (Quake 3 1: little air control).
    pub air_accelerate: f32,
    /// Ground friction, per second (Quake 3 6).
    pub friction: f32,
    /// Friction acts as if the speed were at least this, units/s (Quake 3 100), so slow
    /// characters stop quickly.
    pub stop_speed: f32,
    /// Speed multiplier while crouched (Quake 3 `pm_duckScale` 0.25).
    pub crouch_speed_scale: f32,
    /// How far below the feet ground is looked for, units (Quake 3 0.25).
    pub ground_probe: f32,
    /// Rising faster than this (units/s), and faster than running up the ground could
    /// explain, leaves the ground: a ramp hit at speed launches the character instead of
    /// braking it with friction (Source `NON_JUMP_VELOCITY` 140).
    pub airborne_rise_speed: f32,
    /// The fixed tick, seconds (Quake 3 `pmove_msec` 8 ms). Every step advances exactly this.
    pub tick: f32,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
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
        }
    }
}

/// Why a configuration was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigError {
    /// The TOML text did not parse or named an unknown field; the message says where.
    Toml(String),
    /// A field is out of range; names the field and the rule.
    Invalid {
        /// The field.
        field: &'static str,
        /// What it must satisfy.
        rule: &'static str,
    },
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::Toml(message) => write!(f, "controller config: {message}"),
            ConfigError::Invalid { field, rule } => {
                write!(f, "controller config: `{field}` must be {rule}")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl ControllerConfig {
    /// Reads a configuration from TOML (feature `toml`); absent fields keep their defaults.
    /// Any other serde format works too: deserialize, then [`ControllerConfig::validate`].
    ///
    /// # Errors
    /// [`ConfigError::Toml`] for bad syntax or an unknown field, [`ConfigError::Invalid`] for
    /// a value out of range.
    ///
    /// # Examples
    /// ```
    /// use planeshift::controller::{CharacterShape, ControllerConfig};
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
        let config: ControllerConfig =
            toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every field's range.
    ///
    /// # Errors
    /// The first field out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let positive = [
            ("shape", self.shape.half_width()),
            ("stand_height", self.stand_height),
            ("crouch_height", self.crouch_height),
            ("tick", self.tick),
            ("max_speed", self.max_speed),
        ];
        for (field, value) in positive {
            if !(value.is_finite() && value > 0.0) {
                return Err(ConfigError::Invalid {
                    field,
                    rule: "finite and above 0",
                });
            }
        }
        let non_negative = [
            ("feet_to_origin", self.feet_to_origin),
            ("step_height", self.step_height),
            ("min_step_tread", self.min_step_tread),
            ("gravity", self.gravity),
            ("jump_speed", self.jump_speed),
            ("land_jump_delay", self.land_jump_delay),
            ("hard_landing_speed", self.hard_landing_speed),
            ("accelerate", self.accelerate),
            ("air_accelerate", self.air_accelerate),
            ("friction", self.friction),
            ("stop_speed", self.stop_speed),
            ("crouch_speed_scale", self.crouch_speed_scale),
            ("ground_probe", self.ground_probe),
            ("airborne_rise_speed", self.airborne_rise_speed),
        ];
        for (field, value) in non_negative {
            if !(value.is_finite() && value >= 0.0) {
                return Err(ConfigError::Invalid {
                    field,
                    rule: "finite and at least 0",
                });
            }
        }
        let checks = [
            (
                "crouch_height",
                self.crouch_height <= self.stand_height,
                "at most stand_height",
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
                "walkable_normal_z",
                self.walkable_normal_z > 0.0 && self.walkable_normal_z <= 1.0,
                "in (0, 1]",
            ),
            (
                "tick",
                self.tick <= MAX_TICK,
                "at most 0.2 s (Quake 3's longest command)",
            ),
            (
                "step_height",
                self.step_height < self.crouch_height,
                "below crouch_height",
            ),
            (
                "ground_probe",
                self.ground_probe <= self.step_height.max(1.0),
                "at most step_height",
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
