"""Seed a fresh Misago 0.39.6 site (run by start.sh after the migrations, DJANGO_SETTINGS_MODULE set).

In one process, before the server starts: users admin (a superuser, Misago's Administrator rank),
alice and bob (members); a second category, Announcements, beside the one the migrations make
(General, renamed from "First category"), with General's permissions; three threads and their
replies written through Misago's own posting API (Django's test client, signed in as each poster),
so posts are parsed, checksummed and counted as the forum does. Then every clock the seed set is
moved to a fixed instant (2026-01-0x), post checksums remade for it, and three sessions are given
fixed throwaway keys (FIXED_SESSIONS) so the driver and the probes send fixed credentials:
`Cookie: sessionid=<key>; csrftoken=<CSRF>` and `X-CSRFToken: <CSRF>`.
"""
import datetime

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.test import Client  # noqa: E402

from misago.acl.cache import clear_acl_cache  # noqa: E402
from misago.conf.models import Setting  # noqa: E402
from misago.categories.models import Category, RoleCategoryACL  # noqa: E402
from misago.threads.checksums import update_post_checksum  # noqa: E402
from misago.threads.models import Post, Thread  # noqa: E402
from misago.users.test import create_test_superuser, create_test_user  # noqa: E402

User = get_user_model()
UTC = datetime.timezone.utc
FIXED_SESSIONS = {"admin": "capenv0misago0throwaway0admin0session",
                  "alice": "capenv0misago0throwaway0alice0session",
                  "bob": "capenv0misago0throwaway0bob0session00"}
PASSWORDS = {"admin": "capenv-admin-pass", "alice": "capenv-alice-pass", "bob": "capenv-bob-pass"}


def at(day, minute=0):
    return datetime.datetime(2026, 1, day, 9, minute, tzinfo=UTC)


admin = create_test_superuser("admin", "admin@example.com", PASSWORDS["admin"])
alice = create_test_user("alice", "alice@example.com", PASSWORDS["alice"])
bob = create_test_user("bob", "bob@example.com", PASSWORDS["bob"])
# Small pages, so the seed's lists already have more than one.
for name, value in {"threads_per_page": 2, "posts_per_page": 2, "posts_per_page_orphans": 0}.items():
    Setting.objects.filter(setting=name).update(dry_value=str(value))
users = {"admin": admin, "alice": alice, "bob": bob}
for day, user in enumerate(users.values(), start=1):
    user.password = make_password(PASSWORDS[user.username], salt=f"capenvfixed{user.username}")
    user.joined_on = at(day)
    user.save()

general = Category.objects.all_categories().get(slug="first-category")
general.set_name("General")
general.description = "Talk about anything."
general.save()
announcements = Category(name="Announcements", slug="announcements", description="News from the team.")
announcements.insert_at(Category.objects.root_category(), position="last-child", save=True)
RoleCategoryACL.objects.bulk_create(
    RoleCategoryACL(role_id=acl.role_id, category=announcements, category_role_id=acl.category_role_id)
    for acl in general.category_role_set.all())
Category.objects.clear_cache()
clear_acl_cache()


def client(user):
    c = Client()
    c.force_login(user)
    return c


def post(user, path, body):
    User.objects.filter(pk=user.pk).update(last_posted_on=None)  # no flood protection between seed posts
    answer = client(user).post(path, body, content_type="application/json")
    if answer.status_code not in (200, 201):
        raise SystemExit(f"seed: POST {path} as {user.username}: {answer.status_code} {answer.content[:300]!r}")
    return answer.json()


# The migrations' own "Welcome to Misago!" thread goes: the seed holds only its own threads.
for thread in Thread.objects.all():
    thread.delete()
welcome = post(admin, "/api/threads/", {"category": announcements.pk, "title": "Welcome to the forum",
                                         "post": "Read the rules before posting, please."})
intro = post(alice, "/api/threads/", {"category": general.pk, "title": "Introduce yourself here",
                                       "post": "Hi, I am Alice. I like hiking and tea."})
editors = post(bob, "/api/threads/", {"category": general.pk, "title": "Which text editor do you use",
                                       "post": "I have used vim for ten years. What about you?"})
post(admin, f"/api/threads/{intro['id']}/posts/", {"post": "Welcome aboard, Alice!"})
post(bob, f"/api/threads/{intro['id']}/posts/", {"post": "Hello Alice, I am Bob."})
post(admin, f"/api/threads/{editors['id']}/posts/", {"post": "Emacs, of course."})

# Every clock the seed made, moved to a fixed instant: each post five minutes after the one before.
for day, thread in enumerate(Thread.objects.order_by("id"), start=2):
    posts = list(thread.post_set.order_by("id"))
    for n, p in enumerate(posts):
        p.posted_on = p.updated_on = at(day, 5 * n)
        update_post_checksum(p)
        p.save()
    thread.synchronize()
    thread.save()
for category in Category.objects.all_categories():
    category.synchronize()
    category.save()
for user in users.values():
    user.last_login = None
    user.last_posted_on = None
    user.save()

# Fixed sessions: each signed in as its user, until 2099.
for name, key in FIXED_SESSIONS.items():
    session = SessionStore()
    session[SESSION_KEY] = str(users[name].pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = users[name].get_session_auth_hash()
    session.set_expiry(datetime.datetime(2099, 1, 1, tzinfo=UTC))
    session._session_key = key  # after the data: loading a key not yet stored forgets it
    session.save(must_create=True)
print("seed: users", {n: u.pk for n, u in users.items()}, "categories", general.pk, announcements.pk,
      "threads", welcome["id"], intro["id"], editors["id"])
