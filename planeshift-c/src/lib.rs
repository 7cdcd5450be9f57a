//! planeshift's C ABI: what a Godot GDExtension, a Unity or .NET P/Invoke, a C or C++
//! engine, Zig, Odin or Python's ctypes loads. One header, `include/planeshift.h`,
//! generated from this crate by cbindgen and checked in (`tests/header.rs` fails when it
//! differs from a fresh generation).
//!
//! Takes the host's calls; gives status codes, plain structs and opaque handles. Data flow,
//! one module per part:
//!
//! ```text
//! path | bytes --level--> PsLevel --query (PsShape)--> PsTrace
//!                         PsLevel + PsConfig --character--> PsCharacter --step--> PsOutcome
//!                         PsLevel + PsConfig --crowd--> PsCrowd --step / ps_scene_trace
//!                         PsLevel + PsConfig + lines --replay--> the replay contract's lines
//! ```
//!
//! Guarantees, for every entry point (`status.rs`, `handles.rs`, `ffi.rs`): no panic
//! crosses the boundary (each call catches one and returns `PS_STATUS_PANIC`); every
//! pointer is checked for null, every length against its buffer, every handle against its
//! table (a handle is an index and a generation: a stale handle or a double free is
//! `PS_STATUS_BAD_HANDLE`, never a crash); a failure leaves a message for
//! `ps_last_error()` on the calling thread. Threads: a `PsLevel`, a `PsShape` and a
//! `PsConfig` are read-only after they are made and may be used from any number of threads
//! at once (the Rust types are `Send + Sync`); a `PsCharacter`, a `PsCrowd` and a `PsReplay`
//! are stepped by one thread at a time (each has a lock: a second thread waits). Freeing a
//! handle while another thread uses it waits for that call to end.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![deny(missing_docs)]

use std::ffi::c_char;
use std::sync::Mutex;

use planeshift::{CharacterController, CompiledMap, ControllerConfig, TraceShape};

pub mod character;
pub mod crowd;
pub mod ffi;
pub mod handles;
pub mod level;
pub mod query;
pub mod replay;
pub mod status;

use handles::Table;

/// The ABI version this header describes. A host checks at load that
/// `ps_abi_version() == PS_ABI_VERSION`; it changes whenever a signature or a struct does.
pub const PS_ABI_VERSION: u32 = 1;

/// A loaded level (0 is never a handle).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsLevel(pub u64);

/// A sweep shape.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsShape(pub u64);

/// A character configuration.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsConfig(pub u64);

/// One character.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsCharacter(pub u64);

/// A crowd of characters that block each other (0 in `ps_scene_trace`: no crowd).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsCrowd(pub u64);

/// A replay under way.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsReplay(pub u64);

/// The levels.
static LEVELS: Table<CompiledMap> = Table::new("level");
/// The shapes.
static SHAPES: Table<TraceShape> = Table::new("shape");
/// The configurations.
static CONFIGS: Table<ControllerConfig> = Table::new("config");
/// The characters, each stepped by one thread at a time.
static CHARACTERS: Table<Mutex<CharacterController>> = Table::new("character");
/// The crowds.
static CROWDS: Table<Mutex<crowd::CrowdBox>> = Table::new("crowd");
/// The replays.
static REPLAYS: Table<Mutex<replay::ReplayRun>> = Table::new("replay");

/// The library's version, `"MAJOR.MINOR.PATCH"` (static; never freed).
#[unsafe(no_mangle)]
pub extern "C" fn ps_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The ABI version of the loaded library: compare with `PS_ABI_VERSION` at load.
#[unsafe(no_mangle)]
pub extern "C" fn ps_abi_version() -> u32 {
    PS_ABI_VERSION
}

// The contents bits (`PsTrace::contents`, `ps_level_point_contents`) and the masks a sweep
// takes, as the library's `Contents` names them (`tests/capi.rs` checks each value).

/// Solid rock.
pub const PS_CONTENTS_SOLID: u32 = 0x1;
/// A window (Quake 2).
pub const PS_CONTENTS_WINDOW: u32 = 0x2;
/// Lava.
pub const PS_CONTENTS_LAVA: u32 = 0x8;
/// Slime.
pub const PS_CONTENTS_SLIME: u32 = 0x10;
/// Water.
pub const PS_CONTENTS_WATER: u32 = 0x20;
/// Fog.
pub const PS_CONTENTS_FOG: u32 = 0x40;
/// Sky.
pub const PS_CONTENTS_SKY: u32 = 0x200;
/// Player clip: blocks players only.
pub const PS_CONTENTS_PLAYERCLIP: u32 = 0x1_0000;
/// Monster clip: blocks monsters only.
pub const PS_CONTENTS_MONSTERCLIP: u32 = 0x2_0000;
/// A living character's body.
pub const PS_CONTENTS_BODY: u32 = 0x200_0000;
/// A dead character's body.
pub const PS_CONTENTS_CORPSE: u32 = 0x400_0000;
/// A ladder.
pub const PS_CONTENTS_LADDER: u32 = 0x2000_0000;
/// A trigger volume.
pub const PS_CONTENTS_TRIGGER: u32 = 0x4000_0000;
/// What stops a generic solid query: solid, window, sky.
pub const PS_MASK_SOLID: u32 = 0x203;
/// What blocks a player: solid, window, sky, player clip, bodies.
pub const PS_MASK_PLAYER_SOLID: u32 = 0x201_0203;
/// What stops a shot: solid, window, sky, bodies, corpses.
pub const PS_MASK_SHOT: u32 = 0x600_0203;
/// Everything that blocks anything, characters aside (`bspc trace`'s default): solid,
/// window, sky and every clip.
pub const PS_MASK_ANY_BLOCKING: u32 = 0x63_0203;
