"""The scoring app's views, one module a subject: meets, games, standings, downloads,
imports and rule sets."""
