//! Code shared by the viewer examples (`trace_visualizer` and `fps_walk`, the walk-around that
//! was `fps_movement`'s interactive mode): loading a world and its spawn point, and the window.
//!
//! Takes a path to a `.map`, a compiled `.bsp` (any format `compile_level` reads, told
//! apart by content), a mesh (`.obj`, `.gltf`, `.glb`, by extension) or a `.pbsp`; gives a validated world and the first
//! `info_player_start` origin. Failures are [`Failure`]s with the exit status the examples
//! document (1 bad input, 2 I/O, usage or no display), never panics.

#![allow(dead_code)]

#[cfg(feature = "window")]
pub mod app;

use std::path::Path;

use glam::Vec3;
use planeshift::build::{MeshOptions, compile_level_at, is_mesh_path};
use planeshift::{CompileError, CompileOptions};
use planeshift::{CompiledMap, level::MAGIC};

/// A failure that ends an example, with its exit status.
#[derive(Debug)]
pub struct Failure {
    /// What to print on standard error.
    pub message: String,
    /// The exit status: 1 bad input, 2 I/O, usage, or no window.
    pub status: u8,
}

impl Failure {
    /// A failure with status 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 2,
        }
    }
}

/// A loaded world and where a player starts in it, if the file says.
pub struct LoadedWorld {
    /// The validated world.
    pub world: CompiledMap,
    /// The first `info_player_start` origin.
    pub spawn: Option<Vec3>,
}

/// Reads `path`: a compiled world when it starts with the compiled magic, else a `.map`, a
/// `.bsp` or a mesh (by its extension, read with `mesh`) compiled in memory
/// (`compile_level_at`).
pub fn load_world(path: &Path, mesh: &MeshOptions) -> Result<LoadedWorld, Failure> {
    load_world_with(path, &CompileOptions::default(), mesh)
}

/// [`load_world`], a `.map` compiled with `options` (its game, shader folders), a mesh read
/// with `mesh` (its axis and scale).
pub fn load_world_with(
    path: &Path,
    options: &CompileOptions,
    mesh: &MeshOptions,
) -> Result<LoadedWorld, Failure> {
    if *mesh != MeshOptions::default() && !is_mesh_path(path) {
        eprintln!(
            "{}: warning: --mesh-up and --mesh-scale apply to meshes (.obj, .gltf, .glb) only; \
             ignored",
            path.display()
        );
    }
    let bytes = std::fs::read(path).map_err(|e| Failure {
        message: format!("{}: error: {e}", path.display()),
        status: 2,
    })?;
    if bytes.starts_with(&MAGIC) {
        let world = CompiledMap::from_bytes(&bytes).map_err(|e| Failure {
            message: format!("{}: error: {e}", path.display()),
            status: 1,
        })?;
        let spawn = first_start(&world);
        return Ok(LoadedWorld { world, spawn });
    }
    let world = match compile_level_at(&bytes, path, mesh, options) {
        Ok(output) => output.map,
        Err(CompileError::Parse(e)) => {
            return Err(Failure {
                message: format!("{}:{}: error: {}", path.display(), e.loc, e.kind),
                status: 1,
            });
        }
        Err(e) => {
            return Err(Failure {
                message: format!("{}: error: {e}", path.display()),
                status: 1,
            });
        }
    };
    let spawn = first_start(&world);
    Ok(LoadedWorld { world, spawn })
}

/// The origin of the world's first `info_player_start` (a `.pbsp` keeps every entity).
fn first_start(world: &CompiledMap) -> Option<Vec3> {
    world
        .find_entities("info_player_start")
        .find_map(|e| e.origin())
}

/// The character as the viewer draws it: shape footprint at the shape's centre, no trail.
pub fn character_overlay(
    controller: &planeshift::CharacterController,
) -> planeshift_viewer::CharacterOverlay {
    planeshift_viewer::CharacterOverlay {
        position: controller.shape_center(),
        velocity: controller.velocity(),
        footprint: Some(planeshift_viewer::Footprint::of(controller.shape())),
        ..planeshift_viewer::CharacterOverlay::default()
    }
}

/// The middle of the world model's bounds.
pub fn world_center(world: &CompiledMap) -> Vec3 {
    world
        .models()
        .first()
        .map_or(Vec3::ZERO, |m| (m.mins + m.maxs) * 0.5)
}
