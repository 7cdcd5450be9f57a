//! Levels as assets: `.map` compiled on load, `.bsp` imported (planeshift's importer), `.pbsp`
//! read as written by `bspc`.
//!
//! Takes a file's bytes through Bevy's `AssetServer`; gives a [`LevelAsset`] holding the
//! compiled world. Guarantees: a bad file is a load error ([`LevelLoadError`]), never a panic;
//! the `.map` loader's [`MapLoaderSettings`] carry the compile options a game may set
//! (game, shader folders, patch tolerance, outside fill, a custom game's TOML).

use std::path::PathBuf;
use std::sync::Arc;

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use planeshift::{
    CompileOptions, CompiledMap,
    build::{CustomGame, Game, compile_map_with},
};
use serde::{Deserialize, Serialize};

/// A compiled level, shared by the plugin and the game.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct LevelAsset {
    /// The collision world.
    pub map: Arc<CompiledMap>,
    /// How many diagnostics the compile gave (0 for a `.pbsp`).
    pub diagnostics: usize,
}

/// Why a level did not load.
#[derive(Debug, thiserror::Error)]
pub enum LevelLoadError {
    /// The file could not be read.
    #[error("reading the level: {0}")]
    Io(#[from] std::io::Error),
    /// The `.map` did not compile.
    #[error("compiling the map: {0}")]
    Compile(#[from] planeshift::CompileError),
    /// The `.pbsp` is not a valid compiled world.
    #[error("reading the compiled world: {0}")]
    Compiled(#[from] planeshift::LoadError),
    /// A setting names no game, or the custom game's rules do not parse.
    #[error("loader settings: {0}")]
    Settings(String),
}

/// The `.map` loader's settings: [`CompileOptions`] as plain data.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MapLoaderSettings {
    /// A game by name (`Game::from_name`: `"quake"`, `"quake2"`, `"quake3"`, `"halflife"`...);
    /// `None` detects it from the map.
    pub game: Option<String>,
    /// Folders of Quake 3 shader scripts, read for a Quake 3 map.
    pub shader_folders: Vec<PathBuf>,
    /// How far a patch's facets may lie from its surface, map units.
    pub patch_tolerance: f64,
    /// Fill the void around a sealed map as solid.
    pub fill_outside: bool,
    /// A custom game's rules as TOML text (`CustomGame::from_toml`), read when set; planeshift's
    /// `toml` feature must be on, else a load error says so.
    pub custom_game_toml: Option<String>,
}

impl Default for MapLoaderSettings {
    fn default() -> Self {
        let options = CompileOptions::default();
        MapLoaderSettings {
            game: None,
            shader_folders: Vec::new(),
            patch_tolerance: options.patch_tolerance,
            fill_outside: options.fill_outside,
            custom_game_toml: None,
        }
    }
}

impl MapLoaderSettings {
    /// The compile options these settings give.
    ///
    /// # Errors
    /// An unknown game name, or a custom game that does not parse.
    pub fn compile_options(&self) -> Result<CompileOptions, LevelLoadError> {
        let game = match &self.game {
            Some(name) => Some(
                Game::from_name(name)
                    .ok_or_else(|| LevelLoadError::Settings(format!("unknown game `{name}`")))?,
            ),
            None => None,
        };
        let custom_game = match &self.custom_game_toml {
            Some(text) => Some(custom_game(text)?),
            None => None,
        };
        Ok(CompileOptions {
            game,
            shader_folders: self.shader_folders.clone(),
            patch_tolerance: self.patch_tolerance,
            fill_outside: self.fill_outside,
            custom_game,
            ..CompileOptions::default()
        })
    }
}

/// A custom game from its TOML text.
fn custom_game(text: &str) -> Result<CustomGame, LevelLoadError> {
    #[cfg(feature = "toml")]
    {
        CustomGame::from_toml(text).map_err(|e| LevelLoadError::Settings(e.to_string()))
    }
    #[cfg(not(feature = "toml"))]
    {
        let _ = text;
        Err(LevelLoadError::Settings(
            "a custom game needs planeshift_bevy's `toml` feature".to_string(),
        ))
    }
}

/// Compiles `.map` files on load.
#[derive(Default, TypePath)]
pub struct MapLoader;

impl AssetLoader for MapLoader {
    type Asset = LevelAsset;
    type Settings = MapLoaderSettings;
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &MapLoaderSettings,
        _: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let options = settings.compile_options()?;
        let output = compile_map_with(&bytes, &options)?;
        Ok(LevelAsset {
            diagnostics: output.diagnostics.len(),
            map: Arc::new(output.map),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["map"]
    }
}

/// Reads `.pbsp` files (written by `bspc compile` or `CompiledMap::to_bytes`).
#[derive(Default, TypePath)]
pub struct PbspLoader;

impl AssetLoader for PbspLoader {
    type Asset = LevelAsset;
    type Settings = ();
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _: &(),
        _: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        Ok(LevelAsset {
            map: Arc::new(CompiledMap::from_bytes(&bytes)?),
            diagnostics: 0,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["pbsp"]
    }
}

/// Imports compiled `.bsp` files (the games planeshift's importer reads), with the `.map`
/// loader's settings.
#[derive(Default, TypePath)]
pub struct BspLoader;

impl AssetLoader for BspLoader {
    type Asset = LevelAsset;
    type Settings = MapLoaderSettings;
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &MapLoaderSettings,
        _: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let options = settings.compile_options()?;
        let output = planeshift::build::import_bsp(&bytes, &options)?;
        Ok(LevelAsset {
            diagnostics: output.diagnostics.len(),
            map: Arc::new(output.map),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["bsp"]
    }
}
