//! Characters: a configuration (Quake 3's defaults, or TOML text with every field the
//! library's `ControllerConfig` names, the movement profile included), a character made
//! from it, its tick from a world wish or a player's command, its outcome, its modes and
//! impulses, and its state saved to and restored from bytes.
//!
//! Takes configurations, inputs and a level; gives `PsConfig` and `PsCharacter` handles and
//! a [`PsOutcome`] per tick. Guarantees: the tick is the library's `step` (or `step_msec`),
//! bit for bit; a character is stepped by one thread at a time (the handle's lock makes a
//! second thread wait, never race); a saved state restores exactly, and bytes that are not
//! a state are [`PsStatus::BadData`].

use std::ffi::c_char;
use std::sync::Mutex;

use planeshift::movement::{CharacterState, GroundState, MoveMode};
use planeshift::{CharacterController, ControllerConfig, MoveCommand, MoveInput, MoveOutcome};

use crate::ffi::{PsVec3, bytes, fill, finite, read_ref, text, write_out};
use crate::status::{Error, PsStatus, guard};
use crate::{CHARACTERS, CONFIGS, LEVELS, PsCharacter, PsConfig, PsLevel};

/// Writes a new configuration handle.
unsafe fn keep_config(config: ControllerConfig, out: *mut PsConfig) -> Result<(), Error> {
    if out.is_null() {
        return Err(crate::ffi::null("out"));
    }
    let handle = CONFIGS.insert(config)?;
    // SAFETY: checked non-null; the caller promises it is writable.
    unsafe { write_out(out, PsConfig(handle), "out") }
}

/// Quake 3's player (`ControllerConfig::default()`).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_config_default(out: *mut PsConfig) -> PsStatus {
    // SAFETY: the caller's promise.
    guard(|| unsafe { keep_config(ControllerConfig::default(), out) })
}

/// A configuration from TOML text: any field of the library's `ControllerConfig` (the
/// others keep Quake 3's defaults), checked; an unknown key or a bad value is
/// [`PsStatus::InvalidArgument`] with the reason.
///
/// # Safety
/// `toml` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_config_from_toml(toml: *const c_char, out: *mut PsConfig) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let toml = unsafe { text(toml, "toml") }?;
        let config = ControllerConfig::from_toml(toml).map_err(|e| {
            let message = match std::error::Error::source(&e) {
                Some(cause) => format!("{e}: {cause}"),
                None => e.to_string(),
            };
            Error::new(PsStatus::InvalidArgument, message)
        })?;
        // SAFETY: the caller's promise.
        unsafe { keep_config(config, out) }
    })
}

/// Frees a configuration (characters made from it keep their copy).
#[unsafe(no_mangle)]
pub extern "C" fn ps_config_free(config: PsConfig) -> PsStatus {
    guard(|| CONFIGS.remove(config.0))
}

/// A character of `config` with its origin at `position`.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_new(
    config: PsConfig,
    position: PsVec3,
    out: *mut PsCharacter,
) -> PsStatus {
    guard(|| {
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let position = finite(position, "position")?;
        let config = CONFIGS.with(config.0, ControllerConfig::clone)?;
        let c = CharacterController::new(config, position)
            .map_err(|e| Error::new(PsStatus::InvalidArgument, e.to_string()))?;
        let handle = CHARACTERS.insert(Mutex::new(c))?;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, PsCharacter(handle), "out") }
    })
}

/// Frees a character (a second free is [`PsStatus::BadHandle`]).
#[unsafe(no_mangle)]
pub extern "C" fn ps_character_free(character: PsCharacter) -> PsStatus {
    guard(|| CHARACTERS.remove(character.0))
}

/// Runs `f` on the character of `handle`, locked.
pub fn with_character<R>(
    handle: PsCharacter,
    f: impl FnOnce(&mut CharacterController) -> R,
) -> Result<R, Error> {
    CHARACTERS.with(handle.0, |c| {
        let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut c)
    })
}

