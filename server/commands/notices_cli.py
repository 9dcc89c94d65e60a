"""`harena serve`'s options for notices to players who are away (server/notices/delivery.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from harena.server.commands.config import ConfigError
from harena.server.notices.delivery import NoticeConfig


class NoticeOptionsError(ConfigError):
    pass


def _connect_from_address(args: argparse.Namespace) -> str:
    """Without `--notice-connect`, notices say the `ssh` command of `--public-address` (what
    the lobby and command replies say too), so the address is given once."""
    address = getattr(args, "public_address", None)
    return "" if address is None else str(address.command(terminal=True))


def add_notice_options(serve: argparse.ArgumentParser) -> None:
    group = serve.add_argument_group("notices to players who are away")
    group.add_argument(
        "--no-notices",
        action="store_true",
        help="send no notices (players cannot register a webhook or e-mail)",
    )
    group.add_argument(
        "--notice-connect",
        default="",
        metavar="TEXT",
        help="how players reach this server, said in notices (e.g. 'ssh -t -p 2222 example.org'; "
        "default: the ssh command of --public-address)",
    )
    group.add_argument(
        "--notice-private-addresses",
        action="store_true",
        help="let webhooks point at loopback and private addresses (a LAN's own services)",
    )
    group.add_argument(
        "--smtp-host", default="", metavar="HOST", help="mail server for e-mail notices (none: off)"
    )
    group.add_argument(
        "--smtp-port", type=int, default=25, metavar="PORT", help="(default: %(default)s)"
    )
    group.add_argument(
        "--smtp-from",
        default="harena@localhost",
        metavar="ADDRESS",
        help="sender of e-mail notices (default: %(default)s)",
    )
    group.add_argument("--smtp-user", default="", metavar="USER", help="log in to the mail server")
    group.add_argument(
        "--smtp-password-file",
        type=Path,
        default=None,
        metavar="FILE",
        help="the mail server password, first line of this file (never on the command line)",
    )
    group.add_argument(
        "--smtp-starttls", action="store_true", help="upgrade the mail connection with STARTTLS"
    )


def notice_config(args: argparse.Namespace) -> NoticeConfig:
    password = ""
    if args.smtp_password_file is not None:
        try:
            password = args.smtp_password_file.read_text(encoding="utf-8").splitlines()[0]
        except (OSError, UnicodeDecodeError, IndexError) as exc:
            raise NoticeOptionsError(
                f"--smtp-password-file {args.smtp_password_file}: cannot read a password ({exc})"
            ) from exc
    return NoticeConfig(
        enabled=not args.no_notices,
        smtp_host=args.smtp_host,
        smtp_port=args.smtp_port,
        smtp_from=args.smtp_from,
        smtp_user=args.smtp_user,
        smtp_password=password,
        smtp_starttls=args.smtp_starttls,
        connect=args.notice_connect or _connect_from_address(args),
        private_addresses=args.notice_private_addresses,
    )
