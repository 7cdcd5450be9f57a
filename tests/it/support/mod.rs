//! Test support: a seeded RNG, the real-map corpus location, map fixtures and checkers.

#![allow(dead_code)]

mod compile_cache;
#[cfg(test)]
mod oracle_tests;
pub mod q2bsp;
pub mod q3bsp;
pub mod quake1_hulls;

pub use compile_cache::{compile, try_compile};
/// The exact sweep oracle on parry3d-f64 (`tools/testkit/src/oracle.rs`, shared with the
/// `oracle` bench).
pub use planeshift_testkit::oracle;
/// Where the real and bundled maps are (`tools/testkit/src/real_maps.rs`, shared with bspc's
/// and the viewer's tests).
pub use planeshift_testkit::{bundled_maps, files_in, real_maps, real_maps_dir, repo_root};

/// The variable that runs every large suite (property, oracle, corpus, fuzz and soak) at
/// the full count its issue asks for: `PLANESHIFT_FULL=1 cargo test --release`. Unset (or
/// `0`), each runs a CI-sized count that still covers every map and every case kind.
pub const FULL_VARIABLE: &str = "PLANESHIFT_FULL";

/// Whether [`FULL_VARIABLE`] asks for the full counts.
pub fn full_counts() -> bool {
    std::env::var(FULL_VARIABLE).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A large suite's count: `ci` by default, `full` (the count) with
/// [`FULL_VARIABLE`] set. Every suite that takes more than about a second in the test
/// profile sizes itself with this, and says both counts where it defines them.
pub fn cases(ci: usize, full: usize) -> usize {
    if full_counts() { full } else { ci }
}

use std::path::Path;

use planeshift::brush::{BrushOutput, brushes_from_map};
use planeshift::map::{MapFile, parse_map};

/// A PCG32 generator (O'Neill), so every random test is reproducible from its seed.
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

impl Pcg32 {
    pub fn new(seed: u64) -> Self {
        let mut rng = Pcg32 {
            state: 0,
            inc: (seed << 1) | 1,
        };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed ^ 0x853c_49e6_748f_ea9b);
        rng.next_u32();
        rng
    }

    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u32() as u64 * n as u64) >> 32) as usize
    }

    /// Uniform in `[lo, hi)`.
    pub fn range_f64(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u32() as f64 / 4_294_967_296.0)
    }
}

pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Parses `src`, panicking with the error when it fails.
pub fn parse_ok(src: &str) -> MapFile {
    parse_map(src.as_bytes()).unwrap_or_else(|e| panic!("unexpected parse error {e}"))
}

/// Parses `src`, which must fail with exactly `expected` ("LINE:COL: message").
#[track_caller]
pub fn check_parse_err(src: &[u8], expected: &str) {
    match parse_map(src) {
        Ok(map) => panic!("expected error {expected:?}, parsed {map:?}"),
        Err(e) => assert_eq!(e.to_string(), expected),
    }
}

/// Diagnostics as `LINE:COL: message`, in order.
pub fn located(diagnostics: &[planeshift::build::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.loc, d.message))
        .collect()
}

/// Parses `src` and builds its brushes.
pub fn brushes(src: &str) -> BrushOutput {
    brushes_from_map(&parse_ok(src))
}

/// A worldspawn holding one axis-aligned box brush from `mins` to `maxs`, standard format.
pub fn box_brush_face_lines(mins: [f64; 3], maxs: [f64; 3], texture: &str) -> String {
    let [x0, y0, z0] = mins;
    let [x1, y1, z1] = maxs;
    format!(
        "( {x0} {y0} {z0} ) ( {x0} {y1} {z0} ) ( {x0} {y0} {z1} ) {texture} 0 0 0 1 1\n\
         ( {x1} {y0} {z0} ) ( {x1} {y0} {z1} ) ( {x1} {y1} {z0} ) {texture} 0 0 0 1 1\n\
         ( {x0} {y0} {z0} ) ( {x0} {y0} {z1} ) ( {x1} {y0} {z0} ) {texture} 0 0 0 1 1\n\
         ( {x0} {y1} {z0} ) ( {x1} {y1} {z0} ) ( {x0} {y1} {z1} ) {texture} 0 0 0 1 1\n\
         ( {x0} {y0} {z0} ) ( {x1} {y0} {z0} ) ( {x0} {y1} {z0} ) {texture} 0 0 0 1 1\n\
         ( {x0} {y0} {z1} ) ( {x0} {y1} {z1} ) ( {x1} {y0} {z1} ) {texture} 0 0 0 1 1\n"
    )
}

