//! Levels made of triangles (`build::compile_mesh`): the shared meshes against their `.bsp`
//! ground truth (solid versus open at seeded points, sky as solid, the same liquid in
//! liquids, Quake's player box swept), the exact oracle and the ghost-hit scenario on them,
//! small meshes with known answers, bad input, and mutated files.
//!
//! The corpus test takes every `.obj` and `.glb` in `meshes/` of the real maps, each beside
//! the `.bsp` it was exported from in `id-quake-1996/`.

use glam::Vec3;
use planeshift::TraceShape;
use planeshift::build::{MeshError, MeshOptions, compile_mesh, import_bsp};
use planeshift::{CompileError, CompileOptions, CompiledMap, Contents};

use planeshift_testkit::drawn_faces::{SHARED_MESH_LEVELS, held_back_levels};

use crate::support::{Pcg32, cases, read};

/// Seeded points per level for solid versus open.
const POINTS: usize = 100_000;

/// How far from a boundary a compared point must be, in units: closer, rounding of the
/// mesh's f32 vertices and of the `.bsp`'s f32 planes decides, not the construction.
const NEAR_BOUNDARY: f32 = 0.1;

/// How far two sweeps' stops may differ and still agree, in units.
pub(crate) const SWEEP_AGREE: f32 = 0.1;
/// Player-box sweeps between free places per mesh, in CI as in the full run.
const SWEEPS: usize = 2000;

/// Share of all meshes' player-box sweeps that must agree with the `.bsp`'s (issue 39's bar).
const SWEEPS_AGREE: f64 = 0.995;

/// The same bar on each mesh. Measured least: e2m2 99.90 % (two sweeps over a stretch of
/// floor the mesh lacks), every other mesh 100 %. e1m2 measured 99.40 % while a two-sided sky
/// face was a thin slab that could grow into the air (0.25 units in front of the face on 12
/// of its 2,000 sweeps); it now bounds the sky's volume only (`src/mesh/clean.rs`).
const SWEEPS_AGREE_EACH: f64 = 0.995;

/// Share of the points in the `.bsp`'s liquids that must read as the same liquid in the
/// mesh, over all shared meshes.
const SAME_LIQUID: f64 = 0.99;

/// The same on each mesh. Measured least: dm4 (its lava pit), 94.16 % of 462 points with
/// `PLANESHIFT_FULL=1` (97.30 % of 37 without), then dm2 98.29 %, e1m2 97.61 %; the rest
/// 99.1–100 %. All meshes: 99.30 % of 14,919 (99.67 % of 1,519).
const SAME_LIQUID_EACH: f64 = 0.92;

/// Solid for hull 0: what blocks a point (sky, as id's tools make it, included).
fn solid(c: Contents) -> bool {
    c.intersects(Contents::MASK_SOLID)
}

/// Whether the answer of `world` changes within [`NEAR_BOUNDARY`] of `p` along an axis.
fn near_boundary(world: &CompiledMap, p: Vec3) -> bool {
    let here = solid(world.point_contents(p));
    [Vec3::X, Vec3::Y, Vec3::Z].iter().any(|&axis| {
        [-1.0f32, 1.0]
            .iter()
            .any(|&s| solid(world.point_contents(p + axis * s * NEAR_BOUNDARY)) != here)
    })
}

/// Whether the box `lo`–`hi` meets a brush model of `bsp` other than the world: the
/// shared meshes hold the world's faces only (model 0), so doors, platforms and walls of
/// entities are set aside.
fn in_models(bsp: &CompiledMap, lo: Vec3, hi: Vec3) -> bool {
    bsp.models()[1..]
        .iter()
        .any(|m| lo.cmple(m.maxs).all() && hi.cmpge(m.mins).all())
}

/// The shared meshes with their `.bsp`: (name, mesh path, bsp path); none when the real
/// maps are absent (the skip printed under `test`).
fn shared_meshes(test: &str) -> Vec<(String, std::path::PathBuf, std::path::PathBuf)> {
    planeshift_testkit::real_maps::real_maps_dir(test)
        .map_or_else(Vec::new, |dir| shared_meshes_in(&dir))
}

/// [`shared_meshes`] of the real maps folder `dir`.
fn shared_meshes_in(
    dir: &std::path::Path,
) -> Vec<(String, std::path::PathBuf, std::path::PathBuf)> {
    let mut out = Vec::new();
    for ext in ["obj", "glb"] {
        for (name, path) in planeshift_testkit::real_maps::files_in(&dir.join("meshes"), ext) {
            let stem = name.trim_end_matches(&format!(".{ext}")).to_owned();
            let bsp = dir.join(SHARED_MESH_LEVELS).join(format!("{stem}.bsp"));
            assert!(bsp.is_file(), "{name}: no {}", bsp.display());
            out.push((name, path, bsp));
        }
    }
    out
}

/// The meshes the exact oracle and the ghost-hit scenario sweep: every shared mesh, and
/// every held-back level's drawn faces as OBJ (`planeshift_testkit::drawn_faces`; their glTF
/// holds the same triangles): (name, bytes, folder of external buffers).
fn swept_meshes(test: &str) -> Vec<(String, Vec<u8>, Option<std::path::PathBuf>)> {
    let Some(dir) = planeshift_testkit::real_maps::real_maps_dir(test) else {
        return Vec::new();
    };
    let shared = shared_meshes_in(&dir).into_iter().map(|(name, path, _)| {
        let folder = path.parent().map(std::path::Path::to_path_buf);
        (name, read(&path), folder)
    });
    let (held_back, _) = held_back_levels(&dir);
    let held_back = held_back.into_iter().map(|level| {
        (
            format!("{}.obj", level.name),
            level.faces.to_obj().into_bytes(),
            None,
        )
    });
    shared.chain(held_back).collect()
}

