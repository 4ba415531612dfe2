# Sourced by the quick-start scripts: makes sure the Node.js first on PATH is one the
# dependencies support (>= 22.12). When the system's Node is older, the version named in
# .node-version is installed from the npm registry's `node` package into .tools/ (inside
# the project; nothing is installed system-wide) and put first on PATH for npm, npx and
# every script after it. Set WAYFINDER_NODE_VERSION to use another version.

wayfinder_node_supported() {
  node -e 'const [major, minor] = process.versions.node.split(".").map(Number);
process.exit(major > 22 || (major === 22 && minor >= 12) ? 0 : 1)' >/dev/null 2>&1
}

# wayfinder_use_node VERSION: installs (once) and activates Node VERSION from the npm registry.
wayfinder_use_node() {
  local version="$1"
  local dir="$PWD/.tools/node-$version"
  if [ ! -x "$dir/node_modules/node/bin/node" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "Wayfinder needs Node.js >= 22.12, or npm to fetch it; neither was found." >&2
      return 1
    fi
    mkdir -p "$dir"
    # The `node` package's preinstall script links the binary for this platform.
    printf '{ "private": true, "allowScripts": { "node@%s": true } }\n' "$version" >"$dir/package.json"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$version" >/dev/null
  fi
  export PATH="$dir/node_modules/node/bin:$PATH"
  hash -r
}

if [ -n "${WAYFINDER_NODE_VERSION:-}" ]; then
  wayfinder_use_node "$WAYFINDER_NODE_VERSION"
elif ! wayfinder_node_supported; then
  wayfinder_wanted="$(tr -d '[:space:]' <.node-version)"
  echo "System Node $(node --version 2>/dev/null || echo "(none)") is older than 22.12: using Node $wayfinder_wanted from the npm registry, kept in .tools/." >&2
  wayfinder_use_node "$wayfinder_wanted"
fi

# glibc's allocator, tuned for a Node process that starts and ends threads (parse
# workers; V8's and Prisma's compile threads): at most two arenas, and blocks of 128 KiB
# or more mapped on their own so they go back to the system when freed. Otherwise each
# thread's arena, and the main heap under it, kept what the threads had freed: a test
# worker that had run parse workers settled 440 MB higher (1010 MB against 570 MB), at
# about the same speed.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
