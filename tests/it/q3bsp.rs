//! Quake 3 `.bsp` files as ground truth, read by `support/q3bsp.rs`.
//!
//! Takes every `.bsp` under `$PLANESHIFT_REAL_MAPS` (skipped, with a message, when the folder
//! is missing); gives the checks that make the reader trustworthy before the compiler is
//! compared against it. Guarantees, for every file: the counts measured by hand (shaders,
//! shader flags, brushes by contents class, sides and bevels, patches and their sizes,
//! entities, triggers, models) when the file is one of the known nine; the tree's point
//! contents equal the brute force over the world's brushes on seeded random points (as
//! `CM_PointContents` in Quake III Arena `code/qcommon/cm_test.c`); every brush opens with the
//! six axial sides −x, +x, −y, +y, −z, +z (q3map2 `AddBrushBevels`); every submodel k is named
//! by one entity's `"model" "*k"`, in order, and its brushes are listed by leaves outside
//! the world's tree only; and a damaged file (truncated, bad magic or
//! version, a lump length off by one, a huge offset, an index out of range, seeded mutations)
//! is an error with a message, never a panic. Also a few known facts: one SOLID sky shader
//! per map, bevel entries' flags, dm17ish's tool volume in the sky, kaos's lava brush.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::support::q3bsp::{
    HEADER_LEN, LUMP_COUNT, MST_PATCH, Q3Brush, Q3Bsp, RECORD_SIZES, contents, lump, surf,
};
use crate::support::{Pcg32, files_in, read, real_maps_dir};

/// Every `.bsp` under `dir`, sorted, as (file stem, path).
fn bsps_in(dir: &Path) -> Vec<(String, PathBuf)> {
    files_in(dir, "bsp")
        .into_iter()
        .filter(|(_, path)| is_quake3_bsp(path))
        .map(|(_, path)| {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (stem, path)
        })
        .collect()
}

/// Whether the file at `path` opens with Quake 3's header (`IBSP`, version 46): the other
/// games' `.bsp` files in the folder are read by the importer's own tests.
fn is_quake3_bsp(path: &Path) -> bool {
    let head = read(path);
    head.get(..8) == Some(b"IBSP\x2e\0\0\0".as_slice())
}

/// The real Quake 3 `.bsp` files, read and parsed (the data is the test's own: a refusal fails).
fn real_bsps(test: &str) -> Vec<(String, Vec<u8>, Q3Bsp)> {
    let Some(dir) = real_maps_dir(test) else {
        return Vec::new();
    };
    let files = bsps_in(&dir);
    assert!(!files.is_empty(), "no .bsp under {}", dir.display());
    files
        .into_iter()
        .map(|(name, path)| {
            let bytes = read(&path);
            let bsp = Q3Bsp::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, bytes, bsp)
        })
        .collect()
}

/// One row of the measured-facts table for the nine OpenArena Lost Levels maps.
struct Expected {
    name: &'static str,
    /// Named shader entries, `noshader` entries.
    shaders: (usize, usize),
    /// Named shaders: without SOLID, with SURF_NONSOLID, with PLAYERCLIP.
    no_solid: usize,
    nonsolid: usize,
    playerclip: usize,
    /// Named shaders with WATER, SLIME, LAVA.
    liquids: [usize; 3],
    /// Named shaders with SURF_NODAMAGE, SURF_SLICK, a bot-only contents bit.
    nodamage: usize,
    slick: usize,
    bot_only: usize,
    /// All brushes: SOLID / PLAYERCLIP without SOLID / liquid / other, and model 0's count.
    brushes: [usize; 4],
    world_brushes: usize,
    /// Brush sides, of which bevels (`noshader`).
    sides: usize,
    bevels: usize,
    /// Patches, of which SOLID, and the count of each (width, height).
    patches: usize,
    solid_patches: usize,
    sizes: &'static [((usize, usize), usize)],
    entities: usize,
    triggers: usize,
    models: usize,
}

