// planeshift.hpp: RAII wrappers over planeshift's C ABI (planeshift.h) for C++17.
//
// Takes the C API's handles and status codes; gives move-only objects that free their
// handle once (in the destructor) and throw planeshift::Error (with the status and
// ps_last_error()'s message) where the C call returns a failure. Header-only; link with
// -lplaneshift_c. Threads as planeshift.h says: Level, Shape and Config are shared
// read-only; a Character or a Crowd is used by one thread at a time.
#ifndef PLANESHIFT_HPP
#define PLANESHIFT_HPP

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "planeshift.h"

namespace planeshift {

// A failed call: its status and the library's message.
class Error : public std::runtime_error {
public:
    Error(PsStatus status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    PsStatus status() const noexcept { return status_; }

private:
    PsStatus status_;
};

// Throws an Error for any status but PS_STATUS_OK.
inline void check(PsStatus status) {
    if (status != PS_STATUS_OK) {
        throw Error(status, ps_last_error());
    }
}

// Throws when the loaded library's ABI is not this header's.
inline void check_abi() {
    if (ps_abi_version() != PS_ABI_VERSION) {
        throw Error(PS_STATUS_INVALID_ARGUMENT, "planeshift: the library's ABI differs from planeshift.h's");
    }
}

namespace detail {
// A buffer output: asks for the size, then fills (the (buf, cap, len_out) convention).
template <typename Call>
std::string text(Call call) {
    size_t len = 0;
    PsStatus s = call(nullptr, 0, &len);
    if (s != PS_STATUS_BUFFER_TOO_SMALL) {
        check(s);
    }
    std::string out(len + 1, '\0');
    check(call(out.data(), out.size(), &len));
    out.resize(len);
    return out;
}

template <typename Call>
std::vector<std::uint8_t> bytes(Call call) {
    size_t len = 0;
    PsStatus s = call(nullptr, 0, &len);
    if (s != PS_STATUS_BUFFER_TOO_SMALL) {
        check(s);
    }
    std::vector<std::uint8_t> out(len);
    check(call(out.data(), out.size(), &len));
    return out;
}

// A move-only owner of one handle, freed by Free once.
template <typename H, PsStatus (*Free)(H)>
class Owner {
public:
    Owner() = default;
    explicit Owner(H h) : h_(h) {}
    Owner(const Owner &) = delete;
    Owner &operator=(const Owner &) = delete;
    Owner(Owner &&o) noexcept : h_(std::exchange(o.h_, H{})) {}
    Owner &operator=(Owner &&o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, H{});
        }
        return *this;
    }
    ~Owner() { reset(); }
    H get() const noexcept { return h_; }
    void reset() noexcept {
        if (h_ != H{}) {
            Free(h_);
            h_ = H{};
        }
    }

private:
    H h_{};
};
}  // namespace detail

inline PsVec3 vec3(float x, float y, float z) { return PsVec3{x, y, z}; }

// A sweep shape.
class Shape {
public:
    static Shape point() { return make([](PsShape *o) { return ps_shape_point(o); }); }
    static Shape sphere(float r) { return make([=](PsShape *o) { return ps_shape_sphere(r, o); }); }
    static Shape box(PsVec3 mins, PsVec3 maxs) {
        return make([=](PsShape *o) { return ps_shape_box(mins, maxs, o); });
    }
    static Shape cylinder(float r, float half_height) {
        return make([=](PsShape *o) { return ps_shape_cylinder(r, half_height, o); });
    }
    static Shape capsule(float r, float half_height) {
        return make([=](PsShape *o) { return ps_shape_capsule(r, half_height, o); });
    }
    static Shape hull(const std::vector<PsVec3> &points) {
        return make([&](PsShape *o) { return ps_shape_hull(points.data(), points.size(), o); });
    }
    // `bspc trace --shape`'s text form: "box:-16,-16,-24,16,16,32", "sphere:8", ...
    static Shape from_spec(const std::string &spec) {
        return make([&](PsShape *o) { return ps_shape_from_spec(spec.c_str(), o); });
    }
    PsShape get() const noexcept { return h_.get(); }

private:
    template <typename F>
    static Shape make(F f) {
        PsShape h = 0;
        check(f(&h));
        Shape s;
        s.h_ = detail::Owner<PsShape, ps_shape_free>(h);
        return s;
    }
    detail::Owner<PsShape, ps_shape_free> h_;
};

