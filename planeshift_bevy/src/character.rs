//! Characters as components: configuration, plain-data input, status and saved state.
//!
//! Takes what a game writes (a [`Character`] with its config, a [`CharacterInput`] each frame,
//! [`CharacterRequest`] messages); gives what it reads back after each fixed step
//! ([`CharacterStatus`], [`CharacterSnapshot`]). Guarantees: [`CharacterInput::to_move_input`]
//! is the one place a command becomes the library's `MoveInput`; a jump pressed for one
//! frame between fixed steps reaches exactly one step ([`crate::simulation`] latches it).

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::message::Message;
use glam::Vec3;
use planeshift::{
    Contents, ControllerConfig, MoveInput,
    movement::{CharacterState, GroundState},
};
use planeshift::{
    MoveCommand,
    movement::{Activity, MoveMode},
};

use crate::space::MapSpace;

/// A character the plugin moves: its controller's configuration and, optionally, where it
/// starts in map units (else its `Transform`, converted by the [`MapSpace`]).
#[derive(Component, Clone, Debug, Default)]
#[require(CharacterInput, CharacterStatus, bevy_transform::components::Transform)]
pub struct Character {
    /// The controller's configuration (shape, speeds, tick...).
    pub config: ControllerConfig,
    /// The start in map units, bit for bit (a replay, a saved game); `None` takes the
    /// entity's `Transform`.
    pub map_origin: Option<Vec3>,
}

impl Character {
    /// A character with `config`, starting at its `Transform`.
    #[must_use]
    pub fn new(config: ControllerConfig) -> Character {
        Character {
            config,
            map_origin: None,
        }
    }
}

/// What a player asks for, as plain data the game writes every frame: the shape of a
/// Quake 3 user command (view angles, forward/side/up moves, buttons), or a world wish for
/// scripted movement.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct CharacterInput {
    /// View angles in degrees: pitch (positive looks down), yaw (0 along the map's +x,
    /// counter-clockwise seen from above).
    pub view: [f32; 2],
    /// Forward, side (positive right) and up moves, each in [-1, 1].
    pub moves: Vec3,
    /// A wish direction in Bevy axes that replaces the moves when set (scripted movement).
    pub wish: Option<Vec3>,
    /// The jump button is down.
    pub jump: bool,
    /// The crouch button is down.
    pub crouch: bool,
}

impl CharacterInput {
    /// The library's input for one tick: the command from the view (turned into a wish
    /// inside the tick as Quake 3's `PM_CmdScale` and `AngleVectors` do: walking flattens
    /// the view, swimming, flying and ladders use it whole), or the scripted wish turned into
    /// map axes.
    #[must_use]
    pub fn to_move_input(&self, space: &MapSpace) -> MoveInput {
        let mut input = match self.wish {
            Some(w) => MoveInput {
                wish: space.dir_to_map(w),
                ..MoveInput::default()
            },
            None => MoveInput::from_command(MoveCommand {
                pitch: self.view[0],
                yaw: self.view[1],
                forward: self.moves.x,
                side: self.moves.y,
                up: self.moves.z,
            }),
        };
        input.jump = self.jump;
        input.crouch = self.crouch;
        input
    }
}

/// What the last fixed step left a character with, in Bevy units and axes.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CharacterStatus {
    /// Standing on walkable ground, on a steep slope, or in the air.
    pub ground: GroundState,
    /// The velocity, Bevy units per second.
    pub velocity: Vec3,
    /// 0 dry, 1 feet, 2 waist, 3 eyes.
    pub water_level: u8,
    /// Which move ran (walk, swim, ladder, noclip, fly...).
    pub activity: Activity,
    /// The mode a game set.
    pub mode: MoveMode,
    /// Crouched.
    pub crouched: bool,
    /// Stuck in solid with no free spot in reach.
    pub stuck: bool,
    /// Everything at the water level's sample points.
    pub contents: Contents,
    /// Fixed steps this character has taken.
    pub steps: u64,
}

impl Default for CharacterStatus {
    fn default() -> Self {
        CharacterStatus {
            ground: GroundState::Air,
            velocity: Vec3::ZERO,
            water_level: 0,
            activity: Activity::default(),
            mode: MoveMode::default(),
            crouched: false,
            stuck: false,
            contents: Contents(0),
            steps: 0,
        }
    }
}

/// The character's whole serialisable state, in map units, after the last fixed step: for
/// rollback and networking. Written by the plugin; to restore one, send
/// [`CharacterAction::Restore`].
#[derive(Component, Clone, Debug, PartialEq)]
pub struct CharacterSnapshot(pub CharacterState);

/// Something done to a character before the next fixed step.
#[derive(Clone, Debug, PartialEq)]
pub enum CharacterAction {
    /// Move to `to` with `velocity` (Bevy units; `None` keeps the velocity); the rendered
    /// transform snaps there.
    Teleport {
        /// Where, in Bevy units.
        to: Vec3,
        /// The velocity after, Bevy units per second; `None` keeps it.
        velocity: Option<Vec3>,
    },
    /// Add a velocity change (Bevy units per second), with a hold in seconds during which
    /// ground friction does not eat it (knockback).
    Push {
        /// The change of velocity.
        delta_v: Vec3,
        /// Seconds without ground friction.
        hold: f32,
    },
    /// A launch (jump pad): the velocity change, leaving the ground.
    Launch(Vec3),
    /// Change the movement mode.
    SetMode(MoveMode),
    /// Restore a saved state (map units); the rendered transform snaps there.
    Restore(Box<CharacterState>),
}

/// A [`CharacterAction`] for one character entity.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct CharacterRequest {
    /// The character.
    pub character: Entity,
    /// What to do.
    pub action: CharacterAction,
}