#[rustfmt::skip]
const EXPECTED: [Expected; 9] = [
    Expected { name: "kaos", shaders: (63, 3), no_solid: 8, nonsolid: 5, playerclip: 2, liquids: [1, 0, 2], nodamage: 3, slick: 0, bot_only: 2,
        brushes: [1323, 68, 1, 63], world_brushes: 1412, sides: 9101, bevels: 260, patches: 173, solid_patches: 173,
        sizes: &[((5, 3), 93), ((3, 3), 80)], entities: 152, triggers: 16, models: 24 },
    Expected { name: "dm17ish", shaders: (25, 3), no_solid: 5, nonsolid: 4, playerclip: 1, liquids: [1, 0, 0], nodamage: 1, slick: 0, bot_only: 2,
        brushes: [213, 12, 0, 63], world_brushes: 269, sides: 2118, bevels: 351, patches: 47, solid_patches: 44,
        sizes: &[((9, 3), 32), ((3, 3), 15)], entities: 126, triggers: 19, models: 20 },
    Expected { name: "am_icyhell", shaders: (23, 2), no_solid: 6, nonsolid: 5, playerclip: 0, liquids: [2, 0, 0], nodamage: 0, slick: 0, bot_only: 1,
        brushes: [159, 0, 1, 67], world_brushes: 227, sides: 1939, bevels: 523, patches: 326, solid_patches: 0,
        sizes: &[((3, 3), 322), ((9, 13), 4)], entities: 274, triggers: 0, models: 1 },
    Expected { name: "am_underworks", shaders: (24, 3), no_solid: 2, nonsolid: 2, playerclip: 0, liquids: [0, 0, 0], nodamage: 1, slick: 0, bot_only: 1,
        brushes: [267, 0, 0, 78], world_brushes: 341, sides: 2668, bevels: 544, patches: 56, solid_patches: 56,
        sizes: &[((3, 3), 24), ((5, 3), 18), ((3, 5), 8), ((9, 3), 6)], entities: 91, triggers: 4, models: 5 },
    Expected { name: "oa_ctf2old", shaders: (25, 4), no_solid: 3, nonsolid: 3, playerclip: 0, liquids: [0, 0, 0], nodamage: 4, slick: 0, bot_only: 1,
        brushes: [200, 0, 0, 44], world_brushes: 229, sides: 2852, bevels: 1077, patches: 42, solid_patches: 42,
        sizes: &[((9, 7), 42)], entities: 126, triggers: 15, models: 16 },
    Expected { name: "am_mckinleyish", shaders: (29, 2), no_solid: 13, nonsolid: 12, playerclip: 1, liquids: [2, 0, 0], nodamage: 0, slick: 0, bot_only: 3,
        brushes: [318, 20, 6, 177], world_brushes: 476, sides: 3930, bevels: 600, patches: 0, solid_patches: 0,
        sizes: &[], entities: 366, triggers: 45, models: 46 },
    Expected { name: "void2", shaders: (12, 2), no_solid: 3, nonsolid: 1, playerclip: 0, liquids: [2, 0, 0], nodamage: 0, slick: 0, bot_only: 0,
        brushes: [618, 0, 16, 1], world_brushes: 612, sides: 5404, bevels: 1662, patches: 0, solid_patches: 0,
        sizes: &[], entities: 218, triggers: 23, models: 24 },
    Expected { name: "q3dm6ish", shaders: (10, 2), no_solid: 1, nonsolid: 1, playerclip: 1, liquids: [0, 0, 0], nodamage: 0, slick: 0, bot_only: 0,
        brushes: [445, 4, 0, 0], world_brushes: 440, sides: 2995, bevels: 309, patches: 0, solid_patches: 0,
        sizes: &[], entities: 63, triggers: 3, models: 10 },
    Expected { name: "blitzkrieg2", shaders: (25, 2), no_solid: 7, nonsolid: 5, playerclip: 1, liquids: [2, 0, 0], nodamage: 1, slick: 0, bot_only: 1,
        brushes: [639, 35, 5, 33], world_brushes: 706, sides: 4528, bevels: 284, patches: 0, solid_patches: 0,
        sizes: &[], entities: 67, triggers: 6, models: 7 },
];

/// Contents bits the engine gives bots only; players walk through them.
const BOT_ONLY: u32 = contents::BOTCLIP
    | contents::DONOTENTER
    | contents::CLUSTERPORTAL
    | contents::TELEPORTER
    | contents::JUMPPAD;

