//! Quake 3 maps compile with their shaders' meaning: the compiled world's point contents
//! against the `.bsp` files q3map2 built from the same `.map`s, and what the masks let
//! through.
//!
//! Takes the nine OpenArena lost levels (`.map` and `.bsp`) and the shared shader scripts
//! under `$PLANESHIFT_REAL_MAPS` (skipped, with a message, when missing); gives, per map, the
//! agreement of planeshift's world `point_contents`, translated back to Quake 3 bits, with the
//! `.bsp`'s brute force over its world brushes (`CM_PointContents` in Quake III Arena
//! `code/qcommon/cm_test.c`) at seeded points inside every `.bsp` world brush and uniform in
//! the world's bounds, each at least 1/32 from every face. Guarantees checked: ≥ 100,000
//! points in all and ≥ 99.9 % agreement on each map; `common/clip` stops a player box and
//! lets a point sweep with `MASK_SHOT` through; a player dropped into dm17ish's
//! do-not-enter sky volume falls through it.

use glam::{DVec3, Vec3};
use planeshift::{CharacterController, Contents, ControllerConfig, MoveInput, TraceShape};
use planeshift::{CompileOptions, build::compile_map_with};

use crate::support::q3bsp::{Q3Brush, Q3Bsp, contents as q3};
use crate::support::{Pcg32, box_map, compile, read, real_maps_dir};

/// The nine lost levels with `.bsp` ground truth.
pub(crate) const LEVELS: [&str; 9] = [
    "am_icyhell",
    "am_mckinleyish",
    "am_underworks",
    "blitzkrieg2",
    "dm17ish",
    "kaos",
    "oa_ctf2old",
    "q3dm6ish",
    "void2",
];

/// The script folders, in the order q3map2 was given them.
pub(crate) const SCRIPT_FOLDERS: [&str; 2] =
    ["openarena-shaders/scripts", "openarena-lostlevels/scripts"];

/// The Quake 3 bits compared (`surfaceflags.h`); detail, structural, trigger and the build's
/// `noob` are left out: they change building, entities or nothing at run time.
const COMPARED: u32 = q3::SOLID
    | q3::LAVA
    | q3::SLIME
    | q3::WATER
    | q3::FOG
    | q3::AREAPORTAL
    | q3::PLAYERCLIP
    | q3::MONSTERCLIP
    | q3::CLUSTERPORTAL
    | q3::DONOTENTER
    | q3::BOTCLIP
    | q3::NODROP
    | q3::TRANSLUCENT;

/// Points closer than this to a `.bsp` face are left out (map units, the stop distance): there
/// the answer depends on how each compiler rounded the plane.
const FACE_MARGIN: f64 = 1.0 / 32.0;

/// Random points per `.bsp` world brush, inside its axial bounds, besides the bounds' centre.
const POINTS_PER_BRUSH: usize = 5;

/// Uniform points per map in the world's bounds (grown by `WORLD_MARGIN`).
const UNIFORM_POINTS: usize = 10_000;

/// How far past the world's bounds uniform points may fall (map units): the void answers 0.
const WORLD_MARGIN: f64 = 64.0;

/// The least number of points compared over the nine maps.
const MIN_POINTS: usize = 100_000;

/// The least share of points that must agree, per map.
const MIN_AGREEMENT: f64 = 0.999;

/// planeshift's contents as Quake 3 bits (sky and window are solid there).
fn to_quake3(c: Contents) -> u32 {
    // Quake 3's translucent bit is planeshift's ladder bit: it is mapped below, not copied.
    let mut bits = c.0 & (COMPARED & !q3::TRANSLUCENT);
    if c.intersects(Contents::SKY | Contents::WINDOW) {
        bits |= q3::SOLID;
    }
    if c.intersects(Contents::TRANSLUCENT) {
        bits |= q3::TRANSLUCENT;
    }
    bits
}

/// A brush's axial bounds: its first six sides are −x, +x, −y, +y, −z, +z (q3map2).
fn brush_bounds(bsp: &Q3Bsp, brush: &Q3Brush) -> Option<(DVec3, DVec3)> {
    let planes: Vec<f64> = bsp
        .brush_planes(brush)
        .take(6)
        .map(|p| f64::from(p.dist))
        .collect();
    (planes.len() == 6).then(|| {
        (
            DVec3::new(-planes[0], -planes[2], -planes[4]),
            DVec3::new(planes[1], planes[3], planes[5]),
        )
    })
}

