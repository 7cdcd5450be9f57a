"""The C ABI's types and functions as ctypes declares them, and the library's loading.

Takes the shared library (``$PLANESHIFT_LIB``, else the repository's ``target/release`` or
``target/debug``); gives ``lib`` with every entry point's argument and result types set, and
the ``Ps*`` structures laid out as ``include/planeshift.h`` lays them out. Guarantees: the
library's ABI version is checked at load (``PS_ABI_VERSION``), so a mismatched build is an
ImportError, never memory read wrong.
"""

import ctypes
import os
import sys
from ctypes import (POINTER, c_bool, c_char_p, c_float, c_int, c_int64, c_size_t,
                    c_uint32, c_uint64, c_uint8, c_void_p)
from pathlib import Path

PS_ABI_VERSION = 1


def _library_path():
    env = os.environ.get("PLANESHIFT_LIB")
    if env:
        return Path(env)
    if sys.platform == "win32":
        name = "planeshift_c.dll"
    elif sys.platform == "darwin":
        name = "libplaneshift_c.dylib"
    else:
        name = "libplaneshift_c.so"
    root = Path(__file__).resolve().parents[3]
    for profile in ("release", "debug"):
        candidate = root / "target" / profile / name
        if candidate.is_file():
            return candidate
    raise ImportError(
        f"planeshift: no {name} in {root}/target/release or target/debug "
        "(run `cargo build -p planeshift-c --release`, or set PLANESHIFT_LIB)")


class PsVec3(ctypes.Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float)]

    def tuple(self):
        return (self.x, self.y, self.z)


class PsLoadOptions(ctypes.Structure):
    _fields_ = [("game", c_char_p), ("shader_folders", POINTER(c_char_p)),
                ("shader_folder_count", c_size_t)]


class PsMeshOptions(ctypes.Structure):
    _fields_ = [("up", c_uint32), ("scale", ctypes.c_double)]


PS_MESH_UP_Z = 0
PS_MESH_UP_Y = 1
PS_MESH_UP_Y_BEVY = 2


class PsTrace(ctypes.Structure):
    _fields_ = [("fraction", c_float), ("end", PsVec3), ("normal", PsVec3),
                ("has_normal", c_bool), ("start_solid", c_bool), ("all_solid", c_bool),
                ("contents", c_uint32), ("surface", c_uint32), ("material", c_int64),
                ("target", c_int), ("target_id", c_uint32)]


class PsSpawnPoint(ctypes.Structure):
    _fields_ = [("entity", c_size_t), ("role", c_uint32), ("team", c_uint32),
                ("origin", PsVec3), ("player_origin", PsVec3), ("yaw", c_float),
                ("initial", c_bool)]


class PsMoveCommand(ctypes.Structure):
    _fields_ = [("pitch", c_float), ("yaw", c_float), ("forward", c_float),
                ("side", c_float), ("up", c_float)]


class PsMoveInput(ctypes.Structure):
    _fields_ = [("wish", PsVec3), ("jump", c_bool), ("crouch", c_bool),
                ("has_command", c_bool), ("command", PsMoveCommand), ("msec", c_uint32)]


class PsOutcome(ctypes.Structure):
    _fields_ = [("position", PsVec3), ("velocity", PsVec3), ("ground", c_uint32),
                ("water_level", c_uint32), ("activity", c_uint32), ("contents", c_uint32),
                ("touches", c_uint32), ("crouched", c_bool), ("stuck", c_bool),
                ("jumped", c_bool)]


class PsFilter(ctypes.Structure):
    _fields_ = [("mask", c_uint32), ("groups_memberships", c_uint32),
                ("groups_filter", c_uint32), ("skip_character", c_uint32),
                ("has_skip_character", c_bool)]


H = c_uint64
S = c_int
_u8p = POINTER(c_uint8)