/// What a character collides with: SOLID, PLAYERCLIP, or a liquid it swims in.
const SOLID_CLIP_LIQUID: u32 = contents::SOLID | contents::PLAYERCLIP | contents::LIQUID;

/// The contents class of the table: 0 SOLID, 1 PLAYERCLIP without SOLID, 2 liquid, 3 other.
fn class(c: u32) -> usize {
    if c & contents::SOLID != 0 {
        0
    } else if c & contents::PLAYERCLIP != 0 {
        1
    } else if c & contents::LIQUID != 0 {
        2
    } else {
        3
    }
}

/// Brushes per contents class over `brushes`.
fn classes<'a>(bsp: &Q3Bsp, brushes: impl Iterator<Item = &'a Q3Brush>) -> [usize; 4] {
    let mut out = [0; 4];
    for b in brushes {
        out[class(bsp.brush_contents(b))] += 1;
    }
    out
}

#[test]
fn q3bsp_counts_match_the_measured_facts() {
    let bsps = real_bsps("q3bsp_counts_match_the_measured_facts");
    let mut compared = 0;
    for (name, _, bsp) in &bsps {
        let Some(e) = EXPECTED.iter().find(|e| e.name == name) else {
            println!("{name}: no measured facts, counts not compared");
            continue;
        };
        compared += 1;
        let named: Vec<_> = bsp.shaders.iter().filter(|s| !s.is_noshader()).collect();
        let with_contents =
            |bits: u32| named.iter().filter(|s| s.content_flags & bits != 0).count();
        let with_flags = |bits: u32| named.iter().filter(|s| s.surface_flags & bits != 0).count();
        assert_eq!(
            (named.len(), bsp.shaders.len() - named.len()),
            e.shaders,
            "{name}: named and noshader entries"
        );
        assert_eq!(
            named.len() - with_contents(contents::SOLID),
            e.no_solid,
            "{name}: shaders without SOLID"
        );
        assert_eq!(
            with_flags(surf::NONSOLID),
            e.nonsolid,
            "{name}: SURF_NONSOLID"
        );
        assert_eq!(
            with_contents(contents::PLAYERCLIP),
            e.playerclip,
            "{name}: PLAYERCLIP"
        );
        assert_eq!(
            [contents::WATER, contents::SLIME, contents::LAVA].map(with_contents),
            e.liquids,
            "{name}: water, slime, lava"
        );
        assert_eq!(with_flags(surf::NODAMAGE), e.nodamage, "{name}: NODAMAGE");
        assert_eq!(with_flags(surf::SLICK), e.slick, "{name}: SLICK");
        assert_eq!(with_contents(BOT_ONLY), e.bot_only, "{name}: bot-only");
        // q3map2 -noob marks every named shader with NOOB (the build line of these files).
        assert!(
            named.iter().all(|s| s.surface_flags & surf::NOOB != 0),
            "{name}: a named shader without NOOB"
        );

        assert_eq!(
            classes(bsp, bsp.brushes.iter()),
            e.brushes,
            "{name}: S/C/L/O"
        );
        assert_eq!(
            bsp.model_brushes(0).len(),
            e.world_brushes,
            "{name}: world brushes"
        );
        let bevels = bsp
            .brush_sides
            .iter()
            .filter(|s| bsp.shaders[s.shader].is_noshader())
            .count();
        assert_eq!(
            (bsp.brush_sides.len(), bevels),
            (e.sides, e.bevels),
            "{name}: sides"
        );

        let patches: Vec<_> = bsp.patches().collect();
        let solid = patches
            .iter()
            .filter(|p| p.shader.content_flags & contents::SOLID != 0)
            .count();
        let mut sizes = BTreeMap::new();
        for p in &patches {
            *sizes.entry((p.width, p.height)).or_insert(0) += 1;
        }
        let expected_sizes: BTreeMap<_, _> = e.sizes.iter().copied().collect();
        assert_eq!(
            (patches.len(), solid),
            (e.patches, e.solid_patches),
            "{name}: patches"
        );
        assert_eq!(sizes, expected_sizes, "{name}: patch sizes");

        let triggers = bsp
            .entities
            .iter()
            .filter(|e| e.classname().starts_with("trigger_"))
            .count();
        assert_eq!(
            (bsp.entities.len(), triggers, bsp.models.len()),
            (e.entities, e.triggers, e.models),
            "{name}: entities, trigger_*, models"
        );
    }
    assert!(
        bsps.is_empty() || compared > 0,
        "none of the known maps found"
    );
}

