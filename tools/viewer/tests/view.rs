//! The top-down viewer, headless: frames drawn by `render::draw` (and by the
//! `trace_visualizer` example's `--screenshot`) checked pixel by pixel against the world.
//!
//! Two kinds of check: known points of the hand-made arena (`maps/README.md`) must show the
//! colour of their contents, and on the arena and a real map every sampled pixel well inside
//! a region must show the colour that the BSP tree's `point_contents` (a code path
//! independent of the slice polygons) gives for its world point. Sweep markers are found by
//! colour and must sit at the pixel of the point the sweep reports.

use std::path::{Path, PathBuf};
use std::process::Command;

use glam::{Vec2, Vec3};
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::compile_map;
use planeshift_testkit::{real_maps_dir, repo_root};
use planeshift_viewer::render::{self, Rgb};
use planeshift_viewer::screenshot::{self, RgbaImage};
use planeshift_viewer::{Camera, ContentsClass, Scene, ShapeSpec, TraceSpec};

/// The bytes of `path`, panicking with the path when it cannot be read.
fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn arena() -> CompiledMap {
    let path = repo_root().join("maps/arena.map");
    compile_map(&read(&path)).expect("arena compiles").map
}

/// The arena seen whole: centre (1024, 1024), 0.375 pixels per unit, 1280×800.
fn arena_camera() -> Camera {
    Camera::new(1280, 800, Vec2::new(1024.0, 1024.0), 0.375)
}

/// Height of the arena cut: between every step top and ramp contour that matters, and on
/// no brush plane.
const ARENA_SLICE: f32 = 36.5;

fn frame(scene: &Scene, world: &CompiledMap) -> RgbaImage {
    let camera = scene.camera;
    let pixmap = screenshot::render(scene, world, camera.width, camera.height).expect("render");
    screenshot::to_rgba(&pixmap)
}

/// The pixel containing world point `p`.
fn pixel_of(camera: &Camera, p: Vec2) -> (u32, u32) {
    let q = camera.to_pixel(p);
    (q.x.floor() as u32, q.y.floor() as u32)
}

fn color_at(image: &RgbaImage, camera: &Camera, p: Vec2) -> Rgb {
    let (x, y) = pixel_of(camera, p);
    let [r, g, b, a] = image.pixel(x, y).expect("pixel inside the image");
    assert_eq!(a, 255, "frames are opaque");
    Rgb(r, g, b)
}

fn is_empty_color(c: Rgb) -> bool {
    [
        render::BACKGROUND,
        render::GRID_MINOR,
        render::GRID_MAJOR,
        render::GRID_AXIS,
    ]
    .contains(&c)
}

/// Whether `c` is `a`, `b` or an anti-aliased blend of the two (one blend factor for every
/// channel that differs, within rounding).
fn is_blend(c: Rgb, a: Rgb, b: Rgb) -> bool {
    let (c, a, b) = (
        [c.0, c.1, c.2].map(f32::from),
        [a.0, a.1, a.2].map(f32::from),
        [b.0, b.1, b.2].map(f32::from),
    );
    let factors: Vec<f32> = (0..3)
        .filter(|&i| (b[i] - a[i]).abs() >= 16.0)
        .map(|i| (c[i] - a[i]) / (b[i] - a[i]))
        .collect();
    let inside = (0..3).all(|i| a[i].min(b[i]) - 1.0 <= c[i] && c[i] <= a[i].max(b[i]) + 1.0);
    let agree = factors
        .iter()
        .all(|f| factors.iter().all(|g| (f - g).abs() <= 0.05));
    inside && agree
}

/// Whether `c` shows a region of `class`: its fill (within 2 per channel, the coverage lost
/// where two anti-aliased polygons share an edge), or a blend of fill and outline on a seam.
fn shows_class(c: Rgb, class: ContentsClass) -> bool {
    let fill = render::fill_color(class);
    let near = [(c.0, fill.0), (c.1, fill.1), (c.2, fill.2)]
        .iter()
        .all(|(a, b)| a.abs_diff(*b) <= 2);
    near || is_blend(c, fill, render::outline_color(class))
}

/// The centroid, in continuous pixel coordinates, of the pixels of exactly `color`.
fn centroid(image: &RgbaImage, color: Rgb) -> Option<Vec2> {
    let mut sum = Vec2::ZERO;
    let mut count = 0;
    for y in 0..image.height {
        for x in 0..image.width {
            if image.pixel(x, y) == Some(color.rgba()) {
                sum += Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                count += 1;
            }
        }
    }
    (count > 0).then(|| sum / count as f32)
}

