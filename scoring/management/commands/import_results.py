from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from members.scopes import ClubCommand
from scoring.imports import ImportRefused, import_results, plan_import
from scoring.models import RuleSet
from scoring.spreadsheets import MAX_BYTES, too_large


class Command(ClubCommand):
    help = (
        "Import record sheets (CSV in UTF-8 or Shift_JIS, or XLSX). All or nothing: a file "
        "with any error changes nothing, and every error is listed with its row."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--create-members", action="store_true", help="Make members for unknown names."
        )
        parser.add_argument("--dry-run", action="store_true", help="Check only; write nothing.")
        parser.add_argument(
            "--rule-set", help="The rule set of new meets (default: the club's default)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            if path.stat().st_size > MAX_BYTES:  # refused unread
                raise CommandError(too_large(path.stat().st_size))
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror}") from error
        rule_set = None
        if options["rule_set"]:
            rule_set = RuleSet.objects.filter(name=options["rule_set"]).first()
            if rule_set is None:
                raise CommandError(f"No rule set is called {options['rule_set']!r}.")
        create = options["create_members"]
        try:
            if options["dry_run"]:
                plan = plan_import(data, create_members=create, rule_set=rule_set)
                if not plan.ok:
                    raise ImportRefused(plan)
            else:
                plan = import_results(data, create_members=create, rule_set=rule_set)
        except ImportRefused as refused:
            for problem in refused.plan.errors:
                self.stderr.write(str(problem))
            if refused.plan.more_errors:
                self.stderr.write(f"… and {refused.plan.more_errors:,} more.")
            raise CommandError(
                f"{refused.plan.error_count:,} error(s); nothing was imported."
            ) from None
        verb = "Would import" if options["dry_run"] else "Imported"
        self.stdout.write(
            f"{verb} {len(plan.games)} games; new meets: {len(plan.new_meets)}; "
            f"new members: {len(plan.new_members)}."
        )
