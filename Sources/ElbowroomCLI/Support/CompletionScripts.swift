import ElbowroomCore

/// The text `elbowroom completions SHELL` prints. Commands and flags are written out here (a test
/// checks each script names every command and flag the parser knows); names that change with the
/// user's setup come from `elbowroom completions --list …` when Tab is pressed.
package enum CompletionScripts {
    /// The commands, as the scripts list them (`CommandCatalog`).
    static let commandWords = CommandCatalog.names.joined(separator: " ")
    static let nonRenderingCommandWords = CommandCatalog.all.filter { !$0.renders }.map(\.name).joined(separator: " ")
    static let zshCommands = CommandCatalog.all.map { "    '\($0.name):\($0.summary)'" }.joined(separator: "\n")
    static let fishCommands = CommandCatalog.all.map {
        "complete -c elbowroom -n \"not __fish_seen_subcommand_from $commands\" -a \($0.name) -d '\($0.summary)'"
    }.joined(separator: "\n")

    // MARK: - Flags, from FlagCatalog

    /// bash: what to offer after a flag that takes a value, grouped by what the value is.
    static var bashValueCases: String {
        var out: [String] = []
        func group(_ flags: [FlagCatalog.Flag], _ action: String) {
            guard !flags.isEmpty else { return }
            var spellings: [String] = []  // a flag of several commands once
            for s in flags.flatMap(FlagCatalog.spellings) where !spellings.contains(s) { spellings.append(s) }
            out.append("        " + spellings.joined(separator: "|") + ")")
            out.append("            " + action)
        }
        let all = FlagCatalog.all
        group(all.filter { $0.values == .adapters }, "_elbowroom_names adapters; return ;;")
        group(all.filter { $0.values == .templates }, "_elbowroom_names templates; return ;;")
        group(all.filter { $0.values == .accounts }, "_elbowroom_names accounts; return ;;")
        for flag in all {
            if case .words(_, let words) = flag.values {
                group([flag], "COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")); return ;;")
            }
        }
        group(all.filter { $0.values == .windows }, "COMPREPLY=($(compgen -W \"\(windows)\" -- \"$cur\")); return ;;")
        group(all.filter { if case .free = $0.values { true } else { false } }, "return ;;")
        return out.joined(separator: "\n")
    }

    /// bash: the flags that take a value (the word after one is not a command), adapters and
    /// templates first.
    static var bashValueFlags: String {
        func rank(_ flag: FlagCatalog.Flag) -> Int {
            switch flag.values {
            case .adapters: 0
            case .templates: 1
            case .words: 2
            default: 3
            }
        }
        let taking = FlagCatalog.all.filter(\.takesValue)
        let ordered = (0...3).flatMap { r in taking.filter { rank($0) == r } }
        var spellings: [String] = []
        for s in ordered.flatMap(FlagCatalog.spellings) where !spellings.contains(s) { spellings.append(s) }
        return spellings.joined(separator: "|")
    }

    static func bashWords(_ scope: FlagCatalog.Scope) -> String {
        FlagCatalog.flags(scope).flatMap(FlagCatalog.spellings).joined(separator: " ")
    }

    /// zsh: one `_arguments` spec.
    static func zshSpec(_ flag: FlagCatalog.Flag) -> String {
        let summary = "[" + (flag.zshSummary ?? flag.summary) + "]"
        let action: String
        switch flag.values {
        case .none: action = ""
        case .adapters: action = ":adapter:_elbowroom_adapters"
        case .templates: action = ":template:_elbowroom_templates"
        case .accounts: action = ":account:_elbowroom_accounts"
        case .windows: action = ":window:(" + windows + ")"
        case .words(let label, let words): action = ":" + label + ":(" + words + ")"
        case .free(let label): action = ":" + label
        }
        if let short = flag.short {
            let exclusive = flag.scope == .global ? "" : "'(\(short) \(flag.long))'"
            let spelled = flag.takesValue ? "{\(short)+,\(flag.long)=}" : "{\(short),\(flag.long)}"
            return exclusive + spelled + "'" + summary + action + "'"
        }
        return "'" + (flag.zshExcludes ?? "") + flag.long + (flag.takesValue ? "=" : "") + summary + action + "'"
    }

    static var zshRenderOptions: String {
        FlagCatalog.flags(.render).map { "    " + zshSpec($0) }.joined(separator: "\n")
    }

    /// zsh: a command's `_arguments` line, one spec a line.
    static func zshArguments(_ scope: FlagCatalog.Scope) -> String {
        var out = "_arguments -s" + (scope == .watch || scope == .tray ? " $render_options" : "")
        for (i, flag) in FlagCatalog.flags(scope).enumerated() {
            out += i == 0 || flag.zshSameLine ? " " : " \\\n            "
            out += zshSpec(flag)
        }
        return out + " && ret=0 ;;"
    }

    /// fish: one `complete` line per flag.
    static var fishFlags: String {
        FlagCatalog.all.map { flag in
            var line = "complete -c elbowroom"
            switch flag.scope {
            case .render: line += " -n $renders"
            case .watch: line += " -n '__fish_seen_subcommand_from watch'"
            case .tray: line += " -n '__fish_seen_subcommand_from tray'"
            case .history: line += " -n '__fish_seen_subcommand_from history'"
            case .fetch: line += " -n '__fish_seen_subcommand_from fetch'"
            case .guard: line += " -n '__fish_seen_subcommand_from guard'"
            case .serve: line += " -n '__fish_seen_subcommand_from serve'"
            case .doctor: line += " -n '__fish_seen_subcommand_from doctor'"
            case .notify: line += " -n '__fish_seen_subcommand_from notify'"
            case .cache: line += " -n '__fish_seen_subcommand_from cache'"
            case .`init`: line += " -n '__fish_seen_subcommand_from init'"
            case .global: if flag.onlyBeforeCommand { line += " -n \"not __fish_seen_subcommand_from $commands\"" }
            }
            if let short = flag.short { line += " -s " + short.dropFirst() }
            line += " -l " + flag.long.dropFirst(2)
            switch flag.values {
            case .none: break
            case .adapters: line += " -x -a '(elbowroom completions --list adapters 2>/dev/null)'"
            case .templates: line += " -x -a '(elbowroom completions --list templates 2>/dev/null)'"
            case .accounts: line += " -x -a '(elbowroom completions --list accounts 2>/dev/null)'"
            case .windows: line += " -x -a '" + windows + "'"
            case .words(_, let words): line += " -x -a '" + words + "'"
            case .free: line += " -x"
            }
            return line + " -d '" + flag.summary + "'"
        }.joined(separator: "\n")
    }

    /// `--window`'s names: the window catalog's aliases.
    static let windows = WindowCatalog.aliases.map(\.alias).joined(separator: " ")

    package static func script(for shell: String) -> String {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        default: return fish
        }
    }

    /// Works with or without the bash-completion package (a plain `complete -F`). Installed as
    /// `$PREFIX/share/bash-completion/completions/elbowroom`, it is loaded on demand.
    static let bash = #"""