/// The mesh `bytes` compiled with the default options.
fn compile_bytes(name: &str, bytes: &[u8], folder: Option<&std::path::Path>) -> CompiledMap {
    compile_mesh(
        bytes,
        folder,
        &MeshOptions::default(),
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"))
    .map
}

/// How one mesh's world agrees with its `.bsp`'s ([`agreement`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Agreement {
    /// Points compared for solid versus open, and how many agreed.
    pub compared: usize,
    pub equal: usize,
    /// Points in the `.bsp`'s liquids (out of its brush entities), and how many read as
    /// the same liquid in the mesh.
    pub in_liquid: usize,
    pub same_liquid: usize,
    /// Player-box sweeps between free places, and how many stopped within
    /// the stop distance [`agreement`] was given of the `.bsp`'s ([`SWEEP_AGREE`] for issue
    /// 39's bars).
    pub sweeps: usize,
    pub agree: usize,
}

impl Agreement {
    fn solid_share(&self) -> f64 {
        self.equal as f64 / self.compared.max(1) as f64
    }

    fn liquid_share(&self) -> f64 {
        self.same_liquid as f64 / self.in_liquid.max(1) as f64
    }

    fn sweep_share(&self) -> f64 {
        self.agree as f64 / self.sweeps.max(1) as f64
    }

    /// Adds `other`'s counts to these.
    pub(crate) fn add(&mut self, other: &Agreement) {
        self.compared += other.compared;
        self.equal += other.equal;
        self.in_liquid += other.in_liquid;
        self.same_liquid += other.same_liquid;
        self.sweeps += other.sweeps;
        self.agree += other.agree;
    }

    /// What fails issue 39's bars on one mesh: solid versus open ≥ 99.9 %, sweeps ≥
    /// [`SWEEPS_AGREE_EACH`], the same liquid ≥ [`SAME_LIQUID_EACH`] where the `.bsp` has
    /// liquid, and every sweep found.
    pub(crate) fn failures(&self, name: &str) -> Vec<String> {
        let mut failures = Vec::new();
        let (solid, liquid, sweeps) = (self.solid_share(), self.liquid_share(), self.sweep_share());
        failures.extend(
            (self.in_liquid > 0 && liquid < SAME_LIQUID_EACH)
                .then(|| format!("{name}: the same liquid {liquid}")),
        );
        failures.extend((solid < 0.999).then(|| format!("{name}: solid vs open {solid}")));
        failures.extend((sweeps < SWEEPS_AGREE_EACH).then(|| format!("{name}: sweeps {sweeps}")));
        failures.extend(
            (self.sweeps < SWEEPS).then(|| format!("{name}: only {} free sweeps", self.sweeps)),
        );
        failures
    }
}

