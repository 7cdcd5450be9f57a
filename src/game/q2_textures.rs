//! Quake 2 texture defaults: what a face written without its `contents flags value` triple
//! is made of.
//!
//! Takes texture names (and optionally folders of Quake 2 `.wal` textures); gives each
//! name's default triple, and a map whose bare Quake 2 faces carry it. Guarantees: a face
//! that has a triple keeps it; never panics on `.wal` bytes (a file too short for its header
//! is a typed error naming it); lookups are ASCII case-insensitive and treat `\` as `/`.
//!
//! The rule is qbsp3's (Quake-2-Tools `bsp/qbsp3/map.c` `ParseBrush`, `textures.c`
//! `FindMiptex`): a side starts with the contents, flags and value in its texture's `.wal`
//! header (`qfiles.h` `miptex_t`), and three integers after the face replace all three.
//! TrenchBroom writes the triple only for faces whose attributes were set, so without the
//! `.wal` files a bare `e1u1/hint` face would be solid. Lookup order for a bare face:
//!
//! 1. a `.wal` file of that name in a folder given with [`Quake2Textures::load_folder`]
//!    (the first folder that has it wins), its header's flags, contents and value;
//! 2. planeshift's built-in table of Quake 2's tool and liquid textures, by the name after
//!    the last `/` ([`builtin_quake2_defaults`]), made from what each texture is for (the
//!    game's own `.wal` files are not redistributable, so the values are not copied from
//!    them: give the texture folder when they differ);
//! 3. otherwise `0 0 0`, which qbsp3 makes solid.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::map::{FaceExtension, MapFile, SurfaceTriple};

/// The size of a `.wal` header (`qfiles.h` `miptex_t`): name\[32\], width, height,
/// offsets\[4\], animname\[32\], flags, contents, value.
const WAL_HEADER_BYTES: usize = 100;
/// Where the header's `flags` word starts.
const WAL_FLAGS_OFFSET: usize = 88;
/// Where the header's `contents` word starts.
const WAL_CONTENTS_OFFSET: usize = 92;
/// Where the header's `value` word starts.
const WAL_VALUE_OFFSET: usize = 96;
/// How deep [`Quake2Textures::load_folder`] descends below the folder (`textures/e1u1/x.wal`
/// is two levels); deeper files are not read, so a link cycle cannot hang the scan.
const MAX_FOLDER_DEPTH: usize = 8;

/// A texture's default face values, in Quake 2's numbering (`qfiles.h`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quake2TextureDefaults {
    /// `CONTENTS_*` bits.
    pub contents: u32,
    /// `SURF_*` bits.
    pub flags: u32,
    /// The light value (or other game data).
    pub value: i32,
}

impl Quake2TextureDefaults {
    /// The triple a face without one takes.
    #[must_use]
    pub fn triple(self) -> SurfaceTriple {
        SurfaceTriple {
            contents: i64::from(self.contents),
            flags: i64::from(self.flags),
            value: f64::from(self.value),
        }
    }
}

/// A `.wal` file or texture folder that cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Quake2TextureError {
    /// A folder or file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A `.wal` file shorter than its 100-byte header.
    #[error("{}: a .wal header is {WAL_HEADER_BYTES} bytes, the file has {len}", path.display())]
    ShortWal {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        len: usize,
    },
}

/// Reads the defaults a `.wal` header gives (flags, contents, value, little-endian);
/// `None` when `header` is shorter than the header's 100 bytes.
///
/// # Examples
/// ```
/// use planeshift::build::wal_defaults;
/// let mut header = vec![0u8; 100];
/// header[88..92].copy_from_slice(&0x100u32.to_le_bytes()); // HINT
/// let defaults = wal_defaults(&header).unwrap();
/// assert_eq!((defaults.flags, defaults.contents, defaults.value), (0x100, 0, 0));
/// assert!(wal_defaults(&header[..99]).is_none());
/// ```
#[must_use]
pub fn wal_defaults(header: &[u8]) -> Option<Quake2TextureDefaults> {
    let word = |at: usize| -> Option<[u8; 4]> { header.get(at..at + 4)?.try_into().ok() };
    Some(Quake2TextureDefaults {
        flags: u32::from_le_bytes(word(WAL_FLAGS_OFFSET)?),
        contents: u32::from_le_bytes(word(WAL_CONTENTS_OFFSET)?),
        value: i32::from_le_bytes(word(WAL_VALUE_OFFSET)?),
    })
}

