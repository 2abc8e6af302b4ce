"""Seed a fresh Zope instance with the Plone site the capture records (run by start.sh under
`zconsole run ZOPE_CONF seed.py`; `app` is the Zope root zconsole hands the script).

Makes the site `Plone` (Plone's own content types and plone.restapi, no sample content), two members
and a group, and a small content tree; then fixes what a start would otherwise draw anew (every UID,
every creation, modification and publication clock, every workflow history time) so that each start
answers alike: README "Seed data".
"""
import hashlib

import transaction
from DateTime import DateTime
from plone.uuid.interfaces import IMutableUUID
from Products.CMFCore.utils import getToolByName
from Products.CMFPlone.factory import addPloneSite
from zope.component.hooks import setSite

SEED_CLOCK = DateTime("2026/01/05 09:00:00 GMT+0")

# (path below the site, portal type, title, description, text or remote url, published)
CONTENT = [
    ("news", "Folder", "News", "What happened lately.", None, True),
    ("news/launch", "News Item", "Launch day", "The site opens.", "<p>We are live.</p>", True),
    ("news/roadmap", "Document", "Roadmap", "What comes next.", "<p>Search, then comments.</p>", False),
    ("docs", "Folder", "Docs", "How to use the site.", None, True),
    ("docs/install", "Document", "Install guide", "Getting it running.", "<p>Run the installer.</p>", True),
    ("docs/guides", "Folder", "Guides", "Longer walkthroughs.", None, False),
    ("docs/guides/first-steps", "Document", "First steps", "Your first hour.", "<p>Log in, then look around.</p>", False),
    ("docs/upstream", "Link", "Upstream project", "Where it comes from.", "https://plone.org", True),
    ("about", "Document", "About us", "Who we are.", "<p>A small team.</p>", True),
]

MEMBERS = [("sam", "sam-throwaway-1", "Sam Siteadmin", "sam@example.com"),
           ("alice", "alice-throwaway-1", "Alice Editor", "alice@example.com"),
           ("bob", "bob-throwaway-1", "Bob Member", "bob@example.com")]


def fixed_uid(path):
    return hashlib.md5(("capenv-plone:" + path).encode()).hexdigest()


def fix_clocks(obj):
    obj.creation_date = SEED_CLOCK
    obj.modification_date = SEED_CLOCK
    if getattr(obj, "effective_date", None) is not None:
        obj.effective_date = SEED_CLOCK
    histories = getattr(obj, "workflow_history", None)
    for workflow_id, history in list((histories or {}).items()):
        histories[workflow_id] = tuple(dict(entry, time=SEED_CLOCK) for entry in history)
    obj._p_changed = True


def seed(app):
    site = addPloneSite(app, "Plone", title="Capenv Plone", description="A seeded site for capenv.",
                        extension_ids=["plone.app.contenttypes:default", "plone.restapi:default"],
                        setup_content=False, default_language="en")
    setSite(site)
    workflow = getToolByName(site, "portal_workflow")
    registration = getToolByName(site, "portal_registration")
    groups = getToolByName(site, "portal_groups")
    for username, password, fullname, email in MEMBERS:
        registration.addMember(username, password, properties={"username": username, "fullname": fullname,
                                                               "email": email})
    groups.addGroup("editors", roles=["Editor", "Contributor"], title="Editors",
                    description="They write and edit the docs.")
    groups.addPrincipalToGroup("alice", "editors")
    # the scenario's caller: a site administrator, who manages content, members and groups but not the
    # Zope server (a Manager's error answers carry a Python traceback naming the install's paths)
    groups.addPrincipalToGroup("sam", "Site Administrators")
    made = []
    for path, portal_type, title, description, body, published in CONTENT:
        parent_path, _, name = path.rpartition("/")
        parent = site.unrestrictedTraverse(parent_path) if parent_path else site
        parent.invokeFactory(portal_type, name, title=title, description=description)
        obj = parent[name]
        if portal_type == "Link":
            obj.remoteUrl = body
        elif body is not None:
            from plone.app.textfield.value import RichTextValue
            obj.text = RichTextValue(body, "text/html", "text/x-html-safe")
        if published:
            workflow.doActionFor(obj, "publish")
        IMutableUUID(obj).set(fixed_uid(path))
        made.append(obj)
    IMutableUUID(site).set(fixed_uid(""))
    for obj in made + [site]:
        obj.reindexObject()
        fix_clocks(obj)
        obj.reindexObject(idxs=["created", "modified", "effective", "UID", "review_state"])
    transaction.commit()


seed(app)  # noqa: F821  (zconsole's global)
