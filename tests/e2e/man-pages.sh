#!/usr/bin/env bash
# The manual pages (docs/man) and the usage texts never drift apart: for every command, each
# option of `c2c-lite CMD --help` has an entry under OPTIONS in c2c-lite-CMD(1) and each entry
# there is an option of the usage, and the usage has exactly the options the command's source
# parses; c2c-lite(1) lists exactly the commands and options of
# `c2c-lite --help`; c2c-lite-trace(5) names the format version and record types of
# docs/trace-format.md. The pages are valid roff (groff -ww, when installed) and render with man.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
MAN=docs/man
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# the options of a usage text: on each line that starts with an option, the words before the
# first gap of two spaces ("-e, --event EVENT", "--csv[=TABLE]", "--topdown, --no-topdown")
usage_opts() {
	sed -n 's/^ \{1,\}\(-[^ ].*\)$/\1/p' | sed 's/  .*//' |
		grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | tr -d ' ,' | sort -u
}
# the roff lines of section $2 of page $1
section() {
	awk -v s="$2" '/^\.SH/ { on = ($0 == ".SH " s || $0 == ".SH \"" s "\"") ; next } on' "$1"
}
# the tags of the .TP entries of section $2, roff escapes and font changes removed
tags() {
	section "$1" "$2" | awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
		sed 's/\\f[BIRP]//g; s/\\-/-/g; s/\\&//g; s/^\.[A-Z]* //'
}
page_opts() {
	tags "$1" OPTIONS | grep -oE '(^|[ ,"])--?[A-Za-z][A-Za-z0-9-]*' | tr -d ' ,"' | sort -u
}

# the options the code parses: long names of its getopt table, letters of its short-option
# string, or the words it compares argv with (doctor)
code_opts() {
	{
		grep -oE '\{ "[a-z][a-z0-9-]*", (no|required|optional)_argument' "$1" |
			sed 's/{ "\([^"]*\)".*/--\1/'
		grep -oE '(getopt_long|c2c_getopt)\(argc, argv, "[^"]*"' "$1" | sed 's/.*"\(.*\)"/\1/' |
			tr -d ':+' | grep -o . | sed 's/^/-/'
		grep -oE 'strcmp\(argv\[i\], "-[^"]*"\)' "$1" | sed 's/.*"\(.*\)".*/\1/'
	} | sort -u
}
# same CMD A A-NAME B B-NAME: the sorted lists A and B hold the same options
same() {
	local o
	for o in $(comm -23 "$2" "$4"); do bad "$1: '$o' is in $3 but not in $5"; done
	for o in $(comm -13 "$2" "$4"); do bad "$1: '$o' is in $5 but not in $3"; done
}
src_record=record/cmd-record.c src_report=report/cmd-report.c src_tui=tui/cmd-tui.c
src_diff=report/cmd-diff.c src_convert=report/cmd-convert.c src_doctor=record/cmd-doctor.c
src_selftest=report/cmd-selftest.c src_stat=record/cmd-stat.c src_fix=report/cmd-fix.c

# every command of 'c2c-lite --help' but help and version has a page
for cmd in $("$C2C" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z]\{1,\}\) .*/\1/p' |
	grep -v -x -e help -e version); do
	page=$MAN/man1/c2c-lite-$cmd.1
	src=src_$cmd
	[ -n "${!src:-}" ] || { bad "$cmd: this test does not know its source file"; continue; }
	[ -f "$page" ] || { bad "no $page"; continue; }
	"$C2C" "$cmd" --help >"$tmp/$cmd.usage" || { bad "$cmd --help failed"; continue; }
	usage_opts <"$tmp/$cmd.usage" >"$tmp/$cmd.u"
	page_opts "$page" >"$tmp/$cmd.m"
	[ "$(wc -l <"$tmp/$cmd.u")" -ge 3 ] || bad "$cmd: only $(wc -l <"$tmp/$cmd.u") options read from the usage"
	same "$cmd" "$tmp/$cmd.u" "'c2c-lite $cmd --help'" "$tmp/$cmd.m" "OPTIONS in $page"
	code_opts "${!src}" >"$tmp/$cmd.c"
	same "$cmd" "$tmp/$cmd.c" "what ${!src} parses" "$tmp/$cmd.u" "'c2c-lite $cmd --help'"
	grep -q "^\.TH C2C-LITE-$(tr a-z A-Z <<<"$cmd") 1 " "$page" || bad "$page: no .TH C2C-LITE-... 1"
	echo "$cmd: $(wc -l <"$tmp/$cmd.u") options in the code, the usage and the page"
