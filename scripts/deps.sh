#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages the build and tests need, only those missing. Quiet and idempotent.
# Sourced by scripts/test and scripts/run.
kwb_install_deps() {
  local pkgs=(cmake ninja-build g++ pkg-config git python3
    nlohmann-json3-dev libcli11-dev libcpp-httplib-dev libcurl4-openssl-dev
    libgtest-dev libgmock-dev libbenchmark-dev libdtl-dev libeigen3-dev python3-numpy python3-torch
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev libqscintilla2-qt6-dev
    bubblewrap xvfb xauth clang-format clang-tidy
    clang libclang-rt-14-dev  # the fuzz preset: clang with libFuzzer (docs/reliability.md)
    slurm-wlm munge  # the Slurm executor's test starts a single-node Slurm (docs/suites.md)
    openssh-server openssh-client)  # the ssh executor's tests start an sshd on loopback (docs/suites.md)
  local missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "scripts: installing missing packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
