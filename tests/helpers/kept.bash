# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Which kernel flags a filesystem keeps, as chattr and lsattr find it, beside
# what a tool of ours says of the same file:  load '../helpers/kept'
#
#   fs_run TYPE "$KEPT_PROBE"'kept_table CMD'
#       in $D, for a fresh regular file (f) and directory (d) per chattr
#       letter of KEPT_LETTERS: chattr +LETTER, lsattr -d, chattr -LETTER,
#       then CMD OBJECT NAME (a shell function or command that prints what
#       the tool says of flag NAME of OBJECT); one line per flag:
#         KIND NAME VERDICT SAID
#       VERDICT: kept (lsattr shows it set), dropped (chattr failed, or
#       succeeded and lsattr shows it clear), denied (EPERM: journal needs
#       CAP_SYS_RESOURCE, so this cannot tell)
#   kept_disagree OUTPUT KEPT DROPPED
#       the lines of OUTPUT whose SAID is not KEPT for a kept flag, or not
#       DROPPED for a dropped one (denied ones are not compared); empty if
#       they all agree

# The letters chattr sets (not the read-only e I E V F N), with our names.
# shellcheck disable=SC2034  # used by the tests
KEPT_LETTERS='s:secrm u:undelete c:compress S:sync i:immutable a:append d:nodump A:noatime j:journal t:notail D:dirsync T:topdir P:projinherit x:dax C:nocow m:nocompress'

# shellcheck disable=SC2016,SC2034  # expanded inside fs_run's namespace
KEPT_PROBE='
KEPT_LETTERS="'$KEPT_LETTERS'"
kept_chattr() {
	local o=$1 err a
	if ! err=$(chattr "+$2" "$o" 2>&1); then
		[[ $err == *"not permitted"* ]] && echo denied || echo dropped
		return
	fi
	a=$(lsattr -d "$o") && a=${a%% *}
	chattr "-$2" "$o" || return 1
	[[ $a == *"$2"* ]] && echo kept || echo dropped
}
kept_table() {
	local kind pair l n o v
	cd "$D" || return 1
	for kind in f d; do
		for pair in $KEPT_LETTERS; do
			l=${pair%%:*} n=${pair#*:} o=$kind-$l
			if [[ $kind == f ]]; then : >"$o"; else mkdir "$o"; fi || return 1
			v=$(kept_chattr "$o" "$l") || return 1
			echo "$kind $n $v $("$@" "$o" "$n")"
		done
	done
}
'

kept_disagree() {
	local kind name verdict said
	while read -r kind name verdict said; do
		case $verdict in
		kept) [[ $said == "$2" ]] || echo "$kind $name: $verdict, but said $said" ;;
		dropped) [[ $said == "$3" ]] || echo "$kind $name: $verdict, but said $said" ;;
		denied) ;;
		*) echo "bad line: $kind $name $verdict $said" ;;
		esac
	done <<<"$1"
}
