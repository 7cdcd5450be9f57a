//! Quake 1 family `.bsp` files (BSP29, BSP2, 2PSB, Half-Life BSP30) imported and checked
//! against Quake's own collision read independently (`support/quake1_hulls.rs`): contents
//! against hull 0, the imported brushes against the `.map` the file was compiled from, and
//! damaged files.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use glam::DVec3;
use planeshift::Contents;
use planeshift::brush::{Brush, BrushOwner, brushes_from_map};
use planeshift::leak::find_outside;
use planeshift::{build::BspFormat, import::read_brushes};

use crate::support::quake1_hulls::{Model, Quake1Hulls, SOLID};
use crate::support::{BspLayout, Pcg32, files_in, mutate_bsp, parse_ok, read, real_maps_dir};

/// Points compared per map: the count with `PLANESHIFT_FULL` (`point_count`).
const POINTS_PER_MAP: usize = 100_000;
/// How far a compared point keeps from every plane on its hull-0 path, in units (the issue's
/// margin: nearer, the file's `f32` planes and our `f64` regions may round apart).
const PLANE_MARGIN: f64 = 0.1;
/// How far a wall point lies from the open point it is drawn beside, at most, per axis.
const WALL_REACH: f64 = 24.0;
/// The grid cell of the brush lookup, in units.
const CELL: f64 = 128.0;

/// Every Quake 1 family `.bsp` under the real maps folder, with its bytes.
fn quake1_files(test: &str) -> Vec<(String, Vec<u8>)> {
    let Some(dir) = real_maps_dir(test) else {
        return Vec::new();
    };
    files_in(&dir, "bsp")
        .into_iter()
        .map(|(name, path)| (name, read(&path)))
        .filter(|(_, bytes)| {
            matches!(
                BspFormat::detect(bytes),
                Some(
                    BspFormat::Bsp29 | BspFormat::Bsp2 | BspFormat::Bsp2Psb | BspFormat::HalfLife30
                )
            )
        })
        .collect()
}

/// Whether a Quake 1 family `.bsp` stores clip nodes (its `clipnodes` lump, the tenth, is
/// not empty). Bsp29, BSP2 and Half-Life's version 30 share the header: a 4-byte version,
/// then 15 lumps of offset and length.
fn stores_clip_nodes(bytes: &[u8]) -> bool {
    /// Where the `clipnodes` lump's length lies in the header: after the version and nine
    /// lumps, and the lump's own offset.
    const CLIPNODES_LENGTH_AT: usize = 4 + 9 * 8 + 4;
    bytes
        .get(CLIPNODES_LENGTH_AT..CLIPNODES_LENGTH_AT + 4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .is_some_and(|b| i32::from_le_bytes(b) > 0)
}

/// A Quake 1 family level keeps clip hull 1 exactly when its file stores clip nodes:
/// qbsp's `-noclip` writes none, and such a level answers a query through hull 1 by
/// sweeping the query's shape through its brushes. It once kept a hull that was empty
/// everywhere (the file's heads out of range, read as empty), and every QuakeWorld player
/// on it fell through the floor.
#[test]
fn a_file_without_clip_nodes_keeps_no_clip_hull() {
    use planeshift::CompileOptions;
    use planeshift::build::import_bsp;
    let files = quake1_files("a_file_without_clip_nodes_keeps_no_clip_hull");
    let mut without = 0;
    for (name, bytes) in &files {
        let map = import_bsp(bytes, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map;
        let keeps = map
            .walk_clip_hull(1, glam::Vec3::ZERO, glam::Vec3::ZERO)
            .is_some();
        assert_eq!(keeps, stores_clip_nodes(bytes), "{name}");
        without += usize::from(!keeps);
    }
    println!(
        "{} Quake 1 family files, {without} without clip nodes",
        files.len()
    );
}

fn point_count() -> usize {
    crate::support::cases(POINTS_PER_MAP / 4, POINTS_PER_MAP)
}

/// Seeded points in open hull-0 leaves and beside them (in walls next to them), each at
/// least [`PLANE_MARGIN`] from every plane on its path.
fn sample_points(hulls: &Quake1Hulls, count: usize, seed: u64) -> Vec<DVec3> {
    let world = hulls.models[0];
    let mut rng = Pcg32::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0usize;
    while out.len() < count && attempts < count * 1000 {
        attempts += 1;
        let p = DVec3::new(
            rng.range_f64(world.mins.x, world.maxs.x),
            rng.range_f64(world.mins.y, world.maxs.y),
            rng.range_f64(world.mins.z, world.maxs.z),
        );
        let (contents, least) = hulls.point_contents(0, p);
        if contents == SOLID || least < PLANE_MARGIN {
            continue;
        }
        out.push(p);
        let q = p + DVec3::new(
            rng.range_f64(-WALL_REACH, WALL_REACH),
            rng.range_f64(-WALL_REACH, WALL_REACH),
            rng.range_f64(-WALL_REACH, WALL_REACH),
        );
        if hulls.point_contents(0, q).1 >= PLANE_MARGIN && out.len() < count {
            out.push(q);
        }
    }
    assert_eq!(out.len(), count, "too few open points found");
    out
}

/// A uniform grid over brushes' bounds, for point lookups.
struct BrushGrid<'a> {
    brushes: Vec<&'a Brush>,
    cells: HashMap<[i64; 3], Vec<usize>>,
}

fn cell_of(p: DVec3) -> [i64; 3] {
    let c = (p / CELL).floor();
    [c.x as i64, c.y as i64, c.z as i64]
}

impl<'a> BrushGrid<'a> {
    fn new(brushes: impl Iterator<Item = &'a Brush>) -> Self {
        let brushes: Vec<&Brush> = brushes.collect();
        let mut cells: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
        for (i, b) in brushes.iter().enumerate() {
            let (lo, hi) = (cell_of(b.mins), cell_of(b.maxs));
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        cells.entry([x, y, z]).or_default().push(i);
                    }
                }
            }
        }
        BrushGrid { brushes, cells }
    }

    /// The union of the contents of the brushes holding `p`.
    fn contents(&self, p: DVec3) -> Contents {
        self.cells.get(&cell_of(p)).map_or(Contents::EMPTY, |list| {
            list.iter()
                .map(|&i| self.brushes[i])
                .filter(|b| b.contains(p, 0.0))
                .fold(Contents::EMPTY, |all, b| all | b.contents)
        })
    }
}

