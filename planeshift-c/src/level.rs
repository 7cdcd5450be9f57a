//! Levels: load one from a file or from bytes (`.map`, `.bsp`, or a compiled `.pbsp` told
//! apart by its magic; from a file also a triangle mesh, `.obj`, `.gltf` or `.glb`, by its
//! extension, with its axis and scale) with the game and shader folders, save it as `.pbsp`
//! bytes, and read its entities, spawn points, materials and point contents.
//!
//! Takes paths, bytes and options from the host; gives `PsLevel` handles and plain results.
//! Guarantees: garbage bytes are [`PsStatus::BadData`] with the loader's message, never a
//! crash; a level is read-only once loaded, so every call taking only a `PsLevel` may run on
//! any number of threads at once (the Rust type is `Send + Sync`).

use std::ffi::c_char;
use std::path::{Path, PathBuf};

use planeshift::build::{Game, MeshAxis, MeshOptions, compile_level, compile_mesh, is_mesh_path};
use planeshift::level::{MAGIC, MaterialId, SpawnRole};
use planeshift::{CompileOptions, CompiledMap, Contents};

use crate::ffi::{PsVec3, bytes, fill, finite, text, write_out};
use crate::status::{Error, PsStatus, guard};
use crate::{LEVELS, PsLevel};

/// How a `.map` or `.bsp` compiles (a `.pbsp` is already compiled and ignores them).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PsLoadOptions {
    /// The game whose rules give contents: `"quake"`, `"quake2"`, `"quake3"`,
    /// `"halflife"`, ...; null detects it from the map.
    pub game: *const c_char,
    /// Folders of Quake 3 shader scripts (`scripts/*.shader`), read for a Quake 3 map; may
    /// be null when `shader_folder_count` is 0.
    pub shader_folders: *const *const c_char,
    /// How many entries `shader_folders` holds.
    pub shader_folder_count: usize,
}

/// The compile options of `options` (null: the defaults).
unsafe fn compile_options(options: *const PsLoadOptions) -> Result<CompileOptions, Error> {
    let mut out = CompileOptions::default();
    // SAFETY: the caller's promise, passed on.
    let Some(options) = (unsafe { options.as_ref() }) else {
        return Ok(out);
    };
    if !options.game.is_null() {
        // SAFETY: non-null, the caller promises a NUL-terminated string.
        let name = unsafe { text(options.game, "options.game") }?;
        out.game = Some(Game::from_name(name).ok_or_else(|| {
            Error::new(PsStatus::InvalidArgument, format!("unknown game `{name}`"))
        })?);
    }
    if options.shader_folder_count > 0 {
        if options.shader_folders.is_null() {
            return Err(crate::ffi::null("options.shader_folders"));
        }
        for i in 0..options.shader_folder_count {
            // SAFETY: the caller promises `shader_folder_count` pointers.
            let folder = unsafe { *options.shader_folders.add(i) };
            // SAFETY: the caller promises each is a NUL-terminated string.
            out.shader_folders.push(PathBuf::from(unsafe {
                text(folder, "options.shader_folders[i]")
            }?));
        }
    }
    Ok(out)
}

/// The level in `data`: a `.pbsp` by its magic, else a `.map` or `.bsp` compiled.
fn load(data: &[u8], options: &CompileOptions) -> Result<CompiledMap, Error> {
    if data.starts_with(&MAGIC) {
        return CompiledMap::from_bytes(data)
            .map_err(|e| Error::new(PsStatus::BadData, e.to_string()));
    }
    compile_level(data, options)
        .map(|c| c.map)
        .map_err(|e| Error::new(PsStatus::BadData, e.to_string()))
}

/// `PsMeshOptions::up`: the file is Z up, as map units are (the default).
pub const PS_MESH_UP_Z: u32 = 0;
/// `PsMeshOptions::up`: the file is Y up (glTF's convention and most modellers'; Godot's
/// and Unity's exports): file (x, y, z) is map (x, −z, y).
pub const PS_MESH_UP_Y: u32 = 1;
/// `PsMeshOptions::up`: the file is placed as `planeshift_bevy` places a level in Bevy's
/// world: file (x, y, z) is map (−z, −x, y).
pub const PS_MESH_UP_Y_BEVY: u32 = 2;

/// How a mesh file's coordinates become map units (`ps_level_load_file_with_mesh`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PsMeshOptions {
    /// Which way is up in the file: `PS_MESH_UP_Z`, `PS_MESH_UP_Y` or
    /// `PS_MESH_UP_Y_BEVY`.
    pub up: u32,
    /// Map units per file unit: 1 for a file in map units, about 32 to 40 for one in
    /// metres. Finite and above 0.
    pub scale: f64,
}

