#!/usr/bin/env bash
# Installs the Debian 12 packages fcp builds and tests with. Idempotent: installs only what is
# missing, and runs apt-get update only when something is.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libboost1.81-dev libboost-json1.81-dev
  libspdlog-dev libfmt-dev libpugixml-dev liboscpack-dev zlib1g-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang-tidy
  clang libclang-rt-14-dev
  libxml2-utils
  libgraphviz-dev librsvg2-dev libcairo2-dev libpng-dev
  # Liberation Sans has Helvetica's metrics; fontconfig resolves draw.io's default font family
  # "Helvetica" to it, so exported labels take the room draw.io gives them (not DejaVu's).
  fonts-liberation2
  libfluidsynth-dev libsndfile1-dev timgm6mb-soundfont python3-mido
  liblo-tools
  nginx  # the load balancer of the replica test (tests/e2e/replicas.sh, deploy/)
)
# Node.js runs the end-to-end tests with the official MCP TypeScript SDK.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