/// Hull 0's leaf value as the class compared: Half-Life's currents are water, translucent
/// is solid, anything else not named is solid.
fn hull_class(value: i32) -> i32 {
    match value {
        -1 | -3 | -4 | -5 | -6 => value,
        -14..=-9 => -3,
        -16 => -1,
        _ => SOLID,
    }
}

/// Our contents as the same class: clip and ladders are not in hull 0.
fn our_class(contents: Contents) -> i32 {
    if contents.intersects(Contents::SOLID) {
        SOLID
    } else if contents.intersects(Contents::SKY) {
        -6
    } else if contents.intersects(Contents::LAVA) {
        -5
    } else if contents.intersects(Contents::SLIME) {
        -4
    } else if contents.intersects(Contents::WATER) {
        -3
    } else {
        -1
    }
}

fn class_name(class: i32) -> &'static str {
    match class {
        -1 => "empty",
        -2 => "solid",
        -3 => "water",
        -4 => "slime",
        -5 => "lava",
        -6 => "sky",
        _ => "other",
    }
}

fn world_brushes(brushes: &[Brush]) -> impl Iterator<Item = &Brush> {
    brushes.iter().filter(|b| b.owner == BrushOwner::World)
}

/// Every shared Quake 1 family `.bsp` imports, and its brushes' contents equal hull 0's at
/// ≥ 99.9 % of 100,000 seeded points (open leaves and walls beside them).
#[test]
fn imported_contents_equal_hull_0() {
    let files = quake1_files("imported_contents_equal_hull_0");
    let count = point_count();
    for (seed, (name, bytes)) in files.iter().enumerate() {
        let hulls = Quake1Hulls::read(bytes).unwrap();
        let (format, _, output) = read_brushes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let grid = BrushGrid::new(world_brushes(&output.brushes));
        let points = sample_points(&hulls, count, seed as u64 + 1);
        let mut differences: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for &p in &points {
            let expected = hull_class(hulls.point_contents(0, p).0);
            let got = our_class(grid.contents(p));
            if expected != got {
                *differences
                    .entry((class_name(expected), class_name(got)))
                    .or_default() += 1;
            }
        }
        let wrong: usize = differences.values().sum();
        let agree = 100.0 * (points.len() - wrong) as f64 / points.len() as f64;
        println!(
            "{name} ({}): {} brushes, {} points, {agree:.3} % equal hull 0; (hull 0, imported): {differences:?}",
            format.name(),
            output.brushes.len(),
            points.len()
        );
        assert!(agree >= 99.9, "{name}: {agree:.3} % < 99.9 %");
    }
}

/// The difference class of a point solid in the `.bsp` and open in a `.map` that leaks (so
/// `fill_outside` leaves its void open while the `.bsp`'s compiler filled it).
const LEAK_CLASS: &str = "the .map leaks (its void unfilled): solid in the .bsp, open in the .map";

