"""`chronicle completion bash|zsh|fish`: print a shell completion script for `chronicle`.

The script is written from this installation's own parser: its commands, options, their
choices (`--format` values, `--status`, ...) and the installed ruleset ids. Load it once in
your shell's start-up file:

  bash  eval "$(chronicle completion bash)"        (in ~/.bashrc)
  zsh   eval "$(chronicle completion zsh)"         (in ~/.zshrc, after compinit)
  fish  chronicle completion fish | source         (in ~/.config/fish/config.fish)

or save it where the shell looks for completions (bash-completion's
~/.local/share/bash-completion/completions/chronicle, zsh's _chronicle in a directory of
$fpath, fish's ~/.config/fish/completions/chronicle.fish). Write it again after installing a
game, so that its ruleset id completes too.
"""

from __future__ import annotations

import argparse
import sys

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.completion import SHELLS, script


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "completion", "print a shell completion script (bash, zsh or fish)", __doc__
    )
    parser.add_argument("shell", metavar="SHELL", choices=SHELLS, help="bash, zsh or fish")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from replay_cli.main import build_parser  # the whole parser, this command included

    sys.stdout.write(script(build_parser(), args.shell))
    return 0