/// Random points in the world's bounds per map.
const POINTS: usize = 3_000;

#[test]
fn q3bsp_tree_point_contents_equal_brute_force() {
    for (name, _, bsp) in &real_bsps("q3bsp_tree_point_contents_equal_brute_force") {
        let world = bsp.world();
        let (lo, hi) = (world.mins.map(f64::from), world.maxs.map(f64::from));
        let mut rng = Pcg32::new(0x1b5b_0046);
        let (mut solid, mut tools_only, mut nonzero) = (0, 0, 0);
        for _ in 0..POINTS {
            let p = [0, 1, 2].map(|a| rng.range_f64(lo[a], hi[a]));
            let tree = bsp.point_contents(p);
            assert_eq!(tree, bsp.point_contents_brute(p), "{name}: at {p:?}");
            nonzero += usize::from(tree != 0);
            solid += usize::from(tree & contents::SOLID != 0);
            tools_only += usize::from(tree != 0 && tree & SOLID_CLIP_LIQUID == 0);
        }
        // Outside the world's bounds there is no brush: Quake 3 answers 0.
        for _ in 0..POINTS / 10 {
            let mut p = [0, 1, 2].map(|a| rng.range_f64(lo[a], hi[a]));
            let a = rng.below(3);
            p[a] = if rng.below(2) == 0 {
                lo[a] - rng.range_f64(1.0, 4096.0)
            } else {
                hi[a] + rng.range_f64(1.0, 4096.0)
            };
            assert_eq!(bsp.point_contents(p), 0, "{name}: outside at {p:?}");
            assert_eq!(bsp.point_contents_brute(p), 0, "{name}: outside at {p:?}");
        }
        assert!(nonzero > 0, "{name}: every random point is empty");
        println!(
            "{name}: world brushes S/C/L/O {:?} of {}; of {POINTS} random points {solid} SOLID, \
             {tools_only} only in tool volumes, {nonzero} nonzero",
            classes(bsp, bsp.model_brushes(0).iter()),
            bsp.model_brushes(0).len(),
        );
    }
}

#[test]
fn q3bsp_every_brush_opens_with_the_six_axial_sides() {
    for (name, _, bsp) in &real_bsps("q3bsp_every_brush_opens_with_the_six_axial_sides") {
        assert_eq!(bsp.planes.len() % 2, 0, "{name}: planes come in pairs");
        for (k, pair) in bsp.planes.chunks_exact(2).enumerate() {
            assert_eq!(
                (pair[1].normal.map(|c| -c), -pair[1].dist),
                (pair[0].normal, pair[0].dist),
                "{name}: plane {} is not the flip of {}",
                2 * k + 1,
                2 * k
            );
        }
        for (i, brush) in bsp.brushes.iter().enumerate() {
            let planes: Vec<_> = bsp.brush_planes(brush).collect();
            assert!(
                planes.len() >= 6,
                "{name}: brush {i} has {} sides",
                planes.len()
            );
            for (s, plane) in planes.iter().take(6).enumerate() {
                let mut axis = [0.0f32; 3];
                axis[s / 2] = if s % 2 == 0 { -1.0 } else { 1.0 };
                assert_eq!(plane.normal, axis, "{name}: brush {i} side {s}");
            }
            // The axial sides bound the brush: their corners are inside it, the box's
            // centre too, and the brush holds no point just past an axial side.
            let mins = [0, 1, 2].map(|a| -planes[2 * a].dist as f64);
            let maxs = [0, 1, 2].map(|a| planes[2 * a + 1].dist as f64);
            assert!(
                (0..3).all(|a| mins[a] < maxs[a]),
                "{name}: brush {i} is empty"
            );
            for a in 0..3 {
                let mut past = [0, 1, 2].map(|b| (mins[b] + maxs[b]) / 2.0);
                past[a] = maxs[a] + 0.5;
                assert!(!bsp.brush_contains(brush, past), "{name}: brush {i}");
                past[a] = mins[a] - 0.5;
                assert!(!bsp.brush_contains(brush, past), "{name}: brush {i}");
            }
        }
    }
}

