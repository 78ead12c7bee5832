#!/usr/bin/env bash
# Installs every Debian package c2c-lite's build, tests, benchmarks and fuzzing need.
# Debian 12 (bookworm); run as root or with sudo available.
# Another apt-get or dpkg holding the package lock (unattended-upgrades, a second install) is
# waited for, up to APT_LOCK_TIMEOUT seconds (default 600): apt-get install waits by itself
# (DPkg::Lock::Timeout); apt-get update does not (apt 2.6), so it is retried while it reports
# the lock held.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
wait=${APT_LOCK_TIMEOUT:-600}
[[ $wait =~ ^[0-9]+$ ]] || { echo "install-deps: APT_LOCK_TIMEOUT='$wait' is not a number of seconds" >&2; exit 2; }

apt_update() {
	local end=$((SECONDS + wait)) err said=
	while ! err=$($SUDO apt-get -o DPkg::Lock::Timeout="$wait" update -qq 2>&1 >/dev/null); do
		if [[ $err != *"Could not get lock"* ]] || ((SECONDS >= end)); then
			echo "$err" >&2
			return 1
		fi
		[ -n "$said" ] || echo "install-deps: another apt-get holds the package lists; waiting" \
			"up to ${wait} s" >&2
		said=1
		sleep 2
	done
	[ -z "$err" ] || echo "$err" >&2
}

apt_update
# golang-go and memcached serve tests only: the Go corpus entries (tests/real) and
# tests/e2e/server-memcached.sh, which starts its own memcached on a free port of 127.0.0.1.
$SUDO apt-get -o DPkg::Lock::Timeout="$wait" install -y -qq --no-install-recommends \
	build-essential pkg-config libelf-dev libdw-dev libncurses-dev libcmocka-dev \
	libzstd-dev zlib1g-dev libcapstone-dev libdebuginfod-dev libiberty-dev g++ \
	linux-perf tmux time hyperfine clang libclang-rt-14-dev binutils procps python3-jsonschema \
	gfortran libbenchmark-dev man-db groff-base bash-completion zsh golang-go memcached >/dev/null
