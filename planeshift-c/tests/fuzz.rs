//! A fuzz of the C entry points, called as a host would: null pointers, null buffers with
//! lengths, lengths larger than any buffer, handles never made, freed twice, stale after
//! their slot was reused, of another kind, and garbage bytes as levels and states. Each
//! call must return an error code (never `PS_STATUS_OK`, never a crash) and leave a message.

use std::ffi::{CStr, c_char};
use std::ptr::{null, null_mut};

use planeshift_c::character::*;
use planeshift_c::crowd::*;
use planeshift_c::ffi::PsVec3;
use planeshift_c::level::*;
use planeshift_c::query::*;
use planeshift_c::replay::*;
use planeshift_c::status::{PsStatus, ps_last_error};
use planeshift_c::*;
use planeshift_testkit::real_maps::repo_root;

/// A small xorshift: the fuzz's inputs, the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn message() -> String {
    // SAFETY: ps_last_error gives a NUL-terminated string valid until the next failure.
    unsafe { CStr::from_ptr(ps_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts `status` is the failure `want` and a message was left.
fn fails(status: PsStatus, want: PsStatus, what: &str, count: &mut usize) {
    assert_eq!(status, want, "{what}: {}", message());
    assert!(!message().is_empty(), "{what}: no message");
    *count += 1;
}

fn c(text: &str) -> std::ffi::CString {
    std::ffi::CString::new(text).expect("no NUL")
}

const V: PsVec3 = PsVec3 {
    x: 0.0,
    y: 0.0,
    z: 0.0,
};

#[test]
fn every_entry_point_refuses_bad_pointers_and_handles() {
    let mut n = 0;
    let arena = c(repo_root()
        .join("maps/arena.map")
        .to_str()
        .expect("UTF-8 path"));
    let mut level = PsLevel(0);
    // SAFETY (every unsafe call below): the pointers are null, or valid for what they say;
    // the fuzz is of the checks, not of the host's promises.
    unsafe {
        // Null pointers where one is needed.
        fails(
            ps_level_load_file(null(), null(), &mut level),
            PsStatus::NullPointer,
            "load null path",
            &mut n,
        );
        fails(
            ps_level_load_file(arena.as_ptr(), null(), null_mut()),
            PsStatus::NullPointer,
            "load null out",
            &mut n,
        );
        fails(
            ps_level_load_file_with_mesh(null(), null(), null(), &mut level),
            PsStatus::NullPointer,
            "load with mesh null path",
            &mut n,
        );
        fails(
            ps_level_load_file_with_mesh(arena.as_ptr(), null(), null(), null_mut()),
            PsStatus::NullPointer,
            "load with mesh null out",
            &mut n,
        );
        fails(
            ps_level_load_bytes(null(), 10, null(), &mut level),
            PsStatus::NullPointer,
            "bytes null data",
            &mut n,
        );
        fails(
            ps_level_load_bytes(std::ptr::dangling::<u8>(), usize::MAX, null(), &mut level),
            PsStatus::InvalidArgument,
            "bytes huge len",
            &mut n,
        );
        let bad_opts = PsLoadOptions {
            game: null(),
            shader_folders: null(),
            shader_folder_count: 3,
        };
        fails(
            ps_level_load_file(arena.as_ptr(), &bad_opts, &mut level),
            PsStatus::NullPointer,
            "shader folders null",
            &mut n,
        );
        let game = c("doom");
        let bad_game = PsLoadOptions {
            game: game.as_ptr(),
            shader_folders: null(),
            shader_folder_count: 0,
        };
        fails(
            ps_level_load_file(arena.as_ptr(), &bad_game, &mut level),
            PsStatus::InvalidArgument,
            "unknown game",
            &mut n,
        );
        let missing = c("/no/such/level.map");
        fails(
            ps_level_load_file(missing.as_ptr(), null(), &mut level),
            PsStatus::Io,
            "missing file",
            &mut n,
        );
        let not_utf8 = [0xffu8, 0xfe, 0];
        fails(
            ps_level_load_file(not_utf8.as_ptr().cast(), null(), &mut level),
            PsStatus::Utf8,
            "path not UTF-8",
            &mut n,
        );

        // A real level, then every call on it with a bad pointer.
        assert_eq!(
            ps_level_load_file(arena.as_ptr(), null(), &mut level),
            PsStatus::Ok,
            "{}",
            message()
        );
        let mut shape = PsShape(0);
        assert_eq!(ps_shape_point(&mut shape), PsStatus::Ok);
        let mut trace = PsTrace::default();
        fails(
            ps_level_trace(level, shape, V, V, 1, null_mut()),
            PsStatus::NullPointer,
            "trace null out",
            &mut n,
        );
        let nan = PsVec3 {
            x: f32::NAN,
            y: 0.0,
            z: 0.0,
        };
        fails(
            ps_level_trace(level, shape, nan, V, 1, &mut trace),
            PsStatus::InvalidArgument,
            "trace NaN",
            &mut n,
        );
        fails(
            ps_level_point_contents(level, V, null_mut()),
            PsStatus::NullPointer,
            "contents null",
            &mut n,
        );
        let mut len = 0usize;
        fails(
            ps_level_save(level, null_mut(), 0, &mut len),
            PsStatus::BufferTooSmall,
            "save size query",
            &mut n,
        );
        assert!(len > 0);
        let mut small = [0u8; 4];
        fails(
            ps_level_save(level, small.as_mut_ptr(), small.len(), &mut len),
            PsStatus::BufferTooSmall,
            "save short",
            &mut n,
        );
        fails(
            ps_level_save(level, small.as_mut_ptr(), small.len(), null_mut()),
            PsStatus::NullPointer,
            "save null len",
            &mut n,
        );
        let key = c("classname");
        let mut buf = [0 as c_char; 4];
        fails(
            ps_level_entity_value(
                level,
                0,
                key.as_ptr(),
                buf.as_mut_ptr(),
                buf.len(),
                &mut len,
            ),
            PsStatus::BufferTooSmall,
            "entity short",
            &mut n,
        );
        assert_eq!(len, "worldspawn".len());
        fails(
            ps_level_entity_value(
                level,
                1 << 40,
                key.as_ptr(),
                buf.as_mut_ptr(),
                buf.len(),
                &mut len,
            ),
            PsStatus::NotFound,
            "entity index",
            &mut n,
        );
        fails(
            ps_level_entity_value(level, 0, null(), buf.as_mut_ptr(), buf.len(), &mut len),
            PsStatus::NullPointer,
            "entity null key",
            &mut n,
        );
        fails(
            ps_level_entity_property_count(level, usize::MAX, &mut len),
            PsStatus::NotFound,
            "property count index",
            &mut n,
        );
        let mut value_len = 0usize;
        fails(
            ps_level_entity_property(
                level,
                0,
                usize::MAX,
                buf.as_mut_ptr(),
                4,
                &mut len,
                buf.as_mut_ptr(),
                4,
                &mut value_len,
            ),
            PsStatus::NotFound,
            "property index",
            &mut n,
        );
        fails(
            ps_level_entity_property(
                level,
                0,
                0,
                buf.as_mut_ptr(),
                4,
                &mut len,
                buf.as_mut_ptr(),
                4,
                null_mut(),
            ),
            PsStatus::NullPointer,
            "property null len",
            &mut n,
        );
        fails(
            ps_level_entity_property(
                level,
                0,
                0,
                null_mut(),
                0,
                &mut len,
                null_mut(),
                0,
                &mut value_len,
            ),
            PsStatus::BufferTooSmall,
            "property size query",
            &mut n,
        );
        assert!(len > 0 && value_len > 0);
        let mut spawn = PsSpawnPoint::default();
        fails(
            ps_level_spawn_point(level, usize::MAX, &mut spawn),
            PsStatus::NotFound,
            "spawn index",
            &mut n,
        );
        fails(
            ps_level_material_name(level, u32::MAX, buf.as_mut_ptr(), 4, &mut len),
            PsStatus::NotFound,
            "material",
            &mut n,
        );
        fails(
            ps_shape_hull(null(), 4, &mut shape),
            PsStatus::NullPointer,
            "hull null",
            &mut n,
        );
        fails(
            ps_shape_hull(std::ptr::dangling::<PsVec3>(), usize::MAX, &mut shape),
            PsStatus::InvalidArgument,
            "hull huge",
            &mut n,
        );
        let not_finite = [V, nan, V, V];
        fails(
            ps_shape_hull(not_finite.as_ptr(), 4, &mut shape),
            PsStatus::InvalidArgument,
            "hull NaN",
            &mut n,
        );
        fails(
            ps_shape_sphere(-1.0, &mut shape),
            PsStatus::InvalidArgument,
            "sphere negative",
            &mut n,
        );
        fails(
            ps_shape_sphere(f32::INFINITY, &mut shape),
            PsStatus::InvalidArgument,
            "sphere inf",
            &mut n,
        );
        let spec = c("box:1,2");
        fails(
            ps_shape_from_spec(spec.as_ptr(), &mut shape),
            PsStatus::InvalidArgument,
            "bad spec",
            &mut n,
        );
        let name = c("solid,nonsense");
        let mut bits = 0u32;
        fails(
            ps_contents_from_name(name.as_ptr(), &mut bits),
            PsStatus::InvalidArgument,
            "bad contents name",
            &mut n,
        );

        // Characters.
        let mut config = PsConfig(0);
        let bad_toml = c("gravity = \"down\"");
        fails(
            ps_config_from_toml(bad_toml.as_ptr(), &mut config),
            PsStatus::InvalidArgument,
            "bad toml",
            &mut n,
        );
        let unknown = c("no_such_field = 1");
        fails(
            ps_config_from_toml(unknown.as_ptr(), &mut config),
            PsStatus::InvalidArgument,
            "unknown toml key",
            &mut n,
        );
        assert_eq!(ps_config_default(&mut config), PsStatus::Ok);
        let mut ch = PsCharacter(0);
        fails(
            ps_character_new(config, nan, &mut ch),
            PsStatus::InvalidArgument,
            "character NaN",
            &mut n,
        );
        assert_eq!(
            ps_character_new(
                config,
                PsVec3 {
                    x: 1024.0,
                    y: 1024.0,
                    z: 24.0
                },
                &mut ch
            ),
            PsStatus::Ok
        );
        fails(
            ps_character_step(ch, level, null(), null_mut()),
            PsStatus::NullPointer,
            "step null input",
            &mut n,
        );
        let mode = c("swimming");
        fails(
            ps_character_set_mode(ch, mode.as_ptr()),
            PsStatus::InvalidArgument,
            "bad mode",
            &mut n,
        );
        fails(
            ps_character_teleport(ch, nan, V, 0.0),
            PsStatus::InvalidArgument,
            "teleport NaN",
            &mut n,
        );
        fails(
            ps_character_impulse(ch, V, -1.0),
            PsStatus::InvalidArgument,
            "impulse negative hold",
            &mut n,
        );
        fails(
            ps_character_restore_state(ch, null(), 5),
            PsStatus::NullPointer,
            "restore null",
            &mut n,
        );
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let garbage: Vec<u8> = (0..rng.next() % 300).map(|_| rng.next() as u8).collect();
            assert_ne!(
                ps_character_restore_state(ch, garbage.as_ptr(), garbage.len()),
                PsStatus::Ok
            );
            n += 1;
        }
        // The character still steps after all that.
        let input = PsMoveInput {
            wish: PsVec3 {
                x: 1.0,
                y: 0.0,
                z: 0.0,
            },
            ..PsMoveInput::default()
        };
        let mut out = PsOutcome::default();
        assert_eq!(
            ps_character_step(ch, level, &input, &mut out),
            PsStatus::Ok,
            "{}",
            message()
        );

        // Replays.
        let mut replay = PsReplay(0);
        let bad_spawn = c("{\"spawn\":[1,2]}");
        fails(
            ps_replay_new(config, bad_spawn.as_ptr(), 1, &mut replay),
            PsStatus::BadData,
            "bad spawn line",
            &mut n,
        );
        assert!(message().contains("line 1"), "{}", message());
        let spawn_line = c("{\"spawn\":[1024,1024,40]}");
        assert_eq!(
            ps_replay_new(config, spawn_line.as_ptr(), 1, &mut replay),
            PsStatus::Ok
        );
        let bad_tick = c("{\"wish\":[1,0,0],\"fly\":true}");
        fails(
            ps_replay_tick(
                replay,
                level,
                bad_tick.as_ptr(),
                2,
                buf.as_mut_ptr(),
                buf.len(),
                &mut len,
            ),
            PsStatus::BadData,
            "unknown key",
            &mut n,
        );
        assert!(
            message().contains("line 2") && message().contains("fly"),
            "{}",
            message()
        );

        // Bad handles: never made, of another kind, zero, freed twice, stale.
        fails(
            ps_level_trace(PsLevel(0), shape, V, V, 1, &mut trace),
            PsStatus::BadHandle,
            "level 0",
            &mut n,
        );
        fails(
            ps_level_trace(PsLevel(0xdead_beef_0000_0007), shape, V, V, 1, &mut trace),
            PsStatus::BadHandle,
            "level never made",
            &mut n,
        );
        fails(
            ps_level_trace(level, PsShape(ch.0 + (1 << 40)), V, V, 1, &mut trace),
            PsStatus::BadHandle,
            "shape of another kind",
            &mut n,
        );
        fails(
            ps_character_step(PsCharacter(level.0 ^ (1 << 50)), level, &input, &mut out),
            PsStatus::BadHandle,
            "character bad",
            &mut n,
        );
        fails(
            ps_crowd_step(PsCrowd(12345), level),
            PsStatus::BadHandle,
            "crowd bad",
            &mut n,
        );
        assert_eq!(ps_replay_free(replay), PsStatus::Ok);
        fails(
            ps_replay_free(replay),
            PsStatus::BadHandle,
            "replay double free",
            &mut n,
        );
        assert_eq!(ps_character_free(ch), PsStatus::Ok);
        fails(
            ps_character_free(ch),
            PsStatus::BadHandle,
            "character double free",
            &mut n,
        );
        fails(
            ps_character_step(ch, level, &input, &mut out),
            PsStatus::BadHandle,
            "character after free",
            &mut n,
        );
        assert_eq!(ps_shape_free(shape), PsStatus::Ok);
        fails(
            ps_shape_free(shape),
            PsStatus::BadHandle,
            "shape double free",
            &mut n,
        );
        // The slot is reused by the next shape: the old handle stays refused.
        let mut reused = PsShape(0);
        assert_eq!(ps_shape_point(&mut reused), PsStatus::Ok);
        assert_eq!(
            reused.0 & 0xffff_ffff,
            shape.0 & 0xffff_ffff,
            "the slot is reused"
        );
        fails(
            ps_level_trace(level, shape, V, V, 1, &mut trace),
            PsStatus::BadHandle,
            "stale shape",
            &mut n,
        );
        assert_eq!(
            ps_level_trace(level, reused, V, V, 1, &mut trace),
            PsStatus::Ok
        );
        assert_eq!(ps_shape_free(reused), PsStatus::Ok);
        assert_eq!(ps_config_free(config), PsStatus::Ok);
        fails(
            ps_config_free(config),
            PsStatus::BadHandle,
            "config double free",
            &mut n,
        );
        assert_eq!(ps_level_free(level), PsStatus::Ok);
        fails(
            ps_level_free(level),
            PsStatus::BadHandle,
            "level double free",
            &mut n,
        );
    }
    println!("fuzz: {n} bad calls, each refused with its code and a message");
}

#[test]
fn garbage_bytes_as_levels_are_errors() {
    let arena = std::fs::read(repo_root().join("maps/arena.map")).expect("arena.map");
    let mut level = PsLevel(0);
    // SAFETY: every buffer is valid for its length.
    let saved = unsafe {
        assert_eq!(
            ps_level_load_bytes(arena.as_ptr(), arena.len(), null(), &mut level),
            PsStatus::Ok
        );
        let mut len = 0;
        let _ = ps_level_save(level, null_mut(), 0, &mut len);
        let mut saved = vec![0u8; len];
        assert_eq!(
            ps_level_save(level, saved.as_mut_ptr(), len, &mut len),
            PsStatus::Ok
        );
        assert_eq!(ps_level_free(level), PsStatus::Ok);
        saved
    };
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut refused, mut loaded) = (0, 0);
    for round in 0..300 {
        // Random bytes, a `.pbsp` cut short or with flipped bytes, a `.map` with flipped bytes.
        let data: Vec<u8> = match round % 4 {
            0 => (0..rng.next() % 2000).map(|_| rng.next() as u8).collect(),
            1 => saved[..(rng.next() as usize % saved.len())].to_vec(),
            2 => {
                let mut d = saved.clone();
                for _ in 0..1 + rng.next() % 8 {
                    let i = rng.next() as usize % d.len();
                    d[i] ^= 1 << (rng.next() % 8);
                }
                d
            }
            _ => {
                let mut d = arena.clone();
                for _ in 0..1 + rng.next() % 8 {
                    let i = rng.next() as usize % d.len();
                    d[i] = rng.next() as u8;
                }
                d
            }
        };
        let mut h = PsLevel(0);
        // SAFETY: `data` is valid for its length.
        let status = unsafe { ps_level_load_bytes(data.as_ptr(), data.len(), null(), &mut h) };
        match status {
            PsStatus::Ok => {
                // A flipped comment byte or number can still be a level: it must work.
                loaded += 1;
                assert_eq!(ps_level_free(h), PsStatus::Ok);
            }
            PsStatus::BadData => {
                assert!(!message().is_empty());
                refused += 1;
            }
            other => panic!("round {round}: {other:?}: {}", message()),
        }
    }
    println!(
        "fuzz: 300 garbage levels, {refused} refused with PS_STATUS_BAD_DATA, {loaded} still levels"
    );
    assert!(refused >= 200, "only {refused} refused");
}