# bash completion for elbowroom (generated by `elbowroom completions bash`)
# The names `elbowroom completions --list KIND` prints that start with $cur, added to COMPREPLY.
# Not through compgen -W, which would expand a $(…) or a glob in a plugin's file name on Tab.
_elbowroom_names() {
    local name
    while IFS= read -r name; do
        [[ $name == "$cur"* ]] && COMPREPLY+=("$name")
    done < <(elbowroom completions --list "$1" 2>/dev/null | cut -f1)
}

_elbowroom() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}
    # bash splits `--adapter=wa` into `--adapter`, `=`, `wa`.
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    COMPREPLY=()
    case $prev in
\#(bashValueCases)
    esac

    local i word command= nargs=0 first=
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            \#(bashValueFlags))
                ((i++))
                [[ ${COMP_WORDS[i]} == = ]] && ((i++)) ;;
            -*|=) ;;
            *)
                if [[ -z $command ]]; then
                    command=$word
                else
                    ((nargs++ == 0)) && first=$word
                fi ;;
        esac
    done

    local render="\#(bashWords(.render))"
    if [[ $cur == -* ]]; then
        case $command in
            ''|render) COMPREPLY=($(compgen -W "$render \#(FlagCatalog.flags(.global).map(\.long).joined(separator: " "))" -- "$cur")) ;;
            watch) COMPREPLY=($(compgen -W "$render \#(bashWords(.watch))" -- "$cur")) ;;
            tray) COMPREPLY=($(compgen -W "$render \#(bashWords(.tray))" -- "$cur")) ;;
            fetch) COMPREPLY=($(compgen -W "\#(bashWords(.fetch))" -- "$cur")) ;;
            history) COMPREPLY=($(compgen -W "\#(bashWords(.history))" -- "$cur")) ;;
            guard) COMPREPLY=($(compgen -W "\#(bashWords(.guard))" -- "$cur")) ;;
            serve) COMPREPLY=($(compgen -W "\#(bashWords(.serve))" -- "$cur")) ;;
            doctor) COMPREPLY=($(compgen -W "\#(bashWords(.doctor))" -- "$cur")) ;;
            notify) COMPREPLY=($(compgen -W "\#(bashWords(.notify))" -- "$cur")) ;;
            cache) COMPREPLY=($(compgen -W "\#(bashWords(.cache))" -- "$cur")) ;;
            init) COMPREPLY=($(compgen -W "\#(bashWords(.`init`))" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
        esac
        return
    fi
    case $command in
        '')
            COMPREPLY=($(compgen -W "\#(commandWords)" -- "$cur")) ;;
        init)
            ((nargs == 0)) && _elbowroom_names init ;;
        templates)
            if ((nargs == 0)); then
                COMPREPLY=($(compgen -W "list show check" -- "$cur"))
            elif ((nargs == 1)) && [[ $first == show ]]; then
                _elbowroom_names templates
            elif ((nargs == 1)) && [[ $first == check ]]; then
                COMPREPLY=($(compgen -f -- "$cur"))
            fi ;;
        cache)
            ((nargs == 0)) && COMPREPLY=($(compgen -W "show path clear" -- "$cur")) ;;
        completions)
            ((nargs == 0)) && COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
    esac
}