/// The library's mesh options of `mesh` (null: Z up, scale 1); an unknown axis or a scale
/// that is not finite and above 0 is [`PsStatus::InvalidArgument`].
unsafe fn mesh_options(mesh: *const PsMeshOptions) -> Result<MeshOptions, Error> {
    // SAFETY: the caller's promise, passed on.
    let Some(mesh) = (unsafe { mesh.as_ref() }) else {
        return Ok(MeshOptions::default());
    };
    let axis = match mesh.up {
        PS_MESH_UP_Z => MeshAxis::ZUp,
        PS_MESH_UP_Y => MeshAxis::YUp,
        PS_MESH_UP_Y_BEVY => MeshAxis::YUpBevy,
        other => {
            return Err(Error::new(
                PsStatus::InvalidArgument,
                format!("mesh.up {other} is not PS_MESH_UP_Z, PS_MESH_UP_Y or PS_MESH_UP_Y_BEVY"),
            ));
        }
    };
    let options = MeshOptions::new(axis, mesh.scale);
    options
        .validate()
        .map_err(|e| Error::new(PsStatus::InvalidArgument, format!("mesh.scale: {e}")))?;
    Ok(options)
}

/// Loads the level in the file at `path` (UTF-8). `options` may be null (defaults). A
/// mesh (`.obj`, `.gltf` with its buffers beside it, `.glb`: by the extension, any case) is
/// read Z up in map units; `ps_level_load_file_with_mesh` reads one drawn otherwise.
///
/// # Safety
/// `path` is a NUL-terminated string; `options` is null or valid; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_load_file(
    path: *const c_char,
    options: *const PsLoadOptions,
    out: *mut PsLevel,
) -> PsStatus {
    // SAFETY: the caller's promises, passed on (a null mesh: the defaults).
    unsafe { ps_level_load_file_with_mesh(path, options, std::ptr::null(), out) }
}

/// `ps_level_load_file`, a mesh read with `mesh` (null: Z up, scale 1), which a file that
/// is not a mesh ignores.
///
/// # Safety
/// `path` is a NUL-terminated string; `options` and `mesh` are null or valid; `out` is
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_load_file_with_mesh(
    path: *const c_char,
    options: *const PsLoadOptions,
    mesh: *const PsMeshOptions,
    out: *mut PsLevel,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promises, passed on.
        let path = unsafe { text(path, "path") }?;
        // SAFETY: as above.
        let options = unsafe { compile_options(options) }?;
        // SAFETY: as above.
        let mesh = unsafe { mesh_options(mesh) }?;
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let data =
            std::fs::read(path).map_err(|e| Error::new(PsStatus::Io, format!("{path}: {e}")))?;
        let file = Path::new(path);
        let map = if is_mesh_path(file) {
            compile_mesh(&data, file.parent(), &mesh, &options)
                .map(|c| c.map)
                .map_err(|e| Error::new(PsStatus::BadData, e.to_string()))
        } else {
            load(&data, &options)
        }
        .map_err(|e| Error::new(e.status, format!("{path}: {}", e.message)))?;
        let handle = LEVELS.insert(map)?;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, PsLevel(handle), "out") }
    })
}

/// Loads the level in `data[0..len]`. `options` may be null (defaults).
///
/// # Safety
/// `data` points at `len` readable bytes; `options` is null or valid; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_load_bytes(
    data: *const u8,
    len: usize,
    options: *const PsLoadOptions,
    out: *mut PsLevel,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promises, passed on.
        let data = unsafe { bytes(data, len, "data") }?;
        // SAFETY: as above.
        let options = unsafe { compile_options(options) }?;
        if out.is_null() {
            return Err(crate::ffi::null("out"));
        }
        let handle = LEVELS.insert(load(data, &options)?)?;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, PsLevel(handle), "out") }
    })
}

/// Frees a level. A level freed twice, or a handle never made, is
/// [`PsStatus::BadHandle`]. Characters and replays made on it stay valid (they keep no
/// reference to it; each step names its level).
#[unsafe(no_mangle)]
pub extern "C" fn ps_level_free(level: PsLevel) -> PsStatus {
    guard(|| LEVELS.remove(level.0))
}

/// Writes the level as `.pbsp` bytes (what `bspc compile` writes) into `buf` of `cap`
/// bytes and their count to `len_out`; a null `buf` or a short `cap` gives
/// [`PsStatus::BufferTooSmall`] with the count written (ask for the size first).
///
/// # Safety
/// `buf` is null or holds `cap` writable bytes; `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_save(
    level: PsLevel,
    buf: *mut u8,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        let data = LEVELS.with(level.0, CompiledMap::to_bytes)?;
        // SAFETY: the caller's promises, passed on.
        unsafe { fill(&data, false, buf, cap, len_out) }
    })
}

