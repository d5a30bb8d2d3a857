#!/usr/bin/env bash
# Installs the Debian packages Meridian builds with (when missing), then configures and
# builds into build/. Used by the README's two commands.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake ninja-build ccache mold g++ pkg-config libgrpc++-dev protobuf-compiler-grpc
          libprotobuf-dev protobuf-compiler libsqlite3-dev libsqlitecpp-dev libgtest-dev
          libbenchmark-dev libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev
          libpugixml-dev grpc-proto openssl libssl-dev libcpp-httplib-dev libabsl-dev zlib1g-dev
          libre2-dev
          qt6-base-dev qt6-charts-dev qt6-tools-dev libgl-dev
          fonts-wqy-microhei)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
# ccache in depend mode: it takes a source's headers from the compiler's own list (-MD)
# instead of running the preprocessor first on every miss (0.3 s a batch, and every batch
# of a fresh clone's first build misses). The price: that list names the headers by their
# full path, so a clone in another place (CI's) does not compile from an earlier clone's
# cache; rebuilds in one checkout do.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true CCACHE_DEPEND=true
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
