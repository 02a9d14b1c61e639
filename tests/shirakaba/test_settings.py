"""Settings load with and without DATABASE_URL, and install the development tools only where
httpx imports (each in a fresh interpreter); the module docstring names every variable read."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

import shirakaba.settings

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "db = settings.DATABASES['default']; "
    "print(json.dumps({'engine': db['ENGINE'], 'name': str(db['NAME']), "
    "'options': db.get('OPTIONS', {}), 'debug': settings.DEBUG, 'lang': settings.LANGUAGE_CODE, "
    "'tz': settings.TIME_ZONE, 'hosts': settings.ALLOWED_HOSTS, 'key': settings.SECRET_KEY}))"
)


def load_settings(tmp_path: Path, **env: str) -> dict:
    environ = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG", "SECRET_KEY"}
    }
    environ.update(
        DJANGO_SETTINGS_MODULE="shirakaba.settings", SHIRAKABA_DATA_DIR=str(tmp_path), **env
    )
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.slow  # a fresh interpreter
def test_default_is_sqlite_in_wal_mode_under_the_data_folder(tmp_path):
    s = load_settings(tmp_path)
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(tmp_path / "db.sqlite3")
    assert s["options"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in s["options"]["init_command"]
    assert s["options"]["timeout"] == 20
    assert s["debug"] is False
    assert (s["lang"], s["tz"]) == ("ja", "Asia/Tokyo")
    assert s["hosts"] == ["127.0.0.1", "localhost"]


@pytest.mark.slow  # a fresh interpreter
def test_the_local_secret_key_is_generated_once_and_kept(tmp_path):
    first = load_settings(tmp_path)["key"]
    assert len(first) > 40
    assert (tmp_path / "secret_key").read_text() == first
    assert load_settings(tmp_path)["key"] == first


@pytest.mark.slow  # a fresh interpreter
def test_database_url_selects_postgresql(tmp_path):
    s = load_settings(
        tmp_path,
        DATABASE_URL="postgres://club@db.example:5432/shirakaba",
        SECRET_KEY="from-the-environment",
        DEBUG="1",
        ALLOWED_HOSTS="club.example, www.club.example",
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["name"] == "shirakaba"
    assert s["key"] == "from-the-environment"
    assert s["debug"] is True
    assert s["hosts"] == ["club.example", "www.club.example"]
    assert not (tmp_path / "secret_key").exists()


DEVTOOLS = ("bench_reports", "bench_standings", "loadtest")
MANAGE_HELP = (
    "import runpy, sys; {before}; sys.argv = ['manage.py', 'help']; "
    "runpy.run_path('manage.py', run_name='__main__')"
)


def manage_help(tmp_path: Path, before: str = "pass") -> str:
    """``manage.py help`` in a fresh interpreter, after running ``before`` there."""
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY"}}
    environ.update(DJANGO_SETTINGS_MODULE="shirakaba.settings", SHIRAKABA_DATA_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", MANAGE_HELP.format(before=before)],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


@pytest.mark.slow  # a fresh interpreter
def test_the_development_tools_are_there_with_the_dev_requirements(tmp_path):
    out = manage_help(tmp_path)
    assert "[devtools]" in out
    for command in DEVTOOLS:
        assert f"    {command}\n" in out


@pytest.mark.slow  # a fresh interpreter
def test_without_httpx_the_development_tools_are_not_installed(tmp_path):
    # As on a production install from requirements.txt alone: httpx cannot be imported.
    out = manage_help(tmp_path, "sys.modules['httpx'] = None")
    assert "[devtools]" not in out
    for command in DEVTOOLS:
        assert command not in out
    assert "    export_report\n" in out and "    backup\n" in out  # the club's own commands stay


def test_the_docstring_names_every_environment_variable_the_settings_read():
    source = Path(shirakaba.settings.__file__).read_text()
    read = set(re.findall(r'(?:environ\.get|env_bool|env_list)\(\s*"([A-Z_]+)"', source))
    read.add("DATABASE_URL")  # read by dj_database_url.config()
    assert {"SECRET_KEY", "HTTPS", "STATICFILES_BACKEND", "LOG_LEVEL"} <= read  # the search works
    named = set(re.findall(r"``([A-Z_]+)``", shirakaba.settings.__doc__))
    assert read <= named, read - named


class TestTheCacheFromItsUrl:
    """SHIRAKABA_CACHE_URL: the file cache under the data directory unless it names another."""

    def test_by_default_a_file_cache_under_the_data_directory(self, tmp_path):
        cache = shirakaba.settings.cache_from_url("", tmp_path)
        assert cache["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
        assert cache["LOCATION"] == tmp_path / "cache"

    def test_a_file_cache_elsewhere(self, tmp_path):
        cache = shirakaba.settings.cache_from_url("file:///var/cache/shirakaba", tmp_path)
        assert cache["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
        assert cache["LOCATION"] == Path("/var/cache/shirakaba")

    def test_each_process_its_own(self, tmp_path):
        cache = shirakaba.settings.cache_from_url("locmem://", tmp_path)
        assert cache["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"

    def test_redis_with_djangos_own_backend(self, tmp_path, monkeypatch):
        monkeypatch.setattr(shirakaba.settings, "importable", lambda *modules: True)
        url = "redis://cache.example:6379/0,redis://replica.example:6379/0"
        cache = shirakaba.settings.cache_from_url(url, tmp_path)
        assert cache == {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}

    def test_redis_without_its_client_says_what_to_install(self, tmp_path, monkeypatch):
        monkeypatch.setattr(shirakaba.settings, "importable", lambda *modules: False)
        with pytest.raises(ImproperlyConfigured, match="pip install redis"):
            shirakaba.settings.cache_from_url("redis://127.0.0.1:6379/0", tmp_path)

    @pytest.mark.parametrize("url", ["memcached://127.0.0.1", "file://", "/var/cache"])
    def test_anything_else_is_refused(self, tmp_path, url):
        with pytest.raises(ImproperlyConfigured, match="SHIRAKABA_CACHE_URL"):
            shirakaba.settings.cache_from_url(url, tmp_path)


CACHE_PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({k: str(v) for k, v in settings.CACHES['default'].items()}))"
)


@pytest.mark.slow  # a fresh interpreter
def test_the_cache_is_read_from_the_environment(tmp_path):
    def cache(**env: str) -> dict:
        environ = {k: v for k, v in os.environ.items() if k != "SHIRAKABA_CACHE_URL"}
        environ.update(SHIRAKABA_DATA_DIR=str(tmp_path), **env)
        out = subprocess.run(
            [sys.executable, "-c", CACHE_PROBE],
            cwd=ROOT,
            env=environ,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout)

    assert cache()["LOCATION"] == str(tmp_path / "cache")
    assert cache(SHIRAKABA_CACHE_URL="locmem://")["BACKEND"].endswith("LocMemCache")
