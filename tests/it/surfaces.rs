//! Surface flags, materials, the game's own contents and model kinds, kept in the compiled
//! world and reported by sweeps.
//!
//! Takes hand-written maps and the nine OpenArena lost levels (`.map` with the `.bsp` q3map2
//! built from it, under `$PLANESHIFT_REAL_MAPS`; skipped with a message when missing).
//! Checks: every shader the world uses has the surface flags of the `.bsp`'s shader lump,
//! per map; a sweep into each face of a box reports that face's material and flags; a bevel
//! reports the movement flags of the face it bevels; Quake 2 and Half-Life currents keep
//! their direction in the game's contents value; `func_wall` blocks in the world sweep and a
//! door does not.

use std::collections::BTreeMap;

use glam::Vec3;
use planeshift::{CompileOptions, build::compile_map_with};
use planeshift::{CompiledMap, Contents, SurfaceFlags, TraceShape, build::Game, level::ModelKind};

use crate::q3_contents::{LEVELS, compile_level};
use crate::support::q3bsp::{Q3Bsp, surf};
use crate::support::{Pcg32, compile, read, real_maps_dir};

/// The `.bsp` shader entries that disagree with the scripts: dm17ish's `.bsp` was built
/// without `dm17ish-extra.shader` (see `tests/it/shader.rs`).
const STALE_BSP_SHADERS: [&str; 3] = [
    "textures/e8/e8clangfloor05",
    "textures/e8/e8trimlight",
    "textures/e8/e8trimlight2_blue",
];

/// The surface flags of every face (not bevel) of model `model`, by material name; a
/// material whose faces disagree is a failure.
fn face_flags_by_material(map: &CompiledMap, model: usize) -> BTreeMap<String, SurfaceFlags> {
    let mut out: BTreeMap<String, SurfaceFlags> = BTreeMap::new();
    let range = map.models()[model].brush_range();
    for brush in &map.brushes()[range] {
        for side in map.brush_sides(brush).iter().filter(|s| !s.bevel) {
            let name = map.materials()[side.material as usize].clone();
            let previous = out.insert(name.clone(), side.surface);
            assert!(
                previous.is_none_or(|p| p == side.surface),
                "{name}: faces disagree ({previous:?} and {:?})",
                side.surface
            );
        }
    }
    out
}

#[test]
fn world_shader_flags_match_the_bsp_shader_lump() {
    let Some(root) = real_maps_dir("world_shader_flags_match_the_bsp_shader_lump") else {
        return;
    };
    let (mut all_used, mut all_agree) = (0, 0);
    for level in LEVELS {
        let map = compile_level(&root, level);
        let bsp = Q3Bsp::parse(&read(
            &root.join(format!("openarena-lostlevels/{level}.bsp")),
        ))
        .unwrap_or_else(|e| panic!("{level}: {e}"));
        let lump: BTreeMap<String, u32> = bsp
            .shaders
            .iter()
            .map(|s| (s.name.to_ascii_lowercase(), s.surface_flags))
            .collect();
        let used = face_flags_by_material(&map, 0);
        let (mut agree, mut stale, mut absent) = (0, 0, Vec::new());
        for (material, flags) in &used {
            let name = format!("textures/{material}").to_ascii_lowercase();
            let Some(&bsp_flags) = lump.get(&name) else {
                absent.push(name);
                continue;
            };
            // Built with `-noob`: every named shader carries NOOB.
            let expected = SurfaceFlags::from_quake3(bsp_flags & !surf::NOOB);
            if *flags == expected {
                agree += 1;
            } else {
                assert!(
                    STALE_BSP_SHADERS.contains(&name.as_str()),
                    "{level}: {name}: compiled {flags}, .bsp {expected}"
                );
                stale += 1;
            }
        }
        println!(
            "{level}: the world uses {} shaders: {agree} agree with the .bsp, {stale} stale in it",
            used.len()
        );
        assert!(absent.is_empty(), "{level}: not in the .bsp: {absent:?}");
        assert!(!used.is_empty(), "{level}: no shaders");
        all_used += used.len();
        all_agree += agree;
    }
    println!("all: {all_agree} of {all_used} world shaders agree");
}

/// A Quake 2 face line with its triple.
fn q2_face(points: [[f64; 3]; 3], texture: &str, (contents, flags): (u32, u32)) -> String {
    let p = |v: [f64; 3]| format!("( {} {} {} )", v[0], v[1], v[2]);
    format!(
        "{} {} {} {texture} 0 0 0 1 1 {contents} {flags} 0\n",
        p(points[0]),
        p(points[1]),
        p(points[2])
    )
}

