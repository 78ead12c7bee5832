# bash completion for c2c-lite: commands, options, option values, event names and files.
# Installed by `make install` as PREFIX/share/bash-completion/completions/c2c-lite (loaded on
# demand by bash-completion); works without bash-completion too: `source` this file.
# Options and events are read from the program itself (`c2c-lite CMD --help`, `record -e list`),
# so the completion cannot drift from the options the binary has.

# The options of a command's usage: "OPT" per line, "OPT ARG" when it takes an argument,
# "OPT[=" when the argument is optional (--csv[=TABLE]).
_c2c_lite_options()
{
	"$1" "$2" --help 2>/dev/null | sed -n 's/^ \{1,\}\(-[^ ].*\)$/\1/p' | sed 's/  .*//' |
		while IFS= read -r spec; do
			local arg=${spec##* } word
			[[ $spec == *" "* && $arg != -* ]] || arg=
			spec=${spec%" $arg"}
			for word in ${spec//,/ }; do
				if [[ $word == *"[="* ]]; then
					echo "${word%%[*}[="
				else
					echo "$word${arg:+ $arg}"
				fi
			done
		done
}

# The names `record -e list` prints: the first word of each line indented by two spaces and
# each word after " OR ".
_c2c_lite_events()
{
	"$1" record -e list 2>/dev/null | sed -n 's/^  \([^ ]\)/\1/p' | sed 's/  \[.*//; s/ OR / /g'
	echo list
}

_c2c_lite()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local prog=${COMP_WORDS[0]} cmd= i opt line
	COMPREPLY=()

	# bash splits "--csv=li" into "--csv" "=" "li"
	if [[ $prev == "=" && $COMP_CWORD -ge 2 ]]; then
		prev="${COMP_WORDS[COMP_CWORD-2]}="
	elif [[ $cur == "=" ]]; then
		prev="$prev="
		cur=
	fi
	# "--backend=soft" is "--backend soft" for an option whose argument is not optional
	if [[ $prev == --*= && $COMP_CWORD -ge 3 ]] &&
	   _c2c_lite_takes_arg "$prog" "${COMP_WORDS[1]}" "${prev%=}"; then
		prev=${prev%=}
	fi
	if [[ $COMP_CWORD -eq 1 ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-h --help -V --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null |
				sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')" -- "$cur"))
		fi
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	case $cmd in
	help)
		[[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null |
			sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p') trace" -- "$cur"))
		return 0 ;;
	version) return 0 ;;
	esac

	# record: after "--", or after the first word that is not an option, the workload
	if [[ $cmd == record ]]; then
		for ((i = 2; i < COMP_CWORD; i++)); do
			line=${COMP_WORDS[i]}
			if [[ $line == -- ]]; then
				break
			fi
			# "--backend=soft": "=" and the value belong to the option
			[[ $line == "=" || ${COMP_WORDS[i-1]} == "=" ]] && continue
			if [[ $line != -* ]] && ! _c2c_lite_takes_arg "$prog" record "${COMP_WORDS[i-1]}"; then
				i=$((i - 1))
				break
			fi
		done
		if [[ $i -lt $COMP_CWORD ]]; then
			if declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			elif [[ $((i + 1)) -eq $COMP_CWORD ]]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				compopt -o filenames 2>/dev/null
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	fi

	# the value of the option before
	case "$cmd $prev" in
	"record -e" | "record --event")
		COMPREPLY=($(compgen -W "$(_c2c_lite_events "$prog")" -- "$cur"))
		return 0 ;;
	"record --backend")
		COMPREPLY=($(compgen -W "auto hw soft watch" -- "$cur"))
		return 0 ;;
	"record --watch-overhead"|"record --soft-overhead")
		COMPREPLY=($(compgen -W "unlimited" -- "$cur"))
		return 0 ;;
	"record --call-graph")         # lbr is always refused: not offered
		COMPREPLY=($(compgen -W "fp dwarf" -- "$cur"))
		return 0 ;;
	"record -p" | "record --pid" | "record -t" | "record --tid")
		COMPREPLY=($(compgen -W "$(cd /proc 2>/dev/null && echo [0-9]*)" -- "$cur"))
		return 0 ;;
	*" -d" | *" --display")
		[[ $cmd != record ]] && COMPREPLY=($(compgen -W "tot rmt lcl peer" -- "$cur"))
		return 0 ;;
	"report -c" | "report --coalesce" | "tui -c" | "tui --coalesce")
		local pre=${cur%,*}
		[[ $pre == "$cur" ]] && pre= || pre="$pre,"
		COMPREPLY=($(compgen -P "$pre" -W "pid tid iaddr dso" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return 0 ;;
	"report --csv=")
		COMPREPLY=($(compgen -W "lines rows members" -- "$cur"))
		return 0 ;;
	"report --call-graph=")
		COMPREPLY=($(compgen -W "caller callee" -- "$cur"))
		return 0 ;;
	*" --symfs" | "fix --src" | "selftest --examples" | "selftest -o" | "selftest --output")
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0 ;;
	"selftest --perf-stat")
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	*" -i" | *" --input" | *" -o" | *" --output" | *" -k" | *" --vmlinux")
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	esac
	if _c2c_lite_takes_arg "$prog" "$cmd" "$prev"; then
		return 0             # a number, a list, a symbol: nothing to offer
	fi

	if [[ $cur == -* ]]; then
		local words=
		while IFS= read -r opt; do
			opt=${opt%% *}
			words+=" ${opt%"[="}"
			[[ $opt == *"[=" ]] && words+=" ${opt%"[="}="
		done < <(_c2c_lite_options "$prog" "$cmd")
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	case $cmd in
	diff | convert | selftest)     # their inputs
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	record)                        # the workload
		COMPREPLY=($(compgen -c -- "$cur")) ;;
	esac
	return 0
}

# Whether option $3 of command $2 takes a separate argument.
_c2c_lite_takes_arg()
{
	[[ $3 == -* ]] || return 1
	_c2c_lite_options "$1" "$2" | grep -qx -- "$3 .*"
}

complete -F _c2c_lite c2c-lite
