#!/usr/bin/env bash
# scripts/install-deps.sh when another apt-get holds the package lock: it waits rather than
# failing at once. A stand-in apt-get (and sudo) first on PATH plays apt 2.6: `update` fails
# with apt's lock message while the lock is "held" (its first two calls), `install` fails so
# unless it is given DPkg::Lock::Timeout (with which the real one waits). Nothing is installed.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$T/bin"
cat >"$T/bin/apt-get" <<'A'
#!/usr/bin/env bash
echo "$*" >>"$FAKE/log"
case " $* " in
*" update "*)
	n=$(cat "$FAKE/held" 2>/dev/null || echo 0)
	if [ "$n" -gt 0 ]; then
		echo $((n - 1)) >"$FAKE/held"
		echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
		echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
		exit 100
	fi
	[ -f "$FAKE/broken" ] && { echo "E: Failed to fetch http://deb.debian.org/ (offline)" >&2; exit 100; }
	exit 0 ;;
*" install "*)
	[[ " $* " == *" DPkg::Lock::Timeout="[0-9]* ]] && exit 0
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2
	exit 100 ;;
esac
exit 0
A
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
chmod +x "$T/bin/apt-get" "$T/bin/sudo"
export FAKE=$T PATH=$T/bin:$PATH

# the lists held for two tries, then free: waits, says so once, installs with the timeout
echo 2 >"$T/held"
APT_LOCK_TIMEOUT=60 bash scripts/install-deps.sh >"$T/out" 2>"$T/err" ||
	fail "exit $? with the lock held for a while: $(cat "$T/err")"
[ "$(grep -c ' update' "$T/log")" -eq 3 ] || fail "update not retried: $(cat "$T/log")"
[ "$(grep -c 'waiting' "$T/err")" -eq 1 ] || fail "no single waiting line: $(cat "$T/err")"
grep -q 'DPkg::Lock::Timeout=60 install' "$T/log" || fail "install without the lock timeout: $(cat "$T/log")"
# held for longer than allowed: apt's error, non-zero
: >"$T/log"
echo 1000 >"$T/held"
APT_LOCK_TIMEOUT=1 bash scripts/install-deps.sh >"$T/out" 2>"$T/err" && fail "a lock held for ever passed"
grep -q 'Could not get lock /var/lib/apt/lists/lock' "$T/err" || fail "no lock error: $(cat "$T/err")"
grep -q ' install' "$T/log" && fail "installed although update failed"
# another failure of update: not waited for, its message shown
: >"$T/log"
echo 0 >"$T/held"
touch "$T/broken"
APT_LOCK_TIMEOUT=60 bash scripts/install-deps.sh >"$T/out" 2>"$T/err" && fail "a failed update passed"
grep -q 'Failed to fetch' "$T/err" || fail "the update's error is not shown: $(cat "$T/err")"
[ "$(grep -c ' update' "$T/log")" -eq 1 ] || fail "a failure that is not the lock was retried"
APT_LOCK_TIMEOUT=soon bash scripts/install-deps.sh >/dev/null 2>"$T/err"; [ $? -eq 2 ] ||
	fail "APT_LOCK_TIMEOUT=soon accepted"
echo "install-deps: ok"
