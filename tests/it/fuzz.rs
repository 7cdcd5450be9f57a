//! Seeded mutation fuzzing: 100,000 mutated real maps (12,000 without `PLANESHIFT_FULL`)
//! through the reader, the brush stage, the whole compile and a sweep, and 10,000 mutated
//! controller configs through loading and a few ticks. None may panic; every error must
//! point inside its input or name its field.

use std::panic::{AssertUnwindSafe, catch_unwind};

use planeshift::brush::brushes_from_map;
use planeshift::map::parse_map;

use crate::support::{Pcg32, bundled_maps, read, real_maps};

/// Mutated inputs in all: CI-sized, and the 100,000 with `PLANESHIFT_FULL`
/// (`support::cases`).
fn mutated_maps() -> usize {
    crate::support::cases(12_000, 100_000)
}
/// Longest window cut from a source map, in bytes, so that the cases stay fast.
const MAX_WINDOW: usize = 6_000;

/// Bytes inserted by mutations: the grammar's structural characters and some noise.
const INSERTS: &[u8] = b"{}()[]\"\\/;\n\r\t 0-.e9";

/// Windows of whole blocks, as byte ranges: each starts at a line holding only `{` and
/// ends after the last line holding only `}` that brings the depth back to where it started,
/// at most [`MAX_WINDOW`] bytes later. Unmutated, each window is a valid map (a run of
/// entities, or a run of loose brushes).
fn block_windows(source: &[u8]) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut offset = 0;
    let mut depth = 0i32;
    for line in source.split(|&b| b == b'\n') {
        let end = offset + line.len() + 1;
        match line.trim_ascii() {
            b"{" => {
                lines.push((offset, end, depth, true));
                depth += 1;
            }
            b"}" => {
                depth -= 1;
                lines.push((offset, end, depth, false));
            }
            _ => {}
        }
        offset = end;
    }
    let mut windows = Vec::new();
    for (i, &(start, _, depth, opens)) in lines.iter().enumerate() {
        if !opens {
            continue;
        }
        let mut best = None;
        for &(_, end, d, opens) in &lines[i + 1..] {
            if d < depth || end - start > MAX_WINDOW {
                break;
            }
            if d == depth && !opens {
                best = Some(end.min(source.len()));
            }
        }
        if let Some(end) = best {
            windows.push((start, end));
        }
    }
    if windows.is_empty() {
        windows.push((0, source.len().min(MAX_WINDOW)));
    }
    windows
}

/// A window of whole blocks, then one to four mutations.
fn mutate(rng: &mut Pcg32, source: &[u8], windows: &[(usize, usize)]) -> Vec<u8> {
    let (start, end) = windows[rng.below(windows.len())];
    let mut bytes = source[start..end].to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(8) {
            5..=7 => replace_number(rng, &mut bytes, at),
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 if at < bytes.len() => bytes[at] = rng.next_u32() as u8,
            2 => bytes.truncate(at),
            3 => bytes.insert(at, INSERTS[rng.below(INSERTS.len())]),
            _ => {
                let len = rng.below(16).min(bytes.len() - at.min(bytes.len()));
                bytes.drain(at..at + len);
            }
        }
    }
    bytes
}

/// Numbers that stress the geometry: huge, tiny, negative zero, exponents.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1e300",
    "-262145",
    "262144",
    "1e-300",
    "0.0000001",
    "99999",
    "-4096.5",
    "7",
];

/// Swaps the digit at or after `at` for another digit, or the whole number for one of
/// [`NUMBERS`]: the file stays well-formed and the brush stage sees odd geometry.
fn replace_number(rng: &mut Pcg32, bytes: &mut Vec<u8>, at: usize) {
    let Some(digit) = bytes[at.min(bytes.len())..]
        .iter()
        .position(u8::is_ascii_digit)
    else {
        return;
    };
    let digit = at + digit;
    if rng.below(2) == 0 {
        bytes[digit] = b'0' + rng.below(10) as u8;
        return;
    }
    let is_number = |b: &u8| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'e' | b'+');
    let start = bytes[..digit]
        .iter()
        .rposition(|b| !is_number(b))
        .map_or(0, |p| p + 1);
    let end = bytes[digit..]
        .iter()
        .position(|b| !is_number(b))
        .map_or(bytes.len(), |p| digit + p);
    let replacement = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
    bytes.splice(start..end, replacement.iter().copied());
}

/// Asserts the error location is within the input: an existing line, a column at most one
/// past that line's end.
fn check_location(bytes: &[u8], line: u32, column: u32) -> Result<(), String> {
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let line = line as usize;
    if line == 0 || line > lines.len() {
        return Err(format!("line {line} of {}", lines.len()));
    }
    if column == 0 || column as usize > lines[line - 1].len() + 1 {
        return Err(format!("column {column} of {}", lines[line - 1].len()));
    }
    Ok(())
}