/// The contents at `point` (a bit set of `PS_CONTENTS_*`; 0 is empty space): the world's
/// and its static models'.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_point_contents(
    level: PsLevel,
    point: PsVec3,
    out: *mut u32,
) -> PsStatus {
    guard(|| {
        let point = finite(point, "point")?;
        let contents = LEVELS.with(level.0, |map| map.point_contents(point))?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, contents.0, "out") }
    })
}

/// How many entities the level has (point and brush, in file order; 0 is `worldspawn`).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_entity_count(level: PsLevel, out: *mut usize) -> PsStatus {
    guard(|| {
        let n = LEVELS.with(level.0, |map| map.entities().len())?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, n, "out") }
    })
}

/// The value of `key` (case-sensitive, the first when it repeats) of entity `index`, as a
/// NUL-terminated string in `buf` of `cap` bytes; its length (without the NUL) goes to
/// `len_out`. A missing key is [`PsStatus::NotFound`].
///
/// # Safety
/// `key` is a NUL-terminated string; `buf` is null or holds `cap` writable bytes;
/// `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_entity_value(
    level: PsLevel,
    index: usize,
    key: *const c_char,
    buf: *mut c_char,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let key = unsafe { text(key, "key") }?;
        let value = LEVELS.with(level.0, |map| {
            let entity = map
                .entities()
                .nth(index)
                .ok_or_else(|| Error::new(PsStatus::NotFound, format!("no entity {index}")))?;
            entity.get(key).map(str::to_owned).ok_or_else(|| {
                Error::new(PsStatus::NotFound, format!("entity {index} has no `{key}`"))
            })
        })??;
        // SAFETY: the caller's promises.
        unsafe { fill(value.as_bytes(), true, buf.cast(), cap, len_out) }
    })
}

/// How many key/value pairs entity `index` has (in file order; a key may repeat).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_entity_property_count(
    level: PsLevel,
    index: usize,
    out: *mut usize,
) -> PsStatus {
    guard(|| {
        let n = LEVELS.with(level.0, |map| {
            map.entities().nth(index).map(|e| e.properties().len())
        })?;
        let n = n.ok_or_else(|| Error::new(PsStatus::NotFound, format!("no entity {index}")))?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, n, "out") }
    })
}

/// Key/value pair `property` of entity `index`: the key NUL-terminated in `key_buf` (its
/// length to `key_len`), the value in `value_buf` (its length to `value_len`). Either
/// buffer null or short gives [`PsStatus::BufferTooSmall`] with both lengths written.
///
/// # Safety
/// Each buffer is null or holds its capacity in writable bytes; `key_len` and `value_len`
/// are writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ps_level_entity_property(
    level: PsLevel,
    index: usize,
    property: usize,
    key_buf: *mut c_char,
    key_cap: usize,
    key_len: *mut usize,
    value_buf: *mut c_char,
    value_cap: usize,
    value_len: *mut usize,
) -> PsStatus {
    guard(|| {
        let pair = LEVELS.with(level.0, |map| {
            map.entities()
                .nth(index)
                .and_then(|e| e.properties().get(property).cloned())
        })?;
        let (key, value) = pair.ok_or_else(|| {
            Error::new(
                PsStatus::NotFound,
                format!("no property {property} of entity {index}"),
            )
        })?;
        if value_len.is_null() {
            return Err(crate::ffi::null("value_len"));
        }
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { value_len.write(value.len()) };
        // SAFETY: the caller's promises.
        let key_result = unsafe { fill(key.as_bytes(), true, key_buf.cast(), key_cap, key_len) };
        // SAFETY: the caller's promises.
        let value_result = unsafe {
            fill(
                value.as_bytes(),
                true,
                value_buf.cast(),
                value_cap,
                value_len,
            )
        };
        key_result.and(value_result)
    })
}

/// A place a player may start (`info_player_start`, `info_player_deathmatch`, ...).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PsSpawnPoint {
    /// The spawn entity's index (for its other keys: `ps_level_entity_value`).
    pub entity: usize,
    /// 0 a single-player start, 1 deathmatch, 2 cooperative, 3 a team's (`team`).
    pub role: u32,
    /// The team of a team spawn (1 red, 2 blue as Quake 3's CTF), else 0.
    pub team: u32,
    /// The entity's `origin` as written.
    pub origin: PsVec3,
    /// Where the game puts the player's origin: `origin` raised by the game's lift.
    pub player_origin: PsVec3,
    /// The facing, degrees counter-clockwise from +x (the view's yaw).
    pub yaw: f32,
    /// Quake 3's "initial" spawn flag.
    pub initial: bool,
}