/// Solid versus open, liquids and Quake's player box swept, in `mesh`'s world against
/// `bsp`'s, printed under `name`: [`POINTS`] seeded points in the mesh world's box (a tenth
/// without `PLANESHIFT_FULL=1`), sky volumes solid in both (the mesh's open cells behind its
/// sky faces take the sky's contents: `src/mesh/volumes.rs`); points within 0.1 of a
/// boundary of either world, points in the `.bsp`'s liquids and points in its brush
/// entities' boxes or in the boxes `aside` set aside (a mesh of drawn faces holds the world
/// model's only); then [`SWEEPS`] sweeps between free places (as many in CI as in the full
/// run), their reach clear of brush entities and of `aside`, agreeing when their stops lie
/// within `within` units.
pub(crate) fn agreement(
    name: &str,
    (mesh, bsp): (&CompiledMap, &CompiledMap),
    aside: &[(Vec3, Vec3)],
    within: f32,
) -> Agreement {
    let set_aside = |lo: Vec3, hi: Vec3| {
        in_models(bsp, lo, hi)
            || aside
                .iter()
                .any(|(l, h)| lo.cmple(*h).all() && hi.cmpge(*l).all())
    };
    // The level's box: the mesh world's bounds (its faces' grown by the region pad);
    // the `.bsp`'s own box also holds the void its compiler filled far around.
    let world = &mesh.models()[0];
    let (lo, hi) = (world.mins, world.maxs);
    let mut found = Agreement::default();
    let mut rng = Pcg32::new(0x6d65_7368);
    let mut aside = 0usize;
    let mut open_in_mesh = 0usize;
    let (mut in_sky, mut sky_open_in_mesh) = (0usize, 0usize);
    let points = cases(POINTS / 10, POINTS);
    for _ in 0..points {
        let p = Vec3::from_array(std::array::from_fn(|a| {
            rng.range_f64(f64::from(lo[a]), f64::from(hi[a])) as f32
        }));
        let truth = bsp.point_contents(p);
        if truth.contains(Contents::SKY) {
            in_sky += 1;
            sky_open_in_mesh += usize::from(!solid(mesh.point_contents(p)));
        }
        let liquid = truth & Contents::MASK_LIQUID;
        let in_entity = set_aside(p - Vec3::splat(1.0), p + Vec3::splat(1.0));
        if !liquid.is_empty() && !in_entity {
            found.in_liquid += 1;
            found.same_liquid +=
                usize::from(mesh.point_contents(p) & Contents::MASK_LIQUID == liquid);
        }
        if !liquid.is_empty() || in_entity || near_boundary(bsp, p) || near_boundary(mesh, p) {
            aside += 1;
            continue;
        }
        found.compared += 1;
        let ours = solid(mesh.point_contents(p));
        found.equal += usize::from(solid(truth) == ours);
        if solid(truth) && !ours {
            open_in_mesh += 1;
        }
    }
    println!(
        "{name}: solid vs open {}/{} = {:.3} % ({aside} set aside; {open_in_mesh} solid in the .bsp open in the mesh; {in_sky} in the .bsp's sky, {sky_open_in_mesh} of them open in the mesh)",
        found.equal,
        found.compared,
        100.0 * found.solid_share()
    );
    println!(
        "{name}: the same liquid {}/{} = {:.3} % of points in the .bsp's liquids",
        found.same_liquid,
        found.in_liquid,
        100.0 * found.liquid_share()
    );
    let player = TraceShape::aabb(Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0))
        .unwrap_or_else(|| panic!("player box"));
    let mask = Contents::MASK_PLAYER_SOLID;
    let mut tries = 0usize;
    // The sweeps draw from their own generator and are as many in CI as in the full run,
    // so both judge the same 2,000 sweeps: at 1,000 the 0.5 % bar was decided by one or
    // two sweeps of sampling noise.
    let mut rng = Pcg32::new(0x7377_6565);
    let mut apart = Vec::new();
    while found.sweeps < SWEEPS && tries < 200 * SWEEPS {
        tries += 1;
        let start = Vec3::from_array(std::array::from_fn(|a| {
            rng.range_f64(f64::from(lo[a]), f64::from(hi[a])) as f32
        }));
        if bsp.overlaps(&player, start, mask)
            || mesh.overlaps(&player, start, mask)
            || bsp.point_contents(start).intersects(Contents::MASK_LIQUID)
        {
            continue;
        }
        let dir = Vec3::from_array(std::array::from_fn(|_| rng.range_f64(-1.0, 1.0) as f32));
        let end = start + dir.normalize_or_zero() * rng.range_f64(8.0, 256.0) as f32;
        let reach = Vec3::new(17.0, 17.0, 33.0);
        if set_aside(start.min(end) - reach, start.max(end) + reach) {
            continue;
        }
        let a = bsp.trace(&player, start, end, mask);
        let b = mesh.trace(&player, start, end, mask);
        found.sweeps += 1;
        let length = (end - start).length();
        let agrees = (a.fraction - b.fraction).abs() * length <= within;
        found.agree += usize::from(agrees);
        if !agrees && apart.len() < 3 {
            apart.push((start, end, a.fraction, b.fraction));
        }
    }
    println!(
        "{name}: player-box sweeps {}/{} = {:.3} % within {within}",
        found.agree,
        found.sweeps,
        100.0 * found.sweep_share()
    );
    for (start, end, bsp_fraction, mesh_fraction) in &apart {
        println!(
            "{name}: apart {start} -> {end}: the .bsp's fraction {bsp_fraction}, the mesh's {mesh_fraction}"
        );
    }
    if found.sweep_share() < SWEEPS_AGREE {
        println!("{name}: below the {SWEEPS_AGREE} bar for sweeps");
    }
    found
}

/// What fails the bars over all meshes together ([`SAME_LIQUID`], [`SWEEPS_AGREE`]),
/// printed under `what`.
pub(crate) fn overall_failures(what: &str, all: &Agreement) -> Vec<String> {
    println!(
        "{what}: the same liquid {}/{} = {:.3} %",
        all.same_liquid,
        all.in_liquid,
        100.0 * all.liquid_share()
    );
    println!(
        "{what}: player-box sweeps {}/{} = {:.3} %",
        all.agree,
        all.sweeps,
        100.0 * all.sweep_share()
    );
    let mut failures = Vec::new();
    failures.extend(
        (all.in_liquid > 0 && all.liquid_share() < SAME_LIQUID)
            .then(|| format!("{what}: the same liquid {}", all.liquid_share())),
    );
    failures.extend(
        (all.sweep_share() < SWEEPS_AGREE).then(|| format!("{what}: sweeps {}", all.sweep_share())),
    );
    failures
}

