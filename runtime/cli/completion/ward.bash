# bash completion for ward (installed as bash-completion/completions/ward).
# Commands and options come from ward itself (`ward __complete`, read from
# the tables its parser uses), so they never drift from the binary;
# container ids from `ward list -q`, under the --root of the command line.

# _ward_values ARG: the words of an option's value ("table|json"), or
# nothing when it names a file, a number or a list (DIR, FILE, N).
_ward_values() {
	[[ $1 =~ ^[a-z0-9]+(\|[a-z0-9]+)+$ ]] && printf '%s\n' ${1//|/ }
}

_ward() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd="" i w spec vals
	local -a gopts=() copts=() root=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	mapfile -t gopts < <(ward __complete globals 2>/dev/null)
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-*=*)
			[[ $w == --root=* || $w == -root=* ]] && root=(--root "${w#*=}")
			;;
		-*)
			# a global that takes a value: the next word is that value
			if printf '%s\n' "${gopts[@]}" | grep -q -- "^-\{1,2\}${w#"${w%%[!-]*}"}="; then
				[[ $w == --root || $w == -root ]] && root=(--root "${COMP_WORDS[i + 1]}")
				((i++))
			fi
			;;
		*)
			cmd=$w
			break
			;;
		esac
	done
	if [[ -z $cmd ]]; then
		spec=$(printf '%s\n' "${gopts[@]}" | grep -m1 -- "^--${prev#"${prev%%[!-]*}"}=" 2>/dev/null)
		if [[ $prev == -* && -n $spec ]]; then
			vals=$(_ward_values "${spec#*=}")
			if [[ -n $vals ]]; then
				COMPREPLY=($(compgen -W "$vals" -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
		elif [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "${gopts[*]%%=*}" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(ward __complete commands 2>/dev/null)" -- "$cur"))
		fi
		return
	fi
	mapfile -t copts < <(ward __complete flags "$cmd" 2>/dev/null)
	if [[ $prev == -* ]]; then
		spec=$(printf '%s\n' "${copts[@]}" | grep -m1 -x -- "$prev=.*")
		if [[ -n $spec ]]; then
			vals=$(_ward_values "${spec#*=}")
			if [[ -n $vals ]]; then
				COMPREPLY=($(compgen -W "$vals" -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "${copts[@]%%=*}" | grep -- '^--')" -- "$cur"))
		return
	fi
	case $cmd in
	spec | check) COMPREPLY=($(compgen -d -- "$cur")) ;;
	list | features) COMPREPLY=() ;;
	*)
		# Only the state root is passed on: TAB must not create a --log
		# file or a state directory that is not there.
		[[ ${#root[@]} -eq 0 || -d ${root[1]} ]] &&
			COMPREPLY=($(compgen -W "$(ward "${root[@]}" list -q 2>/dev/null)" -- "$cur"))
		;;
	esac
}
complete -F _ward ward ward-strict
