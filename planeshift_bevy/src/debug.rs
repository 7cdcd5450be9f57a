//! Debug drawing (feature `debug`): character shapes, touch normals and trigger bounds as
//! gizmos.
//!
//! Takes the [`Simulation`]'s crowd and level and the [`MapSpace`]; gives lines drawn each
//! frame in `PostUpdate`, after transforms propagate (drawn earlier they are one frame stale).
//! Guarantees: it only reads; nothing it draws changes the simulation.

use bevy_app::{App, Plugin, PostUpdate};
use bevy_color::Color;
use bevy_ecs::prelude::*;
use bevy_gizmos::prelude::Gizmos;
use bevy_transform::TransformSystems;
use glam::Vec3;
use planeshift::level::ModelKind;

use crate::simulation::Simulation;
use crate::space::MapSpace;

/// Draws the crowd's shapes, their last touches and the level's trigger bounds.
pub struct PlaneshiftDebugPlugin;

impl Plugin for PlaneshiftDebugPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PostUpdate, draw.after(TransformSystems::Propagate));
    }
}

/// A box given by two map-space corners, as its twelve edges in Bevy space.
fn draw_box(gizmos: &mut Gizmos, space: &MapSpace, mins: Vec3, maxs: Vec3, color: Color) {
    let corner = |i: u32| {
        space.to_bevy(Vec3::new(
            if i & 1 == 0 { mins.x } else { maxs.x },
            if i & 2 == 0 { mins.y } else { maxs.y },
            if i & 4 == 0 { mins.z } else { maxs.z },
        ))
    };
    for i in 0..8u32 {
        for bit in [1u32, 2, 4] {
            if i & bit == 0 {
                gizmos.line(corner(i), corner(i | bit), color);
            }
        }
    }
}

fn draw(sim: Res<Simulation>, space: Res<MapSpace>, mut gizmos: Gizmos) {
    if let Some(map) = sim.map() {
        for model in map.models().iter().filter(|m| m.kind == ModelKind::Trigger) {
            draw_box(
                &mut gizmos,
                &space,
                model.mins,
                model.maxs,
                Color::srgb(1.0, 0.5, 0.0),
            );
        }
    }
    let Some(crowd) = sim.crowd() else {
        return;
    };
    for (_, c, outcome) in crowd.iter() {
        let (mins, maxs) = c.shape().bounds();
        let center = c.shape_center();
        draw_box(
            &mut gizmos,
            &space,
            center + mins,
            center + maxs,
            Color::srgb(0.2, 0.9, 0.2),
        );
        let at = space.to_bevy(center);
        for touch in outcome.tick.touches.as_slice() {
            let tip = at + space.dir_to_bevy(touch.normal) * space.length_to_bevy(16.0);
            gizmos.line(at, tip, Color::srgb(0.9, 0.1, 0.1));
        }
    }
}
