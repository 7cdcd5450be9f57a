"""The Python bindings against the library's own tools: ``python3 -m planeshift trace``
prints ``bspc trace``'s lines byte for byte (10,000 seeded queries of every shape kind on a
bundled map, and on a shared real level when ``$PLANESHIFT_REAL_MAPS`` is there), and the
level, character and error paths behave as the C API says.

Needs the library (``cargo build -p planeshift-c``) and ``bspc`` (``cargo build``), both
under the repository's ``target/``; ``.ci/run`` builds them first.
"""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

import planeshift  # noqa: E402
from planeshift import (Character, Config, Crowd, Level, PlaneshiftError, Shape,  # noqa: E402
                        f32_json)


def bspc():
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "bspc"
        if path.is_file():
            return path
    pytest.fail("no target/debug/bspc or target/release/bspc: run `cargo build` first")


def python_trace(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    return subprocess.run([sys.executable, "-m", "planeshift", "trace", *map(str, args)],
                          check=True, capture_output=True, text=True, env=env).stdout


def bspc_trace(*args):
    return subprocess.run([str(bspc()), "trace", *map(str, args)], check=True,
                          capture_output=True, text=True).stdout


def random_shape(rng, kind):
    if kind == "point":
        return {"kind": "point"}
    if kind == "sphere":
        return {"kind": "sphere", "radius": rng.choice([1, 4.5, 8, 16, 24.25])}
    if kind == "box":
        h = [rng.uniform(1, 24) for _ in range(3)]
        return {"kind": "box", "mins": [-h[0], -h[1], -rng.uniform(1, 30)], "maxs": h}
    if kind in ("cylinder", "capsule"):
        return {"kind": kind, "radius": rng.uniform(2, 20), "half_height": rng.uniform(1, 30)}
    r = rng.uniform(4, 16)
    return {"kind": "hull", "points": [[-r, -r, -r], [r, -r, -r], [0, r, -r], [0, 0, r],
                                       [rng.uniform(-r, r), rng.uniform(-r, r), r / 2]]}


KINDS = ["point", "sphere", "box", "cylinder", "capsule", "hull"]


def write_queries(path, level, count, seed):
    """``count`` queries, every kind in turn, from and to points spread over the level's
    entity origins (inside its rooms) and random offsets, some with a mask of their own."""
    rng = random.Random(seed)
    anchors = []
    for i in range(level.entity_count()):
        origin = level.entity_value(i, "origin")
        if origin:
            try:
                anchors.append([float(v) for v in origin.split()])
            except ValueError:
                pass
    assert anchors, "the level has no entity origins to aim from"
    masks = [None, None, None, ["player"], ["shot"], ["solid"], ["water"], ["solid", "playerclip"]]
    with open(path, "w", encoding="utf-8") as f:
        for n in range(count):
            a = rng.choice(anchors)
            start = [a[0] + rng.uniform(-64, 64), a[1] + rng.uniform(-64, 64), a[2] + rng.uniform(0, 48)]
            far = rng.choice([16, 128, 512, 2048])
            end = [start[i] + rng.uniform(-far, far) for i in range(3)]
            q = {"shape": random_shape(rng, KINDS[n % len(KINDS)]), "start": start, "end": end}
            mask = rng.choice(masks)
            if mask:
                q["mask"] = mask
            f.write(json.dumps(q) + "\n")


def compare_queries(tmp_path, world, count, seed):
    level = Level.load(world)
    queries = tmp_path / "queries.jsonl"
    write_queries(queries, level, count, seed)
    level.close()
    ours = python_trace(world, "--queries", queries).splitlines()
    theirs = bspc_trace(world, "--queries", queries).splitlines()
    assert len(ours) == len(theirs) == count
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    assert not differ, f"{len(differ)} lines differ, first: {differ[0]}"
    hits = sum('"fraction":1.0,' not in line for line in theirs)
    print(f"python trace: {count} queries on {Path(world).name} equal bspc trace ({hits} hits)")
    return hits


def test_trace_equals_bspc_on_10000_queries_of_every_kind(tmp_path):
    hits = compare_queries(tmp_path, ROOT / "maps" / "arena.map", 10_000, 1)
    assert hits > 1000


def test_trace_equals_bspc_on_a_real_level(tmp_path):
    real = Path(os.environ.get("PLANESHIFT_REAL_MAPS", ROOT.parent / "shared" / "maps"))
    level = real / "openarena-lostlevels" / "q3dm6ish.bsp"
    if not level.is_file():
        print(f"python trace: skipped, {level} is missing (set PLANESHIFT_REAL_MAPS)")
        return
    assert compare_queries(tmp_path, level, 10_000, 2) > 1000


@pytest.mark.parametrize("spec", ["point", "sphere:12", "box:-16,-16,-24,16,16,32", "box:8,8,8",
                                  "cylinder:16:28", "capsule:15:20", "hull:-8,-8,-8;8,-8,-8;0,8,-8;0,0,8"])
def test_one_query_from_flags_equals_bspc(spec):
    args = [ROOT / "maps" / "arena.map", "--shape", spec, "--from", "1024,768,32", "--to", "1300,700.5,20"]
    assert python_trace(*args) == bspc_trace(*args)


def test_f32_text_reads_back_exactly():
    rng = random.Random(3)
    for _ in range(20_000):
        x = planeshift._f32(rng.choice([rng.uniform(-1e4, 1e4), rng.uniform(-1, 1) * 10 ** rng.randint(-12, 20)]))
        assert planeshift._f32(float(f32_json(x))) == x
    assert [f32_json(v) for v in (0.0, 1.0, -2.5, 1152.0, 0.1)] == ["0.0", "1.0", "-2.5", "1152.0", "0.1"]


def test_a_character_walks_and_its_saved_state_continues_bit_for_bit():
    level = Level.load(ROOT / "maps" / "arena.map")
    config = Config()
    walker = Character(config, (1024, 1024, 24))
    for _ in range(40):
        walker.step(level, wish=(1, 0, 0))
    assert walker.position[0] > 1024
    twin = Character(config, (0, 0, 0))
    twin.restore_state(walker.save_state())
    for _ in range(40):
        a = walker.step(level, command=(0.0, 90.0, 1.0, 0.0, 0.0), jump=True)
        b = twin.step(level, command=(0.0, 90.0, 1.0, 0.0, 0.0), jump=True)
        assert a.position.tuple() == b.position.tuple()
    assert walker.position[1] > 1024
    spawns = level.spawn_points()
    assert level.entity_value(0, "classname") == "worldspawn"
    assert level.entity_value(0, "no such key") is None
    assert ("classname", "worldspawn") in level.entity(0)
    assert all(dict(level.entity(i))["classname"] for i in range(level.entity_count()))
    assert all(level.entity_value(s.entity, "classname").startswith("info_player") for s in spawns)
    again = Level.from_bytes(level.save())
    shape = Shape.from_spec("box:-16,-16,-24,16,16,32")
    assert again.trace(shape, (1024, 768, 32), (1300, 768, 32)).end.x == \
        level.trace(shape, (1024, 768, 32), (1300, 768, 32)).end.x


def test_a_crowd_blocks_a_shot():
    level = Level.load(ROOT / "maps" / "arena.map")
    config = Config()
    crowd = Crowd()
    crowd.insert(1, config, (1024, 1024, 24))
    crowd.insert(2, config, (1124, 1024, 24))
    crowd.set_input(1, wish=(0, 1, 0))
    crowd.step(level)
    hit = crowd.trace(level, Shape.point(), (1024, 1024, 50), (1400, 1024, 50), skip=1)
    assert (hit.target, hit.target_id) == (3, 2)


def test_a_mesh_level_loads_with_its_axis_and_scale(tmp_path):
    room = ROOT / "maps" / "mesh_room.obj"
    probes = [(900, 256, 100), (900, 256, -16), (700, 256, -32)]
    expected = [Level.load(room).point_contents(p) for p in probes]
    assert expected == [0, 0x1, 0x20]  # air, solid, water
    # The room written Y up in metres: map (x, y, z) is file (x, z, -y) / 32.
    lines = []
    for line in room.read_text().splitlines():
        if line.startswith("v "):
            x, y, z = (float(n) for n in line.split()[1:4])
            line = f"v {x / 32} {z / 32} {-y / 32}"
        lines.append(line)
    y_up = tmp_path / "room_y_up.obj"
    y_up.write_text("\n".join(lines) + "\n")
    level = Level.load(y_up, mesh_up="y", mesh_scale=32)
    assert [level.point_contents(p) for p in probes] == expected
    assert [Level.load(y_up).point_contents(p) for p in probes] != expected
    with pytest.raises(ValueError):
        Level.load(y_up, mesh_up="x")
    with pytest.raises(PlaneshiftError) as e:
        Level.load(y_up, mesh_scale=0)
    assert e.value.status == -4


def test_errors_raise_with_the_status_and_message():
    with pytest.raises(PlaneshiftError) as e:
        Shape.from_spec("box:1,2")
    assert e.value.status == -4 and e.value.message
    with pytest.raises(PlaneshiftError) as e:
        Level.load(ROOT / "maps" / "no_such.map")
    assert e.value.status == -5
    with pytest.raises(PlaneshiftError) as e:
        Level.from_bytes(b"\x00garbage{{{")
    assert e.value.status == -6
    with pytest.raises(PlaneshiftError) as e:
        Config("no_such_field = 1")
    assert e.value.status == -4
    shape = Shape.point()
    handle = shape.handle
    shape.close()
    shape.close()  # a second close does nothing
    assert planeshift.lib.ps_shape_free(handle) == -2  # the library refuses a double free
    with pytest.raises(PlaneshiftError):
        shape.handle


def test_the_docs_example_runs(capsys):
    page = (ROOT / "docs" / "hosts" / "python.md").read_text(encoding="utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code, "docs/hosts/python.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert "hit at x = 1136.96875" in capsys.readouterr().out
