#!/usr/bin/env bash
# Installs the Debian packages needed to build and test iwarp-ns3.  Idempotent: checks with dpkg-query first and
# only runs apt-get (update + install) for packages that are missing; prints nothing when everything is present.
#
#   scripts/install-deps.sh          what `make` and `make test` need
#   scripts/install-deps.sh fuzz     that, plus clang and its libFuzzer runtime and symbolizer (`make fuzz`)
set -euo pipefail

# Debian package list (Debian 12 / bookworm).  Add packages here.
# pkg-config and python3-venv: the iwarp-install test (a pkg-config query, a venv as the install prefix).
PACKAGES="build-essential cmake pkg-config libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev tshark
          libyaml-cpp-dev libboost-graph-dev nlohmann-json3-dev libcli11-dev libusrsctp-dev zlib1g-dev
          pybind11-dev python3-dev python3-venv python3-pytest python3-pandas python3-numpy python3-matplotlib
          python3-distributed python3-yaml python3-tqdm python3-mypy python3-setuptools python3-wheel
          python3-jsonschema"
# `make fuzz` only (doc/fuzzing.md): clang, libFuzzer and the sanitizer runtimes, llvm-symbolizer for stacks.
FUZZ_PACKAGES="clang libclang-rt-14-dev llvm-14"
if [ "${1:-}" = "fuzz" ]; then
    PACKAGES="${PACKAGES} ${FUZZ_PACKAGES}"
fi

missing=()
for pkg in ${PACKAGES}; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "${pkg}" 2>/dev/null || true)"
    if [ "${status}" != "installed" ]; then
        missing+=("${pkg}")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
else
    SUDO=(sudo)
fi

echo "install-deps: installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark pulls in wireshark-common, which asks whether non-root users may capture; answer "no" beforehand.
echo "wireshark-common wireshark-common/install-setuid boolean false" | "${SUDO[@]}" debconf-set-selections
"${SUDO[@]}" apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
