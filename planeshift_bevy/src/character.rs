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
use bevy_transform::components::Transform;
use planeshift::level::SpawnPoint;

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

    /// A player at a level's spawn point, as the game spawns one: at the spawn's
    /// [`player_origin`](planeshift::level::SpawnPoint::player_origin) (the entity's origin
    /// raised by the game's lift), looking along its yaw, level. Gives the character, its
    /// input with that view, and a `Transform` there turned to face it (`space` converts).
    ///
    /// ```
    /// use planeshift_bevy::prelude::*;
    /// let src = br#"{ "classname" "worldspawn" }
    /// { "classname" "info_player_start" "origin" "0 0 24" "angle" "90" }"#;
    /// let map = planeshift::compile_map(src)?.map;
    /// let start = map.level_start().expect("a start");
    /// let (character, input, transform) =
    ///     Character::at_spawn(ControllerConfig::default(), &start, &MapSpace::QUAKE);
    /// assert_eq!(character.map_origin, Some(Vec3::new(0.0, 0.0, 25.0)));
    /// assert_eq!(input.view, [0.0, 90.0]);
    /// assert!((transform.forward().as_vec3() - Vec3::Y).length() < 1e-6); // yaw 90: map +y
    /// # Ok::<(), planeshift::CompileError>(())
    /// ```
    #[must_use]
    pub fn at_spawn(
        config: ControllerConfig,
        spawn: &SpawnPoint<'_>,
        space: &MapSpace,
    ) -> (Character, CharacterInput, Transform) {
        let character = Character {
            config,
            map_origin: Some(spawn.player_origin),
        };
        let input = CharacterInput {
            view: spawn.view(),
            ..CharacterInput::default()
        };
        let transform = Transform::from_translation(space.to_bevy(spawn.player_origin))
            .with_rotation(space.facing(spawn.yaw));
        (character, input, transform)
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

    /// The view `[pitch, yaw]` in degrees this input looks along: its command's, or, for a
    /// scripted wish, the wish's direction in map axes (level when it has no horizontal part).
    #[must_use]
    pub fn view_angles(&self, space: &MapSpace) -> [f32; 2] {
        match self.wish {
            None => self.view,
            Some(w) => {
                let w = space.dir_to_map(w);
                if w.x == 0.0 && w.y == 0.0 {
                    self.view
                } else {
                    [0.0, w.y.atan2(w.x).to_degrees()]
                }
            }
        }
    }
}

/// What the last fixed step left a character with, in Bevy units and axes.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CharacterStatus {
    /// The origin: the point the shape is placed by,
    /// [`ControllerConfig::feet_to_origin`] above the feet (the same point as
    /// [`FixedPositions::current`](crate::FixedPositions)).
    pub position: Vec3,
    /// The eye ([`CharacterController::eye_position`](planeshift::CharacterController::eye_position)):
    /// where a shot starts and a camera sits.
    pub eye: Vec3,
    /// The view `[pitch, yaw]` in degrees the last step moved by
    /// ([`CharacterInput::view_angles`]).
    pub view: [f32; 2],
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
            position: Vec3::ZERO,
            eye: Vec3::ZERO,
            view: [0.0, 0.0],
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
