//! What the level's movement triggers do, played as Quake 3 plays them (`g_trigger.c`,
//! `g_misc.c`): teleporters, jump pads and deadly hurt volumes, read once from the compiled
//! map's entities. The soak (`soak.rs`) applies them after every tick to the triggers the
//! tick's outcome lists; the tests include this file too.
//!
//! Takes a [`CompiledMap`] and its [`Game`]; gives each trigger model's [`Trigger`]:
//! - `trigger_teleport` → its `target` (Quake 3 `misc_teleporter_dest`, any entity of that
//!   `targetname`): Quake 3 `TeleportPlayer` puts the origin 1 unit above the destination
//!   (Quake's `info_teleport_destination` sits 27 below the player, `triggers.qc`; Quake 2's
//!   10) with velocity 400 along the destination's angles and a 160 ms knockback hold, and
//!   kills whoever stands there (`G_KillBox`). A Quake teleporter with a `targetname` waits
//!   to be triggered, so it does nothing here. A destination where the player's shape
//!   overlaps solid is raised by up to a step; one that stays inside (end.map's boss
//!   telefrag spot, in a slab) leaves its teleporter inert rather than bury the player.
//! - `trigger_push` → aimed at its `target` with Quake 3's `AimAtTarget` (the apex is the
//!   target); the velocity replaces the character's every tick it touches the pad
//!   (`BG_TouchJumpPad`), and a launch counts once per entry. A Quake pad without a target
//!   pushes `speed` (default 1000) × 10 along its angles, as QuakeWorld's `triggers.qc`.
//! - `trigger_hurt` → death when deadly: on at the start and not healing by its game's
//!   rule ([`kills`]).
//!
//! Guarantees: the same map gives the same triggers; a target that is missing or not above
//! a pad leaves the trigger inert, as Quake 3 frees such a pad.

use glam::Vec3;
use planeshift::movement::{ShapeQuery, Tracer};
use planeshift::{CharacterController, ControllerConfig};
use planeshift::{CompiledMap, Entity, build::Game};

/// Quake 3 `TeleportPlayer`: the speed out of a teleporter, units/s.
pub const TELEPORT_SPEED: f32 = 400.0;

/// Quake 3 `TeleportPlayer`'s knockback hold (`pm_time` 160 with `PMF_TIME_KNOCKBACK`), s.
pub const TELEPORT_HOLD: f32 = 0.160;

/// Quake 3 `TeleportPlayer`: the origin lands this far above the destination's, units.
const QUAKE3_DEST_LIFT: f32 = 1.0;

/// Quake 2 `teleporter_touch`: this far above the destination's origin, units.
const QUAKE2_DEST_LIFT: f32 = 10.0;

/// Quake `triggers.qc`: `info_teleport_destination` sits this far below the player's
/// origin (`self.origin + '0 0 27'`), units.
const QUAKE_DEST_LIFT: f32 = 27.0;

/// Quake's, Quake 2's and Quake 3's `trigger_hurt` damage when `dmg` is missing or 0.
const DEFAULT_HURT_DAMAGE: f64 = 5.0;

/// QuakeWorld's `trigger_push` speed when `speed` is missing.
const QUAKE_PUSH_SPEED: f32 = 1000.0;

/// QuakeWorld's `trigger_push_touch` multiplies the speed by this.
const QUAKE_PUSH_SCALE: f32 = 10.0;

/// What touching a trigger model does to a character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Trigger {
    /// Moves the origin to `origin` with `velocity` (and the hold).
    Teleport {
        /// The new origin.
        origin: Vec3,
        /// The new velocity.
        velocity: Vec3,
    },
    /// Replaces the velocity with `velocity` and leaves the ground.
    Push {
        /// The launch velocity.
        velocity: Vec3,
    },
    /// Kills.
    Hurt,
}

/// Every trigger model's action.
pub struct Level {
    actions: Vec<Option<Trigger>>,
}

impl Level {
    /// The triggers of `world`, read as `game` reads them, for characters of `config`
    /// (its gravity aims the jump pads, its standing shape checks the teleporters'
    /// destinations).
    pub fn of(world: &CompiledMap, game: Game, config: &ControllerConfig) -> Level {
        let player = CharacterController::new(*config, Vec3::ZERO).ok();
        let actions = (0..world.models().len())
            .map(|model| {
                let entity = world.model_entity(model)?;
                let centre = world.models().get(model).map(|m| 0.5 * (m.mins + m.maxs))?;
                match trigger_of(world, &entity, centre, game, config.gravity)? {
                    Trigger::Teleport { origin, velocity } => {
                        let p = player.as_ref()?;
                        let offset = p.shape_center() - p.position();
                        let clear = |lift: f32| {
                            let at = origin + Vec3::Z * lift;
                            let query = ShapeQuery::new(p.shape());
                            (!Tracer::overlaps(world, &query, at + offset)).then_some(at)
                        };
                        let lifts = (0..=config.step_height.max(0.0) as u32).map(|k| k as f32);
                        let origin = lifts.into_iter().find_map(clear)?;
                        Some(Trigger::Teleport { origin, velocity })
                    }
                    other => Some(other),
                }
            })
            .collect();
        Level { actions }
    }

