//! The material table of a compiled world: each texture name once, and what a side's
//! surface is made of.
//!
//! Takes the validated material and side tables; gives [`MaterialId`]s and their names, and
//! for the sweeps' results the surface flags and material of the side hit and the model
//! holding the brush hit. Guarantees: validation has
//! checked that every side's material is in the table and that every name is at most
//! `MAX_ENTITY_STRING` bytes (`src/tolerance.rs`), so no look-up goes out of bounds.

use serde::{Deserialize, Serialize};

use super::CompiledMap;
use crate::surface::SurfaceFlags;

/// A material (a texture or shader name) of a compiled world, as a sweep reports it
/// ([`Trace::material`](crate::Trace::material)); its name is [`CompiledMap::material_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MaterialId(pub u32);

impl CompiledMap {
    /// The name of material `id` as the map wrote it (`common/clip`, `*water1`), or `None`
    /// for an id of another world.
    ///
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{Contents, TraceShape, compile_map};
    /// let world = compile_map(&std::fs::read("maps/arena.map")?)?.map;
    /// let down = world.trace(&TraceShape::point(), Vec3::new(1024.0, 1024.0, 64.0), Vec3::new(1024.0, 1024.0, -64.0), Contents::MASK_ANY_BLOCKING);
    /// let floor = down.material.and_then(|m| world.material_name(m));
    /// assert!(floor.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn material_name(&self, id: MaterialId) -> Option<&str> {
        self.data.materials.get(id.0 as usize).map(String::as_str)
    }

    /// Every material name, indexed by [`MaterialId`].
    #[must_use]
    pub fn materials(&self) -> &[String] {
        &self.data.materials
    }

    /// The surface flags and material of the side of brush `brush` on plane `plane` (faces
    /// before bevels, so a face wins over a bevel on the same plane; the first face for a
    /// plane that is none of its sides'); `None` for an unknown brush or one without sides
    /// (validation allows neither).
    pub(crate) fn hit_surface(&self, brush: u32, plane: u32) -> Option<(SurfaceFlags, MaterialId)> {
        let brush = self.data.brushes.get(brush as usize)?;
        let sides = self.brush_sides(brush);
        sides
            .iter()
            .find(|s| s.plane == plane)
            .or_else(|| sides.first())
            .map(|s| (s.surface, MaterialId(s.material)))
    }

    /// The model holding brush `brush`, among the world and its static models (the models
    /// a world sweep walks); 0 when none does.
    pub(crate) fn world_model_of(&self, brush: u32) -> usize {
        let holds = |m: usize| {
            self.data
                .models
                .get(m)
                .is_some_and(|model| model.brush_range().contains(&(brush as usize)))
        };
        self.static_models()
            .iter()
            .map(|&(m, _)| m as usize)
            .find(|&m| holds(m))
            .unwrap_or(0)
    }
}
