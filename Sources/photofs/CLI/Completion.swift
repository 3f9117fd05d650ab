/// Bash completion generated from the command table: subcommands, each command's options
/// (from its option table and its usage lines), and what each positional argument is
/// (a directory, an app name, an asset path...), read from the usage lines' placeholders.
/// App names and asset paths come from the catalog at completion time
/// (`photofs completion apps|assets`).
enum Completion {
    /// What a word on the command line is.
    enum Kind: Equatable, Sendable {
        case none, file, directory, app, asset, command
        /// A word of the filter language (`type:image`).
        case filter
        /// A literal word (`add`, `bash`, `--`).
        case literal(String)
        /// One of a fixed set of values (`strip|coarse|keep`).
        case words([String])

        /// The token the generated script matches on.
        var token: String {
            switch self {
            case .none: "none"
            case .file: "file"
            case .directory: "dir"
            case .app: "app"
            case .asset: "asset"
            case .command: "command"
            case .filter: "filter"
            case .literal(let word): "=" + word
            case .words(let words): "words:" + words.joined(separator: "|")
            }
        }
    }

    /// One usage line read for completion: its positional slots and its options.
    struct Usage: Equatable, Sendable {
        /// Positional slots in order; `repeats` for `TARGET...`.
        var slots: [(kind: Kind, repeats: Bool)] = []
        /// Options named in the line with the kind of their value (nil: a flag).
        var options: [(name: String, value: Kind?)] = []

        static func == (a: Usage, b: Usage) -> Bool {
            a.slots.map { "\($0.kind.token)\($0.repeats)" } == b.slots.map { "\($0.kind.token)\($0.repeats)" }
                && a.options.map { "\($0.name)\($0.value?.token ?? "")" } == b.options.map { "\($0.name)\($0.value?.token ?? "")" }
        }
    }

    /// Reads a usage line such as `select [--library DIR | --catalog PATH] APP TARGET...`
    /// (without the command name).
    static func parse(usage: String) -> Usage {
        var result = Usage()
        let words = usage.split(separator: " ").map(String.init)
        var index = 0
        var previousLiteral: String?
        while index < words.count {
            let raw = words[index]
            index += 1
            let core = coreWord(raw)
            if core.isEmpty || core == "|" { continue }
            // `[options]` stands for the options listed elsewhere, not a word to type.
            if raw.hasPrefix("["), core == "options" { continue }
            if core == "--" {
                result.slots.append((.literal("--"), false))
                continue
            }
            if core.hasPrefix("-") {
                // A value follows when the option does not close its group and the next word
                // does not open a new one.
                var value: Kind?
                if !raw.contains("]"), index < words.count, !words[index].hasPrefix("["), !words[index].hasPrefix("-") {
                    let next = coreWord(words[index])
                    if next != "|" {
                        value = valueKind(next)
                        index += 1
                    }
                }
                result.options.append((core, value))
                continue
            }
            let repeats = core.hasSuffix("...")
            let name = repeats ? String(core.dropLast(3)) : core
            if name.allSatisfy({ $0.isLowercase || $0 == "-" }) {
                result.slots.append((.literal(name), false))
                previousLiteral = name
                continue
            }
            result.slots.append((placeholderKind(name, after: previousLiteral), repeats))
        }
        return result
    }

    /// The command's usage lines, read, without the command's own name.
    static func usages(of command: Command) -> [Usage] {
        command.usage.map(parse).map { usage in
            var usage = usage
            if let first = usage.slots.first, first.kind == .literal(command.name) { usage.slots.removeFirst() }
            return usage
        }
    }

    /// `OPT[,OPT...]]` → `OPT`, `[--library` → `--library`.
    private static func coreWord(_ raw: String) -> String {
        let trimmed = raw.drop { $0 == "[" }
        return String(trimmed.prefix { $0 != "[" && $0 != "]" })
    }

    /// The kind of an option's value placeholder.
    static func valueKind(_ placeholder: String) -> Kind {
        if placeholder.contains("|") {
            let words = placeholder.split(separator: "|").map(String.init).filter { $0.allSatisfy(\.isLowercase) }
            return words.isEmpty ? .none : .words(words)
        }
        return placeholderKind(placeholder, after: nil)
    }

    /// The kind of a positional placeholder. `NAME` is an existing app except after `add`.
    static func placeholderKind(_ placeholder: String, after literal: String?) -> Kind {
        switch placeholder {
        case "LIBRARY", "MOUNTPOINT", "DIR": .directory
        case "PATH", "ARG", "FILE": .file
        case "APP": .app
        case "NAME": literal == "add" ? .none : .app
        case "ASSET", "TARGET": .asset
        case "COMMAND": .command
        case "FILTER": .filter
        default: .none
        }
    }