_SIGNATURES = {
    "ps_last_error": ([], c_char_p),
    "ps_version": ([], c_char_p),
    "ps_abi_version": ([], c_uint32),
    "ps_level_load_file": ([c_char_p, POINTER(PsLoadOptions), POINTER(H)], S),
    "ps_level_load_file_with_mesh": ([c_char_p, POINTER(PsLoadOptions), POINTER(PsMeshOptions),
                                      POINTER(H)], S),
    "ps_level_load_bytes": ([c_void_p, c_size_t, POINTER(PsLoadOptions), POINTER(H)], S),
    "ps_level_free": ([H], S),
    "ps_level_save": ([H, c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_level_point_contents": ([H, PsVec3, POINTER(c_uint32)], S),
    "ps_level_entity_count": ([H, POINTER(c_size_t)], S),
    "ps_level_entity_value": ([H, c_size_t, c_char_p, c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_level_entity_property_count": ([H, c_size_t, POINTER(c_size_t)], S),
    "ps_level_entity_property": ([H, c_size_t, c_size_t, c_void_p, c_size_t, POINTER(c_size_t),
                                  c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_level_spawn_count": ([H, POINTER(c_size_t)], S),
    "ps_level_spawn_point": ([H, c_size_t, POINTER(PsSpawnPoint)], S),
    "ps_level_material_name": ([H, c_uint32, c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_contents_names": ([c_uint32, c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_surface_names": ([c_uint32, c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_contents_from_name": ([c_char_p, POINTER(c_uint32)], S),
    "ps_shape_point": ([POINTER(H)], S),
    "ps_shape_sphere": ([c_float, POINTER(H)], S),
    "ps_shape_box": ([PsVec3, PsVec3, POINTER(H)], S),
    "ps_shape_cylinder": ([c_float, c_float, POINTER(H)], S),
    "ps_shape_capsule": ([c_float, c_float, POINTER(H)], S),
    "ps_shape_hull": ([POINTER(PsVec3), c_size_t, POINTER(H)], S),
    "ps_shape_from_spec": ([c_char_p, POINTER(H)], S),
    "ps_shape_free": ([H], S),
    "ps_level_trace": ([H, H, PsVec3, PsVec3, c_uint32, POINTER(PsTrace)], S),
    "ps_scene_trace": ([H, H, H, PsVec3, PsVec3, POINTER(PsFilter), POINTER(PsTrace)], S),
    "ps_config_default": ([POINTER(H)], S),
    "ps_config_from_toml": ([c_char_p, POINTER(H)], S),
    "ps_config_free": ([H], S),
    "ps_character_new": ([H, PsVec3, POINTER(H)], S),
    "ps_character_free": ([H], S),
    "ps_character_step": ([H, H, POINTER(PsMoveInput), POINTER(PsOutcome)], S),
    "ps_character_get": ([H, POINTER(PsVec3), POINTER(PsVec3)], S),
    "ps_character_eye": ([H, POINTER(PsVec3)], S),
    "ps_character_teleport": ([H, PsVec3, PsVec3, c_float], S),
    "ps_character_impulse": ([H, PsVec3, c_float], S),
    "ps_character_set_mode": ([H, c_char_p], S),
    "ps_character_save_state": ([H, c_void_p, c_size_t, POINTER(c_size_t)], S),
    "ps_character_restore_state": ([H, c_void_p, c_size_t], S),
    "ps_crowd_new": ([c_bool, POINTER(H)], S),
    "ps_crowd_free": ([H], S),
    "ps_crowd_insert": ([H, c_uint32, H, PsVec3], S),
    "ps_crowd_remove": ([H, c_uint32], S),
    "ps_crowd_set_input": ([H, c_uint32, POINTER(PsMoveInput)], S),
    "ps_crowd_step": ([H, H], S),
    "ps_crowd_outcome": ([H, c_uint32, POINTER(PsOutcome)], S),
}


def _load():
    lib = ctypes.CDLL(str(_library_path()))
    for name, (args, result) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.argtypes = args
        function.restype = result
    if lib.ps_abi_version() != PS_ABI_VERSION:
        raise ImportError(
            f"planeshift: the library's ABI is {lib.ps_abi_version()}, these bindings' "
            f"{PS_ABI_VERSION}")
    return lib


lib = _load()
