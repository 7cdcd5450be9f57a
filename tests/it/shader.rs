//! Quake 3 shader semantics (`src/game/`) on the real OpenArena scripts: every file reads,
//! the measured counts, the resolved `common/*` table from the scripts and from the built-ins,
//! q3map2's brush rule on examples and on kaos, the nine lost levels' `.bsp` files as ground
//! truth (shader entries; brush contents model by model), and seeded mutations that never
//! panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use planeshift::game::q3_flags::{ShaderFlags, compile, contents, surf};
use planeshift::game::{Q3Side, ShaderSet, parse_shader_script, q3_brush_contents};
use planeshift::map::parse_map;

use crate::support::{Pcg32, read, real_maps_dir};

/// The OpenArena script folder and the lost levels' extra scripts, under the real maps.
const OPENARENA_SCRIPTS: &str = "openarena-shaders/scripts";
const LOSTLEVELS_SCRIPTS: &str = "openarena-lostlevels/scripts";

/// Every `*.shader` file of `dir`, sorted.
fn scripts_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "shader"))
        .collect();
    files.sort();
    files
}

fn openarena_set(root: &Path) -> ShaderSet {
    let mut set = ShaderSet::without_builtins();
    set.load_folder(&root.join(OPENARENA_SCRIPTS))
        .unwrap_or_else(|e| panic!("{e}"));
    set.load_folder(&root.join(LOSTLEVELS_SCRIPTS))
        .unwrap_or_else(|e| panic!("{e}"));
    set
}

#[test]
fn every_real_script_reads_without_error() {
    let Some(root) = real_maps_dir("every_real_script_reads_without_error") else {
        return;
    };
    let mut files = scripts_in(&root.join(OPENARENA_SCRIPTS));
    files.extend(scripts_in(&root.join(LOSTLEVELS_SCRIPTS)));
    assert_eq!(files.len(), 225);
    let mut diagnostics = Vec::new();
    let mut defs = 0;
    for path in &files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        match parse_shader_script(&name, &read(path)) {
            Ok(script) => {
                defs += script.defs.len();
                diagnostics.extend(script.diagnostics.iter().map(|d| d.to_string()));
            }
            Err(e) => panic!("{e}"),
        }
    }
    println!("{} files, {defs} definitions", files.len());
    for d in &diagnostics {
        println!("{d}");
    }
    // The only warnings q3map2 would give on these files (each checked by hand).
    assert_eq!(diagnostics, Vec::<String>::new());
}

#[test]
fn openarena_counts_match_the_measured_ones() {
    let Some(root) = real_maps_dir("openarena_counts_match_the_measured_ones") else {
        return;
    };
    // The 2,157 names are those of all 225 files (the lost levels' extra scripts add 7).
    let set = openarena_set(&root);
    assert_eq!(set.files().len(), 225);
    assert_eq!(set.redefinitions(), 61);
    let names = set.scripts().count();
    let duplicated = set.duplicated_names().count();
    let count =
        |pred: &dyn Fn(&ShaderFlags) -> bool| set.scripts().filter(|(_, s)| pred(&s.flags)).count();
    let measured = [
        ("names", names),
        ("defined more than once", duplicated),
        ("nonsolid", count(&|f| f.surface & surf::NONSOLID != 0)),
        ("fog", count(&|f| f.contents & contents::FOG != 0)),
        ("sky", count(&|f| f.surface & surf::SKY != 0)),
        ("water", count(&|f| f.contents & contents::WATER != 0)),
        ("nodamage", count(&|f| f.surface & surf::NODAMAGE != 0)),
        ("lava", count(&|f| f.contents & contents::LAVA != 0)),
        ("slime", count(&|f| f.contents & contents::SLIME != 0)),
        (
            "playerclip",
            count(&|f| f.contents & contents::PLAYERCLIP != 0),
        ),
        ("botclip", count(&|f| f.contents & contents::BOTCLIP != 0)),
        ("slick", count(&|f| f.surface & surf::SLICK != 0)),
        ("ladder", count(&|f| f.surface & surf::LADDER != 0)),
        ("trigger", count(&|f| f.contents & contents::TRIGGER != 0)),
        (
            "monsterclip",
            count(&|f| f.contents & contents::MONSTERCLIP != 0),
        ),
        ("lack SOLID", count(&|f| f.contents & contents::SOLID == 0)),
    ];
    println!("{measured:?}");
    let expected = [
        ("names", 2157),
        // 59 in game-semantics 2.2, which leaves out the two names repeated inside one file
        // (see `duplicate_definitions_all_agree`).
        ("defined more than once", 61),
        ("nonsolid", 392),
        ("fog", 91),
        ("sky", 71),
        ("water", 38),
        ("nodamage", 22),
        ("lava", 18),
        ("slime", 10),
        ("playerclip", 8),
        ("botclip", 2),
        ("slick", 1),
        ("ladder", 0),
        ("trigger", 0),
        ("monsterclip", 0),
        ("lack SOLID", 440),
    ];
    assert_eq!(measured, expected);
    // The only slick shader is common/slick.
    let slick: Vec<&str> = set
        .scripts()
        .filter(|(_, s)| s.flags.surface & surf::SLICK != 0)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(slick, ["textures/common/slick"]);
}