    /// Every option of a command with its value kind: the option table first (its value
    /// names decide), then options only the usage lines name (`app add --filter`).
    static func options(of command: Command) -> [(name: String, value: Kind?)] {
        var options: [(name: String, value: Kind?)] = []
        for option in command.options + [.flag("help", short: "h", "show this help")] {
            let kind = option.valueName.map(valueKind)
            options.append(("--" + option.name, kind))
            if let short = option.short { options.append(("-" + String(short), kind)) }
        }
        for usage in usages(of: command) {
            for option in usage.options where !options.contains(where: { $0.name == option.name }) {
                options.append(option)
            }
        }
        return options
    }

    /// The bash script printed by `photofs completion bash`.
    static func bash(_ commands: [Command]) -> String {
        let names = commands.map(\.name).joined(separator: " ")
        var script = """
            # bash completion for photofs, generated by 'photofs completion bash' from the same
            # command table as 'photofs --help'. Install: photofs completion bash > \\
            #   ~/.local/share/bash-completion/completions/photofs

            _photofs_commands='\(names) help'
            _photofs_filter_keys='\(filterKeys.joined(separator: " ")) OR AND NOT'
            _photofs_filter_values='\(filterValues.joined(separator: " "))'

            # Prints the completion kinds of the next positional word of command $1, given the
            # positional words so far ($2...): one usage line per pattern below.
            _photofs_next_kinds() {
                local command=$1; shift
                local -a lines=()
                case $command in

            """
        for command in commands {
            let lines = usages(of: command).map { usage in
                usage.slots.map { $0.kind.token + ($0.repeats ? "+" : "") }.joined(separator: " ")
            }
            script += "        \(command.name)) lines=(\(lines.map(shellQuote).joined(separator: " "))) ;;\n"
        }
        script += """
                    help) lines=('words:\((commands.map(\.name) + HelpText.topics.map(\.name)).joined(separator: "|"))') ;;
                esac
                local line slot i n=$#
                local -a slots words=("$@")
                for line in "${lines[@]}"; do
                    read -r -a slots <<<"$line"
                    local ok=1
                    for ((i = 0; i < n; i++)); do
                        if ((i >= ${#slots[@]})); then
                            [[ ${slots[-1]:-} == *+ ]] || { ok=0; break; }
                            continue
                        fi
                        slot=${slots[i]}
                        if [[ $slot == =* && ${words[i]} != "${slot#=}" ]]; then ok=0; break; fi
                    done
                    ((ok)) || continue
                    if ((n < ${#slots[@]})); then
                        printf '%s\\n' "${slots[n]%+}"
                    elif [[ ${slots[-1]:-} == *+ ]]; then
                        printf '%s\\n' "${slots[-1]%+}"
                    fi
                done
            }

            # The options of command $1 ("name" or "name=" for one that takes a value).
            _photofs_options() {
                case $1 in

            """
        for command in commands {
            let options = options(of: command).map { $0.name + ($0.value == nil ? "" : "=" + $0.value!.token) }
            script += "        \(command.name)) echo \(shellQuote(options.joined(separator: " "))) ;;\n"
        }
        script += """
                esac
            }

            """
        script += dequoteFunction
        script += """

            # Adds completions of one kind for the current word to COMPREPLY.
            _photofs_complete_kind() {
                local kind=$1 cur=$2; shift 2
                local -a found=()
                case $kind in
                    =*) found=("${kind#=}") ;;
                    words:*) local IFS='|'; found=(${kind#words:}); unset IFS ;;
                    dir) compopt -o filenames 2>/dev/null; mapfile -t found < <(compgen -d -- "$cur") ;;
                    file) compopt -o filenames 2>/dev/null; mapfile -t found < <(compgen -f -- "$cur") ;;
                    command) mapfile -t found < <(compgen -c -- "$cur") ;;
                    filter)
                        local sign= bare=$cur
                        [[ $cur == -* ]] && sign=- bare=${cur#-}
                        if [[ $bare == *:* ]]; then found=($_photofs_filter_values); else found=($_photofs_filter_keys); fi
                        found=("${found[@]/#/$sign}")
                        [[ $bare != *:* ]] && compopt -o nospace 2>/dev/null
                        ;;
                    app) mapfile -t found < <("$1" completion apps "${@:2}" 2>/dev/null) ;;
                    asset)
                        compopt -o filenames 2>/dev/null
                        mapfile -t found < <("$1" completion assets "${@:2}" -- "$cur" 2>/dev/null)
                        [[ ${#found[@]} -eq 1 && ${found[0]} == */ ]] && compopt -o nospace 2>/dev/null
                        ;;
                esac
                local word
                for word in "${found[@]}"; do
                    [[ $word == "$cur"* ]] && COMPREPLY+=("$word")
                done
            }

            # Bash splits words at ':' (COMP_WORDBREAKS): 'type:im' arrives as 'type' ':' 'im'.
            # Sets words and cword to the words joined back, as the program will get them.
            _photofs_join_colons() {
                words=() cword=0
                local j glue=0
                for ((j = 0; j < ${#COMP_WORDS[@]}; j++)); do
                    if ((j > 1)) && [[ ${COMP_WORDS[j]} == : ]]; then
                        words[-1]+=:
                        glue=1
                    elif ((glue)); then
                        words[-1]+=${COMP_WORDS[j]}
                        glue=0
                    else
                        words+=("${COMP_WORDS[j]}")
                    fi
                    ((j == COMP_CWORD)) && cword=$((${#words[@]} - 1))
                done
            }

            _photofs() {
                COMPREPLY=()
                local -a words
                local cword
                _photofs_join_colons
                # Words as the program will get them: 'Camera\\ Roll/' is "Camera Roll/".
                _photofs_dequote "${words[cword]}"
                local cur=$REPLY prev=
                ((cword > 1)) && prev=${words[cword - 1]}
                if ((cword == 1)); then
                    mapfile -t COMPREPLY < <(compgen -W "$_photofs_commands --help --version" -- "$cur")
                    return
                fi
                local command=${words[1]}
                # The program itself, plus the words that choose a catalog, for app and asset lookups.
                local -a query=("${words[0]/#\\~/$HOME}")
                local -a options positionals=()
                read -r -a options <<<"$(_photofs_options "$command")"
                local i word option takes dashdash=0
                for ((i = 2; i < cword; i++)); do
                    _photofs_dequote "${words[i]}"
                    word=$REPLY
                    if ((dashdash)); then positionals+=("$word"); continue; fi
                    if [[ $word == -- ]]; then dashdash=1; positionals+=(--); continue; fi
                    if [[ $word == -* ]]; then
                        takes=
                        for option in "${options[@]}"; do
                            [[ $option == "$word="* ]] && takes=1
                        done
                        if [[ $takes && $((i + 1)) -lt $cword ]]; then
                            _photofs_dequote "${words[i + 1]}"
                            case $word in --library | -L | --catalog) query+=("$word" "$REPLY") ;; esac
                            ((i++))
                        fi
                        continue
                    fi
                    positionals+=("$word")
                done
                # The value of an option?
                if [[ $prev == -* ]] && ((!dashdash)); then
                    for option in "${options[@]}"; do
                        if [[ $option == "$prev="* ]]; then
                            _photofs_complete_kind "${option#*=}" "$cur" "${query[@]}"
                            _photofs_trim_colon "$cur"
                            return
                        fi
                    done
                fi
                local -a kinds
                mapfile -t kinds < <(_photofs_next_kinds "$command" "${positionals[@]}" | sort -u)
                if [[ $cur == -* ]] && ((!dashdash)); then
                    # '-type:' may be a negated filter word as well as the start of an option.
                    [[ $cur == -[!-]* && " ${kinds[*]} " == *" filter "* ]] && _photofs_complete_kind filter "$cur" "${query[@]}"
                    for option in "${options[@]}"; do
                        [[ ${option%%=*} == "$cur"* ]] && COMPREPLY+=("${option%%=*}")
                    done
                    _photofs_trim_colon "$cur"
                    return
                fi
                local kind
                for kind in "${kinds[@]}"; do
                    [[ $kind ]] && _photofs_complete_kind "$kind" "$cur" "${query[@]}"
                done
                if ((${#COMPREPLY[@]} > 1)); then
                    mapfile -t COMPREPLY < <(printf '%s\n' "${COMPREPLY[@]}" | sort -u)
                fi
                _photofs_trim_colon "$cur"
            }

            # Bash replaces only the part of the word after its last ':'; drop what comes before it.
            _photofs_trim_colon() {
                [[ $1 == *:* && $COMP_WORDBREAKS == *:* ]] || return 0
                local before=${1%"${1##*:}"} i
                for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$before"}; done
            }

            complete -F _photofs photofs

            """
        return script
    }

