//! Imported Quake 2 and Quake 3 `.bsp` files against the files' own answers.
//!
//! Takes every `.bsp` under `$PLANESHIFT_REAL_MAPS` whose header is Quake 2 (IBSP/QBSP 38)
//! or Quake 3 (IBSP 46) (skipped, with a message, when the folder is missing; the Quake 1
//! family is `quake1_import.rs`'s); gives, per file: it imports through
//! `planeshift::build::import_bsp`, and at seeded points in and next to the file's world
//! brushes (100,000 per map with `PLANESHIFT_FULL`, 20,000 without) the compiled world's point
//! contents equal the file's own on at least 99.9 %: Quake 2 the leaf contents of a
//! test-side tree walk (`CM_PointContents`, `support/q2bsp.rs`) where the leaf lists a brush
//! or is empty, Quake 3 the contents `support/q3bsp.rs` reads (`CM_PointContents`, equal to
//! brute force over the brushes: `q3bsp.rs`). Points within 0.01 unit of a plane on the
//! file's walk are left out (the f32 file and our f64 planes may round them apart).

use glam::Vec3;
use planeshift::CompileOptions;
use planeshift::Contents;
use planeshift::build::BspFormat;
use planeshift::build::import_bsp;
use planeshift::game::{contents_from_quake2, contents_from_quake3};

use crate::support::q2bsp::Q2Bsp;
use crate::support::q3bsp::Q3Bsp;
use crate::support::{Pcg32, files_in, read, real_maps_dir};

/// Points nearer a plane of the file's walk than this are not compared (map units).
const PLANE_MARGIN: f64 = 0.01;

/// How far past a brush's bounds a sample may lie (map units): the open space next to it.
const NEAR_BRUSH: f64 = 16.0;

/// The contents both sides translate alike and that matter to collision.
const COMPARED: Contents = Contents(
    Contents::SOLID.0
        | Contents::WINDOW.0
        | Contents::LAVA.0
        | Contents::SLIME.0
        | Contents::WATER.0
        | Contents::FOG.0
        | Contents::PLAYERCLIP.0
        | Contents::MONSTERCLIP.0,
);

/// The cases per map: 20,000, and the 100,000 with `PLANESHIFT_FULL`
/// (`support::cases`).
fn cases() -> usize {
    crate::support::cases(20_000, 100_000)
}

/// The file's answer at a point: its contents bits, `None` when the point is not compared.
type Oracle<'a> = Box<dyn Fn([f64; 3]) -> Option<Contents> + 'a>;

/// Counts agreement at `cases` seeded points near `boxes`; gives (compared, equal, and the
/// difference classes "ours vs file" with counts).
fn agreement(
    world: &planeshift::CompiledMap,
    boxes: &[([f64; 3], [f64; 3])],
    oracle: &Oracle<'_>,
    seed: u64,
) -> (usize, usize, std::collections::BTreeMap<String, usize>) {
    let mut rng = Pcg32::new(seed);
    let mut classes = std::collections::BTreeMap::new();
    let (mut compared, mut equal) = (0, 0);
    for _ in 0..cases() {
        let (mins, maxs) = boxes[rng.below(boxes.len())];
        let p: [f64; 3] =
            std::array::from_fn(|a| rng.range_f64(mins[a] - NEAR_BRUSH, maxs[a] + NEAR_BRUSH));
        let Some(file) = oracle(p) else { continue };
        let at = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
        // Our point contents hold the static models (func_wall), the file's world leaves not.
        let in_static = world.models().iter().any(|m| {
            m.kind == planeshift::level::ModelKind::Static
                && at.cmpge(m.mins + m.origin).all()
                && at.cmple(m.maxs + m.origin).all()
        });
        if in_static {
            *classes
                .entry("in a static model (not compared)".to_owned())
                .or_insert(0) += 1;
            continue;
        }
        let ours = world.point_contents(at);
        compared += 1;
        let (ours, file) = (ours & COMPARED, file & COMPARED);
        if ours == file {
            equal += 1;
        } else {
            *classes
                .entry(format!("ours {:#x} file {:#x}", ours.0, file.0))
                .or_insert(0) += 1;
        }
    }
    (compared, equal, classes)
}

