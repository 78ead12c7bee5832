#!/usr/bin/env bash
# Installs every Debian package c2c-lite's build, tests, benchmarks and fuzzing need.
# Debian 12 (bookworm); run as root or with sudo available.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# golang-go and memcached serve tests only: the Go corpus entries (tests/real) and
# tests/e2e/server-memcached.sh, which starts its own memcached on a free port of 127.0.0.1.
$SUDO apt-get install -y -qq --no-install-recommends \
	build-essential pkg-config libelf-dev libdw-dev libncurses-dev libcmocka-dev \
	libzstd-dev zlib1g-dev libcapstone-dev libdebuginfod-dev libiberty-dev g++ \
	linux-perf tmux time hyperfine clang libclang-rt-14-dev binutils procps python3-jsonschema \
	gfortran libbenchmark-dev man-db groff-base bash-completion zsh golang-go memcached >/dev/null