#[test]
fn the_header_constants_are_the_librarys() {
    use planeshift::Contents;
    assert_eq!(PS_MASK_SOLID, Contents::MASK_SOLID.0);
    assert_eq!(PS_MASK_PLAYER_SOLID, Contents::MASK_PLAYER_SOLID.0);
    assert_eq!(PS_MASK_SHOT, Contents::MASK_SHOT.0);
    assert_eq!(PS_MASK_ANY_BLOCKING, Contents::MASK_ANY_BLOCKING.0);
    for (value, name) in [
        (PS_CONTENTS_SOLID, "solid"),
        (PS_CONTENTS_WINDOW, "window"),
        (PS_CONTENTS_LAVA, "lava"),
        (PS_CONTENTS_SLIME, "slime"),
        (PS_CONTENTS_WATER, "water"),
        (PS_CONTENTS_FOG, "fog"),
        (PS_CONTENTS_SKY, "sky"),
        (PS_CONTENTS_PLAYERCLIP, "playerclip"),
        (PS_CONTENTS_MONSTERCLIP, "monsterclip"),
        (PS_CONTENTS_BODY, "body"),
        (PS_CONTENTS_CORPSE, "corpse"),
        (PS_CONTENTS_LADDER, "ladder"),
        (PS_CONTENTS_TRIGGER, "trigger"),
    ] {
        assert_eq!(Some(Contents(value)), Contents::from_name(name), "{name}");
    }
    // SAFETY: ps_version gives a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(ps_version()) }
        .to_str()
        .expect("UTF-8");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(ps_abi_version(), PS_ABI_VERSION);
}