/// Whether `p` is within `FACE_MARGIN` of some world brush's boundary: its largest side
/// distance lies in [−margin, margin].
fn near_a_face(bsp: &Q3Bsp, bounds: &[(DVec3, DVec3)], p: DVec3) -> bool {
    bsp.model_brushes(0)
        .iter()
        .zip(bounds)
        .any(|(brush, (lo, hi))| {
            let m = DVec3::splat(FACE_MARGIN);
            if (p - (*lo - m)).min_element() < 0.0 || ((*hi + m) - p).min_element() < 0.0 {
                return false;
            }
            let worst = bsp
                .brush_planes(brush)
                .map(|plane| plane.distance(p.to_array()))
                .fold(f64::NEG_INFINITY, f64::max);
            worst.abs() <= FACE_MARGIN
        })
}

/// Compiles a lost level with the shared scripts.
pub(crate) fn compile_level(root: &std::path::Path, level: &str) -> planeshift::CompiledMap {
    let src = read(&root.join(format!("openarena-lostlevels/{level}.map")));
    let options = CompileOptions {
        shader_folders: SCRIPT_FOLDERS.iter().map(|f| root.join(f)).collect(),
        ..CompileOptions::default()
    };
    compile_map_with(&src, &options)
        .unwrap_or_else(|e| panic!("{level}: {e}"))
        .map
}

#[test]
fn point_contents_match_the_bsp_files() {
    let Some(root) = real_maps_dir("point_contents_match_the_bsp_files") else {
        return;
    };
    let mut total = 0;
    let mut failures = Vec::new();
    for (index, level) in LEVELS.iter().enumerate() {
        let world = compile_level(&root, level);
        let bsp = Q3Bsp::parse(&read(
            &root.join(format!("openarena-lostlevels/{level}.bsp")),
        ))
        .unwrap_or_else(|e| panic!("{level}: {e:?}"));
        let bounds: Vec<(DVec3, DVec3)> = bsp
            .model_brushes(0)
            .iter()
            .map(|b| brush_bounds(&bsp, b).unwrap_or((DVec3::ZERO, DVec3::ZERO)))
            .collect();
        let model = bsp.world();
        let (lo, hi) = (
            DVec3::from(model.mins.map(f64::from)) - WORLD_MARGIN,
            DVec3::from(model.maxs.map(f64::from)) + WORLD_MARGIN,
        );
        let mut rng = Pcg32::new(0x0003_c0de + index as u64);
        let mut points: Vec<DVec3> = Vec::new();
        for (min, max) in &bounds {
            points.push((*min + *max) * 0.5);
            for _ in 0..POINTS_PER_BRUSH {
                points.push(DVec3::new(
                    rng.range_f64(min.x, max.x),
                    rng.range_f64(min.y, max.y),
                    rng.range_f64(min.z, max.z),
                ));
            }
        }
        for _ in 0..UNIFORM_POINTS {
            points.push(DVec3::new(
                rng.range_f64(lo.x, hi.x),
                rng.range_f64(lo.y, hi.y),
                rng.range_f64(lo.z, hi.z),
            ));
        }
        let (mut compared, mut agreeing) = (0usize, 0usize);
        let mut first_miss = None;
        for p in points {
            // The points planeshift sees are f32; judge the same point.
            let p = p.as_vec3().as_dvec3();
            if near_a_face(&bsp, &bounds, p) {
                continue;
            }
            let expected = bsp.point_contents_brute(p.to_array()) & COMPARED;
            let got = to_quake3(world.point_contents(p.as_vec3())) & COMPARED;
            compared += 1;
            if got == expected {
                agreeing += 1;
            } else if first_miss.is_none() {
                first_miss = Some((p, got, expected));
            }
        }
        let share = agreeing as f64 / compared.max(1) as f64;
        println!(
            "{level}: {compared} points, {agreeing} agree ({:.3} %){}",
            share * 100.0,
            first_miss.map_or(String::new(), |(p, got, expected)| format!(
                "; first difference at {p:?}: planeshift {got:#x}, .bsp {expected:#x}"
            ))
        );
        if share < MIN_AGREEMENT {
            failures.push(format!("{level}: {:.3} %", share * 100.0));
        }
        total += compared;
    }
    assert!(total >= MIN_POINTS, "{total} points compared");
    assert!(failures.is_empty(), "agreement below 99.9 %: {failures:?}");
}

/// A Quake 3 map: a caulk floor and a `common/clip` wall across the way east.
fn clip_wall_map() -> String {
    box_map(&[
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "common/caulk"),
        ([96.0, -512.0, 0.0], [128.0, 512.0, 256.0], "common/clip"),
    ])
}

