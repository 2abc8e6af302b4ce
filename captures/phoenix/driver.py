#!/usr/bin/env python3
"""Scenario driver for Arize Phoenix 20.26.1's REST API /v1 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18311 --mode capture [-v]

No authentication (Phoenix's default). Bodies are JSON; answers are `{"data": ...}` envelopes, lists
add `next_cursor` (a Relay global id, paging by `limit` and `cursor`). Ids are Relay global ids
(base64 of `Project:4`); projects, prompts and annotation configs are also read by name in the same
path segment. Errors are `{"detail": ...}` (FastAPI) or plain text. The seed (seed.py, run by
start.sh, not recorded): README "Seed data". Every call is sequential, with a random 50-150 ms sleep
before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)


def gid(kind, n):
    return base64.b64encode(f"{kind}:{n}".encode()).decode()


DEFAULT, CHATBOT, RAG, EVALS = (gid("Project", n) for n in (1, 2, 3, 4))
QA, TICKETS = gid("Dataset", 1), gid("Dataset", 2)
GOLDEN, REGRESSION = gid("DatasetLabel", 1), gid("DatasetLabel", 2)
GREETING = gid("Prompt", 1)
GREETING_V1 = gid("PromptVersion", 1)
CORRECTNESS, HELPFULNESS = gid("CategoricalAnnotationConfig", 1), gid("ContinuousAnnotationConfig", 2)
MISSING_PROJECT, MISSING_DATASET = gid("Project", 999), gid("Dataset", 999)
SPAN_A, SPAN_B = "1a2b3c4d5e6f7a01", "1a2b3c4d5e6f7a02"

VERSION = {"model_provider": "OPENAI", "model_name": "gpt-4o-mini",
           "template": {"type": "chat", "messages": [
               {"role": "system", "content": "You are a friendly assistant."},
               {"role": "user", "content": "Greet {{name}} warmly, in one sentence."}]},
           "template_type": "CHAT", "template_format": "MUSTACHE",
           "invocation_parameters": {"type": "openai", "openai": {"temperature": 0.5}}}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", "/v1" + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200, **params):
        return call(method, "/v1" + path, body=body, params=params or None, expect=expect)[1]

    def data(answer):
        return answer.get("data") if isinstance(answer, dict) else None

    def names(answer):
        items = data(answer)
        return [item.get("name") for item in items] if isinstance(items, list) else None

    # ---- a. projects: list, paging, items by id and by name, absences
    check("projects", names(get("/projects")), ["evals", "rag-pipeline", "chatbot", "default"])
    page = get("/projects", limit=2)
    get("/projects", limit=2, cursor=(page or {}).get("next_cursor"))
    get("/projects", limit=1)
    get("/projects", cursor="not-a-cursor", expect=422)
    get(f"/projects/{CHATBOT}")
    get("/projects/chatbot")
    get("/projects/rag-pipeline")
    get(f"/projects/{DEFAULT}")
    get("/projects/default")
    get(f"/projects/{MISSING_PROJECT}", expect=404)
    get("/projects/nowhere", expect=404)
    # every other collection before any write: spans, datasets, labels, prompts, annotation configs
    get(f"/projects/{CHATBOT}/spans")
    get("/projects/chatbot/span_annotations", span_ids=SPAN_A)
    get("/projects/chatbot/span_annotations", span_ids=SPAN_B)
    get("/datasets")
    get(f"/datasets/{QA}")
    get(f"/datasets/{TICKETS}")
    get(f"/datasets/{QA}/versions")
    get(f"/datasets/{QA}/examples")
    get(f"/datasets/{TICKETS}/versions")
    get(f"/datasets/{QA}/splits")
    get(f"/datasets/{QA}/labels")
    get(f"/datasets/{TICKETS}/labels")
    get("/dataset_labels")
    get(f"/dataset_labels/{GOLDEN}")
    get("/prompts")
    get("/prompts/greeting/versions")
    get("/prompts/greeting/latest")
    get("/prompts/greeting/tags/production")
    get(f"/prompt_versions/{GREETING_V1}")
    get(f"/prompt_versions/{GREETING_V1}/tags")
    get("/annotation_configs")
    get(f"/annotation_configs/{CORRECTNESS}")
    get(f"/annotation_configs/{HELPFULNESS}")
    get(f"/projects/{CHATBOT}/annotation_configs")
    get(f"/projects/{RAG}/annotation_configs")
    # creates, then reads of each
    made = send("POST", "/projects", {"name": "support-bot", "description": "Second-line support agent"})
    support = (data(made) or {}).get("id")
    get(f"/projects/{support}")
    get("/projects/support-bot")
    made = send("POST", "/projects", {"name": "batch-jobs"})
    batch = (data(made) or {}).get("id")
    get(f"/projects/{batch}")
    get("/projects")
    send("POST", "/projects", {"name": ""}, expect=422)
    send("POST", "/projects", {"description": "no name"}, expect=422)
    # updates (PUT sets the description; the name cannot change)
    send("PUT", f"/projects/{support}", {"description": "Tier-2 support agent"})
    get(f"/projects/{support}")
    send("PUT", "/projects/batch-jobs", {"description": "Nightly batch jobs"})
    get("/projects/batch-jobs")
    get(f"/projects/{batch}")
    send("PUT", f"/projects/{EVALS}", {"description": "Evaluation runs"})
    get(f"/projects/{EVALS}")
    send("PUT", f"/projects/{EVALS}", {"description": "Evaluation runs, weekly"})
    get("/projects/evals")
    send("PUT", f"/projects/{RAG}", {"description": ""})
    get(f"/projects/{RAG}")
    send("PUT", f"/projects/{MISSING_PROJECT}", {"description": "nothing"}, expect=404)
    send("PUT", "/projects/nowhere", {"description": "nothing"}, expect=404)
    send("PUT", f"/projects/{CHATBOT}", {"description": 12}, expect=422)
    get("/projects")
    # deletes
    send("DELETE", f"/projects/{batch}", expect=204)
    get(f"/projects/{batch}", expect=404)
    get("/projects/batch-jobs", expect=404)
    send("DELETE", f"/projects/{batch}", expect=404)
    send("DELETE", "/projects/default", expect=403)
    get("/projects")

    # ---- b. spans (seeded in chatbot) and their annotations
    get(f"/projects/{CHATBOT}/spans")
    get("/projects/chatbot/spans", limit=1)
    get(f"/projects/{EVALS}/spans")
    get(f"/projects/{MISSING_PROJECT}/spans", expect=404)
    get("/projects/chatbot/span_annotations", span_ids=SPAN_A)
    made = send("POST", "/span_annotations", {"data": [
        {"span_id": SPAN_A, "name": "correctness", "annotator_kind": "HUMAN",
         "result": {"label": "correct", "score": 1, "explanation": "Matches the handbook"}}]}, sync="true")
    get("/projects/chatbot/span_annotations", span_ids=SPAN_A)
    send("POST", "/span_annotations", {"data": [
        {"span_id": SPAN_B, "name": "helpfulness", "annotator_kind": "LLM", "result": {"score": 7}}]}, sync="true")
    get("/projects/chatbot/span_annotations", span_ids=SPAN_B)
    send("POST", "/span_annotations", {"data": [
        {"span_id": "ffffffffffffffff", "name": "correctness", "annotator_kind": "HUMAN",
         "result": {"label": "correct"}}]}, sync="true", expect=404)
    send("POST", "/span_notes", {"data": {"span_id": SPAN_A, "note": "Escalated to a human"}})
    get("/projects/chatbot/span_annotations", span_ids=SPAN_A)

    # ---- c. datasets: list, item, versions, examples; upload, append, delete
    check("datasets", names(get("/datasets")), ["support-tickets", "qa-basics"])
    get("/datasets", limit=1)
    get("/datasets", name="qa-basics")
    get(f"/datasets/{QA}")
    get(f"/datasets/{TICKETS}")
    get(f"/datasets/{MISSING_DATASET}", expect=404)
    get(f"/datasets/{QA}/versions")
    get(f"/datasets/{QA}/examples")
    get(f"/datasets/{TICKETS}/examples")
    made = send("POST", "/datasets/upload", {
        "action": "create", "name": "math-drills", "description": "Arithmetic",
        "inputs": [{"q": "2+2"}, {"q": "3*3"}], "outputs": [{"a": "4"}, {"a": "9"}],
        "metadata": [{"level": 1}, {"level": 1}]}, sync="true")
    math = (data(made) or {}).get("dataset_id")
    get(f"/datasets/{math}")
    get(f"/datasets/{math}/examples")
    get(f"/datasets/{math}/versions")
    get("/datasets")
    send("POST", "/datasets/upload", {
        "action": "append", "name": "math-drills", "inputs": [{"q": "10/2"}], "outputs": [{"a": "5"}],
        "metadata": [{"level": 2}]}, sync="true")
    get(f"/datasets/{math}")
    get(f"/datasets/{math}/examples")
    get(f"/datasets/{math}/versions")
    send("POST", "/datasets/upload", {"action": "create", "name": "qa-basics", "inputs": [{"q": "x"}]},
         sync="true", expect=409)
    send("POST", "/datasets/upload", {"action": "create", "name": "empty-rows"}, sync="true", expect=422)
    send("POST", "/datasets/upload", {"action": "create", "inputs": [{"q": "x"}]}, sync="true", expect=422)
    # splits
    get(f"/datasets/{QA}/splits")
    made = send("POST", f"/datasets/{QA}/splits", {"name": "train", "description": "Training rows",
                                                  "color": "#2f7d32"}, expect=201)
    train = (data(made) or {}).get("id")
    get(f"/datasets/{QA}/splits")
    send("PATCH", f"/datasets/{QA}/splits/{train}", {"description": "Training rows, v2"})
    get(f"/datasets/{QA}/splits")
    made = send("POST", f"/datasets/{QA}/splits", {"name": "test"}, expect=201)
    test_split = (data(made) or {}).get("id")
    send("DELETE", f"/datasets/{QA}/splits/{test_split}", expect=204)
    get(f"/datasets/{QA}/splits")
    # deletes
    send("DELETE", f"/datasets/{math}", expect=204)
    get(f"/datasets/{math}", expect=404)
    get("/datasets")
    send("DELETE", f"/datasets/{math}", expect=404)

    # ---- d. dataset labels: CRUD and labels on datasets
    get("/dataset_labels")
    get(f"/dataset_labels/{GOLDEN}")
    get(f"/dataset_labels/{REGRESSION}")
    get(f"/dataset_labels/{gid('DatasetLabel', 999)}", expect=404)
    made = send("POST", "/dataset_labels", {"name": "flaky", "color": "#aa3377", "description": "Unstable rows"}, expect=201)
    flaky = (data(made) or {}).get("id")
    get(f"/dataset_labels/{flaky}")
    get("/dataset_labels")
    made = send("POST", "/dataset_labels", {"name": "smoke", "color": "#123456"}, expect=201)
    smoke = (data(made) or {}).get("id")
    get(f"/dataset_labels/{smoke}")
    send("POST", "/dataset_labels", {"name": "golden", "color": "#000000"}, expect=409)
    send("POST", "/dataset_labels", {"name": "bad-color", "color": "red"}, expect=422)
    send("PATCH", f"/dataset_labels/{flaky}", {"description": "Rows that fail now and then"})
    get(f"/dataset_labels/{flaky}")
    send("PATCH", f"/dataset_labels/{flaky}", {"color": "#bb4488"})
    get(f"/dataset_labels/{flaky}")
    send("PATCH", f"/dataset_labels/{REGRESSION}", {"name": "regressions", "description": "Past failures"})
    get(f"/dataset_labels/{REGRESSION}")
    get("/dataset_labels")
    send("PATCH", f"/dataset_labels/{gid('DatasetLabel', 999)}", {"description": "x"}, expect=404)
    get(f"/datasets/{QA}/labels")
    send("PUT", f"/datasets/{QA}/labels/{GOLDEN}")
    get(f"/datasets/{QA}/labels")
    send("PUT", f"/datasets/{TICKETS}/labels", {"dataset_label_ids": [REGRESSION, flaky]})
    get(f"/datasets/{TICKETS}/labels")
    send("DELETE", f"/datasets/{TICKETS}/labels/{flaky}", expect=204)
    get(f"/datasets/{TICKETS}/labels")
    send("DELETE", f"/dataset_labels/{smoke}", expect=204)
    get(f"/dataset_labels/{smoke}", expect=404)
    get("/dataset_labels")
    send("DELETE", f"/dataset_labels/{smoke}", expect=404)

    # ---- e. prompts: list, versions, tags, latest, create, new version, patch, delete
    get("/prompts")
    get("/prompts/greeting/versions")
    get(f"/prompts/{GREETING}/versions")
    get("/prompts/greeting/latest")
    get("/prompts/greeting/tags/production")
    get(f"/prompt_versions/{GREETING_V1}")
    get(f"/prompt_versions/{GREETING_V1}/tags")
    get("/prompts/nowhere/versions")  # 200 with no versions, not 404
    get("/prompts/greeting/tags/staging", expect=404)
    made = send("POST", "/prompts/greeting/versions", {"version": {**VERSION, "description": "warmer"},
                                                      "tags": [{"name": "staging"}]}, expect=201)
    v2 = (data(made) or {}).get("id")
    get(f"/prompt_versions/{v2}")
    get("/prompts/greeting/latest")
    get("/prompts/greeting/versions")
    get("/prompts/greeting/tags/staging")
    send("POST", f"/prompt_versions/{v2}/tags", {"name": "production", "description": "Live since today"},
         expect=204)
    get("/prompts/greeting/tags/production")
    get(f"/prompt_versions/{v2}/tags")
    get(f"/prompt_versions/{GREETING_V1}/tags")
    send("DELETE", f"/prompt_versions/{v2}/tags/staging", expect=204)
    get(f"/prompt_versions/{v2}/tags")
    get("/prompts/greeting/tags/staging", expect=404)
    made = send("POST", "/prompts", {"prompt": {"name": "summarize", "description": "Summaries"},
                                     "version": {**VERSION, "template": {"type": "chat", "messages": [
                                         {"role": "user", "content": "Summarize: {{text}}"}]}}})
    get("/prompts")
    get("/prompts/summarize/latest")
    send("POST", "/prompts", {"prompt": {"name": "Bad Name!"}, "version": VERSION}, expect=422)
    send("PATCH", "/prompts/summarize", {"description": "Short summaries", "metadata": {"team": "docs"}})
    get("/prompts")
    send("PATCH", "/prompts/nowhere", {"description": "x"}, expect=404)
    send("DELETE", "/prompts/summarize", expect=204)
    get("/prompts/summarize/latest", expect=404)
    get("/prompts")
    send("DELETE", "/prompts/summarize", expect=404)

    # ---- f. annotation configs, and on projects
    get("/annotation_configs")
    get(f"/annotation_configs/{CORRECTNESS}")
    get("/annotation_configs/helpfulness")
    get("/annotation_configs/nowhere", expect=404)
    made = send("POST", "/annotation_configs", {"name": "tone", "type": "FREEFORM", "description": "Tone notes"})
    tone = (data(made) or {}).get("id")
    get(f"/annotation_configs/{tone}")
    get("/annotation_configs")
    send("POST", "/annotation_configs", {"name": "correctness", "type": "FREEFORM"}, expect=409)
    send("POST", "/annotation_configs", {"name": "odd", "type": "SOMETHING"}, expect=422)
    send("PUT", f"/annotation_configs/{tone}", {"name": "tone", "type": "FREEFORM", "description": "Tone, 1-2 words"})
    get(f"/annotation_configs/{tone}")
    send("PUT", f"/annotation_configs/{HELPFULNESS}", {"name": "helpfulness", "type": "CONTINUOUS",
                                                        "optimization_direction": "MAXIMIZE",
                                                        "lower_bound": 0, "upper_bound": 5}, expect=409)
    get("/annotation_configs/helpfulness")
    send("PUT", f"/annotation_configs/{CORRECTNESS}", {
        "name": "correctness", "type": "CATEGORICAL", "optimization_direction": "MAXIMIZE",
        "description": "Is the answer right? Partial counts half.",
        "values": [{"label": "correct", "score": 1}, {"label": "partial", "score": 0.5},
                   {"label": "incorrect", "score": 0}]}, expect=409)  # spans hold annotations named so
    get(f"/annotation_configs/{CORRECTNESS}")
    send("PUT", f"/annotation_configs/{tone}", {"name": "voice", "type": "FREEFORM", "threshold": 0.5})
    get("/annotation_configs/voice")
    get("/annotation_configs/tone", expect=404)
    get(f"/projects/{CHATBOT}/annotation_configs")
    send("PUT", f"/projects/{CHATBOT}/annotation_configs/{CORRECTNESS}")
    get(f"/projects/{CHATBOT}/annotation_configs")
    send("PUT", f"/projects/{RAG}/annotation_configs", {"annotation_config_ids": [HELPFULNESS, tone]})
    get(f"/projects/{RAG}/annotation_configs")
    send("DELETE", f"/projects/{RAG}/annotation_configs/{tone}", expect=204)
    get(f"/projects/{RAG}/annotation_configs")
    send("DELETE", f"/annotation_configs/{tone}")
    get(f"/annotation_configs/{tone}", expect=404)
    get("/annotation_configs")

    # ---- g. after everything
    get("/projects")
    get(f"/projects/{support}")
    get("/datasets")
    get(f"/datasets/{QA}")
    get("/dataset_labels")
    get("/prompts")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18311")
