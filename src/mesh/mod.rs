//! Levels made of triangles: a Wavefront OBJ or glTF 2.0 file to the convex brushes the rest
//! of the compiler takes (feature `mesh`).
//!
//! Takes a file's bytes (and, for a `.gltf` with external buffers, its folder) and the
//! [`MeshOptions`]; gives a `TriangleMesh` (`obj.rs`, `gltf.rs`: triangles in map units,
//! Z up, with a material name each), then (`clean.rs`) the triangles worth building from,
//! with degenerate, duplicate and non-finite ones dropped and counted and every edge used
//! once (a hole or an open surface) found, then (`solid_bsp.rs`) a solid-leaf BSP whose
//! splitting planes are the faces' own planes (Melax's construction: behind a face is
//! solid), its solid leaves as brushes clipped to the level's box, and (`slabs.rs`) each
//! open surface as thin two-sided slabs, a flat quad's two triangles as one; then (`volumes.rs`) the open cells inside sky and liquid volumes
//! as brushes of those contents. Guarantees: every error is a [`MeshError`], never a panic; work and
//! memory are bounded by [`MAX_MESH_TRIANGLES`] and the file's size; the brushes are ordinary
//! ones, so bevels, the tree and the compiled world are the compiler's own.

mod cell_brush;
mod cells;
mod clean;
mod gltf;
mod obj;
mod slabs;
mod solid_bsp;
mod volumes;

pub(crate) use clean::clean_triangles;
pub(crate) use cells::MaterialMeaning;
pub(crate) use solid_bsp::mesh_brushes;

use std::path::Path;

use glam::DVec3;

use crate::tolerance::{MAX_MAP_COORD, MESH_MIN_ALTITUDE};

/// Most triangles a mesh may hold, after triangulation: a bound on the compile's work and
/// memory (Quake's largest shipped levels draw about 20,000 triangles; a hundred times
/// that is still a level, not an accident).
pub const MAX_MESH_TRIANGLES: usize = 2_000_000;

/// Which way is up in a mesh file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MeshAxis {
    /// Z up, as Quake's map units (the default): coordinates are taken as they are.
    #[default]
    ZUp,
    /// Y up, glTF's convention (and many modellers' OBJ): `(x, y, z)` becomes `(x, −z, y)`,
    /// a rotation about X that keeps the handedness and the winding.
    YUp,
    /// Y up as bevy_trenchbroom and `planeshift_bevy` place a Quake map in Bevy's world:
    /// `(x, y, z)` becomes `(−z, −x, y)` (the inverse of their `(−y, z, −x)`), a rotation that
    /// keeps the handedness and the winding. A glTF scene a Bevy game renders, read this way
    /// (with the scale in units per metre), collides where it is drawn.
    YUpBevy,
}

/// A mesh axis name that is not `z`, `y` nor `y-bevy`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not z, y or y-bevy")]
pub struct UnknownMeshAxis(pub String);

impl std::str::FromStr for MeshAxis {
    type Err = UnknownMeshAxis;

    /// The axis a command line names: `z` ([`MeshAxis::ZUp`]), `y` ([`MeshAxis::YUp`]) or
    /// `y-bevy` ([`MeshAxis::YUpBevy`]), in any case.
    ///
    /// # Examples
    /// ```
    /// use planeshift::build::MeshAxis;
    /// assert_eq!("Y".parse::<MeshAxis>(), Ok(MeshAxis::YUp));
    /// assert!("x".parse::<MeshAxis>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<MeshAxis, UnknownMeshAxis> {
        match text.trim().to_ascii_lowercase().as_str() {
            "z" => Ok(MeshAxis::ZUp),
            "y" => Ok(MeshAxis::YUp),
            "y-bevy" => Ok(MeshAxis::YUpBevy),
            _ => Err(UnknownMeshAxis(text.to_owned())),
        }
    }
}