/// The `.map` each shared `.bsp` was compiled from, when the corpus has it.
fn source_map(name: &str) -> Option<PathBuf> {
    let dir = real_maps_dir("source_map")?;
    let path = dir.join(name).with_extension("map");
    path.is_file().then_some(path)
}

/// For every `.map`/`.bsp` pair, the imported brushes and the `.map`'s brushes (the brush
/// stage with the outside filled, as `CompileOptions::fill_outside` does) give the same contents class at ≥ 99.5 % of the hull-0 points;
/// each kind of difference is named and counted.
#[test]
fn imported_and_compiled_agree() {
    let files = quake1_files("imported_and_compiled_agree");
    let count = point_count();
    let mut pairs = 0;
    for (seed, (name, bytes)) in files.iter().enumerate() {
        let Some(map_path) = source_map(name) else {
            continue;
        };
        pairs += 1;
        let hulls = Quake1Hulls::read(bytes).unwrap();
        let (_, _, imported) = read_brushes(bytes).unwrap();
        let map = parse_ok(&String::from_utf8_lossy(&read(&map_path)));
        let compiled = brushes_from_map(&map);
        // The .map with its outside filled, as `CompileOptions::fill_outside` compiles it:
        // id's compiler filled the .bsp's.
        let outside = find_outside(&map, &compiled.brushes);
        let leaks = outside.leak.is_some();
        let fill = outside.fill_brushes(&mut Vec::new());
        let ours = BrushGrid::new(world_brushes(&imported.brushes));
        let theirs = BrushGrid::new(world_brushes(&compiled.brushes).chain(fill.iter()));
        let points = sample_points(&hulls, count, seed as u64 + 101);
        let mut differences: BTreeMap<String, usize> = BTreeMap::new();
        for &p in &points {
            let (a, b) = (ours.contents(p), theirs.contents(p));
            if our_class(a) == our_class(b) {
                continue;
            }
            let kind = if a.contains(Contents::OUTSIDE) && our_class(b) == -1 {
                "void solid in the .bsp, open in the .map's fill".to_owned()
            } else if b.contains(Contents::OUTSIDE) && our_class(a) == -1 {
                "void solid in the .map's fill, open in the .bsp".to_owned()
            } else if leaks && our_class(a) == SOLID && our_class(b) == -1 {
                LEAK_CLASS.to_owned()
            } else {
                format!(
                    "bsp {} / map {}",
                    class_name(our_class(a)),
                    class_name(our_class(b))
                )
            };
            *differences.entry(kind).or_default() += 1;
        }
        let wrong: usize = differences.values().sum();
        let agree = 100.0 * (points.len() - wrong) as f64 / points.len() as f64;
        // A leaking .map has no fill to compare: its void is a named class, left out.
        let unfilled = differences.get(LEAK_CLASS).copied().unwrap_or(0);
        let compared = points.len() - unfilled;
        let sealed_agree = 100.0 * (compared - (wrong - unfilled)) as f64 / compared as f64;
        println!(
            "{name}: {} points, {agree:.3} % agree ({sealed_agree:.3} % without the unfilled void of a leaking .map); {differences:?}",
            points.len()
        );
        assert!(sealed_agree >= 99.5, "{name}: {sealed_agree:.3} % < 99.5 %");
    }
    if !files.is_empty() {
        assert!(pairs >= 1, "no .map/.bsp pair found");
    }
}

/// Player-box sweeps per level and hull (the count).
const SWEEPS_PER_HULL: usize = 1_000;
/// How far two sweeps' ends may differ and still agree, in units (the issue's).
const END_TOLERANCE: f32 = 0.1;
/// The longest sweep drawn, in units.
const SWEEP_LENGTH: f64 = 384.0;

/// A seeded sweep: a start anywhere in `world`'s box and an end up to [`SWEEP_LENGTH`]
/// away along each axis.
fn random_sweep(rng: &mut Pcg32, world: &Model) -> (DVec3, DVec3) {
    let start = DVec3::new(
        rng.range_f64(world.mins.x, world.maxs.x),
        rng.range_f64(world.mins.y, world.maxs.y),
        rng.range_f64(world.mins.z, world.maxs.z),
    );
    let end = start
        + DVec3::new(
            rng.range_f64(-SWEEP_LENGTH, SWEEP_LENGTH),
            rng.range_f64(-SWEEP_LENGTH, SWEEP_LENGTH),
            rng.range_f64(-SWEEP_LENGTH, SWEEP_LENGTH),
        );
    (start, end)
}

/// The clip hull's box (`model.c Mod_LoadClipnodes`): hull 1 the player, hull 2 the large box.
fn hull_box(hull: usize) -> (glam::Vec3, glam::Vec3) {
    if hull == 1 {
        planeshift::TraceShape::QUAKE1_PLAYER_BOUNDS
    } else {
        (
            glam::Vec3::new(-32.0, -32.0, -24.0),
            glam::Vec3::new(32.0, 32.0, 64.0),
        )
    }
}

