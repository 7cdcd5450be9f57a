//! Crowds: many characters that block each other, stepped together, each with its own
//! input for the tick; the crowd's characters are what `ps_scene_trace` meets.
//!
//! Takes characters' configurations, positions and inputs, and a level; gives a `PsCrowd`
//! handle and each character's [`PsOutcome`]. Guarantees: the step is the library's
//! `Crowd::step` (deterministic, bit for bit); one thread at a time per crowd (its lock
//! makes a second wait); a character with no input this tick stands still.

use std::collections::HashMap;
use std::sync::Mutex;

use planeshift::{CharacterController, ControllerConfig, Crowd, CrowdConfig, MoveInput};

use crate::character::{PsMoveInput, PsOutcome, outcome};
use crate::ffi::{PsVec3, finite, read_ref, write_out};
use crate::status::{Error, PsStatus, guard};
use crate::{CONFIGS, CROWDS, LEVELS, PsConfig, PsCrowd, PsLevel};

/// A crowd and the inputs set for its next step.
pub struct CrowdBox {
    /// The crowd.
    pub crowd: Crowd,
    /// Each character's input for the next step (cleared by the step).
    inputs: HashMap<u32, MoveInput>,
}

fn with_crowd<R>(handle: PsCrowd, f: impl FnOnce(&mut CrowdBox) -> R) -> Result<R, Error> {
    CROWDS.with(handle.0, |c| {
        let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut c)
    })
}

/// A crowd whose characters block each other (`collide` false: each moves as if alone,
/// still seen by scene queries).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_new(collide: bool, out: *mut PsCrowd) -> PsStatus {
    guard(|| {
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let config = CrowdConfig {
            collide,
            ..CrowdConfig::default()
        };
        let handle = CROWDS.insert(Mutex::new(CrowdBox {
            crowd: Crowd::new(config),
            inputs: HashMap::new(),
        }))?;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, PsCrowd(handle), "out") }
    })
}

/// Frees a crowd and its characters.
#[unsafe(no_mangle)]
pub extern "C" fn ps_crowd_free(crowd: PsCrowd) -> PsStatus {
    guard(|| CROWDS.remove(crowd.0))
}

/// Adds character `id` of `config` at `position` (an existing `id` is replaced).
#[unsafe(no_mangle)]
pub extern "C" fn ps_crowd_insert(
    crowd: PsCrowd,
    id: u32,
    config: PsConfig,
    position: PsVec3,
) -> PsStatus {
    guard(|| {
        let position = finite(position, "position")?;
        let config = CONFIGS.with(config.0, ControllerConfig::clone)?;
        let c = CharacterController::new(config, position)
            .map_err(|e| Error::new(PsStatus::InvalidArgument, e.to_string()))?;
        with_crowd(crowd, |b| {
            b.crowd.insert(id, c);
        })
    })
}

/// Removes character `id` ([`PsStatus::NotFound`] when it is not there).
#[unsafe(no_mangle)]
pub extern "C" fn ps_crowd_remove(crowd: PsCrowd, id: u32) -> PsStatus {
    guard(|| {
        with_crowd(crowd, |b| {
            b.inputs.remove(&id);
            b.crowd.remove(id)
        })?
        .map(|_| ())
        .ok_or_else(|| Error::new(PsStatus::NotFound, format!("no character {id}")))
    })
}

/// Sets character `id`'s input for the next step (`msec` is ignored: a crowd steps the
/// configured tick).
///
/// # Safety
/// `input` points at a valid `PsMoveInput`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_set_input(
    crowd: PsCrowd,
    id: u32,
    input: *const PsMoveInput,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let input = unsafe { read_ref(input, "input") }?.input();
        with_crowd(crowd, |b| {
            if b.crowd.get(id).is_none() {
                return Err(Error::new(PsStatus::NotFound, format!("no character {id}")));
            }
            b.inputs.insert(id, input);
            Ok(())
        })?
    })
}

/// Steps every character one tick through `level`, each with its input set since the last
/// step (none: standing still).
#[unsafe(no_mangle)]
pub extern "C" fn ps_crowd_step(crowd: PsCrowd, level: PsLevel) -> PsStatus {
    guard(|| {
        LEVELS.with(level.0, |map| {
            with_crowd(crowd, |b| {
                let inputs = std::mem::take(&mut b.inputs);
                b.crowd
                    .step(map, |id| inputs.get(&id).copied().unwrap_or_default());
            })
        })?
    })
}

/// Character `id`'s outcome of the last step, and where it stands now.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_outcome(
    crowd: PsCrowd,
    id: u32,
    out: *mut PsOutcome,
) -> PsStatus {
    guard(|| {
        let o = with_crowd(crowd, |b| {
            let c = b.crowd.get(id)?;
            let o = b.crowd.outcome(id)?;
            Some(outcome(c, &o.tick))
        })?
        .ok_or_else(|| Error::new(PsStatus::NotFound, format!("no character {id}")))?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, o, "out") }
    })
}