/// Names defined twice in one file: `icons/iconw_grapple` (`icons.shader`) and
/// `models/players/hnt/hair` (`player_angelyss.shader`).
const SAME_FILE_DUPLICATES: [&str; 2] = ["icons/iconw_grapple", "models/players/hnt/hair"];

#[test]
fn duplicate_definitions_all_agree() {
    let Some(root) = real_maps_dir("duplicate_definitions_all_agree") else {
        return;
    };
    // name -> (file, flags) of every definition, over the 225 files.
    let mut all: BTreeMap<String, Vec<(String, ShaderFlags)>> = BTreeMap::new();
    let mut files = scripts_in(&root.join(OPENARENA_SCRIPTS));
    files.extend(scripts_in(&root.join(LOSTLEVELS_SCRIPTS)));
    for path in files {
        let file = path.display().to_string();
        let script = parse_shader_script(&file, &read(&path)).unwrap_or_else(|e| panic!("{e}"));
        for def in script.defs {
            all.entry(def.name)
                .or_default()
                .push((file.clone(), def.flags));
        }
    }
    let repeated: Vec<(&String, &Vec<(String, ShaderFlags)>)> =
        all.iter().filter(|(_, defs)| defs.len() > 1).collect();
    // 61 names have two definitions: 52 from `nkoa-newsfx.shader`, present (identical) in
    // both folders, and 9 others. Of those, 59 are defined in two different files; the
    // game-semantics count of 59 counts those, leaving out the two names repeated inside one
    // file.
    assert_eq!(repeated.len(), 61);
    let in_one_file: Vec<&str> = repeated
        .iter()
        .filter(|(_, defs)| defs.iter().all(|d| d.0 == defs[0].0))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(in_one_file, SAME_FILE_DUPLICATES);
    for (name, defs) in repeated {
        assert!(defs.iter().all(|d| d.1 == defs[0].1), "{name}: {defs:?}");
    }
}

/// Nolightmap and pointlight: what `surfaceparm nolightmap` sets in q3map2.
const VL: u32 = surf::VERTEXLIT;