#[test]
fn arena_known_points_show_their_contents() {
    let world = arena();
    let camera = arena_camera();
    let scene = Scene::new(&world, camera, ARENA_SLICE);
    let image = frame(&scene, &world);
    let solid = render::fill_color(ContentsClass::Solid);
    // (world x, y, expected colour, what it is)
    let checks = [
        (-8.0, 1024.0, solid, "west wall, x -16..0"),
        (2056.0, 1024.0, solid, "east wall, x 2048..2064"),
        (1024.0, -8.0, solid, "south wall"),
        (352.0, 192.0, solid, "rise-8 landing, top 48"),
        (272.0, 192.0, solid, "rise-8 step 5, top 40"),
        (
            800.0,
            192.0,
            solid,
            "45-degree ramp above its z = 36.5 contour (x 676.5)",
        ),
        (
            684.0,
            192.0,
            solid,
            "45-degree ramp 7.5 units past its contour",
        ),
        (1144.0, 250.0, solid, "corner wall x 1136..1152"),
        (
            256.0,
            1536.0,
            render::fill_color(ContentsClass::Water),
            "water",
        ),
        (
            576.0,
            1536.0,
            render::fill_color(ContentsClass::Clip),
            "player clip",
        ),
        (
            776.0,
            1472.0,
            render::fill_color(ContentsClass::Mover),
            "func_door",
        ),
        (192.0, 1160.0, solid, "coplanar wall y 1152..1168"),
    ];
    for (x, y, expected, what) in checks {
        assert_eq!(
            color_at(&image, &camera, Vec2::new(x, y)),
            expected,
            "{what} at ({x}, {y})"
        );
    }
    let empty = [
        (1024.0, 1024.0, "the middle of the room"),
        (208.0, 192.0, "above rise-8 step 3 (top 24)"),
        (668.0, 192.0, "in front of the 45-degree ramp's contour"),
        (1728.0, 300.0, "inside the 60-degree V"),
        (960.0, 1472.0, "trigger_multiple (not solid, not drawn)"),
        (1500.0, 1500.0, "above the floor tiles (top 0)"),
    ];
    for (x, y, what) in empty {
        let c = color_at(&image, &camera, Vec2::new(x, y));
        assert!(is_empty_color(c), "{what} at ({x}, {y}) shows {c:?}");
    }
}

