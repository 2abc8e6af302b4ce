#!/usr/bin/env python3
"""Seed a fresh Arize Phoenix 20.26.1 through its own REST API (/v1, standard library only).

Usage: seed.py BASE_URL

Runs directly on the application's port (start.sh), never through a recording proxy. Phoenix makes
every id itself, a Relay global id (base64 of `Type:n`) over SQLite's sequence of each table, so a
fresh start makes the same ids in the same order and probes can name them. What it makes (README
"Seed data"): projects chatbot, rag-pipeline and evals (the `default` project exists already:
Project 1); datasets qa-basics (3 examples) and support-tickets (2 examples); dataset labels
golden and regression; a prompt greeting with one version tagged production; annotation configs
correctness (categorical) and helpfulness (continuous).
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE = sys.argv[1].rstrip("/") + "/v1"


def send(method, path, body=None, expect=(200, 201, 204)):
    return checked_call(BASE, method, path, None, body, expect)


for name, description in (("chatbot", "Customer support chatbot traces"),
                          ("rag-pipeline", "Retrieval-augmented answers over the handbook"),
                          ("evals", None)):
    send("POST", "/projects", {"name": name, **({"description": description} if description else {})})

# Two spans of one trace in chatbot: accepted 202 and inserted by a background queue, so the seed
# waits until the project lists them (span annotations need them in the database).
send("POST", "/projects/chatbot/spans", {"data": [
    {"name": "chat", "context": {"trace_id": "0af7651916cd43dd8448eb211c80319c", "span_id": "1a2b3c4d5e6f7a01"},
     "span_kind": "CHAIN", "start_time": "2026-12-01T10:00:00+00:00", "end_time": "2026-12-01T10:00:02+00:00",
     "status_code": "OK", "attributes": {"input.value": "Where is my order?", "output.value": "It ships today."}},
    {"name": "llm", "context": {"trace_id": "0af7651916cd43dd8448eb211c80319c", "span_id": "1a2b3c4d5e6f7a02"},
     "parent_id": "1a2b3c4d5e6f7a01", "span_kind": "LLM", "start_time": "2026-12-01T10:00:00.500000+00:00",
     "end_time": "2026-12-01T10:00:01.500000+00:00", "status_code": "OK",
     "attributes": {"llm.model_name": "gpt-4o-mini"}}]}, expect=(202,))
for _ in range(300):
    if len(send("GET", "/projects/chatbot/spans")["data"]) == 2:
        break
    time.sleep(0.2)
else:
    raise SystemExit("seed: the chatbot spans never showed")

send("POST", "/datasets/upload?sync=true", {
    "action": "create", "name": "qa-basics", "description": "Short factual questions",
    "inputs": [{"question": "What is the capital of France?"}, {"question": "How many legs has a spider?"},
               {"question": "Who wrote Hamlet?"}],
    "outputs": [{"answer": "Paris"}, {"answer": "8"}, {"answer": "William Shakespeare"}],
    "metadata": [{"topic": "geography"}, {"topic": "biology"}, {"topic": "literature"}]})
send("POST", "/datasets/upload?sync=true", {
    "action": "create", "name": "support-tickets", "description": "Tickets and the agent's replies",
    "inputs": [{"ticket": "My invoice is wrong"}, {"ticket": "I cannot log in"}],
    "outputs": [{"reply": "We corrected the invoice."}, {"reply": "We reset your password."}],
    "metadata": [{"priority": "low"}, {"priority": "high"}]})

send("POST", "/dataset_labels", {"name": "golden", "color": "#33c5e8", "description": "Hand-checked answers"})
send("POST", "/dataset_labels", {"name": "regression", "color": "#e8a033"})

VERSION = {"model_provider": "OPENAI", "model_name": "gpt-4o-mini",
           "template": {"type": "chat", "messages": [
               {"role": "system", "content": "You are a friendly assistant."},
               {"role": "user", "content": "Greet {{name}} in one sentence."}]},
           "template_type": "CHAT", "template_format": "MUSTACHE",
           "invocation_parameters": {"type": "openai", "openai": {"temperature": 0.2}}}
created = send("POST", "/prompts", {"prompt": {"name": "greeting", "description": "Greets a user by name"},
                                    "version": {**VERSION, "description": "first draft"}})
send("POST", f"/prompt_versions/{created['data']['id']}/tags", {"name": "production"})

send("POST", "/annotation_configs", {
    "name": "correctness", "type": "CATEGORICAL", "optimization_direction": "MAXIMIZE",
    "description": "Is the answer right?",
    "values": [{"label": "correct", "score": 1}, {"label": "incorrect", "score": 0}]})
send("POST", "/annotation_configs", {
    "name": "helpfulness", "type": "CONTINUOUS", "optimization_direction": "MAXIMIZE",
    "lower_bound": 0, "upper_bound": 10})
print("seed: 3 projects, 2 spans, 2 datasets, 2 dataset labels, 1 prompt, 2 annotation configs")
