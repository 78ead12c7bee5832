#!/usr/bin/env bash
# Installs every Debian package c2c-lite's build, tests, benchmarks and fuzzing need.
# Debian 12 (bookworm); run as root or with sudo available.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
	build-essential pkg-config libelf-dev libdw-dev libncurses-dev libcmocka-dev \
	libzstd-dev zlib1g-dev libcapstone-dev libdebuginfod-dev libiberty-dev g++ \
	linux-perf tmux time hyperfine clang libclang-rt-14-dev binutils procps python3-jsonschema \
	gfortran libbenchmark-dev man-db groff-base bash-completion zsh >/dev/null
