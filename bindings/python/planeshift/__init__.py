"""planeshift for Python, over its C ABI with ctypes (no build step beyond the library).

Takes the shared library ``libplaneshift_c`` (found by ``_ffi``: ``$PLANESHIFT_LIB``, else
the repository's ``target/release`` or ``target/debug``); gives levels, shapes, sweeps,
characters and crowds as Python objects that free their handle once (``close()``, ``with``,
or when collected), and ``trace_json``: a sweep's result as the JSON line ``bspc trace``
prints, byte for byte. Guarantees: every failed call raises ``PlaneshiftError`` with the
library's status and message; nothing is freed twice.

    import planeshift
    level = planeshift.Level.load("maps/arena.map")
    player = planeshift.Shape.from_spec("box:-16,-16,-24,16,16,32")
    hit = level.trace(player, (1024, 768, 32), (1300, 768, 32))
    walker = planeshift.Character(planeshift.Config(), (1024, 1024, 24))
    outcome = walker.step(level, wish=(1, 0, 0))
"""

import ctypes
import json
import struct
from ctypes import byref, c_size_t, c_uint32, c_uint64

from ._ffi import (PS_ABI_VERSION, PS_MESH_UP_Y, PS_MESH_UP_Y_BEVY, PS_MESH_UP_Z, PsFilter,
                   PsLoadOptions, PsMeshOptions, PsMoveCommand, PsMoveInput, PsOutcome,
                   PsSpawnPoint, PsTrace, PsVec3, lib)

__all__ = ["PlaneshiftError", "Level", "Shape", "Config", "Character", "Crowd",
           "trace_json", "f32_json", "contents_names", "surface_names", "mask_from_name",
           "version", "PS_ABI_VERSION", "MASK_ANY_BLOCKING", "MASK_PLAYER_SOLID",
           "MASK_SHOT", "MASK_SOLID"]

MASK_SOLID = 0x203
MASK_PLAYER_SOLID = 0x2010203
MASK_SHOT = 0x6000203
MASK_ANY_BLOCKING = 0x630203
BUFFER_TOO_SMALL = -3
NOT_FOUND = -8


class PlaneshiftError(Exception):
    """A failed call: ``status`` (a negative ``PS_STATUS_*``) and the library's message."""

    def __init__(self, status, message):
        super().__init__(f"{message} (status {status})")
        self.status = status
        self.message = message


def _check(status):
    if status != 0:
        raise PlaneshiftError(status, lib.ps_last_error().decode("utf-8", "replace"))


def _vec(v):
    x, y, z = v
    return PsVec3(x, y, z)


def _buffer(call):
    """Runs a (buf, cap, len_out) call: asks for the size, then fills; gives the bytes."""
    length = c_size_t(0)
    status = call(None, 0, byref(length))
    if status != BUFFER_TOO_SMALL:
        _check(status)
    buf = ctypes.create_string_buffer(length.value + 1)
    _check(call(buf, len(buf), byref(length)))
    return buf.raw[:length.value]


def version():
    """The library's version text."""
    return lib.ps_version().decode()


def contents_names(bits):
    """The names of the contents bits, as ``bspc trace`` lists them."""
    text = _buffer(lambda b, c, n: lib.ps_contents_names(bits, b, c, n)).decode()
    return text.split(",") if text else []


def surface_names(bits):
    """The names of the surface flags."""
    text = _buffer(lambda b, c, n: lib.ps_surface_names(bits, b, c, n)).decode()
    return text.split(",") if text else []


def mask_from_name(name):
    """A mask by name (``player``, ``shot``, ``solid``, ``any``) or contents names joined by
    commas, as ``bspc --mask`` reads it."""
    out = c_uint32(0)
    _check(lib.ps_contents_from_name(name.encode(), byref(out)))
    return out.value


