#!/bin/sh
# Installs elbowroom into PREFIX (default ~/.local): the program (bin/elbowroom, and
# bin/elbowroom-fetch, a link to it), on Linux its HTTP helper (libexec/elbowroom/elbowroom-http,
# over the system libcurl), man pages, shell completions, the integration snippets, templates and
# the tmux plugin. Works from the release tarball (laid out as a prefix) and from a clone (builds
# first, as scripts/release does: nothing installed needs the Swift toolchain at run time).
#
#   ./install.sh                   # into ~/.local
#   ./install.sh --prefix /usr/local    (or PREFIX=/usr/local ./install.sh)
#   ./install.sh --uninstall       # removes exactly what the last install into PREFIX put there
#
# Running it again is harmless: files are replaced, and files an older install left that this
# one does not ship are removed. Every file installed is listed in
# PREFIX/share/elbowroom/install-manifest, which --uninstall reads.
set -eu

usage() {
    echo "usage: ./install.sh [--prefix DIR] [--uninstall]   (PREFIX=DIR works too; default ~/.local)"
}

prefix=${PREFIX:-}
action=install
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
if [ -z "$prefix" ]; then
    [ -n "${HOME:-}" ] || { echo "install.sh: HOME is not set; pass --prefix DIR" >&2; exit 2; }
    prefix=$HOME/.local
