//! QuakeWorld's numbers: the movevars a server sends (`sv_phys.c`, as the reference runs
//! were recorded) and the constants of `pmove.c`.
//!
//! Takes nothing; gives named constants, each with its unit and where the game has it.
//! Guarantees: one place for every number the profile's steps share.

/// `sv_gravity`, units a second squared.
pub(super) const GRAVITY: f32 = 800.0;
/// `sv_stopspeed`: below this speed ground friction acts as if at it.
pub(super) const STOP_SPEED: f32 = 100.0;
/// `sv_maxspeed`: the fastest a wish may ask.
pub(super) const MAX_SPEED: f32 = 320.0;
/// `sv_accelerate`, on the ground and (QuakeWorld reads no other) in the air.
pub(super) const ACCELERATE: f32 = 10.0;
/// `sv_wateraccelerate`.
pub(super) const WATER_ACCELERATE: f32 = 10.0;
/// `sv_friction`.
pub(super) const FRICTION: f32 = 4.0;
/// `sv_waterfriction`.
pub(super) const WATER_FRICTION: f32 = 4.0;
/// `entgravity`: the player's gravity scale.
pub(super) const ENT_GRAVITY: f32 = 1.0;
/// `PM_AirAccelerate`'s cap on the wished speed in the air, units a second.
pub(super) const AIR_WISH_CAP: f32 = 30.0;
/// The player box's lowest z (`player_mins[2]`).
pub(super) const PLAYER_MINS_Z: f32 = -24.0;
/// The player box's highest z (`player_maxs[2]`).
pub(super) const PLAYER_MAXS_Z: f32 = 32.0;
/// Eye height over the origin that `waterlevel` 3 tests.
pub(super) const EYES_Z: f32 = 22.0;
/// How far ahead of the origin edge friction looks, along the velocity.
pub(super) const EDGE_LOOKAHEAD: f32 = 16.0;
/// How far below the feet edge friction looks for ground.
pub(super) const EDGE_DROP: f32 = 34.0;
/// Upward speed above which the player is never on the ground.
pub(super) const LEAVE_GROUND_SPEED: f32 = 180.0;
/// Speed a jump adds.
pub(super) const JUMP_SPEED: f32 = 270.0;
/// The nudge of `NudgePosition`, a network coordinate's precision (1/8 unit).
pub(super) const NUDGE: f64 = 1.0 / 8.0;

/// `STEPSIZE`: the highest step walked up, in units.
pub(super) const STEP_SIZE: f32 = 18.0;
/// The least z of a normal that counts as a floor (`PM_GroundMove`, `PM_CatagorizePosition`).
pub(super) const FLOOR_NORMAL_Z: f32 = 0.7;
