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

# True once "--" is on the command line before the token being completed.
function __tmpcreate_seen_dashdash
    contains -- -- (commandline -opc)[2..-1]
end

# Complete COMMAND [ARG]... after "--" as a command line of its own.
function __tmpcreate_complete_command
    set -l tokens (commandline -opc)
    set -l i (contains -i -- -- $tokens)
    set -l after $tokens[(math $i + 1)..-1]
    complete -C (string join -- ' ' $after (commandline -ct))
end

# After "--" in -o and --scratch mode: COMMAND and its arguments.
complete -c tmpcreate -n '__tmpcreate_runs_command; and __tmpcreate_seen_dashdash' -f -a '(__tmpcreate_complete_command)'

# Operands: directories to --probe, or a template that may start with the
# directory to create the file in.
complete -c tmpcreate -n 'not __tmpcreate_runs_command; and not __tmpcreate_joined_value' -f -a '(__fish_complete_directories (commandline -ct))'
# With -o and --scratch, operands are COMMAND, which follows "--".
complete -c tmpcreate -n '__tmpcreate_runs_command; and not __tmpcreate_seen_dashdash' -f

complete -c tmpcreate -s d -l directory -d 'Create a directory, not a file'
complete -c tmpcreate -s u -l dry-run -d 'Merely print a name (unsafe)'
complete -c tmpcreate -l json -d 'With --probe: one JSON object per directory'
complete -c tmpcreate -l method -x -a 'auto\t"O_TMPFILE where supported (default)" tmpfile\t"Unnamed file, linked when ready" named\t"O_CREAT|O_EXCL file"' -d 'How files are made'
complete -c tmpcreate -l probe -d 'What each DIR supports, and which method auto picks'
complete -c tmpcreate -s q -l quiet -d 'Suppress diagnostics about creation failure'
complete -c tmpcreate -l suffix -x -d 'Append SUFF to TEMPLATE'
# --tmpdir takes DIR only as --tmpdir=DIR: the next word is the template.
complete -c tmpcreate -l tmpdir -f -d 'Interpret TEMPLATE relative to DIR ($TMPDIR, else /tmp)'
complete -c tmpcreate -s p -x -a '(__fish_complete_directories (commandline -ct))' -d 'Same as --tmpdir=DIR; the directory of --scratch and --probe'
complete -c tmpcreate -s t -d 'TEMPLATE is one name in $TMPDIR (deprecated)'

# Atomic output (-o FILE).
complete -c tmpcreate -s o -l output -r -F -d 'Write stdin, or COMMAND\'s output, to FILE atomically'
complete -c tmpcreate -s n -l no-clobber -d 'Fail rather than replace an existing FILE'
# SUFFIX and LIST are optional, and only ever joined: --backup=SUFFIX, --preserve=LIST.
complete -c tmpcreate -l backup -f -d 'Keep the old FILE as FILE~ (or FILE plus SUFFIX)'
complete -c tmpcreate -s b -d 'Like --backup, with the default suffix'
complete -c tmpcreate -l if-changed -d 'Leave FILE alone when the new bytes are the same'
complete -c tmpcreate -s m -l mode -x -d 'Give FILE this octal MODE'
complete -c tmpcreate -l preserve -f -a '(__fish_append , mode ownership xattr flags all)' -d 'Keep only these of the old FILE\'s attributes'
complete -c tmpcreate -l sync -x -a 'none\t"Flush nothing" data\t"The data, before FILE has its name" full\t"The data, and the directory after (default)"' -d 'How much to flush before FILE is published'
complete -c tmpcreate -s P -l no-dereference -d 'Replace a symbolic link FILE itself, not its target'

# Scratch files.
complete -c tmpcreate -l scratch -d 'Run COMMAND with an unnamed scratch file'

complete -c tmpcreate -s v -l verbose -d 'Say which method made the file, and why'
complete -c tmpcreate -s V -l version -d 'Print version information and exit'
complete -c tmpcreate -s '?' -l help -d 'Show help and exit'
complete -c tmpcreate -l usage -d 'Show short usage and exit'