done

# c2c-lite(1): the commands and the top-level options
"$C2C" --help >"$tmp/top.usage"
sed -n '/^commands:/,/^$/p' "$tmp/top.usage" | sed -n 's/^  \([a-z]\{1,\}\) .*/\1/p' | sort >"$tmp/top.cu"
tags $MAN/man1/c2c-lite.1 COMMANDS | awk '{ print $1 }' | sort >"$tmp/top.cm"
[ "$(wc -l <"$tmp/top.cu")" -ge 6 ] || bad "only $(wc -l <"$tmp/top.cu") commands read from c2c-lite --help"
cmp -s "$tmp/top.cu" "$tmp/top.cm" ||
	bad "commands of 'c2c-lite --help' and c2c-lite(1) differ: $(diff "$tmp/top.cu" "$tmp/top.cm" | grep '^[<>]' | tr '\n' ' ')"
sed -n '/^options:/,/^$/p' "$tmp/top.usage" | usage_opts >"$tmp/top.ou"
page_opts $MAN/man1/c2c-lite.1 >"$tmp/top.om"
cmp -s "$tmp/top.ou" "$tmp/top.om" ||
	bad "options of 'c2c-lite --help' and c2c-lite(1) differ: $(diff "$tmp/top.ou" "$tmp/top.om" | grep '^[<>]' | tr '\n' ' ')"
for c in $(cat "$tmp/top.cu"); do
	case $c in help|version) continue ;; esac
	grep -q "^\.BR c2c-lite-$c (1)" $MAN/man1/c2c-lite.1 || bad "c2c-lite(1) does not refer to c2c-lite-$c(1)"
done

# c2c-lite-trace(5) follows docs/trace-format.md: its version and its record types
v=$(sed -n '1s/.*version \([0-9.]*\).*/\1/p' docs/trace-format.md)
grep -q "^c2c-lite-trace \\\\- the c2c-lite trace format, version $v\$" $MAN/man5/c2c-lite-trace.5 ||
	bad "c2c-lite-trace(5) does not name version $v of docs/trace-format.md"
grep -oE '\*\*[A-Z_]+ \(tag [0-9]+(, since [0-9.]+)?\)\*\*' docs/trace-format.md |
	sed 's/\*\*\([A-Z_]*\) (tag \([0-9]*\).*/\2 \1/' >"$tmp/tags.md"
[ "$(wc -l <"$tmp/tags.md")" -ge 6 ] || bad "record types not found in docs/trace-format.md"
while read -r n name; do
	grep -q "$n $name" $MAN/man5/c2c-lite-trace.5 || bad "c2c-lite-trace(5) lacks record type '$n $name'"
done <"$tmp/tags.md"

# every page is referred to by name, and every c2c-lite page referred to exists
for ref in $(grep -ho '^\.BR c2c-lite[a-z-]* ([15])' $MAN/man*/* | sed 's/^\.BR //; s/ (/./; s/)//' | sort -u); do
	[ -f "$MAN/man${ref##*.}/$ref" ] || bad "a page refers to ${ref%.*}(${ref##*.}), which does not exist"
done

# valid roff, and man renders each page with its name
if command -v groff >/dev/null; then
	for p in $MAN/man*/*; do
		w=$(groff -man -ww -z -t "$p" 2>&1)
		[ -z "$w" ] || bad "$p: groff warns: $w"
	done
else
	echo "groff not installed: roff not linted"
fi
if command -v man >/dev/null; then
	for p in $MAN/man*/*; do
		n=$(basename "$p"); n=${n%.*}
		MANWIDTH=80 man -l "$p" 2>"$tmp/man.err" | grep -q "^NAME" || bad "man -l $p: $(cat "$tmp/man.err")"
		MANWIDTH=80 man -l "$p" 2>/dev/null | grep -q "^ *$n  *- " || bad "man -l $p: no '$n - ' NAME line"
	done
else
	echo "man not installed: pages not rendered"
fi
[ $fail -eq 0 ] && echo "ok"
exit $fail
