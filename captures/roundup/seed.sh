#!/usr/bin/env bash
# Seed a fresh tracker through roundup-admin's command loop (one process, one commit).
# Usage: seed.sh ROUNDUP_ADMIN TRACKER_HOME. Ids follow creation order: users 3-5 (1 admin,
# 2 anonymous), keywords 1-3, messages 1-3, issues 1-4.
set -euo pipefail
"$1" -i "$2" <<'ADMIN' >/dev/null
create user username=alice realname=Alice\ Archer address=alice@example.com organisation=Acme roles=User
create user username=bob realname=Bob\ Baker address=bob@example.com phone=555-0102 roles=User
create user username=carol realname=Carol\ Cole address=carol@example.com roles=User,Admin
create keyword name=ui
create keyword name=backend
create keyword name=docs
create msg author=3 content=The\ login\ page\ shows\ a\ blank\ screen. type=text/plain
create msg author=4 content=Confirmed\ on\ two\ browsers. type=text/plain
create msg author=5 content=The\ manual\ lacks\ a\ section\ on\ backups. type=text/plain
create issue title=Login\ page\ is\ blank priority=2 status=2 assignedto=4 keyword=1 nosy=3,4 messages=1,2
create issue title=Document\ the\ backup\ procedure priority=4 status=1 keyword=3 nosy=5 messages=3
create issue title=Speed\ up\ the\ search\ index priority=3 status=1 assignedto=5 keyword=2
create issue title=Old\ crash\ on\ startup priority=1 status=8 assignedto=3 keyword=1,2 nosy=3
commit
ADMIN
