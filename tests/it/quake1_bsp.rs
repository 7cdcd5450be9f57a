//! Quake 1 family `.bsp` files (BSP29, BSP2, 2PSB, Half-Life BSP30) imported and checked
//! against Quake's own collision read independently (`support/quake1_hulls.rs`): contents
//! against hull 0, the imported brushes against the `.map` the file was compiled from, and
//! damaged files.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use glam::DVec3;
use planeshift::Contents;
use planeshift::brush::{Brush, BrushOwner, brushes_from_map};
use planeshift::import::{BspFormat, read_brushes};
use planeshift::leak::find_outside;

use crate::support::quake1_hulls::{Quake1Hulls, SOLID};
use crate::support::{Pcg32, files_in, parse_ok, read, real_maps_dir};

/// Points compared per map (the count); `PLANESHIFT_CASES` raises it.
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

fn point_count() -> usize {
    std::env::var("PLANESHIFT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(POINTS_PER_MAP, |n: usize| n.max(POINTS_PER_MAP))
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
        let fill = find_outside(&map, &compiled.brushes).fill_brushes(&mut Vec::new());
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
        println!(
            "{name}: {} points, {agree:.3} % agree; {differences:?}",
            points.len()
        );
        assert!(agree >= 99.5, "{name}: {agree:.3} % < 99.5 %");
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

/// The clip hull's box (`model.c Mod_LoadClipnodes`): hull 1 the player, hull 2 the large box.
fn hull_box(hull: usize) -> (glam::Vec3, glam::Vec3) {
    if hull == 1 {
        (
            glam::Vec3::new(-16.0, -16.0, -24.0),
            glam::Vec3::new(16.0, 16.0, 32.0),
        )
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
    use planeshift::compile::{CompileOptions, compile_map};
    use planeshift::import::import_bsp;
    use planeshift::trace::TraceShape;

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