#[test]
fn clip_stops_players_not_shots() {
    let world = compile(clip_wall_map().as_bytes()).map;
    // q3map2 makes clip brushes detail (`C_DETAIL`), which changes no sweep.
    assert_eq!(
        world.point_contents(Vec3::new(112.0, 0.0, 64.0)),
        Contents::PLAYERCLIP | Contents::DETAIL
    );
    let player =
        TraceShape::from_spec("box:-16,-16,-24,16,16,32").unwrap_or_else(|e| panic!("{e}"));
    let (from, to) = (Vec3::new(0.0, 0.0, 64.0), Vec3::new(256.0, 0.0, 64.0));
    let walk = world.trace(&player, from, to, Contents::MASK_PLAYER_SOLID);
    assert!(walk.hit(), "the player walked through the clip");
    assert_eq!(walk.end.x, 96.0 - 16.0 - planeshift::STOP_DISTANCE);
    let shot = world.trace(&TraceShape::point(), from, to, Contents::MASK_SHOT);
    assert!(
        !shot.hit() && shot.end == to,
        "the shot stopped at the clip: {shot:?}"
    );
    let monster = world.trace(&player, from, to, Contents::MASK_MONSTER_SOLID);
    assert!(!monster.hit());
    // The same wall in a Quake 1 map (no `common/` folder, no `brushDef`): `clip` is player
    // clip there too, by name.
    let quake1 = box_map(&[
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "ground1_6"),
        ([96.0, -512.0, 0.0], [128.0, 512.0, 256.0], "clip"),
    ]);
    let world = compile(quake1.as_bytes()).map;
    assert_eq!(
        world.point_contents(Vec3::new(112.0, 0.0, 64.0)),
        Contents::PLAYERCLIP
    );
}

#[test]
fn tool_volumes_are_in_the_tree_and_block_only_their_masks() {
    let src = box_map(&[
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "common/caulk"),
        ([0.0, 0.0, 0.0], [64.0, 64.0, 64.0], "common/botclip"),
        ([100.0, 0.0, 0.0], [164.0, 64.0, 64.0], "common/donotenter"),
        ([200.0, 0.0, 0.0], [264.0, 64.0, 64.0], "common/nodrop"),
        ([300.0, 0.0, 0.0], [364.0, 64.0, 64.0], "common/hint"),
        ([400.0, 0.0, 0.0], [464.0, 64.0, 64.0], "common/watercaulk"),
        ([-200.0, 0.0, 0.0], [-136.0, 64.0, 64.0], "common/origin"),
    ]);
    let world = compile(src.as_bytes()).map;
    let at = |x: f32| world.point_contents(Vec3::new(x, 32.0, 32.0));
    assert_eq!(
        at(32.0),
        Contents::BOTCLIP | Contents::TRANSLUCENT | Contents::DETAIL
    );
    assert_eq!(
        at(132.0),
        Contents::DONOTENTER | Contents::TRANSLUCENT | Contents::DETAIL
    );
    assert_eq!(
        at(232.0),
        Contents::NODROP | Contents::TRANSLUCENT | Contents::DETAIL
    );
    assert_eq!(at(332.0), Contents::TRANSLUCENT);
    assert_eq!(at(432.0), Contents::WATER | Contents::DETAIL);
    assert_eq!(at(-168.0), Contents::EMPTY);
    let point = TraceShape::point();
    let (from, to) = (Vec3::new(-100.0, 32.0, 32.0), Vec3::new(500.0, 32.0, 32.0));
    assert!(
        !world
            .trace(&point, from, to, Contents::MASK_PLAYER_SOLID)
            .hit()
    );
    let bot = world.trace(&point, from, to, Contents::MASK_BOT_SOLID);
    assert_eq!(bot.end.x, -planeshift::STOP_DISTANCE);
    let past = world.trace(
        &point,
        Vec3::new(80.0, 32.0, 32.0),
        to,
        Contents::MASK_BOT_SOLID,
    );
    assert_eq!(past.end.x, 100.0 - planeshift::STOP_DISTANCE);
}

#[test]
fn a_player_falls_through_dm17ish_sky_volume() {
    let Some(root) = real_maps_dir("a_player_falls_through_dm17ish_sky_volume") else {
        return;
    };
    let world = compile_level(&root, "dm17ish");
    let start = Vec3::new(-1000.0, -1200.0, 1000.0);
    let here = world.point_contents(start);
    assert!(here.contains(Contents::DONOTENTER), "{here}");
    assert!(!here.intersects(Contents::MASK_PLAYER_SOLID), "{here}");
    let mut character = CharacterController::new(ControllerConfig::default(), start)
        .unwrap_or_else(|e| panic!("{e}"));
    let still = MoveInput::default();
    // Half a second of falling from rest: ½·800·0.48² ≈ 92 units, had nothing stopped it.
    for _ in 0..60 {
        character.step(&world, &still);
    }
    let fallen = start.z - character.position().z;
    assert!(fallen > 64.0, "fell {fallen} units only");
    assert!(
        !world
            .trace(
                &TraceShape::point(),
                start,
                start - Vec3::Z * 64.0,
                Contents::MASK_PLAYER_SOLID
            )
            .start_solid
    );
    assert!(
        world
            .trace(&TraceShape::point(), start, start, Contents::MASK_BOT_SOLID)
            .start_solid
    );
}