// A loaded level: shared read-only.
class Level {
public:
    static Level load_file(const std::string &path, const PsLoadOptions *options = nullptr) {
        PsLevel h = 0;
        check(ps_level_load_file(path.c_str(), options, &h));
        return Level(h);
    }
    // A mesh (.obj, .gltf, .glb, by its extension) read with `mesh`'s axis and scale; other
    // files ignore it.
    static Level load_file(const std::string &path, const PsLoadOptions *options, const PsMeshOptions &mesh) {
        PsLevel h = 0;
        check(ps_level_load_file_with_mesh(path.c_str(), options, &mesh, &h));
        return Level(h);
    }
    static Level load_bytes(const std::vector<std::uint8_t> &data, const PsLoadOptions *options = nullptr) {
        PsLevel h = 0;
        check(ps_level_load_bytes(data.data(), data.size(), options, &h));
        return Level(h);
    }
    // The level as .pbsp bytes.
    std::vector<std::uint8_t> save() const {
        return detail::bytes([&](std::uint8_t *b, size_t c, size_t *l) { return ps_level_save(get(), b, c, l); });
    }
    PsTrace trace(const Shape &shape, PsVec3 start, PsVec3 end, std::uint32_t mask = PS_MASK_ANY_BLOCKING) const {
        PsTrace t{};
        check(ps_level_trace(get(), shape.get(), start, end, mask, &t));
        return t;
    }
    std::uint32_t point_contents(PsVec3 p) const {
        std::uint32_t c = 0;
        check(ps_level_point_contents(get(), p, &c));
        return c;
    }
    size_t entity_count() const {
        size_t n = 0;
        check(ps_level_entity_count(get(), &n));
        return n;
    }
    // The value of `key` of entity `index`, or nothing when the entity has no such key.
    std::optional<std::string> entity_value(size_t index, const std::string &key) const {
        try {
            return detail::text([&](char *b, size_t c, size_t *l) {
                return ps_level_entity_value(get(), index, key.c_str(), b, c, l);
            });
        } catch (const Error &e) {
            if (e.status() == PS_STATUS_NOT_FOUND) {
                return std::nullopt;
            }
            throw;
        }
    }
    std::vector<PsSpawnPoint> spawn_points() const {
        size_t n = 0;
        check(ps_level_spawn_count(get(), &n));
        std::vector<PsSpawnPoint> out(n);
        for (size_t i = 0; i < n; i++) {
            check(ps_level_spawn_point(get(), i, &out[i]));
        }
        return out;
    }
    PsLevel get() const noexcept { return h_.get(); }

private:
    explicit Level(PsLevel h) : h_(h) {}
    detail::Owner<PsLevel, ps_level_free> h_;
};

// A character configuration: Quake 3's defaults, or TOML (the movement profile included).
class Config {
public:
    static Config defaults() {
        PsConfig h = 0;
        check(ps_config_default(&h));
        return Config(h);
    }
    static Config from_toml(const std::string &toml) {
        PsConfig h = 0;
        check(ps_config_from_toml(toml.c_str(), &h));
        return Config(h);
    }
    PsConfig get() const noexcept { return h_.get(); }

private:
    explicit Config(PsConfig h) : h_(h) {}
    detail::Owner<PsConfig, ps_config_free> h_;
};

// One character: one thread at a time.
class Character {
public:
    Character(const Config &config, PsVec3 position) {
        PsCharacter h = 0;
        check(ps_character_new(config.get(), position, &h));
        h_ = detail::Owner<PsCharacter, ps_character_free>(h);
    }
    PsOutcome step(const Level &level, const PsMoveInput &input) {
        PsOutcome o{};
        check(ps_character_step(get(), level.get(), &input, &o));
        return o;
    }
    PsVec3 position() const {
        PsVec3 p{};
        check(ps_character_get(get(), &p, nullptr));
        return p;
    }
    PsVec3 velocity() const {
        PsVec3 v{};
        check(ps_character_get(get(), nullptr, &v));
        return v;
    }
    void set_mode(const std::string &mode) { check(ps_character_set_mode(get(), mode.c_str())); }
    void teleport(PsVec3 p, PsVec3 v, float hold = 0.0f) { check(ps_character_teleport(get(), p, v, hold)); }
    void impulse(PsVec3 dv, float hold = 0.0f) { check(ps_character_impulse(get(), dv, hold)); }
    std::vector<std::uint8_t> save_state() const {
        return detail::bytes([&](std::uint8_t *b, size_t c, size_t *l) { return ps_character_save_state(get(), b, c, l); });
    }
    void restore_state(const std::vector<std::uint8_t> &state) {
        check(ps_character_restore_state(get(), state.data(), state.size()));
    }
    PsCharacter get() const noexcept { return h_.get(); }

private:
    detail::Owner<PsCharacter, ps_character_free> h_;
};

// Characters that block each other: one thread at a time.
class Crowd {
public:
    explicit Crowd(bool collide = true) {
        PsCrowd h = 0;
        check(ps_crowd_new(collide, &h));
        h_ = detail::Owner<PsCrowd, ps_crowd_free>(h);
    }
    void insert(std::uint32_t id, const Config &config, PsVec3 at) { check(ps_crowd_insert(get(), id, config.get(), at)); }
    void set_input(std::uint32_t id, const PsMoveInput &input) { check(ps_crowd_set_input(get(), id, &input)); }
    void step(const Level &level) { check(ps_crowd_step(get(), level.get())); }
    PsOutcome outcome(std::uint32_t id) const {
        PsOutcome o{};
        check(ps_crowd_outcome(get(), id, &o));
        return o;
    }
    // A sweep through the level and these characters.
    PsTrace trace(const Level &level, const Shape &shape, PsVec3 start, PsVec3 end, const PsFilter &filter) const {
        PsTrace t{};
        check(ps_scene_trace(level.get(), get(), shape.get(), start, end, &filter, &t));
        return t;
    }
    PsCrowd get() const noexcept { return h_.get(); }

private:
    detail::Owner<PsCrowd, ps_crowd_free> h_;
};

}  // namespace planeshift

#endif
