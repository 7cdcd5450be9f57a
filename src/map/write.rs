//! Prints a [`MapFile`] back as `.map` text.
//!
//! Takes a [`MapFile`], gives text in the dialect each face was read in. Guarantees: reading
//! the output gives the same editor header, entities, key/values, textures and numbers bit
//! for bit, because every f64 is printed in Rust's shortest round-trip form.

use std::fmt::Write as _;

use super::syntax::{
    BrushSyntax, FaceExtension, MapBrush, MapFace, MapFile, MapPatch, TextureMapping,
};

/// Prints `map` as `.map` text that [`super::parse_map`] reads back to an equal `MapFile`
/// (source locations aside).
#[must_use]
///
/// The editor header comes first, as TrenchBroom writes it (`// Game: NAME`, then
/// `// Format: NAME`), each value up to its first line break.
pub fn write_map(map: &MapFile) -> String {
    let mut out = String::new();
    for (key, value) in [("Game", &map.editor_game), ("Format", &map.editor_format)] {
        if let Some(value) = value {
            let line = value.lines().next().unwrap_or("");
            let _ = writeln!(out, "// {key}: {line}");
        }
    }
    for (index, entity) in map.entities.iter().enumerate() {
        let _ = writeln!(out, "// entity {index}\n{{");
        for (key, value) in &entity.properties {
            let _ = writeln!(out, "{} {}", quote(key), quote(value));
        }
        for brush in &entity.brushes {
            write_brush(&mut out, brush);
        }
        for patch in &entity.patches {
            write_patch(&mut out, patch);
        }
        out.push_str("}\n");
    }
    for brush in &map.loose_brushes {
        write_brush(&mut out, brush);
    }
    out
}

fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\\\""))
}

/// A texture name as a bare word when it reads back as one, else quoted.
fn texture(name: &str) -> String {
    let bare = !name.is_empty()
        && !name.starts_with('"')
        && !name.starts_with("//")
        && !name.starts_with(';')
        && !name.starts_with('[')
        && !name.chars().any(char::is_whitespace);
    if bare { name.to_owned() } else { quote(name) }
}

fn write_brush(out: &mut String, brush: &MapBrush) {
    out.push_str("{\n");
    let primitive = brush.syntax == BrushSyntax::BrushDef;
    if primitive {
        out.push_str("brushDef\n{\n");
    }
    for face in &brush.faces {
        write_face(out, face);
    }
    if primitive {
        out.push_str("}\n");
    }
    out.push_str("}\n");
}

fn write_face(out: &mut String, face: &MapFace) {
    for p in &face.points {
        let _ = write!(out, "( {} {} {} ) ", p.x, p.y, p.z);
    }
    match &face.mapping {
        TextureMapping::Standard {
            offset,
            rotation,
            scale,
        } => {
            let _ = write!(
                out,
                "{} {} {} {} {} {}",
                texture(&face.texture),
                offset[0],
                offset[1],
                rotation,
                scale[0],
                scale[1]
            );
        }
        TextureMapping::Valve220 {
            u,
            v,
            rotation,
            scale,
        } => {
            let _ = write!(
                out,
                "{} [ {} {} {} {} ] [ {} {} {} {} ] {} {} {}",
                texture(&face.texture),
                u[0],
                u[1],
                u[2],
                u[3],
                v[0],
                v[1],
                v[2],
                v[3],
                rotation,
                scale[0],
                scale[1]
            );
        }
        TextureMapping::BrushPrimitive { matrix } => {
            let [a, b] = matrix;
            let _ = write!(
                out,
                "( ( {} {} {} ) ( {} {} {} ) ) {}",
                a[0],
                a[1],
                a[2],
                b[0],
                b[1],
                b[2],
                texture(&face.texture)
            );
        }
    }
    match face.extension {
        FaceExtension::None => {}
        FaceExtension::Hexen2(value) => {
            let _ = write!(out, " {value}");
        }
        FaceExtension::Quake2(t) => {
            let _ = write!(out, " {} {} {}", t.contents, t.flags, t.value);
        }
        FaceExtension::Daikatana(t, [r, g, b]) => {
            let _ = write!(out, " {} {} {} {r} {g} {b}", t.contents, t.flags, t.value);
        }
    }
    out.push('\n');
}

fn write_patch(out: &mut String, patch: &MapPatch) {
    let _ = writeln!(out, "{{\n{}\n{{\n{}", patch.kind, texture(&patch.texture));
    let _ = writeln!(out, "( {} )", join(&patch.header));
    out.push_str("(\n");
    for row in &patch.rows {
        out.push('(');
        for control in row {
            let _ = write!(out, " ( {} )", join(control));
        }
        out.push_str(" )\n");
    }
    out.push_str(")\n}\n}\n");
}

fn join(values: &[f64]) -> String {
    values
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
