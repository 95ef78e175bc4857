#!/usr/bin/env bash
# Installs only the shared libraries fcpd needs at run time (the Docker runtime stage uses it).
# Idempotent. Keep in step with the -dev packages in install-deps.sh.
set -euo pipefail
packages=(libboost-json1.81.0 libspdlog1.10 libfmt9 libpugixml1v5 liboscpack1 zlib1g libssl3 libgvc6 libcgraph6 librsvg2-2 libcairo2 libpng16-16 fonts-liberation2 libfluidsynth3 libsndfile1 timgm6mb-soundfont ca-certificates)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
