//! `bspc trace` and `bspc bench`: sweep queries through a world, by the JSON Lines contract.
//!
//! Takes a world (`.pbsp`, or a `.map` compiled in memory) and queries, one JSON object per
//! line: `{"shape":SHAPE,"start":[x,y,z],"end":[x,y,z]}` with SHAPE one of
//! `{"kind":"point"}`, `{"kind":"sphere","radius":r}`, `{"kind":"box","mins":[..],"maxs":[..]}`,
//! `{"kind":"cylinder","radius":r,"half_height":h}`, `{"kind":"capsule","radius":r,"half_height":h}`,
//! `{"kind":"hull","points":[[x,y,z],...]}`. Gives one result line per query, in order:
//! `{"fraction":f,"end":[x,y,z],"normal":[x,y,z] or null,"start_solid":b,"all_solid":b,
//! "contents":[names],"surface":[names],"material":"name"}`: for a hit (fraction below 1) the
//! contents names of the brush hit, the surface flag names and the material of the side hit
//! (an all-solid sweep names the contents it is in, no surface and a null material); `null`
//! for all three when nothing was hit, and `"body":n`: the id of the character hit, `null`
//! when the world or nothing was hit. Sweeps go through a [`Scene`]: the world model with
//! its static models and, with `--bodies BODIES.jsonl`, characters, one line each:
//! `{"id":n,"shape":SHAPE,"at":[x,y,z],"contents":["body"]}` (`["corpse"]` for a dead
//! one; SHAPE as in a query line, `at` where its centre stands, the contents any names
//! `--mask` takes one by one). A character blocks a query whose mask meets its contents
//! (`shot` meets bodies and corpses, `player` bodies only). A bad body line (an unknown key,
//! a bad shape, a non-finite point, no or an unknown contents name, an id given twice) is
//! an error naming `FILE:LINE`. `bench` times the world's sweeps, on as many threads as
//! asked.

use std::path::Path;
use std::time::Instant;

use glam::Vec3;
use planeshift::Contents;
use planeshift::build::{MeshOptions, compile_level_at};
use planeshift::movement::Bodies;
use planeshift::{CompileError, CompileOptions};
use planeshift::{CompiledMap, level::MAGIC};
use planeshift::{QueryFilter, Scene};
use planeshift::{
    Trace, TraceShape,
    query::{ShapeKind, TraceQuery},
};
use serde::{Deserialize, Serialize};

use crate::CliError;
use crate::jsonl::{read_lines, write_output};

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum ShapeJson {
    Point,
    Sphere { radius: f32 },
    Box { mins: [f32; 3], maxs: [f32; 3] },
    Cylinder { radius: f32, half_height: f32 },
    Capsule { radius: f32, half_height: f32 },
    Hull { points: Vec<[f32; 3]> },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryJson {
    shape: ShapeJson,
    start: [f32; 3],
    end: [f32; 3],
    /// This query's mask, as `--mask` names it (one name per element).
    #[serde(default)]
    mask: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct ResultJson {
    fraction: f32,
    end: [f32; 3],
    normal: Option<[f32; 3]>,
    start_solid: bool,
    all_solid: bool,
    contents: Option<Vec<&'static str>>,
    surface: Option<Vec<&'static str>>,
    material: Option<String>,
    body: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BodyJson {
    id: u32,
    shape: ShapeJson,
    at: [f32; 3],
    contents: Vec<String>,
}

/// A parsed query.
pub struct Query {
    shape: TraceShape,
    start: Vec3,
    end: Vec3,
    /// The line's own mask, if it gives one.
    mask: Option<Contents>,
}

/// The mask `name` names: `player`, `monster`, `bot`, `shot`, `solid` (Quake's: no clip)
/// or contents names joined by commas (`solid,playerclip`).
pub fn parse_mask(name: &str) -> Result<Contents, String> {
    Ok(match name {
        "player" => Contents::MASK_PLAYER_SOLID,
        "monster" => Contents::MASK_MONSTER_SOLID,
        "bot" => Contents::MASK_BOT_SOLID,
        "shot" => Contents::MASK_SHOT,
        "solid" => Contents::MASK_SOLID,
        names => {
            let mut mask = Contents::EMPTY;
            for part in names.split(',') {
                mask |= Contents::from_name(part.trim())
                    .ok_or_else(|| format!("unknown mask or contents name '{part}'"))?;
            }
            mask
        }
    })
}

fn shape_from_json(shape: ShapeJson) -> Option<TraceShape> {
    match shape {
        ShapeJson::Point => Some(TraceShape::point()),
        ShapeJson::Sphere { radius } => TraceShape::sphere(radius),
        ShapeJson::Box { mins, maxs } => TraceShape::aabb(mins.into(), maxs.into()),
        ShapeJson::Cylinder {
            radius,
            half_height,
        } => TraceShape::cylinder(radius, half_height),
        ShapeJson::Capsule {
            radius,
            half_height,
        } => TraceShape::capsule(radius, half_height),
        ShapeJson::Hull { points } => {
            TraceShape::hull(points.into_iter().map(Vec3::from).collect())
        }
    }
}

/// Loads a world: a compiled file by its magic, a mesh (`.obj`, `.gltf`, `.glb`) by its
/// extension (its axis and scale from `mesh`), otherwise a `.map` or a `.bsp` (by content)
/// compiled in memory (with the shader folders, for a Quake 3 map, and the patch tolerance).
pub fn load_world(
    path: &Path,
    (options, mesh): (&CompileOptions, &MeshOptions),
) -> Result<CompiledMap, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, &e))?;
    if bytes.starts_with(&MAGIC) {
        return CompiledMap::from_bytes(&bytes).map_err(|e| CliError::corrupt(path, &e));
    }
    compile_level_at(&bytes, path, mesh, options)
        .map(|c| c.map)
        .map_err(|e| match e {
            CompileError::Parse(p) => CliError::syntax(path, &p),
            CompileError::Import(i) => CliError::input(format!("{}: error: {i}", path.display())),
            CompileError::Mesh(m) => CliError::input(format!("{}: error: {m}", path.display())),
            other => CliError::internal(other),
        })
}