/// The six faces of a box, each with its own texture `face_N` and flags `flags[N]` (order:
/// −x, +x, −y, +y, −z, +z).
fn q2_box(mins: [f64; 3], maxs: [f64; 3], flags: [u32; 6]) -> String {
    let [x0, y0, z0] = mins;
    let [x1, y1, z1] = maxs;
    let faces = [
        [[x0, y0, z0], [x0, y1, z0], [x0, y0, z1]],
        [[x1, y0, z0], [x1, y0, z1], [x1, y1, z0]],
        [[x0, y0, z0], [x0, y0, z1], [x1, y0, z0]],
        [[x0, y1, z0], [x1, y1, z0], [x0, y1, z1]],
        [[x0, y0, z0], [x1, y0, z0], [x0, y1, z0]],
        [[x0, y0, z1], [x0, y1, z1], [x1, y0, z1]],
    ];
    let mut src = String::from("{\n");
    for (k, points) in faces.into_iter().enumerate() {
        src.push_str(&q2_face(points, &format!("face_{k}"), (0, flags[k])));
    }
    src.push_str("}\n");
    src
}

fn world(brushes: &str) -> String {
    format!("{{\n\"classname\" \"worldspawn\"\n{brushes}}}\n")
}

/// Quake 2 surface bits used below (`qfiles.h`).
const Q2_SLICK: u32 = 0x2;
const Q2_SKY: u32 = 0x4;
const Q2_WARP: u32 = 0x8;
const Q2_NODRAW: u32 = 0x80;

#[test]
fn a_sweep_reports_the_material_and_flags_of_the_face_it_hits() {
    let flags = [Q2_SLICK, Q2_SKY, Q2_WARP, Q2_NODRAW, 0, Q2_SLICK | Q2_WARP];
    let map = compile(world(&q2_box([-64.0; 3], [64.0; 3], flags)).as_bytes()).map;
    assert_eq!(map.game(), Some(Game::Quake2));
    let shapes = [
        TraceShape::point(),
        TraceShape::sphere(8.0).expect("sphere"),
        TraceShape::aabb(Vec3::splat(-16.0), Vec3::splat(16.0)).expect("box"),
        TraceShape::capsule(12.0, 20.0).expect("capsule"),
    ];
    let mut rng = Pcg32::new(11);
    let mut hits = 0;
    for (k, face_flags) in flags.into_iter().enumerate() {
        let axis = k / 2;
        let sign = if k % 2 == 0 { -1.0 } else { 1.0 };
        for shape in &shapes {
            for _ in 0..50 {
                // From 200 units out along the face normal to the centre, with a lateral
                // offset that keeps the shape over the face.
                let mut start = Vec3::ZERO;
                for other in (0..3).filter(|&a| a != axis) {
                    start[other] = rng.range_f64(-40.0, 40.0) as f32;
                }
                start[axis] = 200.0 * sign;
                let mut end = start;
                end[axis] = 0.0;
                let trace = map.trace(shape, start, end, Contents::MASK_ANY_BLOCKING);
                assert!(trace.hit());
                let name = trace.material.and_then(|m| map.material_name(m));
                assert_eq!(
                    name,
                    Some(format!("face_{k}").as_str()),
                    "{shape:?} {start}"
                );
                assert_eq!(trace.surface, SurfaceFlags::from_quake2(face_flags));
                hits += 1;
            }
        }
    }
    assert_eq!(hits, 6 * 4 * 50);
    let miss = map.trace(
        &shapes[0],
        Vec3::splat(300.0),
        Vec3::splat(400.0),
        Contents::MASK_ANY_BLOCKING,
    );
    assert_eq!((miss.material, miss.surface), (None, SurfaceFlags::EMPTY));
}

