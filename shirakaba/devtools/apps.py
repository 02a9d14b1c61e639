from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    name = "shirakaba.devtools"
    label = "devtools"
    verbose_name = "Development tools"