/// A map with a worldspawn of the given box brushes `(mins, maxs, texture)`.
pub fn box_map(boxes: &[([f64; 3], [f64; 3], &str)]) -> String {
    let mut src = String::from("{\n\"classname\" \"worldspawn\"\n");
    for (mins, maxs, texture) in boxes {
        src.push_str("{\n");
        src.push_str(&box_brush_face_lines(*mins, *maxs, texture));
        src.push_str("}\n");
    }
    src.push_str("}\n");
    src
}

/// The brushes a world sweep clips (`CompiledMap::trace`, `point_contents`): the world's and
/// those of its static brush entities (`ModelKind::Static`, such as `func_wall`), of any
/// contents, in file order.
pub fn world_sweep_brushes(src: &[u8]) -> Vec<planeshift::brush::Brush> {
    use planeshift::brush::BrushOwner;
    use planeshift::level::ModelKind;
    let compiled = compile(src).map;
    let is_static = |entity: usize| {
        let model = compiled.entity(entity).and_then(|e| e.model());
        model.is_some_and(|m| compiled.models()[m].kind == ModelKind::Static)
    };
    brushes_from_map(&parse_map(src).expect("parse"))
        .brushes
        .into_iter()
        .filter(|b| match b.owner {
            BrushOwner::World => true,
            BrushOwner::Entity(e) => is_static(e),
        })
        .collect()
}

/// Brute force over brushes: a uniform grid of brush bounds for fast lookups.
pub struct BrushOracle {
    pub brushes: Vec<planeshift::brush::Brush>,
    mins: glam::DVec3,
    cell: f64,
    dims: [usize; 3],
    cells: Vec<Vec<u32>>,
}

/// Longest side of the oracle's grid, in cells.
const ORACLE_GRID: usize = 48;

impl BrushOracle {
    /// An oracle over `brushes`, with bounds grown by `margin` when binning.
    pub fn new(brushes: Vec<planeshift::brush::Brush>, margin: f64) -> Self {
        let mut mins = glam::DVec3::splat(f64::INFINITY);
        let mut maxs = glam::DVec3::splat(f64::NEG_INFINITY);
        for b in &brushes {
            mins = mins.min(b.mins);
            maxs = maxs.max(b.maxs);
        }
        if brushes.is_empty() {
            mins = glam::DVec3::ZERO;
            maxs = glam::DVec3::ONE;
        }
        let cell = ((maxs - mins).max_element() / ORACLE_GRID as f64).max(1.0);
        let dim = |a: usize| (((maxs[a] - mins[a]) / cell).ceil() as usize).max(1);
        let dims = [dim(0), dim(1), dim(2)];
        let mut oracle = BrushOracle {
            brushes: Vec::new(),
            mins,
            cell,
            dims,
            cells: vec![Vec::new(); dims[0] * dims[1] * dims[2]],
        };
        for (i, b) in brushes.iter().enumerate() {
            let lo = oracle.cell_coords(b.mins - margin);
            let hi = oracle.cell_coords(b.maxs + margin);
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        let index = oracle.index([x, y, z]);
                        oracle.cells[index].push(i as u32);
                    }
                }
            }
        }
        oracle.brushes = brushes;
        oracle
    }

    fn cell_coords(&self, p: glam::DVec3) -> [usize; 3] {
        let mut out = [0; 3];
        for a in 0..3 {
            let c = ((p[a] - self.mins[a]) / self.cell).floor();
            out[a] = (c.max(0.0) as usize).min(self.dims[a] - 1);
        }
        out
    }

    fn index(&self, [x, y, z]: [usize; 3]) -> usize {
        (z * self.dims[1] + y) * self.dims[0] + x
    }

    /// Brushes whose bounds (grown by the binning margin) may hold `p`.
    pub fn near(&self, p: glam::DVec3) -> impl Iterator<Item = &planeshift::brush::Brush> {
        let inside = (0..3).all(|a| {
            p[a] >= self.mins[a] - self.cell
                && p[a] <= self.mins[a] + self.cell * (self.dims[a] + 1) as f64
        });
        let cell = if inside {
            &self.cells[self.index(self.cell_coords(p))][..]
        } else {
            &[][..]
        };
        cell.iter().map(|&i| &self.brushes[i as usize])
    }

    /// Whether `p` is within `epsilon` of a side of a brush near it.
    pub fn near_surface(&self, p: glam::DVec3, epsilon: f64) -> bool {
        self.near(p).any(|b| {
            (0..3).all(|a| p[a] >= b.mins[a] - epsilon && p[a] <= b.maxs[a] + epsilon)
                && b.sides.iter().any(|s| s.plane.distance(p).abs() < epsilon)
        })
    }

    /// Brushes strictly containing `p`.
    pub fn containing(&self, p: glam::DVec3) -> impl Iterator<Item = &planeshift::brush::Brush> {
        self.near(p).filter(move |b| b.contains(p, 0.0))
    }

    /// Union of the brush bounds.
    pub fn bounds(&self) -> (glam::DVec3, glam::DVec3) {
        let mut mins = glam::DVec3::splat(f64::INFINITY);
        let mut maxs = glam::DVec3::splat(f64::NEG_INFINITY);
        for b in &self.brushes {
            mins = mins.min(b.mins);
            maxs = maxs.max(b.maxs);
        }
        (mins, maxs)
    }
}