#[test]
fn q3bsp_submodels_are_named_by_entities_in_order() {
    for (name, _, bsp) in &real_bsps("q3bsp_submodels_are_named_by_entities_in_order") {
        assert_eq!(
            bsp.entities.first().map(|e| e.classname()),
            Some("worldspawn"),
            "{name}"
        );
        let named: Vec<usize> = bsp
            .entities
            .iter()
            .filter_map(|e| e.get("model")?.strip_prefix('*')?.parse().ok())
            .collect();
        let expected: Vec<usize> = (1..bsp.models.len()).collect();
        assert_eq!(named, expected, "{name}: \"model\" \"*k\" in entity order");
        for k in 1..bsp.models.len() {
            assert!(bsp.model_entity(k).is_some(), "{name}: model {k}");
        }
        // Models own disjoint brush ranges, the world first; world leaves list world brushes.
        let mut next = 0;
        for (k, m) in bsp.models.iter().enumerate() {
            assert_eq!(
                m.first_brush, next,
                "{name}: model {k} brushes follow the previous"
            );
            next += m.num_brushes;
        }
        assert_eq!(
            next,
            bsp.brushes.len(),
            "{name}: every brush belongs to a model"
        );
        // The world's tree reaches leaves listing world brushes only; the other leaves (q3map2
        // writes an empty leaf 0 and one leaf per submodel) list, in order, every submodel
        // brush once.
        let world = bsp.world().num_brushes;
        let reached = bsp.world_leaves();
        let mut others = Vec::new();
        for (leaf, &in_world) in reached.iter().enumerate() {
            let list = bsp.leaf_brush_list(leaf);
            if in_world {
                assert!(
                    list.iter().all(|&b| b < world),
                    "{name}: world leaf {leaf} lists a submodel brush"
                );
            } else {
                others.extend_from_slice(list);
            }
        }
        assert!(!reached[0], "{name}: leaf 0 is q3map2's unreached leaf");
        assert_eq!(
            others,
            (world..bsp.brushes.len()).collect::<Vec<_>>(),
            "{name}: leaves outside the world's tree"
        );
    }
}

#[test]
fn q3bsp_patches_have_odd_grids_of_finite_points() {
    for (name, _, bsp) in &real_bsps("q3bsp_patches_have_odd_grids_of_finite_points") {
        let patches: Vec<_> = bsp.patches().collect();
        let surfaces = bsp
            .surfaces
            .iter()
            .filter(|s| s.surface_type == MST_PATCH)
            .count();
        assert_eq!(patches.len(), surfaces, "{name}");
        for p in &patches {
            let s = &bsp.surfaces[p.surface];
            assert!(
                p.width >= 3 && p.height >= 3 && p.width % 2 == 1 && p.height % 2 == 1,
                "{name}: patch {} is {}×{}",
                p.surface,
                p.width,
                p.height
            );
            assert_eq!(p.points.len(), p.width * p.height, "{name}");
            assert_eq!(p.shader, &bsp.shaders[s.shader], "{name}");
            // Row-major: column i, row j is drawverts[firstVert + j·width + i].
            let (i, j) = (p.width - 1, p.height - 1);
            assert_eq!(
                p.point(i, j),
                Some(bsp.draw_verts[s.first_vert + j * p.width + i]),
                "{name}"
            );
            assert_eq!(p.point(p.width, 0), None, "{name}");
            assert!(
                p.points.iter().flatten().all(|c| c.is_finite()),
                "{name}: patch {}",
                p.surface
            );
        }
    }
}