/// planeshift's built-in defaults for Quake 2's tool and liquid textures, by the name after
/// the last `/` (case-insensitive); `None` for any other texture (`0 0 0`, solid):
///
/// | name | contents | flags |
/// |---|---|---|
/// | `hint` | – | HINT, NODRAW |
/// | `skip` | – | SKIP, NODRAW |
/// | `clip` | PLAYERCLIP, MONSTERCLIP | NODRAW |
/// | `clip_mon`, `monsterclip` | MONSTERCLIP | NODRAW |
/// | `trigger` | – (its entity makes it a trigger) | NODRAW |
/// | `origin` | ORIGIN | NODRAW |
/// | `sky…` | – (solid) | SKY |
/// | `*…`, `…lava…`, `…slime…`, `…water…` | LAVA, SLIME, WATER (first that matches) | WARP |
///
/// Quake 2's liquids are named for what they are (`e1u1/water1_8`, `e1u1/brlava`); the `*`
/// prefix of Quake's warping textures counts too (water unless the name says lava or slime).
///
/// # Examples
/// ```
/// use planeshift::build::builtin_quake2_defaults;
/// let hint = builtin_quake2_defaults("e1u1/HINT").unwrap();
/// assert_eq!((hint.contents, hint.flags), (0, 0x180));
/// assert_eq!(builtin_quake2_defaults("e1u1/brlava").unwrap().contents, 0x8);
/// assert_eq!(builtin_quake2_defaults("e1u1/ggrat4_2"), None);
/// ```
#[must_use]
pub fn builtin_quake2_defaults(texture: &str) -> Option<Quake2TextureDefaults> {
    use super::q2_flags::contents::{LAVA, MONSTERCLIP, ORIGIN, PLAYERCLIP, SLIME, WATER};
    use super::q2_flags::surf::{HINT, NODRAW, SKIP, SKY, WARP};
    let key = lookup_key(texture);
    let base = key.rsplit('/').next().unwrap_or(&key);
    let (contents, flags) = match base {
        "hint" => (0, HINT | NODRAW),
        "skip" => (0, SKIP | NODRAW),
        "clip" => (PLAYERCLIP | MONSTERCLIP, NODRAW),
        "clip_mon" | "monsterclip" => (MONSTERCLIP, NODRAW),
        "trigger" => (0, NODRAW),
        "origin" => (ORIGIN, NODRAW),
        _ if base.starts_with("sky") => (0, SKY),
        _ if base.contains("lava") => (LAVA, WARP),
        _ if base.contains("slime") => (SLIME, WARP),
        _ if base.contains("water") || base.starts_with('*') => (WATER, WARP),
        _ => return None,
    };
    Some(Quake2TextureDefaults {
        contents,
        flags,
        value: 0,
    })
}

/// A texture name as the table keys it: lowercase, `/` separators, no `.wal` extension.
fn lookup_key(texture: &str) -> String {
    let key = texture.to_ascii_lowercase().replace('\\', "/");
    match key.strip_suffix(".wal") {
        Some(stem) => stem.to_owned(),
        None => key,
    }
}

/// The defaults of every texture a Quake 2 map may name: `.wal` headers read from folders,
/// over the built-in table ([`builtin_quake2_defaults`]).
///
/// # Examples
/// ```
/// use planeshift::build::Quake2Textures;
/// let textures = Quake2Textures::new();
/// assert_eq!(textures.defaults("e1u1/skip").flags, 0x280);
/// assert_eq!(textures.defaults("e1u1/floor3_1").contents, 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Quake2Textures {
    /// `.wal` defaults by [`lookup_key`].
    wal: BTreeMap<String, Quake2TextureDefaults>,
}

impl Quake2Textures {
    /// The built-in table alone.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// How many `.wal` textures have been read.
    #[must_use]
    pub fn wal_count(&self) -> usize {
        self.wal.len()
    }

    /// Reads every `*.wal` file below `folder` (a game's `textures` folder, or the game
    /// folder holding one): the file `folder/e1u1/clip.wal` (or
    /// `folder/textures/e1u1/clip.wal`) answers for `e1u1/clip`. Names already known keep
    /// their first definition. Files are visited in sorted order, at most
    /// `MAX_FOLDER_DEPTH` (8) folders down.
    ///
    /// # Errors
    /// [`Quake2TextureError::Io`] when the folder or a file cannot be read,
    /// [`Quake2TextureError::ShortWal`] for a file too short for its header.
    pub fn load_folder(&mut self, folder: &Path) -> Result<(), Quake2TextureError> {
        let mut files = Vec::new();
        collect_wal_files(folder, "", 0, &mut files)?;
        files.sort();
        for (key, path) in files {
            let defaults = read_wal_header(&path)?;
            let key = key.strip_prefix("textures/").unwrap_or(&key).to_owned();
            self.wal.entry(key).or_insert(defaults);
        }
        Ok(())
    }

    /// Adds one texture's defaults as a `.wal` file would, unless the name is known.
    pub fn insert(&mut self, texture: &str, defaults: Quake2TextureDefaults) {
        self.wal.entry(lookup_key(texture)).or_insert(defaults);
    }

    /// The defaults of `texture`: its `.wal`, else the built-in table, else `0 0 0`.
    #[must_use]
    pub fn defaults(&self, texture: &str) -> Quake2TextureDefaults {
        self.wal
            .get(&lookup_key(texture))
            .copied()
            .or_else(|| builtin_quake2_defaults(texture))
            .unwrap_or_default()
    }

