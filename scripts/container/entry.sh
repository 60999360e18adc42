#!/bin/sh
# The container image's entry point: says plainly, once, whether bubblewrap can sandbox the agent's
# commands in this container, then runs `patchpilot` with the given arguments. It never turns the
# sandbox off: without it, the CLI's own policy still decides, and commands that run code from the
# workspace are asked about (refused when nobody can answer, as in CI).
# The check is the one the CLI makes (src/core/sandbox/probe.ts): bwrap running `true` in new
# namespaces. Messages go to stderr, so `--json` output on stdout stays a clean event stream.
set -u

warn() {
  echo "patchpilot-entry: $*" >&2
}

# What a missing sandbox means, in the terms of the CLI's own policy (docs/security.md).
consequence="commands cannot be sandboxed: the command policy still decides, commands that run code from the workspace are asked about (refused when nobody can answer), and \`patchpilot run\` says at start what is not protected"
if ! command -v bwrap >/dev/null 2>&1; then
  warn "bubblewrap (bwrap) is not installed here, so $consequence."
elif ! why=$(bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-net --unshare-pid --die-with-parent --cap-drop ALL true 2>&1); then
  warn "bubblewrap does not work in this container ($(printf '%s' "$why" | head -n 1)), so $consequence. To sandbox them, start the container with user namespaces and an unmasked /proc (docs/ci.md, \"Container\")."
fi

exec patchpilot "$@"
