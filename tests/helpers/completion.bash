# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Driving the completions of completions/ as the shells do:
#   load '../helpers/completion'
#
#   COMPDIR, BASH_COMPLETION    the completion files, bash-completion's main script
#   require_bash_completion     skip unless bash-completion is installed
#   bash_complete 'LINE'        what bash offers (${COMP_TOOL:-tmpcreate}'s file)
#   fish_complete 'LINE'        what fish offers (the same tool's file)

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
