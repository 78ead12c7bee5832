#!/usr/bin/env bash
# `c2c-lite help CMD` shows the command's manual page (perf's habit), from the source tree or
# from where `make install` put it, and the usage text where man is missing; -V, --version and
# version print the version; `make install` (PREFIX, DESTDIR) installs the binary, the manual
# pages and the bash and zsh completion.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

v=$("$C2C" --version) || fail "--version"
[[ $v =~ ^c2c-lite\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version: '$v'"
[ "$("$C2C" -V)" = "$v" ] && [ "$("$C2C" version)" = "$v" ] || fail "-V, version and --version differ"
"$C2C" version extra >/dev/null 2>&1 && fail "version took an argument"
out=$("$C2C" help nosuch 2>&1) && fail "help of no command succeeded"
[ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "'nosuch' is not a c2c-lite command" <<<"$out" || fail "help nosuch: $out"

# without man: the usage text, and a line saying so
mkdir "$tmp/nobin"
PATH=$tmp/nobin "$C2C" help record >"$tmp/u.txt" 2>"$tmp/u.err" || fail "help without man failed"
grep -q '^usage: c2c-lite record' "$tmp/u.txt" || fail "help without man: $(head -3 "$tmp/u.txt")"
grep -q "no manual page c2c-lite-record(1)" "$tmp/u.err" || fail "help without man: $(cat "$tmp/u.err")"
PATH=$tmp/nobin "$C2C" help >"$tmp/u.txt" 2>/dev/null
grep -q '^usage: c2c-lite <command>' "$tmp/u.txt" || fail "help without man and command: $(head -3 "$tmp/u.txt")"

if command -v man >/dev/null; then
	# from the source tree (docs/man beside the build directory)
	page() {  # BINARY TOPIC TITLE WORD: `BINARY help TOPIC` renders the page TITLE with WORD
		MANWIDTH=100 "$1" help $2 >"$tmp/p.txt" 2>"$tmp/p.err" || fail "$1 help $2: $(cat "$tmp/p.err")"
		head -1 "$tmp/p.txt" | grep -qF "$3" || fail "$1 help $2: not $3: $(head -3 "$tmp/p.txt")"
		grep -qF -- "$4" "$tmp/p.txt" || fail "$1 help $2: no '$4'"
	}
	for c in record report tui diff convert doctor selftest; do
		page "$C2C" "$c" "C2C-LITE-$(tr a-z A-Z <<<"$c")(1)" "--help"
	done
	page "$C2C" record "C2C-LITE-RECORD(1)" "--duration"
	page "$C2C" trace "C2C-LITE-TRACE(5)" "CHNK"
	page "$C2C" "" "C2C-LITE(1)" "COMMANDS"
	page "$C2C" help "C2C-LITE(1)" "COMMANDS"
else
	echo "man not installed: the pages themselves are not shown"
fi

# make install, into a DESTDIR with another PREFIX
make -s --no-print-directory install BUILD="$BUILD" DESTDIR="$tmp/root" PREFIX=/opt/c2c \
	>"$tmp/install.log" 2>&1 || fail "make install: $(tail -5 "$tmp/install.log")"
r=$tmp/root/opt/c2c
for f in bin/c2c-lite include/c2c/trace.h share/man/man5/c2c-lite-trace.5 \
	 share/bash-completion/completions/c2c-lite share/zsh/site-functions/_c2c-lite \
	 libexec/c2c-lite/examples/false_sharing libexec/c2c-lite/examples/padded; do
	[ -f "$r/$f" ] || fail "make install did not install $f"
done
for c in "" -record -report -tui -diff -convert -doctor -selftest; do
	[ -f "$r/share/man/man1/c2c-lite$c.1" ] || fail "make install did not install c2c-lite$c.1"
done
[ -x "$r/bin/c2c-lite" ] && [ "$("$r/bin/c2c-lite" --version)" = "$v" ] || fail "installed binary"
bash --norc --noprofile -c "source $r/share/bash-completion/completions/c2c-lite; complete -p c2c-lite" |
	grep -qx 'complete -F _c2c_lite c2c-lite' || fail "installed bash completion does not register"
if command -v man >/dev/null; then
	# the installed binary finds the installed page (PREFIX/share/man, beside its bin/)
	page "$r/bin/c2c-lite" convert "C2C-LITE-CONVERT(1)" "--zstd"
fi
echo "ok"