/// A player's command: view angles and moves, as Quake 3's `usercmd_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PsMoveCommand {
    /// Degrees; positive looks down.
    pub pitch: f32,
    /// Degrees counter-clockwise from +x.
    pub yaw: f32,
    /// -1 (back) to 1 (forward).
    pub forward: f32,
    /// -1 (left) to 1 (right).
    pub side: f32,
    /// -1 (down) to 1 (up): swimming, flying, ladders.
    pub up: f32,
}

/// One tick's input: a world wish, or a player's command that replaces it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PsMoveInput {
    /// The wanted direction and strength in the world frame (length at most 1).
    pub wish: PsVec3,
    /// The jump key is down.
    pub jump: bool,
    /// The crouch key is down.
    pub crouch: bool,
    /// Whether `command` replaces `wish`.
    pub has_command: bool,
    /// The player's command (when `has_command`).
    pub command: PsMoveCommand,
    /// The tick's length in milliseconds; 0: the configuration's tick.
    pub msec: u32,
}

impl PsMoveInput {
    /// The library's input.
    pub fn input(&self) -> MoveInput {
        let c = self.command;
        MoveInput {
            wish: self.wish.into(),
            jump: self.jump,
            crouch: self.crouch,
            command: self.has_command.then_some(MoveCommand {
                pitch: c.pitch,
                yaw: c.yaw,
                forward: c.forward,
                side: c.side,
                up: c.up,
            }),
        }
    }
}

/// What a tick did and where it left the character.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PsOutcome {
    /// The origin after the tick.
    pub position: PsVec3,
    /// The velocity after the tick, units per second.
    pub velocity: PsVec3,
    /// 0 on walkable ground, 1 on steep ground, 2 in the air.
    pub ground: u32,
    /// 0 dry to 3 under water (Quake's `waterlevel`).
    pub water_level: u32,
    /// How it moved: 0 walk, 1 swim, 2 ladder, 3 noclip, 4 fly, 5 frozen.
    pub activity: u32,
    /// The contents it stands in (`PS_CONTENTS_*`).
    pub contents: u32,
    /// How many surfaces it touched.
    pub touches: u32,
    /// It is crouched.
    pub crouched: bool,
    /// It started the tick inside solid and could not get out.
    pub stuck: bool,
    /// It jumped this tick.
    pub jumped: bool,
}

/// The outcome of a tick of `c`.
pub fn outcome(c: &CharacterController, o: &MoveOutcome) -> PsOutcome {
    use planeshift::movement::Activity;
    PsOutcome {
        position: c.position().into(),
        velocity: c.velocity().into(),
        ground: match c.ground().state {
            GroundState::Walkable => 0,
            GroundState::Steep => 1,
            GroundState::Air => 2,
        },
        water_level: u32::from(o.water_level),
        activity: match o.activity {
            Activity::Walk => 0,
            Activity::Swim => 1,
            Activity::Ladder => 2,
            Activity::Noclip => 3,
            Activity::Fly => 4,
            Activity::Frozen => 5,
        },
        contents: o.contents.0,
        touches: u32::try_from(o.touches.len()).unwrap_or(u32::MAX),
        crouched: c.crouched(),
        stuck: o.stuck,
        jumped: o.jumped,
    }
}

/// Steps the character one tick through `level`. `out` may be null (no outcome wanted).
/// One thread at a time per character; any number of characters may step at once on one
/// level.
///
/// # Safety
/// `input` points at a valid `PsMoveInput`; `out` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_step(
    character: PsCharacter,
    level: PsLevel,
    input: *const PsMoveInput,
    out: *mut PsOutcome,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let input = unsafe { read_ref(input, "input") }?;
        let (msec, input) = (input.msec, input.input());
        let result = LEVELS.with(level.0, |map| {
            with_character(character, |c| {
                let o = if msec == 0 {
                    c.step(map, &input)
                } else {
                    c.step_msec(map, &input, msec)
                };
                outcome(c, &o)
            })
        })??;
        if !out.is_null() {
            // SAFETY: non-null, the caller promises it is writable.
            unsafe { out.write(result) };
        }
        Ok(())
    })
}

