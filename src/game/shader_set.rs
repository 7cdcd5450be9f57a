//! [`ShaderSet`]: every shader a level may name, from script folders over built-in tool
//! shaders.
//!
//! Takes folders of `*.shader` scripts (or script text); gives, for any shader or texture
//! name, its [`ShaderFlags`]. Guarantees, after q3map2's `LoadShaderInfo` and
//! `ShaderInfoForShader` (`shaders.cpp`):
//!
//! - a folder's scripts are read in its `shaderlist.txt` order when it has one, else every
//!   `*.shader` file sorted by name (so the result never depends on the file system's order);
//! - the **first** definition of a name wins: later files and later folders never override
//!   it (duplicates are counted);
//! - the built-in OpenArena / Quake 3 `textures/common/*` tool shaders (caulk, clip, trigger,
//!   hint, the liquid caulks, …) answer when no script defines the name, so a map compiles
//!   right with no scripts at hand; a script's definition always wins over a built-in;
//! - a name without a definition gets `default`: contents SOLID, surface flags 0;
//! - lookups are ASCII case-insensitive and ignore an image extension (`.tga`).
//!
//! The built-ins are the surfaceparms of OpenArena's `scripts/common.shader`, name by name;
//! the integration tests check that both resolve to the same flags.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::q3_flags::{ShaderFlags, surface_parm};
use super::shader::{
    ScriptPos, ShaderDiagnostic, ShaderError, lookup_key, parse_shader_script, shader_list,
};

/// Where a shader's definition comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderOrigin {
    /// planeshift's built-in `common/*` table.
    Builtin,
    /// A script: the file's name (as listed) and the name's position in it.
    Script {
        /// The script file's name.
        file: String,
        /// Where the definition's name is.
        pos: ScriptPos,
    },
}

/// A defined shader: its flags and where they come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedShader {
    /// The flags.
    pub flags: ShaderFlags,
    /// The definition that gave them.
    pub origin: ShaderOrigin,
}

/// A folder or script that cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShaderSetError {
    /// A folder or file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A script is malformed (unbalanced braces, …).
    #[error(transparent)]
    Parse(#[from] ShaderError),
}

/// The file of a folder that orders its scripts (q3map2: `scripts/shaderlist.txt`).
const SHADER_LIST: &str = "shaderlist.txt";

/// The extension of a shader script.
const SCRIPT_EXTENSION: &str = "shader";

/// The prefix q3map2 puts before a `.map` face's texture to get its shader name (`map.cpp`
/// `ParseRawBrush`).
const TEXTURE_PREFIX: &str = "textures/";

/// OpenArena's `textures/common/*` tool shaders (`scripts/common.shader`), each with its
/// surfaceparms in file order (`mirror`'s `q3map_nolightmap` is the alias of
/// `nolightmap`). Applied to `default` like any script.
const BUILTIN_COMMON: [(&str, &[&str]); 36] = [
    ("antiportal", &["nodraw", "nonsolid", "structural", "trans", "antiportal"]),
    (
        "areaportal",
        &["nodraw", "nolightmap", "nonsolid", "structural", "trans", "nomarks", "areaportal"],
    ),
    ("caulk", &["nodraw", "nomarks", "nolightmap"]),
    ("lavacaulk", &["lava", "nodraw", "nomarks", "nolightmap"]),
    ("slimecaulk", &["slime", "nodraw", "nomarks", "nolightmap"]),
    ("watercaulk", &["water", "nodraw", "nomarks", "nolightmap"]),
    ("hint", &["hint", "nodraw", "nonsolid", "structural", "trans", "noimpact"]),
    ("hintlocal", &["nodraw", "nonsolid", "structural", "trans", "noimpact"]),
    ("skip", &["nodraw", "nonsolid", "structural", "trans"]),
    ("nodraw", &["nodraw", "nonsolid", "nomarks", "trans"]),
    ("nodrawnonsolid", &["nonsolid", "nodraw"]),
    ("full_clip", &["nodraw", "playerclip"]),
    ("weapclip", &["nodraw", "trans", "nomarks"]),
    (
        "clip",
        &["nodraw", "playerclip", "nolightmap", "nonsolid", "noimpact", "nomarks"],
    ),
    (
        "metalclip",
        &[
            "nodraw",
            "trans",
            "playerclip",
            "nolightmap",
            "nonsolid",
            "noimpact",
            "metalsteps",
            "nomarks",
        ],
    ),
    ("missileclip", &["nodraw", "trans", "playerclip", "nodamage", "nomarks"]),
    (
        "botclip",
        &["nodraw", "nolightmap", "nonsolid", "trans", "nomarks", "noimpact", "botclip"],
    ),
    ("donotenter", &["nodraw", "nonsolid", "trans", "nomarks", "donotenter"]),
    ("clusterportal", &["nodraw", "nonsolid", "trans", "nomarks", "clusterportal"]),
    ("nodrop", &["trans", "nonsolid", "nomarks", "nodrop", "nolightmap", "nodraw"]),
    ("trigger", &["nodraw"]),
    ("origin", &["nodraw", "nonsolid", "origin"]),
    ("slick", &["nodraw", "nomarks", "trans", "slick"]),
    ("cushion", &["nodraw", "nomarks", "nodamage", "trans"]),
    ("portal", &["nolightmap"]),
    ("mirror", &["nolightmap"]),
    ("timportal", &["nolightmap"]),
    ("mirror1", &["nolightmap"]),
    ("mirror2", &["nolightmap"]),
    ("terrain", &["nodraw", "nolightmap", "nomarks"]),
    ("terrain2", &["dust", "nodraw", "nomarks", "nolightmap"]),
    ("invisible", &["nolightmap"]),
    (
        "lightgrid",
        &["nodraw", "nolightmap", "nonsolid", "detail", "nomarks", "trans", "lightgrid"],
    ),
    ("noimpact", &["noimpact"]),
    ("sky_space", &["noimpact", "nolightmap", "sky"]),
    ("teleporter", &["nolightmap", "noimpact"]),
];

