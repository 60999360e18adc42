#!/bin/sh
# A stand-in for the Dockerfile's base (node:20-bookworm-slim) where no image registry can be
# reached: a Debian bookworm root file system made by debootstrap from the apt mirror, with this
# machine's Node 20 copied to /usr/local/bin (where the official image keeps it), imported as a
# podman image. Then: podman build --build-arg BASE_IMAGE=TAG -t patchpilot:local .
# Usage (as root, with debootstrap and podman installed): rootfs-base.sh TAG [MIRROR]
set -eu

fail() {
  echo "rootfs-base.sh: $*" >&2
  exit 1
}

[ $# -ge 1 ] || fail "usage: rootfs-base.sh TAG [MIRROR] (MIRROR: debootstrap's default when omitted)"
tag=$1
[ "$(id -u)" -eq 0 ] || fail "run me as root (debootstrap makes device nodes and chroots)"
for tool in debootstrap podman node; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed"
done
node_path=$(command -v node)
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || fail "this machine's node is $(node --version); the image needs Node 20 or newer"

rootfs=$(mktemp -d)
trap 'rm -rf "$rootfs"' EXIT
# minbase: apt and dpkg, no init system; install.sh adds the packages PatchPilot needs.
# shellcheck disable=SC2086 # an omitted mirror must be no word at all
debootstrap --variant=minbase bookworm "$rootfs" ${2:-}
cp "$node_path" "$rootfs/usr/local/bin/node"
chroot "$rootfs" /usr/local/bin/node --version >/dev/null || fail "node does not run in the new root file system (a library it needs is missing)"
rm -f "$rootfs"/var/cache/apt/archives/*.deb
tar -C "$rootfs" -c . | podman import - "$tag"