#[test]
fn quake2_and_quake3_bsps_import_with_the_files_point_contents() {
    let Some(dir) = real_maps_dir("quake2_and_quake3_bsps_import_with_the_files_point_contents")
    else {
        return;
    };
    let mut seen = 0;
    let mut failures = Vec::new();
    for (name, path) in files_in(&dir, "bsp") {
        let bytes = read(&path);
        let format = BspFormat::detect(&bytes);
        let game = match format {
            Some(BspFormat::Ibsp38 | BspFormat::Qbsp38) => 2,
            Some(BspFormat::Ibsp46) => 3,
            _ => continue,
        };
        seen += 1;
        let options = CompileOptions {
            fill_outside: game == 2,
            ..CompileOptions::default()
        };
        let out = import_bsp(&bytes, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut kinds = std::collections::BTreeMap::new();
        for d in &out.diagnostics {
            *kinds.entry(format!("{:?}", d.kind)).or_insert(0) += 1;
        }
        println!(
            "{name}: diagnostics {kinds:?} first {:?}",
            out.diagnostics.first().map(|d| &d.message)
        );
        assert_eq!(out.format.name(), format.map_or("", BspFormat::name));
        let world = &out.map;
        let (compared, equal, classes) = if game == 2 {
            let q2 = Q2Bsp::parse(&bytes).unwrap_or_else(|| panic!("{name}: test reader"));
            let boxes: Vec<_> = q2
                .brushes
                .iter()
                .filter(|(mins, maxs, _)| mins.iter().chain(maxs).all(|v| v.is_finite()))
                .map(|&(mins, maxs, _)| (mins, maxs))
                .collect();
            let oracle: Oracle<'_> = Box::new(|p| {
                let (leaf, nearest) = q2.point_leaf(p)?;
                let &(contents, brushes) = q2.leafs.get(leaf)?;
                // Outside-filled leaves are solid with no brush: not the file's brushes.
                (nearest >= PLANE_MARGIN && (brushes > 0 || contents == 0))
                    .then(|| contents_from_quake2(contents))
            });
            agreement(world, &boxes, &oracle, 0x9e37_79b9)
        } else {
            let q3 = Q3Bsp::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let boxes: Vec<_> = q3
                .model_brushes(0)
                .iter()
                .map(|b| {
                    let mut mins = [f64::NEG_INFINITY; 3];
                    let mut maxs = [f64::INFINITY; 3];
                    for plane in q3.brush_planes(b) {
                        for a in 0..3 {
                            if plane.normal[a] == 1.0 {
                                maxs[a] = plane.dist as f64;
                            } else if plane.normal[a] == -1.0 {
                                mins[a] = -plane.dist as f64;
                            }
                        }
                    }
                    (mins, maxs)
                })
                .filter(|(mins, maxs)| mins.iter().chain(maxs).all(|v| v.is_finite()))
                .collect();
            let oracle: Oracle<'_> = Box::new(|p| {
                let near = q3.model_brushes(0).iter().any(|b| {
                    q3.brush_planes(b).all(|pl| pl.distance(p) <= PLANE_MARGIN)
                        && q3
                            .brush_planes(b)
                            .any(|pl| pl.distance(p).abs() < PLANE_MARGIN)
                });
                (!near).then(|| contents_from_quake3(q3.point_contents(p)))
            });
            agreement(world, &boxes, &oracle, 0x7f4a_7c15)
        };
        let share = equal as f64 / compared.max(1) as f64;
        println!(
            "{name}: {equal}/{compared} points agree ({:.3} %); differences {classes:?}",
            100.0 * share
        );
        assert!(compared * 2 > cases(), "{name}: too few points compared");
        if share < 0.999 {
            failures.push(format!("{name}: {share} < 99.9 %: {classes:?}"));
        }
    }
    println!("quake2/quake3 import: {seen} files");
    assert!(failures.is_empty(), "{failures:#?}");
}
