//! OBJ text rewritten as another tool would have written it, for the tests that read a
//! level drawn Y up in metres (`--mesh-up y --mesh-scale`, `PsMeshOptions`).
//!
//! Takes an OBJ's text in map units, Z up; gives the same text with every vertex line
//! (`v x y z`) turned Y up and scaled, the other lines as they were. Guarantees: the turn
//! is `MeshAxis::YUp`'s inverse (map `(x, y, z)` is file `(x, z, −y)`), so reading the
//! result Y up with the same scale gives back the coordinates exactly whenever dividing by
//! the scale is exact (a power of two, such as 32).

/// `text` (map units, Z up) as a file drawn Y up in units of `units_per_file_unit` map
/// units. A vertex line whose coordinates do not parse is kept as it was.
#[must_use]
pub fn obj_y_up_scaled(text: &str, units_per_file_unit: f64) -> String {
    text.lines()
        .map(|line| {
            let parsed: Option<Vec<f64>> = line
                .strip_prefix("v ")
                .map(|rest| {
                    rest.split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                })
                .and_then(Result::ok);
            match parsed.as_deref() {
                Some([x, y, z, ..]) => {
                    let s = units_per_file_unit;
                    format!("v {} {} {}\n", x / s, z / s, -y / s)
                }
                _ => format!("{line}\n"),
            }
        })
        .collect()
}
