#!/usr/bin/env python3
"""The part of the seed only the ORM can make (run by start.sh before the server starts, with
PRETALX_CONFIG_FILE and DJANGO_SETTINGS_MODULE set): the administrator, the organiser `capenv`,
a team with every permission on all events, the two events (fixed dates: the API cannot create
events) and an API token with a fixed value (token.txt) and every permission on every endpoint,
pinned to API version v2, and the instance identifier (fixed) rooms derive their uuid from."""
import datetime as dt
import sys
from pathlib import Path

import django

django.setup()

from django_scopes import scopes_disabled  # noqa: E402

from pretalx.common.models.settings import GlobalSettings  # noqa: E402
from pretalx.event.domain.event import create_event  # noqa: E402
from pretalx.event.models import Organiser, Team  # noqa: E402
from pretalx.person.models import User, UserApiToken  # noqa: E402
from pretalx.person.models.auth_token import ENDPOINTS, WRITE_PERMISSIONS  # noqa: E402

INSTANCE_IDENTIFIER = "691b05cf-d3ec-44c9-9081-3752891fdb7c"
TOKEN = (Path(__file__).parent / "token.txt").read_text().strip()

with scopes_disabled():
    # the instance identifier every room's computed uuid derives from (uuid5), else random per install
    GlobalSettings().settings.set("instance_identifier", INSTANCE_IDENTIFIER)
    admin = User.objects.create_superuser("capenv-pretalx-throwaway", email="admin@capenv.test",
                                          name="Capenv Admin", locale="en", timezone="UTC")
    org = Organiser.objects.create(name="Capenv Conferences", slug="capenv")
    team = Team.objects.create(organiser=org, name="Organisers", all_events=True,
                               can_create_events=True, can_change_teams=True,
                               can_change_organiser_settings=True, can_change_event_settings=True,
                               can_change_submissions=True)
    team.members.add(admin)
    for slug, name, start, days in (("capcon27", "Capenv Con 2027", dt.date(2027, 5, 20), 3),
                                    ("capmeet27", "Capenv Meetup 2027", dt.date(2027, 9, 9), 1)):
        create_event(organiser=org, locales=["en", "de"], name={"en": name, "de": name}, slug=slug,
                     is_public=True, date_from=start, date_to=start + dt.timedelta(days=days - 1),
                     timezone="Europe/Berlin", email=f"{slug}@capenv.test", locale="en")
    UserApiToken.objects.create(name="capenv", token=TOKEN, user=admin, all_events=True, version="v2",
                                endpoints={e: list(WRITE_PERMISSIONS) for e in ENDPOINTS})
print("seeded the organiser, the events, the admin and the API token", file=sys.stderr)
