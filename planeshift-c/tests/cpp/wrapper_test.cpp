// The C++ wrapper's test: planeshift.hpp on maps/arena.map (argv[1] is the repository's
// top folder). Prints "N passed, M failed" and exits non-zero on any failure; CI runs it
// under valgrind (nothing may leak).
#include <cmath>
#include <cstdio>
#include <string>

#include "planeshift.hpp"

using namespace planeshift;

static int passed = 0, failed = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            passed++;                                                            \
        } else {                                                                 \
            failed++;                                                            \
            std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: wrapper_test REPO\n");
        return 2;
    }
    const std::string repo = argv[1];
    try {
        check_abi();
        Level level = Level::load_file(repo + "/maps/arena.map");

        // The README's sweep: Quake's player box east into the wall at x = 1152.
        Shape player = Shape::from_spec("box:-16,-16,-24,16,16,32");
        PsTrace hit = level.trace(player, vec3(1024, 768, 32), vec3(1300, 768, 32));
        CHECK(hit.fraction < 1.0f);
        CHECK(hit.end.x == 1152.0f - 16.0f - 1.0f / 32.0f);
        CHECK(hit.has_normal && hit.normal.x == -1.0f);
        CHECK(hit.target == PS_HIT_KIND_WORLD);
        CHECK(hit.contents & PS_CONTENTS_SOLID);

        // Every shape kind sweeps.
        Shape shapes[] = {Shape::point(), Shape::sphere(8), Shape::box(vec3(-8, -8, -8), vec3(8, 8, 8)),
                          Shape::cylinder(16, 24), Shape::capsule(12, 8),
                          Shape::hull({vec3(-8, -8, -8), vec3(8, -8, -8), vec3(0, 8, -8), vec3(0, 0, 8)})};
        for (const Shape &s : shapes) {
            PsTrace t = level.trace(s, vec3(1024, 768, 32), vec3(1300, 768, 32));
            CHECK(t.fraction > 0.0f && t.fraction < 1.0f && t.end.x < 1152.0f);
        }
        CHECK(level.point_contents(vec3(1024, 768, 32)) == 0);

        // A mesh level: the bundled mesh room's pool is water, its floor solid.
        Level room = Level::load_file(repo + "/maps/mesh_room.obj", nullptr, PsMeshOptions{PS_MESH_UP_Z, 1.0});
        CHECK(room.point_contents(vec3(700, 256, -32)) == PS_CONTENTS_WATER);
        CHECK(room.point_contents(vec3(900, 256, -16)) & PS_CONTENTS_SOLID);

        // Bad input throws with the status.
        bool threw = false;
        try {
            Shape::from_spec("box:1,2");
        } catch (const Error &e) {
            threw = e.status() == PS_STATUS_INVALID_ARGUMENT && std::string(e.what()).size() > 0;
        }
        CHECK(threw);

        // Entities and spawns.
        CHECK(level.entity_count() >= 1);
        CHECK(level.entity_value(0, "classname") == std::optional<std::string>("worldspawn"));
        CHECK(!level.entity_value(0, "no such key").has_value());

        // Saved and loaded again, the level sweeps the same.
        Level again = Level::load_bytes(level.save());
        PsTrace hit2 = again.trace(player, vec3(1024, 768, 32), vec3(1300, 768, 32));
        CHECK(hit2.end.x == hit.end.x && hit2.fraction == hit.fraction);

        // A character walks east; a saved state continues bit for bit.
        Config config = Config::defaults();
        Character walker(config, vec3(1024, 1024, 24));
        PsMoveInput east{};
        east.wish = vec3(1, 0, 0);
        for (int i = 0; i < 50; i++) {
            walker.step(level, east);
        }
        CHECK(walker.position().x > 1024.0f);
        std::vector<std::uint8_t> state = walker.save_state();
        Character twin(config, vec3(0, 0, 0));
        twin.restore_state(state);
        for (int i = 0; i < 50; i++) {
            PsOutcome a = walker.step(level, east);
            PsOutcome b = twin.step(level, east);
            CHECK(a.position.x == b.position.x && a.position.y == b.position.y && a.position.z == b.position.z);
        }
        CHECK(walker.velocity().x > 0.0f);

        // A crowd: two characters, a shot from one hits the other.
        Crowd crowd;
        crowd.insert(1, config, vec3(1024, 1024, 24));
        crowd.insert(2, config, vec3(1124, 1024, 24));
        crowd.step(level);
        PsFilter shot{PS_MASK_SHOT, 0xffffffffu, 0xffffffffu, 1, true};
        PsTrace t = crowd.trace(level, Shape::point(), vec3(1024, 1024, 50), vec3(1400, 1024, 50), shot);
        CHECK(t.target == PS_HIT_KIND_CHARACTER && t.target_id == 2);

        // Moves: a moved-from object frees nothing twice.
        Level moved = std::move(again);
        CHECK(moved.get() != 0 && again.get() == 0);
    } catch (const Error &e) {
        std::fprintf(stderr, "unexpected error %d: %s\n", (int)e.status(), e.what());
        failed++;
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