/// On every shared mesh, solid versus open agrees with the `.bsp`'s hull 0 at ≥ 99.9 % of
/// 100,000 seeded points in the level's box (10,000 without `PLANESHIFT_FULL=1`), points in
/// the `.bsp`'s liquids read as the same liquid in the mesh on ≥ [`SAME_LIQUID`] of them
/// over all meshes (≥ [`SAME_LIQUID_EACH`] on each), and Quake's player box swept from free
/// places agrees with the `.bsp` import's within 0.1 units on ≥ 99.5 % of 2,000 sweeps, on
/// each mesh and over all ([`agreement`] says what is set aside).
#[test]
fn shared_meshes_agree_with_their_bsp() {
    let mut failures: Vec<String> = Vec::new();
    let mut all = Agreement::default();
    for (name, mesh_path, bsp_path) in shared_meshes("shared_meshes_agree_with_their_bsp") {
        let mesh = compile_bytes(&name, &read(&mesh_path), mesh_path.parent());
        let bsp = import_bsp(&read(&bsp_path), &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map;
        let found = agreement(&name, (&mesh, &bsp), &[], SWEEP_AGREE);
        failures.extend(found.failures(&name));
        all.add(&found);
    }
    failures.extend(overall_failures("all meshes", &all));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A closed box room (faces wound towards the inside air): inside is open, the walls and
/// the void around are solid, and the void is tagged `outside`.
#[test]
fn a_closed_room_is_open_inside_and_solid_behind_its_walls() {
    let obj = room_obj(0.0, 256.0, "wall");
    let out = compile_mesh(
        obj.as_bytes(),
        None,
        &MeshOptions::default(),
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let map = &out.map;
    assert!(!solid(map.point_contents(Vec3::splat(128.0))));
    assert!(solid(map.point_contents(Vec3::new(128.0, 128.0, -4.0))));
    let beyond = map.point_contents(Vec3::new(128.0, 128.0, 262.0));
    assert!(beyond.contains(Contents::OUTSIDE), "{beyond:?}");
    let player = TraceShape::aabb(Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0))
        .unwrap_or_else(|| panic!("player box"));
    let t = map.trace(
        &player,
        Vec3::new(128.0, 128.0, 128.0),
        Vec3::new(128.0, 128.0, -128.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert!((t.end.z - 24.0).abs() < 0.1, "{:?}", t.end);
}

/// The OBJ text of a box room from `lo` to `hi` (each coordinate), its faces seen from
/// inside, of material `material`.
fn room_obj(lo: f64, hi: f64, material: &str) -> String {
    let mut s = String::new();
    for z in [lo, hi] {
        for y in [lo, hi] {
            for x in [lo, hi] {
                s += &format!("v {x} {y} {z}\n");
            }
        }
    }
    // Corner k = x + 2y + 4z (1-based in OBJ); each quad counter-clockwise from inside.
    s += &format!("usemtl {material}\n");
    for quad in [
        [1, 2, 4, 3], // floor, seen from above
        [5, 7, 8, 6], // ceiling, seen from below
        [1, 5, 6, 2], // y = lo, seen from +y
        [3, 4, 8, 7], // y = hi
        [1, 3, 7, 5], // x = lo
        [2, 6, 8, 4], // x = hi
    ] {
        s += &format!("f {} {} {} {}\n", quad[0], quad[1], quad[2], quad[3]);
    }
    s
}

/// Bad input is an error or a counted diagnostic, never a panic.
#[test]
fn bad_meshes_are_errors_or_counted() {
    let options = CompileOptions::default();
    let mesh = MeshOptions::default();
    assert!(matches!(
        compile_mesh(b"", None, &mesh, &options),
        Err(CompileError::Mesh(MeshError::Empty))
    ));
    assert!(matches!(
        compile_mesh(b"v 0 0 0\nf 1 2 3\n", None, &mesh, &options),
        Err(CompileError::Mesh(MeshError::Obj(_)))
    ));
    assert!(matches!(
        compile_mesh(b"glTF\x02\0\0\0", None, &mesh, &options),
        Err(CompileError::Mesh(MeshError::Gltf(_)))
    ));
    // A room with a degenerate, a non-finite and a repeated triangle: counted, and the room
    // is the same.
    let mut obj = room_obj(0.0, 256.0, "wall");
    obj += "v 0 0 0\nv 1 1 1\nv 2 2 2\nv nan 0 0\nf 9 10 11\nf 12 10 11\nf 1 2 4\n";
    let out = compile_mesh(obj.as_bytes(), None, &mesh, &options).unwrap_or_else(|e| panic!("{e}"));
    let dropped: Vec<&str> = out
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .filter(|m| m.contains("dropped"))
        .collect();
    assert_eq!(
        dropped,
        vec!["3 triangle(s) dropped: 1 not finite or out of range, 1 degenerate, 1 repeated"]
    );
    assert!(!solid(out.map.point_contents(Vec3::splat(128.0))));
}

/// A mesh whose every triangle is dropped says why, with the counts, rather than that it
/// has none: the box room read 10^30 times too large has every corner out of range, and
/// 10^-30 times too small every triangle degenerate; both messages ask about the scale.
#[test]
fn a_mesh_whose_every_triangle_is_dropped_says_why() {
    use planeshift::build::MeshAxis;
    let room = room_obj(-64.0, 64.0, "wall");
    let options = CompileOptions::default();
    let read = |text: &str, scale: f64| match compile_mesh(
        text.as_bytes(),
        None,
        &MeshOptions::new(MeshAxis::ZUp, scale),
        &options,
    ) {
        Err(CompileError::Mesh(e @ MeshError::AllDropped { .. })) => e,
        other => panic!("scale {scale}: {:?}", other.map(|o| o.map.stats())),
    };
    let huge = read(&room, 1e30);
    assert_eq!(
        huge,
        MeshError::AllDropped {
            read: 12,
            out_of_range: 12,
            degenerate: 0,
            repeated: 0
        }
    );
    assert!(huge.to_string().contains("scale too large"), "{huge}");
    let tiny = read(&room, 1e-30);
    assert_eq!(
        tiny,
        MeshError::AllDropped {
            read: 12,
            out_of_range: 0,
            degenerate: 12,
            repeated: 0
        }
    );
    assert!(tiny.to_string().contains("scale too small"), "{tiny}");
    // The room at its own scale compiles.
    assert!(compile_mesh(room.as_bytes(), None, &MeshOptions::default(), &options).is_ok());
}

/// A liquid surface encloses nothing: a pool's water plane inside a room does not block.
#[test]
fn liquid_faces_do_not_block() {
    let mut obj = room_obj(0.0, 256.0, "wall");
    obj += "v 0 0 64\nv 256 0 64\nv 256 256 64\nv 0 256 64\nusemtl *water1\nf 9 10 11 12\n";
    let out = compile_mesh(
        obj.as_bytes(),
        None,
        &MeshOptions::default(),
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let player = TraceShape::aabb(Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0))
        .unwrap_or_else(|| panic!("player box"));
    let t = out.map.trace(
        &player,
        Vec3::new(128.0, 128.0, 200.0),
        Vec3::new(128.0, 128.0, 30.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert_eq!(t.fraction, 1.0);
    // Below the surface is the pool's water, above it air.
    let pool = out.map.point_contents(Vec3::new(128.0, 128.0, 32.0));
    assert!(pool.contains(Contents::WATER), "{pool:?}");
    let air = out.map.point_contents(Vec3::new(128.0, 128.0, 96.0));
    assert!(!air.intersects(Contents::MASK_LIQUID), "{air:?}");
}

/// 10,000 mutated OBJ and GLB files (bytes flipped, cut, repeated): every one is an error or
/// a world, none panics or hangs.
#[test]
fn mutated_mesh_files_never_panic() {
    let obj = room_obj(0.0, 128.0, "wall").into_bytes();
    let glb = tiny_glb();
    let mut rng = Pcg32::new(0x0b1_f022);
    let total = cases(1_000, 10_000);
    let (mut ok, mut failed) = (0usize, 0usize);
    for case in 0..total {
        let mut bytes = if case % 2 == 0 {
            obj.clone()
        } else {
            glb.clone()
        };
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len().max(1));
            match rng.below(4) {
                0 => {
                    if let Some(b) = bytes.get_mut(at) {
                        *b = rng.next_u32() as u8;
                    }
                }
                1 => bytes.truncate(at),
                2 => {
                    let piece: Vec<u8> = bytes[at..bytes.len().min(at + 16)].to_vec();
                    bytes.splice(at..at, piece);
                }
                _ => {
                    if let Some(b) = bytes.get_mut(at) {
                        *b = b"0123456789-. \nfv/e"[rng.below(18)];
                    }
                }
            }
        }
        match compile_mesh(
            &bytes,
            None,
            &MeshOptions::default(),
            &CompileOptions::default(),
        ) {
            Ok(_) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    println!("mutated meshes: {ok} compiled, {failed} refused");
    assert_eq!(ok + failed, total);
    assert!(ok > 0 && failed > 0);
}

/// A binary glTF of one tetrahedron (four triangles, u16 indices), wound out.
fn tiny_glb() -> Vec<u8> {
    let positions = [[0., 0., 0.], [64., 0., 0.], [0., 64., 0.], [0., 0., 64.]];
    let indices = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    planeshift_testkit::glb::glb_of_triangles(&positions, &indices, "rock")
}

/// A binary glTF reads like the OBJ of the same shape: the tetrahedron is solid inside.
#[test]
fn a_glb_tetrahedron_is_solid_inside() {
    let out = compile_mesh(
        &tiny_glb(),
        None,
        &MeshOptions::default(),
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(solid(out.map.point_contents(Vec3::splat(8.0))));
    assert!(!solid(out.map.point_contents(Vec3::splat(40.0))));
}

/// A closed room whose floor runs flat, up a ramp and flat again along x (1024 × 1024, 512
/// high), as OBJ text: its surfaces tessellated on the grid `xs` × `ys` (which hold the
/// profile's kinks, x 0, 256, 512, 1024), each cell's diagonal one way or the other as
/// `flip` says. Every piece shares its edge vertices with its neighbours, so the room is
/// watertight whatever the grid.
fn ramp_room(xs: &[f64], ys: &[f64], flip: &mut dyn FnMut() -> bool) -> String {
    let floor = |x: f64| -> f64 {
        if x <= 256.0 {
            0.0
        } else if x <= 512.0 {
            (x - 256.0) * 0.5
        } else {
            128.0
        }
    };
    const TOP: f64 = 512.0;
    let mut v: Vec<[f64; 3]> = Vec::new();
    let mut f: Vec<[usize; 3]> = Vec::new();
    let vertex = |p: [f64; 3], v: &mut Vec<[f64; 3]>| -> usize {
        v.push(p);
        v.len()
    };
    // A quad a b c d, counter-clockwise from the air, as two triangles.
    let quad = |q: [[f64; 3]; 4], v: &mut Vec<[f64; 3]>, f: &mut Vec<[usize; 3]>, flip: bool| {
        let ids: Vec<usize> = q.iter().map(|&p| vertex(p, v)).collect();
        if flip {
            f.push([ids[0], ids[1], ids[3]]);
            f.push([ids[1], ids[2], ids[3]]);
        } else {
            f.push([ids[0], ids[1], ids[2]]);
            f.push([ids[0], ids[2], ids[3]]);
        }
    };
    for w in xs.windows(2) {
        let (x0, x1) = (w[0], w[1]);
        for u in ys.windows(2) {
            let (y0, y1) = (u[0], u[1]);
            // Floor, seen from above; ceiling, seen from below.
            quad(
                [
                    [x0, y0, floor(x0)],
                    [x1, y0, floor(x1)],
                    [x1, y1, floor(x1)],
                    [x0, y1, floor(x0)],
                ],
                &mut v,
                &mut f,
                flip(),
            );
            quad(
                [[x0, y0, TOP], [x0, y1, TOP], [x1, y1, TOP], [x1, y0, TOP]],
                &mut v,
                &mut f,
                flip(),
            );
        }
        // The side walls y = 0 (seen from +y) and y = max (seen from −y).
        let y_max = ys[ys.len() - 1];
        quad(
            [
                [x0, 0.0, floor(x0)],
                [x0, 0.0, TOP],
                [x1, 0.0, TOP],
                [x1, 0.0, floor(x1)],
            ],
            &mut v,
            &mut f,
            flip(),
        );
        quad(
            [
                [x0, y_max, floor(x0)],
                [x1, y_max, floor(x1)],
                [x1, y_max, TOP],
                [x0, y_max, TOP],
            ],
            &mut v,
            &mut f,
            flip(),
        );
    }
    let x_max = xs[xs.len() - 1];
    for u in ys.windows(2) {
        let (y0, y1) = (u[0], u[1]);
        quad(
            [
                [0.0, y0, 0.0],
                [0.0, y1, 0.0],
                [0.0, y1, TOP],
                [0.0, y0, TOP],
            ],
            &mut v,
            &mut f,
            flip(),
        );
        quad(
            [
                [x_max, y0, 128.0],
                [x_max, y0, TOP],
                [x_max, y1, TOP],
                [x_max, y1, 128.0],
            ],
            &mut v,
            &mut f,
            flip(),
        );
    }
    let mut s = String::from("usemtl wall\n");
    for p in &v {
        s += &format!("v {} {} {}\n", p[0], p[1], p[2]);
    }
    for t in &f {
        s += &format!("f {} {} {}\n", t[0], t[1], t[2]);
    }
    s
}

/// A sorted grid from 0 to `end` holding `kinks`, with up to `extra` seeded points added
/// between each pair.
fn grid(rng: &mut Pcg32, kinks: &[f64], extra: usize) -> Vec<f64> {
    let mut out = vec![kinks[0]];
    for w in kinks.windows(2) {
        let mut inner: Vec<f64> = (0..rng.below(extra + 1))
            .map(|_| (rng.range_f64(w[0] + 1.0, w[1] - 1.0)).round())
            .collect();
        inner.sort_by(f64::total_cmp);
        inner.dedup();
        out.extend(inner);
        out.push(w[1]);
    }
    out
}

/// No seams: a character running, walking and sliding over a floor, up a ramp and along a
/// wall made of many triangles (a seeded fine tessellation, random diagonals) moves as over
/// the same surfaces made of the fewest triangles: every tick's position within 0.01 units.
#[test]
fn finely_tessellated_surfaces_move_a_character_as_one_polygon_does() {
    let options = CompileOptions::default();
    let mesh = MeshOptions::default();
    let compile = |text: &str| {
        compile_mesh(text.as_bytes(), None, &mesh, &options)
            .unwrap_or_else(|e| panic!("{e}"))
            .map
    };
    let coarse = compile(&ramp_room(
        &[0.0, 256.0, 512.0, 1024.0],
        &[0.0, 1024.0],
        &mut || false,
    ));
    let total = cases(40, 2000);
    let mut worst = 0.0f32;
    let mut failures: Vec<String> = Vec::new();
    for seed in 0..total as u64 {
        let mut rng = Pcg32::new(0x5ea3_0000 + seed);
        let xs = grid(&mut rng, &[0.0, 256.0, 512.0, 1024.0], 12);
        let ys = grid(&mut rng, &[0.0, 1024.0], 24);
        let mut flips = Pcg32::new(seed);
        let fine = compile(&ramp_room(&xs, &ys, &mut || flips.below(2) == 1));
        // Start on the low floor; run towards the ramp at a seeded heading, some of the
        // time straight into the wall at y = 0 to slide along it; walk or run.
        let y = rng.range_f64(40.0, 984.0) as f32;
        let degrees = if seed % 3 == 0 {
            -rng.range_f64(20.0, 70.0)
        } else {
            rng.range_f64(-40.0, 40.0)
        } as f32;
        let r = degrees.to_radians();
        let speed = if seed % 4 == 1 { 0.5 } else { 1.0 };
        let input = planeshift::MoveInput {
            wish: Vec3::new(r.cos(), r.sin(), 0.0) * speed,
            ..planeshift::MoveInput::default()
        };
        let config = planeshift::ControllerConfig::default();
        let start = Vec3::new(40.0, y, config.feet_to_origin + 0.25);
        let mut a =
            planeshift::CharacterController::new(config, start).unwrap_or_else(|e| panic!("{e}"));
        let mut b = a.clone();
        for tick in 0..300 {
            a.step(&coarse, &input);
            b.step(&fine, &input);
            let d = a.position().distance(b.position());
            worst = worst.max(d);
            if d > 0.01 {
                failures.push(format!(
                    "seed {seed} tick {tick}: {} over one polygon, {} over {} x {} cells",
                    a.position(),
                    b.position(),
                    xs.len() - 1,
                    ys.len() - 1
                ));
                break;
            }
        }
    }
    println!(
        "seams: {total} tessellations, {} apart, worst per-tick distance {worst}",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Brushes per thousand the oracle may fail to represent on a mesh world (parry refuses a
/// few slivers whose corners, cut in f64 from planes of f32 vertices, sit 1e-5 off its
/// hull; sweeps near them are left out and counted): dm6 has 3 of 676, e2m2 23 of 2,255
/// (its two-sided sky faces no longer give slabs, so fewer brushes hold the same slivers).
const MESH_ORACLE_REJECTED_PER_MILLE: usize = 15;

/// The oracle suites on every shared mesh and every held-back level's drawn faces
/// ([`swept_meshes`]): sweeps of every shape kind never end inside the
/// exact oracle (over the brushes the mesh stage built), never stop later than its first
/// contact, never stop in open space, and the tree equals brute force
/// (`bsp_oracle.rs::check_world`, as on imported `.bsp` worlds).
#[test]
fn mesh_worlds_meet_the_exact_oracle() {
    let mut failures: Vec<String> = Vec::new();
    for (seed, (name, bytes, folder)) in swept_meshes("mesh_worlds_meet_the_exact_oracle")
        .into_iter()
        .enumerate()
    {
        let world = compile_bytes(&name, &bytes, folder.as_deref());
        let brushes: Vec<planeshift::brush::Brush> = planeshift::compile::mesh_brushes(
            &bytes,
            folder.as_deref(),
            &MeshOptions::default(),
            &CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_iter()
        .filter(|b| b.solid)
        .collect();
        let mut counts = crate::bsp_oracle::KindCounts::new();
        let cases = crate::bsp_oracle::cases_per_kind() / 4;
        failures.extend(crate::bsp_oracle::check_world(
            &name,
            &world,
            &brushes,
            (cases.max(1), 0x6f72_6163 + seed as u64),
            MESH_ORACLE_REJECTED_PER_MILLE,
            &mut counts,
        ));
        for (kind, c) in &counts {
            println!(
                "{name} {kind}: {} checked, {} hits, {} start solid, {} near rejected brushes",
                c.checked, c.hits, c.start_solid, c.near_rejected
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The bundled `maps/mesh_room.obj` (`maps/gen_mesh_room.py`): a watertight room (no hole),
/// its free-standing one-sided wall a thin wall that blocks from both sides, its pool's
/// water surface no obstacle and the pool below it water, and a character running along it climbs the stairs, walks
/// down the ramp and drops into the pool.
#[test]
fn the_bundled_mesh_room_plays_as_built() {
    let path = planeshift_testkit::real_maps::repo_root().join("maps/mesh_room.obj");
    let out = compile_mesh(
        &read(&path),
        None,
        &MeshOptions::default(),
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let notes: Vec<&str> = out.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        notes,
        vec![
            "4 face(s) form open surfaces and became thin walls solid from both sides",
            "1 of 9 open cell(s) lie in 1 sky or liquid volume(s) and took its contents"
        ]
    );
    let map = &out.map;
    // Under the water surface (z −8) the pool is water; above it, air.
    let pool = map.point_contents(Vec3::new(700.0, 256.0, -32.0));
    assert!(pool.contains(Contents::WATER), "{pool:?}");
    let above = map.point_contents(Vec3::new(700.0, 256.0, 8.0));
    assert!(!above.intersects(Contents::MASK_LIQUID), "{above:?}");
    let point = TraceShape::point();
    let mask = Contents::MASK_PLAYER_SOLID;
    let towards = map.trace(
        &point,
        Vec3::new(64.0, 256.0, 64.0),
        Vec3::new(192.0, 256.0, 64.0),
        mask,
    );
    assert!((towards.end.x - 128.0).abs() < 0.1, "{:?}", towards.end);
    let back = map.trace(
        &point,
        Vec3::new(192.0, 256.0, 64.0),
        Vec3::new(64.0, 256.0, 64.0),
        mask,
    );
    assert!(
        back.hit() && (back.end.x - 128.0).abs() < 0.5,
        "{:?}",
        back.end
    );
    let down = map.trace(
        &point,
        Vec3::new(700.0, 256.0, 100.0),
        Vec3::new(700.0, 256.0, -100.0),
        mask,
    );
    assert!((down.end.z + 64.0).abs() < 0.1, "{:?}", down.end);
    let config = planeshift::ControllerConfig::default();
    let mut c = planeshift::CharacterController::new(
        config,
        Vec3::new(32.0, 448.0, config.feet_to_origin + 0.25),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let input = planeshift::MoveInput {
        wish: Vec3::X,
        ..planeshift::MoveInput::default()
    };
    let mut highest = f32::MIN;
    for _ in 0..400 {
        c.step(map, &input);
        assert!(!c.overlaps(map), "inside solid at {}", c.position());
        highest = highest.max(c.position().z - config.feet_to_origin);
    }
    let feet = c.position() - Vec3::Z * config.feet_to_origin;
    assert!(highest > 63.0, "never climbed the stairs: {highest}");
    assert!((640.0..768.0).contains(&feet.x) && feet.z < -63.0, "{feet}");
}

/// Slides in the ghost-hit scenario (`trace_oracle.rs`: 12,000 over tiled floors and along
/// coplanar walls, 10,000 over real maps' floors; docs/sweeps.md), here over the shared
/// and held-back meshes together.
const GHOST_SLIDES: usize = 22_000;

/// The ghost-hit scenario on every shared and held-back mesh ([`swept_meshes`]): shapes of
/// every kind sliding 0.25 units off
/// the mesh world's floors (sides facing up by at least 0.7, ramps included) and walls
/// (sides facing sideways), along the surface in a seeded direction across the seams of the
/// triangles and cells it is made of, are never stopped. As in
/// `trace_oracle.rs::no_ghost_hits_on_real_map_floors`, only slides the exact oracle (over
/// the mesh's solid brushes) finds free count, with a corridor clear of everything but the
/// surface by more than any corner's over-reach, and none near a brush the oracle cannot
/// represent; a stop within twice the stop distance of solid is Quake's skin, farther a
/// ghost. [`GHOST_SLIDES`] in all, half over floors and half along walls.
#[test]
fn no_ghost_hits_sliding_along_mesh_floors_and_walls() {
    use crate::support::oracle::Oracle;
    use crate::trace::{KINDS, ShapeParams};
    use crate::trace_oracle::{inflated, oracle_shape};
    use glam::DVec3;
    use planeshift::tolerance::SURFACE_CLIP_EPSILON;
    let meshes = swept_meshes("no_ghost_hits_sliding_along_mesh_floors_and_walls");
    if meshes.is_empty() {
        return;
    }
    let per_mesh = GHOST_SLIDES.div_ceil(meshes.len());
    let (mut slides, mut skin_stops, mut stops) = (0usize, 0usize, Vec::new());
    for (seed, (name, bytes, folder)) in meshes.iter().enumerate() {
        let world = compile_bytes(name, bytes, folder.as_deref());
        let brushes: Vec<planeshift::brush::Brush> = planeshift::compile::mesh_brushes(
            bytes,
            folder.as_deref(),
            &MeshOptions::default(),
            &CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_iter()
        .filter(|b| b.solid)
        .collect();
        let oracle = Oracle::new(&brushes);
        let rejected: Vec<(DVec3, DVec3)> = oracle
            .rejected()
            .iter()
            .filter_map(|&i| brushes.get(i).map(|b| (b.mins, b.maxs)))
            .collect();
        // (normal, a triangle of the side's winding, whether a floor).
        let mut surfaces: [Vec<(DVec3, [DVec3; 3])>; 2] = [Vec::new(), Vec::new()];
        for brush in &brushes {
            for side in &brush.sides {
                let n = side.plane.normal;
                let floor = n.z >= 0.7;
                if !floor && n.z.abs() > 0.1 {
                    continue;
                }
                let w = &side.winding.points;
                for k in 1..w.len().saturating_sub(1) {
                    let t = [w[0], w[k], w[k + 1]];
                    if (t[1] - t[0]).cross(t[2] - t[0]).length() >= 2.0 * 16.0 {
                        surfaces[usize::from(floor)].push((n, t));
                    }
                }
            }
        }
        let mut rng = Pcg32::new(0x6805_7000 + seed as u64);
        for (floor, list) in surfaces.iter().enumerate() {
            let target = per_mesh / 2 + floor * (per_mesh % 2);
            let (mut made, mut tries) = (0usize, 0usize);
            while !list.is_empty() && made < target && tries < target * 200 {
                tries += 1;
                let (n, t) = list[rng.below(list.len())];
                let params = ShapeParams::random(&mut rng, KINDS[tries % KINDS.len()]);
                let (shape, exact) = (params.shape(), oracle_shape(&params));
                let (u, v) = (rng.range_f64(0.0, 1.0), rng.range_f64(0.0, 1.0));
                let (u, v) = if u + v > 1.0 {
                    (1.0 - u, 1.0 - v)
                } else {
                    (u, v)
                };
                let q = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                let a = (t[1] - t[0]).normalize();
                let b = n.cross(a);
                let angle = rng.range_f64(0.0, std::f64::consts::TAU);
                let direction = a * angle.cos() + b * angle.sin();
                let half = rng.range_f64(8.0, 128.0);
                let lift = n * (0.25 + f64::from(shape.support_distance(-n.as_vec3())));
                let (s, e) = (q + lift - direction * half, q + lift + direction * half);
                let clear = f64::from(shape.radius()) + 1.0;
                let reach = DVec3::splat(clear + 2.0);
                let (lo, hi) = (s.min(e) - reach, s.max(e) + reach);
                if rejected
                    .iter()
                    .any(|&(bl, bh)| lo.cmple(bh).all() && hi.cmpge(bl).all())
                {
                    continue;
                }
                let up = n * clear;
                let free = oracle.first_hit(&exact, s, e).is_none()
                    && oracle.distance(&exact, s, 0.3) >= 0.24
                    && oracle
                        .first_hit(&inflated(&exact, clear), s + up, e + up)
                        .is_none();
                if !free {
                    continue;
                }
                made += 1;
                let (start, end) = (s.as_vec3(), e.as_vec3());
                let trace = world.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
                if trace.hit() {
                    let clearance = oracle.distance(&exact, trace.end.as_dvec3(), 1.0);
                    if clearance <= 2.0 * f64::from(SURFACE_CLIP_EPSILON) {
                        skin_stops += 1;
                        continue;
                    }
                    stops.push(format!(
                        "{name} {params:?} {start}->{end}: stopped at {} ({:?}), clearance {clearance}",
                        trace.fraction, trace.normal
                    ));
                }
            }
            slides += made;
            println!(
                "{name}: {made} slides {} ({tries} tries)",
                if floor == 1 {
                    "over floors"
                } else {
                    "along walls"
                }
            );
        }
    }
    println!(
        "mesh slides: {slides}, ghost stops: {}, stops within the stop distance's skin: {skin_stops}",
        stops.len()
    );
    for stop in stops.iter().take(20) {
        println!("  {stop}");
    }
    assert!(stops.is_empty(), "{} ghost stops", stops.len());
    assert!(slides >= GHOST_SLIDES * 9 / 10, "{slides} slides");
}