impl MeshAxis {
    /// `p` in map axes.
    fn to_map(self, p: DVec3) -> DVec3 {
        match self {
            MeshAxis::ZUp => p,
            MeshAxis::YUp => DVec3::new(p.x, -p.z, p.y),
            MeshAxis::YUpBevy => DVec3::new(-p.z, -p.x, p.y),
        }
    }
}

/// How a mesh file's coordinates become map units.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MeshOptions {
    /// Which way is up in the file.
    pub axis: MeshAxis,
    /// Map units per file unit (1 by default; about 32 or 40 for a file in metres,
    /// depending on the game's scale). Finite and positive.
    pub scale: f64,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions {
            axis: MeshAxis::ZUp,
            scale: 1.0,
        }
    }
}

impl MeshOptions {
    /// The options that read a file drawn with `axis` up, `scale` map units to its unit.
    ///
    /// # Examples
    /// ```
    /// use planeshift::build::{MeshAxis, MeshOptions};
    /// // A glTF from a modeller: Y up, in metres of 32 units.
    /// let options = MeshOptions::new(MeshAxis::YUp, 32.0);
    /// assert!(options.validate().is_ok());
    /// assert!(MeshOptions::new(MeshAxis::ZUp, 0.0).validate().is_err());
    /// ```
    #[must_use]
    pub fn new(axis: MeshAxis, scale: f64) -> MeshOptions {
        MeshOptions { axis, scale }
    }

    /// Checks the options as a mesh compile does before reading a file.
    ///
    /// # Errors
    /// [`MeshError::Scale`] when [`MeshOptions::scale`] is not finite and positive.
    pub fn validate(&self) -> Result<(), MeshError> {
        if self.scale.is_finite() && self.scale > 0.0 {
            Ok(())
        } else {
            Err(MeshError::Scale(self.scale.to_string()))
        }
    }

    /// `p`, read from the file, in map units and axes.
    pub(crate) fn map_point(&self, p: DVec3) -> DVec3 {
        self.axis.to_map(p) * self.scale
    }
}

/// Which kind of mesh file a compile read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MeshFormat {
    /// Wavefront OBJ text.
    Obj,
    /// glTF 2.0 JSON (`.gltf`).
    Gltf,
    /// glTF 2.0 binary (`.glb`).
    Glb,
}

impl MeshFormat {
    /// The name `bspc check --json` reports: `obj`, `gltf`, `glb`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            MeshFormat::Obj => "obj",
            MeshFormat::Gltf => "gltf",
            MeshFormat::Glb => "glb",
        }
    }

    /// The format of `bytes`: a binary glTF by its magic, a JSON glTF by its leading `{`,
    /// otherwise OBJ text.
    #[must_use]
    pub fn detect(bytes: &[u8]) -> MeshFormat {
        if bytes.starts_with(b"glTF") {
            return MeshFormat::Glb;
        }
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first == Some(&b'{') {
            MeshFormat::Gltf
        } else {
            MeshFormat::Obj
        }
    }
}

/// Why a mesh could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// The OBJ text is malformed (tobj's reason).
    #[error("OBJ: {0}")]
    Obj(String),
    /// The glTF document is malformed or invalid (the gltf crate's reason, or ours).
    #[error("glTF: {0}")]
    Gltf(String),
    /// A glTF buffer is missing, shorter than declared, or one an accessor reads past.
    #[error("glTF buffer {index}: {reason}")]
    Buffer {
        /// The buffer's index in the document.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// More than [`MAX_MESH_TRIANGLES`] triangles.
    #[error("more than {MAX_MESH_TRIANGLES} triangles")]
    TooManyTriangles,
    /// [`MeshOptions::scale`] is not finite and positive.
    #[error("mesh scale {0} is not a finite positive number")]
    Scale(String),
    /// Nothing to build from: the file holds no triangle that encloses solid.
    #[error("the mesh has no triangles")]
    Empty,
    /// Triangles were read, but none that encloses solid was left after cleaning: each was
    /// out of range, degenerate or a repeat (`mesh/clean.rs`). Every one out of range or
    /// every one degenerate usually means a wrong [`MeshOptions::scale`]: a file in metres
    /// or millimetres read as map units, or the scale applied twice.
    #[error("{}", all_dropped_message(*read, *out_of_range, *degenerate, *repeated))]
    AllDropped {
        /// Triangles read from the file.
        read: usize,
        /// Dropped for a corner not finite or beyond the world limit (±262,144 units).
        out_of_range: usize,
        /// Dropped for no altitude reaching 1/64 unit.
        degenerate: usize,
        /// Dropped as a repeat of an earlier triangle.
        repeated: usize,
    },
}