/// The resolved `textures/common/*` table of OpenArena's `common.shader`: (name, contents,
/// surface flags).
const COMMON: [(&str, u32, u32); 36] = [
    ("caulk", 0x1, surf::NODRAW | surf::NOMARKS | VL),
    ("terrain", 0x1, surf::NODRAW | surf::NOMARKS | VL),
    (
        "terrain2",
        0x1,
        surf::NODRAW | surf::NOMARKS | VL | surf::DUST,
    ),
    ("invisible", 0x1, VL),
    ("mirror", 0x1, VL),
    ("mirror1", 0x1, VL),
    ("mirror2", 0x1, VL),
    ("portal", 0x1, VL),
    ("timportal", 0x1, VL),
    ("noimpact", 0x1, surf::NOIMPACT),
    ("teleporter", 0x1, surf::NOIMPACT | VL),
    ("trigger", 0x1, surf::NODRAW),
    ("weapclip", 0x2000_0001, surf::NODRAW | surf::NOMARKS),
    (
        "slick",
        0x2000_0001,
        surf::SLICK | surf::NODRAW | surf::NOMARKS,
    ),
    (
        "cushion",
        0x2000_0001,
        surf::NODAMAGE | surf::NODRAW | surf::NOMARKS,
    ),
    (
        "clip",
        0x1_0000,
        surf::NONSOLID | surf::NOIMPACT | surf::NODRAW | surf::NOMARKS | VL,
    ),
    ("full_clip", 0x1_0000, surf::NODRAW),
    (
        "metalclip",
        0x2001_0000,
        surf::NONSOLID | surf::NOIMPACT | surf::NODRAW | surf::NOMARKS | VL | surf::METALSTEPS,
    ),
    (
        "missileclip",
        0x2001_0000,
        surf::NODAMAGE | surf::NODRAW | surf::NOMARKS,
    ),
    (
        "botclip",
        0x2040_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS | surf::NOIMPACT | VL,
    ),
    (
        "donotenter",
        0x2020_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS,
    ),
    (
        "clusterportal",
        0x2010_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS,
    ),
    (
        "nodrop",
        0xA000_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS | VL,
    ),
    (
        "areaportal",
        0x3000_8000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS | VL,
    ),
    (
        "hint",
        0x3000_0000,
        surf::NONSOLID | surf::NODRAW | surf::HINT | surf::NOIMPACT,
    ),
    (
        "hintlocal",
        0x3000_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOIMPACT,
    ),
    ("skip", 0x3000_0000, surf::NONSOLID | surf::NODRAW),
    ("antiportal", 0x3000_0000, surf::NONSOLID | surf::NODRAW),
    (
        "nodraw",
        0x2000_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS,
    ),
    ("nodrawnonsolid", 0, surf::NONSOLID | surf::NODRAW),
    (
        "lightgrid",
        0x2800_0000,
        surf::NONSOLID | surf::NODRAW | surf::NOMARKS | VL,
    ),
    ("origin", 0x100_0000, surf::NONSOLID | surf::NODRAW),
    ("lavacaulk", 0x8, surf::NODRAW | surf::NOMARKS | VL),
    ("slimecaulk", 0x10, surf::NODRAW | surf::NOMARKS | VL),
    ("watercaulk", 0x20, surf::NODRAW | surf::NOMARKS | VL),
    ("sky_space", 0x1, surf::SKY | surf::NOIMPACT | VL),
];

fn check_common(set: &ShaderSet, what: &str) {
    for (name, contents, surface) in COMMON {
        let flags = set.texture_flags(&format!("common/{name}"));
        assert_eq!(
            (flags.contents, flags.surface),
            (contents, surface),
            "{what}: common/{name}: {:#x} {:#x}",
            flags.contents,
            flags.surface
        );
    }
}

#[test]
fn builtin_common_shaders_are_the_table() {
    let set = ShaderSet::new();
    check_common(&set, "built-in");
    assert_eq!(set.builtins().count(), COMMON.len());
    // A name outside the table gets `default`.
    assert_eq!(set.texture_flags("common/nosuch"), ShaderFlags::DEFAULT);
}

