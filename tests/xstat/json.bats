#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat --json: one object per file per line that jq
# reads for every file name (newlines, bytes that are not UTF-8, leading
# dashes), numbers exact (checked with python3's json, which keeps
# integers whole, and against GNU stat), identifiers also as strings for
# jq 1.6, timestamps with their nanoseconds, null for what is missing,
# errors on stderr only; -0 and --files0-from.
# bats file_tags=xstat

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/fs'
	load '../helpers/stat-compat'
	require_cmd jq
	cd "$BATS_TEST_TMPDIR" || return
}

@test "every fixture: one line per file, each an object jq reads, names back as they are" {
	make_fixtures fix
	cd fix
	local -a all=(* . ..)
	run -0 --separate-stderr xstat --json -- "${all[@]}"
	assert_equal "${#lines[@]}" "${#all[@]}"
	local line i=0 name
	for line in "${lines[@]}"; do
		jq -e 'type == "object"' <<<"$line" >/dev/null || fail "not a JSON object: $line"
		# names that are UTF-8 are strings (jq -j prints them raw), others byte arrays
		name=$(jq -j 'if (.name | type) == "string" then .name else "[" + (.name | map(tostring) | join(",")) + "]" end' <<<"$line"; echo x)
		name=${name%x}
		if [[ ${all[i]} == $'bad\xffutf8' ]]; then
			assert_equal "$name" '[98,97,100,255,117,116,102,56]'
		else
			assert_equal "$name" "${all[i]}"
		fi
		i=$((i + 1))
	done
	run -0 --separate-stderr xstat --json -a -- "${all[@]}"
	jq -se 'length == '"${#all[@]}"' and all(.[]; type == "object")' <<<"$output"
}

@test "-0: objects and -c records end with NUL; names with newlines split right" {
	touch -- $'new\nline' -dash plain
	run -0 --separate-stderr bash -c 'xstat --json -0 -- "$@" | tr "\0\n" "\n?"' _ $'new\nline' -dash plain
	assert_equal "${#lines[@]}" 3
	assert_equal "$(jq -r .name <<<"${lines[0]}")" $'new\nline'
	assert_equal "$(jq -r .name <<<"${lines[1]}")" -dash
	run -0 bash -c 'xstat -0 -c %n -- "$@" | od -An -c | tr -s " "' _ $'new\nline' plain
	assert_output ' n e w \n l i n e \0 p l a i n \0'
	# --printf writes what its format says, no record end of its own
	run -0 bash -c 'xstat -0 --printf "%n." plain plain | od -An -c | tr -s " "'
	assert_output ' p l a i n . p l a i n .'
}

@test "numbers are exact, as GNU stat prints them; identifiers also as strings; mode is st_mode" {
	require_cmd python3
	printf 'some bytes\n' >f
	touch -d '2021-02-03 04:05:06.123456789' f
	run -0 xstat --json -a f
	local json=$output
	run -0 python3 -c '
import json, sys
o = json.loads(sys.argv[1])
print(o["ino"], o["ino_str"], o["size"], o["blocks"], o["nlink"], o["uid"], o["gid"], o["dev"], o["dev_str"],
      o["mnt_id"], o["mnt_id_str"], o["mnt_id_unique"], o["mnt_id_unique_str"], "%o" % o["mode"],
      o["mtime"]["sec"], o["mtime"]["nsec"], o["atime"]["sec"], o["atime"]["nsec"])' "$json"
	local want
	want="$(/usr/bin/stat -c '%i %i %s %b %h %u %g %d %d' f) $(xstat -c '%{mnt_id} %{mnt_id} %{mnt_id_unique} %{mnt_id_unique}' f)"
	want+=" $(printf '%o' "0x$(/usr/bin/stat -c %f f)") 1612325106 123456789 1612325106 123456789"
	assert_output "$want"
	# jq 1.6 too, through the strings
	assert_equal "$(jq -r .ino_str <<<"$json")" "$(/usr/bin/stat -c %i f)"
}

@test "a time before 1970 keeps its nanoseconds: sec negative, nsec from 0 up, as statx gives it" {
	touch -d '1969-12-31 23:59:59.25' old
	run -0 xstat --json old
	assert_equal "$(jq -c .mtime <<<"$output")" '{"sec":-1,"nsec":250000000}'
	# the same instant as GNU's %.9Y
	assert_equal "$(/usr/bin/stat -c %.9Y old)" '-0.750000000'
}

@test "a value past 2^53 is written exactly (xfs: a sparse size), where jq 1.6 would round it" {
	require_cmd python3
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		truncate -s 9007199254740993 "$D/big" || exit 1
		xstat --json "$D/big"
	'
	[[ $output == *'"size":9007199254740993,'* ]]
	run -0 python3 -c 'import json, sys; print(json.loads(sys.argv[1])["size"])' "$output"
	assert_output 9007199254740993
}