/// [`MeshError::AllDropped`]'s message: the counts, and the likely cause when the drops
/// are all of one kind (repeats aside).
fn all_dropped_message(read: usize, out_of_range: usize, degenerate: usize, repeated: usize) -> String {
    let hint = if out_of_range > 0 && degenerate == 0 {
        format!(
            "; each has a corner beyond ±{MAX_MAP_COORD} units or not finite: is the mesh scale \
             too large?"
        )
    } else if out_of_range == 0 && degenerate > repeated {
        format!(
            "; they are thinner than {MESH_MIN_ALTITUDE} units: is the mesh scale too small (a \
             file in metres wants a scale of about 32 units per metre)?"
        )
    } else {
        String::new()
    };
    let dropped = out_of_range + degenerate + repeated;
    format!(
        "no triangle that encloses solid is left: of {read} read, the {dropped} that enclose \
         solid were dropped ({out_of_range} not finite or out of range, {degenerate} \
         degenerate, {repeated} repeated){hint}"
    )
}

/// One triangle in map units, wound counter-clockwise seen from its front (the air side).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Triangle {
    /// Its corners.
    pub(crate) points: [DVec3; 3],
    /// Index into [`TriangleMesh::materials`].
    pub(crate) material: u32,
}

/// A mesh file's triangles, every transform applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TriangleMesh {
    /// The triangles in file order.
    pub(crate) triangles: Vec<Triangle>,
    /// Material names, each once, in the order first used.
    pub(crate) materials: Vec<String>,
    /// Primitives or faces skipped because they are not triangles (points, lines, a face
    /// with fewer than three corners).
    pub(crate) skipped: usize,
}

impl TriangleMesh {
    /// The index of material `name`, added when new.
    pub(crate) fn material(&mut self, name: &str) -> u32 {
        if let Some(i) = self.materials.iter().position(|m| m == name) {
            return i as u32;
        }
        self.materials.push(name.to_owned());
        (self.materials.len() - 1) as u32
    }

    /// Adds a triangle from file coordinates, failing past [`MAX_MESH_TRIANGLES`].
    pub(crate) fn push(
        &mut self,
        options: &MeshOptions,
        points: [DVec3; 3],
        material: u32,
    ) -> Result<(), MeshError> {
        if self.triangles.len() >= MAX_MESH_TRIANGLES {
            return Err(MeshError::TooManyTriangles);
        }
        self.triangles.push(Triangle {
            points: points.map(|p| options.map_point(p)),
            material,
        });
        Ok(())
    }
}

/// Reads a mesh file of any [`MeshFormat`] (by content): `folder` is where a `.gltf`'s
/// external buffers are looked for (`None`: only embedded ones are read).
pub(crate) fn read_mesh(
    bytes: &[u8],
    folder: Option<&Path>,
    options: &MeshOptions,
) -> Result<(MeshFormat, TriangleMesh), MeshError> {
    options.validate()?;
    let format = MeshFormat::detect(bytes);
    let mesh = match format {
        MeshFormat::Obj => obj::read_obj(bytes, options)?,
        MeshFormat::Gltf | MeshFormat::Glb => gltf::read_gltf(bytes, folder, options)?,
    };
    Ok((format, mesh))
}