#[test]
fn real_common_shader_is_the_table_and_the_builtins() {
    let Some(root) = real_maps_dir("real_common_shader_is_the_table_and_the_builtins") else {
        return;
    };
    let mut set = ShaderSet::without_builtins();
    let path = root.join(OPENARENA_SCRIPTS).join("common.shader");
    set.add_script("common.shader", &read(&path))
        .unwrap_or_else(|e| panic!("{e}"));
    check_common(&set, "common.shader");
    // The built-ins agree with the script on all three words, compile flags included.
    let builtins = ShaderSet::new();
    let mut compared = 0;
    for (name, builtin) in builtins.builtins() {
        let script = set
            .get(name)
            .unwrap_or_else(|| panic!("{name} not in common.shader"));
        assert_eq!(builtin.flags, script.flags, "{name}");
        compared += 1;
    }
    assert_eq!(compared, set.scripts().count());
    // With the whole OpenArena set over the built-ins, every common shader comes from disk.
    let full =
        ShaderSet::from_folders(&[root.join(OPENARENA_SCRIPTS)]).unwrap_or_else(|e| panic!("{e}"));
    check_common(&full, "OpenArena over built-ins");
    for (name, _) in builtins.builtins() {
        let origin = full.get(name).map(|s| s.origin.clone());
        assert!(
            matches!(origin, Some(planeshift::game::ShaderOrigin::Script { ref file, .. }) if file == "common.shader"),
            "{name}: {origin:?}"
        );
    }
}

fn brush(set: &ShaderSet, textures: &[&str]) -> u32 {
    let sides: Vec<Q3Side> = textures
        .iter()
        .map(|t| Q3Side::new(set.texture_flags(t)))
        .collect();
    q3_brush_contents(&sides).map_or(u32::MAX, |b| b.contents)
}

#[test]
fn brush_rule_examples() {
    let mut set = ShaderSet::new();
    let added = set.add_script(
        "t.shader",
        b"textures/liquids/lavahell_750\n{\nsurfaceparm fog\nsurfaceparm lava\nsurfaceparm nolightmap\nsurfaceparm nomarks\n}\n\
          textures/sfx/flameanim\n{\nsurfaceparm nomarks\n}\n",
    );
    assert!(added.is_ok());
    // One liquid face makes a liquid brush, wherever it is.
    let wall = "base/wall";
    assert_eq!(
        brush(&set, &[wall, wall, "common/watercaulk", wall]),
        contents::WATER
    );
    // One non-solid face empties an otherwise solid brush (am_mckinleyish's flames).
    assert_eq!(brush(&set, &["common/nodrawnonsolid", "sfx/flameanim"]), 0);
    assert_eq!(brush(&set, &["sfx/flameanim", "common/nodrawnonsolid"]), 0);
    // kaos: the first liquid face decides, even when another is fog and lava.
    let lava = "liquids/lavahell_750";
    let caulk = "common/lavacaulk";
    assert_eq!(
        brush(&set, &[caulk, lava, caulk, caulk, caulk, caulk]),
        contents::LAVA
    );
    assert_eq!(
        brush(&set, &[lava, caulk, caulk]),
        contents::LAVA | contents::FOG
    );
    // Player clip wins over solid and over non-solid, not over liquid.
    assert_eq!(
        brush(&set, &["common/caulk", "common/clip"]),
        contents::PLAYERCLIP
    );
    assert_eq!(
        brush(&set, &["common/clip", "common/watercaulk"]),
        contents::WATER
    );
    // The compile side ORs: the lava brush is detail (translucent), not opaque.
    let sides: Vec<Q3Side> = [caulk, lava]
        .iter()
        .map(|t| Q3Side::new(set.texture_flags(t)))
        .collect();
    let b = q3_brush_contents(&sides).unwrap_or_else(|| panic!("no brush"));
    assert_eq!(b.contents_or, contents::LAVA | contents::FOG);
    assert!(b.detail && !b.opaque);
    assert_ne!(b.compile & compile::FOG, 0);
}

