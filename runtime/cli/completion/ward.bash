# bash completion for ward (installed as bash-completion/completions/ward).
# Commands and options come from ward's own --help, so they never drift
# from the binary; container ids from `ward list -q`.
_ward() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd="" i w
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root | --log | --log-format | --log-level | --profile | --policy) ((i++)) ;;
		-*) ;;
		*)
			cmd=$w
			break
			;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(ward --help 2>/dev/null | sed -n '/^global options:/,/^commands:/p' | grep -o -- '--[a-z-]*' | sort -u)" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(ward --help 2>/dev/null | awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 }')" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(ward "$cmd" --help 2>/dev/null | head -1 | grep -o -- '--[a-z-]*' | sort -u)" -- "$cur"))
		return
	fi
	case $cmd in
	spec | check) COMPREPLY=($(compgen -d -- "$cur")) ;;
	list | features) COMPREPLY=() ;;
	*) COMPREPLY=($(compgen -W "$(ward list -q 2>/dev/null)" -- "$cur")) ;;
	esac
}
complete -F _ward ward ward-strict
