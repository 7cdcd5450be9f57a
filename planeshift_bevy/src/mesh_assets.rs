//! Levels from the triangle meshes a game renders: a glTF (`.glb`, `.gltf` with embedded
//! buffers) or OBJ file loaded as a [`LevelAsset`], through planeshift's mesh stage
//! (`build::compile_mesh`: a solid-leaf BSP over the faces' planes, bevelled brushes).
//!
//! Takes the file's bytes through Bevy's `AssetServer` and [`MeshLoaderSettings`] (how the
//! file's axes and units become map units, and the compile options); gives a [`LevelAsset`]
//! like any other level. Guarantees: by default a Y-up file in metres is read as the default
//! [`MapSpace`](crate::MapSpace) places a Quake map in Bevy (bevy_trenchbroom's axes, 39.37008
//! units a metre), so the collision lies where Bevy draws the same file; a bad file is a
//! load error, never a panic. Bevy's own glTF loader claims the same extensions: load the
//! level typed, `asset_server.load::<LevelAsset>("level.glb")`.

use std::sync::Arc;

use bevy_asset::io::Reader;
use bevy_asset::{AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use planeshift::build::{MeshAxis, MeshOptions, compile_mesh};
use serde::{Deserialize, Serialize};

use crate::assets::{LevelAsset, LevelLoadError, MapLoaderSettings};
use crate::space::QUAKE_UNITS_PER_METRE;

/// How a mesh file becomes a level.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MeshLoaderSettings {
    /// The file is Y up in Bevy's axes (true by default: glTF's convention, read as the
    /// default `MapSpace` reads Bevy's world); false reads it Z up in map axes, as the
    /// Quake levels exported from a `.bsp` are.
    pub y_up: bool,
    /// Map units per file unit: 39.37008 by default (a file in metres, as `MapSpace`'s
    /// default); 1 for a file already in map units.
    pub units_per_file_unit: f64,
    /// The compile options: game rules for the materials (liquids, triggers, clip).
    pub compile: MapLoaderSettings,
}

impl Default for MeshLoaderSettings {
    fn default() -> Self {
        MeshLoaderSettings {
            y_up: true,
            units_per_file_unit: f64::from(QUAKE_UNITS_PER_METRE),
            compile: MapLoaderSettings::default(),
        }
    }
}

/// Compiles `.glb`, `.gltf` (buffers embedded) and `.obj` files into levels on load.
#[derive(Default, TypePath)]
pub struct MeshLoader;

impl AssetLoader for MeshLoader {
    type Asset = LevelAsset;
    type Settings = MeshLoaderSettings;
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &MeshLoaderSettings,
        _: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let mut mesh = MeshOptions::default();
        mesh.axis = if settings.y_up {
            MeshAxis::YUpBevy
        } else {
            MeshAxis::ZUp
        };
        mesh.scale = settings.units_per_file_unit;
        let options = settings.compile.compile_options()?;
        let output = compile_mesh(&bytes, None, &mesh, &options)?;
        Ok(LevelAsset {
            diagnostics: output.diagnostics.len(),
            map: Arc::new(output.map),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["glb", "gltf", "obj"]
    }
}
