//! The oracle suites on imported `.bsp` worlds (issue 26): sweeps of every shape kind through
//! a world imported from a `.bsp` of each format never end inside the exact oracle
//! (`support::oracle`, over the imported brushes a world sweep clips), never stop later than
//! its first contact, never stop in open space, and the tree equals brute force over every
//! brush (start-solid, all-solid and fraction bit for bit), as `trace_oracle.rs` and
//! `trace.rs` check them on compiled `.map` worlds.
//!
//! Takes every `.bsp` under `$PLANESHIFT_REAL_MAPS` (skipped, with a message, when the folder
//! is missing), grouped by format, plus `q1_detail_fence2.bsp` rewritten as 2PSB (no shared
//! file is one: `quake1_bsp.rs::convert_bsp29`); gives, per format and shape kind, the sweeps
//! checked ([`CASES_PER_KIND`] per format and kind). By default each format's first file (by
//! name) is swept, to keep the suite to a few seconds (importing every level takes most of
//! half a minute in the test profile); with `PLANESHIFT_FULL=1` every file is, the format's
//! cases dealt out over its files, so each format gets the same count whatever the number of
//! its files.

use std::collections::BTreeMap;

use glam::{DVec3, Vec3};
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::TraceShape;
use planeshift::brush::{Brush, BrushOwner};
use planeshift::level::ModelKind;
use planeshift::tolerance::SURFACE_CLIP_EPSILON;
use planeshift::{CompileOptions, build::import_bsp};
use planeshift::{build::BspFormat, import::read_brushes};

use crate::quake1_bsp::convert_bsp29;
use crate::support::oracle::Oracle;
use crate::support::{Pcg32, files_in, read, real_maps_dir};
use crate::trace::{KINDS, ShapeParams, random_sweep};
use crate::trace_oracle::{exact_overlaps, oracle_shape};

/// Sweeps per format and shape kind: 250 by default (about 10,000 sweeps in all over the
/// seven formats), the 10,000 with `PLANESHIFT_FULL=1` (`support::cases`).
const CASES_PER_KIND: (usize, usize) = (250, 10_000);

/// The longest sweep drawn, in units.
const SWEEP_LENGTH: f32 = 256.0;

/// Starts drawn for one sweep before taking one that starts solid (the Quake 1 family's void
/// is solid, so most of a level's box is).
const START_TRIES: usize = 1000;

/// The file rewritten as 2PSB, the one format no shared file is written in.
const TWO_PSB_SOURCE: &str = "ericw-tools/q1_detail_fence2.bsp";

/// Every `.bsp` of the corpus, then the 2PSB rewrite, grouped by format name.
fn files_by_format(test: &str) -> BTreeMap<&'static str, Vec<(String, Vec<u8>)>> {
    let mut out: BTreeMap<&'static str, Vec<(String, Vec<u8>)>> = BTreeMap::new();
    let Some(dir) = real_maps_dir(test) else {
        return out;
    };
    for (name, path) in files_in(&dir, "bsp") {
        let bytes = read(&path);
        let format = BspFormat::detect(&bytes).unwrap_or_else(|| panic!("{name}: no .bsp"));
        out.entry(format.name()).or_default().push((name, bytes));
    }
    let two_psb = convert_bsp29(&read(&dir.join(TWO_PSB_SOURCE)), BspFormat::Bsp2Psb);
    assert_eq!(BspFormat::detect(&two_psb), Some(BspFormat::Bsp2Psb));
    out.entry(BspFormat::Bsp2Psb.name())
        .or_default()
        .push((format!("{TWO_PSB_SOURCE} as 2psb"), two_psb));
    out
}

/// The imported brushes a world sweep clips (`CompiledMap::trace`): the world's and those of
/// its static brush entities (`ModelKind::Static`, such as `func_wall`) that block something.
fn world_sweep_brushes(bytes: &[u8], world: &CompiledMap) -> Vec<Brush> {
    let (_, _, output) = read_brushes(bytes).unwrap_or_else(|e| panic!("{e}"));
    let is_static = |entity: usize| {
        let model = world.entity(entity).and_then(|e| e.model());
        model.is_some_and(|m| world.models()[m].kind == ModelKind::Static)
    };
    output
        .brushes
        .into_iter()
        .filter(|b| b.solid)
        .filter(|b| match b.owner {
            BrushOwner::World => true,
            BrushOwner::Entity(e) => is_static(e),
        })
        .collect()
}

/// How far from a brush's bounds a sweep aimed at it may start, at most, per axis (units).
const AIM_REACH: f64 = 96.0;