@test "ramfs: what the kernel does not return is null, the flags it cannot keep unsupported" {
	fs_require ramfs
	run -0 --separate-stderr fs_run ramfs 'touch "$D/f" && xstat --json "$D/f"'
	run -0 jq -c '[.btime, .dio_mem_align, .subvol, .subvol_str, .projid, .immutable, .noatime, .offline, .size]' <<<"$output"
	assert_output '[null,null,null,null,null,"unsupported","unsupported","unsupported",0]'
}

@test "errors go to stderr only: no object for the missing file, the others still there, exit 1" {
	touch a b
	run -1 --separate-stderr xstat --json a nothing b
	assert_equal "${#lines[@]}" 2
	assert_equal "$(jq -r .name <<<"${lines[0]}")$(jq -r .name <<<"${lines[1]}")" ab
	assert_equal "$stderr" "xstat: cannot statx 'nothing': No such file or directory"
}

@test "--json does not mix with a format, --terse or -f" {
	touch a
	local o
	for o in -c%n --printf=%n -t -f; do
		run -1 --separate-stderr xstat --json "$o" a
		assert_equal "$output" ''
		assert_equal "${stderr%%$'\n'*}" 'xstat: --json cannot be combined with --format, --printf, --terse or --file-system'
	done
}

@test "--files0-from=-: a name '-' in the list is refused as GNU wc refuses it, the others still shown" {
	touch a b
	run -1 --separate-stderr bash -c 'printf "a\0-\0b\0" | xstat -c %n --files0-from=-'
	assert_output $'a\nb'
	local gnu
	gnu=$(printf 'a\0-\0' | wc --files0-from=- 2>&1 >/dev/null) || :
	assert_equal "$stderr" "xstat: ${gnu#wc: }"
	# from a file, "-" is standard input, as on the command line
	printf 'a\0-\0' >list
	run -0 --separate-stderr bash -c 'xstat -c %n --files0-from=list <b'
	assert_output $'a\n-'
	run -0 --separate-stderr bash -c 'printf "a\0b\0" | xstat --json -0 --files0-from=- | tr "\0" "\n" | jq -r .name'
	assert_output $'a\nb'
}

@test "fattrs_other: the other user.fattr. names as an array, bytes that are not UTF-8 as arrays too" {
	touch f g
	setfattr -n user.fattr.zeta -v 1 f && setfattr -n $'user.fattr.b\xffd' -v 1 f && setfattr -n user.fattr.offline -v 1 f
	run -0 xstat --json f g
	assert_equal "$(jq -c '.fattrs_other | sort_by(tostring)' <<<"${lines[0]}")" '[[117,115,101,114,46,102,97,116,116,114,46,98,255,100],"user.fattr.zeta"]'
	assert_equal "$(jq -c '[.offline, .fattrs_other]' <<<"${lines[1]}")" '["clear",[]]'
}

@test "every key is of [a-z0-9_], inline_data too; %{inline-data} still names that field in a format" {
	touch f
	run -0 xstat --json -a f
	run -0 jq -r 'keys_unsorted[]' <<<"$output"
	assert_equal "$(grep -v -x -E '[a-z0-9_]+' <<<"$output")" ''
	assert_line 'inline_data'
	# the word setfattrs uses still names the field in a format
	run -0 xstat -c '%{inline-data}|%{inline_data}' f
	[[ $output == *'|'* && ${output%|*} == "${output#*|}" ]] || fail "$output"
}

@test "target: a symbolic link's target as it is, null (and %{target} \"-\") for another type" {
	ln -s 'some where/x' l
	ln -s "$(printf 'a\nb')" nl
	touch f
	run -0 xstat --json l f nl
	assert_equal "$(jq -r .target <<<"${lines[0]}")" 'some where/x'
	assert_equal "$(jq -r .target <<<"${lines[1]}")" null
	assert_equal "$(jq -j .target <<<"${lines[2]}")" "$(printf 'a\nb')"
	run -0 xstat -c '%{target}|%-5{target}|' l f
	assert_equal "$output" "$(printf 'some where/x|some where/x|\n-|-    |')"
	# -L follows the link: what it names is no link
	ln -s f lf
	run -0 xstat -L -c '%{target}' lf
	assert_equal "$output" '-'
}

@test "fattrs_other in a format: a ',' or '\\' of a name is escaped with '\\', so that the list splits back" {
	touch f
	setfattr -n 'user.fattr.a,b' -v 1 f && setfattr -n 'user.fattr.c\d' -v 1 f
	run -0 xstat -c '%{fattrs_other}' f
	local a='user\.fattr\.a\\,b' c='user\.fattr\.c\\\\d'
	assert_output --regexp "^($a,$c|$c,$a)\$"
	# split on the commas that are not escaped, unescape: the names of --json
	run -0 bash -c 'xstat -c "%{fattrs_other}" f | sed -E "s/((^|[^\\\\])(\\\\\\\\)*),/\\1\\n/g; s/\\\\(.)/\\1/g" | sort'
	assert_equal "$output" "$(xstat --json f | jq -r '.fattrs_other[]' | sort)"
}
