"""WSGI entry point (gunicorn shirakaba.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

from shirakaba.supervise import die_with_parent_if_asked

# Under `make serve` (shirakaba.supervise): a gunicorn worker ends when its master ends.
die_with_parent_if_asked()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shirakaba.settings")

application = get_wsgi_application()
