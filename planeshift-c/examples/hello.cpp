// A level, a sweep and a character tick through planeshift.hpp (docs/hosts/cpp.md).
// c++ -std=c++17 -Iplaneshift-c/include hello.cpp -Ltarget/release -lplaneshift_c
#include <cstdio>

#include "planeshift.hpp"

int main() {
    try {
        planeshift::check_abi();
        auto level = planeshift::Level::load_file("maps/arena.map");

        // Sweep Quake 3's player box east into the wall at x = 1152.
        auto player = planeshift::Shape::from_spec("box:-15,-15,-24,15,15,32");
        PsTrace hit = level.trace(player, {1024, 768, 32}, {1300, 768, 32}, PS_MASK_PLAYER_SOLID);
        std::printf("hit at x=%g (fraction %g)\n", hit.end.x, hit.fraction);

        // A character walks east for one second of 8 ms ticks.
        auto config = planeshift::Config::defaults();
        planeshift::Character walker(config, {1024, 1024, 24});
        PsMoveInput east{};
        east.wish = {1, 0, 0};
        PsOutcome outcome{};
        for (int tick = 0; tick < 125; tick++) {
            outcome = walker.step(level, east);
        }
        std::printf("walked to x=%g at %g units/s\n", outcome.position.x, outcome.velocity.x);
        return hit.fraction < 1 && outcome.position.x > 1024 ? 0 : 1;
    } catch (const planeshift::Error &e) {  // every handle above is freed on the way out
        std::fprintf(stderr, "planeshift: %s\n", e.what());
        return 1;
    }
}