class _Handle:
    """One handle, freed once by ``_free``."""

    _free = None

    def __init__(self, handle):
        self._h = handle

    @property
    def handle(self):
        if self._h is None:
            raise PlaneshiftError(-2, f"this {type(self).__name__} was closed")
        return self._h

    def close(self):
        if self._h is not None:
            h, self._h = self._h, None
            _check(type(self)._free(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self._h is not None:
                type(self)._free(self._h)
                self._h = None
        except Exception:  # interpreter shutdown: the library may be gone
            pass


class Shape(_Handle):
    """A sweep shape: point, sphere, box, upright cylinder or capsule, convex hull."""

    _free = staticmethod(lib.ps_shape_free)

    @classmethod
    def _make(cls, call):
        h = c_uint64(0)
        _check(call(byref(h)))
        return cls(h.value)

    @classmethod
    def point(cls):
        return cls._make(lib.ps_shape_point)

    @classmethod
    def sphere(cls, radius):
        return cls._make(lambda o: lib.ps_shape_sphere(radius, o))

    @classmethod
    def box(cls, mins, maxs):
        return cls._make(lambda o: lib.ps_shape_box(_vec(mins), _vec(maxs), o))

    @classmethod
    def cylinder(cls, radius, half_height):
        return cls._make(lambda o: lib.ps_shape_cylinder(radius, half_height, o))

    @classmethod
    def capsule(cls, radius, half_height):
        return cls._make(lambda o: lib.ps_shape_capsule(radius, half_height, o))

    @classmethod
    def hull(cls, points):
        array = (PsVec3 * len(points))(*[_vec(p) for p in points])
        return cls._make(lambda o: lib.ps_shape_hull(array, len(points), o))

    @classmethod
    def from_spec(cls, spec):
        """``bspc trace --shape``'s text: ``point``, ``sphere:R``, ``box:...``, ..."""
        return cls._make(lambda o: lib.ps_shape_from_spec(spec.encode(), o))

    @classmethod
    def from_json(cls, shape):
        """A shape from ``bspc trace``'s query JSON (``{"kind":"box","mins":..}``)."""
        kind = shape["kind"]
        if kind == "point":
            return cls.point()
        if kind == "sphere":
            return cls.sphere(shape["radius"])
        if kind == "box":
            return cls.box(shape["mins"], shape["maxs"])
        if kind == "cylinder":
            return cls.cylinder(shape["radius"], shape["half_height"])
        if kind == "capsule":
            return cls.capsule(shape["radius"], shape["half_height"])
        if kind == "hull":
            return cls.hull(shape["points"])
        raise PlaneshiftError(-4, f"unknown shape kind {kind!r}")


class Level(_Handle):
    """A loaded level (``.map``, ``.bsp`` or ``.pbsp``): read-only, shared by threads."""

    _free = staticmethod(lib.ps_level_free)

    @staticmethod
    def _options(game, shaders):
        if game is None and not shaders:
            return None
        folders = (ctypes.c_char_p * max(len(shaders), 1))(*[s.encode() for s in shaders])
        return PsLoadOptions(game.encode() if game else None, folders, len(shaders))

    _MESH_UP = {"z": PS_MESH_UP_Z, "y": PS_MESH_UP_Y, "y-bevy": PS_MESH_UP_Y_BEVY}

    @classmethod
    def load(cls, path, game=None, shaders=(), mesh_up="z", mesh_scale=1.0):
        """Loads the level at ``path``; ``game`` and ``shaders`` as ``bspc --game/--shaders``.

        A mesh (``.obj``, ``.gltf``, ``.glb``, by its extension) is read with ``mesh_up``
        (``"z"``, ``"y"`` or ``"y-bevy"``) and ``mesh_scale`` (map units per file unit), as
        ``bspc --mesh-up/--mesh-scale``; other files ignore them.
        """
        h = c_uint64(0)
        options = cls._options(game, list(shaders))
        up = cls._MESH_UP.get(mesh_up)
        if up is None:
            raise ValueError(f"mesh_up {mesh_up!r} is not 'z', 'y' or 'y-bevy'")
        mesh = PsMeshOptions(up, float(mesh_scale))
        _check(lib.ps_level_load_file_with_mesh(str(path).encode(),
                                                byref(options) if options else None,
                                                byref(mesh), byref(h)))
        return cls(h.value)

    @classmethod
    def from_bytes(cls, data, game=None, shaders=()):
        h = c_uint64(0)
        options = cls._options(game, list(shaders))
        _check(lib.ps_level_load_bytes(data, len(data), byref(options) if options else None,
                                       byref(h)))
        return cls(h.value)

    def save(self):
        """The level as ``.pbsp`` bytes."""
        return _buffer(lambda b, c, n: lib.ps_level_save(self.handle, b, c, n))

    def trace(self, shape, start, end, mask=MASK_ANY_BLOCKING):
        """Sweeps ``shape`` from ``start`` to ``end``: a ``PsTrace``."""
        out = PsTrace()
        _check(lib.ps_level_trace(self.handle, shape.handle, _vec(start), _vec(end), mask,
                                  byref(out)))
        return out

    def point_contents(self, point):
        out = c_uint32(0)
        _check(lib.ps_level_point_contents(self.handle, _vec(point), byref(out)))
        return out.value

    def material_name(self, material):
        if material < 0:
            return None
        try:
            return _buffer(lambda b, c, n: lib.ps_level_material_name(
                self.handle, material, b, c, n)).decode()
        except PlaneshiftError as e:
            if e.status == NOT_FOUND:
                return None
            raise

    def entity_count(self):
        n = c_size_t(0)
        _check(lib.ps_level_entity_count(self.handle, byref(n)))
        return n.value

    def entity_value(self, index, key):
        """The value of ``key`` of entity ``index``, or None."""
        try:
            return _buffer(lambda b, c, n: lib.ps_level_entity_value(
                self.handle, index, key.encode(), b, c, n)).decode()
        except PlaneshiftError as e:
            if e.status == NOT_FOUND:
                return None
            raise

    def entity(self, index):
        """Entity ``index``'s key/value pairs, in file order."""
        n = c_size_t(0)
        _check(lib.ps_level_entity_property_count(self.handle, index, byref(n)))
        pairs = []
        for i in range(n.value):
            key_len, value_len = c_size_t(0), c_size_t(0)
            status = lib.ps_level_entity_property(self.handle, index, i, None, 0,
                                                  byref(key_len), None, 0, byref(value_len))
            if status != BUFFER_TOO_SMALL:
                _check(status)
            key = ctypes.create_string_buffer(key_len.value + 1)
            value = ctypes.create_string_buffer(value_len.value + 1)
            _check(lib.ps_level_entity_property(self.handle, index, i, key, len(key),
                                                byref(key_len), value, len(value),
                                                byref(value_len)))
            pairs.append((key.value.decode(), value.value.decode()))
        return pairs

    def spawn_points(self):
        n = c_size_t(0)
        _check(lib.ps_level_spawn_count(self.handle, byref(n)))
        out = []
        for i in range(n.value):
            s = PsSpawnPoint()
            _check(lib.ps_level_spawn_point(self.handle, i, byref(s)))
            out.append(s)
        return out


class Config(_Handle):
    """A character configuration: Quake 3's defaults, or TOML text."""

    _free = staticmethod(lib.ps_config_free)

    def __init__(self, toml=None):
        h = c_uint64(0)
        if toml is None:
            _check(lib.ps_config_default(byref(h)))
        else:
            _check(lib.ps_config_from_toml(toml.encode(), byref(h)))
        super().__init__(h.value)


def _input(wish=(0, 0, 0), jump=False, crouch=False, command=None, msec=0):
    move = PsMoveInput(_vec(wish), jump, crouch, command is not None, PsMoveCommand(), msec)
    if command is not None:
        move.command = PsMoveCommand(*command)
    return move


class Character(_Handle):
    """One character: one thread at a time."""

    _free = staticmethod(lib.ps_character_free)

    def __init__(self, config, position):
        h = c_uint64(0)
        _check(lib.ps_character_new(config.handle, _vec(position), byref(h)))
        super().__init__(h.value)

    def step(self, level, wish=(0, 0, 0), jump=False, crouch=False, command=None, msec=0):
        """One tick: a world ``wish``, or ``command`` = (pitch, yaw, forward, side, up)."""
        out = PsOutcome()
        move = _input(wish, jump, crouch, command, msec)
        _check(lib.ps_character_step(self.handle, level.handle, byref(move), byref(out)))
        return out

    @property
    def position(self):
        p = PsVec3()
        _check(lib.ps_character_get(self.handle, byref(p), None))
        return p.tuple()

    @property
    def velocity(self):
        v = PsVec3()
        _check(lib.ps_character_get(self.handle, None, byref(v)))
        return v.tuple()

    def set_mode(self, mode):
        _check(lib.ps_character_set_mode(self.handle, mode.encode()))

    def teleport(self, position, velocity=(0, 0, 0), hold=0.0):
        _check(lib.ps_character_teleport(self.handle, _vec(position), _vec(velocity), hold))

    def impulse(self, delta_v, hold=0.0):
        _check(lib.ps_character_impulse(self.handle, _vec(delta_v), hold))

    def save_state(self):
        return _buffer(lambda b, c, n: lib.ps_character_save_state(self.handle, b, c, n))

    def restore_state(self, data):
        _check(lib.ps_character_restore_state(self.handle, data, len(data)))


class Crowd(_Handle):
    """Characters that block each other: one thread at a time."""

    _free = staticmethod(lib.ps_crowd_free)

    def __init__(self, collide=True):
        h = c_uint64(0)
        _check(lib.ps_crowd_new(collide, byref(h)))
        super().__init__(h.value)

    def insert(self, id, config, position):
        _check(lib.ps_crowd_insert(self.handle, id, config.handle, _vec(position)))

    def set_input(self, id, **kwargs):
        move = _input(**kwargs)
        _check(lib.ps_crowd_set_input(self.handle, id, byref(move)))

    def step(self, level):
        _check(lib.ps_crowd_step(self.handle, level.handle))

    def outcome(self, id):
        out = PsOutcome()
        _check(lib.ps_crowd_outcome(self.handle, id, byref(out)))
        return out

    def trace(self, level, shape, start, end, mask=MASK_SHOT, skip=None):
        """A sweep through the level and these characters."""
        f = PsFilter(mask, 0xFFFFFFFF, 0xFFFFFFFF, skip or 0, skip is not None)
        out = PsTrace()
        _check(lib.ps_scene_trace(level.handle, self.handle, shape.handle, _vec(start),
                                  _vec(end), byref(f), byref(out)))
        return out


# f32 text as serde_json writes it (shortest round trip; fixed notation for decimal
# exponents -6 to 12, else `d.ddde+X` / `de-X`).
FIXED_EXPONENTS = range(-6, 13)


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_json(x):
    """An f32 as serde_json prints it: the shortest text that reads back as the same f32."""
    if x == 0.0:
        return "-0.0" if struct.pack("<f", x)[3] & 0x80 else "0.0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    for precision in range(1, 10):
        text = "%.*e" % (precision - 1, x)
        if _f32(float(text)) == x:
            break
    mantissa, exponent = text.split("e")
    digits = mantissa.replace(".", "").rstrip("0") or "0"
    e = int(exponent)
    if e in FIXED_EXPONENTS:
        if len(digits) - 1 <= e:
            return sign + digits + "0" * (e + 1 - len(digits)) + ".0"
        if e >= 0:
            return sign + digits[:e + 1] + "." + digits[e + 1:]
        return sign + "0." + "0" * (-e - 1) + digits
    body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return sign + body + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def _triple(v):
    return "[" + ",".join(f32_json(c) for c in (v.x, v.y, v.z)) + "]"


def _names(names):
    return "[" + ",".join(json.dumps(n, ensure_ascii=False) for n in names) + "]"


def trace_json(level, t):
    """A sweep's result as the JSON line ``bspc trace`` prints (without the newline)."""
    hit = t.fraction < 1.0
    material = level.material_name(t.material) if hit else None
    body = t.target_id if t.target == 3 else None
    return ("{" + f'"fraction":{f32_json(t.fraction)},"end":{_triple(t.end)},'
            + f'"normal":{_triple(t.normal) if t.has_normal else "null"},'
            + f'"start_solid":{"true" if t.start_solid else "false"},'
            + f'"all_solid":{"true" if t.all_solid else "false"},'
            + f'"contents":{_names(contents_names(t.contents)) if hit else "null"},'
            + f'"surface":{_names(surface_names(t.surface)) if hit else "null"},'
            + f'"material":{json.dumps(material, ensure_ascii=False) if material is not None else "null"},'
            + f'"body":{body if body is not None else "null"}' + "}")
