//! Seeded mutation fuzzing: 100,000 mutated real maps through the reader, the brush stage,
//! the whole compile and a sweep. None may panic; every error must point inside its input.

use std::panic::{AssertUnwindSafe, catch_unwind};

use planeshift::brush::brushes_from_map;
use planeshift::map::parse_map;

use crate::support::{Pcg32, bundled_maps, read, real_maps};

/// Mutated inputs in all.
const CASES: usize = 100_000;
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
    let threads = 2;
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (sources, starts) = (&sources, &starts);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    let mut errors = 0usize;
                    for case in (t..CASES).step_by(threads) {
                        let mut rng = Pcg32::new(case as u64);
                        let which = rng.below(sources.len());
                        let bytes = mutate(&mut rng, &sources[which], &starts[which]);
                        let outcome = catch_unwind(AssertUnwindSafe(|| match parse_map(&bytes) {
                            Ok(map) => {
                                let _ = brushes_from_map(&map);
                                // The whole compile (whose output must always validate), and a
                                // sweep through the result.
                                match planeshift::compile::compile_map(&bytes) {
                                    Ok(out) => {
                                        let sphere = planeshift::trace::TraceShape::sphere(16.0);
                                        if let Some(shape) = sphere {
                                            let _ = out.map.trace(
                                                &shape,
                                                glam::Vec3::splat(-64.0),
                                                glam::Vec3::splat(64.0),
                                                planeshift::contents::Contents::MASK_SOLID,
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
            errors > CASES / 10,
            "only {errors} of {CASES} cases failed to parse"
        );
        assert!(
            errors < CASES * 8 / 10,
            "{errors} of {CASES} cases failed: too few reach the brush stage"
        );
        println!("fuzz: {CASES} cases, {errors} syntax errors, all located inside their input");
        all
    });
    assert!(
        failures.is_empty(),
        "{} failures, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}