complete -F _elbowroom elbowroom

"""#

    /// An autoload function: installed as `_elbowroom` in a directory on `fpath`.
    static let zsh = #"""
#compdef elbowroom
# zsh completion for elbowroom (generated by `elbowroom completions zsh`)

# _arguments appends compadd options to an action's words: call this through the wrappers below.
_elbowroom_list() {
  local -a entries
  entries=(${(f)"$(_call_program $1 elbowroom completions --list $1 2>/dev/null)"})
  # NAME<TAB>SUMMARY -> NAME:SUMMARY for _describe (a colon in a name or summary escaped)
  entries=(${entries//:/\\:})
  entries=(${entries/$'\t'/:})
  _describe -t $1 ${2:-$1} entries
}

_elbowroom_adapters() { _elbowroom_list adapters adapter }
_elbowroom_templates() { _elbowroom_list templates template }
_elbowroom_accounts() { _elbowroom_list accounts account }
_elbowroom_integrations() { _elbowroom_list init integration }

_elbowroom() {
  local curcontext=$curcontext state line ret=1
  local -a render_options
  render_options=(
\#(zshRenderOptions)
  )
  local -a commands
  commands=(
\#(zshCommands)
  )

  _arguments -C -s $render_options \
\#(FlagCatalog.flags(.global).map { "    '(- *)'" + zshSpec($0) + " \\" }.joined(separator: "\n"))
    '1: :->command' \
    '*:: :->arguments' && ret=0

  case $state in
    command)
      _describe -t commands 'elbowroom command' commands && ret=0 ;;
    arguments)
      curcontext=${curcontext%:*:*}:elbowroom-$words[1]:
      case $words[1] in
        render)
          _arguments -s $render_options && ret=0 ;;
        watch)
          \#(zshArguments(.watch))
        tray)
          \#(zshArguments(.tray))
        history)
          \#(zshArguments(.history))
        fetch)
          \#(zshArguments(.fetch))
        guard)
          \#(zshArguments(.guard))
        serve)
          \#(zshArguments(.serve))
        doctor)
          \#(zshArguments(.doctor))
        notify)
          \#(zshArguments(.notify))
        init)
          _arguments -s \#(FlagCatalog.flags(.`init`).map(zshSpec).joined(separator: " ")) '1:integration:_elbowroom_integrations' && ret=0 ;;
        templates)
          _arguments '1:action:((list\:"every template" show\:"print a template" check\:"check a template file or text"))' \
            '2: :->template_argument' && ret=0
          if [[ $state == template_argument ]]; then
            case $words[2] in
              show) _elbowroom_templates && ret=0 ;;
              check) _files && ret=0 ;;
            esac
          fi ;;
        cache)
          _arguments -s \#(FlagCatalog.flags(.cache).map(zshSpec).joined(separator: " ")) \
            '1:action:((show\:"status and every cached window" path\:"where the cache file is" clear\:"remove the cache"))' && ret=0 ;;
        completions)
          _arguments '1:shell:(bash zsh fish)' && ret=0 ;;
      esac ;;
  esac
  return ret
}

_elbowroom "$@"

"""#

    /// Installed as `elbowroom.fish` in a `vendor_completions.d` (or `~/.config/fish/completions`).
    static let fish = #"""
# fish completion for elbowroom (generated by `elbowroom completions fish`)
set -l commands \#(commandWords)
set -l renders "not __fish_seen_subcommand_from \#(nonRenderingCommandWords)"

complete -c elbowroom -f
\#(fishCommands)

\#(fishFlags)

complete -c elbowroom -n '__fish_seen_subcommand_from init' -a '(elbowroom completions --list init 2>/dev/null)'
complete -c elbowroom -n '__fish_seen_subcommand_from templates; and not __fish_seen_subcommand_from list show check' -a list -d 'every template'
complete -c elbowroom -n '__fish_seen_subcommand_from templates; and not __fish_seen_subcommand_from list show check' -a show -d 'print a template'
complete -c elbowroom -n '__fish_seen_subcommand_from templates; and not __fish_seen_subcommand_from list show check' -a check -d 'check a template file or text'
complete -c elbowroom -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from show' -a '(elbowroom completions --list templates 2>/dev/null)'
complete -c elbowroom -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from check' -F
complete -c elbowroom -n '__fish_seen_subcommand_from cache; and not __fish_seen_subcommand_from show path clear' -a 'show path clear'
complete -c elbowroom -n '__fish_seen_subcommand_from completions' -a 'bash zsh fish'

"""#
}
