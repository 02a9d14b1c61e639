"""``manage.py deploy_files DIR``: the files that put the book online with HTTPS on one machine
(docs/running.md, "Online with HTTPS"), written into DIR for the volunteer to look at and install:

- ``Caddyfile``: Debian's Caddy in front, HTTPS by itself: with ``--domain`` a certificate from
  Let's Encrypt (the club has a domain that points at this machine); with ``--local`` Caddy's own
  authority (``tls internal``) for a book kept on the club's own network, and the authority's
  root offered at ``http://NAME/shirakaba-root.crt`` for the tablets to install;
- ``shirakaba.env``: the settings (docs/running.md's table) the units read;
- ``shirakaba-web.service`` (gunicorn), ``shirakaba-worker@.service`` (the report workers,
  ``manage.py db_worker``), ``shirakaba-backup.service`` and ``.timer`` (the nightly backup,
  ``manage.py backup --nightly``);

and prints the commands that install them. It installs nothing itself.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shlex
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

# Where Debian's caddy (running as the caddy user, HOME /var/lib/caddy) keeps its authority.
CADDY_ROOT_DIR = "/var/lib/caddy/.local/share/caddy/pki/authorities/local"


def caddyfile(names: list[str], local: bool, port: int) -> str:
    sites = ", ".join(f"https://{n}" for n in names) if local else ", ".join(names)
    lines = [
        "# The score book behind Caddy (written by manage.py deploy_files; docs/running.md).",
        *(
            # Caddy tries to install its root into this machine's own trust store (and, run
            # as root, does): the machine needs none of it, the tablets install it themselves.
            ["{", "\tskip_install_trust", "}", ""] if local else []
        ),
        "# Caddy sets X-Forwarded-For and X-Forwarded-Proto; the book trusts one proxy",
        "# (PROXY_COUNT=1 in shirakaba.env). Caddy redirects http:// to https:// itself.",
        f"{sites} {{",
    ]
    if local:
        lines += ["\t# Caddy's own authority: install its root on each tablet", "\ttls internal"]
    lines += ["\tencode zstd gzip", f"\treverse_proxy 127.0.0.1:{port}", "}"]
    if local:
        lines += [
            "",
            "# The root of Caddy's authority, for the tablets to install (a public certificate:",
            "# nothing secret), then everything else to https://.",
            ", ".join(f"http://{n}" for n in names) + " {",
            "\thandle /shirakaba-root.crt {",
            "\t\trewrite * /root.crt",
            f"\t\troot * {CADDY_ROOT_DIR}",
            "\t\theader Content-Type application/x-x509-ca-cert",
            "\t\tfile_server",
            "\t}",
            "\thandle {",
            "\t\tredir https://{host}{uri}",
            "\t}",
            "}",
        ]
    return "\n".join(lines) + "\n"


def user_problems(user: str, data_dir: Path) -> list[str]:
    """Why the units could not run the book as ``user``: no such user on this machine, or a
    data folder (the SQLite database, the kept reports, the backups) that is not theirs."""
    try:
        pwd.getpwnam(user)
    except KeyError:
        return [
            f"There is no user {user} on this machine: the units would not start. Give "
            "--user the login that set the book up (docs/running.md, step 1)."
        ]
    try:
        owner = pwd.getpwuid(data_dir.stat().st_uid).pw_name
    except (OSError, KeyError):
        return []
    if owner != user:
        return [
            f"{data_dir} belongs to {owner}, not {user}: the book could not write its "
            f"database there. Set the book up as {user}, or: sudo chown -R {user} {data_dir}"
        ]
    return []


def unit(description: str, body: list[str], app: Path, user: str, install: str = "") -> str:
    lines = [
        "[Unit]",
        f"Description={description}",
        "After=network-online.target postgresql.service",
        "Wants=network-online.target",
        "",
        "[Service]",
        f"User={user}",
        f"Group={user}",
        f"WorkingDirectory={app}",
        "EnvironmentFile=/etc/shirakaba/shirakaba.env",
        *body,
    ]
    if install:
        lines += ["", "[Install]", f"WantedBy={install}"]
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = (
        "Write the Caddyfile, the settings file and the systemd units (gunicorn, the report "
        "workers, the nightly backup) into DIR, and print the commands that install them."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("dir", type=Path, help="a folder of your choice (made if missing)")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument(
            "--domain",
            help="the club's domain name pointing at this machine (Let's Encrypt certificate)",
        )
        where.add_argument(
            "--local",
            help="the machine's address or names on the club's network, comma-separated "
            "(e.g. 192.168.1.20,shirakaba.local): Caddy's own authority (tls internal)",
        )
        parser.add_argument("--user", default=os.environ.get("USER") or "shirakaba")
        parser.add_argument("--port", type=int, default=8000, help="gunicorn's port (local)")
        parser.add_argument("--workers", type=int, default=3, help="gunicorn's processes")
        parser.add_argument("--report-workers", type=int, default=2)
        parser.add_argument("--backup-time", default="03:30", help="the nightly backup (HH:MM)")

    def handle(self, *args: Any, **options: Any) -> None:
        out: Path = options["dir"]
        local = bool(options["local"])
        names = [n.strip() for n in (options["local"] or options["domain"]).split(",")]
        names = [n for n in names if n]
        if not names:
            raise CommandError("Name the machine: --domain NAME or --local ADDRESS[,NAME]")
        app = Path(settings.BASE_DIR)
        python = app / ".venv" / "bin" / "python"
        user = options["user"]
        if user == "root":
            raise CommandError("Run the book as an ordinary user, not root: give --user NAME")
        out.mkdir(parents=True, exist_ok=True)
        env = {
            "DATABASE_URL": os.environ.get("DATABASE_URL")
            or f"sqlite:///{settings.DATA_DIR / 'db.sqlite3'}",
            "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": ",".join(names),
            "HTTPS": "1",
            "SSL_REDIRECT": "0",  # Caddy redirects http to https
            "PROXY_COUNT": "1",
            "MAIL_BACKEND": os.environ.get(
                "MAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"
            ),
            "SHIRAKABA_DATA_DIR": str(settings.DATA_DIR),
            "SHIRAKABA_BACKUP_DIR": str(settings.BACKUP_DIR),
            "SHIRAKABA_BACKUP_COPY_DIR": settings.BACKUP_COPY_DIR,
        }
        files = {
            "Caddyfile": caddyfile(names, local, options["port"]),
            "shirakaba.env": "# The book's settings (docs/running.md); keep this file private.\n"
            + "".join(f"{k}={shlex.quote(str(v))}\n" for k, v in env.items()),
            "shirakaba-web.service": unit(
                "Shirakaba score book (gunicorn)",
                [
                    f"ExecStartPre={python} manage.py migrate --no-input",
                    f"ExecStartPre={python} manage.py collectstatic --no-input -v0",
                    f"ExecStartPre={python} manage.py check --deploy --fail-level WARNING",
                    f"ExecStart={app / '.venv' / 'bin' / 'gunicorn'} shirakaba.wsgi"
                    f" --bind 127.0.0.1:{options['port']} --workers {options['workers']}"
                    " --worker-class gthread --threads 4 --keep-alive 10 --access-logfile -",
                    "Restart=on-failure",
                ],
                app,
                user,
                "multi-user.target",
            ),
            "shirakaba-worker@.service": unit(
                "Shirakaba score book: report worker %i",
                [
                    f"ExecStart={python} manage.py db_worker --interval 0.2",
                    "Restart=always",
                    "RestartSec=5",
                ],
                app,
                user,
                "multi-user.target",
            ),
            "shirakaba-backup.service": unit(
                "Shirakaba score book: the nightly backup (and its copy)",
                ["Type=oneshot", f"ExecStart={python} manage.py backup --nightly"],
                app,
                user,
            ),
            "shirakaba-backup.timer": "\n".join(
                [
                    "[Unit]",
                    "Description=Shirakaba score book: the nightly backup",
                    "",
                    "[Timer]",
                    f"OnCalendar=*-*-* {options['backup_time']}:00",
                    "Persistent=true",
                    "",
                    "[Install]",
                    "WantedBy=timers.target",
                    "",
                ]
            ),
        }
        for name, text in files.items():
            path = out / name
            path.write_text(text, encoding="utf-8")
            if name == "shirakaba.env":
                path.chmod(0o600)
            self.stdout.write(f"Wrote {path}")
        for problem in user_problems(user, Path(settings.DATA_DIR)):
            self.stdout.write(self.style.WARNING(f"\nWarning: {problem}"))
        workers = " ".join(f"shirakaba-worker@{n}" for n in range(1, options["report_workers"] + 1))
        d = shlex.quote(str(out.resolve()))
        steps = [
            "sudo install -d -m 755 /etc/shirakaba",
            f"sudo install -m 600 {d}/shirakaba.env /etc/shirakaba/shirakaba.env",
            f"sudo install -m 644 {d}/*.service {d}/*.timer /etc/systemd/system/",
            f"sudo install -m 644 {d}/Caddyfile /etc/caddy/Caddyfile",
            "sudo systemctl daemon-reload",
            f"sudo systemctl enable --now shirakaba-web {workers} shirakaba-backup.timer",
            "sudo systemctl reload caddy",
        ]
        site = f"https://{names[0]}/"
        self.stdout.write("\nLook the files over, then install them (docs/running.md):\n")
        self.stdout.write("\n".join(f"  {s}" for s in steps))
        if local:
            self.stdout.write(
                "\nThen install Caddy's root on each tablet from "
                f"http://{names[0]}/shirakaba-root.crt (docs/running.md, step 6)"
            )
        self.stdout.write(f"\nThen open {site}")
