"""Shell completion scripts for bash, zsh and fish, written from the argparse parser itself.

The parser is read once into a tree of command levels (`chronicle`, `chronicle rng`, ...):
each level's subcommands, options, which options take a value, and its positionals. A value
completes from the argument's `choices`, from the installed rulesets where the argument names
a ruleset (or a rules reference), as a file name where its metavar is FILE or PATH, and
otherwise not at all. Each script then carries that tree as data and a small engine in the
shell's own language that walks the words typed so far. Ruleset ids are those installed when
the script is written: installing a game means writing the script again.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

FILES = "@files"  # a value completed as a file name
ANY = "@any"  # a value the shell cannot guess (a game id, a name, a number)
SHELLS = ("bash", "zsh", "fish")
FILE_METAVARS = ("FILE", "PATH")


def _ruleset_ids() -> tuple[str, ...]:
    from domain.ruleset import all_rulesets

    return tuple(r.meta.id for r in all_rulesets())


def _reference_ids() -> tuple[str, ...]:
    from store.references import reference_ids

    return tuple(reference_ids())


# Arguments whose values are known though argparse has no `choices` for them (a ruleset
# added by a plugin must not need a change to the parser), by their `dest`.
HINTS: dict[str, Callable[[], tuple[str, ...]]] = {
    "ruleset": _ruleset_ids,
    "ruleset_given": _ruleset_ids,  # `chronicle stats RULESET`
    "reference": _reference_ids,
}


@dataclass(frozen=True)
class Value:
    """What completes an argument's value: words, or FILES, or ANY."""

    words: tuple[str, ...] = ()
    kind: str = ""

    def shell_words(self) -> str:
        return self.kind or " ".join(self.words)


@dataclass(frozen=True)
class Flag:
    names: tuple[str, ...]
    help: str
    value: Value | None  # None: the option takes no value


@dataclass(frozen=True)
class Positional:
    value: Value
    repeats: bool  # `*` or `+`: it takes every word from here on


@dataclass
class Level:
    path: tuple[str, ...]
    commands: dict[str, str] = field(default_factory=dict)  # name -> help
    flags: list[Flag] = field(default_factory=list)
    positionals: list[Positional] = field(default_factory=list)

    @property
    def key(self) -> str:
        return " ".join(self.path)


def _value(action: argparse.Action) -> Value:
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        return Value(words=tuple(str(c) for c in action.choices))
    if action.dest in HINTS:
        return Value(words=HINTS[action.dest]())
    if action.metavar in FILE_METAVARS:
        return Value(kind=FILES)
    return Value(kind=ANY)


