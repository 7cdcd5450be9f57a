//! A Quake 3 level's curved patches as the game collides with them, kept in the compiled
//! level: [`GamePatches`] (stored) and [`GameCollide`] (derived at load).
//!
//! Takes the world model's patches of an imported Quake 3 `.bsp` (each its control grid as
//! the file stores it, f32, and its shader's contents, surface flags and name); gives, at
//! load, each patch's collision as the game makes it (`patch::quake3`, ioquake3 `cm_patch.c
//! CM_GeneratePatchCollide`), which the query option
//! [`ShapeQuery::with_game_patches`](crate::movement::ShapeQuery::with_game_patches) traces
//! in place of planeshift's facet brushes. Guarantees after [`GamePatches::collides`]: every
//! grid has odd sizes of 3 to [`MAX_GRID_SIZE`](crate::patch::quake3::MAX_GRID_SIZE) with
//! a point for each, every point finite and within the map limit, and its collision within
//! the game's caps; a file breaking any of it is refused with a [`LoadError`] (the importer
//! stores only patches that pass). Work at load is bounded by the caps, per patch.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::MaterialId;
use super::validate::LoadError;
use crate::contents::Contents;
use crate::patch::quake3::{PatchCollide, patch_collide};
use crate::surface::SurfaceFlags;

/// One patch of the world model as the `.bsp` stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamePatch {
    /// Control points per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `points[j * width + i]`: column `i`, row `j`.
    pub points: Vec<Vec3>,
    /// Its shader's contents, in planeshift's bits (what the query's mask is tested with).
    pub contents: Contents,
    /// Its shader's surface flags.
    pub surface: SurfaceFlags,
    /// Its shader's name (the material a hit reports, when the level's table holds it).
    pub texture: String,
}

/// Every patch of the world model of a Quake 3 level, in the file's surface order; empty
/// for other levels (a query asking for the game's patches then meets planeshift's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GamePatches {
    /// The patches.
    pub patches: Vec<GamePatch>,
}

/// One patch's collision, ready for sweeps.
#[derive(Clone, Debug)]
pub(crate) struct GameCollide {
    pub collide: PatchCollide,
    pub contents: Contents,
    pub surface: SurfaceFlags,
    pub material: Option<MaterialId>,
}

impl GamePatches {
    /// Each patch's collision (see the module doc), materials looked up in `materials`.
    ///
    /// # Errors
    /// [`LoadError::BadValue`] naming the first patch that breaks the guarantees.
    pub(crate) fn collides(&self, materials: &[String]) -> Result<Vec<GameCollide>, LoadError> {
        let mut out = Vec::with_capacity(self.patches.len());
        for (index, patch) in self.patches.iter().enumerate() {
            let collide = patch_collide(patch.width as usize, patch.height as usize, &patch.points)
                .map_err(|_| LoadError::BadValue {
                    table: "game_patches",
                    index,
                    reason: "not a patch Quake 3 collides with (size, points or caps)",
                })?;
            let material = materials
                .iter()
                .position(|m| *m == patch.texture)
                .and_then(|i| u32::try_from(i).ok())
                .map(MaterialId);
            out.push(GameCollide {
                collide,
                contents: patch.contents,
                surface: patch.surface,
                material,
            });
        }
        Ok(out)
    }
}
