# fish completion for tmpcreate
# SPDX-License-Identifier: GPL-2.0-or-later

# True in the modes that run a COMMAND: -o FILE and --scratch (long
# options may be abbreviated: --o, --sc).
function __tmpcreate_runs_command
    set -l tokens (commandline -opc)
    for t in $tokens[2..-1]
        test "$t" = --; and break
        string match -qr -- '^(--o(u(t(p(ut?)?)?)?)?(=.*)?|--sc(r(a(t(ch?)?)?)?)?|-[^-]*o.*)$' $t
        and return 0
    end
    return 1
end

# True while completing the value of --preserve=LIST or --backup=SUFFIX,
# whose values are only ever joined (so they take no -r).
function __tmpcreate_joined_value
    string match -qr -- '^--(preserve|backup)=' (commandline -ct)
end

# In -o and --scratch mode the options end at the first operand (or
# "--"), as env's and nice's do: print the index in (commandline -opc) of
# COMMAND's first word when it is before the token being completed; an
# option's separate argument (-o FILE, -p DIR, -m MODE, --method M, ...)
# is not an operand.
function __tmpcreate_command_start
    __tmpcreate_runs_command; or return 1
    set -l tokens (commandline -opc)
    set -l arg 0
    for i in (seq 2 (count $tokens))
        set -l t $tokens[$i]
        if test $arg = 1
            set arg 0
            continue
        end
        switch $t
            case --
                test $i -lt (count $tokens); or return 1
                echo (math $i + 1)
                return 0
            case '--*=*'
            case '--*'
                string match -qr -- '^--(o(u(t(p(ut?)?)?)?)?|mo(de?)?|me(t(h(od?)?)?)?|sy(nc?)?|su(f(f(ix?)?)?)?)$' $t
                and set arg 1
            case '-?*'
                # A cluster: o, p or m takes the rest, or else the next word.
                string match -qr -- '^-[^opm]*[opm]$' $t
                and set arg 1
            case '*'
                echo $i
                return 0
        end
    end
    return 1
end

# True once COMMAND has begun before the token being completed.
function __tmpcreate_in_command
    __tmpcreate_command_start >/dev/null
end

# True where COMMAND's first word goes: -o or --scratch mode, no COMMAND
# yet, and the token is not an option.
function __tmpcreate_at_command
    __tmpcreate_runs_command; and not __tmpcreate_in_command
    and not string match -q -- '-*' (commandline -ct)
end

# Complete COMMAND [ARG]... as a command line of its own.
function __tmpcreate_complete_command
    set -l tokens (commandline -opc)
    set -l after
    set -l i (__tmpcreate_command_start)
    and set after $tokens[$i..-1]
    complete -C (string join -- ' ' $after (commandline -ct))
end

# COMMAND and its arguments: tmpcreate's own options are not offered there.
complete -c tmpcreate -n '__tmpcreate_in_command; or __tmpcreate_at_command' -f -a '(__tmpcreate_complete_command)'

# Operands: directories to --probe, or a template that may start with the
# directory to create the file in.
complete -c tmpcreate -n 'not __tmpcreate_runs_command; and not __tmpcreate_joined_value' -f -a '(__fish_complete_directories (commandline -ct))'

complete -c tmpcreate -n 'not __tmpcreate_in_command' -s d -l directory -d 'Create a directory, not a file'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s u -l dry-run -d 'Merely print a name (unsafe)'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l json -d 'With --probe: one JSON object per directory'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l method -x -a 'auto\t"O_TMPFILE where supported (default)" tmpfile\t"Unnamed file, linked when ready" named\t"O_CREAT|O_EXCL file"' -d 'How files are made'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l probe -d 'What each DIR supports, and which method auto picks'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s q -l quiet -d 'Suppress diagnostics about creation failure'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l suffix -x -d 'Append SUFF to TEMPLATE'
# --tmpdir takes DIR only as --tmpdir=DIR: the next word is the template.
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l tmpdir -f -d 'Interpret TEMPLATE relative to DIR ($TMPDIR, else /tmp)'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s p -x -a '(__fish_complete_directories (commandline -ct))' -d 'Same as --tmpdir=DIR; the directory of --scratch and --probe'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s t -d 'TEMPLATE is one name in $TMPDIR (deprecated)'

# Atomic output (-o FILE).
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s o -l output -r -F -d 'Write stdin, or COMMAND\'s output, to FILE atomically'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s n -l no-clobber -d 'Fail rather than replace an existing FILE'
# SUFFIX and LIST are optional, and only ever joined: --backup=SUFFIX, --preserve=LIST.
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l backup -f -d 'Keep the old FILE as FILE~ (or FILE plus SUFFIX)'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s b -d 'Like --backup, with the default suffix'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l if-changed -d 'Leave FILE alone when the new bytes are the same'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s m -l mode -x -d 'Give FILE this octal MODE'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l preserve -f -a '(__fish_append , mode ownership xattr flags all)' -d 'Preserve only these of the old FILE\'s attributes'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l sync -x -a 'none\t"Flush nothing" data\t"The data, before FILE has its name" full\t"The data, and the directory after (default)"' -d 'How much to flush before FILE is published'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s P -l no-dereference -d 'Replace a symbolic link FILE itself, not its target'

# Scratch files.
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l scratch -d 'Run COMMAND with an unnamed scratch file'

complete -c tmpcreate -n 'not __tmpcreate_in_command' -s v -l verbose -d 'Say which method made the file, and why'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s V -l version -d 'Print version information and exit'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -s '?' -l help -d 'Show help and exit'
complete -c tmpcreate -n 'not __tmpcreate_in_command' -l usage -d 'Show short usage and exit'
