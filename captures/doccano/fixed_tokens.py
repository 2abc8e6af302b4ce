#!/usr/bin/env python3
"""Give the seeded users fixed throwaway API tokens (run by start.sh after the seed).

Usage: fixed_tokens.py USERNAME=KEY...   (DATABASE_URL etc. as start.sh exports them)

doccano answers POST /v1/auth/login/ with the user's token, made at random on the first login; a
fixed one lets a recording, a later start and the probes send the same `Authorization: Token ...`.
doccano's API cannot set a token, so this writes it through Django's own models.
"""
import os
import sys

import backend

sys.path.insert(0, os.path.dirname(backend.__file__))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

for pair in sys.argv[1:]:
    username, key = pair.split("=", 1)
    user = User.objects.get(username=username)
    Token.objects.filter(user=user).delete()
    Token.objects.create(user=user, key=key)