#[test]
fn kaos_lava_brush_is_lava() {
    let Some(root) = real_maps_dir("kaos_lava_brush_is_lava") else {
        return;
    };
    let folders = [root.join(OPENARENA_SCRIPTS), root.join(LOSTLEVELS_SCRIPTS)];
    let set = ShaderSet::from_folders(&folders).unwrap_or_else(|e| panic!("{e}"));
    let map = parse_map(&read(&root.join("openarena-lostlevels/kaos.map")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut lava_brushes = 0;
    let mut histogram: BTreeMap<u32, usize> = BTreeMap::new();
    for b in map.brushes() {
        let sides: Vec<Q3Side> = b
            .faces
            .iter()
            .map(|f| {
                let triple = f.extension.triple().map_or(0, |t| t.contents as u32);
                Q3Side::with_face_contents(set.texture_flags(&f.texture), triple)
            })
            .collect();
        let Some(contents) = q3_brush_contents(&sides) else {
            continue;
        };
        *histogram.entry(contents.contents).or_default() += 1;
        if b.faces.iter().any(|f| f.texture == "liquids/lavahell_750") {
            lava_brushes += 1;
            assert_eq!(contents.contents, contents::LAVA, "brush at {:?}", b.loc);
        }
    }
    println!("kaos brush contents: {histogram:x?}");
    assert_eq!(lava_brushes, 1);
}

/// Bytes the mutations insert: the grammar's punctuation and a few others.
const INTERESTING: &[u8] = b"{}\"/*;#\n\r\t :q3map_\x00\xff";

/// How many mutated scripts the fuzz test reads.
const FUZZ_CASES: usize = 10_000;

#[test]
fn mutated_scripts_never_panic() {
    let Some(root) = real_maps_dir("mutated_scripts_never_panic") else {
        return;
    };
    let original = read(&root.join(OPENARENA_SCRIPTS).join("common.shader"));
    let mut rng = Pcg32::new(0x0005_ade5);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..FUZZ_CASES {
        let mut bytes = original.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len().max(1));
            match rng.below(5) {
                0 => {
                    if let Some(b) = bytes.get_mut(at) {
                        *b = rng.next_u32() as u8;
                    }
                }
                1 => bytes.insert(
                    at.min(bytes.len()),
                    INTERESTING[rng.below(INTERESTING.len())],
                ),
                2 => {
                    let end = (at + rng.below(64)).min(bytes.len());
                    bytes.drain(at.min(end)..end);
                }
                3 => {
                    let end = (at + rng.below(256)).min(bytes.len());
                    let piece: Vec<u8> = bytes[at.min(end)..end].to_vec();
                    let to = rng.below(bytes.len().max(1));
                    bytes.splice(to..to, piece);
                }
                _ => bytes.truncate(at),
            }
        }
        match parse_shader_script("fuzz.shader", &bytes) {
            Ok(script) => {
                ok += 1;
                for def in &script.defs {
                    assert_eq!(def.name, def.name.to_lowercase());
                }
                let mut set = ShaderSet::new();
                assert!(set.add_script("fuzz.shader", &bytes).is_ok());
            }
            Err(e) => {
                err += 1;
                assert!(e.pos.line >= 1 && e.pos.column >= 1, "{e}");
            }
        }
    }
    println!("{ok} read, {err} errors");
    assert!(ok > 0 && err > 0);
}

/// The records of a Quake 3 `.bsp` (IBSP 46, Quake III Arena `qfiles.h`) that these tests
/// compare with: shader entries, models' brush ranges, brushes' content shaders.
struct Ibsp {
    /// (name, surface flags, content flags) per shader entry.
    shaders: Vec<(String, u32, u32)>,
    /// (first brush, brush count) per model; model 0 is the world.
    models: Vec<(usize, usize)>,
    /// The content shader of each brush.
    brush_shaders: Vec<usize>,
}

/// Lump numbers and record sizes (`qfiles.h`).
const LUMP_SHADERS: usize = 1;
const LUMP_MODELS: usize = 7;
const LUMP_BRUSHES: usize = 8;
const SHADER_RECORD: usize = 72;
const SHADER_NAME: usize = 64;
const MODEL_RECORD: usize = 40;
const BRUSH_RECORD: usize = 12;

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    let b: [u8; 4] = bytes[at..at + 4].try_into().unwrap_or_default();
    u32::from_le_bytes(b)
}

