#!/usr/bin/env bash
# Shell completion (scripts/completion): bash registers itself (complete -p) and answers scripted
# queries through COMP_WORDS/COMP_CWORD for commands, options, option values, event names (the
# names of `record -e list`), files and the workload after `--`, alone and under bash-completion
# when it is installed; zsh, when installed, answers the same queries with its completion
# functions stubbed.
set -u
BUILD=${BUILD:-build}
BIN=$PWD/$BUILD
COMP=$PWD/scripts/completion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -x "$BIN/c2c-lite" ] || { echo "skip: $BIN/c2c-lite not built"; exit 77; }
cd "$tmp" || exit 1
mkdir symdir
touch trace.c2c trace2.c2c

# queries.txt: "words | expected words (all must be offered) | words that must not be"
cat >queries.txt <<'Q'
c2c-lite re|record report|tui
c2c-lite |record report tui diff fix convert doctor selftest help version|
c2c-lite -|-h --help -V --version|record
c2c-lite help |record report tui diff fix convert doctor selftest trace|
c2c-lite record --d|--duration|--backend
c2c-lite record --ba|--backend|
c2c-lite record -e |cpu-clock page-faults faults list|--duration
c2c-lite record --event pa|page-faults|cpu-clock
c2c-lite record --backend |auto hw soft watch|
c2c-lite record --backend = |auto hw soft watch|echo
c2c-lite record --backend = s|soft|sed
c2c-lite record --call-graph = |fp dwarf|echo
c2c-lite record --call-graph = d|dwarf|fp
c2c-lite record --backend = soft ech|echo|soft
c2c-lite record --backend = soft -o tr|trace.c2c|
c2c-lite report --display = r|rmt|lcl
c2c-lite record --watch-overhead |unlimited|
c2c-lite record --soft-overhead |unlimited|
c2c-lite record -c |||
c2c-lite record -o tr|trace.c2c trace2.c2c|
c2c-lite record -e cpu-clock -- ech|echo|
c2c-lite record -- ls tr|trace.c2c|
c2c-lite report -|-i --input --stdio --json --csv -q --quiet -h|--duration
c2c-lite report --cs|--csv --csv=|
c2c-lite report --csv = r|rows|lines
c2c-lite report -d |tot rmt lcl peer|
c2c-lite report -c pid,t|pid,tid|
c2c-lite report -i tr|trace.c2c trace2.c2c|symdir
c2c-lite report --symfs s|symdir|
c2c-lite tui -|-i -d -c -q --quiet|--stdio
c2c-lite diff tr|trace.c2c trace2.c2c|
c2c-lite diff -|-d --json -q|--stdio
c2c-lite convert --z|--zstd --zstd=|
c2c-lite fix -|-i --src -o --dry-run --double-cl -q|--stdio
c2c-lite fix --src s|symdir|trace.c2c
c2c-lite fix -i tr|trace.c2c trace2.c2c|
c2c-lite doctor -|--no-probe -q --quiet|
c2c-lite report --p|--phys|
c2c-lite record -|-g --call-graph -q|
c2c-lite record --call-graph |fp dwarf|
c2c-lite report --cal|--call-graph --call-graph=|
c2c-lite report --no-c|--no-call-graph|
c2c-lite report --call-graph = ca|caller callee|lines
c2c-lite selftest -|--hw --compare --perf-stat --expect --examples --seconds -o -q|--stdio
c2c-lite selftest --examples s|symdir|trace.c2c
c2c-lite selftest --perf-stat tr|trace.c2c|
c2c-lite selftest --compare tr|trace.c2c trace2.c2c|
Q

# every event name of `record -e list` is offered after -e
events=$("$BIN/c2c-lite" record -e list | sed -n 's/^  \([^ ]\)/\1/p' | sed 's/  \[.*//; s/ OR / /g')
echo "c2c-lite record -e |$(echo $events)|" >>queries.txt

check_answers() {  # SHELL FILE: FILE has "query -> answer" lines
	local shell=$1 n=0 q want not got w
	while IFS='|' read -r q want not; do
		got=$(awk -v q="[$q] ->" 'index($0, q) == 1 { print substr($0, length(q) + 1) }' "$2")
		for w in $want; do
			[[ " $got " == *" $w "* ]] || bad "$shell: '$q' does not offer '$w' (offers:$got)"
		done
		for w in $not; do
			[[ " $got " != *" $w "* ]] || bad "$shell: '$q' offers '$w'"
		done
		n=$((n + 1))
	done <queries.txt
	echo "$shell: $n queries"
}

# bash, alone and under bash-completion
cat >bashq.sh <<'B'
source "$COMP/c2c-lite.bash"
complete -p c2c-lite
while IFS='|' read -r q _; do
	read -r -a COMP_WORDS <<<"$q"
	[[ $q == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$q COMP_POINT=${#q}
	COMPREPLY=()
	_c2c_lite
	echo "[$q] -> ${COMPREPLY[*]}"
done <queries.txt
B
PATH=$BIN:$PATH COMP=$COMP bash --norc --noprofile bashq.sh >bash.out 2>bash.err || bad "bash: $(cat bash.err)"
grep -qx 'complete -F _c2c_lite c2c-lite' bash.out || bad "bash: complete -p: $(head -1 bash.out)"
check_answers bash bash.out
bc=/usr/share/bash-completion/bash_completion
if [ -f $bc ]; then
	PATH=$BIN:$PATH COMP=$COMP bash --norc --noprofile -c "source $bc; source bashq.sh" >bashc.out 2>bashc.err ||
		bad "bash-completion: $(cat bashc.err)"
	check_answers "bash with bash-completion" bashc.out
else
	echo "bash-completion not installed: checked without it"
fi

# zsh: the completion functions stubbed, the candidates printed
if command -v zsh >/dev/null; then
	cat >zshq.zsh <<'Z'
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- ${(M)@:#${PREFIX}*}; }
_describe() { local c=(${(@)${(@P)4}%%:*}); print -l -- ${(M)c:#${PREFIX}*}; }
_files() { print -l -- ${PREFIX}*(N$([[ $1 == -/ ]] && print /)); }
_normal() { if (( CURRENT == 1 )); then _command_names; else _files; fi; }
_command_names() { print -l -- ${(k)commands[(I)${PREFIX}*]}; }
_values() { shift 3; local p=${PREFIX%,*} w=${PREFIX##*,}; [[ $p == $PREFIX ]] && p= || p=$p,; print -l -- ${${(M)@:#${w}*}/#/$p}; }
_pids() { print -l -- 1; }
compset() { PREFIX=${PREFIX#${~2}}; }
while IFS='|' read -r q _; do
	local line=${q// = /=}          # zsh keeps "--csv=r" one word
	words=(${(s: :)line})
	[[ $line == *" " ]] && words+=("")
	CURRENT=$#words PREFIX=$words[-1]
	print -r -- "[$q] -> ${(j: :)${(f)$(source $COMP/_c2c-lite)}}"
done <queries.txt
Z
	PATH=$BIN:$PATH COMP=$COMP zsh -f zshq.zsh >zsh.out 2>zsh.err || bad "zsh: $(cat zsh.err)"
	check_answers zsh zsh.out
else
	echo "zsh not installed: zsh completion not checked"
fi
[ $fail -eq 0 ] && echo "ok"
exit $fail