/// On every shared id level, 1,000 seeded box sweeps from open space per clip hull through
/// the compiled `.map` and the imported `.bsp` end within 0.1 unit of Quake's trace through
/// hull 1 (the player box) and hull 2 (the large box), with the `func_wall` models, on
/// ≥ 99 % (sweeps that start solid in the hull left out); every disagreement is classed.
#[test]
fn player_sweeps_agree_with_clip_hulls() {
    use planeshift::TraceShape;
    use planeshift::build::import_bsp;
    use planeshift::{CompileOptions, compile_map};

    let files = quake1_files("player_sweeps_agree_with_clip_hulls");
    for (seed, (name, bytes)) in files.iter().enumerate() {
        if !name.starts_with("id-quake-1996/") {
            continue;
        }
        let Some(map_path) = source_map(name) else {
            continue;
        };
        let hulls = Quake1Hulls::read(bytes).unwrap();
        let compiled = compile_map(&read(&map_path)).unwrap().map;
        let imported = import_bsp(bytes, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map;
        let (_, entities, _) = read_brushes(bytes).unwrap();
        let walls: Vec<usize> = entities
            .entities
            .iter()
            .filter(|e| e.classname().eq_ignore_ascii_case("func_wall"))
            .filter_map(|e| e.get("model")?.strip_prefix('*')?.parse().ok())
            .filter(|&m: &usize| m < hulls.models.len())
            .collect();
        let world = hulls.models[0];
        for hull in [1usize, 2] {
            let (mins, maxs) = hull_box(hull);
            let shape = TraceShape::aabb(mins, maxs).unwrap();
            let mut rng = Pcg32::new(1000 * seed as u64 + hull as u64);
            let mut classes: [BTreeMap<&str, usize>; 2] = Default::default();
            let mut done = 0;
            let mut attempts = 0;
            while done < SWEEPS_PER_HULL && attempts < SWEEPS_PER_HULL * 1000 {
                attempts += 1;
                let (start, end) = random_sweep(&mut rng, &world);
                // From open space: not solid in the hull, and inside the level (hull 0 open).
                if hulls.hull_solid(hull, start) || hulls.point_contents(0, start).0 == SOLID {
                    continue;
                }
                let quake = hulls.trace(&walls, hull, start, end);
                if quake.start_solid {
                    continue;
                }
                done += 1;
                let expected = quake.end.as_vec3();
                for (k, level) in [&compiled, &imported].into_iter().enumerate() {
                    let ours = level.trace(
                        &shape,
                        start.as_vec3(),
                        end.as_vec3(),
                        Contents::MASK_PLAYER_SOLID,
                    );
                    let class = if ours.start_solid {
                        "planeshift starts solid"
                    } else if ours.end.distance(expected) <= END_TOLERANCE {
                        "agree"
                    } else if ours.fraction < quake.fraction as f32 {
                        "planeshift stops earlier"
                    } else if ours.fraction > quake.fraction as f32 {
                        "planeshift goes farther"
                    } else {
                        "same fraction, ends apart"
                    };
                    *classes[k].entry(class).or_default() += 1;
                }
            }
            assert_eq!(
                done, SWEEPS_PER_HULL,
                "{name}: too few open starts in hull {hull}"
            );
            for (k, what) in ["compiled .map", "imported .bsp"].into_iter().enumerate() {
                let agree = classes[k].get("agree").copied().unwrap_or(0);
                let percent = 100.0 * agree as f64 / done as f64;
                println!(
                    "{name} hull {hull} {what}: {percent:.1} % agree; {:?}",
                    classes[k]
                );
                assert!(
                    percent >= 99.0,
                    "{name} hull {hull} {what}: {percent:.1} % < 99 %"
                );
            }
        }
    }
}

/// How close a point sweep through our clip hull must end to the game's, in units: Quake's
/// own stop is 1/32 off the plane, ours too, so they differ by rounding alone (the game
/// backs off along each sub-segment of its tree walk in f32).
const CLIP_HULL_TOLERANCE: f32 = 0.01;
/// The share of point sweeps through our hull-1 world that end where Quake's end (measured
/// on the six shared id levels: 99.6 % to 100 %; the rest are the game's tree: a split
/// plane within 1/32 of a wall backs its stop off again, a corner catches it).
const CLIP_HULL_AGREEMENT: f64 = 99.0;

/// On every shared id level, clip hull 1 imported as a world of its own
/// (`import_bsp_clip_hull`) and swept by a point stopped as Quake stops
/// ([`StopRule::Cross`](planeshift::query::StopRule)) ends within 0.01 of Quake's own
/// `SV_RecursiveHullCheck` through hull 1 (the world and its `func_wall` models, as
/// `SV_Move` meets them) on ≥ 99 % of 1,000 seeded sweeps from open space; and, for comparison, how
/// often the player's box swept through hull 0's brushes does (clip brushes and qbsp's
/// missing bevels are where they differ), printed.
#[test]
fn point_sweeps_through_clip_hull_1_agree_with_quake() {
    use planeshift::CompileOptions;
    use planeshift::TraceShape;
    use planeshift::build::{import_bsp, import_bsp_clip_hull};
    use planeshift::movement::{ShapeQuery, Tracer};
    use planeshift::query::StopRule;

    let files = quake1_files("point_sweeps_through_clip_hull_1_agree_with_quake");
    for (seed, (name, bytes)) in files.iter().enumerate() {
        if !name.starts_with("id-quake-1996/") {
            continue;
        }
        let hulls = Quake1Hulls::read(bytes).unwrap();
        let options = CompileOptions::default();
        let hull1 = import_bsp_clip_hull(bytes, 1, &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map;
        let hull0 = import_bsp(bytes, &options).unwrap().map;
        let (_, entities, _) = read_brushes(bytes).unwrap();
        let walls: Vec<usize> = entities
            .entities
            .iter()
            .filter(|e| e.classname().eq_ignore_ascii_case("func_wall"))
            .filter_map(|e| e.get("model")?.strip_prefix('*')?.parse().ok())
            .filter(|&m: &usize| m < hulls.models.len())
            .collect();
        let point = TraceShape::point();
        let query = ShapeQuery::new(&point)
            .with_mask(Contents::SOLID)
            .stopped_by(StopRule::Cross);
        let (mins, maxs) = hull_box(1);
        let player = TraceShape::aabb(mins, maxs).unwrap();
        let world = hulls.models[0];
        let mut rng = Pcg32::new(7000 + seed as u64);
        let (mut done, mut attempts) = (0, 0);
        let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
        let mut box_agree = 0usize;
        while done < SWEEPS_PER_HULL && attempts < SWEEPS_PER_HULL * 1000 {
            attempts += 1;
            let (start, end) = random_sweep(&mut rng, &world);
            if hulls.hull_solid(1, start) || hulls.point_contents(0, start).0 == SOLID {
                continue;
            }
            let quake = hulls.trace(&walls, 1, start, end);
            if quake.start_solid {
                continue;
            }
            done += 1;
            let expected = quake.end.as_vec3();
            let ours = Tracer::trace(&hull1, &query, start.as_vec3(), end.as_vec3());
            let class = if ours.start_solid {
                "planeshift starts solid"
            } else if ours.end.distance(expected) <= CLIP_HULL_TOLERANCE {
                "agree"
            } else if ours.fraction < quake.fraction as f32 {
                "planeshift stops earlier"
            } else {
                "planeshift goes farther"
            };
            *classes.entry(class).or_default() += 1;
            let boxed = hull0.trace(
                &player,
                start.as_vec3(),
                end.as_vec3(),
                Contents::MASK_PLAYER_SOLID,
            );
            box_agree += usize::from(
                !boxed.start_solid && boxed.end.distance(expected) <= CLIP_HULL_TOLERANCE,
            );
        }
        assert_eq!(
            done, SWEEPS_PER_HULL,
            "{name}: too few open starts in hull 1"
        );
        let percent = 100.0 * classes.get("agree").copied().unwrap_or(0) as f64 / done as f64;
        let box_percent = 100.0 * box_agree as f64 / done as f64;
        println!(
            "{name} hull 1: point through the clip hull {percent:.1} % within {CLIP_HULL_TOLERANCE} of Quake ({classes:?}); player box through hull 0's brushes {box_percent:.1} %"
        );
        assert!(
            percent >= CLIP_HULL_AGREEMENT,
            "{name}: {percent:.1} % < {CLIP_HULL_AGREEMENT} %"
        );
    }
}

/// `bytes` (a BSP29 file) rewritten as `target` (2PSB, BSP2 or Half-Life BSP30): the wider
/// records of nodes, clipnodes, leaves, faces, mark surfaces and edges, the same values.
pub(crate) fn convert_bsp29(bytes: &[u8], target: BspFormat) -> Vec<u8> {
    let i32_at = |b: &[u8], at: usize| i32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let i16_at = |b: &[u8], at: usize| i16::from_le_bytes(b[at..at + 2].try_into().unwrap());
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes(b[at..at + 2].try_into().unwrap());
    let lump = |i: usize| {
        let (o, l) = (
            i32_at(bytes, 4 + 8 * i) as usize,
            i32_at(bytes, 8 + 8 * i) as usize,
        );
        &bytes[o..o + l]
    };
    let bsp2 = target == BspFormat::Bsp2;
    let bounds = |out: &mut Vec<u8>, r: &[u8], at: usize| {
        for k in 0..6 {
            let v = i16_at(r, at + 2 * k);
            if bsp2 {
                out.extend((v as f32).to_le_bytes());
            } else {
                out.extend(v.to_le_bytes());
            }
        }
    };
    let mut lumps: Vec<Vec<u8>> = (0..15).map(|i| lump(i).to_vec()).collect();
    if target != BspFormat::HalfLife30 {
        let mut nodes = Vec::new();
        for r in lump(5).chunks_exact(24) {
            nodes.extend(&r[0..4]);
            for k in 0..2 {
                nodes.extend(i32::from(i16_at(r, 4 + 2 * k)).to_le_bytes());
            }
            bounds(&mut nodes, r, 8);
            nodes.extend(u32::from(u16_at(r, 20)).to_le_bytes());
            nodes.extend(u32::from(u16_at(r, 22)).to_le_bytes());
        }
        let mut clipnodes = Vec::new();
        for r in lump(9).chunks_exact(8) {
            clipnodes.extend(&r[0..4]);
            for k in 0..2 {
                clipnodes.extend(i32::from(i16_at(r, 4 + 2 * k)).to_le_bytes());
            }
        }
        let mut leaves = Vec::new();
        for r in lump(10).chunks_exact(28) {
            leaves.extend(&r[0..8]);
            bounds(&mut leaves, r, 8);
            leaves.extend(u32::from(u16_at(r, 20)).to_le_bytes());
            leaves.extend(u32::from(u16_at(r, 22)).to_le_bytes());
            leaves.extend(&r[24..28]);
        }
        let mut faces = Vec::new();
        for r in lump(7).chunks_exact(20) {
            faces.extend(u32::from(u16_at(r, 0)).to_le_bytes());
            faces.extend(i32::from(i16_at(r, 2)).to_le_bytes());
            faces.extend(&r[4..8]);
            faces.extend(u32::from(u16_at(r, 8)).to_le_bytes());
            faces.extend(u32::from(u16_at(r, 10)).to_le_bytes());
            faces.extend(&r[12..20]);
        }
        let widen = |b: &[u8]| -> Vec<u8> {
            b.chunks_exact(2)
                .flat_map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])).to_le_bytes())
                .collect()
        };
        lumps[5] = nodes;
        lumps[9] = clipnodes;
        lumps[10] = leaves;
        lumps[7] = faces;
        lumps[11] = widen(lump(11));
        lumps[12] = widen(lump(12));
    }
    let mut out = match target {
        BspFormat::Bsp2 => b"BSP2".to_vec(),
        BspFormat::Bsp2Psb => b"2PSB".to_vec(),
        _ => 30i32.to_le_bytes().to_vec(),
    };
    let mut offset = 4 + 15 * 8;
    for l in &lumps {
        out.extend((offset as i32).to_le_bytes());
        out.extend((l.len() as i32).to_le_bytes());
        offset += l.len().div_ceil(4) * 4;
    }
    for l in &lumps {
        out.extend(l);
        out.resize(out.len().div_ceil(4) * 4, 0);
    }
    out
}