    /// A bash function that removes the shell's quoting from a word being typed (backslashes,
    /// single and double quotes, an unclosed quote included) into `REPLY`, without `eval`.
    static let dequoteFunction = #"""
        # Sets REPLY to word $1 without its quoting: what the program would receive.
        _photofs_dequote() {
            local in=$1 out= c quote= i
            for ((i = 0; i < ${#in}; i++)); do
                c=${in:i:1}
                if [[ $quote == "'" ]]; then
                    if [[ $c == "'" ]]; then quote=; else out+=$c; fi
                elif [[ $quote == '"' ]]; then
                    if [[ $c == '"' ]]; then
                        quote=
                    elif [[ $c == '\' ]]; then
                        case ${in:i+1:1} in
                            '$' | '`' | '"' | '\') out+=${in:i+1:1}; ((i++)) ;;
                            *) out+=$c ;;
                        esac
                    else
                        out+=$c
                    fi
                elif [[ $c == '\' ]]; then
                    out+=${in:i+1:1}; ((i++))
                elif [[ $c == "'" || $c == '"' ]]; then
                    quote=$c
                else
                    out+=$c
                fi
            done
            REPLY=$out
        }

        """#

    /// Single-quoted for the shell.
    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingBytes([UInt8(ascii: "'"): Array("'\\''".utf8)]) + "'"
    }
}
