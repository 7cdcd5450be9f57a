/*
 * replay: the replay contract of `fps_movement --replay` through planeshift's C ABI.
 *
 *   replay MAP IN.jsonl OUT.jsonl [--movement GAME] [--config C.toml] [--game GAME]
 *          [--shaders DIR]...
 *
 * Takes a level (.map, .bsp or .pbsp), the recorded inputs (the spawn line, then one line
 * per tick: tools/harness/src/replay.rs) and optionally a controller configuration (TOML;
 * --movement GAME adds `movement = "GAME"`, the movement profile); writes one line per tick
 * to OUT.jsonl, the bytes `fps_movement --headless --map MAP --replay IN.jsonl --ticks-out
 * OUT.jsonl` writes. This program does the file I/O and the per-tick loop; each line is read
 * and written by the library (ps_replay_new, ps_replay_tick). Blank lines are skipped and
 * lines are numbered as an editor numbers them, as fps_movement does. On an error it prints
 * the message, removes OUT.jsonl and exits with 2. Every handle and buffer is freed on
 * every path (checked under valgrind by CI).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "planeshift.h"

#define MAX_SHADER_FOLDERS 16

/* Reads the whole file `path` into a NUL-terminated buffer (the caller frees it). */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return NULL;
    }
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Whether `line` holds only whitespace. */
static int blank(const char *line) {
    for (; *line; line++) {
        if (!isspace((unsigned char)*line)) {
            return 0;
        }
    }
    return 1;
}

static int fail(const char *what) {
    fprintf(stderr, "replay: %s: %s\n", what, ps_last_error());
    return 2;
}

int main(int argc, char **argv) {
    const char *map = NULL, *in = NULL, *out = NULL, *movement = NULL, *config_path = NULL;
    const char *game = NULL;
    const char *shaders[MAX_SHADER_FOLDERS];
    size_t shader_count = 0;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--movement") == 0 && i + 1 < argc) {
            movement = argv[++i];
        } else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
            config_path = argv[++i];
        } else if (strcmp(argv[i], "--game") == 0 && i + 1 < argc) {
            game = argv[++i];
        } else if (strcmp(argv[i], "--shaders") == 0 && i + 1 < argc
                   && shader_count < MAX_SHADER_FOLDERS) {
            shaders[shader_count++] = argv[++i];
        } else if (argv[i][0] != '-' && positional < 3) {
            const char **slot = positional == 0 ? &map : positional == 1 ? &in : &out;
            *slot = argv[i];
            positional++;
        } else {
            positional = -1;
            break;
        }
    }
    if (positional != 3) {
        fprintf(stderr, "usage: replay MAP IN.jsonl OUT.jsonl [--movement GAME] [--config C.toml] "
                        "[--game GAME] [--shaders DIR]...\n");
        return 2;
    }
    if (ps_abi_version() != PS_ABI_VERSION) {
        fprintf(stderr, "replay: the library's ABI is %u, this program's %u\n",
                (unsigned)ps_abi_version(), (unsigned)PS_ABI_VERSION);
        return 2;
    }

    int status = 2;
    char *input = NULL, *toml = NULL, *line_buf = NULL;
    FILE *output = NULL;
    PsLevel level = 0;
    PsConfig config = 0;
    PsReplay replay = 0;

    /* The configuration: the file's TOML, plus the movement profile. */
    char *file_toml = NULL;
    if (config_path) {
        file_toml = read_file(config_path);
        if (!file_toml) {
            fprintf(stderr, "replay: cannot read %s\n", config_path);
            goto done;
        }
    }
    size_t toml_len = (file_toml ? strlen(file_toml) : 0) + (movement ? strlen(movement) : 0) + 32;
    toml = malloc(toml_len);
    if (!toml) {
        free(file_toml);
        goto done;
    }
    snprintf(toml, toml_len, "%s%s%s%s", file_toml ? file_toml : "",
             movement ? "\nmovement = \"" : "", movement ? movement : "", movement ? "\"\n" : "");
    free(file_toml);
    if (ps_config_from_toml(toml, &config) != PS_STATUS_OK) {
        status = fail("config");
        goto done;
    }

    PsLoadOptions options = {game, shaders, shader_count};
    if (ps_level_load_file(map, &options, &level) != PS_STATUS_OK) {
        status = fail("level");
        goto done;
    }
    input = read_file(in);
    if (!input) {
        fprintf(stderr, "replay: cannot read %s\n", in);
        goto done;
    }
    output = fopen(out, "wb");
    if (!output) {
        fprintf(stderr, "replay: cannot write %s\n", out);
        goto done;
    }

    size_t cap = 1024, len = 0;
    line_buf = malloc(cap);
    if (!line_buf) {
        goto done;
    }
    size_t number = 0;
    int started = 0;
    char *next = input;
    while (*next) {
        char *line = next;
        char *end = strchr(line, '\n');
        if (end) {
            *end = '\0';
            next = end + 1;
        } else {
            next = line + strlen(line);
        }
        number++;
        size_t n = strlen(line);
        if (n > 0 && line[n - 1] == '\r') {
            line[n - 1] = '\0';
        }
        if (blank(line)) {
            continue;
        }
        if (!started) {
            if (ps_replay_new(config, line, number, &replay) != PS_STATUS_OK) {
                status = fail(in);
                goto done;
            }
            started = 1;
            continue;
        }
        PsStatus s = ps_replay_tick(replay, level, line, number, line_buf, cap, &len);
        if (s == PS_STATUS_BUFFER_TOO_SMALL) {
            char *bigger = realloc(line_buf, len + 1);
            if (!bigger) {
                goto done;
            }
            line_buf = bigger;
            cap = len + 1;
            s = ps_replay_last_line(line_buf, cap, &len);
        }
        if (s != PS_STATUS_OK) {
            status = fail(in);
            goto done;
        }
        fwrite(line_buf, 1, len, output);
        fputc('\n', output);
    }
    if (!started) {
        fprintf(stderr, "replay: %s: the replay is empty\n", in);
        goto done;
    }
    status = 0;

done:
    if (output) {
        if (fclose(output) != 0 && status == 0) {
            fprintf(stderr, "replay: cannot write %s\n", out);
            status = 2;
        }
        if (status != 0) {
            remove(out);
        }
    }
    if (replay) {
        ps_replay_free(replay);
    }
    if (level) {
        ps_level_free(level);
    }
    if (config) {
        ps_config_free(config);
    }
    free(line_buf);
    free(input);
    free(toml);
    return status;
}