fi
case $prefix in
    /*) ;;
    *) prefix=$(pwd)/$prefix ;;
esac
prefix=${prefix%/}
manifest=$prefix/share/elbowroom/install-manifest

# Removes the directories that hold FILE, from the deepest up, while they are empty (never PREFIX).
# FILE is a resolved path (see resolved), compared with the resolved prefix.
prune() {
    dir=$(dirname "$1")
    while [ "$dir" != "$real_prefix" ] && [ "${dir#"$real_prefix"/}" != "$dir" ]; do
        rmdir "$dir" 2>/dev/null || break
        dir=$(dirname "$dir")
    done
}

# PREFIX with every symlink resolved (empty when it does not exist): a manifest written through
# one spelling of it (a home directory behind a symlink) is read under any other.
resolve_prefix() {
    real_prefix=$(cd "$prefix" 2>/dev/null && pwd -P) || real_prefix=
}

# Prints FILE (a manifest line) as it really is — its directory resolved, its name kept, so a
# symlink of ours is removed, not what it points to — when that is inside the resolved PREFIX;
# prints nothing (and says why on stderr) for a line with a `.` or `..` component, one outside
# PREFIX, or one whose directory is gone.
resolved() {
    case /$1/ in
        */./*|*/../*) echo "install.sh: skipping '$1' in the manifest: a '.' or '..' in it could lead outside $prefix" >&2; return 0 ;;
    esac
    case $1 in /*) ;; *) return 0 ;; esac
    [ -n "$real_prefix" ] || return 0
    parent=$(cd "$(dirname "$1")" 2>/dev/null && pwd -P) || return 0
    case $parent/ in
        "$real_prefix"/*) printf '%s\n' "$parent/$(basename "$1")" ;;
    esac
}

uninstall() {
    if [ ! -f "$manifest" ]; then
        echo "install.sh: nothing to uninstall: $manifest not found"
        return 0
    fi
    resolve_prefix
    matched=0
    while IFS= read -r line; do
        # Never outside PREFIX, whatever the manifest says.
        file=$(resolved "$line")
        [ -n "$file" ] || continue
        matched=$((matched + 1))
        if [ -e "$file" ] || [ -L "$file" ]; then
            rm -f "$file"
            echo "removed   $file"
        fi
        prune "$file"
    done < "$manifest"
    if [ "$matched" -eq 0 ]; then
        echo "install.sh: nothing in $manifest is inside $prefix${real_prefix:+ ($real_prefix)}: nothing removed, the manifest kept" >&2
        return 1
    fi
    real_manifest=$(resolved "$manifest")
    rm -f "${real_manifest:-$manifest}"
    prune "${real_manifest:-$manifest}"
    echo "elbowroom is uninstalled from $prefix"
    echo "left in place: your config (${XDG_CONFIG_HOME:-$HOME/.config}/elbowroom), the cache and history"
    echo "  (${XDG_CACHE_HOME:-$HOME/.cache}/elbowroom: rm -r it), and what you pasted from 'elbowroom init':"
    echo "  the bar, tmux, Claude Code statusLine and systemd lines, which you remove by hand (the"
    echo "  bash, zsh and fish prompt lines print nothing once elbowroom is gone)"
}

if [ "$action" = uninstall ]; then
    uninstall || exit 1
    exit 0
fi

# Where the files come from.
here=$(cd "$(dirname "$0")" && pwd)
if [ -x "$here/bin/elbowroom" ]; then
    # The release tarball: laid out as a prefix already; binaries are stripped.
    bindir=$here/bin
    helper=$here/libexec/elbowroom/elbowroom-http
    share=$here/share
    completions_bash=$share/bash-completion/completions/elbowroom
    completions_zsh=$share/zsh/site-functions/_elbowroom
    completions_fish=$share/fish/vendor_completions.d/elbowroom.fish
    man1=$share/man/man1
    man5=$share/man/man5
    strip=
elif [ -f "$here/Package.swift" ]; then
    # Every build prerequisite (Swift, a C compiler, libcurl's headers) before a minute of
    # building: what is missing, and the package that brings it on Debian/Ubuntu, Fedora, Arch.
    sh "$here/scripts/build-prerequisites" install.sh || {
        echo "install.sh: nothing was built or installed; install the above and run ./install.sh again" >&2
        exit 1
    }
    # What scripts/release builds, so the install needs no Swift at run time and survives a
    # toolchain upgrade: on Linux one static program, and its HTTP helper (a C program over the
    # system libcurl; building it needs libcurl4-openssl-dev).
    echo "building: swift build -c release (in $here)"
    (cd "$here" && swift build -c release --product elbowroom)
    bindir=$(cd "$here" && swift build -c release --show-bin-path)
    helper=
    if [ "$(uname -s)" = Linux ]; then
        (cd "$here" && swift build -c release --product elbowroom-http)
        helper=$bindir/elbowroom-http
        if command -v ldd >/dev/null 2>&1 && ldd "$bindir/elbowroom" "$helper" | grep -Eq 'libswift|libFoundation|libdispatch|not found'; then
            echo "install.sh: what was built still needs the Swift toolchain at run time:" >&2
            ldd "$bindir/elbowroom" "$helper" >&2
            exit 1
        fi
    fi
    share=
    completions_bash=$here/completions/elbowroom.bash
    completions_zsh=$here/completions/_elbowroom
    completions_fish=$here/completions/elbowroom.fish
    man1=$here/man
    man5=$here/man
    strip=-s
else
    echo "install.sh: run me from the release tarball or from a clone of elbowroom" >&2
    exit 1
fi

list=$(mktemp)
trap 'rm -f "$list"' EXIT

# put SOURCE DEST MODE [strip]
put() {
    mkdir -p "$(dirname "$2")"
    # install unlinks the old file first: a running elbowroom keeps its copy, no 'text file busy'.
    install -m "$3" ${4:-} "$1" "$2"
    echo "$2" >> "$list"
    echo "installed $2"
}

# link TARGET DEST: a symlink (replacing whatever DEST was: an older install's elbowroom-fetch
# was a program of its own).
link() {
    mkdir -p "$(dirname "$2")"
    rm -f "$2"
    ln -s "$1" "$2"
    echo "$2" >> "$list"
    echo "linked    $2 -> $1"
}

put "$bindir/elbowroom" "$prefix/bin/elbowroom" 755 "$strip"
link elbowroom "$prefix/bin/elbowroom-fetch"
if [ -n "$helper" ] && [ -f "$helper" ]; then
    put "$helper" "$prefix/libexec/elbowroom/elbowroom-http" 755 "$strip"
fi
put "$man1/elbowroom.1" "$prefix/share/man/man1/elbowroom.1" 644
put "$man1/elbowroom-fetch.1" "$prefix/share/man/man1/elbowroom-fetch.1" 644
put "$man5/elbowroom.5" "$prefix/share/man/man5/elbowroom.5" 644
put "$completions_bash" "$prefix/share/bash-completion/completions/elbowroom" 644
put "$completions_zsh" "$prefix/share/zsh/site-functions/_elbowroom" 644
put "$completions_fish" "$prefix/share/fish/vendor_completions.d/elbowroom.fish" 644
if [ -n "$share" ]; then
    data=$share/elbowroom
    doc=$share/doc/elbowroom
else
    data=
    doc=$here
fi
for file in "${data:-$here}"/integrations/*.* "${data:-$here}"/templates/*; do
    put "$file" "$prefix/share/elbowroom/$(basename "$(dirname "$file")")/$(basename "$file")" 644
done
for file in "${data:-$here}"/integrations/*/*; do  # prometheus/, grafana/ and sources/
    put "$file" "$prefix/share/elbowroom/integrations/$(basename "$(dirname "$file")")/$(basename "$file")" 644