/// The four Quake 1 family formats of one small level (`q1_detail_fence2.bsp` as written,
/// and rewritten as 2PSB, BSP2 and BSP30).
fn small_files(test: &str) -> Vec<(BspFormat, Vec<u8>)> {
    let Some(dir) = real_maps_dir(test) else {
        return Vec::new();
    };
    let bsp29 = read(&dir.join("ericw-tools/q1_detail_fence2.bsp"));
    let mut out = vec![(BspFormat::Bsp29, bsp29.clone())];
    for target in [BspFormat::Bsp2Psb, BspFormat::Bsp2, BspFormat::HalfLife30] {
        out.push((target, convert_bsp29(&bsp29, target)));
    }
    out
}

/// A level rewritten in each wider format imports to the same brushes, and equals hull 0 as
/// the oracle reads that format.
#[test]
fn every_quake1_format_imports_the_same_brushes() {
    let Some(dir) = real_maps_dir("every_quake1_format_imports_the_same_brushes") else {
        return;
    };
    let bsp29 = read(&dir.join("id-quake-1996/e1m2.bsp"));
    let (_, _, expected) = read_brushes(&bsp29).unwrap();
    for target in [BspFormat::Bsp2Psb, BspFormat::Bsp2, BspFormat::HalfLife30] {
        let bytes = convert_bsp29(&bsp29, target);
        let (format, _, got) = read_brushes(&bytes).unwrap();
        assert_eq!(format, target);
        assert_eq!(got.brushes.len(), expected.brushes.len(), "{target:?}");
        for (a, b) in got.brushes.iter().zip(&expected.brushes) {
            assert_eq!(
                (a.contents, a.mins, a.maxs),
                (b.contents, b.mins, b.maxs),
                "{target:?}"
            );
        }
        let hulls = Quake1Hulls::read(&bytes).unwrap();
        let grid = BrushGrid::new(world_brushes(&got.brushes));
        for p in sample_points(&hulls, 10_000, 7) {
            assert_eq!(
                hull_class(hulls.point_contents(0, p).0),
                our_class(grid.contents(p)),
                "{target:?} at {p}"
            );
        }
    }
}

