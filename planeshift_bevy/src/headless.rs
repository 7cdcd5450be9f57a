//! A headless app for servers, tools and tests: no window, no renderer, levels from memory.
//!
//! Takes level files as bytes and the plugin's settings; gives an `App` with the task pool,
//! time, transform and asset plugins, an in-memory asset source holding the files, and
//! [`PlaneshiftPlugin`], with time advanced by hand one fixed step per `update()`.
//! Guarantees: [`headless_app`] runs no clock: each `update()` after the first advances time
//! by exactly the plugin's tick (whole nanoseconds), so each runs exactly one fixed step.

use std::path::Path;
use std::time::Duration;

use bevy_app::{App, TaskPoolPlugin};
use bevy_asset::io::memory::{Dir, MemoryAssetReader};
use bevy_asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy_asset::{AssetApp, AssetMetaCheck, AssetPlugin, AssetServer, Handle, LoadState};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;

use crate::{LevelAsset, PlaneshiftPlugin};

/// The most `update()`s [`load_level`] waits for a level before it gives up.
pub const MAX_LOAD_UPDATES: usize = 10_000;

/// An app with the headless plugins, `files` (path, bytes) in an in-memory asset source, and
/// `plugin`; time steps by the plugin's tick per `update()`.
///
/// Drive it by calling `app.update()` once per fixed step: it has no runner, so `app.run()`
/// runs a single update and returns (Bevy's default runner without a window or a schedule
/// runner plugin). The first `update()` only starts the clock; [`load_level`] runs updates
/// until its level has loaded.
pub fn headless_app(files: &[(&str, &[u8])], plugin: PlaneshiftPlugin) -> App {
    let dir = Dir::default();
    for (path, bytes) in files {
        dir.insert_asset(Path::new(path), bytes.to_vec());
    }
    let step = Duration::from_nanos((f64::from(plugin.tick_seconds) * 1e9).round() as u64);
    let mut app = App::new();
    app.register_asset_source(
        AssetSourceId::Default,
        AssetSourceBuilder::new(move || Box::new(MemoryAssetReader { root: dir.clone() })),
    )
    .add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        AssetPlugin {
            watch_for_changes_override: Some(false),
            use_asset_processor_override: Some(false),
            meta_check: AssetMetaCheck::Never,
            ..AssetPlugin::default()
        },
        plugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(step));
    app
}

/// Loads `path` as a level and runs `update()` until it has loaded or failed.
///
/// # Errors
/// The load error's text, or a timeout after [`MAX_LOAD_UPDATES`] updates.
pub fn load_level(app: &mut App, path: &str) -> Result<Handle<LevelAsset>, String> {
    let handle: Handle<LevelAsset> = app.world().resource::<AssetServer>().load(path.to_string());
    for _ in 0..MAX_LOAD_UPDATES {
        app.update();
        match app.world().resource::<AssetServer>().load_state(&handle) {
            LoadState::Loaded => return Ok(handle),
            LoadState::Failed(e) => return Err(e.to_string()),
            _ => {}
        }
    }
    Err(format!(
        "`{path}` did not load in {MAX_LOAD_UPDATES} updates"
    ))
}
