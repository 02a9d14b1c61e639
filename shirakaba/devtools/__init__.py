"""Development tools, apart from the app: the benchmarks (``make bench``) and the load test
(``make load``). Installed only where their dependencies are (``requirements-dev.txt``): see
``DEVTOOLS`` in ``shirakaba/settings.py``."""