/// Mutated files per format: the 10,000 with `PLANESHIFT_FULL`, a quarter without
/// (`support::cases`).
const FUZZ_DEFAULT: usize = 10_000;

/// The Quake 1 family's directory: after the version, 15 lumps, the planes lump first after
/// the entities.
const QUAKE1_LAYOUT: BspLayout = BspLayout {
    directory_at: 4,
    lumps: 15,
    planes_lump: 1,
};

/// Seeded mutations of a small level in every Quake 1 family format (byte flips,
/// truncations, huge or negative lump offsets and lengths, huge counts, NaN planes): no
/// panic, every error names its lump (or the header it could not read); the slowest import
/// is printed.
#[test]
fn mutated_quake1_files_fail_cleanly() {
    let count = crate::support::cases(FUZZ_DEFAULT / 4, FUZZ_DEFAULT);
    for (format, original) in small_files("mutated_quake1_files_fail_cleanly") {
        let mut rng = Pcg32::new(format as u64 + 17);
        let (mut errors, mut ok) = (BTreeMap::<String, usize>::new(), 0usize);
        let mut slowest = (0.0f64, String::new());
        for case in 0..count {
            let mut bytes = original.clone();
            let kind = mutate_bsp(&mut rng, &mut bytes, &QUAKE1_LAYOUT);
            let clock = std::time::Instant::now();
            let result = read_brushes(&bytes);
            let seconds = clock.elapsed().as_secs_f64();
            if seconds > slowest.0 {
                slowest = (seconds, format!("case {case} ({kind})"));
            }
            match result {
                Ok(_) => ok += 1,
                Err(planeshift::build::ImportError::Lump { lump, .. }) => {
                    assert!(!lump.is_empty());
                    *errors.entry(lump.to_owned()).or_default() += 1;
                }
                Err(e) => *errors.entry(e.to_string()).or_default() += 1,
            }
        }
        println!(
            "{format:?}: {count} mutated files, {ok} imported, errors by lump {errors:?}; slowest import {:.2} ms ({})",
            slowest.0 * 1e3,
            slowest.1
        );
    }
}

