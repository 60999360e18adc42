#!/bin/sh
# The one install script of PatchPilot's container image, shared by the Dockerfile and by a build
# from a root file system (docs/ci.md, "Container"): the Debian packages the agent's commands and
# sandbox need, then the PatchPilot CLI from a built checkout (dist/, skills/, package.json) or from
# a packed npm tarball, and the unprivileged user runs happen as.
# Usage (as root, on Debian with Node 20 on PATH):
#   install.sh [--no-packages] SOURCE   SOURCE: a directory holding dist/cli.js, or a .tgz from `npm pack`
set -eu

PREFIX=/opt/patchpilot
RUN_USER=patchpilot
PACKAGES="git bubblewrap ripgrep ca-certificates patch python3"

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

install_packages=yes
if [ "${1:-}" = "--no-packages" ]; then
  install_packages=no
  shift
fi
[ $# -eq 1 ] || fail "usage: install.sh [--no-packages] SOURCE (a built checkout with dist/cli.js, or an npm pack .tgz)"
source=$1
[ -e "$source" ] || fail "$source: no such file or directory"
[ "$(id -u)" -eq 0 ] || fail "run me as root (I install Debian packages and write $PREFIX)"
command -v node >/dev/null 2>&1 || fail "node is not on PATH: start from a Node 20 image (the Dockerfile's base)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || fail "PatchPilot needs Node 20 or newer; this is $(node --version)"

if [ "$install_packages" = yes ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  # shellcheck disable=SC2086 # the list is words on purpose
  apt-get install -y --no-install-recommends $PACKAGES
  rm -rf /var/lib/apt/lists/*
fi

# A packed tarball unpacks to package/; either way the checkout must hold the built CLI.
unpacked=""
if [ -f "$source" ]; then
  unpacked=$(mktemp -d)
  tar -xzf "$source" -C "$unpacked"
  source="$unpacked/package"
fi
[ -f "$source/dist/cli.js" ] || fail "$source has no dist/cli.js: run \`npm run build\` first (an npm pack tarball must include dist/)"
[ -f "$source/package.json" ] || fail "$source has no package.json"

# What the CLI reads at run time: the bundles and their wasm (not the source maps), the bundled
# skills (found beside a package.json named patchpilot) and the manifest.
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
cp -R "$source/dist" "$PREFIX/dist"
find "$PREFIX/dist" -name '*.map' -delete
rm -rf "$PREFIX/dist/webview"
[ -d "$source/skills" ] && cp -R "$source/skills" "$PREFIX/skills"
cp "$source/package.json" "$PREFIX/package.json"
[ -n "$unpacked" ] && rm -rf "$unpacked"
chmod 0755 "$PREFIX/dist/cli.js"
ln -sf "$PREFIX/dist/cli.js" /usr/local/bin/patchpilot

# The entry script sits beside this one in the checkout; a tarball from npm pack may not carry it.
here=$(dirname "$0")
if [ -f "$here/entry.sh" ]; then
  install -m 0755 "$here/entry.sh" /usr/local/bin/patchpilot-entry
fi

id "$RUN_USER" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$RUN_USER"
mkdir -p /workspace
chown "$RUN_USER:$RUN_USER" /workspace

patchpilot --version
