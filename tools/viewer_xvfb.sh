#!/usr/bin/env bash
# Runs the trace visualizer in a real window on a virtual X display and captures that window.
#
# Usage: tools/viewer_xvfb.sh [OUT_DIR]        (default OUT_DIR: target/viewer_xvfb)
# Environment: FRAMES (default 120), XVFB_DISPLAY (default :99), VIEWER_PROFILE (release,
# the default, or dev: reuse the debug build `cargo test` already made, as CI does).
#
# Needs (installs nothing): Xvfb, xwd and xwininfo (Debian xvfb, x11-apps, x11-utils),
# python3, and Vulkan with Mesa's lavapipe software adapter (libvulkan1,
# mesa-vulkan-drivers). Exits 2 when one is missing.
#
# What it checks:
#  1. the visualizer opens a window on Xvfb, renders through pixels/wgpu on lavapipe, and
#     exits 0 by itself after FRAMES frames (--frames);
#  2. the window's real contents, read back from the X server with xwd while it runs (the
#     last capture before it exits), are not blank: more than one distinct colour;
#  3. that capture matches the RGBA buffer the program handed to pixels on its last frame
#     (--capture) on at least 90 % of the pixels (frames differ only in the HUD's numbers).
# Writes OUT_DIR/window.png (the X capture) and OUT_DIR/buffer.png (the handed buffer).
set -euo pipefail
cd "$(dirname "$0")/.."

out_dir="${1:-target/viewer_xvfb}"
frames="${FRAMES:-120}"
display="${XVFB_DISPLAY:-:99}"
title="planeshift trace visualizer"

missing=()
for tool in Xvfb xwd xwininfo python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
icd="$(ls /usr/share/vulkan/icd.d/lvp_icd*.json 2>/dev/null | head -n 1 || true)"
[ -n "$icd" ] || missing+=("lavapipe ICD (mesa-vulkan-drivers)")
ldconfig -p 2>/dev/null | grep -q 'libvulkan.so.1' || missing+=("libvulkan.so.1 (libvulkan1)")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "viewer_xvfb: missing: ${missing[*]}" >&2
  echo "viewer_xvfb: apt-get install -y xvfb x11-apps x11-utils libvulkan1 mesa-vulkan-drivers" >&2
  exit 2
fi

profile="${VIEWER_PROFILE:-release}"
echo "== building the visualizer ($profile, the viewer package's window feature)"
target_dir="${CARGO_TARGET_DIR:-target}"
if [ "$profile" = dev ]; then
  cargo build -p planeshift_viewer --features window --example trace_visualizer
  exe="$target_dir/debug/examples/trace_visualizer"
else
  cargo build --release -p planeshift_viewer --features window --example trace_visualizer
  exe="$target_dir/release/examples/trace_visualizer"
fi

mkdir -p "$out_dir"
work="$(mktemp -d)"
mkdir -m 700 "$work/runtime"
xvfb_pid=""
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== starting Xvfb $display"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do
  xwininfo -root -display "$display" >/dev/null 2>&1 && break
  sleep 0.1
done
xwininfo -root -display "$display" >/dev/null 2>&1 || {
  echo "viewer_xvfb: Xvfb did not start:" >&2
  cat "$work/xvfb.log" >&2
  exit 1
}

echo "== running $frames frames on lavapipe"
DISPLAY="$display" XDG_RUNTIME_DIR="$work/runtime" VK_ICD_FILENAMES="$icd" WGPU_BACKEND=vulkan \
  "$exe" maps/arena.map --frames "$frames" --capture "$out_dir/buffer.png" \
  --trace box:16,1024,768,32,1300,768,32 --trace sphere:24,300,1000,40,300,1400,40 \
  --trace capsule:12,1700,400,40,1700,100,40 >"$work/app.log" 2>&1 &
app_pid=$!
captures=0
while kill -0 "$app_pid" 2>/dev/null; do
  id="$(xwininfo -root -tree -display "$display" 2>/dev/null | awk -v t="$title" 'index($0, t) { print $1; exit }')"
  if [ -n "$id" ] && xwd -silent -display "$display" -id "$id" -out "$work/part.xwd" 2>/dev/null; then
    mv "$work/part.xwd" "$work/window.xwd"
    captures=$((captures + 1))
  fi
  sleep 0.1
done
status=0
wait "$app_pid" || status=$?
app_pid=""
sed 's/^/  app: /' "$work/app.log"
if [ "$status" -ne 0 ]; then
  echo "viewer_xvfb: the visualizer exited with status $status (expected 0 after --frames)" >&2
  exit 1
fi
echo "visualizer exited 0 after $frames frames; $captures window captures taken"
[ -f "$work/window.xwd" ] || { echo "viewer_xvfb: no window capture was taken" >&2; exit 1; }

python3 - "$work/window.xwd" "$out_dir/window.png" "$out_dir/buffer.png" <<'PY'
"""Convert the xwd capture to PNG, check it is not blank, compare it with the handed buffer."""
import struct
import sys
import zlib

xwd_path, png_path, buffer_path = sys.argv[1:4]


def read_xwd(path):
    data = open(path, "rb").read()
    fields = struct.unpack(">25I", data[:100])
    header_size, version = fields[0], fields[1]
    width, height = fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    masks = fields[14:17]
    ncolors = fields[19]
    if version != 7 or bits_per_pixel != 32:
        sys.exit(f"unsupported xwd: version {version}, {bits_per_pixel} bits per pixel")
    start = header_size + 12 * ncolors
    fmt = "<I" if byte_order == 0 else ">I"
    shifts = [(m & -m).bit_length() - 1 for m in masks]
    rgb = bytearray()
    for y in range(height):
        row = data[start + y * bytes_per_line:start + y * bytes_per_line + 4 * width]
        for (value,) in struct.iter_unpack(fmt, row):
            rgb += bytes(((value & m) >> s) & 0xFF for m, s in zip(masks, shifts))
    return width, height, bytes(rgb)


def write_png(path, width, height, rgb):
    raw = b"".join(b"\x00" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def read_png_rgb(path):
    data = open(path, "rb").read()
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out += line
        prev = line
    rgb = bytes(out) if channels == 3 else bytes(v for i, v in enumerate(out) if i % 4 != 3)
    return width, height, rgb


width, height, rgb = read_xwd(xwd_path)
write_png(png_path, width, height, rgb)
colors = len({rgb[i:i + 3] for i in range(0, len(rgb), 3)})
print(f"window capture: {png_path}, {width}x{height}, {colors} distinct colours")
if colors <= 1:
    sys.exit("viewer_xvfb: the window capture is blank")
bw, bh, brgb = read_png_rgb(buffer_path)
if (bw, bh) != (width, height):
    sys.exit(f"viewer_xvfb: window is {width}x{height} but the buffer is {bw}x{bh}")
close = sum(
    1
    for i in range(0, len(rgb), 3)
    if max(abs(rgb[i + k] - brgb[i + k]) for k in range(3)) <= 2
)
share = close / (width * height)
print(f"window capture matches the handed buffer on {share:.2%} of pixels (within 2 per channel)")
if share < 0.9:
    sys.exit("viewer_xvfb: the window does not show the frame the program drew")
PY
echo "viewer_xvfb: ok"