/// How close the stored hull walk must end to the test's own reading of Quake's hull check
/// (`support/quake1_hulls.rs`, in f64), in units: the same walk, apart from rounding.
const HULL_WALK_TOLERANCE: f32 = 0.01;
/// The share of sweeps that must agree: the f64 reading and the game's f32 walk may round
/// to different sides of a split a few times in a thousand.
const HULL_WALK_AGREEMENT: f64 = 99.5;

/// On every Quake 1 family level (id's, Half-Life's and the converted formats), the level
/// imported once ([`import_bsp`](planeshift::build::import_bsp)) keeps its clip hulls, and
/// a point walked through each of hulls 1 to 3 of the world
/// ([`ShapeQuery::through_clip_hull`](planeshift::movement::ShapeQuery::through_clip_hull))
/// ends within 0.01 of Quake's own `SV_RecursiveHullCheck` through that hull, with its
/// start-solid flag and, on an impact, its plane's normal, on ≥ 99.5 % of 1,000 seeded
/// sweeps per hull (from open points of the hull).
#[test]
fn point_walks_through_the_stored_clip_hulls_agree_with_quake() {
    use planeshift::CompileOptions;
    use planeshift::TraceShape;
    use planeshift::build::import_bsp;
    use planeshift::movement::{ShapeQuery, Tracer};

    let files = quake1_files("point_walks_through_the_stored_clip_hulls_agree_with_quake");
    for (seed, (name, bytes)) in files.iter().enumerate() {
        let hulls = Quake1Hulls::read(bytes).unwrap();
        if !hulls.has_clip_nodes() {
            println!("{name}: no clip nodes, skipped");
            continue;
        }
        let level = import_bsp(bytes, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map;
        let point = TraceShape::point();
        let world = hulls.models[0];
        for hull in 1..=3u8 {
            assert!(
                level.has_clip_hull(usize::from(hull)),
                "{name}: no hull {hull}"
            );
            let query = ShapeQuery::new(&point).through_clip_hull(hull);
            let mut rng = Pcg32::new(9000 + 4 * seed as u64 + u64::from(hull));
            let (mut done, mut attempts, mut agree) = (0usize, 0usize, 0usize);
            while done < SWEEPS_PER_HULL && attempts < SWEEPS_PER_HULL * 1000 {
                attempts += 1;
                let (start, end) = random_sweep(&mut rng, &world);
                // f32 points, so that both walks start from the same numbers.
                let (start, end) = (start.as_vec3(), end.as_vec3());
                if hulls.hull_solid(usize::from(hull), start.as_dvec3()) {
                    continue;
                }
                done += 1;
                let quake =
                    hulls.trace_model(0, usize::from(hull), start.as_dvec3(), end.as_dvec3());
                let ours = Tracer::trace(&level, &query, start, end);
                let normal_same = match ours.normal {
                    Some(n) => quake.fraction < 1.0 && n.as_dvec3().distance(quake.normal) < 1e-6,
                    None => quake.fraction >= 1.0,
                };
                if ours.start_solid == quake.start_solid
                    && ours.end.distance(quake.end.as_vec3()) <= HULL_WALK_TOLERANCE
                    && normal_same
                {
                    agree += 1;
                }
            }
            if done == 0 {
                // A hull the file leaves empty (no open point was found).
                continue;
            }
            let percent = 100.0 * agree as f64 / done as f64;
            println!("{name} hull {hull}: {done} walks, {percent:.2} % agree with Quake");
            assert!(
                percent >= HULL_WALK_AGREEMENT,
                "{name} hull {hull}: {percent:.2} % < {HULL_WALK_AGREEMENT} %"
            );
        }
    }
}

/// The hull trees a level keeps are the file's whatever its format and survive the
/// compiled file: on every id level, the level written and read back, and the file
/// rewritten as BSP2, 2PSB and Half-Life BSP30 and imported, walk 200 seeded points through
/// hull 1 to the same bits as the level imported from the original BSP29.
#[test]
fn stored_clip_hulls_survive_the_compiled_file_and_every_format() {
    use planeshift::CompileOptions;
    use planeshift::CompiledMap;
    use planeshift::build::import_bsp;
    use planeshift::movement::{ShapeQuery, Tracer, WorldPart};

    let files = quake1_files("stored_clip_hulls_survive_the_compiled_file_and_every_format");
    for (name, bytes) in files
        .iter()
        .filter(|(n, _)| n.starts_with("id-quake-1996/"))
    {
        let options = CompileOptions::default();
        let level = import_bsp(bytes, &options).unwrap().map;
        let reread = CompiledMap::from_bytes(&level.to_bytes()).unwrap();
        let converted: Vec<CompiledMap> =
            [BspFormat::Bsp2, BspFormat::Bsp2Psb, BspFormat::HalfLife30]
                .into_iter()
                .map(|f| import_bsp(&convert_bsp29(bytes, f), &options).unwrap().map)
                .collect();
        let (mins, maxs) = (level.models()[0].mins, level.models()[0].maxs);
        let mut rng = Pcg32::new(77);
        for _ in 0..200 {
            let start = glam::Vec3::new(
                rng.range_f64(f64::from(mins.x), f64::from(maxs.x)) as f32,
                rng.range_f64(f64::from(mins.y), f64::from(maxs.y)) as f32,
                rng.range_f64(f64::from(mins.z), f64::from(maxs.z)) as f32,
            );
            let end = start + glam::Vec3::new(100.0, -50.0, -200.0);
            let walk = level.walk_clip_hull(1, start, end).unwrap();
            assert_eq!(reread.walk_clip_hull(1, start, end), Some(walk), "{name}");
            // The seam answers the walk for the world, nothing for what moves.
            let point = planeshift::TraceShape::point();
            let query = ShapeQuery::new(&point).through_clip_hull(1);
            for part in [WorldPart::All, WorldPart::Fixed, WorldPart::Model(0)] {
                let trace = Tracer::trace(&level, &query.of_part(part), start, end);
                assert_eq!(trace, walk.to_trace(), "{name}");
            }
            for part in [WorldPart::Moving, WorldPart::Model(1)] {
                let trace = Tracer::trace(&level, &query.of_part(part), start, end);
                assert_eq!(trace.fraction, 1.0, "{name}");
            }
            for other in &converted {
                assert_eq!(other.walk_clip_hull(1, start, end), Some(walk), "{name}");
            }
        }
    }
}