/// The folder of the built-in tool shaders' names.
const BUILTIN_PREFIX: &str = "textures/common/";

/// Every shader a level may name. See the module doc for the rules.
///
/// [`ShaderSet::default`] is [`ShaderSet::new`]: the built-ins and no scripts.
#[derive(Clone, Debug)]
pub struct ShaderSet {
    /// Script definitions, first wins, by lower-case name.
    scripts: BTreeMap<String, ResolvedShader>,
    /// The built-in tool shaders (empty for [`ShaderSet::without_builtins`]).
    builtins: BTreeMap<String, ResolvedShader>,
    /// Names defined more than once in scripts.
    duplicated: BTreeSet<String>,
    /// Script definitions ignored because the name was already defined.
    redefinitions: usize,
    /// The scripts read, in order.
    files: Vec<String>,
    /// Every script warning, in reading order.
    diagnostics: Vec<ShaderDiagnostic>,
}

impl ShaderSet {
    /// The built-in `common/*` tool shaders and no scripts.
    pub fn new() -> Self {
        let mut builtins = BTreeMap::new();
        for (name, parms) in BUILTIN_COMMON {
            let mut flags = ShaderFlags::DEFAULT;
            for parm in parms {
                if let Some(parm) = surface_parm(parm) {
                    parm.apply(&mut flags);
                }
            }
            builtins.insert(
                format!("{BUILTIN_PREFIX}{name}"),
                ResolvedShader {
                    flags,
                    origin: ShaderOrigin::Builtin,
                },
            );
        }
        ShaderSet {
            builtins,
            ..ShaderSet::without_builtins()
        }
    }

