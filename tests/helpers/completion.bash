# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Driving the completions of completions/ as the shells do:
#   load '../helpers/completion'
#
#   COMPDIR, BASH_COMPLETION    the completion files, bash-completion's main script
#   require_bash_completion     skip unless bash-completion is installed
#   bash_complete 'LINE'        what bash offers (${COMP_TOOL:-tmpcreate}'s file)
#   fish_complete 'LINE'        what fish offers (the same tool's file)
#   zsh_complete_script FILE INIT...
#                               FILE: a zsh script printing what <Tab> offers
#                               in an interactive zsh that ran INIT

COMPDIR="$FATTRS_SRCDIR/completions"
BASH_COMPLETION=/usr/share/bash-completion/bash_completion

require_bash_completion() {
	[[ -r $BASH_COMPLETION ]] || skip "needs bash-completion ($BASH_COMPLETION)"
}

# bash_complete 'line up to the cursor': COMPREPLY on stdout, one per line,
# sorted; compopt calls on stderr.  The line is split the way readline splits
# it ("=" and ":" are words of their own).
bash_complete() {
	bash -c '
		source "$1"
		source "$2"
		line=$3
		COMP_LINE=$line COMP_POINT=${#line}
		read -ra COMP_WORDS <<<"$(sed -E "s/([=:])/ \\1 /g" <<<"$line")"
		[[ $line == *[[:space:]=:] ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		compopt() { printf "compopt %s\n" "$*" >&2; }
		fn=$(complete -p "${COMP_WORDS[0]}" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[[ -n $fn ]] || exit 1
		COMPREPLY=()
		"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}" | sort
	' _ "$BASH_COMPLETION" "$COMPDIR/bash/${COMP_TOOL:-tmpcreate}" "$1"
}

# fish_complete 'line': what fish offers, "candidate<TAB>description" per line.
fish_complete() {
	# shellcheck disable=SC2016  # fish expands $argv
	fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$COMPDIR/fish/${COMP_TOOL:-tmpcreate}.fish" "$1"
}

# zsh_complete_script FILE INIT-LINE...: write FILE, a zsh script (run it
# with zsh -f FILE 'LINE') that starts an interactive zsh -f in a zpty, has
# it source FILE.init (PROMPT cleared, the INIT-LINEs, which load the
# completions: fpath, compinit; then compadd hooked to print what it adds,
# and a mark before and after each completion), types LINE and <Tab>, and
# prints what was added between the two marks, one candidate per line.
# Exit 2: the marks never came; 3: no zsh/zpty module.
zsh_complete_script() {
	local file=$1
	shift
	{
		printf '%s\n' 'PROMPT= RPROMPT= PS2=' "$@"
		cat <<-'EOF'
			zstyle ':completion:*' list-grouped false
			zstyle ':completion:*' insert-tab false
			bindkey '^I' complete-word
			bindkey '^M' undefined-key
			bindkey '^J' undefined-key
			_zc_mark() { print -r -- $'\x1e' }
			compprefuncs=(_zc_mark)
			comppostfuncs=(_zc_mark exit)
			compadd() {
			  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
			  local -a _zc_hits
			  builtin compadd -A _zc_hits "$@"
			  (( $#_zc_hits )) && print -rl -- $_zc_hits
			}
			print zc-ready
		EOF
	} >"$file.init" || return
	cat >"$file" <<-'EOF'
		zmodload zsh/zpty || exit 3
		zpty z zsh -f -i
		zpty -w z "source ${(q)0}.init"
		local line
		repeat 20; do zpty -r z line; [[ $line == zc-ready* ]] && break; done
		zpty -w z "$*"$'\t'
		integer marks=0
		while zpty -r z line; do
		  line=${line%$'\r'}; line=${line%$'\n'}; line=${line%$'\r'}
		  if [[ $line == *$'\x1e'* ]]; then (( ++marks == 2 )) && break; continue; fi
		  (( marks == 1 )) && print -r -- $line
		done
		zpty -d z
		(( marks == 2 )) || exit 2
	EOF
}