/// Runs `f(thread, count)` on two threads, splitting `total` cases between them.
pub fn in_parallel<T: Send>(total: usize, f: impl Fn(usize, usize) -> T + Sync) -> Vec<T> {
    const THREADS: usize = 2;
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = (0..THREADS)
            .map(|t| scope.spawn(move || f(t, total / THREADS + usize::from(t < total % THREADS))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| panic!("worker panicked")))
            .collect()
    })
}

/// Where a `.bsp`'s lump directory is and what it holds, for [`mutate_bsp`].
pub struct BspLayout {
    /// The directory's offset (after the magic, and the version where there is one).
    pub directory_at: usize,
    /// How many lumps it lists (each an offset and a length).
    pub lumps: usize,
    /// The planes lump's index.
    pub planes_lump: usize,
}

/// A little-endian `i32` at `at` as a length or offset (0 when out of the file or negative).
pub fn bsp_word(bytes: &[u8], at: usize) -> usize {
    bytes
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, |b| i32::from_le_bytes(b).max(0) as usize)
}

/// One seeded mutation of a `.bsp` (the importers' fuzz): bit flips, a truncation, a wild
/// directory entry, a huge value in some record, or a NaN, infinite, zero or huge plane
/// field. Gives the kind of mutation.
pub fn mutate_bsp(rng: &mut Pcg32, bytes: &mut Vec<u8>, layout: &BspLayout) -> &'static str {
    match rng.below(5) {
        0 => {
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(bytes.len());
                bytes[at] ^= 1 << rng.below(8);
            }
            "flips"
        }
        1 => {
            bytes.truncate(rng.below(bytes.len()));
            "truncation"
        }
        2 => {
            let at = layout.directory_at + 4 * rng.below(2 * layout.lumps);
            let value: i32 =
                [i32::MAX, i32::MIN, -1, 0x7fff_fff0, rng.next_u32() as i32][rng.below(5)];
            bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
            "directory"
        }
        3 => {
            // A huge value somewhere in a record (a count, index or child).
            let at = rng.below(bytes.len().saturating_sub(4));
            let value: i32 =
                [i32::MAX, i32::MIN, 65_535, -32_768, rng.next_u32() as i32][rng.below(5)];
            bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
            "huge value"
        }
        _ => {
            let entry = layout.directory_at + 8 * layout.planes_lump;
            let (planes_at, planes_len) = (bsp_word(bytes, entry), bsp_word(bytes, entry + 4));
            let field = planes_at + 4 * rng.below((planes_len / 4).max(1));
            let value = [f32::NAN, f32::INFINITY, 0.0, 1e30][rng.below(4)];
            if let Some(slot) = bytes.get_mut(field..field + 4) {
                slot.copy_from_slice(&value.to_le_bytes());
            }
            "plane value"
        }
    }
}