/// A sweep of `shape` whose start is clear of the world, if one of [`START_TRIES`] is: on
/// even draws anywhere in the world's bounds (`trace.rs::random_sweep`), on odd draws from
/// near a random brush of `brushes` to a point in or beside it (most of a Quake 2 or 3
/// level's box is open air, where a sweep meets nothing).
fn open_sweep(
    rng: &mut Pcg32,
    world: &CompiledMap,
    brushes: &[Brush],
    shape: &TraceShape,
    draw: usize,
) -> Option<(Vec3, Vec3)> {
    (0..START_TRIES).find_map(|_| {
        let (start, end) = if draw.is_multiple_of(2) || brushes.is_empty() {
            random_sweep(rng, world, SWEEP_LENGTH)
        } else {
            let brush = &brushes[rng.below(brushes.len())];
            let mut near = |reach: f64| {
                DVec3::from_array(std::array::from_fn(|a| {
                    rng.range_f64(brush.mins[a] - reach, brush.maxs[a] + reach)
                }))
                .as_vec3()
            };
            let start = near(AIM_REACH);
            let end = near(8.0);
            let length = start.distance(end);
            let end = if length > SWEEP_LENGTH {
                start + (end - start) * (SWEEP_LENGTH / length)
            } else {
                end
            };
            (start, end)
        };
        let still = world.trace(shape, start, start, Contents::MASK_ANY_BLOCKING);
        (!still.start_solid).then_some((start, end))
    })
}

/// What one shape kind's sweeps gave on a format: sweeps checked against the oracle, hits
/// among them, sweeps that started solid (tree against brute force only) and sweeps left
/// out because they pass near a brush the oracle could not represent.
#[derive(Default)]
pub(crate) struct Counts {
    pub(crate) checked: usize,
    pub(crate) hits: usize,
    pub(crate) start_solid: usize,
    pub(crate) near_rejected: usize,
}

/// Counts per shape kind.
pub(crate) type KindCounts = BTreeMap<&'static str, Counts>;

/// Sweeps drawn per sweep wanted, at most, before a kind gives up on a cramped level.
const DRAWS_PER_SWEEP: usize = 4;