    /// No built-ins and no scripts: every name gets `default` until scripts are added.
    pub fn without_builtins() -> Self {
        ShaderSet {
            scripts: BTreeMap::new(),
            builtins: BTreeMap::new(),
            duplicated: BTreeSet::new(),
            redefinitions: 0,
            files: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The built-ins, then the scripts of each folder in order ([`ShaderSet::load_folder`]).
    ///
    /// # Errors
    ///
    /// The first [`ShaderSetError`] of [`ShaderSet::load_folder`].
    pub fn from_folders<P: AsRef<Path>>(folders: &[P]) -> Result<Self, ShaderSetError> {
        let mut set = ShaderSet::new();
        for folder in folders {
            set.load_folder(folder.as_ref())?;
        }
        Ok(set)
    }

    /// Reads a folder's scripts: those its `shaderlist.txt` lists, in its order, else every
    /// `*.shader` file sorted by name. Names already defined keep their definition.
    ///
    /// # Errors
    ///
    /// [`ShaderSetError::Io`] when the folder or a script cannot be read (a script the list
    /// names but the folder lacks included, as q3map2 stops there too);
    /// [`ShaderSetError::Parse`] for a malformed script. Scripts read before the failure stay
    /// in the set.
    pub fn load_folder(&mut self, folder: &Path) -> Result<(), ShaderSetError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ShaderSetError::Io { path, source }
        };
        let list = folder.join(SHADER_LIST);
        let files = if list.is_file() {
            shader_list(&std::fs::read(&list).map_err(io(&list))?)
        } else {
            let mut files = Vec::new();
            for entry in std::fs::read_dir(folder).map_err(io(folder))? {
                let path = entry.map_err(io(folder))?.path();
                let is_script = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case(SCRIPT_EXTENSION));
                if is_script
                    && path.is_file()
                    && let Some(name) = path.file_name()
                {
                    files.push(name.to_string_lossy().into_owned());
                }
            }
            files.sort();
            files
        };
        for file in files {
            let path = folder.join(&file);
            let text = std::fs::read(&path).map_err(io(&path))?;
            self.add_script(&file, &text)?;
        }
        Ok(())
    }

    /// Reads one script's text (`file` names it in messages and origins) after those already
    /// read.
    ///
    /// # Errors
    ///
    /// The script's [`ShaderError`]; the set is then unchanged.
    pub fn add_script(&mut self, file: &str, text: &[u8]) -> Result<(), ShaderError> {
        let script = parse_shader_script(file, text)?;
        for def in script.defs {
            match self.scripts.entry(def.name) {
                Entry::Occupied(first) => {
                    self.redefinitions += 1;
                    self.duplicated.insert(first.key().clone());
                }
                Entry::Vacant(slot) => {
                    slot.insert(ResolvedShader {
                        flags: def.flags,
                        origin: ShaderOrigin::Script {
                            file: file.to_string(),
                            pos: def.pos,
                        },
                    });
                }
            }
        }
        self.diagnostics.extend(script.diagnostics);
        self.files.push(file.to_string());
        Ok(())
    }

    /// The definition of a shader name (a script's, else a built-in), or `None` when it has
    /// none. Case-insensitive; an image extension is ignored.
    pub fn get(&self, name: &str) -> Option<&ResolvedShader> {
        let key = lookup_key(name);
        self.scripts.get(&key).or_else(|| self.builtins.get(&key))
    }

    /// The flags of a shader name: its definition's, else `default` (contents SOLID, surface
    /// flags 0).
    pub fn flags(&self, name: &str) -> ShaderFlags {
        self.get(name).map_or(ShaderFlags::DEFAULT, |s| s.flags)
    }

    /// The flags of a Quake 3 `.map` face's texture (`common/caulk`): the shader
    /// `textures/` + texture, as q3map2 names it.
    pub fn texture_flags(&self, texture: &str) -> ShaderFlags {
        self.flags(&format!("{TEXTURE_PREFIX}{texture}"))
    }

    /// The script definitions (first of each name), by name.
    pub fn scripts(&self) -> impl Iterator<Item = (&str, &ResolvedShader)> {
        self.scripts.iter().map(|(name, s)| (name.as_str(), s))
    }

    /// The built-in definitions, by name (whether or not a script overrides them).
    pub fn builtins(&self) -> impl Iterator<Item = (&str, &ResolvedShader)> {
        self.builtins.iter().map(|(name, s)| (name.as_str(), s))
    }

    /// The names defined more than once in scripts, sorted.
    pub fn duplicated_names(&self) -> impl Iterator<Item = &str> {
        self.duplicated.iter().map(String::as_str)
    }

    /// How many script definitions were ignored because their name was already defined.
    pub fn redefinitions(&self) -> usize {
        self.redefinitions
    }

    /// The scripts read, in order.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Every warning of the scripts read, in order.
    pub fn diagnostics(&self) -> &[ShaderDiagnostic] {
        &self.diagnostics
    }
}

impl Default for ShaderSet {
    fn default() -> Self {
        ShaderSet::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::q3_flags::{contents, surf};

    #[test]
    fn builtins_resolve_and_scripts_win() {
        let mut set = ShaderSet::new();
        assert_eq!(set.texture_flags("common/caulk").surface, surf::NODRAW | surf::NOMARKS | surf::VERTEXLIT);
        assert_eq!(set.texture_flags("COMMON/Clip.tga").contents, contents::PLAYERCLIP);
        assert_eq!(set.texture_flags("base/wall"), ShaderFlags::DEFAULT);
        let added = set.add_script("a.shader", b"textures/common/caulk\n{\nsurfaceparm water\n}\ntextures/common/caulk\n{\nsurfaceparm lava\n}\n");
        assert!(added.is_ok());
        assert_eq!(set.texture_flags("common/caulk").contents, contents::WATER);
        assert_eq!(set.redefinitions(), 1);
        assert_eq!(set.duplicated_names().collect::<Vec<_>>(), ["textures/common/caulk"]);
        let added = set.add_script("b.shader", b"textures/common/caulk\n{\n}\n");
        assert!(added.is_ok());
        assert_eq!(set.texture_flags("common/caulk").contents, contents::WATER);
        assert_eq!(set.redefinitions(), 2);
    }

    #[test]
    fn every_builtin_parm_is_known() {
        for (name, parms) in BUILTIN_COMMON {
            for parm in parms {
                assert!(surface_parm(parm).is_some(), "{name}: {parm}");
            }
        }
    }

    #[test]
    fn shader_list_adds_extension_and_dedupes() {
        assert_eq!(
            shader_list(b"common\n// x\nBase.shader\nCOMMON.shader\n"),
            ["common.shader", "Base.shader"]
        );
    }
}
