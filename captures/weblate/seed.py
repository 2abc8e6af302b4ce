"""Seed a fresh Weblate 5.14.3 site (run by start.sh after the migrations, DJANGO_SETTINGS_MODULE set).

Usage: seed.py SEED_DIR   (SEED_DIR holds the source files: app.json, website.json, manual.json)

In one process, before the server starts: users admin (a superuser) and alice (no group beyond the
defaults: she reads public projects and may not manage them), each with a fixed throwaway API token
(TOKENS; Weblate made random ones); then, through Weblate's own REST API (Django's test client with
admin's token), so every object is made as the API makes it:
  project "Hello World" (hello): components "App" (app) and "Website" (website), each a local git
    repository made from an uploaded JSON source file (docfile, monolingual key/value, English);
    app translated to Czech (2 of 4 strings) and German (4 of 4, "cancel" marked needs editing),
    website to German (1 of 3);
  project "Docs" (docs): component "Manual" (manual), translated to French (none translated).
Then every clock the seed set (units, changes) is moved to a fixed instant (2026-01-05 09:00 UTC).
"""
import datetime
import json
import sys
from pathlib import Path

import django

django.setup()

from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from weblate.auth.models import User  # noqa: E402
from weblate.trans.models import Change, Unit  # noqa: E402

SEED = Path(sys.argv[1])
TOKENS = {"admin": "wlu_capenv0weblate0throwaway0admin00001",
          "alice": "wlu_capenv0weblate0throwaway0alice00001"}
FIXED = datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.timezone.utc)

admin = User.objects.create_superuser("admin", "admin@example.com", "capenv-admin-pass", full_name="Site Admin")
alice = User.objects.create_user("alice", "alice@example.com", "capenv-alice-pass", full_name="Alice Translator")
for user in (admin, alice):
    Token.objects.filter(user=user).delete()
    Token.objects.create(user=user, key=TOKENS[user.username])

client = Client(HTTP_AUTHORIZATION=f"Token {TOKENS['admin']}")


def call(method, path, body=None, multipart=False, expect=(200, 201)):
    if body is None:
        response = getattr(client, method)(path)
    elif multipart:
        response = getattr(client, method)(path, body)
    else:
        response = getattr(client, method)(path, json.dumps(body), content_type="application/json")
    if response.status_code not in expect:
        raise SystemExit(f"seed: {method.upper()} {path} -> {response.status_code} {response.content[:500]!r}")
    return response.json()


def component(project, name, slug, source):
    with open(SEED / source, "rb") as docfile:
        call("post", f"/api/projects/{project}/components/",
             {"name": name, "slug": slug, "file_format": "json", "source_language": "en", "manage_units": "1",
              "edit_template": "1", "docfile": docfile},
             multipart=True)


def translate(path, language, targets, needs_editing=()):
    """targets: {key: text}; the units named in needs_editing are saved as needing editing (state 10)."""
    call("post", f"/api/components/{path}/translations/", {"language_code": language})
    units = call("get", f"/api/translations/{path}/{language}/units/")["results"]
    for unit in sorted(units, key=lambda u: u["id"]):
        key = unit["context"]
        if key in targets:
            state = 10 if key in needs_editing else 20
            call("patch", f"/api/units/{unit['id']}/", {"target": [targets[key]], "state": state})


call("post", "/api/projects/", {"name": "Hello World", "slug": "hello", "web": "https://hello.example.com/"})
component("hello", "App", "app", "app.json")
component("hello", "Website", "website", "website.json")
call("post", "/api/projects/", {"name": "Docs", "slug": "docs", "web": "https://docs.example.com/"})
component("docs", "Manual", "manual", "manual.json")
translate("hello/app", "cs", {"greeting": "Ahoj", "farewell": "Na shledanou"})
translate("hello/app", "de", {"greeting": "Hallo", "farewell": "Auf Wiedersehen", "save": "Speichern",
                              "cancel": "Abbrechen"}, needs_editing=("cancel",))
translate("hello/website", "de", {"about": "Über uns"})
translate("docs/manual", "fr", {})

Unit.objects.update(timestamp=FIXED, last_updated=FIXED)
Change.objects.update(timestamp=FIXED)
print("seeded")
