#!/usr/bin/env python3
"""Seed a fresh doccano 1.8.5 through its own REST API (standard library only).

Usage: seed.py BASE_URL

Runs directly on the application's port (start.sh), never through a recording proxy. Logs in as
the admin start.sh made (POST /v1/auth/login/ answers the admin's token) and sends JSON with
`Authorization: Token ...`. What it makes (README "Seed data"): user `annotator1` (id 2, password
capenv-annotator-pass); project 1 `Movie reviews` (text classification, tags `sentiment`, `demo`)
with category types 1-2 (`positive`, `negative`), examples 1-4 and a category on example 1;
annotator1 an annotator of project 1 (member 2); project 2 `News NER` (sequence labeling, relations
on) with span types 1-2 (`PER`, `ORG`), relation type 1 (`works_for`), examples 5-6 and two spans
on example 5; project 3 `Summaries` (seq2seq) with example 7 and a text label on it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE = sys.argv[1].rstrip("/") + "/v1"
TOKEN = None


def send(method, path, body=None, expect=(200, 201)):
    headers = {"Authorization": f"Token {TOKEN}"} if TOKEN else {}
    return checked_call(BASE, method, path, headers, body, expect)


TOKEN = send("POST", "/auth/login/", {"username": "admin", "password": "capenv-admin-pass"})["key"]
annotator = send("POST", "/users/create", {"username": "annotator1", "email": "annotator1@example.com",
                                           "password1": "capenv-annotator-pass",
                                           "password2": "capenv-annotator-pass"})["id"]
roles = {role["name"]: role["id"] for role in send("GET", "/roles")}

COMMON = {"guideline": "Label every example.", "random_order": False, "collaborative_annotation": False,
          "allow_member_to_create_label_type": False}
reviews = send("POST", "/projects", {
    **COMMON, "name": "Movie reviews", "description": "Sentiment of short movie reviews",
    "project_type": "DocumentClassification", "resourcetype": "TextClassificationProject",
    "single_class_classification": True, "tags": [{"text": "sentiment"}, {"text": "demo"}]})["id"]
category_types = [send("POST", f"/projects/{reviews}/category-types",
                       {"text": text, "prefix_key": None, "suffix_key": key, "background_color": color,
                        "text_color": "#ffffff"})["id"]
                  for text, key, color in (("positive", "p", "#2e7d32"), ("negative", "n", "#c62828"))]
review_texts = ("A warm, funny film with a great cast.", "Two hours I will never get back.",
                "The soundtrack carries a thin plot.", "A quiet masterpiece about memory.")
examples = [send("POST", f"/projects/{reviews}/examples",
                 {"text": text, "meta": {"source": "seed", "row": row}, "upload_name": "reviews.jsonl"})["id"]
            for row, text in enumerate(review_texts, start=1)]
send("POST", f"/projects/{reviews}/examples/{examples[0]}/categories", {"label": category_types[0]})
send("POST", f"/projects/{reviews}/members", {"user": annotator, "role": roles["annotator"]})

news = send("POST", "/projects", {
    **COMMON, "name": "News NER", "description": "People and organisations in news sentences",
    "project_type": "SequenceLabeling", "resourcetype": "SequenceLabelingProject",
    "allow_overlapping": False, "grapheme_mode": False, "use_relation": True, "tags": [{"text": "ner"}]})["id"]
span_types = [send("POST", f"/projects/{news}/span-types",
                   {"text": text, "prefix_key": None, "suffix_key": key, "background_color": color,
                    "text_color": "#ffffff"})["id"]
              for text, key, color in (("PER", "q", "#1565c0"), ("ORG", "w", "#6a1b9a"))]
send("POST", f"/projects/{news}/relation-types", {"text": "works_for", "prefix_key": None, "suffix_key": None,
                                                  "background_color": "#ef6c00", "text_color": "#ffffff"})
sentences = ("Ada Lovelace worked with Charles Babbage.", "Grace Hopper joined Remington Rand in 1949.")
news_examples = [send("POST", f"/projects/{news}/examples",
                      {"text": text, "meta": {"source": "seed"}, "upload_name": "news.jsonl"})["id"]
                 for text in sentences]
send("POST", f"/projects/{news}/examples/{news_examples[0]}/spans",
     {"label": span_types[0], "start_offset": 0, "end_offset": 12})
send("POST", f"/projects/{news}/examples/{news_examples[0]}/spans",
     {"label": span_types[0], "start_offset": 25, "end_offset": 40})

summaries = send("POST", "/projects", {
    **COMMON, "name": "Summaries", "description": "One-line summaries", "project_type": "Seq2seq",
    "resourcetype": "Seq2seqProject", "tags": []})["id"]
summary_example = send("POST", f"/projects/{summaries}/examples",
                       {"text": "The council approved the new budget after a long debate.", "meta": {},
                        "upload_name": "summaries.jsonl"})["id"]
send("POST", f"/projects/{summaries}/examples/{summary_example}/texts", {"text": "Budget approved."})