/// Runs sweeps of every shape kind on one imported file until `cases` per kind are checked
/// against the oracle (never inside, never late, never in open space), and gives the
/// failures; every sweep drawn is also checked tree against brute force (asserted).
fn check_file(
    name: &str,
    bytes: &[u8],
    cases: usize,
    seed: u64,
    counts: &mut KindCounts,
) -> Vec<String> {
    let world = import_bsp(bytes, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .map;
    let brushes = world_sweep_brushes(bytes, &world);
    check_world(name, &world, &brushes, (cases, seed), 1, counts)
}

/// [`check_file`]'s sweeps on any world whose world sweeps clip exactly `brushes` (an
/// imported `.bsp`'s, a compiled mesh's: `mesh.rs`): `cases` per kind from `seed`, with at
/// most `rejected_per_mille` of the brushes (per thousand, at least one) ones the oracle
/// cannot represent.
pub(crate) fn check_world(
    name: &str,
    world: &CompiledMap,
    brushes: &[Brush],
    (cases, seed): (usize, u64),
    rejected_per_mille: usize,
    counts: &mut KindCounts,
) -> Vec<String> {
    let oracle = Oracle::new(brushes);
    // Parry cannot represent a few imported slivers within the oracle's 1e-6 check (their
    // f32 planes meet a few 1e-6 off); sweeps whose bounds come near one are left out and
    // counted.
    let rejected: Vec<(DVec3, DVec3)> = oracle
        .rejected()
        .iter()
        .map(|&i| (brushes[i].mins - 1.0, brushes[i].maxs + 1.0))
        .collect();
    for (i, why) in oracle.rejected().iter().zip(oracle.rejection_reasons()) {
        println!(
            "  {name}: the oracle cannot represent brush {i} ({:?}..{:?}): {why}",
            brushes[*i].mins, brushes[*i].maxs
        );
    }
    assert!(
        rejected.len() * 1000 <= brushes.len().max(1000) * rejected_per_mille,
        "{name}: the oracle rejected {} of {} brushes",
        rejected.len(),
        brushes.len()
    );
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let mut failures = Vec::new();
    let mut rng = Pcg32::new(seed);
    for kind in KINDS {
        let entry = counts.entry(kind.name()).or_default();
        let mut draws = 0;
        let mut checked = 0;
        while checked < cases && draws < cases * DRAWS_PER_SWEEP {
            draws += 1;
            let params = ShapeParams::random(&mut rng, kind);
            let (shape, exact) = (params.shape(), oracle_shape(&params));
            let (start, end) = open_sweep(&mut rng, world, brushes, &shape, draws)
                .unwrap_or_else(|| random_sweep(&mut rng, world, SWEEP_LENGTH));
            let tree = world.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
            let brute = world.trace_all_brushes(&shape, start, end, Contents::MASK_ANY_BLOCKING);
            let label = format!("{name} {kind:?} {params:?} {start}->{end}");
            assert_eq!(
                (tree.start_solid, tree.all_solid, tree.fraction),
                (brute.start_solid, brute.all_solid, brute.fraction),
                "{label}: tree and brute force differ"
            );
            if tree.start_solid {
                entry.start_solid += 1;
                continue;
            }
            let (lo, hi) = exact.local_bounds();
            let (s, e) = (start.as_dvec3(), end.as_dvec3());
            let (sweep_lo, sweep_hi) = (s.min(e) + lo, s.max(e) + hi);
            if rejected
                .iter()
                .any(|(a, b)| sweep_lo.cmple(*b).all() && a.cmple(sweep_hi).all())
            {
                entry.near_rejected += 1;
                continue;
            }
            checked += 1;
            entry.checked += 1;
            if exact_overlaps(&oracle, &exact, tree.end.as_dvec3()) {
                failures.push(format!("{label}: ends inside at {}", tree.end));
                continue;
            }
            let length = (e - s).length();
            let first = oracle.first_hit(&exact, s, e);
            if let Some(first) = first
                && (first > 0.0 || !oracle.overlaps(&exact, s))
                && f64::from(tree.fraction) * length > first * length + 1e-2
            {
                failures.push(format!(
                    "{label}: stops at {}, exact contact at {}",
                    f64::from(tree.fraction) * length,
                    first * length
                ));
                continue;
            }
            if tree.hit() {
                entry.hits += 1;
                // Never a stop in open space: without an exact contact along the sweep, a
                // stop within 2 × the stop distance of a corner it grazes (as
                // `trace_oracle.rs` allows).
                let clearance = oracle.distance(&exact, tree.end.as_dvec3(), 64.0);
                if first.is_none() && clearance > 2.0 * stop {
                    failures.push(format!(
                        "{label}: stopped in open space, clearance {clearance}, no contact along the sweep"
                    ));
                }
            }
        }
    }
    failures
}

/// Whether every file of a format is swept (the full run, `PLANESHIFT_FULL=1`), not only
/// its first.
fn every_file() -> bool {
    crate::support::full_counts()
}

pub(crate) fn cases_per_kind() -> usize {
    crate::support::cases(CASES_PER_KIND.0, CASES_PER_KIND.1)
}

/// On every shared `.bsp` (and a 2PSB rewrite), grouped by format: sweeps of every shape kind
/// meet the exact oracle (never inside, never late, never in open space) and the tree equals
/// brute force. Prints the sweeps checked per format and kind.
#[test]
fn imported_worlds_meet_the_exact_oracle_and_brute_force() {
    let groups = files_by_format("imported_worlds_meet_the_exact_oracle_and_brute_force");
    if groups.is_empty() {
        return;
    }
    let cases = cases_per_kind();
    let mut formats = 0;
    let mut failures: Vec<String> = Vec::new();
    for (format, files) in &groups {
        let files = if every_file() {
            &files[..]
        } else {
            &files[..1]
        };
        let mut counts = KindCounts::new();
        for (index, (name, bytes)) in files.iter().enumerate() {
            // The format's cases dealt out over its files, each file at least one per kind.
            let share = (cases / files.len() + usize::from(index < cases % files.len())).max(1);
            let clock = std::time::Instant::now();
            let found = check_file(name, bytes, share, 0x0b5b_0000 + index as u64, &mut counts);
            for failure in found.iter().take(3) {
                println!("  FAILURE {failure}");
            }
            failures.extend(found);
            println!(
                "  {name}: {share} sweeps per kind, {:.1} s",
                clock.elapsed().as_secs_f64()
            );
        }
        for (kind, c) in &counts {
            println!(
                "{format} ({} files) {kind:8}: {} sweeps checked ({} hits), {} started solid, {} near a brush the oracle cannot represent",
                files.len(),
                c.checked,
                c.hits,
                c.start_solid,
                c.near_rejected
            );
            assert!(
                c.checked * 10 >= cases * 9,
                "{format} {kind}: only {} of {cases} sweeps checked",
                c.checked
            );
        }
        formats += 1;
    }
    // bsp29, bsp2, 2psb, hl30, ibsp38, qbsp38, ibsp46.
    assert_eq!(formats, 7, "{:?}", groups.keys().collect::<Vec<_>>());
    assert!(
        failures.is_empty(),
        "{} sweeps failed the oracle, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}