/// The character's origin and velocity.
///
/// # Safety
/// `position` and `velocity` are each null (not wanted) or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_get(
    character: PsCharacter,
    position: *mut PsVec3,
    velocity: *mut PsVec3,
) -> PsStatus {
    guard(|| {
        let (p, v) = with_character(character, |c| (c.position(), c.velocity()))?;
        if !position.is_null() {
            // SAFETY: non-null, the caller promises it is writable.
            unsafe { position.write(p.into()) };
        }
        if !velocity.is_null() {
            // SAFETY: as above.
            unsafe { velocity.write(v.into()) };
        }
        Ok(())
    })
}

/// The eye's position (the view's origin).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_eye(character: PsCharacter, out: *mut PsVec3) -> PsStatus {
    guard(|| {
        let eye = with_character(character, |c| c.eye_position())?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, eye.into(), "out") }
    })
}

/// Moves the character to `position` with `velocity` (a teleporter; the ground and timers
/// cleared), holding its input for `hold` seconds.
#[unsafe(no_mangle)]
pub extern "C" fn ps_character_teleport(
    character: PsCharacter,
    position: PsVec3,
    velocity: PsVec3,
    hold: f32,
) -> PsStatus {
    guard(|| {
        let (p, v) = (finite(position, "position")?, finite(velocity, "velocity")?);
        if !with_character(character, |c| c.teleport(p, v, hold))? {
            return Err(Error::new(
                PsStatus::InvalidArgument,
                "the hold must be finite",
            ));
        }
        Ok(())
    })
}

/// Adds `delta_v` to the velocity (a knockback, a jump pad), holding the input for `hold`
/// seconds.
#[unsafe(no_mangle)]
pub extern "C" fn ps_character_impulse(
    character: PsCharacter,
    delta_v: PsVec3,
    hold: f32,
) -> PsStatus {
    guard(|| {
        let dv = finite(delta_v, "delta_v")?;
        if !with_character(character, |c| c.apply_impulse(dv, hold))? {
            return Err(Error::new(
                PsStatus::InvalidArgument,
                "the hold must be finite and not negative",
            ));
        }
        Ok(())
    })
}

/// Sets how the character moves: `"walk"`, `"noclip"`, `"fly"`, `"frozen"` or `"dead"`.
///
/// # Safety
/// `mode` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_set_mode(
    character: PsCharacter,
    mode: *const c_char,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let name = unsafe { text(mode, "mode") }?;
        let mode = MoveMode::from_name(name).ok_or_else(|| {
            Error::new(PsStatus::InvalidArgument, format!("unknown mode `{name}`"))
        })?;
        with_character(character, |c| c.set_mode(mode))
    })
}

/// Writes the character's whole state (position, velocity, ground, timers, mode) as bytes
/// (UTF-8 JSON, floats read back exactly: the replay contract's state) into `buf` of `cap` bytes, their count to `len_out`; a null `buf` or a short `cap` is
/// [`PsStatus::BufferTooSmall`] with the count written.
///
/// # Safety
/// `buf` is null or holds `cap` writable bytes; `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_save_state(
    character: PsCharacter,
    buf: *mut u8,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        let data = with_character(character, |c| serde_json::to_vec(c.state()))?
            .map_err(|e| Error::new(PsStatus::BadData, format!("state: {e}")))?;
        // SAFETY: the caller's promises.
        unsafe { fill(&data, false, buf, cap, len_out) }
    })
}

/// Restores a state written by `ps_character_save_state` (any character of the same
/// configuration continues from it bit for bit).
///
/// # Safety
/// `data` holds `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_character_restore_state(
    character: PsCharacter,
    data: *const u8,
    len: usize,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let data = unsafe { bytes(data, len, "data") }?;
        let state: CharacterState = serde_json::from_slice(data)
            .map_err(|e| Error::new(PsStatus::BadData, format!("not a saved state: {e}")))?;
        if !with_character(character, |c| c.set_state(state))? {
            return Err(Error::new(
                PsStatus::BadData,
                "the state's position and velocity must be finite",
            ));
        }
        Ok(())
    })
}
