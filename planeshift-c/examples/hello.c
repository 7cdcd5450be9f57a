/* A level, a sweep and a character tick through planeshift's C ABI (docs/hosts/c.md).
 * cc -std=c11 -Iplaneshift-c/include hello.c -Ltarget/release -lplaneshift_c */
#include <stdio.h>

#include "planeshift.h"

int main(void) {
    if (ps_abi_version() != PS_ABI_VERSION) {
        fprintf(stderr, "planeshift: ABI %u, header %u\n", (unsigned)ps_abi_version(), (unsigned)PS_ABI_VERSION);
        return 1;
    }
    PsLevel level = 0;
    if (ps_level_load_file("maps/arena.map", NULL, &level) != PS_STATUS_OK) {
        fprintf(stderr, "load: %s\n", ps_last_error());
        return 1;
    }

    /* Sweep Quake 3's player box east into the wall at x = 1152. */
    PsShape player = 0;
    ps_shape_from_spec("box:-15,-15,-24,15,15,32", &player);
    PsTrace hit;
    PsVec3 from = {1024, 768, 32}, to = {1300, 768, 32};
    ps_level_trace(level, player, from, to, PS_MASK_PLAYER_SOLID, &hit);
    printf("hit at x=%g (fraction %g), normal %g %g %g\n", hit.end.x, hit.fraction,
           hit.normal.x, hit.normal.y, hit.normal.z);

    /* A character walks east for one second of 8 ms ticks. */
    PsConfig config = 0;
    PsCharacter walker = 0;
    PsVec3 spawn = {1024, 1024, 24};
    ps_config_default(&config);
    ps_character_new(config, spawn, &walker);
    PsMoveInput east = {0};
    east.wish.x = 1;
    PsOutcome outcome;
    for (int tick = 0; tick < 125; tick++) {
        if (ps_character_step(walker, level, &east, &outcome) != PS_STATUS_OK) {
            fprintf(stderr, "step: %s\n", ps_last_error());
            return 1;
        }
    }
    printf("walked to x=%g at %g units/s, ground %u\n", outcome.position.x, outcome.velocity.x,
           (unsigned)outcome.ground);

    ps_character_free(walker);
    ps_config_free(config);
    ps_shape_free(player);
    ps_level_free(level);
    return hit.fraction < 1 && outcome.position.x > 1024 ? 0 : 1;
}