/// How many spawn points the level has.
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_spawn_count(level: PsLevel, out: *mut usize) -> PsStatus {
    guard(|| {
        let n = LEVELS.with(level.0, |map| map.spawn_points().count())?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, n, "out") }
    })
}

/// Spawn point `index` (in entity order).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_spawn_point(
    level: PsLevel,
    index: usize,
    out: *mut PsSpawnPoint,
) -> PsStatus {
    guard(|| {
        let spawn = LEVELS.with(level.0, |map| {
            map.spawn_points().nth(index).map(|s| {
                let (role, team) = match s.role {
                    SpawnRole::Start => (0, 0),
                    SpawnRole::Deathmatch => (1, 0),
                    SpawnRole::Coop => (2, 0),
                    SpawnRole::Team(t) => (3, u32::from(t)),
                };
                PsSpawnPoint {
                    entity: s.entity.index(),
                    role,
                    team,
                    origin: s.origin.into(),
                    player_origin: s.player_origin.into(),
                    yaw: s.yaw,
                    initial: s.initial,
                }
            })
        })?;
        let spawn = spawn
            .ok_or_else(|| Error::new(PsStatus::NotFound, format!("no spawn point {index}")))?;
        // SAFETY: the caller's promise.
        unsafe { write_out(out, spawn, "out") }
    })
}

/// The name of material `material` (a `PsTrace`'s `material`), NUL-terminated in `buf`.
///
/// # Safety
/// `buf` is null or holds `cap` writable bytes; `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_level_material_name(
    level: PsLevel,
    material: u32,
    buf: *mut c_char,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        let name = LEVELS.with(level.0, |map| {
            map.material_name(MaterialId(material)).map(str::to_owned)
        })?;
        let name =
            name.ok_or_else(|| Error::new(PsStatus::NotFound, format!("no material {material}")))?;
        // SAFETY: the caller's promises.
        unsafe { fill(name.as_bytes(), true, buf.cast(), cap, len_out) }
    })
}

/// The names of the contents bits in `contents`, lower case, joined by commas (`""` for
/// none), NUL-terminated in `buf`: the names `bspc trace` prints.
///
/// # Safety
/// `buf` is null or holds `cap` writable bytes; `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_contents_names(
    contents: u32,
    buf: *mut c_char,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        let names: Vec<&str> = Contents(contents).names().collect();
        // SAFETY: the caller's promises.
        unsafe { fill(names.join(",").as_bytes(), true, buf.cast(), cap, len_out) }
    })
}

/// The names of the surface flags in `surface`, joined by commas, NUL-terminated in `buf`.
///
/// # Safety
/// `buf` is null or holds `cap` writable bytes; `len_out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_surface_names(
    surface: u32,
    buf: *mut c_char,
    cap: usize,
    len_out: *mut usize,
) -> PsStatus {
    guard(|| {
        let names: Vec<&str> = planeshift::SurfaceFlags(surface).names().collect();
        // SAFETY: the caller's promises.
        unsafe { fill(names.join(",").as_bytes(), true, buf.cast(), cap, len_out) }
    })
}

/// The contents bits of a name (`"solid"`, `"playerclip"`, `"water"`, ...) or of a mask
/// name (`"player"`, `"monster"`, `"bot"`, `"shot"`, `"solid"`, `"any"`), as `bspc`'s
/// `--mask` reads them; names may be joined by commas.
///
/// # Safety
/// `name` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_contents_from_name(name: *const c_char, out: *mut u32) -> PsStatus {
    guard(|| {
        // SAFETY: the caller's promise.
        let name = unsafe { text(name, "name") }?;
        let mask = match name {
            "player" => Contents::MASK_PLAYER_SOLID,
            "monster" => Contents::MASK_MONSTER_SOLID,
            "bot" => Contents::MASK_BOT_SOLID,
            "shot" => Contents::MASK_SHOT,
            "solid" => Contents::MASK_SOLID,
            "any" => Contents::MASK_ANY_BLOCKING,
            names => {
                let mut mask = Contents::EMPTY;
                for part in names.split(',') {
                    mask |= Contents::from_name(part.trim()).ok_or_else(|| {
                        Error::new(
                            PsStatus::InvalidArgument,
                            format!("unknown mask or contents name `{part}`"),
                        )
                    })?;
                }
                mask
            }
        };
        // SAFETY: the caller's promise.
        unsafe { write_out(out, mask.0, "out") }
    })
}