/// Samples a grid of pixels; each whose centre and the points up to 1.5 pixels away in
/// eight directions have the same world contents must show that contents' colour: the background or grid where
/// empty, else its class's fill, or a blend of fill and outline where the seam between two
/// brushes of the class crosses the pixel. Returns (solid, empty, seam) counts.
fn check_against_point_contents(
    world: &CompiledMap,
    scene: &Scene,
    image: &RgbaImage,
    stride: u32,
) -> (usize, usize, usize) {
    let camera = &scene.camera;
    let z = scene.slice_z();
    let reach = 1.5 / camera.scale;
    let mut counts = (0, 0, 0);
    let mut wrong = Vec::new();
    // Leave out the scale bar's corner.
    for j in (0..camera.height - 40).step_by(stride as usize) {
        for i in (0..camera.width).step_by(stride as usize) {
            let p = camera.to_world(Vec2::new(i as f32 + 0.5, j as f32 + 0.5));
            let contents = world.point_contents(p.extend(z));
            // In eight directions every quarter pixel out to 1.5 pixels, so that walls
            // thinner than a pixel and corners are not stepped over.
            let uniform = (1..=6).all(|k| {
                let r = reach * k as f32 / 6.0;
                (0..8).all(|d| {
                    let dir = Vec2::from_angle(d as f32 * std::f32::consts::FRAC_PI_4);
                    world.point_contents((p + dir * r).extend(z)) == contents
                })
            });
            let in_mover = world.models().iter().skip(1).any(|m| {
                !m.brush_range().is_empty()
                    && m.mins.x - reach <= p.x
                    && p.x <= m.maxs.x + reach
                    && m.mins.y - reach <= p.y
                    && p.y <= m.maxs.y + reach
                    && m.mins.z <= z
                    && z <= m.maxs.z
            });
            if !uniform || in_mover {
                continue;
            }
            let [r, g, b, _] = image.pixel(i, j).expect("inside");
            let shown = Rgb(r, g, b);
            if contents == Contents::EMPTY {
                counts.1 += 1;
                if !is_empty_color(shown) {
                    wrong.push((p, contents, shown));
                }
            } else {
                counts.0 += usize::from(contents.is_solid());
                let class = ContentsClass::of(contents, 0);
                if shown != render::fill_color(class) {
                    counts.2 += 1;
                    if !shows_class(shown, class) {
                        wrong.push((p, contents, shown));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} pixels disagree with point_contents at z {z}, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    counts
}

#[test]
fn arena_pixels_agree_with_point_contents() {
    let world = arena();
    let scene = Scene::new(&world, arena_camera(), ARENA_SLICE);
    let image = frame(&scene, &world);
    let (solid, empty, seams) = check_against_point_contents(&world, &scene, &image, 3);
    assert!(
        solid > 1_500 && empty > 30_000,
        "solid {solid}, empty {empty}"
    );
    assert!(seams < solid / 10, "seams {seams} of {solid}");
}

#[test]
fn quick_start_sweep_marks_its_impact_at_the_exact_pixel() {
    let world = arena();
    // Zoomed in on the thin wall at x 1152..1154 so that markers are far apart.
    let camera = Camera::new(640, 400, Vec2::new(1100.0, 768.0), 2.0);
    let mut scene = Scene::new(&world, camera, 32.0);
    let spec = TraceSpec::parse("box:16,1024,768,32,1300,768,32").unwrap();
    let sweep = scene
        .push_sweep(&world, spec.shape.shape(), spec.start, spec.end)
        .clone();
    // The README's quick start: the box stops 1/32 before the wall, touching it at x 1152.
    assert!(
        (sweep.trace.end.x - (1152.0 - 16.0 - 1.0 / 32.0)).abs() < 1e-3,
        "{:?}",
        sweep.trace
    );
    assert_eq!(sweep.trace.normal, Some(Vec3::NEG_X));
    let impact = sweep.impact().expect("a hit");
    assert!((impact - Vec3::new(1152.0 - 1.0 / 32.0, 768.0, 32.0)).length() < 1e-3);

    let image = frame(&scene, &world);
    let marker = centroid(&image, render::IMPACT).expect("impact marker drawn");
    let expected = camera.to_pixel(impact.truncate());
    assert!(
        marker.distance(expected) < 0.75,
        "impact marker at {marker}, expected {expected}"
    );
    assert_eq!(color_at(&image, &camera, impact.truncate()), render::IMPACT);
    // The start marker, the wall behind the impact, and open space in front of the start.
    assert_eq!(
        color_at(&image, &camera, spec.start.truncate()),
        render::SWEEP_START
    );
    assert_eq!(
        color_at(&image, &camera, Vec2::new(1153.0, 800.0)),
        render::fill_color(ContentsClass::Solid)
    );
    assert!(is_empty_color(color_at(
        &image,
        &camera,
        Vec2::new(1000.0, 850.0)
    )));
    // The normal arrow starts at the impact and points −x: its colour lies left of it.
    let arrow = Vec2::new(impact.x - 8.0, impact.y);
    assert_eq!(color_at(&image, &camera, arrow), render::NORMAL);
}

#[test]
fn bevel_lines_appear_only_when_asked() {
    let world = arena();
    let mut scene = Scene::new(&world, arena_camera(), ARENA_SLICE);
    let without = frame(&scene, &world);
    scene.show_bevels = true;
    let with = frame(&scene, &world);
    assert!(centroid(&without, render::BEVEL).is_none());
    assert!(centroid(&with, render::BEVEL).is_some());
}

#[test]
fn cached_and_fresh_slices_draw_the_same_frame() {
    let world = arena();
    let mut scene = Scene::new(&world, arena_camera(), 10.0);
    scene.set_slice_z(&world, ARENA_SLICE);
    let cached = frame(&scene, &world);
    let fresh = frame(&Scene::new(&world, arena_camera(), ARENA_SLICE), &world);
    assert_eq!(cached, fresh);
    // Changing the height changes the picture: the rise-8 step 4 (top 32) is cut at 30.
    scene.set_slice_z(&world, 30.0);
    let lower = frame(&scene, &world);
    let step4 = Vec2::new(240.0, 192.0);
    assert!(is_empty_color(color_at(&cached, &scene.camera, step4)));
    assert_eq!(
        color_at(&lower, &scene.camera, step4),
        render::fill_color(ContentsClass::Solid)
    );
}

/// The largest real map by brush count, `id-quake-1996/e4m1.map` (1,712 brushes).
fn real_map(test: &str) -> Option<(CompiledMap, Vec3)> {
    let dir = real_maps_dir(test)?;
    let path = dir.join("id-quake-1996/e4m1.map");
    let bytes = read(&path);
    let world = compile_map(&bytes).expect("e4m1 compiles").map;
    let map = planeshift::map::parse_map(&bytes).expect("e4m1 parses");
    let spawn = map
        .entities
        .iter()
        .find(|e| e.classname() == "info_player_start")
        .and_then(|e| e.get("origin"))
        .map(|o| {
            let v: Vec<f32> = o.split_whitespace().map(|n| n.parse().unwrap()).collect();
            Vec3::new(v[0], v[1], v[2])
        })
        .expect("a spawn");
    Some((world, spawn))
}

#[test]
fn real_map_pixels_agree_with_point_contents_and_mark_a_sweep() {
    let Some((world, spawn)) = real_map("real_map_pixels_agree_with_point_contents") else {
        return;
    };
    let model = &world.models()[0];
    let camera = Camera::fit(1280, 800, model.mins.truncate(), model.maxs.truncate());
    let scene = Scene::new(&world, camera, 100.5);
    let image = frame(&scene, &world);
    let (solid, empty, seams) = check_against_point_contents(&world, &scene, &image, 2);
    assert!(
        solid > 5_000 && empty > 20_000,
        "solid {solid}, empty {empty}"
    );
    assert!(seams < solid / 5, "seams {seams} of {solid}");

    // A point swept east from the spawn, at the slice height, stops on a wall's boundary:
    // the marker sits at its pixel and the wall's colour lies just beyond it.
    let z = spawn.z + 0.5;
    let camera = Camera::new(800, 600, spawn.truncate(), 4.0);
    let mut scene = Scene::new(&world, camera, z);
    let shape = ShapeSpec::parse("point").unwrap().shape();
    let start = spawn.truncate().extend(z);
    let sweep = scene
        .push_sweep(&world, shape, start, start + Vec3::new(4000.0, 0.0, 0.0))
        .clone();
    assert!(
        sweep.trace.hit() && !sweep.trace.start_solid,
        "{:?}",
        sweep.trace
    );
    let impact = sweep.impact().expect("a hit");
    let camera = Camera {
        center: impact.truncate(),
        ..camera
    };
    scene.camera = camera;
    let image = frame(&scene, &world);
    let marker = centroid(&image, render::IMPACT).expect("impact marker drawn");
    let expected = camera.to_pixel(impact.truncate());
    assert!(marker.distance(expected) < 0.75, "{marker} vs {expected}");
    let beyond = impact + Vec3::new(3.0, 0.0, 0.0);
    let contents = world.point_contents(beyond);
    assert!(contents.is_solid(), "the sweep stopped at solid");
    let shown = color_at(&image, &camera, beyond.truncate());
    assert!(
        shows_class(shown, ContentsClass::of(contents, 0)),
        "{shown:?}"
    );
}

/// The `trace_visualizer` example, which an unfiltered `cargo test` (at the top, or `-p
/// planeshift_viewer`) builds beside this test binary (`target/PROFILE/examples`, so debug and release alike).
/// A run filtered to this test binary (`--test view`) does not build examples: then the
/// end-to-end tests say that they skipped.
fn visualizer() -> Option<PathBuf> {
    let test_binary = std::env::current_exe().ok()?;
    let exe = test_binary
        .parent()?
        .parent()?
        .join("examples")
        .join(format!("trace_visualizer{}", std::env::consts::EXE_SUFFIX));
    if exe.is_file() {
        Some(exe)
    } else {
        println!(
            "trace_visualizer end to end: skipped, {} is not built (run `cargo test -p planeshift_viewer` unfiltered)",
            exe.display()
        );
        None
    }
}

#[test]
fn example_screenshot_end_to_end() {
    let Some(exe) = visualizer() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("planeshift-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("arena.png");
    let arena = repo_root().join("maps/arena.map");
    let status = Command::new(&exe)
        .arg(&arena)
        .args(["--screenshot", out.to_str().unwrap(), "--size", "640x400"])
        .args([
            "--center",
            "1024,1024",
            "--zoom",
            "0.1875",
            "--slice",
            "36.5",
        ])
        .args(["--trace", "box:16,1024,768,32,1300,768,32"])
        .output()
        .unwrap();
    assert_eq!(
        status.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let image = screenshot::decode_png(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!((image.width, image.height), (640, 400));
    let camera = Camera::new(640, 400, Vec2::new(1024.0, 1024.0), 0.1875);
    assert_eq!(
        color_at(&image, &camera, Vec2::new(256.0, 1536.0)),
        render::fill_color(ContentsClass::Water)
    );
    assert_eq!(
        color_at(&image, &camera, Vec2::new(800.0, 192.0)),
        render::fill_color(ContentsClass::Solid)
    );
    let marker = centroid(&image, render::IMPACT).expect("impact marker");
    let expected = camera.to_pixel(Vec2::new(1152.0 - 1.0 / 32.0, 768.0));
    assert!(marker.distance(expected) < 0.75, "{marker} vs {expected}");

    // Bad input: a missing file is an I/O error (2), a broken map bad input (1).
    let missing = Command::new(&exe)
        .args([
            dir.join("missing.map").to_str().unwrap(),
            "--screenshot",
            "x.png",
        ])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let broken = dir.join("broken.map");
    std::fs::write(&broken, "{ \"classname\" \"worldspawn\"\n{ ( 0 0 0 ) }").unwrap();
    let bad = Command::new(&exe)
        .args([
            broken.to_str().unwrap(),
            "--screenshot",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("broken.map:2:"));
}

#[test]
fn example_without_a_display_points_at_screenshot_and_exits_2() {
    let Some(exe) = visualizer() else {
        return;
    };
    let arena = repo_root().join("maps/arena.map");
    let out = Command::new(&exe)
        .arg(&arena)
        .args(["--frames", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--screenshot"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn character_overlay_draws_trail_shape_and_touched_planes() {
    use planeshift::query::Plane;
    use planeshift::{CharacterController, ControllerConfig, MoveInput};
    use planeshift_viewer::{CharacterOverlay, Footprint};

    let world = arena();
    // Walk east from (1100, 768) into the thin wall at x = 1152 for half a second.
    let mut player =
        CharacterController::new(ControllerConfig::default(), Vec3::new(1100.0, 768.0, 24.0))
            .unwrap();
    let east = MoveInput {
        wish: Vec3::X,
        ..MoveInput::default()
    };
    let mut trail = Vec::new();
    let mut touched: Vec<Plane> = Vec::new();
    for _ in 0..60 {
        let outcome = player.step(&world, &east);
        trail.push(player.position());
        touched.extend(outcome.touches.as_slice().iter().map(|t| t.plane));
    }
    let wall = touched
        .iter()
        .find(|p| p.normal.x.abs() > 0.99)
        .copied()
        .expect("the wall was touched");
    assert!(
        ((wall.normal.x * wall.dist) - 1152.0).abs() < 1e-3,
        "{wall:?}"
    );
    let camera = Camera::new(640, 400, Vec2::new(1120.0, 768.0), 2.0);
    let mut scene = Scene::new(&world, camera, 36.5);
    scene.character = Some(CharacterOverlay {
        position: player.shape_center(),
        velocity: player.velocity(),
        footprint: Some(Footprint::of(player.shape())),
        trail: trail.clone(),
        touched: vec![wall],
    });
    let image = frame(&scene, &world);
    // The touched wall face is highlighted above and below the character along x = 1152.
    for dy in [-30.0, 30.0] {
        let at = Vec2::new(1152.0, 768.0 + dy);
        assert_eq!(
            color_at(&image, &camera, at),
            render::TOUCHED,
            "wall at {at}"
        );
    }
    // The trail starts where the walk began, the shape's outline sits at the character.
    assert_eq!(
        color_at(&image, &camera, Vec2::new(1102.0, 768.0)),
        render::TRAIL
    );
    let half = Footprint::of(player.shape()).reach(Vec2::X);
    let edge = player.position().truncate() - Vec2::new(half, 0.0);
    let shown = color_at(&image, &camera, edge + Vec2::new(0.0, 10.0));
    assert!(
        shown != render::BACKGROUND && is_blend(shown, render::CHARACTER, render::BACKGROUND),
        "{shown:?}"
    );
}

/// Issue 15: curved patches are facet brushes, so the slice draws their cross-sections as
/// it draws brushes. Zoomed to 32 pixels a unit on `maps/patch_arch.map`'s pillar at its
/// seam (+x) and on the arch's leg, the quarter-unit slabs show as solid where
/// `point_contents` says so, and empty around them.
#[test]
fn patch_cross_sections_are_drawn_like_brushes() {
    let path = repo_root().join("maps/patch_arch.map");
    let world = compile_map(&read(&path)).expect("patch_arch compiles").map;
    for centre in [Vec2::new(48.0, 640.0), Vec2::new(-90.0, 288.0)] {
        let camera = Camera::new(256, 256, centre, 32.0);
        let scene = Scene::new(&world, camera, 40.5);
        let image = frame(&scene, &world);
        let (solid, empty, _) = check_against_point_contents(&world, &scene, &image, 1);
        assert!(
            solid > 500 && empty > 10_000,
            "at {centre}: solid {solid}, empty {empty}"
        );
    }
}