    /// `map` with every face that has no triple given its texture's defaults (borrowed
    /// unchanged when every face has one); the number of faces filled.
    #[must_use]
    pub fn fill_defaults<'a>(&self, map: &'a MapFile) -> (Cow<'a, MapFile>, usize) {
        let bare = |ext: &FaceExtension| matches!(ext, FaceExtension::None);
        let count = map
            .brushes()
            .flat_map(|b| b.faces.iter())
            .filter(|f| bare(&f.extension))
            .count();
        if count == 0 {
            return (Cow::Borrowed(map), 0);
        }
        let mut filled = map.clone();
        let brushes = filled
            .entities
            .iter_mut()
            .flat_map(|e| e.brushes.iter_mut())
            .chain(filled.loose_brushes.iter_mut());
        for face in brushes.flat_map(|b| b.faces.iter_mut()) {
            if bare(&face.extension) {
                face.extension = FaceExtension::Quake2(self.defaults(&face.texture).triple());
            }
        }
        (Cow::Owned(filled), count)
    }
}

/// Appends `(key, path)` for each `.wal` file below `dir`, `prefix` being `dir`'s key.
fn collect_wal_files(
    dir: &Path,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, PathBuf)>,
) -> Result<(), Quake2TextureError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Quake2TextureError::Io { path, source }
    };
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        let Some(name) = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase())
        else {
            continue;
        };
        if path.is_dir() {
            if depth < MAX_FOLDER_DEPTH {
                collect_wal_files(&path, &format!("{prefix}{name}/"), depth + 1, out)?;
            }
        } else if let Some(stem) = name.strip_suffix(".wal") {
            out.push((format!("{prefix}{stem}"), path));
        }
    }
    Ok(())
}

/// The defaults in the header of the `.wal` file at `path` (only the header is read).
fn read_wal_header(path: &Path) -> Result<Quake2TextureDefaults, Quake2TextureError> {
    let io = |source| Quake2TextureError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut header = Vec::with_capacity(WAL_HEADER_BYTES);
    file.take(WAL_HEADER_BYTES as u64)
        .read_to_end(&mut header)
        .map_err(io)?;
    wal_defaults(&header).ok_or_else(|| Quake2TextureError::ShortWal {
        path: path.to_path_buf(),
        len: header.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::parse_map;

    #[test]
    fn builtin_table_names() {
        let d = |name: &str| builtin_quake2_defaults(name).map(|d| (d.contents, d.flags));
        assert_eq!(d("e1u1/clip"), Some((0x3_0000, 0x80)));
        assert_eq!(d("E1U1\\Clip_Mon"), Some((0x2_0000, 0x80)));
        assert_eq!(d("e1u1/trigger"), Some((0, 0x80)));
        assert_eq!(d("e1u1/origin"), Some((0x100_0000, 0x80)));
        assert_eq!(d("e1u1/sky1"), Some((0, 0x4)));
        assert_eq!(d("e1u1/water1_8"), Some((0x20, 0x8)));
        assert_eq!(d("e1u1/sewer_slime"), Some((0x10, 0x8)));
        assert_eq!(d("*04mwat1"), Some((0x20, 0x8)));
        assert_eq!(d("*lava1"), Some((0x8, 0x8)));
        assert_eq!(d("e1u1/hintwall"), None);
        assert_eq!(d("e1u1/florr1_8"), None);
    }

    #[test]
    fn a_face_with_a_triple_keeps_it_and_bare_faces_take_defaults() {
        let src = br#"{ "classname" "worldspawn"
{
( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) e1u1/hint 0 0 0 1 1
( 8 0 0 ) ( 8 0 1 ) ( 8 1 0 ) e1u1/hint 0 0 0 1 1 1 0 0
} }"#;
        let map = parse_map(src).unwrap();
        let (filled, count) = Quake2Textures::new().fill_defaults(&map);
        assert_eq!(count, 1);
        let faces = &filled.entities[0].brushes[0].faces;
        assert_eq!(faces[0].extension.triple().map(|t| t.flags), Some(0x180));
        assert_eq!(faces[1].extension.triple().map(|t| (t.contents, t.flags)), Some((1, 0)));
        let (again, none) = Quake2Textures::new().fill_defaults(&filled);
        assert!(matches!(again, Cow::Borrowed(_)));
        assert_eq!(none, 0);
    }

    #[test]
    fn wal_entries_win_over_the_builtin_table() {
        let mut textures = Quake2Textures::new();
        textures.insert("E1U1/Hint.wal", Quake2TextureDefaults { contents: 1, flags: 0, value: 7 });
        assert_eq!(textures.defaults("e1u1/hint").contents, 1);
        assert_eq!(textures.defaults("e1u1/hint").value, 7);
        assert_eq!(textures.defaults("e2u1/hint").flags, 0x180);
    }
}