done
put "${data:-$here}/elbowroom.tmux" "$prefix/share/elbowroom/elbowroom.tmux" 755
# A copy of this script, so --uninstall works once the tarball or clone is gone.
put "$here/install.sh" "$prefix/share/elbowroom/install.sh" 755
put "$doc/LICENSE" "$prefix/share/doc/elbowroom/LICENSE" 644
put "$doc/README.md" "$prefix/share/doc/elbowroom/README.md" 644

echo "$manifest" >> "$list"
# Files a previous install listed that this one does not ship.
if [ -f "$manifest" ]; then
    resolve_prefix
    while IFS= read -r old; do
        real_old=$(resolved "$old")
        [ -n "$real_old" ] || continue
        if ! grep -qxF "$old" "$list" && [ -e "$real_old" ]; then
            rm -f "$real_old"
            echo "removed   $real_old (no longer shipped)"
            prune "$real_old"
        fi
    done < "$manifest"
fi
mkdir -p "$(dirname "$manifest")"
cp "$list" "$manifest"
chmod 644 "$manifest"

echo
echo "elbowroom is installed in $prefix ($(wc -l < "$manifest" | tr -d ' ') files, listed in $manifest)"
echo "  uninstall: sh '$prefix/share/elbowroom/install.sh' --prefix '$prefix' --uninstall"

# Tell what still needs a hand, shell by shell.
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "  PATH: add $prefix/bin to PATH (man finds $prefix/share/man through it), e.g. in ~/.profile:"
       echo "        export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
if command -v zsh >/dev/null 2>&1 && ! zsh -fc 'print -rl -- $fpath' 2>/dev/null | grep -qxF "$prefix/share/zsh/site-functions"; then
    echo "  zsh: add this to ~/.zshrc before compinit (oh-my-zsh: before sourcing it):"
    echo "        fpath=($prefix/share/zsh/site-functions \$fpath)"
fi
if command -v fish >/dev/null 2>&1 && ! fish -c 'printf "%s\n" $fish_complete_path' 2>/dev/null | grep -qxF "$prefix/share/fish/vendor_completions.d"; then
    echo "  fish: this fish does not read $prefix/share/fish/vendor_completions.d; link the completions:"
    echo "        mkdir -p ~/.config/fish/completions && ln -sf $prefix/share/fish/vendor_completions.d/elbowroom.fish ~/.config/fish/completions/"
fi
if [ ! -f /usr/share/bash-completion/bash_completion ] && [ ! -f /etc/bash_completion ]; then
    echo "  bash: without the bash-completion package, add to ~/.bashrc:"
    echo "        . $prefix/share/bash-completion/completions/elbowroom"
fi
echo "  next: elbowroom doctor; then elbowroom init NAME for your bar, prompt or tmux (man elbowroom)"