/// Reads JSON Lines queries; blank lines are skipped.
pub fn read_queries(path: &Path) -> Result<Vec<Query>, CliError> {
    read_lines(path, |query: QueryJson| {
        let shape =
            shape_from_json(query.shape).ok_or_else(|| "invalid shape parameters".to_owned())?;
        let (start, end) = (Vec3::from(query.start), Vec3::from(query.end));
        if !start.is_finite() || !end.is_finite() {
            return Err("start and end must be finite".to_owned());
        }
        let mask = match query.mask {
            Some(names) => {
                let mut mask = Contents::EMPTY;
                for name in &names {
                    mask |= parse_mask(name)?;
                }
                Some(mask)
            }
            None => None,
        };
        Ok(Query {
            shape,
            start,
            end,
            mask,
        })
    })
}

/// Reads the characters of `--bodies`, one JSON object per line; blank lines are skipped.
pub fn read_bodies(path: &Path) -> Result<Bodies, CliError> {
    let seen = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let parsed = read_lines(path, |body: BodyJson| {
        let shape =
            shape_from_json(body.shape).ok_or_else(|| "invalid shape parameters".to_owned())?;
        let at = Vec3::from(body.at);
        if !at.is_finite() {
            return Err("at must be finite".to_owned());
        }
        if body.contents.is_empty() {
            return Err("contents must name at least one contents (body, corpse)".to_owned());
        }
        let mut contents = Contents::EMPTY;
        for name in &body.contents {
            contents |= Contents::from_name(name)
                .ok_or_else(|| format!("unknown contents name '{name}'"))?;
        }
        if !seen.borrow_mut().insert(body.id) {
            return Err(format!("body id {} given twice", body.id));
        }
        Ok((body.id, shape, at, contents))
    })?;
    let mut bodies = Bodies::new();
    for (id, shape, at, contents) in parsed {
        bodies.insert(id, &shape, at);
        bodies.set_contents(id, contents);
    }
    Ok(bodies)
}

fn result_json(world: &CompiledMap, trace: &Trace) -> ResultJson {
    let hit = trace.hit();
    ResultJson {
        fraction: trace.fraction,
        end: trace.end.to_array(),
        normal: trace.normal.map(|n| n.to_array()),
        start_solid: trace.start_solid,
        all_solid: trace.all_solid,
        contents: hit.then(|| trace.contents.names().collect()),
        surface: hit.then(|| trace.surface.names().collect()),
        material: trace
            .material
            .filter(|_| hit)
            .and_then(|m| world.material_name(m))
            .map(str::to_owned),
        body: trace.target.and_then(|target| target.character()),
    }
}

fn parse_point(text: &str, what: &str) -> Result<Vec3, CliError> {
    let values: Vec<f32> = text
        .split(',')
        .map(|v| v.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| CliError::usage(format!("--{what} expects X,Y,Z, got '{text}'")))?;
    match values[..] {
        [x, y, z] if values.iter().all(|v| v.is_finite()) => Ok(Vec3::new(x, y, z)),
        _ => Err(CliError::usage(format!(
            "--{what} expects X,Y,Z, got '{text}'"
        ))),
    }
}

