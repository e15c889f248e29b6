# fish completion for setfattrs
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The settable flag words and chattr letters are spelled out here;
# tests/docs checks them against 'setfattrs --list'.

set -l flags 'immutable append nodump noatime sync dirsync nocow compress nocompress projinherit dax secrm undelete journal notail topdir realtime rtinherit nosymlinks extsize extszinherit nodefrag filestream cowextsize offline pinned integrity noscrub'
set -l letters 'iadASDCcmPxsujtT'

# Whether the token being completed is an operation: before the first
# file, never after a "--" that follows operations (every word there is a
# file), nor with --reference or --list (they take none); an empty token
# only until the first operation is on the line (then it is a file).
function __setfattrs_want_operation
    set -l ops 0
    set -l dashdash 0
    for t in (commandline -opc)[2..-1]
        if test $dashdash = 0; and test "$t" = --
            set dashdash 1
            test $ops = 1; and return 1
        else if test $dashdash = 0; and string match -qr -- '^--(reference|list)' $t
            return 1
        else if test $dashdash = 0; and string match -qr -- '^(--.+|-[nhfRvxV?]+)$' $t
            continue
        else if string match -qr -- '^[-+=]' $t
            set ops 1
        else
            return 1
        end
    end
    set -l cur (commandline -ct)
    string match -qr -- '^[-+=]' $cur; and return 0
    test -z "$cur"; and test $ops = 0
end

# The operations for the token being completed: "+nodump", "-offline,"...
function __setfattrs_operations -a flags
    set -l cur (commandline -ct)
    string match -qr -- '^[-+=]' $cur; or set cur +
    string match -qr -- '^--' $cur; and return
    set -l head (string replace -r -- '[^,]*$' '' $cur)
    test -z "$head"; and set head (string sub -l 1 -- $cur)
    for f in (string split ' ' -- $flags)
        printf '%s%s\n' $head $f
    end
end

complete -c setfattrs -n __setfattrs_want_operation -f -a "(__setfattrs_operations '$flags')"
complete -c setfattrs -n 'not __setfattrs_want_operation' -F

complete -c setfattrs -s n -l dry-run -d 'Say what would change; change nothing'
complete -c setfattrs -l json -d 'Print --list, -v and -n results as JSON'
complete -c setfattrs -l list -d 'List every flag (with FILE: whether it can hold it)'
complete -c setfattrs -s h -l no-dereference -d 'Act on symbolic links themselves'
complete -c setfattrs -s x -l one-file-system -d 'With -R, stay on one filesystem'
complete -c setfattrs -s R -l recursive -d 'Change directories and their contents'
complete -c setfattrs -l reference -r -F -d "Make each FILE's flags RFILE's"
complete -c setfattrs -s f -l silent -d 'Suppress most error messages'
complete -c setfattrs -s v -l verbose -d 'Say every flag that changed'
complete -c setfattrs -s V -l version -d 'Print version information and exit'
complete -c setfattrs -s '?' -l help -d 'Show help and exit'
complete -c setfattrs -l usage -d 'Show short usage and exit'
