//! The replay contract through the C ABI: the host reads `IN.jsonl` and writes `OUT.jsonl`
//! (the file I/O and the loop are the host's); each input line goes through the harness's
//! own reader (`planeshift_harness::replay_input`) and each output line comes from its own
//! writer (`planeshift_harness::replay::tick_output`).
//!
//! Takes a level, a configuration, the spawn line, then one tick line at a time with its
//! 1-based line number; gives one output line per tick. Guarantees: the lines are
//! `fps_movement --replay`'s, byte for byte (one reader, one tick, one writer); a line that
//! breaks the contract is [`PsStatus::BadData`] with the harness's message (naming the line
//! and the key).

use std::ffi::c_char;
use std::sync::Mutex;

use planeshift::{CharacterController, ControllerConfig};
use planeshift_harness::replay::{apply_tick, spawn_character, tick_output};
use planeshift_harness::replay_input::{spawn_line, tick_line};

use crate::ffi::{fill, text, write_out};
use crate::status::{Error, PsStatus, guard};
use crate::{CONFIGS, LEVELS, PsConfig, PsLevel, PsReplay, REPLAYS};

/// A replay under way: its character and the next tick's number.
pub struct ReplayRun {
    character: CharacterController,
    tick: usize,
}

/// Starts a replay from its spawn line (`{"spawn":[x,y,z]}`, optional `"velocity"`), line
/// `line_number` (1-based) of the input.
///
/// # Safety
/// `spawn_line_text` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_replay_new(
    config: PsConfig,
    spawn_line_text: *const c_char,
    line_number: usize,
    out: *mut PsReplay,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let line = unsafe { text(spawn_line_text, "spawn_line_text") }?;
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let config = CONFIGS.with(config.0, ControllerConfig::clone)?;
        let spawn = spawn_line(line, line_number).map_err(|e| Error::new(PsStatus::BadData, e))?;
        let character =
            spawn_character(config, &spawn).map_err(|e| Error::new(PsStatus::BadData, e))?;
        let handle = REPLAYS.insert(Mutex::new(ReplayRun { character, tick: 0 }))?;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, PsReplay(handle), "out") }
    })
}

/// Runs tick line `line_number` (1-based, as an editor counts the input's lines) through
/// `level` and writes the output line, without a newline, NUL-terminated in `buf` of `cap`
/// bytes, its length to `len_out`. With [`PsStatus::BufferTooSmall`] the tick has run and
/// its line is kept: call `ps_replay_last_line` with a larger buffer.
///
/// # Safety
/// `line` is a NUL-terminated string; `buf` is null or holds `cap` writable bytes;
/// `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_replay_tick(
    replay: PsReplay,
    level: PsLevel,
    line: *const c_char,
    line_number: usize,
    buf: *mut c_char,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let line = unsafe { text(line, "line") }?;
        if len_out.is_null() {
            return Err(crate::ffi::null("len_out"));
        }
        let input = tick_line(line, line_number).map_err(|e| Error::new(PsStatus::BadData, e))?;
        let output = LEVELS.with(level.0, |map| {
            REPLAYS.with(replay.0, |r| {
                let mut r = r.lock().unwrap_or_else(|e| e.into_inner());
                let outcome = apply_tick(&mut r.character, map, &input);
                let line = tick_output(r.tick, &r.character, &outcome);
                r.tick += 1;
                line
            })
        })??;
        LAST_LINE.with(|l| *l.borrow_mut() = output.clone());
        // SAFETY: the caller's promises.
        unsafe { fill(output.as_bytes(), true, buf.cast(), cap, len_out) }
    })
}

thread_local! {
    /// The last output line of `ps_replay_tick` on this thread.
    static LAST_LINE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// The last output line `ps_replay_tick` gave on this thread, NUL-terminated in `buf`.
///
/// # Safety
/// `buf` is null or holds `cap` writable bytes; `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_replay_last_line(
    buf: *mut c_char,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        let line = LAST_LINE.with(|l| l.borrow().clone());
        // SAFETY: the caller's promises.
        unsafe { fill(line.as_bytes(), true, buf.cast(), cap, len_out) }
    })
}

/// Frees a replay.
#[unsafe(no_mangle)]
pub extern "C" fn ps_replay_free(replay: PsReplay) -> PsStatus {
    guard(|| REPLAYS.remove(replay.0))
}
