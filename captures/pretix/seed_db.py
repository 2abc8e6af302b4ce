#!/usr/bin/env python3
"""The part of the seed only the ORM can make (run by start.sh before the server starts, with
PRETIX_CONFIG_FILE set): the admin user, the organizer `capenv`, a team with every permission on
all events and a team API token with a fixed value (token.txt). No row here carries a date the
API shows."""
import os
import sys
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pretix.settings")
django.setup()

from django_scopes import scopes_disabled  # noqa: E402

from pretix.base.models import Organizer, Team, TeamAPIToken, User  # noqa: E402

TOKEN = (Path(__file__).parent / "token.txt").read_text().strip()

with scopes_disabled():
    admin = User.objects.create_superuser("admin@capenv.test", "capenv-pretix-throwaway")
    org = Organizer.objects.create(name="Capenv Events", slug="capenv")
    team = Team.objects.create(organizer=org, name="Administrators", all_events=True,
                               all_event_permissions=True, all_organizer_permissions=True)
    team.members.add(admin)
    TeamAPIToken.objects.create(team=team, name="capenv", token=TOKEN)
print("seeded the organizer, the admin and the API token", file=sys.stderr)