def levels(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[Level]:
    """Every command level of `parser`, the root first."""
    level = Level(path)
    below: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                level.commands[name] = " ".join(helps.get(name, "").split())
                below.append((name, sub))
        elif action.option_strings:
            takes = action.nargs != 0
            level.flags.append(
                Flag(tuple(action.option_strings), _help(action), _value(action) if takes else None)
            )
        else:
            level.positionals.append(Positional(_value(action), action.nargs in ("*", "+")))
    yield level
    for name, sub in below:
        yield from levels(sub, (*path, name))


def _help(action: argparse.Action) -> str:
    text = action.help if action.help and action.help != argparse.SUPPRESS else ""
    return " ".join(text.split()).replace("%%", "%")


def script(parser: argparse.ArgumentParser, shell: str, prog: str = "chronicle") -> str:
    found = list(levels(parser))
    if shell == "bash":
        return _bash(found, prog)
    if shell == "zsh":
        return _zsh(found, prog)
    if shell == "fish":
        return _fish(found, prog)
    raise ValueError(f"no completion for {shell!r}")


# bash and zsh share the data functions: plain `case` statements both shells read alike.


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _data(found: list[Level], fn: str) -> str:
    commands = [f'    "{lv.key}") echo {_quoted(" ".join(lv.commands))} ;;' for lv in found if lv.commands]
    flags = [
        f'    "{lv.key}") echo {_quoted(" ".join(n for f in lv.flags for n in f.names))} ;;' for lv in found
    ]
    values = [
        f'    "{lv.key}|{name}") echo {_quoted(f.value.shell_words())} ;;'
        for lv in found
        for f in lv.flags
        if f.value is not None
        for name in f.names
    ]
    positionals: list[str] = []
    for lv in found:
        if not lv.positionals:
            continue
        cases = []
        for index, positional in enumerate(lv.positionals):
            pattern = "*" if positional.repeats else str(index)
            cases.append(f"{pattern}) echo {_quoted(positional.value.shell_words())} ;;")
            if positional.repeats:
                break
        positionals.append(f'    "{lv.key}") case "$2" in {" ".join(cases)} *) return 1 ;; esac ;;')
    return "\n".join(
        [
            f"# The subcommands of a command level ({fn}_commands LEVEL).",
            f"{fn}_commands() {{",
            '  case "$1" in',
            *commands,
            "    *) return 1 ;;",
            "  esac",
            "}",
            "# The options of a command level.",
            f"{fn}_flags() {{",
            '  case "$1" in',
            *flags,
            "    *) return 1 ;;",
            "  esac",
            "}",
            f"# What completes an option's value: words, {FILES} or {ANY}; fails for an option",
            "# that takes no value.",
            f"{fn}_value() {{",
            '  case "$1|$2" in',
            *values,
            "    *) return 1 ;;",
            "  esac",
            "}",
            "# What completes the Nth positional (from 0) of a command level.",
            f"{fn}_positional() {{",
            '  case "$1" in',
            *positionals,
            "    *) return 1 ;;",
            "  esac",
            "}",
            "# Whether WORD is a subcommand of LEVEL.",
            f"{fn}_is_command() {{",
            "  local name",
            f'  for name in $({fn}_commands "$1"); do [ "$name" = "$2" ] && return 0; done',
            "  return 1",
            "}",
        ]
    )


def _bash(found: list[Level], prog: str) -> str:
    fn = f"__{_ident(prog)}"
    return f"""# bash completion for {prog}, written by `{prog} completion bash`.
# Load it in ~/.bashrc with: eval "$({prog} completion bash)"
{_data(found, fn)}
_{_ident(prog)}() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" level="" word pending="" value
  local index=0 i=1 last="$COMP_CWORD"
  COMPREPLY=()
  # bash splits `--format=js` at '=' (COMP_WORDBREAKS): the value of the option before it.
  if [ "$COMP_CWORD" -ge 2 ] && [ "${{COMP_WORDS[COMP_CWORD-1]}}" = "=" ]; then
    pending="${{COMP_WORDS[COMP_CWORD-2]}}"
    last=$((COMP_CWORD - 2))
  elif [ "$cur" = "=" ]; then
    pending="${{COMP_WORDS[COMP_CWORD-1]}}"
    last=$((COMP_CWORD - 1))
    cur=""
  fi
  while [ "$i" -lt "$last" ]; do
    word="${{COMP_WORDS[i]}}"
    case "$word" in
      =) i=$((i + 1)) ;;  # `--option=VALUE` split at '=': skip the value too
      -*)
        if [ "${{COMP_WORDS[i+1]}}" != "=" ] && {fn}_value "$level" "$word" >/dev/null; then
          if [ $((i + 1)) -ge "$last" ]; then
            pending="$word"  # the word being completed is its value
          fi
          i=$((i + 1))
        fi
        ;;
      *)
        if {fn}_is_command "$level" "$word"; then
          level="${{level:+$level }}$word"
          index=0
        else
          index=$((index + 1))
        fi
        ;;
    esac
    i=$((i + 1))
  done
  if [ -n "$pending" ]; then
    value="$({fn}_value "$level" "$pending")" || return 0
  elif [ "${{cur#-}}" != "$cur" ]; then
    COMPREPLY=($(compgen -W "$({fn}_flags "$level")" -- "$cur"))
    return 0
  elif {fn}_commands "$level" >/dev/null; then
    value="$({fn}_commands "$level")"
  else
    value="$({fn}_positional "$level" "$index")" || return 0
  fi
  case "$value" in
    {FILES}) COMPREPLY=($(compgen -f -- "$cur")) ;;
    {ANY}) ;;
    *) COMPREPLY=($(compgen -W "$value" -- "$cur")) ;;
  esac
  return 0
}}
complete -F _{_ident(prog)} {prog}
"""


def _zsh(found: list[Level], prog: str) -> str:
    fn = f"__{_ident(prog)}"
    return f"""#compdef {prog}
# zsh completion for {prog}, written by `{prog} completion zsh`.
# Save it as _{prog} in a directory of your $fpath, or load it in ~/.zshrc (after compinit)
# with: eval "$({prog} completion zsh)"
{_data(found, fn)}
_{_ident(prog)}() {{
  local cur="${{words[CURRENT]}}" level="" word pending="" value
  local -i index=0 i=2
  while (( i < CURRENT )); do
    word="${{words[i]}}"
    if [[ -n $pending ]]; then
      pending=""
    elif [[ $word == --*=* ]]; then
      :
    elif [[ $word == -* ]]; then
      {fn}_value "$level" "$word" >/dev/null && pending="$word"
    elif {fn}_is_command "$level" "$word"; then
      level="${{level:+$level }}$word"
      index=0
    else
      index+=1
    fi
    i+=1
  done
  if [[ -n $pending ]]; then
    value="$({fn}_value "$level" "$pending")" || return 1
  elif [[ $cur == --*=* ]]; then
    value="$({fn}_value "$level" "${{cur%%=*}}")" || return 1
    compset -P '*='
  elif [[ $cur == -* ]]; then
    compadd -- ${{=$({fn}_flags "$level")}}
    return
  elif {fn}_commands "$level" >/dev/null; then
    value="$({fn}_commands "$level")"
  else
    value="$({fn}_positional "$level" "$index")" || return 1
  fi
  case "$value" in
    {FILES}) _files ;;
    {ANY}) return 1 ;;
    *) compadd -- ${{=value}} ;;
  esac
}}
if [[ ${{zsh_eval_context[-1]}} == loadautofunc ]]; then
  _{_ident(prog)} "$@"
else
  compdef _{_ident(prog)} {prog}
fi
"""


def _fish_quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(found: list[Level], prog: str) -> str:
    fn = f"__{_ident(prog)}"
    commands = [f"{lv.key}|{name}".strip() for lv in found for name in lv.commands]
    valued = [f"{lv.key}|{name}" for lv in found for f in lv.flags if f.value is not None for name in f.names]
    lines = [
        f"# fish completion for {prog}, written by `{prog} completion fish`.",
        f"# Save it as ~/.config/fish/completions/{prog}.fish, or load it with:",
        f"#   {prog} completion fish | source",
        f"complete -c {prog} -e",
        f"complete -c {prog} -f",
        f"set -g {fn}_subcommands {' '.join(_fish_quoted(c) for c in commands)}",
        f"set -g {fn}_valued {' '.join(_fish_quoted(v) for v in valued)}",
        "# The command level and the number of positionals typed there, from the words so far.",
        f"function {fn}_state",
        "    set -l words (commandline -opc)",
        "    set -e words[1]",
        '    set -l level ""',
        "    set -l index 0",
        "    set -l pending 0",
        "    for word in $words",
        "        if test $pending = 1",
        "            set pending 0",
        "            continue",
        "        end",
        "        switch $word",
        "            case '--*=*'",
        "            case '-*'",
        f'                if contains -- "$level|$word" ${fn}_valued',
        "                    set pending 1",
        "                end",
        "            case '*'",
        f'                if contains -- (string trim -- "$level|$word") ${fn}_subcommands',
        '                    set level (string trim -- "$level $word")',
        "                    set index 0",
        "                else",
        "                    set index (math $index + 1)",
        "                end",
        "        end",
        "    end",
        '    echo "$level"',
        "    echo $index",
        "end",
        "# Whether the words so far are at command level LEVEL (and at its positional INDEX,",
        "# or any from INDEX on with a trailing +).",
        f"function {fn}_at",
        f"    set -l state ({fn}_state)",
        '    test "$state[1]" = "$argv[1]"; or return 1',
        "    test (count $argv) -lt 2; and return 0",
        "    set -l at (string replace -- '+' '' $argv[2])",
        "    if string match -q -- '*+' $argv[2]",
        "        test $state[2] -ge $at",
        "    else",
        "        test $state[2] -eq $at",
        "    end",
        "end",
    ]
    for lv in found:
        at = f"{fn}_at {_fish_quoted(lv.key)}"
        for name, help in lv.commands.items():
            lines.append(f"complete -c {prog} -n {_fish_quoted(at)} -a {name} -d {_fish_quoted(help)}")
        for flag in lv.flags:
            names = " ".join(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}" for n in flag.names)
            taking = ""
            if flag.value is not None:
                if flag.value.kind == FILES:
                    taking = " -r -F"
                elif flag.value.kind == ANY:
                    taking = " -x"
                else:
                    taking = f" -x -a {_fish_quoted(' '.join(flag.value.words))}"
            lines.append(
                f"complete -c {prog} -n {_fish_quoted(at)} {names}{taking} -d {_fish_quoted(flag.help)}"
            )
        if lv.commands:
            continue
        for index, positional in enumerate(lv.positionals):
            where = _fish_quoted(f"{at} {index}{'+' if positional.repeats else ''}")
            if positional.value.kind == FILES:
                lines.append(f"complete -c {prog} -n {where} -F")
            elif positional.value.words:
                lines.append(
                    f"complete -c {prog} -n {where} -a {_fish_quoted(' '.join(positional.value.words))}"
                )
            if positional.repeats:
                break
    return "\n".join(lines) + "\n"


def _ident(prog: str) -> str:
    return prog.replace("-", "_")
