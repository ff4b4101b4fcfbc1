#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install what Pineda needs on Debian 12: Debian packages, then the pinned npm Yosys.
# Idempotent: it checks first and does nothing slow when everything is present (~1 s).
# Run as root (CI, containers) or as a user with sudo. See docs in shared/design/TOOLCHAIN.md.
#
#   bash scripts/deps.sh            install what is missing
#   bash scripts/deps.sh --check    only report what is missing (exit 1 if anything is)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd)

CHECK_ONLY=0
case "${1:-}" in
  --check) CHECK_ONLY=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

# Debian packages: compilers, RTL simulator, unit tests, PNG/zlib, waveform tools (gtkwave
# also gives fst2vcd; optional for users, never needed by tests), ccache for the C++ builds,
# reference assets (glmark2-data: bunny.obj etc. under /usr/share/glmark2), tinyobjloader (loads
# bunny.obj) and meshoptimizer (simplification, vertex-cache optimisation) for the mesh scenes,
# stb headers and nlohmann-json (the benchmark's JSON output); CLI11 (argument parsing of the
# `pineda` tool) and assimp (its model loading: OBJ, 3DS, glTF and the rest).
# ca-certificates: npm needs it for the registry's TLS, and --no-install-recommends would
# otherwise leave it out on a minimal image.
APT_PKGS=(build-essential make python3 verilator catch2 zlib1g-dev libpng-dev gtkwave clang-14 libclang-rt-14-dev
          ccache glmark2-data libtinyobjloader-dev libmeshoptimizer-dev libstb-dev nlohmann-json3-dev
          libcli11-dev libassimp-dev ca-certificates)

# node/npm: only when missing (a machine may have Node.js from elsewhere, e.g. nodesource,
# whose nodejs package already contains npm; Debian splits them into nodejs + npm).
command -v node >/dev/null 2>&1 || APT_PKGS+=(nodejs)
command -v npm  >/dev/null 2>&1 || APT_PKGS+=(npm)

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else SUDO=(); fi
fi

say() { echo "deps: $*"; }

# --- what is missing --------------------------------------------------------------------------
missing=()
for p in "${APT_PKGS[@]}"; do
  # "install ok installed" only; a removed-but-configured package counts as missing
  if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != "installed" ]; then
    missing+=("$p")
  fi
done

STAMP=node_modules/.pineda-npm-ci.stamp
npm_needed=0
if [ ! -d node_modules/@yowasp/yosys ] || [ ! -f "$STAMP" ] \
   || [ package-lock.json -nt "$STAMP" ] || [ package.json -nt "$STAMP" ]; then
  npm_needed=1
fi

if [ "$CHECK_ONLY" -eq 1 ]; then
  rc=0
  if [ ${#missing[@]} -gt 0 ]; then say "missing Debian packages: ${missing[*]}"; rc=1; fi
  if [ "$npm_needed" -eq 1 ]; then say "node_modules missing or older than package-lock.json"; rc=1; fi
  [ "$rc" -eq 0 ] && say "everything present"
  exit "$rc"
fi

# --- Debian packages ------------------------------------------------------------------------
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && [ ${#SUDO[@]} -eq 0 ]; then
    say "need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "Debian packages: all ${#APT_PKGS[@]} present"
fi

# --- npm: the pinned Yosys (WebAssembly) --------------------------------------------------------
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || { say "$tool still missing after install" >&2; exit 1; }
done
if [ "$npm_needed" -eq 1 ]; then
  say "npm ci (package-lock.json: @yowasp/yosys $(sed -n 's/.*"@yowasp\/yosys": "\(.*\)".*/\1/p' package.json | head -1))"
  # --ignore-scripts: the locked packages need no install scripts; --no-audit/--no-fund: quiet,
  # and no requests beyond the registry downloads
  npm ci --ignore-scripts --no-audit --no-fund --update-notifier=false
  touch "$STAMP"
else
  say "node_modules: up to date with package-lock.json"
fi

say "node $(node --version), npm $(npm --version 2>/dev/null), verilator $(verilator --version 2>/dev/null | awk '{print $2}')"
say "done"
