#!/usr/bin/env python
"""Django's command-line utility for the Shirakaba score book."""

import os
import sys


def main() -> None:
    # Under `make start`/`make serve` (shirakaba.supervise): end when the parent ends, also
    # runserver's and db_worker's autoreloader's child, which runs this file again.
    from shirakaba.supervise import die_with_parent_if_asked

    die_with_parent_if_asked()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shirakaba.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