#[test]
fn mutated_maps_never_panic_and_errors_point_inside() {
    let mut sources: Vec<Vec<u8>> = real_maps("fuzz").iter().map(|(_, p)| read(p)).collect();
    sources.extend(bundled_maps().iter().map(|(_, p)| read(p)));
    let starts: Vec<Vec<(usize, usize)>> = sources.iter().map(|s| block_windows(s)).collect();
    assert!(!sources.is_empty());
    let cases = mutated_maps();
    let threads = 2;
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (sources, starts) = (&sources, &starts);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    let mut errors = 0usize;
                    for case in (t..cases).step_by(threads) {
                        let mut rng = Pcg32::new(case as u64);
                        let which = rng.below(sources.len());
                        let bytes = mutate(&mut rng, &sources[which], &starts[which]);
                        let outcome = catch_unwind(AssertUnwindSafe(|| match parse_map(&bytes) {
                            Ok(map) => {
                                let _ = brushes_from_map(&map);
                                // The whole compile (whose output must always validate), and a
                                // sweep through the result.
                                match planeshift::compile_map(&bytes) {
                                    Ok(out) => {
                                        let sphere = planeshift::TraceShape::sphere(16.0);
                                        if let Some(shape) = sphere {
                                            let _ = out.map.trace(
                                                &shape,
                                                glam::Vec3::splat(-64.0),
                                                glam::Vec3::splat(64.0),
                                                planeshift::Contents::MASK_ANY_BLOCKING,
                                            );
                                        }
                                        Ok(true)
                                    }
                                    Err(e) => Err(format!("compile failed: {e}")),
                                }
                            }
                            Err(e) => check_location(&bytes, e.loc.line, e.loc.column)
                                .map(|()| false)
                                .map_err(|m| format!("{e}: {m}")),
                        }));
                        match outcome {
                            Ok(Ok(parsed)) => errors += usize::from(!parsed),
                            Ok(Err(message)) => failures.push(format!("case {case}: {message}")),
                            Err(_) => failures.push(format!("case {case}: panicked")),
                        }
                    }
                    (failures, errors)
                })
            })
            .collect();
        let mut all = Vec::new();
        let mut errors = 0;
        for handle in handles {
            let (f, e) = handle.join().unwrap_or_default();
            all.extend(f);
            errors += e;
        }
        // The mutations must actually exercise the error paths.
        assert!(
            errors > cases / 10,
            "only {errors} of {cases} cases failed to parse"
        );
        assert!(
            errors < cases * 8 / 10,
            "{errors} of {cases} cases failed: too few reach the brush stage"
        );
        println!("fuzz: {cases} cases, {errors} syntax errors, all located inside their input");
        all
    });
    assert!(
        failures.is_empty(),
        "{} failures, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

/// Mutated controller configs in [`mutated_configs_load_or_name_the_bad_field_quickly`].
const CONFIG_CASES: usize = 10_000;

/// Every numeric field of `ControllerConfig`.
const CONFIG_FIELDS: [&str; 19] = [
    "stand_height",
    "crouch_height",
    "feet_to_origin",
    "step_height",
    "min_step_tread",
    "walkable_normal_z",
    "gravity",
    "jump_speed",
    "land_jump_delay",
    "hard_landing_speed",
    "max_speed",
    "accelerate",
    "air_accelerate",
    "friction",
    "stop_speed",
    "crouch_speed_scale",
    "ground_probe",
    "airborne_rise_speed",
    "tick",
];

/// A TOML value for a config field: extreme, negative, NaN and infinities, huge, tiny,
/// zero, limits and just past them, wrong types, or an ordinary number.
fn config_value(rng: &mut Pcg32) -> String {
    const VALUES: [&str; 32] = [
        "0.0",
        "-0.0",
        "-1.0",
        "nan",
        "-nan",
        "inf",
        "-inf",
        "1e38",
        "3.5e38",
        "1e300",
        "-1e300",
        "1e-45",
        "1e-300",
        "0.2",
        "0.2000001",
        "0.0001",
        "0.00009",
        "100000.0",
        "100001.0",
        "4096.0",
        "4097.0",
        "2048.0",
        "1000.0",
        "1.0",
        "18",
        "99999999999999999999999",
        "true",
        "\"fast\"",
        "[1.0, 2.0]",
        "{ a = 1.0 }",
        "1979-05-27",
        "",
    ];
    if rng.below(4) == 0 {
        let magnitude = 10f64.powf(rng.range_f64(-6.0, 7.0));
        let sign = if rng.below(4) == 0 { -1.0 } else { 1.0 };
        format!("{:?}", sign * magnitude)
    } else {
        VALUES[rng.below(VALUES.len())].to_owned()
    }
}

/// A random config text: some fields set to [`config_value`]s, sometimes a shape with a
/// random kind and size, sometimes an unknown field or a syntax slip.
fn config_text(rng: &mut Pcg32) -> String {
    let mut text = String::new();
    for _ in 0..1 + rng.below(5) {
        let field = CONFIG_FIELDS[rng.below(CONFIG_FIELDS.len())];
        text.push_str(&format!("{field} = {}\n", config_value(rng)));
    }
    match rng.below(6) {
        0 => {
            let kinds = ["box", "cylinder", "capsule", "sphere", ""];
            let kind = kinds[rng.below(kinds.len())];
            let key = if kind == "box" {
                "half_width"
            } else {
                "radius"
            };
            let key = if rng.below(8) == 0 { "size" } else { key };
            text.push_str(&format!(
                "shape = {{ kind = \"{kind}\", {key} = {} }}\n",
                config_value(rng)
            ));
        }
        1 => text.push_str("shape = { kind = \"capsule\" }\n"),
        2 if rng.below(4) == 0 => text.push_str("gravityy = 800.0\n"),
        3 if rng.below(4) == 0 => text.push_str("tick = = 0.1\n"),
        _ => {}
    }
    text
}

/// 10,000 random configs: each is `Ok` or a typed error (a TOML error, or the field out
/// of range named with its accepted range). A config that loads drives a character for a
/// few ticks on the arena with random input, which must stay finite. The slowest case is
/// reported, not asserted (this machine's timings are not deterministic).
#[test]
fn mutated_configs_load_or_name_the_bad_field_quickly() {
    use planeshift::{CharacterController, ControllerConfig, MoveInput, movement::ConfigError};
    let arena = bundled_maps()
        .into_iter()
        .find(|(name, _)| name.contains("arena"))
        .expect("arena.map")
        .1;
    let world = crate::support::compile(&read(&arena)).map;
    let spawn = (world.models()[0].mins + world.models()[0].maxs) * 0.5;
    let mut loaded = 0usize;
    let mut toml_errors = 0usize;
    let mut by_field: std::collections::BTreeMap<&'static str, usize> = Default::default();
    let mut failures = Vec::new();
    let mut slowest = (0.0f64, 0u64);
    for case in 0..CONFIG_CASES {
        let seed = 2_000_000 + case as u64;
        let mut rng = Pcg32::new(seed);
        let text = config_text(&mut rng);
        let started = std::time::Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let result = ControllerConfig::from_toml(&text);
            if let Ok(config) = &result {
                let mut character =
                    CharacterController::new(*config, spawn).expect("a valid config builds");
                for tick in 0..8 {
                    let input = MoveInput {
                        wish: glam::Vec3::new(
                            rng.range_f64(-1.0, 1.0) as f32,
                            rng.range_f64(-1.0, 1.0) as f32,
                            0.0,
                        ),
                        jump: tick % 3 == 0,
                        crouch: tick % 4 == 1,
                        command: None,
                    };
                    let _ = character.step(&world, &input);
                    assert!(
                        character.position().is_finite() && character.velocity().is_finite(),
                        "{text}"
                    );
                }
            }
            result
        }));
        let elapsed = started.elapsed().as_secs_f64();
        if elapsed > slowest.0 {
            slowest = (elapsed, seed);
        }
        match outcome {
            Ok(Ok(_)) => loaded += 1,
            Ok(Err(ConfigError::Toml(source))) => {
                assert!(!source.message().is_empty());
                toml_errors += 1;
            }
            Ok(Err(ConfigError::Invalid { field, rule })) => {
                let message = ConfigError::Invalid { field, rule }.to_string();
                assert!(message.contains(field) && !rule.is_empty(), "{message}");
                *by_field.entry(field).or_default() += 1;
            }
            Ok(Err(other)) => panic!("seed {seed}: an error of no known kind: {other}"),
            Err(_) => failures.push(seed),
        }
    }
    let invalid: usize = by_field.values().sum();
    println!(
        "config fuzz: {CONFIG_CASES} configs: {loaded} loaded, {toml_errors} TOML errors, \
         {invalid} out of range {by_field:?}; slowest case {:.3} ms (seed {})",
        slowest.0 * 1e3,
        slowest.1
    );
    assert!(failures.is_empty(), "panics for seeds {failures:?}");
    assert_eq!(loaded + toml_errors + invalid, CONFIG_CASES);
    assert!(loaded > 0 && toml_errors > 0 && invalid > 0);
}