fn read_ibsp(bytes: &[u8]) -> Ibsp {
    assert_eq!(&bytes[..4], b"IBSP");
    assert_eq!(le_u32(bytes, 4), 46);
    let lump = |n: usize, record: usize| {
        let ofs = le_u32(bytes, 8 + 8 * n) as usize;
        let len = le_u32(bytes, 12 + 8 * n) as usize;
        assert_eq!(len % record, 0, "funny lump size");
        bytes[ofs..ofs + len].chunks_exact(record)
    };
    let shaders = lump(LUMP_SHADERS, SHADER_RECORD)
        .map(|r| {
            let name = &r[..SHADER_NAME];
            let end = name.iter().position(|&b| b == 0).unwrap_or(SHADER_NAME);
            let name = String::from_utf8_lossy(&name[..end]).into_owned();
            (name, le_u32(r, SHADER_NAME), le_u32(r, SHADER_NAME + 4))
        })
        .collect();
    let models = lump(LUMP_MODELS, MODEL_RECORD)
        .map(|r| (le_u32(r, 32) as usize, le_u32(r, 36) as usize))
        .collect();
    let brush_shaders = lump(LUMP_BRUSHES, BRUSH_RECORD)
        .map(|r| le_u32(r, 8) as usize)
        .collect();
    Ibsp {
        shaders,
        models,
        brush_shaders,
    }
}

/// The nine lost levels, each a `.map` with the `.bsp` q3map2 built from it.
const LOST_LEVELS: [&str; 9] = [
    "kaos",
    "dm17ish",
    "am_icyhell",
    "am_underworks",
    "oa_ctf2old",
    "am_mckinleyish",
    "void2",
    "q3dm6ish",
    "blitzkrieg2",
];

/// The `.bsp` shader entries that disagree with the scripts: dm17ish's `.bsp` was built
/// without `dm17ish-extra.shader`, which gives these metalsteps or nomarks.
const STALE_BSP_SHADERS: [&str; 3] = [
    "textures/e8/e8clangfloor05",
    "textures/e8/e8trimlight",
    "textures/e8/e8trimlight2_blue",
];

#[test]
fn bsp_shader_entries_match_the_scripts() {
    let Some(root) = real_maps_dir("bsp_shader_entries_match_the_scripts") else {
        return;
    };
    let set =
        ShaderSet::from_folders(&[root.join(OPENARENA_SCRIPTS), root.join(LOSTLEVELS_SCRIPTS)])
            .unwrap_or_else(|e| panic!("{e}"));
    let (mut named, mut stale) = (0, Vec::new());
    for level in LOST_LEVELS {
        let bsp = read_ibsp(&read(
            &root.join(format!("openarena-lostlevels/{level}.bsp")),
        ));
        for (name, surface, contents) in &bsp.shaders {
            if name == "noshader" {
                continue;
            }
            named += 1;
            // Built with `-noob`: every named shader carries NOOB.
            let flags = set.flags(name);
            if (flags.contents, flags.surface) != (*contents, surface & !surf::NOOB) {
                stale.push(name.clone());
            }
        }
    }
    stale.sort();
    assert_eq!(
        (named, stale),
        (236, STALE_BSP_SHADERS.map(String::from).to_vec())
    );
}