/// A ridge: a prism along x whose two slopes meet at a sharp top edge (60° apart), with
/// vertical ends, every face but the bottom carrying `top_flags`.
fn ridge(top_flags: u32) -> String {
    let faces = [
        // Slopes through the top edge (z = 100 at y = 0) down to y = ±40 at z = 0.
        (
            [[0.0, -40.0, 0.0], [0.0, 0.0, 100.0], [64.0, 0.0, 100.0]],
            top_flags,
        ),
        (
            [[0.0, 40.0, 0.0], [64.0, 40.0, 0.0], [64.0, 0.0, 100.0]],
            top_flags,
        ),
        // Ends and bottom.
        (
            [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            top_flags,
        ),
        (
            [[64.0, 0.0, 0.0], [64.0, 0.0, 1.0], [64.0, 1.0, 0.0]],
            top_flags,
        ),
        ([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0),
    ];
    let mut src = String::from("{\n");
    for (points, flags) in faces {
        src.push_str(&q2_face(points, "ridge", (0, flags)));
    }
    src.push_str("}\n");
    world(&src)
}

#[test]
fn bevels_carry_the_movement_flags_of_the_faces_they_bevel() {
    let slick = compile(ridge(Q2_SLICK | Q2_NODRAW).as_bytes()).map;
    let plain = compile(ridge(0).as_bytes()).map;
    // Every bevel of the ridge comes from a slick face but the bottom's, and carries only
    // the movement flags.
    let bevels: Vec<_> = slick.sides().iter().filter(|s| s.bevel).collect();
    assert!(!bevels.is_empty());
    assert!(
        bevels
            .iter()
            .all(|s| SurfaceFlags::MOVEMENT.contains(s.surface))
    );
    let shapes = [
        TraceShape::sphere(10.0).expect("sphere"),
        TraceShape::aabb(Vec3::splat(-16.0), Vec3::splat(16.0)).expect("box"),
        TraceShape::cylinder(12.0, 24.0).expect("cylinder"),
    ];
    let mut rng = Pcg32::new(5);
    let (mut hits, mut on_bevels) = (0, 0);
    for i in 0..3000 {
        let shape = &shapes[i % shapes.len()];
        // From above, down and sideways onto the ridge's top and its edges.
        let start = Vec3::new(
            rng.range_f64(8.0, 56.0) as f32,
            rng.range_f64(-80.0, 80.0) as f32,
            200.0,
        );
        let end = Vec3::new(start.x, rng.range_f64(-80.0, 80.0) as f32, 60.0);
        let hit = slick.trace(shape, start, end, Contents::MASK_ANY_BLOCKING);
        let bare = plain.trace(shape, start, end, Contents::MASK_ANY_BLOCKING);
        assert_eq!(hit.fraction, bare.fraction, "flags changed geometry");
        if !hit.hit() {
            continue;
        }
        hits += 1;
        assert!(
            hit.surface.contains(SurfaceFlags::SLICK),
            "{shape:?} {start} {end}"
        );
        assert_eq!(bare.surface, SurfaceFlags::EMPTY);
        let hit_plane = hit.plane.expect("a hit has a plane");
        let face_plane = slick
            .brush_sides(&slick.brushes()[0])
            .iter()
            .filter(|s| !s.bevel)
            .map(|s| slick.planes()[s.plane as usize])
            .any(|p| {
                p.normal.dot(hit_plane.normal) > 1.0 - 1e-6
                    && (p.dist - hit_plane.dist).abs() < 1e-3
            });
        if !face_plane {
            on_bevels += 1;
        }
    }
    println!("{hits} hits on the ridge, {on_bevels} on bevels or edges");
    assert!(
        hits > 1000 && on_bevels > 100 && on_bevels < hits,
        "{hits} hits, {on_bevels} on bevels"
    );
}

#[test]
fn currents_keep_their_direction_in_the_game_contents() {
    // Quake 2: CONTENTS_WATER | CONTENTS_CURRENT_90 on every face.
    let face = |points, tex| q2_face(points, tex, (0x20 | 0x8_0000, 0));
    let faces = [
        [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        [[64.0, 0.0, 0.0], [64.0, 0.0, 1.0], [64.0, 1.0, 0.0]],
        [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
        [[0.0, 64.0, 0.0], [1.0, 64.0, 0.0], [0.0, 64.0, 1.0]],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        [[0.0, 0.0, 64.0], [0.0, 1.0, 64.0], [1.0, 0.0, 64.0]],
    ];
    let brush: String = faces.iter().map(|p| face(*p, "*water")).collect();
    let map = compile(world(&format!("{{\n{brush}}}\n")).as_bytes()).map;
    let stream = &map.brushes()[0];
    assert_eq!(stream.contents, Contents::WATER | Contents::CURRENT);
    assert_eq!(stream.game_contents, 0x20 | 0x8_0000);

    // Half-Life: `!cur_90` is CONTENTS_CURRENT_90 (−10), `!water` CONTENTS_WATER (−3).
    let hl = |texture: &str| {
        let src = crate::support::box_map(&[([0.0; 3], [64.0; 3], texture)]);
        let options = CompileOptions {
            game: Some(Game::HalfLife),
            ..CompileOptions::default()
        };
        let map = compile_map_with(src.as_bytes(), &options)
            .expect("compiles")
            .map;
        map.brushes()[0].game_contents as i32
    };
    assert_eq!(hl("!cur_90"), -10);
    assert_eq!(hl("!cur_dwn"), -14);
    assert_eq!(hl("!water"), -3);
    assert_eq!(hl("sky"), -6);
    assert_eq!(hl("brick"), -2);
}

/// A map with a floor and, standing on it, one brush entity of class `class` (with extra
/// key/values `keys`) at x 0..64.
fn entity_map(class: &str, keys: &str, texture: &str) -> String {
    let floor_texture = if texture.contains('/') {
        "base_floor/plain"
    } else {
        "floor"
    };
    let floor = crate::support::box_brush_face_lines(
        [-512.0, -512.0, -16.0],
        [512.0, 512.0, 0.0],
        floor_texture,
    );
    let block =
        crate::support::box_brush_face_lines([0.0, -64.0, 0.0], [64.0, 64.0, 128.0], texture);
    format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n{floor}}}\n}}\n\
         {{\n\"classname\" \"{class}\"\n{keys}\n{{\n{block}}}\n}}\n"
    )
}

#[test]
fn static_brush_entities_block_in_the_world_sweep_and_movers_do_not() {
    let player = TraceShape::quake1_player();
    let (from, to) = (Vec3::new(-200.0, 0.0, 40.0), Vec3::new(200.0, 0.0, 40.0));
    let cases = [
        // (class, keys, texture, game, kind, blocks)
        ("func_wall", "", "brick", None, ModelKind::Static, true),
        ("func_door", "", "brick", None, ModelKind::Mover, false),
        (
            "func_illusionary",
            "",
            "brick",
            None,
            ModelKind::Volume,
            false,
        ),
        (
            "func_wall",
            "\"spawnflags\" \"2\"",
            "brick",
            Some(Game::Quake2),
            ModelKind::Mover,
            false,
        ),
        (
            "func_wall",
            "",
            "brick",
            Some(Game::Quake2),
            ModelKind::Static,
            true,
        ),
        (
            "func_static",
            "",
            "base_wall/metal",
            Some(Game::Quake3),
            ModelKind::Static,
            true,
        ),
        (
            "func_wall",
            "",
            "base_wall/metal",
            Some(Game::Quake3),
            ModelKind::Volume,
            false,
        ),
        (
            "func_door",
            "",
            "base_wall/metal",
            Some(Game::Quake3),
            ModelKind::Mover,
            false,
        ),
        (
            "func_wall",
            "",
            "brick",
            Some(Game::HalfLife),
            ModelKind::Static,
            true,
        ),
        (
            "func_ladder",
            "",
            "brick",
            Some(Game::HalfLife),
            ModelKind::Volume,
            false,
        ),
        (
            "trigger_hurt",
            "",
            "trigger",
            None,
            ModelKind::Trigger,
            false,
        ),
    ];
    for (class, keys, texture, game, kind, blocks) in cases {
        let src = entity_map(class, keys, texture);
        let options = CompileOptions {
            game,
            ..CompileOptions::default()
        };
        let map = compile_map_with(src.as_bytes(), &options)
            .expect("compiles")
            .map;
        let what = format!("{class} {keys} {game:?}");
        assert_eq!(map.models()[1].kind, kind, "{what}");
        let trace = map.trace(&player, from, to, Contents::MASK_PLAYER_SOLID);
        assert_eq!(trace.hit(), blocks, "{what}");
        let inside = map.point_contents(Vec3::new(32.0, 0.0, 64.0));
        assert_eq!(inside.is_solid(), blocks, "{what}: {inside}");
        if blocks {
            assert_eq!(
                trace.target,
                Some(planeshift::HitTarget::Model(1)),
                "{what}"
            );
            assert_eq!(trace.end.x, -16.0 - planeshift::STOP_DISTANCE, "{what}");
            assert_eq!(
                trace.material.and_then(|m| map.material_name(m)),
                Some(texture),
                "{what}"
            );
        }
        // The floor is the world's, whatever stands on it.
        let down = map.trace(
            &player,
            Vec3::new(-300.0, 0.0, 100.0),
            Vec3::new(-300.0, 0.0, 0.0),
            Contents::MASK_PLAYER_SOLID,
        );
        assert_eq!(down.target, Some(planeshift::HitTarget::World), "{what}");
        // Round trip through the file keeps kinds, materials and the game.
        let loaded = CompiledMap::from_bytes(&map.to_bytes()).expect("loads");
        assert_eq!(loaded, map);
        assert_eq!(loaded.game_name(), map.game_name());
    }
}
