//! A Quake 3 brush's contents from its sides' shaders, as q3map2 computes them.
//!
//! Takes a brush's sides in file order ([`Q3Side`]: the side's shader flags and the detail bit
//! of its face triple); gives [`Q3BrushContents`]: the side whose shader decides the
//! brush's run-time contents, those contents, and the compile-side OR over sides with the
//! detail and opaque decisions. Guarantees: the rules of q3map2's `SetBrushContents`
//! (`map.cpp`), side for side:
//!
//! 1. Run time: the content shader starts as the first side's; walking the others, a liquid
//!    side replaces it unless it is already liquid; else a fog side (unless already fog);
//!    else a player clip side (unless already player clip); else a side without `C_SOLID`
//!    replaces a `C_SOLID` one. Only that shader's contents reach the `.bsp`
//!    (`dbrush_t.shaderNum`), so one non-solid face makes a solid brush non-solid.
//! 2. Compile side: contents and compile flags ORed over sides; structural anywhere wins
//!    over detail; translucent and not structural makes detail; opaque when no side is
//!    translucent.
//!
//! The face triple's detail bit (`contents::DETAIL`, 134217728) is the only triple bit
//! Quake 3 reads (`map.cpp` `ParseRawBrush`); it marks the side `C_DETAIL` and never changes
//! the run-time contents. Surface flags stay per side: a side's are its shader's.

use super::q3_flags::{ShaderFlags, compile, contents};

/// One brush side for q3map2's rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Q3Side {
    /// The side's shader flags (from a [`super::ShaderSet`]).
    pub shader: ShaderFlags,
    /// Whether the face triple's first value has the detail bit (`C_DETAIL`).
    pub detail_bit: bool,
}

impl Q3Side {
    /// A side with its shader's flags and no detail bit.
    pub fn new(shader: ShaderFlags) -> Self {
        Q3Side {
            shader,
            detail_bit: false,
        }
    }

    /// A side with the detail bit read from the first value of the face triple (`content`
    /// in a Quake 2-style face, the flags word q3map2 reads); the other bits are ignored.
    pub fn with_face_contents(shader: ShaderFlags, face_contents: u32) -> Self {
        Q3Side {
            shader,
            detail_bit: face_contents & contents::DETAIL != 0,
        }
    }

    /// The side's compile flags: its shader's, plus `C_DETAIL` from the face triple.
    pub fn compile_flags(&self) -> u32 {
        if self.detail_bit {
            self.shader.compile | compile::DETAIL
        } else {
            self.shader.compile
        }
    }
}

/// What q3map2 makes of a brush's sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Q3BrushContents {
    /// Index of the side whose shader is the brush's content shader.
    pub content_side: usize,
    /// The run-time contents: the content shader's content bits (what the engine sees).
    pub contents: u32,
    /// The content bits ORed over every side (compile side only).
    pub contents_or: u32,
    /// The compile flags ORed over every side, after the detail/structural decisions.
    pub compile: u32,
    /// Detail brush (does not seal or split the vis tree).
    pub detail: bool,
    /// Opaque (no side translucent).
    pub opaque: bool,
}

/// Applies q3map2's `SetBrushContents` to a brush's sides (see the module doc); `None` for a
/// brush without sides.
pub fn q3_brush_contents(sides: &[Q3Side]) -> Option<Q3BrushContents> {
    let (first, rest) = sides.split_first()?;
    let mut content = 0usize;
    let mut contents_or = first.shader.contents;
    let mut compile_or = first.compile_flags();
    for (offset, side) in rest.iter().enumerate() {
        let index = offset + 1;
        contents_or |= side.shader.contents;
        compile_or |= side.compile_flags();
        let current = sides.get(content).map_or(first.shader, |s| s.shader);
        let s = side.shader;
        let replace = if current.is_liquid() {
            false
        } else if s.is_liquid() {
            true
        } else if current.is_fog() {
            false
        } else if s.is_fog() {
            true
        } else if current.is_playerclip() {
            false
        } else if s.is_playerclip() {
            true
        } else {
            current.is_compile_solid() && !s.is_compile_solid()
        };
        if replace {
            content = index;
        }
    }
    if compile_or & compile::DETAIL != 0 && compile_or & compile::STRUCTURAL != 0 {
        // "Mixed detail and structural (defaulting to structural)".
        compile_or &= !compile::DETAIL;
    }
    if compile_or & compile::TRANSLUCENT != 0 && compile_or & compile::STRUCTURAL == 0 {
        compile_or |= compile::DETAIL;
    }
    let contents = sides.get(content).map_or(0, |s| s.shader.contents);
    Some(Q3BrushContents {
        content_side: content,
        contents,
        contents_or,
        compile: compile_or,
        detail: compile_or & compile::DETAIL != 0,
        opaque: compile_or & compile::TRANSLUCENT == 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ShaderSet;

    fn brush(set: &ShaderSet, textures: &[&str]) -> Option<Q3BrushContents> {
        let sides: Vec<Q3Side> = textures
            .iter()
            .map(|t| Q3Side::new(set.texture_flags(t)))
            .collect();
        q3_brush_contents(&sides)
    }

    #[test]
    fn no_sides_no_brush() {
        assert_eq!(q3_brush_contents(&[]), None);
    }

    #[test]
    fn plain_solid_brush_is_structural_and_opaque() {
        let set = ShaderSet::new();
        let b = brush(&set, &["base/wall"; 6]);
        assert_eq!(b.map(|b| (b.contents, b.detail, b.opaque)), Some((contents::SOLID, false, true)));
    }

    #[test]
    fn the_face_triple_sets_detail_only() {
        let flags = ShaderFlags::DEFAULT;
        let sides = [Q3Side::with_face_contents(flags, 134_217_728), Q3Side::new(flags)];
        let b = q3_brush_contents(&sides);
        assert_eq!(b.map(|b| (b.contents, b.detail)), Some((contents::SOLID, true)));
        let sides = [Q3Side::with_face_contents(flags, contents::WATER), Q3Side::new(flags)];
        assert_eq!(q3_brush_contents(&sides).map(|b| b.contents), Some(contents::SOLID));
    }

    #[test]
    fn playerclip_beats_nonsolid_and_fog_beats_playerclip() {
        let set = ShaderSet::new();
        let b = brush(&set, &["common/nodrawnonsolid", "common/full_clip", "base/wall"]);
        assert_eq!(b.map(|b| (b.content_side, b.contents)), Some((1, contents::PLAYERCLIP)));
        let mut fog = ShaderSet::new();
        assert!(fog.add_script("f", b"textures/f/fog\n{\nsurfaceparm fog\n}\n").is_ok());
        let b = brush(&fog, &["common/full_clip", "f/fog", "common/watercaulk"]);
        assert_eq!(b.map(|b| (b.content_side, b.contents)), Some((2, contents::WATER)));
        let b = brush(&fog, &["common/full_clip", "f/fog", "common/nodraw"]);
        assert_eq!(b.map(|b| (b.content_side, b.contents)), Some((1, contents::FOG)));
    }
}