/// Model by model, the run-time contents of the `.map`'s brushes (`q3_brush_contents`) as
/// a sorted list, as q3map2 groups them: `func_group` into the world, origin brushes
/// removed, models numbered in entity order over entities with brushes or patches.
fn map_model_contents(set: &ShaderSet, map: &planeshift::map::MapFile) -> Vec<Vec<u32>> {
    let mut models: Vec<Vec<u32>> = vec![Vec::new()];
    for (index, entity) in map.entities.iter().enumerate() {
        let model = if index == 0 || entity.classname() == "func_group" {
            0
        } else if entity.brushes.is_empty() && entity.patches.is_empty() {
            continue;
        } else {
            models.push(Vec::new());
            models.len() - 1
        };
        for b in &entity.brushes {
            let sides: Vec<Q3Side> = b
                .faces
                .iter()
                .map(|f| {
                    let triple = f.extension.triple().map_or(0, |t| t.contents as u32);
                    Q3Side::with_face_contents(set.texture_flags(&f.texture), triple)
                })
                .collect();
            let Some(brush) = q3_brush_contents(&sides) else {
                continue;
            };
            if brush.compile & compile::ORIGIN != 0 {
                continue;
            }
            models[model].push(brush.contents);
        }
    }
    for model in &mut models {
        model.sort_unstable();
    }
    models
}

#[test]
fn brush_contents_match_the_bsp_model_by_model() {
    let Some(root) = real_maps_dir("brush_contents_match_the_bsp_model_by_model") else {
        return;
    };
    let set =
        ShaderSet::from_folders(&[root.join(OPENARENA_SCRIPTS), root.join(LOSTLEVELS_SCRIPTS)])
            .unwrap_or_else(|e| panic!("{e}"));
    let mut brushes = 0;
    for level in LOST_LEVELS {
        let dir = root.join("openarena-lostlevels");
        let bsp = read_ibsp(&read(&dir.join(format!("{level}.bsp"))));
        let map =
            parse_map(&read(&dir.join(format!("{level}.map")))).unwrap_or_else(|e| panic!("{e}"));
        let expected: Vec<Vec<u32>> = bsp
            .models
            .iter()
            .map(|&(first, count)| {
                let mut contents: Vec<u32> = bsp.brush_shaders[first..first + count]
                    .iter()
                    .map(|&s| bsp.shaders[s].2)
                    .collect();
                contents.sort_unstable();
                contents
            })
            .collect();
        let got = map_model_contents(&set, &map);
        assert_eq!(got.len(), expected.len(), "{level}: models");
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{level}: model {k}");
        }
        brushes += bsp.brush_shaders.len();
    }
    assert_eq!(brushes, 4876);
}

/// A fresh folder under the system's temporary folder, unique to this process and `name`.
fn scratch_folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planeshift-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

#[test]
fn folder_order_is_the_shader_list_else_sorted() {
    let dir = scratch_folder("order");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    };
    write("b.shader", "textures/x/pool\n{\nsurfaceparm water\n}\n");
    write("a.shader", "textures/x/pool\n{\nsurfaceparm lava\n}\n");
    write("notes.txt", "textures/x/pool\n{\nsurfaceparm slime\n}\n");
    // No list: every `*.shader` file, sorted by name, so `a.shader` defines the pool.
    let set = ShaderSet::from_folders(&[&dir]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(set.files(), ["a.shader", "b.shader"]);
    assert_eq!(set.texture_flags("x/pool").contents, contents::LAVA);
    // A list decides the order (and which files count); the extension may be left out.
    write("shaderlist.txt", "b\na.shader\n");
    let set = ShaderSet::from_folders(&[&dir]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(set.files(), ["b.shader", "a.shader"]);
    assert_eq!(set.texture_flags("x/pool").contents, contents::WATER);
    // A listed script that is missing is an I/O error naming it.
    write("shaderlist.txt", "b\nmissing\n");
    match ShaderSet::from_folders(&[&dir]) {
        Err(e @ planeshift::game::ShaderSetError::Io { .. }) => {
            assert!(e.to_string().contains("missing.shader"), "{e}")
        }
        other => panic!("expected an I/O error, got {other:?}"),
    }
    // A malformed script is the parse error, with its file, line and column.
    write("shaderlist.txt", "c\n");
    write("c.shader", "textures/x/bad\n{\n{\n");
    match ShaderSet::from_folders(&[&dir]) {
        Err(e) => assert_eq!(
            e.to_string(),
            "c.shader:3:1: '{' of textures/x/bad is never closed"
        ),
        Ok(_) => panic!("expected a parse error"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
