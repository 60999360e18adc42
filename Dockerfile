# PatchPilot's container image: the `patchpilot` CLI on Node 20 (Debian bookworm, slim), with git,
# bubblewrap, ripgrep, patch and python3, running as an unprivileged user. Build after `npm run build`
# (the image takes the built dist/, it does not build):
#   npm ci && npm run build && docker build -t patchpilot:local .
# Running it with the sandbox working needs user namespaces in the container: docs/ci.md, "Container".
# BASE_IMAGE lets a build start from a root file system made locally (docs/ci.md) instead of a registry.
ARG BASE_IMAGE=node:20-bookworm-slim
FROM ${BASE_IMAGE}

COPY dist /tmp/patchpilot/dist
COPY skills /tmp/patchpilot/skills
COPY package.json /tmp/patchpilot/
COPY scripts/container/install.sh scripts/container/entry.sh /tmp/patchpilot/scripts/container/
RUN sh /tmp/patchpilot/scripts/container/install.sh /tmp/patchpilot && rm -rf /tmp/patchpilot

USER patchpilot
WORKDIR /workspace
ENTRYPOINT ["/usr/local/bin/patchpilot-entry"]
CMD ["--help"]