/// Writes `value` as the little-endian i32 at `at`.
fn put_i32(bytes: &mut [u8], at: usize, value: i32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn get_i32(bytes: &[u8], at: usize) -> i32 {
    let mut w = [0; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    i32::from_le_bytes(w)
}

/// Header byte of lump `l`'s offset (its length follows).
fn lump_field(l: usize) -> usize {
    8 + 8 * l
}

/// Parses `bytes`, which must be refused with a message containing `needle`.
#[track_caller]
fn refused(bytes: &[u8], needle: &str, what: &str) {
    match Q3Bsp::parse(bytes) {
        Ok(_) => panic!("{what}: accepted"),
        Err(e) => assert!(
            e.to_string().contains(needle),
            "{what}: message {e:?} lacks {needle:?}"
        ),
    }
}

#[test]
fn q3bsp_damaged_files_are_errors() {
    for (name, bytes, bsp) in &real_bsps("q3bsp_damaged_files_are_errors") {
        // Truncated anywhere before the end of the last lump.
        let end = bsp
            .lumps
            .iter()
            .map(|l| l.offset + l.len)
            .max()
            .unwrap_or(0);
        let mut rng = Pcg32::new(0x7a11);
        for len in [0, 3, HEADER_LEN - 1, HEADER_LEN, end - 1]
            .into_iter()
            .chain((0..20).map(|_| rng.below(end)))
        {
            let needle = if len < HEADER_LEN {
                "header"
            } else {
                "past the end"
            };
            refused(&bytes[..len], needle, &format!("{name} cut to {len}"));
        }
        let mut bad = bytes.clone();
        bad[0] = b'V';
        refused(&bad, "magic", name);
        for version in [45, 47, -46] {
            let mut bad = bytes.clone();
            put_i32(&mut bad, 4, version);
            refused(&bad, "version", name);
        }
        for (l, &record) in RECORD_SIZES.iter().enumerate() {
            let at = lump_field(l);
            let len = get_i32(bytes, at + 4);
            if record > 1 {
                for delta in [-1, 1] {
                    let mut bad = bytes.clone();
                    put_i32(&mut bad, at + 4, len + delta);
                    let needle = if len + delta < 0 { "negative" } else { "lump" };
                    refused(&bad, needle, &format!("{name} lump {l} length {delta:+}"));
                }
            }
            for huge in [i32::MAX, 0x4000_0000, bytes.len() as i32 - len + 1] {
                let mut bad = bytes.clone();
                put_i32(&mut bad, at, huge);
                refused(&bad, "past the end", &format!("{name} lump {l} at {huge}"));
            }
            let mut bad = bytes.clone();
            put_i32(&mut bad, at, -1);
            refused(&bad, "negative", &format!("{name} lump {l} at -1"));
        }
        // Indices out of range, one table at a time (each lump's first record).
        let first = |l: usize| bsp.lumps[l].offset;
        let count = |n: usize| n as i32;
        let cases: [(usize, usize, i32, &str); 11] = [
            (lump::BRUSHSIDES, 0, count(bsp.planes.len()), "side plane"),
            (lump::BRUSHSIDES, 4, -1, "side shader"),
            (lump::BRUSHES, 8, count(bsp.shaders.len()), "brush shader"),
            (
                lump::BRUSHES,
                0,
                count(bsp.brush_sides.len()),
                "brush sides",
            ),
            (lump::NODES, 0, count(bsp.planes.len()), "node plane"),
            (lump::NODES, 4, 0, "not a later node"),
            (
                lump::NODES,
                8,
                -count(bsp.leafs.len()) - 1,
                "node child leaf",
            ),
            (
                lump::LEAFS,
                40,
                count(bsp.leaf_brushes.len()) + 1,
                "leaf brushes",
            ),
            (lump::LEAFBRUSHES, 0, count(bsp.brushes.len()), "leaf brush"),
            (
                lump::MODELS,
                32,
                count(bsp.brushes.len()) + 1,
                "model brushes",
            ),
            (
                lump::SURFACES,
                0,
                count(bsp.shaders.len()),
                "surface shader",
            ),
        ];
        for (l, field, value, needle) in cases {
            let mut bad = bytes.clone();
            put_i32(&mut bad, first(l) + field, value);
            refused(&bad, needle, &format!("{name} {needle} {value}"));
        }
        // A patch whose size disagrees with its vertex count.
        if let Some(p) = bsp.patches().next() {
            let mut bad = bytes.clone();
            let at = first(lump::SURFACES) + p.surface * RECORD_SIZES[lump::SURFACES] + 96;
            put_i32(&mut bad, at, p.width as i32 + 2);
            refused(&bad, "patch size", &format!("{name} patch {}", p.surface));
        }
    }
}

/// Seeded mutations over all maps together.
const MUTATIONS: usize = 1_000;

#[test]
fn q3bsp_mutated_files_never_panic() {
    let bsps = real_bsps("q3bsp_mutated_files_never_panic");
    if bsps.is_empty() {
        return;
    }
    let mut rng = Pcg32::new(0xd00d_0046);
    let (mut refused, mut accepted) = (0, 0);
    for case in 0..MUTATIONS {
        let (name, bytes, bsp) = &bsps[case % bsps.len()];
        let mut bad = bytes.clone();
        let mutations = 1 + rng.below(3);
        for _ in 0..mutations {
            // An index-bearing lump's record or a header field, else anywhere.
            let l = [
                lump::NODES,
                lump::LEAFS,
                lump::LEAFBRUSHES,
                lump::MODELS,
                lump::BRUSHES,
                lump::BRUSHSIDES,
                lump::SURFACES,
                lump::ENTITIES,
            ][rng.below(8)];
            let at = match rng.below(4) {
                0 => rng.below(HEADER_LEN / 4) * 4,
                1 => rng.below(bad.len().saturating_sub(4)),
                _ if bsp.lumps[l].len >= 4 => {
                    bsp.lumps[l].offset + rng.below(bsp.lumps[l].len / 4) * 4
                }
                _ => rng.below(HEADER_LEN / 4) * 4,
            };
            if at + 4 > bad.len() {
                continue;
            }
            match rng.below(5) {
                0 => bad[at] ^= 1 << rng.below(8),
                1 => put_i32(&mut bad, at, -1),
                2 => put_i32(&mut bad, at, rng.next_u32() as i32),
                3 => {
                    let v = get_i32(&bad, at);
                    put_i32(
                        &mut bad,
                        at,
                        v.wrapping_add(if rng.below(2) == 0 { 1 } else { -1 }),
                    );
                }
                _ => bad.truncate(at.max(1)),
            }
        }
        match Q3Bsp::parse(&bad) {
            Err(e) => {
                assert!(!e.to_string().is_empty(), "{name} case {case}");
                refused += 1;
            }
            Ok(m) => {
                accepted += 1;
                // Whatever was accepted answers every query without panicking or looping.
                let world = m.world();
                for _ in 0..20 {
                    let p = [0, 1, 2].map(|a| {
                        rng.range_f64(world.mins[a] as f64 - 64.0, world.maxs[a] as f64 + 64.0)
                    });
                    let _ = (m.point_contents(p), m.point_contents_brute(p));
                }
                for k in 0..=m.models.len() {
                    for b in m.model_brushes(k) {
                        let _ = m.brush_planes(b).count();
                    }
                }
                let _ = m.patches().map(|p| p.points.len()).sum::<usize>();
            }
        }
    }
    println!("{MUTATIONS} mutated files: {refused} refused, {accepted} read");
    assert!(refused > MUTATIONS / 4, "{refused} of {MUTATIONS} refused");
    assert!(accepted > 0, "no mutation kept a readable file");
}

#[test]
fn q3bsp_crafted_minimal_file_reads() {
    // A header alone with every lump empty lacks the world model.
    let mut bytes = vec![0u8; HEADER_LEN];
    bytes[..4].copy_from_slice(b"IBSP");
    put_i32(&mut bytes, 4, 46);
    for l in 0..LUMP_COUNT {
        put_i32(&mut bytes, lump_field(l), HEADER_LEN as i32);
    }
    refused(&bytes, "no models", "empty lumps");
    // One model with no brushes, entities text with two entities: readable, contents 0.
    let text =
        b"{\n\"classname\" \"worldspawn\"\n\"message\" \"a { b\"\n}\n{ \"classname\" \"x\" }\0junk";
    let mut file = bytes.clone();
    let at = file.len() as i32;
    put_i32(&mut file, lump_field(lump::ENTITIES), at);
    put_i32(&mut file, lump_field(lump::ENTITIES) + 4, text.len() as i32);
    file.extend_from_slice(text);
    let at = file.len() as i32;
    put_i32(&mut file, lump_field(lump::MODELS), at);
    put_i32(&mut file, lump_field(lump::MODELS) + 4, 40);
    file.extend_from_slice(&[0u8; 40]);
    let bsp = Q3Bsp::parse(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bsp.entities.len(), 2);
    let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    assert_eq!(
        bsp.entities[0].pairs,
        [pair("classname", "worldspawn"), pair("message", "a { b")]
    );
    assert_eq!(bsp.entities[1].classname(), "x");
    assert_eq!(bsp.point_contents([0.0; 3]), 0);
    assert_eq!(bsp.patches().count(), 0);
    assert!(bsp.model_brushes(1).is_empty());
    // Entity text that stops inside an entity or a string is refused.
    for text in [
        &b"{ \"classname\" \"x\""[..],
        b"{ \"classname\" \"x",
        b"\"k\" \"v\"",
        b"{ \"k\" }",
    ] {
        let mut bad = file.clone();
        let at = bad.len();
        put_i32(&mut bad, lump_field(lump::ENTITIES), at as i32);
        put_i32(&mut bad, lump_field(lump::ENTITIES) + 4, text.len() as i32);
        bad.extend_from_slice(text);
        refused(&bad, "entities", &String::from_utf8_lossy(text));
    }
}

#[test]
fn q3bsp_known_shaders_and_points() {
    for (name, _, bsp) in &real_bsps("q3bsp_known_shaders_and_points") {
        let named = || bsp.shaders.iter().filter(|s| !s.is_noshader());
        // One sky shader per map, SOLID; pads (NODAMAGE) are SOLID too.
        let sky: Vec<_> = named()
            .filter(|s| s.surface_flags & surf::SKY != 0)
            .collect();
        assert_eq!(sky.len(), 1, "{name}: sky shaders {sky:?}");
        assert_eq!(sky[0].content_flags, contents::SOLID, "{name}: {sky:?}");
        assert!(
            named()
                .filter(|s| s.surface_flags & surf::NODAMAGE != 0)
                .all(|s| s.content_flags == contents::SOLID),
            "{name}: a NODAMAGE shader that is not SOLID"
        );
        // Bevels are SOLID with surface flags masked to the physics bits (q3map2 `map.c`
        // `AddBrushBevels`).
        const BEVEL_FLAGS: u32 = surf::NODAMAGE
            | surf::SLICK
            | surf::FLESH
            | surf::METALSTEPS
            | surf::NOSTEPS
            | surf::DUST
            | surf::NOOB;
        for s in bsp.shaders.iter().filter(|s| s.is_noshader()) {
            assert_eq!(s.content_flags, contents::SOLID, "{name}: {s:?}");
            assert_eq!(s.surface_flags & !BEVEL_FLAGS, 0, "{name}: {s:?}");
        }
        match name.as_str() {
            "dm17ish" => {
                let mut flags: Vec<u32> = bsp
                    .shaders
                    .iter()
                    .filter(|s| s.is_noshader())
                    .map(|s| s.surface_flags)
                    .collect();
                flags.sort_unstable();
                assert_eq!(flags, [0, 0x80000, 0x80001], "{name}: noshader flags");
                // Open sky filled by a tool volume: DONOTENTER | TRANSLUCENT.
                let p = [-1000.0, -1200.0, 1000.0];
                let expected = contents::DONOTENTER | contents::TRANSLUCENT;
                assert_eq!(bsp.point_contents(p), expected, "{name}");
                assert_eq!(bsp.point_contents_brute(p), expected, "{name}");
            }
            "kaos" => {
                // The lava face's shader has WATER | LAVA | FOG, but its brush's content
                // shader is the first liquid face's: common/lavacaulk, LAVA alone.
                let lava = named()
                    .find(|s| s.name == "textures/liquids/lavahell_750")
                    .map(|s| s.content_flags);
                assert_eq!(lava, Some(0x2000_0068), "{name}");
                let lava_brushes: Vec<_> = bsp
                    .brushes
                    .iter()
                    .filter(|b| bsp.brush_contents(b) & contents::LIQUID != 0)
                    .map(|b| (bsp.shaders[b.shader].name.as_str(), bsp.brush_contents(b)))
                    .collect();
                assert_eq!(
                    lava_brushes,
                    [("textures/common/lavacaulk", contents::LAVA)],
                    "{name}"
                );
            }
            _ => {}
        }
    }
}
