# fish completion for xstat
# SPDX-License-Identifier: GPL-2.0-or-later

complete -c xstat -s c -l format -x -d 'Use FORMAT instead of the default' -a '(__xstat_directives)'
complete -c xstat -l printf -x -d 'Like --format, with backslash escapes, no newline' -a '(__xstat_directives)'
complete -c xstat -s t -l terse -d 'Print the information in terse form'
complete -c xstat -s f -l file-system -d 'Display file system status'
complete -c xstat -s L -l dereference -d 'Follow links'
complete -c xstat -l cached -x -d 'How to use cached attributes' -a 'always\t"Use cached attributes" never\t"Synchronize first" default\t"Leave it to the file system"'
complete -c xstat -l files0-from -r -F -d 'Read NUL-terminated file names from F'
complete -c xstat -l json -d 'Print one JSON object per file, one per line'
complete -c xstat -s a -l all -d 'The whole default view; with --json, also the costly fields'
complete -c xstat -s 0 -l null -d 'End each output record with a NUL byte'
complete -c xstat -s V -l version -d 'Print version information and exit'
complete -c xstat -s '?' -l help -d 'Show help and exit'
complete -c xstat -l usage -d 'Show short usage and exit'

# The format directives (the same list as --help shows).
function __xstat_directives
    if contains -- -f (commandline -opc); or contains -- --file-system (commandline -opc)
        printf '%s\n' %a %b %c %d %f %i %l %n %s %S %t %T
    else
        printf '%s\n' %a %A %b %B %C %d %D %Hd %Ld %f %F %g %G %h %i %m %n %N %o %s %r %R %Hr %Lr %t %T %u %U %w %W %x %X %y %Y %z %Z
        # The named directives (%{name}: the same list as --help shows).
        printf '%s\n' '%{name}' '%{type}' '%{target}' '%{mode}' '%{mode_string}' '%{nlink}' '%{uid}' '%{user}' '%{gid}' '%{group}' '%{ino}' '%{size}' '%{blocks}' '%{blksize}' '%{dev}' '%{dev_major}' '%{dev_minor}' '%{rdev}' '%{rdev_major}' '%{rdev_minor}' '%{atime}' '%{mtime}' '%{ctime}' '%{btime}' '%{mnt_id}' '%{mnt_id_unique}' '%{mount_point}' '%{fstype}' '%{source}' '%{mount_options}' '%{fsroot}' '%{dio_mem_align}' '%{dio_offset_align}' '%{dio_read_offset_align}' '%{subvol}' '%{atomic_write_unit_min}' '%{atomic_write_unit_max}' '%{atomic_write_unit_max_opt}' '%{atomic_write_segments_max}' '%{attributes}' '%{attributes_mask}' '%{automount}' '%{mount_root}' '%{atomic_write}' '%{dax_active}' '%{immutable}' '%{append}' '%{nodump}' '%{noatime}' '%{sync}' '%{dirsync}' '%{nocow}' '%{compress}' '%{nocompress}' '%{projinherit}' '%{dax}' '%{secrm}' '%{undelete}' '%{journal}' '%{notail}' '%{topdir}' '%{extents}' '%{index}' '%{encrypted}' '%{verity}' '%{casefold}' '%{inline_data}' '%{realtime}' '%{rtinherit}' '%{nosymlinks}' '%{extsize}' '%{extszinherit}' '%{nodefrag}' '%{filestream}' '%{cowextsize}' '%{prealloc}' '%{casenonpreserving}' '%{hasattr}' '%{projid}' '%{offline}' '%{pinned}' '%{integrity}' '%{noscrub}' '%{fattrs_other}'
    end
end
