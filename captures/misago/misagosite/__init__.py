"""The Django project Misago runs in (Misago's package holds the apps; a site supplies settings and URLs).

Its Celery app reads the CELERY_ settings: tasks run eagerly, in the request (no Redis, no worker)."""
from celery import Celery

app = Celery("misagosite")
app.config_from_object("django.conf:settings", namespace="CELERY")