pub fn trace(
    file: &Path,
    queries: Option<&Path>,
    output: Option<&Path>,
    single: (Option<String>, Option<String>, Option<String>),
    mask: Option<&str>,
    bodies: Option<&Path>,
    options: (&CompileOptions, &MeshOptions),
) -> Result<(), CliError> {
    let default_mask = match mask {
        Some(name) => parse_mask(name).map_err(CliError::usage)?,
        None => Contents::MASK_ANY_BLOCKING,
    };
    let queries = match (queries, single) {
        (Some(path), _) => read_queries(path)?,
        (None, (Some(shape), Some(from), Some(to))) => vec![Query {
            shape: TraceShape::from_spec(&shape).map_err(|e| CliError::usage(e.to_string()))?,
            start: parse_point(&from, "from")?,
            end: parse_point(&to, "to")?,
            mask: None,
        }],
        _ => {
            return Err(CliError::usage(
                "give --queries Q.jsonl, or --shape, --from and --to".to_owned(),
            ));
        }
    };
    let bodies = match bodies {
        Some(path) => read_bodies(path)?,
        None => Bodies::new(),
    };
    let world = load_world(file, options)?;
    let scene = Scene {
        map: &world,
        movers: &[],
        bodies: &bodies,
    };
    let mut out = String::new();
    for q in &queries {
        let filter = QueryFilter::new(q.mask.unwrap_or(default_mask));
        let hit = scene.trace(&q.shape, q.start, q.end, &filter);
        let line = serde_json::to_string(&result_json(&world, &hit));
        out.push_str(&line.map_err(CliError::internal)?);
        out.push('\n');
    }
    write_output(output, &out)
}

/// Times the queries by shape kind and all together: `reps` timed runs after a warm-up, each
/// run answering a group's queries one after the other (one thread) or with
/// [`CompiledMap::trace_batch`] on a pool of `threads` threads, so `ns_per_query` is wall
/// time per query (two threads on two free cores print about half of one).
pub fn bench(file: &Path, queries: &Path, reps: u32, threads: usize) -> Result<(), CliError> {
    let world = load_world(file, (&CompileOptions::default(), &MeshOptions::default()))?;
    let queries = read_queries(queries)?;
    if queries.is_empty() {
        return Err(CliError::input(format!(
            "{}: error: no queries",
            file.display()
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(CliError::internal)?;
    let run = |group: &[TraceQuery]| -> f64 {
        let started = Instant::now();
        if threads == 1 {
            // One thread: the sweeps one after the other on this one, as a game's loop
            // would, without the batch's result vector and pool hand-off (which a short
            // sweep of 100 ns would feel); more threads are measured against this.
            for q in group {
                std::hint::black_box(world.trace(&q.shape, q.start, q.end, q.mask));
            }
        } else {
            std::hint::black_box(pool.install(|| world.trace_batch(group)));
        }
        started.elapsed().as_secs_f64() * 1e9
    };
    let batch = |group: Vec<&Query>| -> Vec<TraceQuery> {
        group
            .into_iter()
            .map(|q| TraceQuery {
                shape: q.shape.clone(),
                start: q.start,
                end: q.end,
                mask: q.mask.unwrap_or(Contents::MASK_ANY_BLOCKING),
            })
            .collect()
    };
    let groups: Vec<(&str, Vec<TraceQuery>)> = ShapeKind::ALL
        .iter()
        .map(|k| {
            (
                k.name(),
                batch(queries.iter().filter(|q| q.shape.kind() == *k).collect()),
            )
        })
        .filter(|(_, g)| !g.is_empty())
        .chain(std::iter::once(("all", batch(queries.iter().collect()))))
        .collect();
    for (_, group) in &groups {
        run(group);
    }
    for (name, group) in &groups {
        let mut samples: Vec<f64> = (0..reps).map(|_| run(group) / group.len() as f64).collect();
        samples.sort_by(f64::total_cmp);
        let median = if samples.len() % 2 == 1 {
            samples[samples.len() / 2]
        } else {
            (samples[samples.len() / 2 - 1] + samples[samples.len() / 2]) / 2.0
        };
        println!(
            "{name} ns_per_query median={median:.1} min={:.1} max={:.1}",
            samples[0],
            samples[samples.len() - 1]
        );
    }
    Ok(())
}