    /// What model `model` does, if anything.
    pub fn get(&self, model: usize) -> Option<Trigger> {
        self.actions.get(model).copied().flatten()
    }

    /// Whether any trigger does something (a level without one skips the checks).
    pub fn any(&self) -> bool {
        self.actions.iter().any(Option::is_some)
    }

    /// How many teleporters, jump pads and deadly hurt volumes.
    pub fn counts(&self) -> (usize, usize, usize) {
        let count =
            |f: fn(&Trigger) -> bool| self.actions.iter().flatten().filter(|t| f(t)).count();
        (
            count(|t| matches!(t, Trigger::Teleport { .. })),
            count(|t| matches!(t, Trigger::Push { .. })),
            count(|t| matches!(t, Trigger::Hurt)),
        )
    }
}

/// The action of the trigger entity `entity` whose model's bounds are centred on `centre`.
fn trigger_of(
    world: &CompiledMap,
    entity: &Entity<'_>,
    centre: Vec3,
    game: Game,
    gravity: f32,
) -> Option<Trigger> {
    let target = || {
        entity
            .get("target")
            .and_then(|name| world.entity_by_targetname(name))
    };
    match entity.classname() {
        "trigger_teleport" => {
            if game == Game::Quake && entity.get("targetname").is_some() {
                return None;
            }
            let dest = target()?;
            let lift = match (game, dest.classname()) {
                (_, "info_teleport_destination") => QUAKE_DEST_LIFT,
                (Game::Quake2, _) => QUAKE2_DEST_LIFT,
                _ => QUAKE3_DEST_LIFT,
            };
            let origin = dest.origin()? + Vec3::Z * lift;
            let velocity = forward(dest.angles().unwrap_or(Vec3::ZERO)) * TELEPORT_SPEED;
            origin
                .is_finite()
                .then_some(Trigger::Teleport { origin, velocity })
        }
        "trigger_push" => match target() {
            Some(dest) => aim_at_target(centre, dest.origin()?, gravity)
                .map(|velocity| Trigger::Push { velocity }),
            None if game == Game::Quake => {
                let speed = number(entity, "speed")
                    .filter(|s| *s > 0.0)
                    .map_or(QUAKE_PUSH_SPEED, |s| s as f32);
                let velocity =
                    forward(entity.angles().unwrap_or(Vec3::ZERO)) * speed * QUAKE_PUSH_SCALE;
                velocity.is_finite().then_some(Trigger::Push { velocity })
            }
            None => None,
        },
        "trigger_hurt" => kills(entity, game).then_some(Trigger::Hurt),
        _ => None,
    }
}

/// Quake 3 `AimAtTarget`: the launch velocity from a pad's centre `from` whose apex is
/// `target` under `gravity` (the time to the apex is `sqrt(2h/g)` for the height `h`, the
/// horizontal speed covers the distance in it, the vertical one is `g` times it); `None`
/// when the target is not above the pad.
pub fn aim_at_target(from: Vec3, target: Vec3, gravity: f32) -> Option<Vec3> {
    let height = target.z - from.z;
    if height <= 0.0 || gravity <= 0.0 || !height.is_finite() {
        return None;
    }
    let time = (height / (0.5 * gravity)).sqrt();
    let flat = (target - from).truncate();
    let speed = flat.length() / time;
    Some((flat.normalize_or_zero() * speed).extend(time * gravity))
}

/// Quake's `AngleVectors` forward from (pitch, yaw, roll) in degrees.
pub fn forward(angles: Vec3) -> Vec3 {
    let (pitch, yaw) = (angles.x.to_radians(), angles.y.to_radians());
    Vec3::new(
        pitch.cos() * yaw.cos(),
        pitch.cos() * yaw.sin(),
        -pitch.sin(),
    )
}

/// A key as a finite number.
fn number(entity: &Entity<'_>, key: &str) -> Option<f64> {
    entity
        .get(key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

/// Whether the `trigger_hurt` `hurt` kills a player who stays in it, in `game`: it is on at
/// the start (START_OFF: 1 in Quake 2 and 3, 2 in Half-Life, whose NO_CLIENTS, 8, spares
/// players too; Quake has none), and does not heal (a negative `dmg`, in Quake, Quake 2 and
/// Half-Life; Quake 3's `G_Damage` raises any damage to at least 1). A missing, zero or
/// unreadable `dmg` is the games' default 5. The touch itself is the death, whatever the
/// damage: a bot does not steer out, and every deadly volume kills one that stays.
pub fn kills(hurt: &Entity<'_>, game: Game) -> bool {
    // Whole flags, as the engines' atoi reads them; in range after the finiteness filter.
    let flags = number(hurt, "spawnflags").map_or(0, |f| f as i64);
    let damage = number(hurt, "dmg")
        .filter(|&d| d != 0.0)
        .unwrap_or(DEFAULT_HURT_DAMAGE);
    let (off, heals) = match game {
        Game::Quake => (0, damage < 0.0),
        Game::Quake2 => (flags & 1, damage < 0.0),
        Game::Quake3 => (flags & 1, false),
        Game::HalfLife => (flags & (2 | 8), damage < 0.0),
        _ => (flags & 1, damage < 0.0),
    };
    off == 0 && !heals
}
