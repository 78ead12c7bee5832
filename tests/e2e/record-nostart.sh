#!/usr/bin/env bash
# A workload that cannot start: the shell's exit codes (127 not found, 126 not executable), one
# error line, and no trace file left behind (nor an old one under the same name).
. tests/e2e/record-lib/common.sh

cd "$TMP" || exit 1
OPT=-e
ARG=cpu-clock
check() {  # want-status file command...  (record options: $OPT $ARG)
	local want=$1 out=$2; shift 2
	"$C2C" record "$OPT" "$ARG" -o "$out" -- "$@" >out.txt 2>err.txt
	local rc=$?
	[ $rc -eq "$want" ] || fail "$*: exit $rc, want $want"
	[ ! -e "$out" ] || fail "$*: '$out' was left behind ($(stat -c %s "$out") bytes)"
	[ "$(grep -c "error:" err.txt)" -eq 1 ] || fail "$*: not one error line: $(cat err.txt)"
	# checked before the backend is set up: nothing said before it (nor a cost measured)
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "$*: more than the error: $(cat err.txt)"
	grep -q "cannot run '$1'" err.txt || fail "$*: no clear error: $(cat err.txt)"
	[ ! -s out.txt ] || fail "$*: printed on stdout: $(cat out.txt)"
}
check 127 x.data ./no-such-program arg
printf 'not a program\n' >notexec
chmod 644 notexec
check 126 y.data ./notexec
# the default output name, with an earlier trace there
"$C2C" record -e cpu-clock -- true 2>/dev/null || fail "cannot record 'true'"
[ -s c2c-lite.data ] || fail "no c2c-lite.data"
check 127 c2c-lite.data ./no-such-program
# the same with the soft backend (it forks the workload the same way), the program looked up
# in PATH as the exec would, and with the machine's default backend
if "$C2C" record --backend=soft -o soft.data -- true 2>/dev/null; then
	OPT=--backend ARG=soft
	check 127 soft2.data ./no-such-program
	check 127 soft2.data no-such-program-in-path
	mkdir -p bin && cp notexec bin/notexec-in-path
	PATH=$PWD/bin:$PATH check 126 soft2.data notexec-in-path
	rm -f soft.data
fi
# what only the exec can tell (a script whose interpreter does not exist): 127 at the start, and
# the trace removed, but never an output that is not a regular file (-o /dev/null as root)
printf '#!/nonexistent/interpreter\n' >badinterp
chmod +x badinterp
"$C2C" record -o bad.data -- ./badinterp >/dev/null 2>err.txt
[ $? -eq 127 ] && [ ! -e bad.data ] || fail "bad interpreter: $(cat err.txt)"
if mknod nulldev c 1 3 2>/dev/null; then
	"$C2C" record -o nulldev -- ./badinterp >/dev/null 2>err.txt
	[ -c nulldev ] || fail "a failed start removed the device it wrote to: $(cat err.txt)"
fi
OPT=-v ARG=-v
check 127 v.data ./no-such-program
check 126 v.data "$PWD"
echo "ok: 127 and 126, one line, no trace left"
